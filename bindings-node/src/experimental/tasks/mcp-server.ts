/**
 * `ferrymcp/experimental/tasks/mcp-server.js`: v1's `ExperimentalMcpServerTasks`
 * (`registerToolTask`: the application's own `createTask` / `getTask` / `getTaskResult`
 * handlers). Not there yet, so constructing it throws `FerrymcpUnsupportedError` naming
 * it: register the tool with `execution: { taskSupport }` (and give the server a
 * `taskStore` to keep the tasks in) and core creates, runs and answers its tasks.
 */
import { placeholderClass } from '../../auth-helpers.js';

export const ExperimentalMcpServerTasks = placeholderClass(
  'ExperimentalMcpServerTasks',
  "registerToolTask is not supported yet: register the tool with execution.taskSupport (and the server's taskStore) and core creates, runs and answers its tasks",
);

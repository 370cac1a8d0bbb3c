/**
 * `ferrymcp/experimental/tasks/mcp-server.js`: v1's `ExperimentalMcpServerTasks`
 * (`registerToolTask` over a user task store). Core runs tasks itself, so constructing it
 * throws `FerrymcpUnsupportedError` naming it: register the tool with
 * `execution: { taskSupport }` and core creates, runs and answers its tasks.
 */
import { placeholderClass } from '../../auth-helpers.js';

export const ExperimentalMcpServerTasks = placeholderClass(
  'ExperimentalMcpServerTasks',
  'core runs tasks with its own store: register the tool with execution.taskSupport and core creates, runs and answers its tasks',
);

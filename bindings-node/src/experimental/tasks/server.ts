/**
 * `ferrymcp/experimental/tasks/server.js`: v1's `ExperimentalServerTasks` (the low-level
 * server's task helpers). Not there yet, so constructing it throws
 * `FerrymcpUnsupportedError` naming it.
 */
import { placeholderClass } from '../../auth-helpers.js';

export const ExperimentalServerTasks = placeholderClass(
  'ExperimentalServerTasks',
  "not supported yet: give the server a taskStore and register tools with execution.taskSupport, and core serves the task methods",
);

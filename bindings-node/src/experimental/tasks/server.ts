/**
 * `ferrymcp/experimental/tasks/server.js`: v1's `ExperimentalServerTasks` (the low-level
 * server's task API over a user task store). Core runs tasks itself, so constructing it
 * throws `FerrymcpUnsupportedError` naming it.
 */
import { placeholderClass } from '../../auth-helpers.js';

export const ExperimentalServerTasks = placeholderClass(
  'ExperimentalServerTasks',
  'core runs tasks with its own store: declare tasks in the capabilities and register tools with execution.taskSupport',
);

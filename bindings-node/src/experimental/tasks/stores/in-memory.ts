/**
 * `ferrymcp/experimental/tasks/stores/in-memory.js`: the v1 task store and message queue.
 * Core runs tasks with its own store and queue (declare `tasks` in the capabilities and
 * register tools with `execution.taskSupport`), so constructing either throws
 * `FerrymcpUnsupportedError` (`code` `ERR_FERRYMCP_UNSUPPORTED`) naming it, as the
 * `taskStore` / `taskMessageQueue` server options are refused.
 */
import { placeholderClass } from '../../../auth-helpers.js';

const WHY = 'core runs tasks with its own store and queue: declare tasks in the capabilities and register tools with execution.taskSupport';

export const InMemoryTaskStore = placeholderClass('InMemoryTaskStore', WHY);
export const InMemoryTaskMessageQueue = placeholderClass('InMemoryTaskMessageQueue', WHY);

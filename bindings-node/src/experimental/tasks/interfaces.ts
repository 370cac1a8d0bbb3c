/** `ferrymcp/experimental/tasks/interfaces.js`: the runtime name of the v1 path. */
import type { Task } from '../../client-tasks.js';

/** Whether a task status is final (`completed`, `failed` or `cancelled`): no further updates follow. */
export function isTerminal(status: Task['status']): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * `ferrymcp/experimental/tasks/interfaces.js`: v1's task store interface (the 2025-11-25
 * revision's tasks), the shape a server's `taskStore` option takes: core calls these six
 * methods and serves the task methods from what they answer.
 */
import type { Task } from '../../client-tasks.js';

/** What a task-augmented request asks of its task. */
export interface CreateTaskOptions {
  ttl?: number | null;
  pollInterval?: number;
  context?: Record<string, unknown>;
}

/** Where a server keeps its tasks (the official 1.x interface). */
export interface TaskStore {
  createTask(taskParams: CreateTaskOptions, requestId: string | number, request: { method: string; params?: Record<string, unknown> }, sessionId?: string): Promise<Task>;
  getTask(taskId: string, sessionId?: string): Promise<Task | null>;
  storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Record<string, unknown>, sessionId?: string): Promise<void>;
  getTaskResult(taskId: string, sessionId?: string): Promise<Record<string, unknown>>;
  updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string): Promise<void>;
  listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }>;
}

/** A message queued for a task (the official type; core keeps no such queue). */
export interface BaseQueuedMessage {
  type: string;
  timestamp: number;
}
export interface QueuedRequest extends BaseQueuedMessage {
  type: 'request';
  message: { jsonrpc: '2.0'; id: string | number; method: string; params?: Record<string, unknown> };
}
export interface QueuedNotification extends BaseQueuedMessage {
  type: 'notification';
  message: { jsonrpc: '2.0'; method: string; params?: Record<string, unknown> };
}
export interface QueuedResponse extends BaseQueuedMessage {
  type: 'response';
  message: { jsonrpc: '2.0'; id: string | number; result: Record<string, unknown> };
}
export interface QueuedError extends BaseQueuedMessage {
  type: 'error';
  message: { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string; data?: unknown } };
}
export type QueuedMessage = QueuedRequest | QueuedNotification | QueuedResponse | QueuedError;

/** The official queue interface, for an application's own use (a server refuses `taskMessageQueue`). */
export interface TaskMessageQueue {
  enqueue(taskId: string, message: QueuedMessage, sessionId?: string, maxSize?: number): Promise<void>;
  dequeue(taskId: string, sessionId?: string): Promise<QueuedMessage | undefined>;
  dequeueAll(taskId: string, sessionId?: string): Promise<QueuedMessage[]>;
}

/** Whether a task status is final (`completed`, `failed` or `cancelled`): no further updates follow. */
export function isTerminal(status: Task['status']): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

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

/**
 * The task store a request's handler gets (v1's `extra.taskStore`): core's 2025-11-25 store
 * for the request's session. A task it creates is the request's; each change it makes is
 * announced to the client (`notifications/tasks/status`) and wakes a waiting `tasks/result`.
 */
export interface RequestTaskStore {
  createTask(taskParams: CreateTaskOptions): Promise<Task>;
  getTask(taskId: string): Promise<Task>;
  storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Record<string, unknown>): Promise<void>;
  getTaskResult(taskId: string): Promise<Record<string, unknown>>;
  updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string): Promise<void>;
  listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }>;
}

/** The `extra` of a `registerToolTask` handler: a request's, with its task store and the `ttl` the client asked. */
export interface CreateTaskRequestHandlerExtra {
  taskStore: RequestTaskStore;
  taskRequestedTtl?: number;
  sessionId?: string;
  signal: AbortSignal;
  [key: string]: unknown;
}

/** v1's `ToolTaskHandler`: `createTask` makes the task (with `extra.taskStore`) and returns `{ task }`. */
export interface ToolTaskHandler<Args = unknown> {
  createTask(args: Args, extra: CreateTaskRequestHandlerExtra): unknown;
  createTask(extra: CreateTaskRequestHandlerExtra): unknown;
  /** Kept for the official signature: core serves `tasks/get` from the store. */
  getTask?: (...args: never[]) => unknown;
  /** Kept for the official signature: core serves `tasks/result` from the store. */
  getTaskResult?: (...args: never[]) => unknown;
}

/** A message queued for a task (the official type). */
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

/** The official queue interface (a server takes an `InMemoryTaskMessageQueue` as `taskMessageQueue`, no other). */
export interface TaskMessageQueue {
  enqueue(taskId: string, message: QueuedMessage, sessionId?: string, maxSize?: number): Promise<void>;
  dequeue(taskId: string, sessionId?: string): Promise<QueuedMessage | undefined>;
  dequeueAll(taskId: string, sessionId?: string): Promise<QueuedMessage[]>;
}

/** Whether a task status is final (`completed`, `failed` or `cancelled`): no further updates follow. */
export function isTerminal(status: Task['status']): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

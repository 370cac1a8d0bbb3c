/**
 * `ferrymcp/experimental/tasks/stores/in-memory.js`: v1's `InMemoryTaskStore`, core's
 * in-memory task store of the 2025-11-25 revision's tasks (`NativeInMemoryTaskStore`), with
 * the official class's methods. Given to a server as `taskStore` it is the store core
 * serves `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` from; an application
 * may also use it on its own (the official `simpleTaskInteractive` example keeps its tasks
 * in a subclass). Its rules are core's: terminal states never change, a result is stored
 * once, a task is dropped `ttl` ms after its creation and again after it ends, pages of 10;
 * unlike the official one, a task created for a session is not listed or found for another.
 *
 * `InMemoryTaskMessageQueue` still throws `FerrymcpUnsupportedError` naming itself: core
 * sends a task's requests to the client over the session as they happen, so it keeps no
 * queue an application could hand it.
 */
import { placeholderClass } from '../../../auth-helpers.js';
import { NativeInMemoryTaskStore } from '../../../native.js';
import type { CreateTaskOptions, TaskStore } from '../interfaces.js';
import type { Task } from '../../../client-tasks.js';

type Result = Record<string, unknown>;

export class InMemoryTaskStore implements TaskStore {
  /** @internal core's store, which a server given this object as `taskStore` uses directly. */
  readonly native: InstanceType<typeof NativeInMemoryTaskStore> = new NativeInMemoryTaskStore();

  async createTask(taskParams: CreateTaskOptions, _requestId: unknown, _request: unknown, sessionId?: string): Promise<Task> {
    const options = { ttl: taskParams.ttl ?? undefined, pollInterval: taskParams.pollInterval };
    return JSON.parse(this.native.createTask(JSON.stringify(options), sessionId)) as Task;
  }

  async getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    return JSON.parse(this.native.getTask(taskId, sessionId)) as Task | null;
  }

  async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result, sessionId?: string): Promise<void> {
    this.native.storeTaskResult(taskId, status, JSON.stringify(result), sessionId);
  }

  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    return JSON.parse(this.native.getTaskResult(taskId, sessionId)) as Result;
  }

  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string): Promise<void> {
    this.native.updateTaskStatus(taskId, status, statusMessage, sessionId);
  }

  async listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    return JSON.parse(this.native.listTasks(cursor, sessionId)) as { tasks: Task[]; nextCursor?: string };
  }

  /** Forgets every task (the official class's `cleanup()`). */
  cleanup(): void {
    this.native.clear();
  }

  /** Every task still kept. */
  getAllTasks(): Task[] {
    return JSON.parse(this.native.allTasks()) as Task[];
  }
}

export const InMemoryTaskMessageQueue = placeholderClass(
  'InMemoryTaskMessageQueue',
  "core sends a task's requests to the client over the session as they happen and keeps no message queue",
);

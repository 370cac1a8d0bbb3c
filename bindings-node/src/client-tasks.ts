/**
 * Tasks from the client side: the official `client.experimental.tasks` (v1
 * `ExperimentalClientTasks`) on core's task calls.
 *
 * Core speaks both task protocols (the 2026-07-28 `io.modelcontextprotocol/tasks`
 * extension and the experimental tasks of 2025-11-25) and hands tasks back in the official
 * `Task` shape (`taskId`, `status`, `ttl`, `pollInterval`, ...) either way. When to poll
 * (the task's `pollInterval`), which states are terminal and what a finished task's
 * outcome is are core's decisions, not this file's.
 *
 * - `callToolStream(params, resultSchema?, options?)`: yields `taskCreated`, then a
 *   `taskStatus` per poll, then `result` (or `error`); a tool the server runs at once
 *   yields its `result` only. On 2026-07-28 the task's input requests are answered with
 *   the client's request handlers (elicitation, sampling, roots) and `tasks/update`.
 * - `getTask`, `getTaskResult`, `listTasks` (2025-11-25 only: the 2026-07-28 extension has
 *   no list), `cancelTask`, and ferrymcp's `updateTask(taskId, inputResponses)`.
 *
 * `options.task.ttl` asks for a lifetime (2025-11-25; a 2026-07-28 server decides it).
 * Request options other than `task` are refused by name.
 */
import { ErrorCode, McpError, fromNative } from './errors.js';
import type { NativeClientHandle } from './native.js';
import type { CallToolResult } from './types.js';

export interface Task {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
  [member: string]: unknown;
}

export type TaskResponseMessage =
  | { type: 'taskCreated'; task: Task }
  | { type: 'taskStatus'; task: Task }
  | { type: 'result'; result: CallToolResult }
  | { type: 'error'; error: McpError };

export interface TaskCallOptions {
  task?: { ttl?: number };
  [option: string]: unknown;
}

interface Schema {
  parse(value: unknown): unknown;
}

function refuseOptions(options: TaskCallOptions | undefined, method: string, supported: string[]): void {
  for (const [name, value] of Object.entries(options ?? {})) {
    if (value !== undefined && !supported.includes(name)) {
      throw new TypeError(`ferrymcp ${method} does not support the option ${name} (supported: ${supported.join(', ') || 'none'})`);
    }
  }
}

export class ExperimentalClientTasks {
  readonly #native: () => NativeClientHandle;

  constructor(native: () => NativeClientHandle) {
    this.#native = native;
  }

  async #call(run: (native: NativeClientHandle) => Promise<string>): Promise<unknown> {
    const native = this.#native();
    try {
      return JSON.parse(await run(native));
    } catch (error) {
      throw fromNative(error);
    }
  }

  async *callToolStream(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    resultSchema?: Schema,
    options?: TaskCallOptions,
  ): AsyncGenerator<TaskResponseMessage, void, void> {
    refuseOptions(options, 'callToolStream', ['task']);
    let created: { task?: Task; result?: CallToolResult };
    try {
      const meta = params._meta === undefined ? undefined : JSON.stringify(params._meta);
      created = (await this.#call((n) => n.callToolAsTask(params.name, JSON.stringify(params.arguments ?? {}), options?.task?.ttl, meta))) as typeof created;
    } catch (error) {
      yield { type: 'error', error: error as McpError };
      return;
    }
    if (created.task === undefined) {
      yield { type: 'result', result: (resultSchema?.parse(created.result) ?? created.result) as CallToolResult };
      return;
    }
    const taskId = created.task.taskId;
    yield { type: 'taskCreated', task: created.task };
    let previous: Task = created.task;
    try {
      for (;;) {
        const task = (await this.#call((n) => n.pollTaskStep(taskId, JSON.stringify(previous)))) as Task | null;
        if (task === null) break;
        yield { type: 'taskStatus', task };
        previous = task;
        if (task.status === 'input_required') break;
      }
      const result = await this.getTaskResult(taskId, resultSchema);
      yield { type: 'result', result: result as CallToolResult };
    } catch (error) {
      yield { type: 'error', error: error as McpError };
    }
  }

  async getTask(taskId: string): Promise<Task> {
    return (await this.#call((n) => n.getTask(taskId))) as Task;
  }

  async getTaskResult<T = CallToolResult>(taskId: string, resultSchema?: Schema): Promise<T> {
    const result = await this.#call((n) => n.taskResult(taskId));
    return (resultSchema ? resultSchema.parse(result) : result) as T;
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    return (await this.#call((n) => n.listTasks(cursor))) as { tasks: Task[]; nextCursor?: string };
  }

  async cancelTask(taskId: string): Promise<Task> {
    return (await this.#call((n) => n.cancelTask(taskId))) as Task;
  }

  /** Answers the task's input requests by key (2026-07-28 `tasks/update`). */
  async updateTask(taskId: string, inputResponses: Record<string, unknown>): Promise<void> {
    await this.#call((n) => n.updateTask(taskId, JSON.stringify(inputResponses)));
  }
}

export function notConnected(): never {
  throw new McpError(ErrorCode.ConnectionClosed, 'Not connected');
}

/**
 * `ferrymcp/experimental/tasks/server.js`: v1's `ExperimentalServerTasks`
 * (`server.server.experimental.tasks`, the low-level server's task helpers).
 * `requestStream`, `elicitInputStream` and `createMessageStream` send their request to the
 * client through core, as the server's `elicitInput` / `createMessage` do (core checks the
 * client's capabilities and the request, and carries a request made for a 2025-11-25 task
 * on the stream of a `tasks/result` waiting on it), and yield what it answered as the
 * official stream does: one `{ type: 'result', result }`, or one `{ type: 'error', error }`.
 * A request to the client made as a task of the client's (`options.task`) and the other
 * request options, and the client-task methods (`getTask`, `getTaskResult`, `listTasks`,
 * `cancelTask`), throw `ERR_FERRYMCP_UNSUPPORTED` naming themselves.
 */
import { FerrymcpUnsupportedError } from '../../auth-helpers.js';
import { currentContext } from '../../context.js';
import { ErrorCode, McpError, refuseOption } from '../../errors.js';

/** What the streams yield: the answer, or what went wrong (v1's `ResponseMessage`, without the task messages). */
export type ServerResponseMessage<T> = { type: 'result'; result: T } | { type: 'error'; error: Error };

const CLIENT_TASKS = "a request to the client made as a task of the client's (its tasks polled by the server) is not supported by ferrymcp yet";

function checkOptions(where: string, options: unknown): void {
  if (options === undefined || options === null) return;
  for (const key of Object.keys(options as object)) {
    refuseOption(where, `options.${key}`, key === 'task' || key === 'relatedTask' ? CLIENT_TASKS : 'request options are not supported here by ferrymcp');
  }
}

async function* answer<T>(method: string, params: unknown): AsyncGenerator<ServerResponseMessage<T>, void, void> {
  const ctx = currentContext.getStore();
  if (ctx === undefined) {
    yield { type: 'error', error: new McpError(ErrorCode.InvalidRequest, `${method} can only be sent while a request is being handled (or by the work it started)`) };
    return;
  }
  try {
    yield { type: 'result', result: (await ctx.input(method, params ?? {})) as T };
  } catch (error) {
    yield { type: 'error', error: error instanceof Error ? error : new Error(String(error)) };
  }
}

export class ExperimentalServerTasks {
  // The low-level server (kept for the official shape; the request goes through the handler's context).
  readonly #server: unknown;

  constructor(server: unknown) {
    this.#server = server;
  }

  /** Sends `request` to the client and yields its answer (`resultSchema` is not checked, as `extra.sendRequest`). */
  requestStream<T = unknown>(request: { method: string; params?: unknown }, _resultSchema?: unknown, options?: unknown): AsyncGenerator<ServerResponseMessage<T>, void, void> {
    checkOptions('requestStream', options);
    return answer<T>(request.method, request.params);
  }

  /** `sampling/createMessage` to the client, its answer yielded. */
  createMessageStream<T = unknown>(params: unknown, options?: unknown): AsyncGenerator<ServerResponseMessage<T>, void, void> {
    checkOptions('createMessageStream', options);
    return answer<T>('sampling/createMessage', params);
  }

  /** `elicitation/create` to the client, its answer yielded. */
  elicitInputStream<T = unknown>(params: unknown, options?: unknown): AsyncGenerator<ServerResponseMessage<T>, void, void> {
    checkOptions('elicitInputStream', options);
    return answer<T>('elicitation/create', params);
  }

  getTask(): never {
    throw new FerrymcpUnsupportedError('ExperimentalServerTasks.getTask', CLIENT_TASKS);
  }

  getTaskResult(): never {
    throw new FerrymcpUnsupportedError('ExperimentalServerTasks.getTaskResult', CLIENT_TASKS);
  }

  listTasks(): never {
    throw new FerrymcpUnsupportedError('ExperimentalServerTasks.listTasks', CLIENT_TASKS);
  }

  cancelTask(): never {
    throw new FerrymcpUnsupportedError('ExperimentalServerTasks.cancelTask', CLIENT_TASKS);
  }

  /** The low-level server these helpers belong to. */
  get server(): unknown {
    return this.#server;
  }
}

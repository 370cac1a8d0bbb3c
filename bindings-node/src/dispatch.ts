/**
 * The one function every registered handler goes through on its way into the addon:
 * `(payloadJson, nativeContext) => void`, answering later through the context.
 *
 * It parses the payload (one `JSON.parse` in V8), runs the user's callback inside the
 * request's `HandlerContext` (also stored for `currentContext`), and maps the outcome the
 * way the official SDK does: a tool's thrown error becomes an `isError: true` result
 * (core builds it from the message), except protocol failures that must reach the client
 * as JSON-RPC errors; for resources, prompts and completions an `McpError` keeps its code
 * and anything else is an internal error. It never throws into the addon.
 */
import { HandlerContext, currentContext, isProtocolFailure } from './context.js';
import { McpError, messageOf } from './errors.js';
import type { NativeContext } from './native.js';
import type { RequestSchema } from './types.js';

export type Kind = 'tool' | 'other';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler kind reads its own payload shape
export type Run = (payload: any, ctx: HandlerContext) => unknown;
export type NativeHandler = (payloadJson: string, native: NativeContext) => void;

/** A request method as the official APIs name one: its string, or a request schema. */
export type MethodOrSchema = string | RequestSchema;

/** The parts of a zod literal (v3 `_def.value`, v4 `value` and `def.values`) a method name is read from. */
type ZodLiteral = { value?: unknown; _def?: { value?: unknown }; def?: { values?: unknown[] } };

export function methodOf(methodOrSchema: MethodOrSchema): string {
  if (typeof methodOrSchema === 'string') return methodOrSchema;
  const literal = (methodOrSchema as { shape?: { method?: ZodLiteral } }).shape?.method;
  const method = literal?.value ?? literal?._def?.value ?? literal?.def?.values?.[0];
  if (typeof method !== 'string') throw new TypeError('setRequestHandler needs a method name or a request schema');
  return method;
}


/** What a server adds around each of its handlers. */
export interface HandlerHooks {
  /**
   * The official `requestState.verify` hook: run before the handler on a retry that echoes
   * the `requestState` of the handler's own `inputRequired(...)` result; what it returns
   * (when not `undefined`) is what `ctx.mcpReq.requestState()` answers.
   */
  verifyRequestState?: (state: string, ctx: HandlerContext) => unknown;
  /** Hears a verify hook's rejection (the client gets the one fixed error). */
  onerror?: (error: Error) => void;
}

export function nativeHandler(method: string, kind: Kind, run: Run, hooks?: HandlerHooks): NativeHandler {
  return (payloadJson, native) => {
    const ctx = new HandlerContext(native, method);
    const verify = hooks?.verifyRequestState;
    const state = verify === undefined ? undefined : ctx.rawRequestState;
    if (verify === undefined || state === undefined) {
      currentContext.run(ctx, dispatch, native, kind, ctx, payloadJson, run);
      return;
    }
    currentContext.run(ctx, verifyThenDispatch, verify, state, hooks!, native, kind, ctx, payloadJson, run);
  };
}

/**
 * The verify hook, then the handler. A rejection is answered by core's fixed error for it
 * (`request_state_rejected`), whatever the hook threw (its reason goes to `onerror`
 * only): a tool too gets the JSON-RPC error, not an `isError` result.
 */
function verifyThenDispatch(
  verify: NonNullable<HandlerHooks['verifyRequestState']>,
  state: string,
  hooks: HandlerHooks,
  native: NativeContext,
  kind: Kind,
  ctx: HandlerContext,
  payloadJson: string,
  run: Run,
): void {
  const rejected = (error: unknown) => {
    try {
      hooks.onerror?.(new Error(`requestState verification rejected ${ctx.mcpReq.method}: ${messageOf(error)}`));
    } catch {
      // Reporting never changes the answer.
    }
    try {
      native.rejectRequestState();
    } catch {
      // Nothing left to answer with; the request ends at its deadline.
    }
  };
  let decoded: unknown;
  try {
    decoded = verify(state, ctx);
  } catch (error) {
    rejected(error);
    return;
  }
  Promise.resolve(decoded).then((value) => {
    if (value !== undefined) ctx.setRequestState(value);
    dispatch(native, kind, ctx, payloadJson, run);
  }, rejected);
}

/**
 * Runs the handler and answers. A handler (or a schema) that answers at once is answered
 * at once, without a promise; a promise is settled with one `then`. Each promise layer
 * costs a microtask turn and, with the AsyncLocalStorage above, an async-hooks record.
 */
function dispatch(native: NativeContext, kind: Kind, ctx: HandlerContext, payloadJson: string, run: Run): void {
  let result: unknown;
  try {
    result = run(JSON.parse(payloadJson), ctx);
  } catch (error) {
    fail(native, kind, error);
    return;
  }
  if (isThenable(result)) {
    result.then(
      (value) => answer(native, kind, value),
      (error: unknown) => fail(native, kind, error),
    );
  } else {
    answer(native, kind, result);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function answer(native: NativeContext, kind: Kind, result: unknown): void {
  try {
    native.reply(JSON.stringify(result ?? {}));
  } catch (error) {
    fail(native, kind, error);
  }
}

/** Never throws: nothing may escape into the addon's callback or a dangling promise. */
function fail(native: NativeContext, kind: Kind, error: unknown): void {
  try {
    // A tool running as a task (tasks extension) that throws an `McpError` fails the task
    // with that JSON-RPC error (`failed`, the error inlined), as the official v1 task API
    // ends a task `failed`; any other error is the tool's own (`completed`, `isError`).
    const failsTask = kind === 'tool' && error instanceof McpError && native.taskId != null;
    if (error instanceof McpError && (kind === 'other' || failsTask || isProtocolFailure(error))) {
      const data = error.data === undefined ? undefined : JSON.stringify(error.data);
      native.failRpc(error.code, error.rawMessage, data);
      return;
    }
    native.fail(messageOf(error));
  } catch {
    // The error could not be sent as it is (its data is not JSON): the request still fails.
    try {
      native.fail(messageOf(error));
    } catch {
      // Nothing left to answer with; the request ends at its deadline.
    }
  }
}

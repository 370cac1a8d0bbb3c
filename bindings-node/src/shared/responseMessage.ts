/** `ferrymcp/shared/responseMessage.js`: helpers for the message streams of `experimental.tasks.callToolStream`. */

/** Every item of an async iterable, in order. */
export async function toArrayAsync<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** The stream's `result` message's result; its `error` message's error is thrown; a stream with neither throws. */
export async function takeResult<R>(messages: AsyncIterable<{ type: string; result?: R; error?: unknown }>): Promise<R> {
  for await (const message of messages) {
    if (message.type === 'result') return message.result as R;
    if (message.type === 'error') throw message.error;
  }
  throw new Error('No result in stream.');
}

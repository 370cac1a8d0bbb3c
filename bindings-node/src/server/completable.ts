/** `ferrymcp/server/completable.js`: the v1 path of `completable` and its helpers. */
import { COMPLETABLE, completable, completerOf } from '../schema.js';
import type { CompleteCallback } from '../schema.js';

export { completable, COMPLETABLE as COMPLETABLE_SYMBOL };
export type { CompleteCallback };

/** Whether `schema` was wrapped by {@link completable}. */
export function isCompletable(schema: unknown): boolean {
  return completerOf(schema) !== undefined;
}

/** The completion callback {@link completable} gave `schema`, if any. */
export function getCompleter(schema: unknown): CompleteCallback | undefined {
  return completerOf(schema);
}

/** The schema itself: `completable()` marks a schema in place, so there is nothing to unwrap. */
export function unwrapCompletable<T>(schema: T): T {
  return schema;
}

/** The official marker kind of a completable schema. */
export enum McpZodTypeKind {
  Completable = 'McpCompletable',
}

/**
 * Runtime checks for the specification's types, under the official v2 names:
 * `specTypeSchemas` (a schema per type name, each a Standard Schema), `isSpecType` (a
 * predicate per type name), `preloadSchemas()` and `isCallToolResult`. The schemas are
 * `schemas.ts`'s, generated from the specification; each is built on first use.
 */
import * as schemas from './schemas.js';

type SpecSchema = { safeParse(value: unknown): { success: boolean }; '~standard': unknown };

const entries: Array<[string, SpecSchema]> = Object.entries(schemas as unknown as Record<string, SpecSchema>)
  .filter(([key]) => key.endsWith('Schema'))
  .map(([key, schema]) => [key.slice(0, -'Schema'.length), schema]);

/** The schema of every specification type, by type name (`specTypeSchemas.CallToolResult`). */
export const specTypeSchemas: Readonly<Record<string, SpecSchema>> = Object.freeze(Object.fromEntries(entries));

/** A predicate for every specification type, by type name (`isSpecType.ContentBlock(value)`): whether the value parses. */
export const isSpecType: Readonly<Record<string, (value: unknown) => boolean>> = Object.freeze(
  Object.fromEntries(entries.map(([name, schema]) => [name, (value: unknown) => schema.safeParse(value).success])),
);

/** Builds every schema now rather than on first use (for a server that wants its first request fast). */
export function preloadSchemas(): void {
  for (const [, schema] of entries) void schema['~standard'];
}

/** Whether `value` is a `CallToolResult` (it has `content`, and parses). */
export function isCallToolResult(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || (value as { content?: unknown }).content === undefined) return false;
  return schemas.CallToolResultSchema.safeParse(value).success;
}

/** Whether `value` is the params of a task-augmented request (an optional `task` with its metadata), as the schema says. */
export function isTaskAugmentedRequestParams(value: unknown): boolean {
  return schemas.TaskAugmentedRequestParamsSchema.safeParse(value).success;
}

type CompleteRequestLike = { params: { ref: { type: string } } };

/** Throws a `TypeError` unless the `completion/complete` request completes a prompt argument (`ref/prompt`). */
export function assertCompleteRequestPrompt(request: CompleteRequestLike): void {
  if (request.params.ref.type !== 'ref/prompt') throw new TypeError(`Expected CompleteRequestPrompt, but got ${request.params.ref.type}`);
}

/** Throws a `TypeError` unless the `completion/complete` request completes a resource template variable (`ref/resource`). */
export function assertCompleteRequestResourceTemplate(request: CompleteRequestLike): void {
  if (request.params.ref.type !== 'ref/resource') throw new TypeError(`Expected CompleteRequestResourceTemplate, but got ${request.params.ref.type}`);
}

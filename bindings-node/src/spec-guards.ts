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

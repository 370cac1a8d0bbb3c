/**
 * `ferrymcp/server/zod-json-schema-compat.js`: the official v1 path
 * `@modelcontextprotocol/sdk/server/zod-json-schema-compat.js`, JSON Schema and parsing
 * for zod 3 and zod 4 schemas alike.
 *
 * `toJsonSchemaCompat` is the conversion `McpServer` lists a tool's schema with
 * (`zodJsonSchema` in `../schema.js`), so it returns what `ferrymcp/server/mcp.js` lists
 * for that schema. One deliberate difference from the official helper: a zod 4 part JSON
 * Schema cannot express (`z.date()`, `z.bigint()`, a transform's output, ...) becomes `{}`
 * where the official one throws zod's "cannot be represented in JSON Schema" error (see
 * README, "zod-compat").
 */
import { zodJsonSchema } from '../schema.js';
import { getLiteralValue, getObjectShape, isZ4Schema, safeParse } from './zod-compat.js';
import type { AnyObjectSchema, AnySchema } from './zod-compat.js';

type JsonSchema = Record<string, unknown>;

type CommonOpts = {
  strictUnions?: boolean;
  pipeStrategy?: 'input' | 'output';
  target?: 'jsonSchema7' | 'draft-7' | 'jsonSchema2019-09' | 'draft-2020-12';
};

/**
 * The JSON Schema of a zod schema: the input side unless `pipeStrategy: 'output'`; zod 4
 * writes draft-07 unless `target` is `'draft-2020-12'` or `'jsonSchema2019-09'` (which zod 4
 * does not write: draft 2020-12 instead, as the official helper does); zod 3 always writes
 * draft-07 and takes `strictUnions` (default true).
 */
export function toJsonSchemaCompat(schema: AnyObjectSchema, opts?: CommonOpts): JsonSchema {
  const io = opts?.pipeStrategy ?? 'input';
  const target = opts?.target === 'draft-2020-12' || opts?.target === 'jsonSchema2019-09' ? 'draft-2020-12' : 'draft-7';
  return zodJsonSchema(schema, isZ4Schema(schema) ? { io, target } : { io, target, strictUnions: opts?.strictUnions ?? true });
}

/** The string literal of an object schema's `method` field (a request or notification schema's method name). */
export function getMethodLiteral(schema: AnyObjectSchema): string {
  const method = getObjectShape(schema)?.method;
  if (!method) throw new Error('Schema is missing a method literal');
  const value = getLiteralValue(method);
  if (typeof value !== 'string') throw new Error('Schema method literal must be a string');
  return value;
}

/** `data` parsed by `schema` (either zod); a failure throws the schema library's error itself. */
export function parseWithCompat(schema: AnySchema, data: unknown): unknown {
  const result = safeParse(schema, data);
  if (!result.success) throw result.error;
  return result.data;
}

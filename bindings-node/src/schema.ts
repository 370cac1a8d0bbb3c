/**
 * Schemas as the official SDK accepts them: a zod v4 schema, a zod raw shape
 * (`{ city: z.string() }`, the v1 style), or a plain JSON Schema object.
 *
 * zod schemas are turned into JSON Schema by zod's own `z.toJSONSchema` (for the
 * definition core validates against and lists), and arguments are parsed by the zod
 * schema before the handler runs, as the official SDK does, so defaults and transforms
 * apply. A plain JSON Schema is handed to core as it is; core validates arguments with it.
 */
import * as z from 'zod';

import { ErrorCode, McpError } from './errors.js';

type JsonObject = Record<string, unknown>;
export type ZodRawShape = Record<string, z.ZodType>;
export type AnySchema = z.ZodType | ZodRawShape | JsonObject;

export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** A raw shape: an object whose values are zod schemas (an empty object counts). */
export function isZodRawShape(value: unknown): value is ZodRawShape {
  if (typeof value !== 'object' || value === null || isZodSchema(value)) return false;
  const values = Object.values(value);
  return values.length === 0 || values.some(isZodSchema);
}

/** The zod schema behind a zod schema or raw shape; `undefined` for plain JSON Schema. */
export function asZod(schema: AnySchema | undefined): z.ZodType | undefined {
  if (schema === undefined) return undefined;
  if (isZodSchema(schema)) return schema;
  if (isZodRawShape(schema)) return z.object(schema);
  return undefined;
}

/** The JSON Schema for a definition: zod's own conversion, or the object as given. */
export function toJsonSchema(schema: AnySchema | undefined, io: 'input' | 'output'): JsonObject | undefined {
  if (schema === undefined) return undefined;
  const zod = asZod(schema);
  if (zod === undefined) return schema as JsonObject;
  const json = z.toJSONSchema(zod, { io, unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  return json;
}

/** Parses arguments with a zod schema; a failure is the official SDK's InvalidParams error. */
export async function parseArguments(schema: z.ZodType | undefined, args: unknown, what: string): Promise<unknown> {
  if (schema === undefined) return args;
  const result = await schema.safeParseAsync(args ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => issue.message).join('; ');
  throw new McpError(ErrorCode.InvalidParams, `Input validation error: Invalid arguments for ${what}: ${problems}`);
}

/** The fields of an object schema, for prompt arguments and completions. */
export function objectShape(schema: z.ZodType | undefined): ZodRawShape | undefined {
  const shape = (schema as { shape?: unknown } | undefined)?.shape;
  return typeof shape === 'object' && shape !== null ? (shape as ZodRawShape) : undefined;
}

/** A prompt's `arguments` list from its args schema (name, description, required). */
export function promptArguments(schema: z.ZodType | undefined): { name: string; description?: string; required: boolean }[] | undefined {
  const shape = objectShape(schema);
  if (shape === undefined) return undefined;
  return Object.entries(shape).map(([name, field]) => {
    const description = field.description;
    const required = !field.safeParse(undefined).success;
    return description === undefined ? { name, required } : { name, description, required };
  });
}

const COMPLETABLE = Symbol.for('ferrymcp.completable');

export type CompleteCallback = (value: string, context?: { arguments?: Record<string, string> }) => string[] | Promise<string[]>;

/** Wraps a schema so that its values can be completed (the official `completable`). */
export function completable<T extends z.ZodType>(schema: T, complete: CompleteCallback): T {
  Object.defineProperty(schema, COMPLETABLE, { value: complete, enumerable: false });
  return schema;
}

export function completerOf(field: unknown): CompleteCallback | undefined {
  return typeof field === 'object' && field !== null ? (field as { [COMPLETABLE]?: CompleteCallback })[COMPLETABLE] : undefined;
}

/**
 * `ferrymcp/server/zod-compat.js`: the official v1 path
 * `@modelcontextprotocol/sdk/server/zod-compat.js`, helpers that take zod 3 and zod 4
 * schemas alike (zod 3.25's root and `zod/v3`, its `zod/v4` and `zod/v4-mini`, zod 4
 * classic and mini). They answer as the official ones do on the same schema; the zod 3 /
 * zod 4 test is the package's own (`isZodSchema` in `../schema.js`, the one `McpServer`
 * uses for its definitions).
 *
 * zod 4 schemas are parsed with zod's top-level `safeParse` (zod/v4/core, the function
 * zod mini exports), so a failure's `error` is the same `$ZodRealError` the official
 * helpers return; zod 3 schemas with their own `safeParse` methods.
 */
import type * as z3 from 'zod/v3';
import { z as z3rt } from 'zod/v3';
import type * as z4 from 'zod/v4/core';
import { safeParse as z4SafeParse, safeParseAsync as z4SafeParseAsync } from 'zod/v4/core';
import * as zm from 'zod/mini';

import { isZodSchema } from '../schema.js';

export type AnySchema = z3.ZodTypeAny | z4.$ZodType;
export type AnyObjectSchema = z3.AnyZodObject | z4.$ZodObject | AnySchema;
export type ZodRawShapeCompat = Record<string, AnySchema>;

/** The zod 3 internals these helpers read. */
export interface ZodV3Internal {
  _def?: {
    typeName?: string;
    value?: unknown;
    values?: unknown[];
    shape?: Record<string, AnySchema> | (() => Record<string, AnySchema>);
    description?: string;
  };
  shape?: Record<string, AnySchema> | (() => Record<string, AnySchema>);
  value?: unknown;
}

/** The zod 4 internals these helpers read. */
export interface ZodV4Internal {
  _zod?: {
    def?: {
      type?: string;
      value?: unknown;
      values?: unknown[];
      shape?: Record<string, AnySchema> | (() => Record<string, AnySchema>);
    };
  };
  value?: unknown;
}

export type SchemaOutput<S> = S extends z3.ZodTypeAny ? z3.infer<S> : S extends z4.$ZodType ? z4.output<S> : never;
export type SchemaInput<S> = S extends z3.ZodTypeAny ? z3.input<S> : S extends z4.$ZodType ? z4.input<S> : never;
/** The parsed value of each field of a raw shape. */
export type ShapeOutput<Shape extends ZodRawShapeCompat> = { [K in keyof Shape]: SchemaOutput<Shape[K]> };

type ParseResult<S> = { success: true; data: SchemaOutput<S> } | { success: false; error: unknown };

/** Whether `s` is a zod 4 schema (classic or mini, zod 4 or zod 3.25's `zod/v4`) rather than zod 3. */
export function isZ4Schema(s: AnySchema): s is z4.$ZodType {
  return isZodSchema(s);
}

/** An object schema of `shape`'s zod version (zod 4 mini for zod 4 fields or none); a shape mixing versions is refused. */
export function objectFromShape(shape: ZodRawShapeCompat): AnyObjectSchema {
  const fields = Object.values(shape);
  const z4Count = fields.filter((field) => isZ4Schema(field)).length;
  if (z4Count === fields.length) return zm.object(shape as Record<string, z4.$ZodType>);
  if (z4Count === 0) return z3rt.object(shape as Record<string, z3.ZodTypeAny>);
  throw new Error('Mixed Zod versions detected in object shape.');
}

/** `data` parsed by `schema`, without throwing: `{ success, data }` or `{ success: false, error }`. */
export function safeParse<S extends AnySchema>(schema: S, data: unknown): ParseResult<S> {
  if (isZ4Schema(schema)) return z4SafeParse(schema, data) as ParseResult<S>;
  return (schema as z3.ZodTypeAny).safeParse(data) as ParseResult<S>;
}

/** `safeParse` for schemas with asynchronous refinements or transforms. */
export async function safeParseAsync<S extends AnySchema>(schema: S, data: unknown): Promise<ParseResult<S>> {
  if (isZ4Schema(schema)) return (await z4SafeParseAsync(schema, data)) as ParseResult<S>;
  return (await (schema as z3.ZodTypeAny).safeParseAsync(data)) as ParseResult<S>;
}

/** The fields of an object schema (zod 4 keeps them on `_zod.def.shape`, zod 3 on `.shape`); `undefined` for anything else. */
export function getObjectShape(schema: AnyObjectSchema | undefined): Record<string, AnySchema> | undefined {
  if (!schema) return undefined;
  const shape = isZ4Schema(schema) ? (schema as ZodV4Internal)._zod?.def?.shape : (schema as ZodV3Internal).shape;
  if (!shape) return undefined;
  if (typeof shape !== 'function') return shape;
  try {
    return shape();
  } catch {
    return undefined;
  }
}

/** Whether `value` looks like a schema of either zod (how a raw shape's fields are recognised). */
function looksLikeSchema(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return isZodSchema(value) || (value as ZodV3Internal)._def !== undefined || typeof (value as { parse?: unknown }).parse === 'function';
}

/**
 * `schema` as an object schema: a raw shape (a non-empty object of schemas) becomes one
 * (`objectFromShape`), an object schema of either zod is returned as it is, and anything
 * else (a string schema, an empty object, `undefined`) gives `undefined`.
 */
export function normalizeObjectSchema(schema: AnySchema | ZodRawShapeCompat | undefined): AnyObjectSchema | undefined {
  if (!schema) return undefined;
  if (typeof schema === 'object' && !(schema as ZodV3Internal)._def && !(schema as ZodV4Internal)._zod) {
    const fields = Object.values(schema);
    if (fields.length > 0 && fields.every(looksLikeSchema)) return objectFromShape(schema as ZodRawShapeCompat);
  }
  if (isZ4Schema(schema as AnySchema)) {
    const def = (schema as ZodV4Internal)._zod?.def;
    return def !== undefined && (def.type === 'object' || def.shape !== undefined) ? (schema as AnyObjectSchema) : undefined;
  }
  return (schema as ZodV3Internal).shape !== undefined ? (schema as AnyObjectSchema) : undefined;
}

/** An issue path as the official helper prints it: `a.b[0].c`. */
function dotPath(path: ReadonlyArray<PropertyKey>): string {
  let text = '';
  path.forEach((segment, index) => {
    if (index === 0) text = String(segment);
    else text += typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`;
  });
  return text;
}

/**
 * A parse failure's `error` as one message: zod's issues one a line (`message at a.b[0]`
 * for an issue with a path), else the error's `message`, else the value as JSON.
 * (A symbol in a path after its first segment is printed with `String`; the official
 * helper throws a TypeError there.)
 */
export function getParseErrorMessage(error: unknown): string {
  if (!error || typeof error !== 'object') return String(error);
  const issues = (error as { issues?: unknown }).issues;
  if ('issues' in error && Array.isArray(issues) && issues.length > 0) {
    return issues
      .map((issue: { message: string; path?: PropertyKey[] }) => (issue.path?.length ? `${issue.message} at ${dotPath(issue.path)}` : issue.message))
      .join('\n');
  }
  const message = (error as { message?: unknown }).message;
  if ('message' in error && typeof message === 'string') return message;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** The schema's `.describe(...)` text (zod 3 keeps it on its definition, zod 4 in its registry; both expose `.description`). */
export function getSchemaDescription(schema: AnySchema): string | undefined {
  return (schema as { description?: string }).description;
}

/**
 * Whether the schema is optional as the official helper judges it: zod 4, only an
 * `.optional()` (`z.optional(...)`) itself; zod 3, its `isOptional()` (which also counts
 * defaults and schemas that accept `undefined`).
 */
export function isSchemaOptional(schema: AnySchema): boolean {
  if (isZ4Schema(schema)) return (schema as ZodV4Internal)._zod?.def?.type === 'optional';
  const isOptional = (schema as { isOptional?: () => boolean }).isOptional;
  if (typeof isOptional === 'function') return isOptional.call(schema);
  return (schema as ZodV3Internal)._def?.typeName === 'ZodOptional';
}

/** The literal a definition holds: its `value`, else the first of its `values`. */
function defLiteral(def: { value?: unknown; values?: unknown[] } | undefined): { value: unknown } | undefined {
  if (!def) return undefined;
  if (def.value !== undefined) return { value: def.value };
  if (Array.isArray(def.values) && def.values.length > 0) return { value: def.values[0] };
  return undefined;
}

/**
 * A literal schema's value (zod 4 keeps it in `_zod.def.values`, zod 3 in `_def.value`; for
 * a zod 3 enum, its first option); `undefined` when the schema holds none.
 */
export function getLiteralValue(schema: AnySchema): unknown {
  const found = (isZ4Schema(schema) ? defLiteral((schema as ZodV4Internal)._zod?.def) : undefined) ?? defLiteral((schema as ZodV3Internal)._def);
  if (found) return found.value;
  return (schema as { value?: unknown }).value;
}

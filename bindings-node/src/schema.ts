/**
 * Schemas as the official SDKs accept them, turned into what core needs: the JSON Schema
 * a definition lists (core validates arguments and structured output against it) and a
 * parse step that gives the handler what the schema library makes of the arguments
 * (defaults, transforms), before the handler runs.
 *
 * - zod 4 schemas and raw shapes (`{ city: z.string() }`): zod's own `z.toJSONSchema`.
 * - zod 3 schemas and raw shapes (zod 3.25's root `zod`, or `zod/v3`), which the v1 SDK
 *   takes: `zod-to-json-schema`, the converter the v1 SDK uses.
 * - Any Standard Schema library with JSON Schema output (`~standard.validate` and
 *   `~standard.jsonSchema`: ArkType, Valibot through `toStandardJsonSchema`, ...), as the
 *   v2 SDK takes them; a library without JSON Schema output is refused by name.
 * - `fromJsonSchema(schema)` and plain JSON Schema objects: listed as given.
 *
 * The JSON Schema dialect follows the import path, as the official SDKs differ: the v2
 * paths (`ferrymcp`, `ferrymcp/server`) list draft 2020-12 with its `$schema`, an input
 * schema always `type: "object"` first; the v1 path (`ferrymcp/server/mcp.js`) lists
 * draft-07, as `@modelcontextprotocol/sdk` 1.x does.
 */
import * as z from 'zod';
import { z as z3 } from 'zod/v3';
import { zodToJsonSchema } from 'zod-to-json-schema';

import { ErrorCode, McpError } from './errors.js';

type JsonObject = Record<string, unknown>;
export type ZodRawShape = Record<string, z.ZodType>;
export type AnySchema = z.ZodType | ZodRawShape | StandardSchemaWithJSON | JsonObject;
export type Flavour = 'v1' | 'v2';

/** The Standard Schema interfaces (https://standardschema.dev), the parts used here. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}
export type StandardResult = { readonly value: unknown; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> };
export interface StandardSchemaWithJSON {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult | Promise<StandardResult>;
    readonly jsonSchema?: {
      readonly input: (options: { target: string }) => JsonObject;
      readonly output: (options: { target: string }) => JsonObject;
    };
  };
}

/** A schema ready for a definition: its JSON Schema, and how arguments are parsed. */
export interface Prepared {
  readonly json: JsonObject;
  /** What the handler receives; a failure is the official InvalidParams error. */
  parse(args: unknown, what: string): Promise<unknown>;
  /**
   * `parse` without a promise when the schema decides at once (a tool call's hot path):
   * the value, or a promise of it when the schema is asynchronous. Throws what `parse`
   * rejects with.
   */
  parseNow(args: unknown, what: string): unknown;
  /** The fields of an object schema (zod), for prompt arguments and completions. */
  readonly shape: Record<string, unknown> | undefined;
  /**
   * Whether `parse` checks the arguments (a schema library does, with the messages its
   * users know); a plain JSON Schema is checked by the engine instead.
   */
  readonly checksArguments: boolean;
}

const FROM_JSON_SCHEMA = Symbol.for('ferrymcp.fromJsonSchema');

/**
 * A JSON Schema given as it is (the v2 SDK's `fromJsonSchema`): listed unchanged, and
 * arguments are checked against it by the engine.
 */
export function fromJsonSchema<T = unknown>(schema: JsonObject): JsonObject & { readonly __type?: T } {
  return Object.defineProperty({ ...schema }, FROM_JSON_SCHEMA, { value: true, enumerable: false });
}

function hasKey(value: unknown, key: string): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && key in value;
}

export function isZodSchema(value: unknown): value is z.ZodType {
  return hasKey(value, '_zod');
}

/** A zod 3 schema: `_def` and zod's parse methods, no `_zod`. */
export function isZod3Schema(value: unknown): value is z3.ZodTypeAny {
  return hasKey(value, '_def') && !hasKey(value, '_zod') && typeof (value as { safeParseAsync?: unknown }).safeParseAsync === 'function';
}

function isStandardSchema(value: unknown): value is StandardSchemaWithJSON {
  return hasKey(value, '~standard') && typeof (value as StandardSchemaWithJSON)['~standard']?.validate === 'function';
}

/** A raw shape: an object whose values are zod schemas (an empty object counts). */
export function isZodRawShape(value: unknown): value is ZodRawShape {
  if (typeof value !== 'object' || value === null || isZodSchema(value) || isZod3Schema(value)) return false;
  const values = Object.values(value);
  return values.length === 0 || values.some((field) => isZodSchema(field) || isZod3Schema(field));
}

function issueText(issue: StandardIssue): string {
  if (!issue.path?.length) return issue.message;
  const path = issue.path.map((p) => String(typeof p === 'object' && p !== null ? p.key : p)).join('.');
  return `${path}: ${issue.message}`;
}

function invalid(what: string, issues: ReadonlyArray<StandardIssue>): McpError {
  return new McpError(ErrorCode.InvalidParams, `Input validation error: Invalid arguments for ${what}: ${issues.map(issueText).join(', ')}`);
}

/**
 * The package's one conversion of a zod schema to JSON Schema: what a definition lists, and
 * what `ferrymcp/server/zod-json-schema-compat.js`'s `toJsonSchemaCompat` returns.
 *
 * - zod 4 (any schema with `_zod`: zod 4 classic and mini, zod 3.25's `zod/v4`):
 *   `z.toJSONSchema` with `unrepresentable: 'any'`, so a part JSON Schema cannot express
 *   (`z.date()`, `z.bigint()`, a custom check...) is listed as `{}` and the tool still
 *   lists. The official v1 SDK leaves zod's default there (`'throw'`) and `tools/list`
 *   fails instead; everything representable comes out the same.
 * - zod 3 (zod 3.25's root or `zod/v3`): `zod-to-json-schema`, as the v1 SDK; `target` is
 *   not used (the converter's default, draft-07 with its `$schema`), as there.
 */
export function zodJsonSchema(
  schema: unknown,
  options: { io: 'input' | 'output'; target: 'draft-7' | 'draft-2020-12'; strictUnions?: boolean },
): JsonObject {
  if (isZodSchema(schema)) return z.toJSONSchema(schema, { io: options.io, target: options.target, unrepresentable: 'any' }) as JsonObject;
  return zodToJsonSchema(schema as z3.ZodTypeAny, { strictUnions: options.strictUnions ?? true, pipeStrategy: options.io }) as JsonObject;
}

/** MCP's rule for input schemas (v2): the root is an object, `type` first. */
function objectRoot(json: JsonObject, io: 'input' | 'output', flavour: Flavour): JsonObject {
  if (io === 'output' || flavour === 'v1') return json;
  if (json.type !== undefined && json.type !== 'object') {
    throw new Error(
      `MCP tool and prompt schemas must describe objects (got type: ${JSON.stringify(json.type)}). ` +
        'Wrap your schema in z.object({...}) or equivalent.',
    );
  }
  return { type: 'object', ...json };
}

/** `schema` prepared for a definition; `undefined` when there is none. */
export function prepare(schema: unknown, io: 'input' | 'output', flavour: Flavour): Prepared | undefined {
  if (schema === undefined) return undefined;
  if (isZodRawShape(schema)) {
    const fields = Object.values(schema);
    const zod3 = fields.length > 0 && fields.every(isZod3Schema);
    if (!zod3 && fields.some(isZod3Schema)) {
      throw new Error('a raw shape mixes zod 3 and zod 4 schemas; use one zod version per shape');
    }
    return prepare(zod3 ? z3.object(schema as unknown as z3.ZodRawShape) : z.object(schema), io, flavour);
  }
  if (isZodSchema(schema)) {
    const json = zodJsonSchema(schema, { io, target: flavour === 'v1' ? 'draft-7' : 'draft-2020-12' });
    return zodPrepared(schema, objectRoot(json, io, flavour), (schema as { shape?: Record<string, unknown> }).shape);
  }
  if (isZod3Schema(schema)) {
    const json = zodJsonSchema(schema, { io, target: 'draft-7' });
    return zodPrepared(schema, objectRoot(json, io, flavour), (schema as { shape?: Record<string, unknown> }).shape);
  }
  if (isStandardSchema(schema)) {
    const std = schema['~standard'];
    if (typeof std.jsonSchema?.[io] !== 'function') {
      throw new Error(
        `Schema library "${std.vendor}" does not implement StandardJSONSchemaV1 (\`~standard.jsonSchema\`). ` +
          'Upgrade to a version that does, or wrap your JSON Schema with fromJsonSchema().',
      );
    }
    const json = std.jsonSchema[io]({ target: flavour === 'v1' ? 'draft-07' : 'draft-2020-12' });
    return {
      json: objectRoot(json, io, flavour),
      shape: undefined,
      checksArguments: true,
      async parse(args, what) {
        return standardValue(await std.validate(args ?? {}), what);
      },
      parseNow(args, what) {
        const result = std.validate(args ?? {});
        return result instanceof Promise ? result.then((done) => standardValue(done, what)) : standardValue(result, what);
      },
    };
  }
  if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) {
    const json = { ...(schema as JsonObject) };
    return { json, shape: undefined, checksArguments: false, parse: async (args) => args, parseNow: (args) => args };
  }
  throw new TypeError(`a schema must be a zod schema, a zod raw shape, a Standard Schema with JSON Schema output, or a JSON Schema object; got ${typeof schema}`);
}

function standardValue(result: StandardResult, what: string): unknown {
  if (result.issues !== undefined && result.issues.length > 0) throw invalid(what, result.issues);
  return (result as { value: unknown }).value;
}

type ZodOutcome = { success: true; data: unknown } | { success: false; error: { issues: StandardIssue[] } };

function zodValue(result: ZodOutcome, what: string): unknown {
  if (result.success) return result.data;
  throw invalid(what, result.error.issues);
}

function zodPrepared(
  schema: { safeParseAsync(value: unknown): Promise<ZodOutcome>; safeParse?: (value: unknown) => ZodOutcome },
  json: JsonObject,
  shape: Record<string, unknown> | undefined,
): Prepared {
  const parse = async (args: unknown, what: string) => zodValue(await schema.safeParseAsync(args ?? {}), what);
  return {
    json,
    shape,
    checksArguments: true,
    parse,
    parseNow(args, what) {
      // zod's synchronous parse is several times cheaper than its async one; it throws
      // only where the schema needs the async one (an async refinement or transform), and
      // then the async parse decides, as it always did.
      let result: ZodOutcome;
      try {
        if (typeof schema.safeParse !== 'function') return parse(args, what);
        result = schema.safeParse(args ?? {});
      } catch {
        return parse(args, what);
      }
      return zodValue(result, what);
    },
  };
}

/** A prompt's `arguments` list from its args schema (name, description, required). */
export function promptArguments(prepared: Prepared | undefined): { name: string; description?: string; required: boolean }[] | undefined {
  if (prepared === undefined) return undefined;
  if (prepared.shape !== undefined) {
    return Object.entries(prepared.shape).map(([name, field]) => {
      const zod = field as { description?: string; safeParse(value: unknown): { success: boolean } };
      const description = zod.description;
      const required = !zod.safeParse(undefined).success;
      return description === undefined ? { name, required } : { name, description, required };
    });
  }
  const properties = (prepared.json.properties ?? {}) as Record<string, { description?: unknown }>;
  const required = new Set(Array.isArray(prepared.json.required) ? (prepared.json.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => {
    const description = typeof property?.description === 'string' ? property.description : undefined;
    return description === undefined ? { name, required: required.has(name) } : { name, description, required: required.has(name) };
  });
}

/** The key `completable()` keeps its callback under (the official `COMPLETABLE_SYMBOL`; the value is the callback itself). */
export const COMPLETABLE = Symbol.for('ferrymcp.completable');

export type CompleteCallback = (value: string, context?: { arguments?: Record<string, string> }) => string[] | Promise<string[]>;

/** Wraps a schema so that its values can be completed (the official `completable`). */
export function completable<T extends z.ZodType>(schema: T, complete: CompleteCallback): T {
  Object.defineProperty(schema, COMPLETABLE, { value: complete, enumerable: false });
  return schema;
}

export function completerOf(field: unknown): CompleteCallback | undefined {
  return typeof field === 'object' && field !== null ? (field as { [COMPLETABLE]?: CompleteCallback })[COMPLETABLE] : undefined;
}

/**
 * The v2 three-argument `setRequestHandler(method, { params }, handler)` /
 * `setNotificationHandler(...)`: `params` checked by the schema's own library (any Standard
 * Schema: zod 3.25+, zod 4, ArkType, Valibot), its parsed value returned; invalid params are
 * `-32602 Invalid params for METHOD: ...`, as the official SDK words it.
 */
export async function parseParams(schema: unknown, params: Record<string, unknown> | undefined, method: string): Promise<unknown> {
  if (!isStandardSchema(schema)) throw new TypeError(`${method}: the params schema must be a Standard Schema (zod, ArkType, Valibot, ...)`);
  const result = await schema['~standard'].validate({ ...params });
  if (result.issues !== undefined && result.issues.length > 0) throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${result.issues.map(issueText).join(', ')}`);
  return (result as { value: unknown }).value;
}

// Generates src/schemas.ts: a zod schema for every definition of the official MCP JSON
// Schemas (tests/mcp-schema: 2025-11-25, plus what 2026-07-28 adds), under the names v1's
// `types.js` exports them by (`CallToolResultSchema`, `LoggingMessageNotificationSchema`,
// ...), so code written for the official SDK finds them in ferrymcp, generated from the
// specification rather than written by hand.
//
// Shapes follow v1's: objects are loose (unknown keys kept, as v1's `.passthrough()`), and
// a request or notification schema is the message without its JSON-RPC envelope
// (`{method, params}`; `jsonrpc` and `id` belong to JSONRPCRequest / JSONRPCNotification).
//
//   node scripts/gen-schemas.mjs           # writes src/schemas.ts
//   node scripts/gen-schemas.mjs --check   # fails when src/schemas.ts is not what it would write
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const schemas = join(here, '..', '..', 'tests', 'mcp-schema');
const target = join(here, '..', 'src', 'schemas.ts');

const base = JSON.parse(readFileSync(join(schemas, '2025-11-25.schema.json'), 'utf8')).$defs;
const modern = JSON.parse(readFileSync(join(schemas, '2026-07-28.schema.json'), 'utf8')).$defs;
const defs = { ...base };
for (const [name, schema] of Object.entries(modern)) if (!(name in defs)) defs[name] = schema;

/** v1 names that differ from the specification's. */
const ALIASES = {
  JSONRPCErrorSchema: 'JSONRPCErrorResponse',
};

/** Where v1's schemas knowingly depart from the specification, kept so they judge alike. */
const DEFAULTS = {
  // v1 reads a tool result without `content` as one with no content (`[]`).
  CallToolResult: { content: '[]' },
};

const enveloped = (name) => /(Request|Notification)$/.test(name) && !name.startsWith('JSONRPC');
const refName = (ref) => ref.replace('#/$defs/', '');

// Definitions in dependency order; a reference to one not yet declared (a cycle) is lazy.
const order = [];
const state = new Map();
function visit(name) {
  if (state.get(name) === 'done' || state.get(name) === 'open') return;
  state.set(name, 'open');
  for (const ref of refsOf(defs[name])) visit(ref);
  state.set(name, 'done');
  order.push(name);
}
function refsOf(schema, found = new Set()) {
  if (Array.isArray(schema)) schema.forEach((s) => refsOf(s, found));
  else if (schema && typeof schema === 'object') {
    if (typeof schema.$ref === 'string') found.add(refName(schema.$ref));
    for (const value of Object.values(schema)) refsOf(value, found);
  }
  return found;
}
Object.keys(defs).sort().forEach(visit);
const declared = new Set();
/** Definitions a lazy reference points at: with the one that refers to them, typed `z.ZodType` (a cycle cannot be inferred). */
const lazyTargets = new Set();

function zod(schema, name) {
  if (schema === true || schema === undefined || (typeof schema === 'object' && Object.keys(schema).length === 0)) return 'z.unknown()';
  if (schema.$ref) {
    const ref = refName(schema.$ref);
    if (declared.has(ref)) return `${ref}Schema`;
    lazyTargets.add(ref);
    return `z.lazy(() => ${ref}Schema)`;
  }
  if ('const' in schema) return `z.literal(${JSON.stringify(schema.const)})`;
  if (schema.enum) {
    return schema.enum.every((v) => typeof v === 'string') ? `z.enum(${JSON.stringify(schema.enum)})` : `z.union([${schema.enum.map((v) => `z.literal(${JSON.stringify(v)})`).join(', ')}])`;
  }
  if (schema.anyOf) return `z.union([${schema.anyOf.map((s) => zod(s)).join(', ')}])`;
  if (schema.allOf) return schema.allOf.map((s) => zod(s)).reduce((a, b) => `z.intersection(${a}, ${b})`);
  const type = schema.type;
  if (Array.isArray(type)) return `z.union([${type.map((t) => zod({ ...schema, type: t })).join(', ')}])`;
  switch (type) {
    case 'string':
      return 'z.string()';
    case 'boolean':
      return 'z.boolean()';
    case 'null':
      return 'z.null()';
    case 'integer':
    case 'number': {
      let out = type === 'integer' ? 'z.number().int()' : 'z.number()';
      if (schema.minimum !== undefined) out += `.min(${schema.minimum})`;
      if (schema.maximum !== undefined) out += `.max(${schema.maximum})`;
      return out;
    }
    case 'array': {
      let out = `z.array(${zod(schema.items)})`;
      if (schema.maxItems !== undefined) out += `.max(${schema.maxItems})`;
      return out;
    }
    case 'object':
    case undefined: {
      const properties = Object.entries(schema.properties ?? {}).filter(([key]) => !(name && enveloped(name) && (key === 'jsonrpc' || key === 'id')));
      if (properties.length === 0) {
        const values = schema.additionalProperties && schema.additionalProperties !== true ? zod(schema.additionalProperties) : 'z.unknown()';
        return `z.record(z.string(), ${values})`;
      }
      const required = new Set(schema.required ?? []);
      const defaults = (name && DEFAULTS[name]) ?? {};
      const fields = properties.map(([key, value]) => {
        const tail = key in defaults ? `.default(${defaults[key]})` : required.has(key) ? '' : '.optional()';
        return `${JSON.stringify(key)}: ${zod(value)}${tail}`;
      });
      return `z.looseObject({ ${fields.join(', ')} })`;
    }
    default:
      throw new Error(`${name ?? 'a schema'}: unhandled JSON Schema type ${JSON.stringify(type)}`);
  }
}

const lines = [
  '// Generated by scripts/gen-schemas.mjs from the official MCP JSON Schemas (tests/mcp-schema):',
  '// do not edit. `node scripts/gen-schemas.mjs` regenerates it.',
  "import * as z from 'zod';",
  "import { lazySchema } from './lazy-schema.js';",
  '',
];
for (const name of order) {
  const description = defs[name].description?.split('\n')[0];
  if (description) lines.push(`/** ${description.replaceAll('*/', '*\\/')} */`);
  const expression = zod(defs[name], name);
  const annotation = expression.includes('z.lazy(') || lazyTargets.has(name) ? ': z.ZodType' : '';
  // Built on first use: some 150 zod schemas cost tens of milliseconds at import.
  lines.push(`export const ${name}Schema${annotation} = lazySchema(() => ${expression});`);
  declared.add(name);
}
lines.push('');
for (const [alias, name] of Object.entries(ALIASES)) lines.push(`export const ${alias} = ${name}Schema;`);
lines.push('');
const text = lines.join('\n');

if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== text) {
    console.error('bindings-node: src/schemas.ts is stale; run node scripts/gen-schemas.mjs and commit it');
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
}

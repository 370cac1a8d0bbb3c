// The v1 paths `server/zod-compat.js` and `server/zod-json-schema-compat.js`, against the
// official v1 package's (`@modelcontextprotocol/sdk` 1.x): every helper called on the same
// schemas and values by both, for each zod the official helpers take (zod 4 classic and
// mini and its `zod/v3`; zod 3.25's root, `zod/v4` and `zod/v4-mini`, as the alias `zod3`),
// and the results compared. `toJsonSchemaCompat` is also compared with what ferrymcp's v1
// McpServer lists for a tool with that schema.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as official from '@modelcontextprotocol/sdk/server/zod-compat.js';
import * as officialJson from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1InMemory } from '@modelcontextprotocol/sdk/inMemory.js';
import * as ours from 'ferrymcp/server/zod-compat.js';
import * as oursJson from 'ferrymcp/server/zod-json-schema-compat.js';
import { McpServer as V1McpServer } from 'ferrymcp/server/mcp.js';
import * as z4 from 'zod';
import * as z4mini from 'zod/mini';
import * as z4v3 from 'zod/v3';
import * as z3 from 'zod3';
import * as z3v4 from 'zod3/v4';
import * as z3mini from 'zod3/v4-mini';

const FUNCTIONS = [
  'getLiteralValue', 'getObjectShape', 'getParseErrorMessage', 'getSchemaDescription', 'isSchemaOptional',
  'isZ4Schema', 'normalizeObjectSchema', 'objectFromShape', 'safeParse', 'safeParseAsync',
];
const JSON_FUNCTIONS = ['getMethodLiteral', 'parseWithCompat', 'toJsonSchemaCompat'];

/** Schemas of one zod flavour, written in its own API (classic methods or mini functions). */
function classic(z) {
  const fields = () => ({
    name: z.string().min(2).describe('Who it is'),
    age: z.number().int().optional(),
    kind: z.literal('user'),
    tags: z.array(z.string()).default([]),
  });
  return {
    fields,
    schemas: {
      user: z.object(fields()),
      method: z.object({ method: z.literal('tools/call'), params: z.object({ name: z.string() }) }),
      numericMethod: z.object({ method: z.literal(7) }),
      nested: z.object({ a: z.object({ b: z.array(z.object({ c: z.number() })) }) }).describe('Nested'),
      choice: z.object({ pick: z.enum(['red', 'green']), value: z.union([z.string(), z.number()]).nullable() }),
      shout: z.object({ word: z.string().transform((s) => s.toUpperCase()) }),
      checked: z.object({ code: z.string().refine(async (code) => code.startsWith('ok'), 'code must start with ok') }),
      text: z.string().describe('Plain text'),
      optional: z.string().optional(),
      defaulted: z.string().default('x'),
      nullable: z.string().nullable(),
      literal: z.literal('only'),
      enumeration: z.enum(['first', 'second']),
    },
  };
}

function mini(z) {
  const fields = () => ({
    name: z.string().check(z.minLength(2)),
    age: z.optional(z.number().check(z.int())),
    kind: z.literal('user'),
    tags: z._default(z.array(z.string()), []),
  });
  return {
    fields,
    schemas: {
      user: z.object(fields()),
      method: z.object({ method: z.literal('tools/call'), params: z.object({ name: z.string() }) }),
      numericMethod: z.object({ method: z.literal(7) }),
      nested: z.object({ a: z.object({ b: z.array(z.object({ c: z.number() })) }) }),
      choice: z.object({ pick: z.enum(['red', 'green']), value: z.nullable(z.union([z.string(), z.number()])) }),
      shout: z.object({ word: z.pipe(z.string(), z.transform((s) => s.toUpperCase())) }),
      checked: z.object({ code: z.string().check(z.refine(async (code) => code.startsWith('ok'), 'code must start with ok')) }),
      text: z.string(),
      optional: z.optional(z.string()),
      defaulted: z._default(z.string(), 'x'),
      nullable: z.nullable(z.string()),
      literal: z.literal('only'),
      enumeration: z.enum(['first', 'second']),
    },
  };
}

const FLAVOURS = [
  ['zod 4', classic(z4.z)],
  ['zod 4 mini', mini(z4mini)],
  ['zod 4 zod/v3', classic(z4v3.z)],
  ['zod 3.25', classic(z3.z)],
  ['zod 3.25 zod/v4', classic(z3v4.z)],
  ['zod 3.25 zod/v4-mini', mini(z3mini)],
];

/** Values each schema is parsed with: good ones and failing ones. */
const VALUES = {
  user: [{ name: 'Ada', kind: 'user' }, { name: 'Ada', age: 36, kind: 'user', tags: ['x'] }, { name: 'A', kind: 'admin' }, { name: 'Ada', age: 1.5, kind: 'user', tags: [1] }, 'nope', undefined],
  method: [{ method: 'tools/call', params: { name: 'x' } }, { method: 'tools/list', params: {} }],
  numericMethod: [{ method: 7 }, { method: '7' }],
  nested: [{ a: { b: [{ c: 1 }, { c: 2 }] } }, { a: { b: [{ c: 1 }, { c: 'two' }] } }, { a: {} }],
  choice: [{ pick: 'red', value: null }, { pick: 'blue', value: true }],
  shout: [{ word: 'hello' }, { word: 3 }],
  checked: [{ code: 'ok-1' }, { code: 'no' }, {}],
  text: ['x', 1],
  optional: [undefined, 'x', null],
  defaulted: [undefined, 'y', 2],
  nullable: [null, 'x', undefined],
  literal: ['only', 'other'],
  enumeration: ['second', 'third'],
};

/** A parse result in comparable form: the data, or the error's class, message and issues. */
function outcome(result, compat) {
  if (result.success) return { success: true, data: result.data };
  const { error } = result;
  return {
    success: false,
    error: { name: error?.constructor?.name, message: compat.getParseErrorMessage(error), issues: JSON.parse(JSON.stringify(error.issues)) },
  };
}

function thrown(run) {
  try {
    return { value: run() };
  } catch (error) {
    return { error: error?.constructor?.name, message: error?.message ?? String(error) };
  }
}

test('both entry points export every official name', () => {
  for (const name of FUNCTIONS) assert.equal(typeof ours[name], typeof official[name], name);
  for (const name of JSON_FUNCTIONS) assert.equal(typeof oursJson[name], typeof officialJson[name], name);
  assert.deepEqual(Object.keys(ours).sort(), Object.keys(official).sort());
  assert.deepEqual(Object.keys(oursJson).sort(), Object.keys(officialJson).sort());
});

for (const [flavour, { schemas, fields }] of FLAVOURS) {
  test(`${flavour}: the schema helpers answer as the official ones`, () => {
    for (const [name, schema] of Object.entries(schemas)) {
      const at = `${flavour} ${name}`;
      for (const fn of ['isZ4Schema', 'getSchemaDescription', 'isSchemaOptional', 'getLiteralValue']) {
        assert.deepEqual(ours[fn](schema), official[fn](schema), `${fn} of ${at}`);
      }
      const shape = ours.getObjectShape(schema);
      const officialShape = official.getObjectShape(schema);
      assert.deepEqual(shape && Object.keys(shape), officialShape && Object.keys(officialShape), `getObjectShape of ${at}`);
      for (const key of Object.keys(shape ?? {})) assert.equal(shape[key], officialShape[key], `getObjectShape of ${at}: ${key}`);
      // An object schema comes back as it is; anything else is not an object schema.
      assert.equal(ours.normalizeObjectSchema(schema), official.normalizeObjectSchema(schema), `normalizeObjectSchema of ${at}`);
      for (const field of Object.values(shape ?? {})) {
        for (const fn of ['isSchemaOptional', 'getSchemaDescription', 'getLiteralValue']) {
          assert.deepEqual(ours[fn](field), official[fn](field), `${fn} of a field of ${at}`);
        }
      }
      assert.deepEqual(thrown(() => oursJson.getMethodLiteral(schema)), thrown(() => officialJson.getMethodLiteral(schema)), `getMethodLiteral of ${at}`);
    }
    assert.equal(oursJson.getMethodLiteral(schemas.method), 'tools/call');

    // A raw shape becomes an object schema of its own zod version.
    const shape = fields();
    const made = ours.normalizeObjectSchema(shape);
    const officialMade = official.normalizeObjectSchema(shape);
    assert.equal(ours.isZ4Schema(made), official.isZ4Schema(officialMade));
    assert.deepEqual(Object.keys(ours.getObjectShape(made)), Object.keys(official.getObjectShape(officialMade)));
    assert.deepEqual(oursJson.toJsonSchemaCompat(made), officialJson.toJsonSchemaCompat(officialMade));
    assert.deepEqual(oursJson.toJsonSchemaCompat(ours.objectFromShape(shape)), officialJson.toJsonSchemaCompat(official.objectFromShape(shape)));
    for (const value of VALUES.user) {
      assert.deepEqual(outcome(ours.safeParse(made, value), ours), outcome(official.safeParse(officialMade, value), official));
    }
  });

  test(`${flavour}: safeParse, safeParseAsync and parseWithCompat give the official results and errors`, async () => {
    for (const [name, schema] of Object.entries(schemas)) {
      for (const value of VALUES[name]) {
        const at = `${flavour} ${name} on ${JSON.stringify(value)}`;
        const expectedAsync = await official.safeParseAsync(schema, value);
        const gotAsync = await ours.safeParseAsync(schema, value);
        assert.deepEqual(outcome(gotAsync, ours), outcome(expectedAsync, official), `safeParseAsync of ${at}`);
        assert.equal(ours.getParseErrorMessage(gotAsync.error), official.getParseErrorMessage(expectedAsync.error), `message of ${at}`);
        if (name === 'checked') {
          // An async refinement: zod 4's synchronous parse throws, zod 3's fails; the same in both.
          const sync = (compat) => thrown(() => outcome(compat.safeParse(schema, value), compat));
          assert.deepEqual(sync(ours), sync(official), `safeParse of ${at}`);
          continue;
        }
        const expected = official.safeParse(schema, value);
        assert.deepEqual(outcome(ours.safeParse(schema, value), ours), outcome(expected, official), `safeParse of ${at}`);
        const viaCompat = thrown(() => oursJson.parseWithCompat(schema, value));
        const officialViaCompat = thrown(() => officialJson.parseWithCompat(schema, value));
        assert.deepEqual(viaCompat, officialViaCompat, `parseWithCompat of ${at}`);
        assert.equal('error' in viaCompat, !expected.success, `parseWithCompat of ${at} throws the parse error`);
      }
    }
  });

  test(`${flavour}: toJsonSchemaCompat writes the official JSON Schema, and what ferrymcp lists`, async () => {
    const objects = Object.entries(schemas).filter(([, schema]) => official.normalizeObjectSchema(schema) !== undefined);
    for (const [name, schema] of Object.entries(schemas)) {
      for (const opts of [undefined, { target: 'draft-2020-12' }, { target: 'jsonSchema2019-09', pipeStrategy: 'input' }, { strictUnions: false }, { pipeStrategy: 'output' }]) {
        const at = `${flavour} ${name} with ${JSON.stringify(opts)}`;
        const expected = thrown(() => officialJson.toJsonSchemaCompat(schema, opts));
        if (expected.error !== undefined) {
          // zod 4 cannot write a transform's output: the official helper throws, ferrymcp writes `{}` there (README).
          assert.equal(name, 'shout', `${at}: ${expected.message}`);
          assert.equal(opts?.pipeStrategy, 'output');
          assert.deepEqual(oursJson.toJsonSchemaCompat(schema, opts).properties.word, {}, at);
          continue;
        }
        assert.deepEqual(oursJson.toJsonSchemaCompat(schema, opts), expected.value, at);
      }
    }

    const server = new V1McpServer({ name: 'zod-compat', version: '1.0.0' });
    for (const [name, schema] of objects) server.registerTool(name, { inputSchema: schema }, async () => ({ content: [] }));
    const client = new V1Client({ name: 'zod-compat-test', version: '1.0.0' });
    const [clientEnd, serverEnd] = V1InMemory.createLinkedPair();
    await server.connect(serverEnd);
    await client.connect(clientEnd);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, objects.length);
      for (const [name, schema] of objects) {
        const listed = tools.find((tool) => tool.name === name).inputSchema;
        assert.deepEqual(listed, oursJson.toJsonSchemaCompat(schema, { strictUnions: true, pipeStrategy: 'input' }), `${flavour} ${name} as listed`);
      }
    } finally {
      await client.close();
      await server.close();
    }
  });
}

test('objectFromShape: an empty shape is zod 4, a mixed one is refused in the official words', () => {
  const empty = ours.objectFromShape({});
  assert.equal(ours.isZ4Schema(empty), official.isZ4Schema(official.objectFromShape({})));
  assert.deepEqual(oursJson.toJsonSchemaCompat(empty), officialJson.toJsonSchemaCompat(official.objectFromShape({})));
  const mixed = { a: z4.z.string(), b: z3.z.string() };
  assert.deepEqual(thrown(() => ours.objectFromShape(mixed)), thrown(() => official.objectFromShape(mixed)));
  assert.equal(thrown(() => ours.objectFromShape(mixed)).message, 'Mixed Zod versions detected in object shape.');
  assert.deepEqual(thrown(() => ours.normalizeObjectSchema(mixed)), thrown(() => official.normalizeObjectSchema(mixed)));
});

test('normalizeObjectSchema: what is and is not an object schema or a raw shape', () => {
  for (const value of [undefined, null, {}, { a: 1 }, { a: { parse() {} } }, z4.z.string(), z3.z.array(z3.z.string()), z4.z.record(z4.z.string(), z4.z.number())]) {
    const got = ours.normalizeObjectSchema(value);
    const expected = official.normalizeObjectSchema(value);
    if (expected === value || expected === undefined) assert.equal(got, expected, String(value && JSON.stringify(Object.keys(value))));
    else assert.deepEqual(Object.keys(ours.getObjectShape(got)), Object.keys(official.getObjectShape(expected)));
  }
  assert.equal(ours.getObjectShape(undefined), official.getObjectShape(undefined));
});

test('getParseErrorMessage: issues with and without paths, errors, plain values', () => {
  const circular = { name: 'loop' };
  circular.self = circular;
  const values = [
    { issues: [{ message: 'Required', path: ['a', 0, 'b'] }, { message: 'Bad root', path: [] }, { message: 'No path' }] },
    { issues: [{ message: 'Deep', path: [3, 'x', 4] }] },
    { issues: [], message: 'no issues, a message' },
    new Error('plain error'),
    { message: 42, code: 'x' },
    circular,
    'a string',
    0,
    null,
    undefined,
    Symbol.for('s'),
  ];
  for (const value of values) assert.equal(ours.getParseErrorMessage(value), official.getParseErrorMessage(value), String(value?.message ?? String(value)));
});

test('toJsonSchemaCompat: a part JSON Schema cannot express is {} (the official helper throws)', () => {
  const schema = z4.z.object({ when: z4.z.date(), big: z4.z.bigint(), name: z4.z.string() });
  assert.throws(() => officialJson.toJsonSchemaCompat(schema), /cannot be represented in JSON Schema/);
  const json = oursJson.toJsonSchemaCompat(schema);
  assert.deepEqual(json.properties, { when: {}, big: {}, name: { type: 'string' } });
  assert.deepEqual(json.required, ['when', 'big', 'name']);
});

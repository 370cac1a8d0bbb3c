// The package as npm installs it (scripts/test.sh installs the packed main package and its
// linux-x64-gnu binary package here): the public import paths, and nothing else, resolve
// from ESM and CommonJS; the addon comes from the per-platform package; and without that
// package the loader's error names the platform and what to do.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(require.resolve('ferrymcp/package.json'), 'utf8'));

// The official SDKs' paths ferrymcp mirrors (README), v2 and v1.
const PUBLIC = [
  'ferrymcp', 'ferrymcp/stdio', 'ferrymcp/client', 'ferrymcp/server', 'ferrymcp/node',
  'ferrymcp/client/index.js', 'ferrymcp/client/stdio.js', 'ferrymcp/client/streamableHttp.js',
  'ferrymcp/client/sse.js', 'ferrymcp/server/index.js', 'ferrymcp/server/mcp.js',
  'ferrymcp/server/stdio.js', 'ferrymcp/server/streamableHttp.js',
  'ferrymcp/server/webStandardStreamableHttp.js', 'ferrymcp/server/completable.js', 'ferrymcp/types.js',
  'ferrymcp/inMemory.js', 'ferrymcp/shared/transport.js', 'ferrymcp/shared/stdio.js',
  'ferrymcp/client/auth.js', 'ferrymcp/client/auth-extensions.js', 'ferrymcp/express', 'ferrymcp/hono',
  'ferrymcp/server/express.js', 'ferrymcp/server/middleware/hostHeaderValidation.js',
  'ferrymcp/shared/auth-utils.js', 'ferrymcp/shared/auth.js', 'ferrymcp/shared/metadataUtils.js', 'ferrymcp/shared/uriTemplate.js',
  'ferrymcp/server/auth/errors.js', 'ferrymcp/server/auth/router.js', 'ferrymcp/server/auth/middleware/bearerAuth.js',
  'ferrymcp/server/sse.js', 'ferrymcp/spec.types.js', 'ferrymcp/shared/mediaType.js', 'ferrymcp/shared/protocol.js',
  'ferrymcp/client/websocket.js', 'ferrymcp/client/middleware.js', 'ferrymcp/shared/responseMessage.js',
  'ferrymcp/server/auth/middleware/allowedMethods.js', 'ferrymcp/experimental/tasks/stores/in-memory.js',
  'ferrymcp/experimental/tasks/interfaces.js', 'ferrymcp/experimental/tasks/helpers.js', 'ferrymcp/shared/toolNameValidation.js', 'ferrymcp/validation/ajv-provider.js', 'ferrymcp/experimental/index.js',
  'ferrymcp/experimental/tasks/index.js', 'ferrymcp/experimental/tasks/types.js', 'ferrymcp/experimental/tasks/client.js',
  'ferrymcp/experimental/tasks/server.js', 'ferrymcp/experimental/tasks/mcp-server.js', 'ferrymcp/server/requestBody.js', 'ferrymcp/server/sseKeepAlive.js',
  'ferrymcp/server/zod-compat.js', 'ferrymcp/server/zod-json-schema-compat.js',
];

test('every public path loads from ESM and CommonJS, and only those are exported', async () => {
  const exported = Object.keys(manifest.exports).filter((p) => p !== './package.json');
  assert.deepEqual(exported.map((p) => (p === '.' ? 'ferrymcp' : `ferrymcp/${p.slice(2)}`)).sort(), [...PUBLIC].sort());
  for (const path of PUBLIC) {
    const esm = await import(path);
    const cjs = require(path);
    assert.ok(Object.keys(esm).length > 0 && Object.keys(cjs).length > 0, path);
  }
  for (const internal of ['ferrymcp/context.js', 'ferrymcp/native.js', 'ferrymcp/esm/index.js', 'ferrymcp/native/index.cjs']) {
    assert.throws(() => require(internal), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' }, internal);
    await assert.rejects(import(internal), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' }, internal);
  }
});

test('the addon comes from the platform package in optionalDependencies', () => {
  require('ferrymcp');
  const platform = 'ferrymcp-linux-x64-gnu';
  assert.equal(manifest.optionalDependencies[platform], manifest.version);
  const binary = JSON.parse(readFileSync(require.resolve(`${platform}/package.json`), 'utf8'));
  assert.deepEqual([binary.version, binary.os, binary.cpu, binary.libc], [manifest.version, ['linux'], ['x64'], ['glibc']]);
  assert.ok(!manifest.files.some((f) => f.endsWith('.node')), 'the main package ships no binary');
  const loaded = Object.keys(require.cache).filter((f) => f.endsWith('.node'));
  assert.deepEqual(loaded, [require.resolve(platform)]);
});

test('without a loadable platform package, loading ferrymcp fails naming the platform and the fix', () => {
  const project = mkdtempSync(join(tmpdir(), 'ferrymcp-no-binary-'));
  try {
    // ferrymcp and its one dependency, without the optional binary package (as after
    // `npm install --omit=optional`).
    for (const name of ['ferrymcp', 'zod']) {
      cpSync(join(require.resolve(`${name}/package.json`), '..'), join(project, 'node_modules', name), { recursive: true });
    }
    const env = { ...process.env };
    delete env.NAPI_RS_NATIVE_LIBRARY_PATH;
    const run = spawnSync(process.execPath, ['-e', "require('ferrymcp')"], { cwd: project, env, encoding: 'utf8' });
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /code: 'ERR_FERRYMCP_NATIVE_ADDON'/);
    assert.match(run.stderr, /ferrymcp could not load its native addon on linux-x64-gnu: its package ferrymcp-linux-x64-gnu is missing/);
    assert.match(run.stderr, /reinstall without --omit=optional/);
    // A platform package whose binary is broken: the message carries the loader's reason.
    const broken = join(project, 'node_modules', 'ferrymcp-linux-x64-gnu');
    cpSync(join(require.resolve('ferrymcp-linux-x64-gnu/package.json'), '..'), broken, { recursive: true });
    writeFileSync(join(broken, 'ferrymcp.linux-x64-gnu.node'), 'not an ELF file');
    const again = spawnSync(process.execPath, ['-e', "require('ferrymcp')"], { cwd: project, env, encoding: 'utf8' });
    assert.notEqual(again.status, 0);
    assert.match(again.stderr, /could not load its native addon on linux-x64-gnu: .*ferrymcp\.linux-x64-gnu\.node: (invalid ELF header|file too short)/);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});

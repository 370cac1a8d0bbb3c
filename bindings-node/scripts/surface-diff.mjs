#!/usr/bin/env node
// Prints the runtime names each official TypeScript SDK entry point exports that the
// matching ferrymcp entry point lacks (types are not compared: only what `import()` yields).
//
//   node bindings-node/scripts/surface-diff.mjs [--modules DIR] [--names] [--json]
//
// DIR is a node_modules folder holding the official packages (default:
// tests/interop/node_modules of this repository; `npm install --prefix tests/interop`
// fills it). ferrymcp itself is imported from this package (its built esm/), by its own
// name. --names lists every missing name (default: the first 12 of each entry point);
// --json prints one JSON object instead.
//
// Pairs: the v2 packages' entry points against ferrymcp's, and every module of
// @modelcontextprotocol/sdk's dist/esm (v1 paths, `@modelcontextprotocol/sdk/X.js`) against
// `ferrymcp/X.js`; an official path ferrymcp has no entry point for counts all its names as
// missing and is reported as such.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? resolve(args[at + 1]) : fallback;
};
if (flag('--help') || flag('-h')) {
  process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 16).map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
  process.exit(0);
}
const modules = option('--modules', join(repo, 'tests', 'interop', 'node_modules'));

// The v2 entry points and their ferrymcp counterparts.
const V2 = [
  ['@modelcontextprotocol/server', 'ferrymcp/server'],
  ['@modelcontextprotocol/server/stdio', 'ferrymcp/stdio'],
  ['@modelcontextprotocol/client', 'ferrymcp/client'],
  ['@modelcontextprotocol/client/stdio', 'ferrymcp/stdio'],
  ['@modelcontextprotocol/node', 'ferrymcp/node'],
  ['@modelcontextprotocol/express', 'ferrymcp/express'],
  ['@modelcontextprotocol/hono', 'ferrymcp/hono'],
];

/** The file an `exports` target names for ESM `import` (conditions: import, node, default). */
function pickTarget(target) {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) return target.map(pickTarget).find(Boolean);
  if (target && typeof target === 'object') {
    for (const condition of ['import', 'node', 'default']) {
      if (condition in target) {
        const found = pickTarget(target[condition]);
        if (found) return found;
      }
    }
  }
  return undefined;
}

/** Resolves `pkg/sub` inside `modules` through the package's `exports` map (with `*` patterns). */
function resolveIn(specifier) {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const sub = '.' + specifier.slice(name.length);
  const root = join(modules, name);
  if (!existsSync(join(root, 'package.json'))) return undefined;
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const exportsMap = typeof manifest.exports === 'object' && !('.' in manifest.exports) && sub === '.' ? { '.': manifest.exports } : manifest.exports;
  if (!exportsMap) return sub === '.' ? join(root, manifest.module ?? manifest.main ?? 'index.js') : join(root, sub);
  if (sub in exportsMap) {
    const file = pickTarget(exportsMap[sub]);
    return file ? join(root, file) : undefined;
  }
  for (const [key, value] of Object.entries(exportsMap)) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const [head, tail] = [key.slice(0, star), key.slice(star + 1)];
    if (sub.startsWith(head) && sub.endsWith(tail) && sub.length >= head.length + tail.length) {
      const file = pickTarget(value);
      if (file) return join(root, file.replace('*', sub.slice(head.length, sub.length - tail.length)));
    }
  }
  return undefined;
}

async function officialNames(specifier) {
  const file = resolveIn(specifier);
  if (!file || !existsSync(file)) return undefined;
  try {
    return Object.keys(await import(pathToFileURL(file).href)).filter((k) => k !== 'default' && k !== '__esModule');
  } catch (error) {
    // An optional peer of the official package is absent (`@cfworker/json-schema`, `ws`): skipped.
    return { failed: String(error?.message ?? error).split('\n')[0] };
  }
}

const UNSUPPORTED = Symbol.for('ferrymcp.unsupported');

/** ferrymcp's exports: `have` (names that work), `refusing` (placeholders that throw `ERR_FERRYMCP_UNSUPPORTED`). */
async function ferryNames(specifier) {
  try {
    const module = await import(specifier);
    const refusing = new Set(Object.keys(module).filter((k) => typeof module[k] === 'function' && module[k][UNSUPPORTED] !== undefined));
    return { have: new Set(Object.keys(module).filter((k) => !refusing.has(k))), refusing };
  } catch (error) {
    if (error?.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED' || error?.code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

/** Every v1 module path of the installed @modelcontextprotocol/sdk (`server/mcp.js`, ...). */
function v1Paths() {
  const base = join(modules, '@modelcontextprotocol', 'sdk', 'dist', 'esm');
  if (!existsSync(base)) return [];
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) {
        if (entry !== 'examples') walk(full);
      } else if (entry.endsWith('.js')) {
        found.push(relative(base, full).split('\\').join('/'));
      }
    }
  };
  walk(base);
  return found.sort();
}

const rows = [];
const pairs = [...V2, ...v1Paths().map((path) => [`@modelcontextprotocol/sdk/${path}`, `ferrymcp/${path}`])];
for (const [official, ours] of pairs) {
  const names = await officialNames(official);
  if (!names || names.failed) {
    rows.push({ official, ours, installed: false, failed: names?.failed });
    continue;
  }
  const ferry = await ferryNames(ours);
  const missing = ferry ? names.filter((n) => !ferry.have.has(n) && !ferry.refusing.has(n)) : names;
  const refusing = ferry ? names.filter((n) => ferry.refusing.has(n)) : [];
  rows.push({ official, ours, installed: true, entryPoint: Boolean(ferry), total: names.length, missing, refusing });
}

const counted = rows.filter((r) => r.installed);
const summary = {
  modules,
  entryPoints: counted.length,
  entryPointsWithoutCounterpart: counted.filter((r) => !r.entryPoint).length,
  names: counted.reduce((n, r) => n + r.total, 0),
  missing: counted.reduce((n, r) => n + r.missing.length, 0),
  refusing: counted.reduce((n, r) => n + r.refusing.length, 0),
  missingInMirroredEntryPoints: counted.filter((r) => r.entryPoint).reduce((n, r) => n + r.missing.length, 0),
  notInstalled: rows.filter((r) => !r.installed && !r.failed).map((r) => r.official),
  notImportable: rows.filter((r) => r.failed).map((r) => `${r.official} (${r.failed})`),
};
if (flag('--json')) {
  process.stdout.write(JSON.stringify({ summary, rows }, null, 2) + '\n');
} else {
  for (const row of counted) {
    if (row.missing.length === 0 && row.refusing.length === 0) continue;
    const shown = flag('--names') ? row.missing : row.missing.slice(0, 12);
    const more = row.missing.length > shown.length ? ` ... (+${row.missing.length - shown.length})` : '';
    const where = row.entryPoint ? row.ours : `${row.ours} (no such entry point)`;
    process.stdout.write(`${row.official} -> ${where}: ${row.missing.length} of ${row.total} missing: ${shown.join(' ')}${more}\n`);
    if (row.refusing.length > 0) process.stdout.write(`  placeholders (throw ERR_FERRYMCP_UNSUPPORTED): ${row.refusing.join(' ')}\n`);
  }
  for (const official of summary.notInstalled) process.stdout.write(`${official}: not installed in ${modules}, skipped\n`);
  for (const official of summary.notImportable) process.stdout.write(`${official}: does not import here, skipped\n`);
  process.stdout.write(
    `\n${summary.missing} of ${summary.names} official runtime names missing over ${summary.entryPoints} entry points ` +
      `(${summary.missingInMirroredEntryPoints} in entry points ferrymcp has; ${summary.entryPointsWithoutCounterpart} official entry points without a ferrymcp one); ` +
      `${summary.refusing} more present as placeholders that throw ERR_FERRYMCP_UNSUPPORTED\n`,
  );
}

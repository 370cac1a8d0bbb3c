#!/usr/bin/env node
/**
 * Measures the drop-in promise on the official TypeScript SDK's own examples (Node; the
 * Python twin is scripts/port-check.py).
 *
 * ferrymcp promises that code written for the official SDK runs when only its imports name
 * `ferrymcp`. This script measures that on the examples of modelcontextprotocol/typescript-sdk:
 *
 *  - `examples/` of the v2 branch (default `main`): every story with a `client.ts`, over each
 *    transport x era leg its `package.json` `"example"` field names, as the official runner
 *    (scripts/examples/run-examples.ts) does. Each leg runs three times:
 *      official   the story as it is, on the official packages (the baseline);
 *      server     the ported `server.ts` driven by the official `client.ts` (its assertions);
 *      full       the ported `client.ts` against the ported `server.ts` (its assertions).
 *    A leg counts only when the official run passes.
 *  - `src/examples/` of the v1 branch (default `v1.x`): each server example is started as it
 *    is and ported (fixed ports, so these run one at a time), probed by the official v1
 *    client (connect, then tools/prompts/resources/templates listings) and the two answers
 *    compared (`identical`, or `differs` naming the first difference). The non-interactive
 *    example clients run, ported, against their ported server (exit code 0 is a pass).
 *
 * Only imports are rewritten: `@modelcontextprotocol/sdk/<path>` and v1's relative
 * `../../<path>.js` become `ferrymcp/<path>`; the v2 packages `@modelcontextprotocol/server`,
 * `client`, `node`, `express`, `hono` become `ferrymcp/<package>`, `.../server/stdio` and
 * `.../client/stdio` become `ferrymcp/stdio`, `@modelcontextprotocol/core` becomes `ferrymcp`.
 *
 * Nothing of the official repository is committed here: the examples are exported with
 * `git archive` into a temporary directory and removed afterwards. The official packages the
 * baseline needs (and the examples' other dependencies, and tsx to run TypeScript) are
 * installed by name with npm, at the versions pinned in PINS below, into a cache directory
 * under the OS temp dir (reused across runs while the pins are unchanged; `--deps` names
 * another). ferrymcp is the built `bindings-node/` of this checkout (`--ferrymcp` names
 * another), linked in. A developer tool, not a CI gate (the official material changes).
 *
 *   node scripts/port-check-node.mjs [--sdk GITDIR] [--ref main] [--ref-v1 v1.x]
 *        [--only tools,v1/server/simpleStreamableHttp] [--list] [--keep DIR] [--no-official]
 *        [--deps DIR] [--ferrymcp DIR] [--timeout MS] [--install-only] [--part v1|v2]
 *
 * `--only` takes story names, leg ids or v1 case ids (substring match on the case id);
 * `--list` prints every case with its outcome and reason (default: failing ones only).
 */

import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..');
const OFFICIAL_URL = 'https://github.com/modelcontextprotocol/typescript-sdk';

// The official packages at the versions bindings-node/test pins, plus what the examples import.
const PINS = {
    '@modelcontextprotocol/server': '2.4.0',
    '@modelcontextprotocol/client': '2.4.0',
    '@modelcontextprotocol/core': '2.4.0',
    '@modelcontextprotocol/node': '2.1.2',
    '@modelcontextprotocol/express': '2.0.2',
    '@modelcontextprotocol/hono': '2.0.2',
    '@modelcontextprotocol/sdk': '1.32.2',
    tsx: '4.23.15',
    zod: '4.6.7',
    hono: '4.13.19',
    '@hono/node-server': '2.1.9',
    express: '5.3.0',
    cors: '2.8.6',
    arktype: '2.2.9',
    valibot: '1.5.0',
    '@valibot/to-json-schema': '1.8.0',
    ajv: '8.20.0',
    open: '11.0.4',
    '@anthropic-ai/sdk': '1.14.0',
    openai: '7.57.0',
    '@google/genai': '3.3.0'
};
// Native or heavy: installed in a second step whose failure only fails the OAuth stories.
const OPTIONAL_PINS = { 'better-auth': '1.7.25', 'better-sqlite3': '13.2.0' };

function parseArgs(argv) {
    const args = { ref: 'main', refV1: 'v1.x', only: null, list: false, keep: null, official: true, timeout: 30000 };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const next = () => argv[++i];
        if (a === '--sdk') args.sdk = next();
        else if (a === '--ref') args.ref = next();
        else if (a === '--ref-v1') args.refV1 = next();
        else if (a === '--only') args.only = next().split(',').filter(Boolean);
        else if (a === '--list') args.list = true;
        else if (a === '--keep') args.keep = path.resolve(next());
        else if (a === '--deps') args.deps = path.resolve(next());
        else if (a === '--ferrymcp') args.ferrymcp = path.resolve(next());
        else if (a === '--no-official') args.official = false;
        else if (a === '--part') args.part = next();
        else if (a === '--install-only') args.installOnly = true;
        else if (a === '--timeout') args.timeout = Number(next());
        else if (a === '-h' || a === '--help') {
            const text = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8');
            console.log(text.slice(text.indexOf('/**') + 3, text.indexOf('*/')).replace(/^ \* ?/gm, ''));
            process.exit(0);
        } else throw new Error(`unknown option ${a} (see --help)`);
    }
    args.sdk ??= process.env.FERRYMCP_TS_SDK ?? '/work/.mirror/modelcontextprotocol+typescript-sdk/repo';
    args.ferrymcp ??= path.join(REPO, 'bindings-node');
    return args;
}

// ---------------------------------------------------------------- export and rewrite

function exportTree(gitDir, ref, paths, into) {
    fs.mkdirSync(into, { recursive: true });
    const tar = execFileSync('git', ['--git-dir', gitDir, 'archive', ref, ...paths], { maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', into], { input: tar });
}

const V2_PACKAGES = { server: 'ferrymcp/server', client: 'ferrymcp/client', node: 'ferrymcp/node', express: 'ferrymcp/express', hono: 'ferrymcp/hono', core: 'ferrymcp' };

/** The import specifier official code names, as ferrymcp names it. */
function portSpecifier(spec) {
    let m = /^@modelcontextprotocol\/sdk\/(.+)$/.exec(spec);
    if (m) return `ferrymcp/${m[1]}`;
    m = /^@modelcontextprotocol\/(server|client)\/stdio$/.exec(spec);
    if (m) return 'ferrymcp/stdio';
    m = /^@modelcontextprotocol\/(server|client|node|express|hono|core)(\/.*)?$/.exec(spec);
    if (m) return V2_PACKAGES[m[1]] + (m[2] && m[1] !== 'core' ? m[2] : '');
    return spec;
}

const IMPORT_RE = /(\bfrom\s*|\bimport\s*\(?\s*|\brequire\(\s*)(['"])([^'"]+)\2/g;

function rewriteImports(text, map) {
    return text.replace(IMPORT_RE, (all, head, quote, spec) => {
        const to = map(spec);
        return to === spec ? all : `${head}${quote}${to}${quote}`;
    });
}

function rewriteTree(root, map, filter = () => true) {
    for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
        const file = path.join(entry.parentPath ?? entry.path, entry.name);
        if (!entry.isFile() || !/\.(ts|mts|js|mjs)$/.test(entry.name) || file.includes('node_modules') || !filter(file)) continue;
        const text = fs.readFileSync(file, 'utf8');
        const out = rewriteImports(text, map);
        if (out !== text) fs.writeFileSync(file, out);
    }
}

// v1's examples import the SDK by relative path (`../../server/mcp.js`); as a user would, the
// baseline names the package, the port names ferrymcp.
function v1Map(file, pkg) {
    return spec => {
        if (!spec.startsWith('.')) return pkg === 'ferrymcp' ? portSpecifier(spec) : spec;
        const target = path.resolve(path.dirname(file), spec);
        const rel = path.relative(V1_SRC_ROOT, target);
        if (rel.startsWith('..') || rel.startsWith('examples')) return spec;
        return `${pkg === 'ferrymcp' ? 'ferrymcp' : '@modelcontextprotocol/sdk'}/${rel.split(path.sep).join('/')}`;
    };
}
let V1_SRC_ROOT = '';

// ---------------------------------------------------------------- dependencies

function installDeps(args) {
    const key = createHash('sha256').update(JSON.stringify([PINS, OPTIONAL_PINS])).digest('hex').slice(0, 12);
    const dir = args.deps ?? path.join(os.tmpdir(), `ferrymcp-port-check-node-${key}`);
    const stamp = path.join(dir, '.installed');
    if (!fs.existsSync(stamp)) {
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'port-check-deps', private: true, type: 'module' }));
        const npm = extra => execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', ...extra], { cwd: dir, stdio: 'inherit' });
        console.error(`installing the official packages into ${dir} ...`);
        npm(Object.entries(PINS).map(([n, v]) => `${n}@${v}`));
        try {
            npm(Object.entries({ ...PINS, ...OPTIONAL_PINS }).map(([n, v]) => `${n}@${v}`));
        } catch {
            console.error('(better-auth / better-sqlite3 did not install: the OAuth stories will fail on the baseline too)');
        }
        fs.writeFileSync(stamp, new Date().toISOString());
    }
    return path.join(dir, 'node_modules');
}

function linkModules(tree, deps, ferrymcp) {
    // tree/node_modules holds the per-tree links (the story scaffold, ferrymcp); the rest
    // resolves from the shared install one directory up.
    const nm = path.join(tree, 'node_modules');
    fs.mkdirSync(path.join(nm, '@mcp-examples'), { recursive: true });
    if (fs.existsSync(path.join(tree, 'examples', 'shared'))) fs.symlinkSync(path.join(tree, 'examples', 'shared'), path.join(nm, '@mcp-examples', 'shared'));
    fs.symlinkSync(ferrymcp, path.join(nm, 'ferrymcp'));
    fs.writeFileSync(path.join(tree, 'package.json'), JSON.stringify({ name: 'port-check-tree', private: true, type: 'module' }));
}

// ---------------------------------------------------------------- processes

function run(cmd, argv, { cwd, env, timeoutMs }) {
    return new Promise(resolve => {
        const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, detached: true });
        let out = '';
        child.stdout.on('data', d => (out += d));
        child.stderr.on('data', d => (out += d));
        const timer = setTimeout(() => {
            killGroup(child);
            resolve({ code: 124, out, timedOut: true });
        }, timeoutMs);
        child.on('close', code => {
            clearTimeout(timer);
            resolve({ code: code ?? 1, out, timedOut: false });
        });
    });
}

function killGroup(child, signal = 'SIGKILL') {
    try {
        process.kill(-child.pid, signal);
    } catch {
        /* already gone */
    }
}

function startServer(cmd, argv, { cwd, env }) {
    const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, detached: true });
    child.log = '';
    child.stdout.on('data', d => (child.log += d));
    child.stderr.on('data', d => (child.log += d));
    child.exited = new Promise(resolve => child.on('close', code => resolve(code)));
    return child;
}

async function stopServer(child) {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killGroup(child, 'SIGTERM');
    const gone = await Promise.race([child.exited.then(() => true), new Promise(r => setTimeout(() => r(false), 1500))]);
    if (!gone) killGroup(child);
    await child.exited;
}

function portOpen(port) {
    return new Promise(resolve => {
        const sock = net.connect({ port, host: '127.0.0.1' }, () => {
            sock.destroy();
            resolve(true);
        });
        sock.on('error', () => resolve(false));
    });
}

async function waitForPort(port, child, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
        if (child.exitCode !== null) return false;
        if (await portOpen(port)) return true;
        await new Promise(r => setTimeout(r, 150));
    }
    return false;
}

function freePort() {
    return new Promise(resolve => {
        const srv = net.createServer().listen(0, '127.0.0.1', () => {
            const { port } = srv.address();
            srv.close(() => resolve(port));
        });
    });
}

/** The line that says why a run failed: the first error-looking line, else the last line. */
function reason(out, fallback) {
    const lines = out.split('\n').map(l => l.trim()).filter(Boolean);
    const hit =
        lines.find(l => /ERR_PACKAGE_PATH_NOT_EXPORTED|ERR_MODULE_NOT_FOUND|does not provide an export/.test(l)) ??
        lines.find(l => /^(AssertionError|TypeError|ReferenceError|SyntaxError|Error|McpError|ProtocolError|SdkError|\w+Error)\b.*:/.test(l) && !/^at /.test(l)) ??
        lines.find(l => /ERR_|Cannot find|does not provide|is not a function|not supported|Unsupported|refused|Error:/.test(l)) ??
        lines.at(-1);
    return (hit ?? fallback)
        .replace(/\/tmp\/port-check-node-\w+\/(\w+)\//g, '<$1>/')
        .replace(/\s+/g, ' ')
        .slice(0, 220);
}

// ---------------------------------------------------------------- v2 stories

function storyLegs(examplesDir) {
    const legs = [];
    for (const story of fs.readdirSync(examplesDir).sort()) {
        const dir = path.join(examplesDir, story);
        if (['shared', 'guides', 'server-quickstart', 'client-quickstart', 'node_modules'].includes(story)) continue;
        if (!fs.existsSync(path.join(dir, 'client.ts'))) continue;
        let config = {};
        try {
            config = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).example ?? {};
        } catch {
            /* no package.json: defaults */
        }
        if (config.excluded) {
            legs.push({ story, excluded: config.excluded });
            continue;
        }
        const eras = (config.era ?? 'dual') === 'dual' ? ['modern', 'legacy'] : [config.era];
        for (const transport of config.transports ?? ['stdio', 'http'])
            for (const era of eras) legs.push({ story, transport, era, config, id: `${story}[${transport}/${era}]` });
    }
    return legs;
}

async function runLeg(leg, tree, clientTree, args) {
    const tsx = path.join(tree, '..', 'node_modules', '.bin', 'tsx');
    const env = { PATH: `${path.join(tree, '..', 'node_modules', '.bin')}:${process.env.PATH}` };
    const client = path.join(clientTree, 'examples', leg.story, 'client.ts');
    const eraArgs = leg.era === 'legacy' ? ['--legacy'] : [];
    const timeoutMs = leg.config.timeoutMs ?? args.timeout;
    const expects = leg.config.expects?.stdout;
    const verdict = r =>
        r.timedOut
            ? { ok: false, why: `hung (no exit in ${timeoutMs} ms): ${reason(r.out, '')}` }
            : r.code === 0 && (!expects || r.out.includes(expects))
              ? { ok: true, why: '' }
              : { ok: false, why: `exit ${r.code}: ${reason(r.out, 'no output')}` };
    if (leg.transport === 'stdio') {
        // the official client spawns `npx -y tsx <its sibling server.ts>`: for the server-only
        // port, the client file sits in the ported tree so that its sibling is the ported server
        return verdict(await run(tsx, [client, ...eraArgs], { cwd: path.dirname(client), env, timeoutMs }));
    }
    const port = await freePort();
    const server = startServer(tsx, [path.join(tree, 'examples', leg.story, 'server.ts'), '--http', '--port', String(port)], {
        cwd: path.join(tree, 'examples', leg.story),
        env: { ...env, PORT: String(port), ...leg.config.env }
    });
    try {
        if (!(await waitForPort(port, server, 15000))) return { ok: false, why: `server never listened: ${reason(server.log, `exit ${server.exitCode}`)}` };
        const url = `http://127.0.0.1:${port}${leg.config.path ?? '/mcp'}`;
        const r = verdict(await run(tsx, [client, '--http', url, ...eraArgs], { cwd: path.dirname(client), env, timeoutMs }));
        if (!r.ok && server.log.trim()) r.serverLog = reason(server.log, '');
        return r;
    } finally {
        await stopServer(server);
    }
}

// ---------------------------------------------------------------- v1 examples

const V1_PROBE = `
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const [kind, target, ...rest] = process.argv.slice(2);
const client = new Client({ name: 'port-check-probe', version: '1.0.0' });
const transport = kind === 'stdio' ? new StdioClientTransport({ command: target, args: rest, stderr: 'ignore' })
  : kind === 'sse' ? new SSEClientTransport(new URL(target)) : new StreamableHTTPClientTransport(new URL(target));
await client.connect(transport);
const caps = client.getServerCapabilities() ?? {};
const out = { capabilities: caps, instructions: client.getInstructions() };
const all = async (list, key) => { const items = []; let cursor; do { const r = await list(cursor ? { cursor } : undefined); items.push(...r[key]); cursor = r.nextCursor; } while (cursor); return items; };
if (caps.tools) out.tools = await all(p => client.listTools(p), 'tools');
if (caps.prompts) out.prompts = await all(p => client.listPrompts(p), 'prompts');
if (caps.resources) { out.resources = await all(p => client.listResources(p), 'resources'); out.resourceTemplates = await all(p => client.listResourceTemplates(p), 'resourceTemplates'); }
process.stdout.write('PROBE' + JSON.stringify(out) + '\\n');
await client.close();
process.exit(0);
`;

function v1Cases(srcExamples) {
    const cases = [];
    const servers = fs.readdirSync(path.join(srcExamples, 'server')).filter(f => f.endsWith('.ts') && !/^demo|OAuthProvider/.test(f));
    for (const file of servers.sort()) {
        const text = fs.readFileSync(path.join(srcExamples, 'server', file), 'utf8');
        const name = file.replace(/\.ts$/, '');
        if (/StdioServerTransport/.test(text) && !/\.listen\(/.test(text)) {
            cases.push({ id: `v1/server/${name}`, kind: 'stdio', file: `server/${file}` });
            continue;
        }
        const port = Number(/PORT\s*=\s*(?:process\.env\.\w+\s*\?[^:]*:\s*)?(\d+)/.exec(text)?.[1] ?? 3000);
        const sse = /SSEServerTransport/.test(text) && !/StreamableHTTPServerTransport/.test(text);
        cases.push({ id: `v1/server/${name}`, kind: sse ? 'sse' : 'http', file: `server/${file}`, port, path: sse ? '/sse' : '/mcp' });
    }
    // The example clients that run without a person, each against the server its header names.
    const clients = {
        parallelToolCallsClient: 'simpleStreamableHttp',
        multipleClientsParallel: 'simpleStreamableHttp',
        streamableHttpWithSseFallbackClient: 'simpleStreamableHttp',
        ssePollingClient: 'ssePollingExample'
    };
    for (const [client, server] of Object.entries(clients)) {
        if (!fs.existsSync(path.join(srcExamples, 'client', `${client}.ts`))) continue;
        const s = cases.find(c => c.id === `v1/server/${server}`);
        if (s) cases.push({ id: `v1/client/${client}`, kind: 'client', file: `client/${client}.ts`, server: s });
    }
    return cases;
}

async function v1Start(c, tree) {
    const bin = path.join(tree, '..', 'node_modules', '.bin', 'tsx');
    if (await portOpen(c.port)) return { error: `port ${c.port} is in use on this machine (the v1 examples bind fixed ports)` };
    const file = path.join(tree, 'src', 'examples', c.file);
    const server = startServer(bin, [file], { cwd: path.dirname(file), env: {} });
    if (!(await waitForPort(c.port, server, 15000))) {
        await stopServer(server);
        return { error: `server never listened on ${c.port}: ${reason(server.log, `exit ${server.exitCode}`)}` };
    }
    return { server };
}

async function v1Probe(c, tree, args) {
    const bin = path.join(tree, '..', 'node_modules', '.bin', 'tsx');
    const probe = path.join(tree, '..', 'probe.mjs');
    if (c.kind === 'stdio') {
        const r = await run(process.execPath, [probe, 'stdio', bin, path.join(tree, 'src', 'examples', c.file)], { cwd: tree, timeoutMs: args.timeout });
        return parseProbe(r);
    }
    const started = await v1Start(c, tree);
    if (started.error) return { error: started.error };
    try {
        const r = await run(process.execPath, [probe, c.kind, `http://localhost:${c.port}${c.path}`], { cwd: tree, timeoutMs: args.timeout });
        const p = parseProbe(r);
        if (p.error && started.server.log.trim()) p.error += ` | server: ${reason(started.server.log, '')}`;
        return p;
    } finally {
        await stopServer(started.server);
    }
}

function parseProbe(r) {
    const line = r.out.split('\n').find(l => l.startsWith('PROBE'));
    if (line) return { snapshot: JSON.parse(line.slice(5)) };
    return { error: r.timedOut ? `probe hung: ${reason(r.out, '')}` : `probe failed: ${reason(r.out, `exit ${r.code}`)}` };
}

function canonical(v) {
    if (Array.isArray(v)) return v.map(canonical);
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map(k => [k, canonical(v[k])]));
    return v;
}

function firstDifference(a, b, at = '') {
    if (JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))) return null;
    if (a && b && typeof a === 'object' && typeof b === 'object') {
        if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length) return `${at || '.'}: ${a.length} items official, ${b.length} ported`;
        for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
            const d = firstDifference(a[k], b[k], Array.isArray(a) ? `${at}[${k}]` : `${at}.${k}`);
            if (d) return d;
        }
    }
    const show = v => (v === undefined ? 'absent' : JSON.stringify(v).slice(0, 60));
    return `${at}: official ${show(a)}, ported ${show(b)}`;
}

async function v1Client(c, tree, args) {
    const bin = path.join(tree, '..', 'node_modules', '.bin', 'tsx');
    const started = await v1Start(c.server, tree);
    if (started.error) return { ok: false, why: started.error };
    try {
        const file = path.join(tree, 'src', 'examples', c.file);
        const r = await run(bin, [file], { cwd: path.dirname(file), timeoutMs: args.timeout });
        if (r.timedOut) return { ok: false, why: `hung: ${reason(r.out, '')}` };
        if (r.code !== 0 || /\bError\b/.test(r.out)) return { ok: false, why: `exit ${r.code}: ${reason(r.out, 'no output')}` };
        return { ok: true, why: '' };
    } finally {
        await stopServer(started.server);
    }
}

// ---------------------------------------------------------------- main

async function main() {
    const args = parseArgs(process.argv.slice(2));
    if (args.installOnly) {
        console.log(installDeps(args));
        return 0;
    }
    if (!fs.existsSync(path.join(args.ferrymcp, 'esm', 'index.js'))) throw new Error(`${args.ferrymcp} has no esm/ build: build bindings-node first (see helper notes / bindings-node/README.md)`);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'port-check-node-'));
    let gitDir = args.sdk;
    try {
        if (!fs.existsSync(gitDir)) {
            gitDir = path.join(tmp, 'clone.git');
            execFileSync('git', ['clone', '-q', '--bare', OFFICIAL_URL, gitDir], { stdio: 'inherit' });
        }
        const deps = installDeps(args);
        fs.symlinkSync(deps, path.join(tmp, 'node_modules'));
        fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ name: 'port-check', private: true, type: 'module' }));
        fs.writeFileSync(path.join(tmp, 'probe.mjs'), V1_PROBE);
        const official = path.join(tmp, 'official');
        const ported = path.join(tmp, 'ported');
        const mixed = path.join(tmp, 'mixed'); // ported servers, official clients
        for (const tree of [official, ported, mixed]) {
            exportTree(gitDir, args.ref, ['examples'], tree);
            exportTree(gitDir, args.refV1, ['src/examples'], tree);
        }
        rewriteTree(path.join(ported, 'examples'), portSpecifier);
        rewriteTree(path.join(mixed, 'examples'), portSpecifier, file => path.basename(file) !== 'client.ts');
        for (const [tree, pkg] of [
            [official, '@modelcontextprotocol/sdk'],
            [ported, 'ferrymcp']
        ]) {
            V1_SRC_ROOT = path.join(tree, 'src');
            for (const entry of fs.readdirSync(path.join(tree, 'src', 'examples'), { recursive: true })) {
                const file = path.join(tree, 'src', 'examples', entry);
                if (!file.endsWith('.ts')) continue;
                const text = fs.readFileSync(file, 'utf8');
                fs.writeFileSync(file, rewriteImports(text, v1Map(file, pkg)));
            }
        }
        for (const tree of [official, ported, mixed]) linkModules(tree, deps, args.ferrymcp);
        if (args.keep) fs.cpSync(tmp, args.keep, { recursive: true, verbatimSymlinks: true });

        const inPart = id => !args.part || (args.part === 'v1') === id.startsWith('v1/');
        const wanted = id => inPart(id) && (!args.only || args.only.some(o => id === o || id.startsWith(`${o}[`) || id.includes(o)));
        const results = [];
        const print = (id, variant, r) => {
            results.push({ id, variant, ...r });
            const mark = r.ok ? 'pass' : r.na ? 'n/a ' : 'FAIL';
            if (args.list || (!r.ok && !r.na)) console.log(`${mark}  ${variant.padEnd(8)} ${id}${r.why ? `\n        ${r.why}` : ''}${r.serverLog ? `\n        server: ${r.serverLog}` : ''}`);
        };

        const legs = storyLegs(path.join(official, 'examples'));
        for (const leg of legs) {
            if (leg.excluded) continue;
            if (!wanted(leg.id)) continue;
            let base = { ok: true, why: 'not run (--no-official)' };
            if (args.official) {
                base = await runLeg(leg, official, official, args);
                print(leg.id, 'official', base.ok ? base : { ...base, na: true });
            }
            for (const [variant, tree, clientTree] of [
                ['server', mixed, mixed],
                ['full', ported, ported]
            ]) {
                const r = await runLeg(leg, tree, clientTree, args);
                print(leg.id, variant, base.ok ? r : { ...r, na: true, why: `official fails too; ported: ${r.ok ? 'passes' : r.why}` });
            }
        }

        for (const c of v1Cases(path.join(official, 'src', 'examples'))) {
            if (!wanted(c.id)) continue;
            if (c.kind === 'client') {
                const base = args.official ? await v1Client(c, official, args) : { ok: true };
                if (args.official) print(c.id, 'official', base.ok ? base : { ...base, na: true });
                const r = await v1Client(c, ported, args);
                print(c.id, 'full', base.ok ? r : { ...r, na: true, why: `official fails too; ported: ${r.ok ? 'passes' : r.why}` });
                continue;
            }
            const base = args.official ? await v1Probe(c, official, args) : { snapshot: null };
            if (args.official) print(c.id, 'official', base.error ? { ok: false, na: true, why: base.error } : { ok: true, why: '' });
            const mine = await v1Probe(c, ported, args);
            if (base.error) print(c.id, 'server', { ok: false, na: true, why: `official fails too; ported: ${mine.error ?? 'answers'}` });
            else if (mine.error) print(c.id, 'server', { ok: false, why: mine.error });
            else {
                const diff = base.snapshot ? firstDifference(base.snapshot, mine.snapshot) : null;
                print(c.id, 'server', { ok: true, why: diff ? `works, differs: ${diff}` : base.snapshot ? 'identical' : '' });
                if (diff) print(c.id, 'identical', { ok: false, why: diff });
                else if (base.snapshot) print(c.id, 'identical', { ok: true, why: '' });
            }
        }

        console.log('\n=== summary ===');
        const excluded = legs.filter(l => l.excluded).map(l => l.story);
        if (excluded.length) console.log(`v2 stories excluded by their own config: ${excluded.join(', ')} (and guides/, quickstarts: not story pairs)`);
        const count = (filter, variant) => {
            const rows = results.filter(r => filter(r.id) && r.variant === variant);
            const counted = rows.filter(r => !r.na);
            return `${counted.filter(r => r.ok).length} of ${counted.length} pass${rows.length > counted.length ? ` (${rows.length - counted.length} n/a: the official run fails too)` : ''}`;
        };
        const isV2 = id => !id.startsWith('v1/');
        if (args.official) console.log(`v2 legs, official SDK:                        ${count(isV2, 'official')}`);
        console.log(`v2 legs, ported server + official client:    ${count(isV2, 'server')}`);
        console.log(`v2 legs, ported client + ported server:      ${count(isV2, 'full')}`);
        const isV1s = id => id.startsWith('v1/server/');
        if (args.official) console.log(`v1 servers, official SDK (probed):           ${count(isV1s, 'official')}`);
        console.log(`v1 servers, ported (probed by official client): ${count(isV1s, 'server')}`);
        if (args.official) console.log(`v1 servers, listings identical to official:  ${count(isV1s, 'identical')}`);
        console.log(`v1 clients, ported, against ported server:   ${count(id => id.startsWith('v1/client/'), 'full')}`);
        const groups = new Map();
        for (const r of results.filter(r => !r.ok && !r.na && r.variant !== 'identical')) {
            const key = r.why.replace(/^exit \d+: /, '').replace(/\d{4,}/g, 'N').slice(0, 110);
            groups.set(key, (groups.get(key) ?? 0) + 1);
        }
        if (groups.size) console.log('failure reasons:');
        for (const [k, n] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(4)}  ${k}`);
        return 0;
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}

process.exitCode = await main();

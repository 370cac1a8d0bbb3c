// What the Node client programs of the client-side benchmark share (issue 17, "The client
// side"; benches/README.md), so they differ only in the SDK they import: connect with the
// SDK's `Client`, warm up, call `echo` one at a time for a phase, then keep 64 calls in
// flight for a phase, and print one JSON line.
//   node client-X.mjs [--seconds 2] [--window 64] stdio CMD [ARG...]
//   node client-X.mjs [--seconds 2] [--window 64] [--server-pid PID] http URL
// The server is fixed (benches/e2e/clients.py runs ferrymcp's Rust `ferrymcp-echo`), so the
// figures differ by the client alone. CPU per call is this process's own user + system time
// (`process.cpuUsage()`, every thread, not the server child) over the phase divided by the
// calls; the server's CPU per call (from /proc: the child over stdio, `--server-pid` over
// HTTP) is reported beside it.
import { readdirSync, readFileSync } from 'node:fs';

const TEXT = 'hello world, this is a benchmark';
// Clock ticks per second of /proc/PID/stat (USER_HZ; 100 on every Linux Node runs on).
const TICK = 100;

function childPids() {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === process.pid) found.push(Number(entry));
  }
  return found;
}

function processCpuS(pid) {
  if (pid == null) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICK;
  } catch {
    return null;
  }
}

function percentile(sorted, q) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1000 : 0;
}

function check(result) {
  if (result.isError || result.content?.[0]?.text !== TEXT) {
    throw new Error(`echo answered wrongly: ${JSON.stringify(result)}`);
  }
}

const round = (x, digits) => Math.round(x * 10 ** digits) / 10 ** digits;

// `window` callers, each calling `echo` in a loop until the phase ends (1: sequential).
async function phase(client, seconds, window, serverPid) {
  const latencies = [];
  const cpu0 = process.cpuUsage();
  const server0 = processCpuS(serverPid);
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  const caller = async () => {
    for (;;) {
      const t0 = process.hrtime.bigint();
      if (t0 >= deadline) return;
      await client.callTool({ name: 'echo', arguments: { text: TEXT } });
      latencies.push(Number(process.hrtime.bigint() - t0));
    }
  };
  await Promise.all(Array.from({ length: window }, caller));
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const server = processCpuS(serverPid);
  latencies.sort((a, b) => a - b);
  const calls = latencies.length;
  const report = {
    calls,
    seconds: round(elapsed, 4),
    calls_per_s: round(calls / elapsed, 1),
    p50_us: round(percentile(latencies, 0.5), 1),
    p99_us: round(percentile(latencies, 0.99), 1),
    client_cpu_us_per_call: calls ? round((cpu.user + cpu.system) / calls, 2) : null,
  };
  if (server != null && server0 != null && calls) {
    report.server_cpu_us_per_call = round(((server - server0) * 1e6) / calls, 2);
  }
  return report;
}

function parseArgs(argv) {
  const options = { seconds: 2, window: 64, serverPid: null };
  let i = 0;
  for (; i < argv.length && argv[i].startsWith('--'); i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (name === '--seconds') options.seconds = Number(value);
    else if (name === '--window') options.window = Number(value);
    else if (name === '--server-pid') options.serverPid = Number(value);
    else throw new Error(`unknown option ${name}`);
  }
  const [transport, ...target] = argv.slice(i);
  if (!['stdio', 'http'].includes(transport) || target.length === 0) {
    throw new Error('usage: client-X.mjs [--seconds S] [--window N] [--server-pid PID] stdio CMD... | http URL');
  }
  return { ...options, transport, target };
}

// sdk: { Client, StdioClientTransport, StreamableHTTPClientTransport } of one SDK.
export async function run(sdk) {
  const args = parseArgs(process.argv.slice(2));
  const transport =
    args.transport === 'stdio'
      ? new sdk.StdioClientTransport({ command: args.target[0], args: args.target.slice(1), stderr: 'inherit' })
      : new sdk.StreamableHTTPClientTransport(new URL(args.target[0]));
  const client = new sdk.Client({ name: 'bench-client', version: '1.0.0' });
  const started = process.hrtime.bigint();
  await client.connect(transport);
  const connectMs = Number(process.hrtime.bigint() - started) / 1e6;
  check(await client.callTool({ name: 'echo', arguments: { text: TEXT } }));
  let serverPid = args.serverPid;
  if (serverPid == null && args.transport === 'stdio') {
    const children = childPids();
    serverPid = children.length === 1 ? children[0] : null;
  }
  await phase(client, args.seconds / 4, args.window, null); // warm-up
  const sequential = await phase(client, args.seconds, 1, serverPid);
  const inFlight = await phase(client, args.seconds, args.window, serverPid);
  inFlight.window = args.window;
  // The v1 line keeps the negotiated version only on its HTTP transport (null over stdio).
  const protocolVersion = client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion ?? null;
  const rssPeakKib = process.resourceUsage().maxRSS;
  await client.close();
  process.stdout.write(
    `${JSON.stringify({
      transport: args.transport,
      protocol_version: protocolVersion,
      connect_ms: round(connectMs, 2),
      sequential,
      in_flight: inFlight,
      rss_peak_kib: rssPeakKib,
    })}\n`,
  );
}

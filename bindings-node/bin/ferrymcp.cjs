#!/usr/bin/env node
// `npx ferrymcp ...`: runs the real `ferrymcp` executable (built from the repository's
// `cli/` crate, the same binary `cargo install ferrymcp-cli` and the Python wheel's
// `ferrymcp` script give), shipped next to the addon in the per-platform package
// `ferrymcp-<platform>` that npm installs from optionalDependencies.
//
// Why a launcher around the executable rather than the CLI compiled into the addon: the
// command then behaves exactly as the native one (its own signal handlers, its own
// stdin/stdout for `bridge --stdio`, its exit codes), Node's event loop never blocks on it,
// and CI builds the executable once (cargo's release build) for every package.
//
// The launcher only starts it: stdio inherited (the child reads and writes the same file
// descriptors), SIGINT, SIGTERM and SIGHUP passed on to it (a Ctrl-C in a terminal already
// reaches both; a `kill` of this process must too), and on its exit the same exit code, or
// the same signal re-raised on this process so that the parent sees what it would see of the
// native binary. CommonJS, no dependencies: it starts in a few milliseconds.
'use strict'

const { spawn } = require('node:child_process')
const path = require('node:path')
const fs = require('node:fs')

function libc() {
  if (process.platform !== 'linux') return ''
  const report = process.report && process.report.getReport ? process.report.getReport() : null
  return report && report.header && report.header.glibcVersionRuntime ? '-gnu' : '-musl'
}

function executable() {
  const name = process.platform === 'win32' ? 'ferrymcp.exe' : 'ferrymcp'
  // FERRYMCP_CLI: an executable built from source (any platform without a prebuilt package).
  if (process.env.FERRYMCP_CLI) return process.env.FERRYMCP_CLI
  const platform = `${process.platform}-${process.arch}${process.platform === 'win32' ? '-msvc' : libc()}`
  // A development checkout: the executable copied next to the addon (scripts/test.sh).
  const local = path.join(__dirname, '..', 'native', name)
  if (fs.existsSync(local)) return local
  try {
    return path.join(path.dirname(require.resolve(`ferrymcp-${platform}/package.json`)), name)
  } catch {
    process.stderr.write(
      `ferrymcp: no executable for ${platform}: its package ferrymcp-${platform} is not installed ` +
        '(an optional dependency of ferrymcp: reinstall without --omit=optional), or no prebuilt one ' +
        'exists for this platform; build it with `cargo install ferrymcp-cli` (https://rustup.rs) and ' +
        'set FERRYMCP_CLI to its path.\n',
    )
    process.exit(3)
  }
}

// npm does not promise to keep the executable bit of a file that is not a `bin` entry.
function runnable(file) {
  if (process.platform === 'win32') return file
  try {
    fs.accessSync(file, fs.constants.X_OK)
  } catch {
    try {
      fs.chmodSync(file, 0o755)
    } catch {
      // not ours to change: spawn reports the error below
    }
  }
  return file
}

const child = spawn(runnable(executable()), process.argv.slice(2), { stdio: 'inherit', windowsHide: false })
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP']
const forward = (signal) => {
  try {
    child.kill(signal)
  } catch {
    // already gone: its exit is reported below
  }
}
for (const signal of forwarded) process.on(signal, forward)

child.on('error', (error) => {
  process.stderr.write(`ferrymcp: cannot run ${child.spawnfile}: ${error.message}\n`)
  process.exit(3)
})
child.on('exit', (code, signal) => {
  for (const name of forwarded) process.off(name, forward)
  if (signal) {
    // The same death as the native binary's (a shell reports 128 + its number).
    process.kill(process.pid, signal)
    return
  }
  process.exit(code === null ? 1 : code)
})

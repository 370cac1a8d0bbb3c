// Loads the addon through napi-rs's generated loader (index.cjs, which finds the binary
// next to it in a development build, else in the per-platform package
// `ferrymcp-<platform>` that npm installs from optionalDependencies) and, when no binary
// could be loaded, replaces the loader's generic "Cannot find native binding" with an
// error that names this platform and what to do. Hand-written (index.cjs is regenerated
// by `napi build` and must stay as generated); CommonJS so that the ESM and the CommonJS
// builds both load it with one `require`.
'use strict'

// The platforms ferrymcp publishes binaries for: package.json's napi.targets, as packages.
const PREBUILT = ['linux-x64-gnu', 'linux-x64-musl', 'linux-arm64-gnu', 'darwin-x64', 'darwin-arm64', 'win32-x64-msvc']
const GENERIC = ['Cannot find native binding', 'Failed to load native binding']

function libc() {
  if (process.platform !== 'linux') return ''
  const report = process.report && process.report.getReport ? process.report.getReport() : null
  return report && report.header && report.header.glibcVersionRuntime ? '-gnu' : '-musl'
}

function platformError(cause) {
  const platform = `${process.platform}-${process.arch}${process.platform === 'win32' ? '-msvc' : libc()}`
  const failures = loadFailures(cause && cause.cause)
  const reason = failures.length > 0 ? ` (${failures.join('; ')})` : ''
  const advice = PREBUILT.includes(platform)
    ? `its package ferrymcp-${platform} is missing or could not be loaded${reason}. It is an ` +
      'optional dependency of ferrymcp: reinstall without --omit=optional / --no-optional; if ' +
      'that does not help, delete node_modules and package-lock.json and run npm install again ' +
      '(npm bug https://github.com/npm/cli/issues/4828).'
    : `no prebuilt binary exists for it (there are: ${PREBUILT.join(', ')}). Build the addon from ` +
      'source with a Rust toolchain (https://rustup.rs): see "Building from source" in ' +
      'https://github.com/ferrymcp/ferrymcp#readme, then point NAPI_RS_NATIVE_LIBRARY_PATH at the ' +
      'built .node file.'
  const error = new Error(`ferrymcp could not load its native addon on ${platform}: ${advice}`)
  error.code = 'ERR_FERRYMCP_NATIVE_ADDON'
  error.cause = cause
  return error
}

// The loader's causes, one per candidate it tried, chained through `cause`: those that are
// not a plain "Cannot find module" say why a binary that is there did not load (a glibc too
// old, a version mismatch).
function loadFailures(chain) {
  const failures = []
  for (let error = chain; error && failures.length < 3; error = error.cause) {
    const message = String(error.message || error).split('\n')[0]
    if (!message.startsWith('Cannot find module')) failures.push(message)
  }
  return failures
}

try {
  module.exports = require('./index.cjs')
} catch (error) {
  if (error && typeof error.message === 'string' && GENERIC.some((m) => error.message.startsWith(m))) {
    throw platformError(error)
  }
  throw error
}

// The addon as native/load.cjs exports it: napi-rs's generated loader, typed by its
// generated declarations.
import native = require('./index.cjs')
export = native

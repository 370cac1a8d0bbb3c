//! `ferrymcp._native`: the Python face of ferrymcp-core.
//!
//! This crate only adapts: Python callables become core handlers, JSON values cross as
//! Python objects, core errors become `ferrymcp` exceptions, and core futures become
//! asyncio awaitables. Everything that is protocol stays in core.

mod asgi;
mod auth_server;
mod bridge;
mod call;
mod client;
mod context;
mod convert;
mod errors;
mod exchange;
mod group;
mod http;
mod inbound;
mod listed_tools;
mod logs;
mod middleware;
mod oauth;
mod port;
mod redis;
mod runtime;
mod server;
mod spec_task;
mod task_store;
mod template;
mod vocabulary;

use pyo3::prelude::*;

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_class::<server::NativeServer>()?;
    module.add_class::<http::NativeHttpServer>()?;
    module.add_class::<asgi::NativeHttpHandler>()?;
    module.add_class::<asgi::NativeResponseBody>()?;
    module.add_class::<auth_server::NativeAuthServer>()?;
    module.add_class::<context::NativeContext>()?;
    module.add_class::<spec_task::NativeSpecTask>()?;
    module.add_class::<client::NativeClient>()?;
    module.add_class::<client::NativeSubscription>()?;
    module.add_class::<port::NativePort>()?;
    module.add_class::<middleware::NativeNext>()?;
    module.add_class::<redis::NativeRedisStore>()?;
    module.add_class::<template::NativeUriTemplate>()?;
    module.add_class::<group::NativeGroup>()?;
    module.add_class::<listed_tools::NativeListedTools>()?;
    module.add_function(wrap_pyfunction!(group::llm_tool_definitions, module)?)?;
    module.add_function(wrap_pyfunction!(group::llm_tool_result, module)?)?;
    module.add_function(wrap_pyfunction!(client::default_environment, module)?)?;
    module.add_function(wrap_pyfunction!(vocabulary::check_tool_name, module)?)?;
    module.add_function(wrap_pyfunction!(client::check_result_claim, module)?)?;
    module.add_function(wrap_pyfunction!(client::check_result_claims, module)?)?;
    module.add_function(wrap_pyfunction!(http::metadata_path, module)?)?;
    module.add_function(wrap_pyfunction!(http::canonical_resource, module)?)?;
    module.add_function(wrap_pyfunction!(http::resource_covers, module)?)?;
    module.add_function(wrap_pyfunction!(server::check_state_keys, module)?)?;
    module.add_function(wrap_pyfunction!(spec_task::check_task_mode, module)?)?;
    module.add_function(wrap_pyfunction!(spec_task::is_terminal_task_status, module)?)?;
    module.add_function(wrap_pyfunction!(server::require_client_extension, module)?)?;
    module.add_function(wrap_pyfunction!(logs::reopen_log_pump, module)?)?;
    module.add_function(wrap_pyfunction!(logs::take_log_records, module)?)?;
    vocabulary::add(module)?;
    inbound::add(module)?;
    logs::install();
    Ok(())
}

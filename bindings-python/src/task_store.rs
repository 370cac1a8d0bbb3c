//! An application's `TaskStore` (the official Python 1.x interface of
//! `mcp.shared.experimental.tasks.store`) as core's task store: core's [`CallingTaskStore`]
//! over one async function of the Python layer, `call(operation, args)`
//! (`ferrymcp.server.experimental._store_bridge`), which runs each operation on the
//! application's store, converting the official models to and from JSON values. It runs
//! on the server's loop; core keeps every protocol rule (what each `tasks/*` request
//! answers, waiting, cancellation, the status notifications).

use std::sync::Arc;

use ferrymcp_core::server::{CallingTaskStore, HandlerError, TaskStoreCall};
use ferrymcp_core::wire::ErrorObject;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::call::PyCallable;
use crate::convert::to_py;

/// Core's store over `callable`. An `McpError` the store raised answers with its own
/// error; any other exception is an internal error naming the operation.
pub fn task_store(callable: PyCallable) -> CallingTaskStore {
    let callable = Arc::new(callable);
    let call: TaskStoreCall = Arc::new(move |operation, args| {
        let callable = callable.clone();
        Box::pin(async move {
            let answer = callable
                .call(move |py: Python<'_>| {
                    PyTuple::new(py, [operation.name().into_pyobject(py)?.into_any(), to_py(py, &args)?])
                })
                .await;
            answer.map_err(|error| match error {
                HandlerError::Rpc(error) => error,
                other => ErrorObject::internal(format!("the task store's {} failed: {other}", operation.name())),
            })
        })
    });
    CallingTaskStore::new(call)
}

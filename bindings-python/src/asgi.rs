//! `NativeHttpHandler`: core's `HttpHandler` for an ASGI app (`mcp.streamable_http_app()`).
//!
//! The Python side hands over what ASGI gave it (method, path, headers, body) and sends
//! back what comes out: status, headers, and either the whole body (JSON answers, which
//! core has in hand) or a `NativeResponseBody` to pull SSE events from one at a time, so
//! each event is flushed as soon as core produces it. Closing that body (the client
//! disconnected) drops core's response body, which on a 2026-07-28 request is the
//! request's cancellation. All protocol behaviour is core's; this file moves bytes.

use std::sync::Arc;

use bytes::Bytes;
use ferrymcp_core::server::http::{HttpHandler, ResponseBody};
use http_body::Body;
use http_body_util::{BodyExt, Full};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};
use tokio::sync::Mutex;

use crate::bridge::{Deliver, awaitable, ok};
use crate::runtime::runtime;

/// The MCP endpoint, to be called once per HTTP request.
#[pyclass(module = "ferrymcp._native", frozen)]
pub struct NativeHttpHandler {
    pub handler: HttpHandler,
    /// The largest request body core accepts (the app stops reading past it).
    #[pyo3(get)]
    pub max_body: usize,
}

/// An SSE response body being read.
#[pyclass(module = "ferrymcp._native", frozen)]
pub struct NativeResponseBody {
    body: Arc<Mutex<Option<ResponseBody>>>,
}

type Head = Vec<(Bytes, Bytes)>;

fn request(
    method: &str,
    target: &str,
    headers: &Bound<'_, PyList>,
    body: &[u8],
) -> PyResult<http::Request<Full<Bytes>>> {
    let mut builder = http::Request::builder().method(method).uri(target);
    for pair in headers.iter() {
        let (name, value) = pair.extract::<(Bound<'_, PyBytes>, Bound<'_, PyBytes>)>()?;
        builder = builder.header(name.as_bytes(), value.as_bytes());
    }
    builder
        .body(Full::new(Bytes::copy_from_slice(body)))
        .map_err(|e| PyValueError::new_err(format!("not an HTTP request: {e}")))
}

/// `(status, [(name, value)], bytes | NativeResponseBody)` on the loop thread.
fn deliver(status: u16, head: Head, whole: Option<Bytes>, stream: Option<ResponseBody>) -> Deliver {
    Box::new(move |py| {
        let headers = PyList::empty(py);
        for (name, value) in head {
            headers.append(PyTuple::new(py, [PyBytes::new(py, &name), PyBytes::new(py, &value)])?)?;
        }
        let body = match (whole, stream) {
            (Some(bytes), _) => PyBytes::new(py, &bytes).into_any().unbind(),
            (None, body) => NativeResponseBody { body: Arc::new(Mutex::new(body)) }.into_py_any(py)?,
        };
        (status, headers, body).into_py_any(py)
    })
}

#[pymethods]
impl NativeHttpHandler {
    /// Answers one request (`target` is the path within the app, with its query).
    fn handle<'py>(
        &self,
        py: Python<'py>,
        method: &str,
        target: &str,
        headers: &Bound<'py, PyList>,
        body: &[u8],
    ) -> PyResult<Bound<'py, PyAny>> {
        let (handler, request) = (self.handler.clone(), request(method, target, headers, body)?);
        awaitable(py, async move {
            let (parts, body) = handler.handle(request).await.into_parts();
            let head: Head = parts
                .headers
                .iter()
                .map(|(name, value)| (Bytes::copy_from_slice(name.as_ref()), Bytes::copy_from_slice(value.as_bytes())))
                .collect();
            if body.size_hint().exact().is_none() {
                return deliver(parts.status.as_u16(), head, None, Some(body));
            }
            let whole = body.collect().await.map(|collected| collected.to_bytes()).unwrap_or_default();
            let mut head = head;
            head.push((Bytes::from_static(b"content-length"), Bytes::from(whole.len().to_string())));
            deliver(parts.status.as_u16(), head, Some(whole), None)
        })
    }

    /// Ends the long-lived streams, waits for nothing, and ends every session.
    fn shutdown<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let handler = self.handler.clone();
        handler.stop_streams();
        awaitable(py, async move {
            handler.end_sessions().await;
            ok(())
        })
    }
}

#[pymethods]
impl NativeResponseBody {
    /// The next chunk (one SSE event or keep-alive comment), or `None` at the end.
    fn next<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let body = self.body.clone();
        awaitable(py, async move {
            let mut body = body.lock().await;
            while let Some(stream) = body.as_mut() {
                match stream.frame().await {
                    Some(Ok(frame)) => {
                        if let Ok(data) = frame.into_data() {
                            return Box::new(move |py: Python<'_>| Ok(PyBytes::new(py, &data).into_any().unbind()))
                                as Deliver;
                        }
                    }
                    _ => *body = None,
                }
            }
            ok(None::<Py<PyAny>>)
        })
    }

    /// Stops reading: the body is dropped (a 2026-07-28 request is cancelled).
    fn close(&self) {
        let body = self.body.clone();
        runtime().spawn(async move { body.lock().await.take() });
    }
}

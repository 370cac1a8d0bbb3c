//! The program's own httpx client as core's HTTP [`Exchange`] (2.x's
//! `streamable_http_client(url, http_client=...)`).
//!
//! Core's transport decides every request and reads every response; this only moves them
//! through the httpx client, so whatever that client does on its own (an `ASGITransport`,
//! mounts, proxies, hooks, cookies, its own `httpx.Auth`) applies as with the official
//! client. Each request runs `ferrymcp.client._exchange.send` as a task on the client's
//! loop (through `PyCallable`, so a tokio thread never touches Python); the task hands the
//! response's head and then its body, chunk by chunk, to a [`Sink`] whose calls only push
//! into channels. Dropping the response on the Rust side (the request was cancelled, the
//! connection closed) cancels the task.

use std::io;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use ferrymcp_core::client::http::Exchange;
use ferrymcp_core::peer::BoxFuture;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use tokio::sync::{mpsc, oneshot};

use crate::call::PyCallable;
use crate::runtime::runtime;

type Head = Result<(u16, Vec<(String, Vec<u8>)>), String>;
type Chunk = Result<Bytes, io::Error>;

struct Channels {
    head: Mutex<Option<oneshot::Sender<Head>>>,
    body: Mutex<Option<mpsc::UnboundedSender<Chunk>>>,
}

impl Channels {
    /// The task ended: a response never started fails with `error` (or for want of one), a
    /// started body ends, broken off when there is an error.
    fn finish(&self, error: Option<String>) {
        if let Some(head) = self.head.lock().unwrap().take() {
            let _ = head.send(Err(error.unwrap_or_else(|| "the httpx client gave no response".into())));
            return;
        }
        if let Some(body) = self.body.lock().unwrap().take()
            && let Some(error) = error
        {
            let _ = body.send(Err(io::Error::other(error)));
        }
    }
}

/// Where `ferrymcp.client._exchange.send` puts one response.
#[pyclass(frozen)]
pub struct Sink(Arc<Channels>);

#[pymethods]
impl Sink {
    /// The status and headers; `False` when no one waits for them any more.
    fn head(&self, status: u16, headers: Vec<(String, Vec<u8>)>) -> bool {
        let head = self.0.head.lock().unwrap().take();
        head.is_some_and(|head| head.send(Ok((status, headers))).is_ok())
    }

    /// One chunk of the body; `False` when no one reads it any more.
    fn chunk(&self, data: &[u8]) -> bool {
        let body = self.0.body.lock().unwrap();
        body.as_ref().is_some_and(|body| body.send(Ok(Bytes::copy_from_slice(data))).is_ok())
    }

    /// The body ended, broken off with `error` when there is one.
    #[pyo3(signature = (error = None))]
    fn end(&self, error: Option<String>) {
        self.0.finish(Some(error.unwrap_or_default()).filter(|e| !e.is_empty()));
    }
}

/// Aborts the task carrying one request once neither its head nor its body is awaited.
struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

pub struct PyExchange(pub Arc<PyCallable>);

impl Exchange for PyExchange {
    fn send(&self, request: http::Request<Bytes>) -> BoxFuture<Result<http::Response<reqwest::Body>, String>> {
        let (head_tx, head_rx) = oneshot::channel();
        let (body_tx, mut body_rx) = mpsc::unbounded_channel();
        let channels = Arc::new(Channels { head: Mutex::new(Some(head_tx)), body: Mutex::new(Some(body_tx)) });
        let (parts, body) = request.into_parts();
        let method = parts.method.to_string();
        let url = parts.uri.to_string();
        let headers: Vec<(String, Vec<u8>)> =
            parts.headers.iter().map(|(name, value)| (name.as_str().to_owned(), value.as_bytes().to_vec())).collect();
        let (callable, sink) = (self.0.clone(), channels.clone());
        let call = callable.call(move |py| {
            let sink = Bound::new(py, Sink(sink))?.into_any();
            let items = [
                method.into_pyobject(py)?.into_any(),
                url.into_pyobject(py)?.into_any(),
                headers.into_pyobject(py)?.into_any(),
                PyBytes::new(py, &body).into_any(),
                sink,
            ];
            PyTuple::new(py, items)
        });
        let task = runtime().spawn(async move {
            let error = call.await.err().map(|e| e.to_string());
            channels.finish(error);
        });
        let guard = Arc::new(AbortOnDrop(task.abort_handle()));
        Box::pin(async move {
            let (status, headers) = head_rx.await.map_err(|_| "the httpx client gave no response".to_owned())??;
            let mut response = http::Response::builder().status(status);
            for (name, value) in headers {
                response = response.header(name, value);
            }
            let body = futures_util::stream::poll_fn(move |cx| {
                let _held = &guard;
                body_rx.poll_recv(cx)
            });
            response
                .body(reqwest::Body::wrap_stream(body))
                .map_err(|e| format!("bad response from the httpx client: {e}"))
        })
    }
}

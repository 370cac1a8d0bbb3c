//! The TypeScript `StreamableHTTPClientTransport` and `SSEClientTransport`: core's client
//! over HTTP ([`Client::connect_http`]), which detects the era, falls back to the
//! deprecated HTTP+SSE transport, keeps the legacy session and resumes broken streams.
//! This file only converts the options and exposes the session; the connection is the same
//! [`NativeClient`] a spawned server gets.

use ferrymcp_core::client::Client;
use ferrymcp_core::client::http::{HttpClientOptions, HttpFailure};
use ferrymcp_core::protocol::ErrorCode;
use napi_derive::napi;

use crate::client::{ClientConfig, Hooks, JsCloseFn, JsListChangedFn, NativeClient, open};
use crate::client_callbacks::{JsNotificationFn, JsRequestFn};
use crate::error::{mcp_error, no_panic};

#[napi(object)]
pub struct HttpHeader {
    pub name: String,
    pub value: String,
}

/// Where the server is and what to send it besides the protocol's own headers.
#[napi(object)]
pub struct HttpClientConfig {
    pub url: String,
    /// Sent with every request.
    pub headers: Option<Vec<HttpHeader>>,
    /// Sent as `Authorization: Bearer <token>`.
    pub bearer_token: Option<String>,
    /// Trust only the CAs in this PEM file (else the platform's store, with
    /// `SSL_CERT_FILE` / `SSL_CERT_DIR`).
    pub ca_file: Option<String>,
    /// A client certificate chain (PEM file) to present, with `client_key`.
    pub client_cert: Option<String>,
    /// The private key (PEM file) of `client_cert`.
    pub client_key: Option<String>,
}

pub(crate) fn http_options(http: HttpClientConfig) -> napi::Result<HttpClientOptions> {
    let mut options = HttpClientOptions::new(http.url);
    options.tls.ca_file = http.ca_file.map(Into::into);
    options.tls.client_cert = match (http.client_cert, http.client_key) {
        (Some(cert), Some(key)) => Some((cert.into(), key.into())),
        (None, None) => None,
        _ => {
            let why = "tls.cert and tls.key go together (a certificate chain and its private key, PEM files)";
            return Err(mcp_error(ErrorCode::INVALID_PARAMS, why, None));
        }
    };
    for header in http.headers.unwrap_or_default() {
        options = options.header(header.name, header.value);
    }
    if let Some(token) = http.bearer_token {
        options = options.bearer_token(token);
    }
    Ok(options)
}

/// Connects to the MCP endpoint at `http.url` (era probe, then handshake).
#[napi]
pub async fn connect_http_client(
    http: HttpClientConfig,
    config: ClientConfig,
    #[napi(ts_arg_type = "((method: string, paramsJson: string, reply: NativeReply) => void) | undefined | null")]
    on_request: Option<JsRequestFn>,
    #[napi(ts_arg_type = "((method: string, paramsJson: string) => void) | undefined | null")] on_notification: Option<
        JsNotificationFn,
    >,
    #[napi(ts_arg_type = "((reason: string) => void) | undefined | null")] on_close: Option<JsCloseFn>,
    #[napi(ts_arg_type = "((list: string, outcomeJson: string) => void) | undefined | null")] on_list_changed: Option<
        JsListChangedFn,
    >,
) -> napi::Result<NativeClient> {
    let http = http_options(http)?;
    let hooks = Hooks { on_request, on_notification, on_close, on_list_changed };
    open(config, hooks, |options, callbacks| Client::connect_http(http, options, callbacks)).await
}

#[napi]
impl NativeClient {
    /// The legacy session's `Mcp-Session-Id` (none over stdio, on 2026-07-28, or closed).
    #[napi(getter)]
    pub fn session_id(&self) -> Option<String> {
        self.client().ok()?.http_session()?.id()
    }

    /// Ends the HTTP session with a DELETE (nothing to do without one).
    #[napi]
    pub async fn terminate_session(&self) -> napi::Result<()> {
        let Some(session) = self.client()?.http_session().cloned() else { return Ok(()) };
        no_panic(async move {
            session.terminate().await.map_err(|e| {
                mcp_error(ErrorCode::CONNECTION_CLOSED, &e.message, e.failure.as_ref().map(HttpFailure::data))
            })
        })
        .await
    }
}

//! The server's `subscriptions/listen` streams fed by the application: the official
//! TypeScript `createMcpHandler({ bus, maxSubscriptions })`. Core serves the streams
//! (acknowledgement, filters, tagging, the cap and the graceful end); JavaScript only
//! carries events from its bus back here. Kept apart from `server.rs` (the per-call path).

use napi_derive::napi;

use crate::error::{no_panic, parse};
use crate::server::NativeServer;

#[napi]
impl NativeServer {
    /// From now on this server's listen streams get list changes and resource updates only
    /// through [`NativeServer::notify_listeners`] (see core's `Server::carry_listen_events`).
    #[napi]
    pub fn carry_listen_events(&self) {
        self.core().carry_listen_events();
    }

    /// Delivers `method` (`notifications/tools/list_changed`, ...,
    /// `notifications/resources/updated`) with `params` (JSON text) to the listen streams
    /// that asked for it.
    #[napi]
    pub async fn notify_listeners(&self, method: String, params_json: Option<String>) -> napi::Result<()> {
        let params = match params_json {
            Some(text) => parse(&text, "event params")?,
            None => serde_json::Value::Null,
        };
        let server = self.core();
        no_panic(async move {
            server.notify_listeners(&method, params).await;
            Ok(())
        })
        .await
    }

    /// Ends every open listen stream gracefully.
    #[napi]
    pub fn close_listen_streams(&self) {
        self.core().close_listen_streams();
    }

    /// The cap on open listen streams for those opened from now on (`null`: no cap).
    #[napi]
    pub fn set_max_listen_streams(&self, cap: Option<u32>) {
        self.core().set_max_listen_streams(cap.map(|n| n as usize));
    }

    /// Serve 2026-07-28 clients only, or both eras (core's `Server::set_reject_legacy`:
    /// the official `legacy: 'reject'` of `createMcpHandler` and `serveStdio`).
    #[napi]
    pub fn set_reject_legacy(&self, reject: bool) {
        self.core().set_reject_legacy(reject);
    }
}

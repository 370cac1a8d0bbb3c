//! `NativeCancel`: an AbortSignal's way into core. The TypeScript layer makes one per
//! request that has a signal and calls `cancel()` when the signal aborts; core then sends
//! `notifications/cancelled` and fails the request with -32800.

use napi_derive::napi;
use tokio_util::sync::CancellationToken;

#[napi]
pub struct NativeCancel {
    token: CancellationToken,
}

#[napi]
impl NativeCancel {
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        Self { token: CancellationToken::new() }
    }

    #[napi]
    pub fn cancel(&self) {
        self.token.cancel();
    }

    pub fn token(&self) -> CancellationToken {
        self.token.clone()
    }
}

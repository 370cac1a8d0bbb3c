//! What answers the other side: the trait a server or client implements once.

use std::future::Future;
use std::pin::Pin;

use super::context::{NotificationContext, RequestContext};
use crate::wire::{ErrorObject, Notification, RawJson, Request};

pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// A request's outcome: the `result` value, or the `error` object.
pub type HandlerResult = Result<RawJson, ErrorObject>;

/// Answers incoming requests and notifications.
///
/// `notifications/cancelled` and `notifications/progress` are handled by the engine and
/// never reach the handler.
pub trait Handler: Send + Sync + 'static {
    fn handle_request(&self, request: Request, cx: RequestContext) -> BoxFuture<HandlerResult>;

    fn handle_notification(&self, notification: Notification, cx: NotificationContext) -> BoxFuture<()> {
        let _ = (notification, cx);
        Box::pin(std::future::ready(()))
    }
}

/// The notifications the engine consumes itself (cancellation and progress of requests in
/// flight): no handler receives them, so none may be registered for them.
pub const ENGINE_NOTIFICATIONS: [&str; 2] = ["notifications/cancelled", "notifications/progress"];

/// Answers every request with "method not found": for a side that serves nothing.
pub struct MethodNotFound;

impl Handler for MethodNotFound {
    fn handle_request(&self, request: Request, _: RequestContext) -> BoxFuture<HandlerResult> {
        Box::pin(std::future::ready(Err(ErrorObject::method_not_found(&request.method))))
    }
}

impl<F, Fut> Handler for F
where
    F: Fn(Request, RequestContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = HandlerResult> + Send + 'static,
{
    fn handle_request(&self, request: Request, cx: RequestContext) -> BoxFuture<HandlerResult> {
        Box::pin(self(request, cx))
    }
}

//! A Python `OAuthAuthorizationServerProvider` as core's [`AuthServerProvider`], and
//! `NativeAuthServer`, core's authorization server for the routes `create_auth_routes`
//! builds.
//!
//! The Python layer (`ferrymcp.server.auth._bridge`) wraps the provider in one async
//! `dispatch(operation, *args)` that converts the provider's pydantic objects to and from
//! JSON and turns `AuthorizeError`, `TokenError` and `RegistrationError` into `(kind,
//! {error, error_description}, None)`; a success is `("ok", json, object)`. The object (a
//! client, a code, a token as the provider returned it) is kept as core's `Handle` and
//! handed back unchanged. Every rule of the endpoints is core's (`auth_server.rs` there).

use std::sync::Arc;

use bytes::Bytes;
use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::http::auth_server::{
    AuthRequest, AuthServer, AuthServerOptions, AuthServerProvider, AuthorizationCode, AuthorizationParams, ClientInfo,
    ErrorKind, Handle, Held, IdentityAssertionParams, IssuedToken, ProviderError,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::bridge::{Deliver, awaitable, handle_for, running_loop};
use crate::call::{LoopCell, PyCallable};
use crate::convert::{from_py, to_py};

/// A Python object core keeps for the provider.
struct PyHandle(Py<PyAny>);

enum Arg {
    Json(Value),
    Object(Handle),
}

struct PyProvider(Arc<PyCallable>);

impl PyProvider {
    async fn call(
        callable: Arc<PyCallable>,
        operation: &'static str,
        args: Vec<Arg>,
    ) -> Result<(Value, Option<Handle>), ProviderError> {
        let outcome = callable
            .call_held(move |py: Python<'_>| {
                let mut items = vec![operation.into_pyobject(py)?.into_any()];
                for arg in args {
                    items.push(match arg {
                        Arg::Json(value) => to_py(py, &value)?,
                        Arg::Object(handle) => match handle.downcast_ref::<PyHandle>() {
                            Some(object) => object.0.clone_ref(py).into_bound(py),
                            None => py.None().into_bound(py),
                        },
                    });
                }
                PyTuple::new(py, items)
            })
            .await
            .map_err(|e| ProviderError::Failed(format!("{operation}: {e}")))?;
        let (kind, (json, object)) = outcome;
        let kind = match kind.as_str() {
            "ok" => return Ok((json, object.map(|o| Arc::new(PyHandle(o)) as Handle))),
            "authorize" => ErrorKind::Authorize,
            "token" => ErrorKind::Token,
            "registration" => ErrorKind::Registration,
            other => return Err(ProviderError::Failed(format!("{operation}: unknown outcome {other:?}"))),
        };
        let text = |key: &str| json.get(key).and_then(Value::as_str).map(str::to_owned);
        Err(ProviderError::OAuth {
            kind,
            error: text("error").unwrap_or_default(),
            description: text("error_description"),
        })
    }

    fn value(&self, operation: &'static str, args: Vec<Arg>) -> BoxFuture<Result<Value, ProviderError>> {
        let callable = self.0.clone();
        Box::pin(async move { Self::call(callable, operation, args).await.map(|(json, _)| json) })
    }

    fn held<T: DeserializeOwned + Send + 'static>(
        &self,
        operation: &'static str,
        args: Vec<Arg>,
    ) -> BoxFuture<Result<Option<Held<T>>, ProviderError>> {
        let callable = self.0.clone();
        Box::pin(async move {
            let (json, object) = Self::call(callable, operation, args).await?;
            let Some(handle) = object.filter(|_| !json.is_null()) else { return Ok(None) };
            let value = serde_json::from_value(json)
                .map_err(|e| ProviderError::Failed(format!("{operation} returned a malformed value: {e}")))?;
            Ok(Some(Held { value, handle }))
        })
    }
}

fn json<T: serde::Serialize>(value: &T) -> Arg {
    Arg::Json(serde_json::to_value(value).unwrap_or_default())
}

impl AuthServerProvider for PyProvider {
    fn get_client(&self, client_id: String) -> BoxFuture<Result<Option<Held<ClientInfo>>, ProviderError>> {
        self.held("get_client", vec![Arg::Json(Value::String(client_id))])
    }

    fn register_client(&self, client: Value) -> BoxFuture<Result<Value, ProviderError>> {
        self.value("register_client", vec![Arg::Json(client)])
    }

    fn authorize(&self, client: Handle, params: AuthorizationParams) -> BoxFuture<Result<String, ProviderError>> {
        let call = self.value("authorize", vec![Arg::Object(client), json(&params)]);
        Box::pin(async move {
            match call.await? {
                Value::String(url) => Ok(url),
                other => Err(ProviderError::Failed(format!("authorize returned {other}, not a URL"))),
            }
        })
    }

    fn load_authorization_code(
        &self,
        client: Handle,
        code: String,
    ) -> BoxFuture<Result<Option<Held<AuthorizationCode>>, ProviderError>> {
        self.held("load_authorization_code", vec![Arg::Object(client), Arg::Json(Value::String(code))])
    }

    fn exchange_authorization_code(&self, client: Handle, code: Handle) -> BoxFuture<Result<Value, ProviderError>> {
        self.value("exchange_authorization_code", vec![Arg::Object(client), Arg::Object(code)])
    }

    fn load_refresh_token(
        &self,
        client: Handle,
        token: String,
    ) -> BoxFuture<Result<Option<Held<IssuedToken>>, ProviderError>> {
        self.held("load_refresh_token", vec![Arg::Object(client), Arg::Json(Value::String(token))])
    }

    fn exchange_refresh_token(
        &self,
        client: Handle,
        token: Handle,
        scopes: Vec<String>,
    ) -> BoxFuture<Result<Value, ProviderError>> {
        self.value("exchange_refresh_token", vec![Arg::Object(client), Arg::Object(token), json(&scopes)])
    }

    fn load_access_token(&self, token: String) -> BoxFuture<Result<Option<Held<IssuedToken>>, ProviderError>> {
        self.held("load_access_token", vec![Arg::Json(Value::String(token))])
    }

    fn revoke_token(&self, token: Handle) -> BoxFuture<Result<(), ProviderError>> {
        let call = self.value("revoke_token", vec![Arg::Object(token)]);
        Box::pin(async move { call.await.map(drop) })
    }

    fn exchange_identity_assertion(
        &self,
        client: Handle,
        params: IdentityAssertionParams,
    ) -> BoxFuture<Result<Value, ProviderError>> {
        self.value("exchange_identity_assertion", vec![Arg::Object(client), json(&params)])
    }
}

fn strings(value: &Value, key: &str) -> Option<Vec<String>> {
    value.get(key)?.as_array().map(|items| items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect())
}

/// Core's authorization server from the dict the Python layer builds (`dispatch`,
/// `issuer_url`, `service_documentation_url`, `registration_enabled`,
/// `client_secret_expiry_seconds`, `valid_scopes`, `default_scopes`, `revocation_enabled`,
/// `identity_assertion_enabled`); the provider runs on `event_loop`.
pub fn auth_server(options: &Bound<'_, PyDict>, event_loop: &LoopCell) -> PyResult<Arc<AuthServer>> {
    let dispatch = options
        .get_item("dispatch")?
        .ok_or_else(|| PyValueError::new_err("the authorization server needs dispatch"))?;
    let settings = options.copy()?;
    settings.del_item("dispatch")?;
    let settings = from_py(settings.as_any())?;
    let text = |key: &str| settings.get(key).and_then(Value::as_str).map(str::to_owned);
    let flag = |key: &str| settings.get(key).and_then(Value::as_bool).unwrap_or(false);
    let parsed = AuthServerOptions {
        issuer_url: text("issuer_url").ok_or_else(|| PyValueError::new_err("issuer_url is required"))?,
        service_documentation_url: text("service_documentation_url"),
        registration_enabled: flag("registration_enabled"),
        client_secret_expiry_seconds: settings.get("client_secret_expiry_seconds").and_then(Value::as_i64),
        valid_scopes: strings(&settings, "valid_scopes"),
        default_scopes: strings(&settings, "default_scopes"),
        revocation_enabled: flag("revocation_enabled"),
        identity_assertion_enabled: flag("identity_assertion_enabled"),
    };
    let callable = PyCallable { function: dispatch.unbind(), is_async: true, event_loop: event_loop.clone() };
    let provider = Arc::new(PyProvider(Arc::new(callable)));
    AuthServer::new(parsed, provider).map(Arc::new).map_err(|e| PyValueError::new_err(e.0))
}

/// Core's authorization server for a framework's routes (`create_auth_routes`): the
/// provider runs on the loop that serves the request.
#[pyclass(module = "ferrymcp._native", frozen)]
pub struct NativeAuthServer {
    server: Arc<AuthServer>,
    event_loop: LoopCell,
}

#[pymethods]
impl NativeAuthServer {
    #[new]
    fn new(options: &Bound<'_, PyDict>) -> PyResult<Self> {
        let event_loop = LoopCell::default();
        Ok(Self { server: auth_server(options, &event_loop)?, event_loop })
    }

    /// `[(path, [method, ...])]`: the routes to mount.
    fn routes(&self) -> Vec<(String, Vec<String>)> {
        self.server
            .routes()
            .into_iter()
            .map(|(path, methods)| (path.to_owned(), methods.iter().map(|m| (*m).to_owned()).collect()))
            .collect()
    }

    /// Answers one request: `(status, [(name, value)], body)`.
    fn handle<'py>(
        &self,
        py: Python<'py>,
        method: &str,
        path: String,
        query: String,
        headers: &Bound<'py, PyList>,
        body: &[u8],
    ) -> PyResult<Bound<'py, PyAny>> {
        let running = running_loop(py)?;
        let handle = handle_for(&running)?;
        *self.event_loop.lock().unwrap() = Some((running.unbind(), handle));
        let method = http::Method::from_bytes(method.as_bytes()).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let mut map = http::HeaderMap::new();
        for pair in headers.iter() {
            let (name, value) = pair.extract::<(Bound<'_, PyBytes>, Bound<'_, PyBytes>)>()?;
            if let (Ok(name), Ok(value)) =
                (http::HeaderName::from_bytes(name.as_bytes()), http::HeaderValue::from_bytes(value.as_bytes()))
            {
                map.append(name, value);
            }
        }
        let (server, body) = (self.server.clone(), Bytes::copy_from_slice(body));
        awaitable(py, async move {
            let request = AuthRequest {
                method: &method,
                path: &path,
                query: (!query.is_empty()).then_some(query.as_str()),
                headers: &map,
                body,
            };
            let answer = server.handle(request).await;
            Box::new(move |py: Python<'_>| {
                let Some(answer) = answer else {
                    return Ok((404u16, PyList::empty(py), PyBytes::new(py, b"Not Found"))
                        .into_pyobject(py)?
                        .into_any()
                        .unbind());
                };
                let headers = PyList::empty(py);
                for (name, value) in &answer.headers {
                    headers.append((PyBytes::new(py, name.as_bytes()), PyBytes::new(py, value.as_bytes())))?;
                }
                Ok((answer.status, headers, PyBytes::new(py, &answer.body)).into_pyobject(py)?.into_any().unbind())
            }) as Deliver
        })
    }
}

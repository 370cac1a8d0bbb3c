//! The handshake: which era the server speaks, and what it offers.

use std::time::Duration;

use serde_json::{Value, json};

use super::{ClientError, ClientOptions, EraPreference, ServerDetails};
use crate::peer::{Peer, PeerError, RequestOptions};
use crate::protocol::{ProtocolVersion, meta};
use crate::wire::{ErrorCode, ErrorObject};

pub(crate) async fn handshake(peer: &Peer, options: &ClientOptions) -> Result<ServerDetails, ClientError> {
    match options.era {
        EraPreference::Legacy => initialize(peer, options).await,
        EraPreference::Pinned => Ok(pinned(options)),
        EraPreference::Modern => match discover(peer, options, None, ProtocolVersion::LATEST.as_str(), Retry::Allowed)
            .await
        {
            Probe::Modern(details) => Ok(details),
            Probe::Failed(e) => Err(e),
            Probe::Legacy(why) => Err(ClientError::Protocol(format!("the server does not speak 2026-07-28: {why}"))),
        },
        EraPreference::Auto => {
            match discover(peer, options, Some(options.probe_wait()), ProtocolVersion::LATEST.as_str(), Retry::Allowed)
                .await
            {
                Probe::Modern(details) => Ok(details),
                Probe::Failed(e) => Err(e),
                Probe::Legacy(why) => {
                    tracing::debug!("server/discover said {why}; falling back to initialize");
                    match initialize(peer, options).await {
                        // A probe that timed out here but reached a slow-starting modern
                        // server settled the connection as modern before `initialize`
                        // came: the server says so with the versions it speaks. Probe once
                        // more at one of ours (the official clients do the same).
                        Err(ClientError::Peer(PeerError::Rpc(e)))
                            if e.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION =>
                        {
                            let Some(version) = supported_by_both(&e) else {
                                return Err(ClientError::Peer(PeerError::Rpc(e)));
                            };
                            match discover(peer, options, None, version, Retry::Spent).await {
                                Probe::Modern(details) => Ok(details),
                                Probe::Failed(failed) => Err(failed),
                                Probe::Legacy(why) => Err(ClientError::Protocol(format!(
                                    "the server refused initialize for 2026-07-28 but then server/discover too: {why}"
                                ))),
                            }
                        }
                        other => other,
                    }
                }
            }
        }
    }
}

/// The details a `server/discover` result gives.
fn from_discover(version: &str, result: Value) -> ServerDetails {
    ServerDetails {
        protocol_version: version.to_owned(),
        modern: true,
        capabilities: result.get("capabilities").cloned().unwrap_or_else(|| json!({})),
        info: result["_meta"][meta::SERVER_INFO].clone(),
        instructions: result.get("instructions").and_then(Value::as_str).map(str::to_owned),
        discover: Some(result),
    }
}

/// A pin: the latest modern version, the server known only by a saved discover result.
fn pinned(options: &ClientOptions) -> ServerDetails {
    let version = ProtocolVersion::LATEST.as_str();
    match &options.prior_discover {
        Some(result) => from_discover(version, result.clone()),
        None => ServerDetails {
            protocol_version: version.to_owned(),
            modern: true,
            capabilities: json!({}),
            info: Value::Null,
            instructions: None,
            discover: None,
        },
    }
}

enum Probe {
    Modern(ServerDetails),
    Legacy(String),
    Failed(ClientError),
}

fn meta(options: &ClientOptions, version: &str) -> Value {
    json!({
        meta::PROTOCOL_VERSION: version,
        meta::CLIENT_CAPABILITIES: options.capabilities_at(version),
        meta::CLIENT_INFO: options.info,
    })
}

/// `server/discover`: a result, or a recognised modern error, means a modern server; any
/// other error or no answer in time means a legacy one (never keyed to one code). An
/// unsupported-version error that lists a version we speak is retried once with it.
/// Whether a refused `server/discover` may be sent once more with a version the server
/// said it supports.
#[derive(Clone, Copy)]
enum Retry {
    Allowed,
    Spent,
}

/// Our first modern version among those an `UnsupportedProtocolVersionError` lists.
fn supported_by_both(error: &ErrorObject) -> Option<&'static str> {
    let data: Value = error.data.as_ref()?.parse_owned().ok()?;
    let supported = data.get("supported")?.as_array()?;
    ProtocolVersion::MODERN
        .map(ProtocolVersion::as_str)
        .into_iter()
        .find(|ours| supported.iter().any(|theirs| theirs == ours))
}

async fn discover(
    peer: &Peer,
    options: &ClientOptions,
    timeout: Option<Duration>,
    version: &'static str,
    retry: Retry,
) -> Probe {
    let params = json!({"_meta": meta(options, version)});
    let request = RequestOptions { timeout, ..RequestOptions::default() };
    match peer.request("server/discover", Some(&params), request).await {
        Ok(raw) => {
            let Ok(result) = raw.parse_owned::<Value>() else {
                return Probe::Failed(ClientError::Protocol("server/discover result is not JSON".into()));
            };
            let supported = result.get("supportedVersions").and_then(Value::as_array);
            if !supported.is_some_and(|v| v.iter().any(|v| v == version)) {
                return Probe::Failed(ClientError::Protocol(format!(
                    "the server supports none of our modern versions ({})",
                    result.get("supportedVersions").unwrap_or(&Value::Null)
                )));
            }
            Probe::Modern(from_discover(version, result))
        }
        Err(PeerError::Rpc(e)) if e.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => {
            match (supported_by_both(&e), retry) {
                (Some(version), Retry::Allowed) => {
                    Box::pin(discover(peer, options, timeout, version, Retry::Spent)).await
                }
                _ => Probe::Failed(ClientError::Protocol(format!(
                    "the server supports none of our modern versions: {}",
                    e.data.map(|d| d.to_string()).unwrap_or_default()
                ))),
            }
        }
        Err(PeerError::Rpc(e))
            if matches!(e.code, ErrorCode::HEADER_MISMATCH | ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY) =>
        {
            Probe::Failed(ClientError::Protocol(format!("server/discover was refused: {e}")))
        }
        // Authorization failed (the transport's OAuth marks it): `initialize` would only
        // run the flow a second time, sending the user to the authorization server twice.
        Err(PeerError::Rpc(e)) if crate::client::auth::is_auth_failure(&e) => {
            Probe::Failed(ClientError::Peer(PeerError::Rpc(e)))
        }
        Err(PeerError::Rpc(e)) => Probe::Legacy(e.to_string()),
        Err(PeerError::Timeout(after)) => Probe::Legacy(format!("no answer in {after:?}")),
        Err(e) => Probe::Failed(ClientError::Peer(e)),
    }
}

async fn initialize(peer: &Peer, options: &ClientOptions) -> Result<ServerDetails, ClientError> {
    let params = json!({
        "protocolVersion": options.legacy_version,
        "capabilities": options.capabilities_at(&options.legacy_version),
        "clientInfo": options.info,
    });
    let raw = peer.request("initialize", Some(&params), RequestOptions::default()).await?;
    let result: Value = raw.parse_owned().map_err(|e| ClientError::Protocol(format!("initialize result: {e}")))?;
    let version = result.get("protocolVersion").and_then(Value::as_str).unwrap_or_default().to_owned();
    let Some(revision) = ProtocolVersion::parse(&version).filter(|v| v.is_legacy()) else {
        return Err(ClientError::Protocol(format!(
            "the server answered initialize with unsupported version {version:?}"
        )));
    };
    peer.set_batches_allowed(revision.allows_batches());
    // `options.log_level` is not sent here: like the official clients, a legacy session
    // gets log messages governed by an explicit `logging/setLevel` only
    // (`Client::set_logging_level`); the level is the 2026-07-28 per-request opt-in.
    peer.notify("notifications/initialized", None::<&()>).await?;
    Ok(ServerDetails {
        protocol_version: version,
        modern: false,
        capabilities: result.get("capabilities").cloned().unwrap_or_else(|| json!({})),
        info: result.get("serverInfo").cloned().unwrap_or(Value::Null),
        instructions: result.get("instructions").and_then(Value::as_str).map(str::to_owned),
        discover: None,
    })
}

//! `ferrymcp bridge` and `ferrymcp gateway`: this crate only names the upstreams and the
//! front's endpoint; the forwarding is ferrymcp-core's ([`ferrymcp_core::proxy`]).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::client::ClientError;
use ferrymcp_core::proxy::gateway::{Gateway, GatewayOptions, UpstreamEvent, UpstreamSpec};
use ferrymcp_core::proxy::{Connector, Relay};
use ferrymcp_core::server::ServerOptions;

use crate::config::{self, ConfigFile};
use crate::exit::{Failure, Kind, Outcome};
use crate::front::HttpFrontArgs;
use crate::oauth::OAuthArgs;
use crate::server::{self, ServerSpec, Target};
use crate::signals::Stop;

/// Serves `spec`'s server on HTTP (or, `stdio`, on this process's stdio) until the
/// upstream goes away (exit 3), on stdio the client does (exit 0), or a stop signal
/// comes ([`crate::signals`]: exit 130 after SIGINT, 0 after SIGTERM).
///
/// With OAuth ([`OAuthArgs`], an HTTP upstream only) the connection authorizes first; an
/// authorization that fails is exit 5.
pub async fn bridge(
    spec: &ServerSpec,
    config: Option<&ConfigFile>,
    front: &HttpFrontArgs,
    oauth: &OAuthArgs,
    stdio: bool,
) -> Outcome<u8> {
    if stdio && front.port.is_some() {
        return Err(Failure::usage("--stdio and --port exclude each other"));
    }
    let mut stop = Stop::install();
    let mut target = server::resolve(spec, config)?;
    let url = match &target {
        Target::Http(http) => Some(http.url.clone()),
        Target::Process { .. } => None,
    };
    if let (Some(oauth), Target::Http(http)) = (oauth.build(url.as_deref()).await?, &mut target) {
        http.oauth = Some(oauth);
    }
    let shown = target.describe();
    let relay = Relay::new();
    let connecting = server::connect_with(target, relay.callbacks());
    let client = tokio::select! {
        client = connecting => client.map_err(|e| connect_failure(&shown, &e))?,
        code = stop.requested() => return Ok(code),
    };
    let server = ferrymcp_core::proxy::bridge(&client, &relay, ServerOptions::default())
        .map_err(|e| Failure::new(Kind::Protocol, anyhow::anyhow!("{shown}: {e}")))?;
    let upstream = client.clone();
    let lost = async move {
        upstream.peer().closed().await;
        Err(Failure::new(Kind::Connect, anyhow::anyhow!("the upstream server {shown} closed the connection")))
    };
    let outcome = if stdio {
        let served = async {
            server.serve_stdio().await.map_err(|e| Failure::new(Kind::Connect, e))?;
            Ok(0)
        };
        tokio::select! {
            outcome = served => outcome,
            outcome = lost => outcome,
            code = stop.requested() => Ok(code),
        }
    } else {
        let http = front.serve(server).await?;
        let outcome = tokio::select! {
            outcome = lost => outcome,
            code = stop.requested() => Ok(code),
        };
        http.shutdown().await;
        outcome
    };
    client.close().await;
    outcome
}

/// A failed connection: exit 5 when the authorization failed (core answers the request
/// that needed it with an error whose data names `oauth`), else exit 3.
fn connect_failure(shown: &str, error: &ClientError) -> Failure {
    let data = error.rpc().and_then(|e| e.data.as_ref()).map(|d| d.get().to_owned()).unwrap_or_default();
    if data.contains("\"oauth\"") {
        let message = error.rpc().map(|e| e.message.clone()).unwrap_or_else(|| error.to_string());
        return Failure::new(Kind::Auth, anyhow::anyhow!("cannot authorize with {shown}: {message}"));
    }
    Failure::new(Kind::Connect, anyhow::anyhow!("cannot connect to {shown}: {error}"))
}

/// Serves every server of `file` behind one endpoint until a stop signal ([`crate::signals`]):
/// then the front stops, every upstream is closed (its process ended), and the exit code
/// is 130 after SIGINT, 0 after SIGTERM.
pub async fn gateway(file: &Path, front: &HttpFrontArgs, connect_timeout: Duration) -> Outcome<u8> {
    let mut stop = Stop::install();
    let Some(config) = config::load(Some(file))? else { unreachable!("an explicit file is read or refused") };
    if config.servers.is_empty() {
        return Err(Failure::usage(format!("{} names no servers", file.display())));
    }
    let mut specs = Vec::new();
    for (name, entry) in &config.servers {
        if name.contains(ferrymcp_core::proxy::gateway::SEPARATOR) {
            return Err(Failure::usage(format!("server name {name:?} contains the separator \"__\"")));
        }
        let target = server::from_entry(name, entry)?;
        let connect: Connector = Arc::new(move |callbacks| Box::pin(server::connect_with(target.clone(), callbacks)));
        specs.push(UpstreamSpec { name: name.clone(), connect });
    }
    let options = GatewayOptions { connect_timeout, ..GatewayOptions::default() };
    let gateway = Gateway::start(specs, options, Arc::new(report)).await.map_err(Failure::usage)?;
    let http = match front.serve(gateway.server.clone()).await {
        Ok(http) => http,
        Err(failure) => {
            gateway.shutdown().await;
            return Err(failure);
        }
    };
    let code = stop.requested().await;
    http.shutdown().await;
    gateway.shutdown().await;
    Ok(code)
}

fn report(name: &str, event: UpstreamEvent) {
    match event {
        UpstreamEvent::Connected { pid: Some(pid) } => eprintln!("ferrymcp gateway: {name}: connected (pid {pid})"),
        UpstreamEvent::Connected { pid: None } => eprintln!("ferrymcp gateway: {name}: connected"),
        UpstreamEvent::Failed { error, retry_in } => {
            eprintln!("ferrymcp gateway: {name}: {error} (left out; retrying in {retry_in:?})")
        }
        UpstreamEvent::Lost { retry_in } => {
            eprintln!("ferrymcp gateway: {name}: connection lost (reconnecting in {retry_in:?})")
        }
    }
}

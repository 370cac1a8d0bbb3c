//! `ferrymcp bridge` and `ferrymcp gateway`: this crate only names the upstreams and the
//! front's endpoint; the forwarding is ferrymcp-core's ([`ferrymcp_core::proxy`]).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::proxy::gateway::{Gateway, GatewayOptions, UpstreamEvent, UpstreamSpec};
use ferrymcp_core::proxy::{Connector, Relay};
use ferrymcp_core::server::ServerOptions;

use crate::config::{self, ConfigFile};
use crate::exit::{Failure, Kind, Outcome};
use crate::front::HttpFrontArgs;
use crate::server::{self, ServerSpec};

/// Serves `spec`'s server on HTTP (or, `stdio`, on this process's stdio) until the
/// upstream goes away (exit 3) or, on stdio, the client does (exit 0).
pub async fn bridge(spec: &ServerSpec, config: Option<&ConfigFile>, front: &HttpFrontArgs, stdio: bool) -> Outcome<u8> {
    if stdio && front.port.is_some() {
        return Err(Failure::usage("--stdio and --port exclude each other"));
    }
    let target = server::resolve(spec, config)?;
    let shown = target.describe();
    let relay = Relay::new();
    let client = server::connect_with(target, relay.callbacks())
        .await
        .map_err(|e| Failure::new(Kind::Connect, anyhow::anyhow!("cannot connect to {shown}: {e}")))?;
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
        tokio::select! { outcome = served => outcome, outcome = lost => outcome }
    } else {
        let http = front.serve(server).await?;
        tokio::select! { () = http.wait() => Ok(0), outcome = lost => outcome }
    };
    client.close().await;
    outcome
}

/// Serves every server of `file` behind one endpoint until killed.
pub async fn gateway(file: &Path, front: &HttpFrontArgs, connect_timeout: Duration) -> Outcome<u8> {
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
    let gateway = Gateway::start(specs, options, Arc::new(report)).await;
    front.serve(gateway.server).await?.wait().await;
    Ok(0)
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

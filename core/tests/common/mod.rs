//! What several of core's test files share: a client connected in memory to a server.

use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference};
use ferrymcp_core::server::Server;
use ferrymcp_core::transport::memory;

/// A client of `server` over the in-memory transport, speaking `era`, with no callbacks.
pub async fn connect(server: &Server, era: EraPreference) -> Client {
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    let serving = server.clone();
    tokio::spawn(async move { serving.serve(server_source, server_sink).await });
    let options = ClientOptions { era, ..ClientOptions::default() };
    Client::connect(client_source, client_sink, options, ClientCallbacks::default()).await.unwrap()
}

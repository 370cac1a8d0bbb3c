//! A server driven over Streamable HTTP on 127.0.0.1: spawned fresh on a free port, then
//! timed phases over keep-alive connections (hyper's HTTP/1.1 client, `TCP_NODELAY`), one
//! connection per concurrent caller, each sending its next request when the last is answered.
//!
//! Two modes: `legacy` opens a session with `initialize` and sends every call with its
//! `Mcp-Session-Id`; `modern` sends stateless 2026-07-28 requests (`_meta`, and the
//! `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers) with no handshake. Answers
//! may come as JSON or as an SSE stream; each HTTP exchange is one call, so a reply is
//! matched to its request by the exchange and only needs to be a result.

use std::net::{SocketAddr, TcpListener};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::process::{Child, Command};

use super::Result;
use super::latency::Phase;
use super::messages::{self, Era, Reply};
use super::procfs;
use super::report::Run;

/// Where the server listens and how requests are written for it.
struct Target {
    addr: SocketAddr,
    path: String,
    era: Era,
    session: Option<String>,
}

/// How long a server may take to listen and answer its first request.
const STARTUP_LIMIT: Duration = Duration::from_secs(60);

/// Runs the HTTP phases against `command` (whose `{port}` arguments are replaced by a free
/// port, also given as `PORT`).
pub async fn run(
    command: &[String],
    path: &str,
    era: Era,
    window: usize,
    duration: Duration,
    server_stderr: Stdio,
) -> Result<Run> {
    let port = free_port()?;
    let args: Vec<String> = command.iter().map(|a| a.replace("{port}", &port.to_string())).collect();
    let (program, rest) = args.split_first().ok_or("no server command")?;
    let started = Instant::now();
    let mut child = Command::new(program)
        .args(rest)
        .env("PORT", port.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(server_stderr)
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let pid = child.id().ok_or("the server exited at once")?;
    let target = Target { addr: SocketAddr::from(([127, 0, 0, 1], port)), path: path.to_owned(), era, session: None };
    let result = measure(target, started, pid, &mut child, window, duration).await;
    stop(&mut child, pid).await;
    let mut run = result?;
    run.transport = match era {
        Era::Legacy => "http-legacy".into(),
        Era::Modern => "http-modern".into(),
    };
    run.command = args;
    Ok(run)
}

async fn measure(
    mut target: Target,
    started: Instant,
    pid: u32,
    child: &mut Child,
    window: usize,
    duration: Duration,
) -> Result<Run> {
    let mut sender = wait_for_listener(&target, child).await?;
    if target.era == Era::Legacy {
        let (status, session, body) = post(&mut sender, &target, messages::initialize(1), "initialize", None).await?;
        expect_result(status, &body)?;
        target.session = Some(session.ok_or("initialize answered without an Mcp-Session-Id")?);
        let (status, _, _) =
            post(&mut sender, &target, messages::initialized().to_owned(), "notifications/initialized", None).await?;
        if !status.is_success() {
            return Err(format!("notifications/initialized answered {status}").into());
        }
    } else {
        call(&mut sender, &target, 1).await?;
    }
    let startup = started.elapsed();
    let (status, _, body) =
        post(&mut sender, &target, messages::echo(2, "\"hello world\"", target.era), "tools/call", Some("echo"))
            .await?;
    messages::check_echo(expect_result(status, &body)?, "hello world")?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let idle = procfs::sample(pid)?;
    let target = Arc::new(target);
    concurrent(&target, pid, window, duration / 4).await?;
    let sequential = concurrent(&target, pid, 1, duration).await?;
    let in_flight = concurrent(&target, pid, window, duration).await?;
    Ok(Run {
        tool: "echo".into(),
        startup_ms: startup.as_secs_f64() * 1e3,
        rss_idle_kib: idle.rss_kib,
        rss_peak_kib: procfs::sample(pid)?.hwm_kib,
        sequential: Some(sequential),
        in_flight: Some(in_flight),
        ..Run::default()
    })
}

/// `callers` connections, each calling echo back to back for `duration`.
async fn concurrent(target: &Arc<Target>, pid: u32, callers: usize, duration: Duration) -> Result<Phase> {
    let mut senders = Vec::with_capacity(callers);
    for _ in 0..callers {
        senders.push(connect(target.addr).await?);
    }
    let before = procfs::sample(pid)?;
    let start = Instant::now();
    let tasks: Vec<_> = senders
        .into_iter()
        .enumerate()
        .map(|(caller, mut sender)| {
            let target = target.clone();
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut id = (caller as u64 + 1) << 32;
                while start.elapsed() < duration {
                    id += 1;
                    let sent = Instant::now();
                    call(&mut sender, &target, id).await?;
                    latencies.push(sent.elapsed());
                }
                Ok::<_, super::Error>(latencies)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await??);
    }
    let elapsed = start.elapsed();
    Ok(Phase::new(latencies, elapsed, before, procfs::sample(pid)?))
}

async fn call(sender: &mut SendRequest<Full<Bytes>>, target: &Target, id: u64) -> Result<()> {
    let (status, _, body) =
        post(sender, target, messages::echo(id, "\"hello world\"", target.era), "tools/call", Some("echo")).await?;
    expect_result(status, &body).map(drop)
}

async fn wait_for_listener(target: &Target, child: &mut Child) -> Result<SendRequest<Full<Bytes>>> {
    let deadline = Instant::now() + STARTUP_LIMIT;
    loop {
        if let Ok(sender) = connect(target.addr).await {
            return Ok(sender);
        }
        if let Some(status) = child.try_wait()? {
            return Err(format!("the server exited before listening ({status})").into());
        }
        if Instant::now() > deadline {
            return Err("the server did not listen within 60 s".into());
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

async fn connect(addr: SocketAddr) -> Result<SendRequest<Full<Bytes>>> {
    let stream = TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    Ok(sender)
}

/// One POST; returns the status, the `Mcp-Session-Id` header and the whole body.
async fn post(
    sender: &mut SendRequest<Full<Bytes>>,
    target: &Target,
    body: String,
    method: &str,
    name: Option<&str>,
) -> Result<(StatusCode, Option<String>, Bytes)> {
    let mut request = Request::post(target.path.as_str())
        .header("host", target.addr.to_string())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    request = match target.era {
        Era::Legacy => match &target.session {
            Some(session) => {
                request.header("mcp-session-id", session).header("mcp-protocol-version", messages::LEGACY_VERSION)
            }
            None => request,
        },
        Era::Modern => {
            let request = request.header("mcp-protocol-version", messages::MODERN_VERSION).header("mcp-method", method);
            match name {
                Some(name) => request.header("mcp-name", name),
                None => request,
            }
        }
    };
    sender.ready().await?;
    let response = sender.send_request(request.body(Full::new(Bytes::from(body)))?).await?;
    let status = response.status();
    let session = response.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let body = response.into_body().collect().await?.to_bytes();
    Ok((status, session, body))
}

/// The result of a 200 answer, whether sent as JSON or as the SSE event carrying it.
fn expect_result(status: StatusCode, body: &Bytes) -> Result<&serde_json::value::RawValue> {
    if status != StatusCode::OK {
        return Err(format!("HTTP {status}: {}", String::from_utf8_lossy(&body[..body.len().min(300)])).into());
    }
    let trimmed = body.trim_ascii_start();
    if trimmed.starts_with(b"{") {
        return Reply::parse(trimmed)?.and_then(|r| r.result).ok_or_else(|| "a 200 answer without a result".into());
    }
    for line in body.split(|&b| b == b'\n') {
        if let Some(data) = line.strip_prefix(b"data:") {
            let data = data.trim_ascii();
            if data.starts_with(b"{")
                && let Some(result) = Reply::parse(data)?.and_then(|r| r.result)
            {
                return Ok(result);
            }
        }
    }
    Err(format!("no result in the answer: {}", String::from_utf8_lossy(&body[..body.len().min(300)])).into())
}

fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// SIGTERM, then SIGKILL if the server is still there after 3 s.
async fn stop(child: &mut Child, pid: u32) {
    // SAFETY: signals our own child, which has not been reaped yet.
    unsafe { libc::kill(pid as i32, libc::SIGTERM) };
    if tokio::time::timeout(Duration::from_secs(3), child.wait()).await.is_err() {
        let _ = child.kill().await;
    }
}

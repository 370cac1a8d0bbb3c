//! A server process listening on a free local port, stopped when dropped.

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

pub struct Server {
    child: Child,
    pub port: u16,
    /// Where the process's stderr goes (a file, removed with the server), for failures.
    stderr: PathBuf,
}

impl Server {
    /// Starts `command` (told its port by `configure`) and waits until the port accepts
    /// connections. Panics if the process exits first.
    pub async fn start(command: Command, configure: impl FnOnce(&mut Command, u16)) -> Server {
        Self::start_at(command, free_port(), configure).await
    }

    /// [`Server::start`] on a given port (a server restarted where its clients expect it).
    pub async fn start_at(mut command: Command, port: u16, configure: impl FnOnce(&mut Command, u16)) -> Server {
        configure(&mut command, port);
        let stderr = std::env::temp_dir().join(format!("ferrymcp-server-{}-{port}.stderr", std::process::id()));
        let log = std::fs::File::create(&stderr).expect("create the server's stderr file");
        let child = command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(log).spawn().expect("start the server");
        let mut server = Server { child, port, stderr };
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        loop {
            // A connection to itself is not the server: with nothing listening yet, the
            // kernel can pick the port being probed as the probe's own source port (when it
            // lies in the ephemeral range) and TCP's simultaneous open connects the socket
            // to itself. Taken for readiness, it sent tests on to "connection refused".
            let ready = match tokio::net::TcpStream::connect(addr).await {
                Ok(probe) => probe.local_addr().ok() != probe.peer_addr().ok(),
                Err(_) => false,
            };
            if server.child.try_wait().unwrap().is_some() {
                panic!("the server exited before or as it started listening: {}", server.describe());
            }
            if ready {
                return server;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// The process's state and the end of its stderr, for a failure message: whether it
    /// is still running, whether its port accepts a connection now, and what it printed.
    pub fn describe(&mut self) -> String {
        let state = match self.child.try_wait() {
            Ok(None) => "running".to_owned(),
            Ok(Some(status)) => format!("exited ({status})"),
            Err(e) => format!("unknown ({e})"),
        };
        let accepts = std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok();
        format!(
            "the server on port {} is {state}, its port {} connections now; {}",
            self.port,
            if accepts { "accepts" } else { "refuses" },
            self.stderr_tail()
        )
    }

    /// The end of what the process printed on stderr.
    pub fn stderr_tail(&self) -> String {
        let printed = std::fs::read(&self.stderr).unwrap_or_default();
        let tail = &printed[printed.len().saturating_sub(2048)..];
        format!("its stderr ends: {:?}", String::from_utf8_lossy(tail))
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Kills the process at once (SIGKILL), as a crash would.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_file(&self.stderr);
    }
}

/// A port nothing listens on now, for a child process to bind.
///
/// Not a port the kernel picks (`bind(0)`): those come from the ephemeral range, which
/// every outgoing connection of the parallel tests draws from too, and a port released here
/// can be handed out again before the child binds it, so two servers (or a server and a
/// client socket) could meet on one port and a probe reach the wrong one. Ports are drawn
/// instead below the ephemeral range (Linux: 32768-60999; macOS and Windows start at 49152),
/// never twice in one test process, and checked free.
pub fn free_port() -> u16 {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static GIVEN: Mutex<Option<HashSet<u16>>> = Mutex::new(None);
    const FIRST: u32 = 20_000;
    const COUNT: u32 = 12_000;
    let mut given = GIVEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let given = given.get_or_insert_with(HashSet::new);
    // A start that differs per process (test binaries run one after another, and a server
    // of the last one may still be closing its port), then a walk through the range.
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let start = (nanos ^ std::process::id().wrapping_mul(2_654_435_761)) % COUNT;
    for step in 0..COUNT {
        let port = (FIRST + (start + step.wrapping_mul(7_919)) % COUNT) as u16;
        if !given.contains(&port) && TcpListener::bind(("127.0.0.1", port)).is_ok() {
            given.insert(port);
            return port;
        }
    }
    panic!("no free port in {FIRST}..{}", FIRST + COUNT)
}

/// A program of the system's (a Debian package `scripts/test.sh` installs), searched on
/// `PATH` and in the `sbin` directories; `None` (the test is skipped) outside CI when it is
/// missing.
pub fn program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::env::split_paths(&path).chain(["/usr/sbin", "/usr/local/sbin", "/sbin"].map(PathBuf::from));
    let found = dirs.map(|dir| dir.join(name)).find(|candidate| candidate.is_file());
    if found.is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI must install {name}: run scripts/test.sh");
        eprintln!("skipped: {name} is not installed (scripts/test.sh installs it)");
    }
    found
}

/// A file installed by `scripts/test.sh`; `None` (the test is skipped) outside CI when it
/// is missing.
pub fn installed(relative: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(std::env::var_os("CI").is_none(), "CI must install {path:?}: run scripts/test.sh");
    eprintln!("skipped: {path:?} is not installed (scripts/test.sh installs it)");
    None
}

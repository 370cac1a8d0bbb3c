//! A server process listening on a free local port, stopped when dropped.

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

pub struct Server {
    child: Child,
    pub port: u16,
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
        let child =
            command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("start the server");
        let mut server = Server { child, port };
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        while tokio::net::TcpStream::connect(addr).await.is_err() {
            if let Some(status) = server.child.try_wait().unwrap() {
                panic!("the server exited before listening: {status}");
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        server
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
    }
}

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
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

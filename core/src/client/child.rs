//! A server started as a child process, spoken to over its stdin and stdout.
//!
//! The child gets the environment the official SDKs give it: a short list of this
//! process's variables (the search path, the user, the home directory; on Windows the
//! system directories too, [`DEFAULT_INHERITED_ENV_VARS`]) plus what the caller sets, so
//! a server started from a host does not see the host's secrets by default.
//! [`EnvInheritance::All`] passes everything, for callers who mean it.
//!
//! stderr is inherited, discarded, or read line by line into a callback, always drained so
//! the child never blocks on it. When the child exits, its stdout ends and every pending
//! request fails at once with the exit status in the message. Shutting down follows the
//! MCP specification: close stdin, wait, SIGTERM, wait, SIGKILL.
//!
//! Portability: the kill is tokio's `Child::start_kill` (SIGKILL on Unix,
//! `TerminateProcess` on Windows), asked of the task that owns the child, so it never
//! reaches a reaped pid (SIGTERM goes by pid, only while no exit status has been
//! published). SIGTERM has no Windows counterpart for a console child
//! without a window (`GenerateConsoleCtrlEvent` reaches a whole process group, ours too),
//! so on Windows the sequence is close stdin, wait, terminate. The Unix path runs in the
//! tests here; the Windows path is type-checked and linted with `cargo clippy --target
//! x86_64-pc-windows-msvc` (scripts/check-targets.sh) and reviewed, not run.

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{ChildStdin, ChildStdout, Command};
use tokio::sync::{mpsc, watch};

use crate::framing::{DEFAULT_MAX_FRAME, FrameSource, NdjsonSink, NdjsonSource, SourceEvent};

/// What happens to the child's stderr.
#[derive(Clone, Default)]
pub enum StderrMode {
    /// Shares this process's stderr (what the official SDKs do).
    #[default]
    Inherit,
    Discard,
    /// Each line, as it comes.
    Lines(Arc<dyn Fn(&str) + Send + Sync>),
}

/// The variables a child inherits from this process by default, as the official SDKs
/// choose them (`DEFAULT_INHERITED_ENV_VARS` in both).
#[cfg(windows)]
pub const DEFAULT_INHERITED_ENV_VARS: &[&str] = &[
    "APPDATA",
    "HOMEDRIVE",
    "HOMEPATH",
    "LOCALAPPDATA",
    "PATH",
    "PATHEXT",
    "PROCESSOR_ARCHITECTURE",
    "SYSTEMDRIVE",
    "SYSTEMROOT",
    "TEMP",
    "USERNAME",
    "USERPROFILE",
];
/// The variables a child inherits from this process by default, as the official SDKs
/// choose them (`DEFAULT_INHERITED_ENV_VARS` in both).
#[cfg(not(windows))]
pub const DEFAULT_INHERITED_ENV_VARS: &[&str] = &["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/// The default environment of a child: each of [`DEFAULT_INHERITED_ENV_VARS`] this process
/// has, except values that are exported shell functions (they start with `()`, and are a
/// known way to smuggle code into a child's shell).
pub fn default_environment() -> Vec<(String, String)> {
    DEFAULT_INHERITED_ENV_VARS
        .iter()
        .filter_map(|key| std::env::var(key).ok().map(|value| ((*key).to_owned(), value)))
        .filter(|(_, value)| !value.starts_with("()"))
        .collect()
}

/// Which of this process's environment variables the child inherits, before
/// [`ChildCommand::env`] is applied on top.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EnvInheritance {
    /// [`default_environment`] (the official SDKs' behaviour).
    #[default]
    Default,
    /// Every variable of this process.
    All,
}

/// How to start the server.
#[derive(Clone)]
pub struct ChildCommand {
    pub program: OsString,
    pub args: Vec<OsString>,
    /// Set on top of the inherited variables.
    pub env: Vec<(OsString, OsString)>,
    pub inherit_env: EnvInheritance,
    pub cwd: Option<PathBuf>,
    pub stderr: StderrMode,
    pub max_frame: usize,
}

impl ChildCommand {
    pub fn new(program: impl Into<OsString>) -> Self {
        Self {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            inherit_env: EnvInheritance::Default,
            cwd: None,
            stderr: StderrMode::Inherit,
            max_frame: DEFAULT_MAX_FRAME,
        }
    }

    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.args.push(arg.into());
        self
    }

    pub fn args<I: IntoIterator<Item = A>, A: Into<OsString>>(mut self, args: I) -> Self {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    pub fn inherit_env(mut self, inheritance: EnvInheritance) -> Self {
        self.inherit_env = inheritance;
        self
    }

    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cwd = Some(dir.into());
        self
    }

    pub fn stderr(mut self, mode: StderrMode) -> Self {
        self.stderr = mode;
        self
    }
}

/// How long each step of a shutdown may take.
#[derive(Clone, Copy, Debug)]
pub struct ShutdownTimeouts {
    /// After stdin is closed, before SIGTERM.
    pub after_close: Duration,
    /// After SIGTERM, before SIGKILL (Unix only: Windows has no SIGTERM step).
    pub after_term: Duration,
}

impl Default for ShutdownTimeouts {
    fn default() -> Self {
        Self { after_close: Duration::from_secs(2), after_term: Duration::from_secs(2) }
    }
}

/// A started server: its frames in ([`ChildSource`]) and out, and the process itself.
pub struct ChildTransport {
    pub source: ChildSource,
    pub sink: NdjsonSink<ChildStdin>,
    pub process: ChildProcess,
}

/// Starts `command` with piped stdin and stdout. Must be called inside a tokio runtime.
pub fn spawn(command: ChildCommand) -> io::Result<ChildTransport> {
    let mut cmd = Command::new(&command.program);
    if command.inherit_env == EnvInheritance::Default {
        cmd.env_clear().envs(default_environment());
    }
    cmd.args(&command.args)
        .envs(command.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true);
    if let Some(dir) = &command.cwd {
        cmd.current_dir(dir);
    }
    cmd.stderr(match command.stderr {
        StderrMode::Inherit => Stdio::inherit(),
        StderrMode::Discard => Stdio::null(),
        StderrMode::Lines(_) => Stdio::piped(),
    });
    let mut child =
        cmd.spawn().map_err(|e| io::Error::new(e.kind(), format!("could not start {:?}: {e}", command.program)))?;
    let stdin = child.stdin.take().expect("stdin is piped");
    let stdout = child.stdout.take().expect("stdout is piped");
    if let (StderrMode::Lines(callback), Some(stderr)) = (&command.stderr, child.stderr.take()) {
        let callback = callback.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).split(b'\n');
            while let Ok(Some(line)) = lines.next_segment().await {
                callback(String::from_utf8_lossy(&line).trim_end_matches('\r'));
            }
        });
    }
    let pid = child.id().expect("a child that was just spawned has a pid");
    let (status_tx, status) = watch::channel(None);
    let (kill, kill_requests) = mpsc::unbounded_channel();
    tokio::spawn(reap(child, status_tx, kill_requests));
    let process = ChildProcess { pid, status, kill };
    Ok(ChildTransport {
        source: ChildSource {
            frames: NdjsonSource::with_max_frame(stdout, command.max_frame),
            process: process.clone(),
        },
        sink: NdjsonSink::new(stdin),
        process,
    })
}

type Exit = Option<Result<ExitStatus, String>>;

/// Owns the child until it exits: publishes its exit status and kills it on request.
async fn reap(
    mut child: tokio::process::Child,
    status: watch::Sender<Exit>,
    mut kill_requests: mpsc::UnboundedReceiver<()>,
) {
    let exit = loop {
        tokio::select! {
            exit = child.wait() => break exit.map_err(|e| e.to_string()),
            Some(()) = kill_requests.recv() => {
                // An error means the child is already gone; `wait` reports how.
                let _ = child.start_kill();
            }
        }
    };
    status.send_replace(Some(exit));
}

/// The running child: its pid, its exit, and the shutdown sequence.
#[derive(Clone)]
pub struct ChildProcess {
    pid: u32,
    status: watch::Receiver<Exit>,
    kill: mpsc::UnboundedSender<()>,
}

impl ChildProcess {
    pub fn id(&self) -> u32 {
        self.pid
    }

    /// The exit status, if the child has exited.
    pub fn try_status(&self) -> Option<Result<ExitStatus, String>> {
        self.status.borrow().clone()
    }

    /// Waits for the child to exit.
    pub async fn wait(&self) -> Result<ExitStatus, String> {
        let mut status = self.status.clone();
        let exit = status.wait_for(Option::is_some).await.map_err(|e| e.to_string())?;
        exit.clone().expect("waited for Some")
    }

    /// Stops the child the way MCP asks, once its stdin has been closed (closing the peer
    /// closes it): wait, then SIGTERM, wait, then SIGKILL (on Windows: wait, then
    /// terminate; see the module note).
    pub async fn shutdown(&self, timeouts: ShutdownTimeouts) -> Result<ExitStatus, String> {
        if let Ok(exit) = tokio::time::timeout(timeouts.after_close, self.wait()).await {
            return exit;
        }
        #[cfg(unix)]
        {
            self.terminate();
            if let Ok(exit) = tokio::time::timeout(timeouts.after_term, self.wait()).await {
                return exit;
            }
        }
        // The reaping task is gone only once the exit status is published.
        let _ = self.kill.send(());
        self.wait().await
    }

    #[cfg(unix)]
    fn terminate(&self) {
        // Only while the child has not been reaped, so the pid is still ours.
        if self.try_status().is_none() {
            // SAFETY: kill(2) with a pid we own and a valid signal number has no memory effects.
            unsafe { libc::kill(self.pid as libc::pid_t, libc::SIGTERM) };
        }
    }
}

/// The child's stdout as frames; when it ends because the child exited, the end is an
/// error that names the exit status, so pending requests say why they failed.
pub struct ChildSource {
    frames: NdjsonSource<ChildStdout>,
    process: ChildProcess,
}

/// How long to wait, once stdout has closed, for the child's exit status.
const EXIT_GRACE: Duration = Duration::from_millis(200);

impl FrameSource for ChildSource {
    async fn next_event(&mut self) -> io::Result<SourceEvent> {
        match self.frames.next_event().await {
            Ok(SourceEvent::End) => match tokio::time::timeout(EXIT_GRACE, self.process.wait()).await {
                Ok(Ok(status)) => Err(io::Error::other(format!("server process exited ({status})"))),
                Ok(Err(e)) => Err(io::Error::other(format!("server process lost: {e}"))),
                Err(_) => Ok(SourceEvent::End),
            },
            other => other,
        }
    }
}

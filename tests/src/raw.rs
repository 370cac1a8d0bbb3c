//! A server process driven line by line, for tests that send bytes no client library
//! would (malformed frames, odd ids) and read exactly what comes back.

use std::process::ExitStatus;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::schema;

/// A guard against a hang, not a timing assertion: no healthy exchange comes near it.
const HANG_GUARD: Duration = Duration::from_secs(30);

pub struct RawChild {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Lines<BufReader<ChildStdout>>,
    /// Every line read is validated against this revision's `JSONRPCMessage`.
    pub revision: &'static str,
}

impl RawChild {
    pub fn spawn(program: &str, args: &[&str]) -> Self {
        let mut child = Command::new(program)
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("could not start {program}: {e}"));
        let stdin = child.stdin.take();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Self { child, stdin, lines, revision: "2025-11-25" }
    }

    /// Writes bytes as they are (add the newline yourself).
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).await.unwrap();
        stdin.flush().await.unwrap();
    }

    pub async fn send(&mut self, message: &Value) {
        self.send_raw(format!("{message}\n").as_bytes()).await;
    }

    /// The next message, checked against the schema.
    pub async fn recv(&mut self) -> Value {
        let line = tokio::time::timeout(HANG_GUARD, self.lines.next_line())
            .await
            .expect("no message within the hang guard")
            .unwrap()
            .expect("the server closed stdout");
        let message: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("the server wrote invalid JSON ({e}): {line}"));
        schema::assert_valid(self.revision, "JSONRPCMessage", &message);
        message
    }

    /// Whether stdout has ended (reads and discards nothing else).
    pub async fn stdout_closed(&mut self) -> bool {
        let next = tokio::time::timeout(HANG_GUARD, self.lines.next_line()).await;
        matches!(next, Ok(Ok(None)))
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    pub async fn wait(&mut self) -> ExitStatus {
        tokio::time::timeout(HANG_GUARD, self.child.wait()).await.expect("the process did not exit").unwrap()
    }
}

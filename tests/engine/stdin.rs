//! How a stdio server reads its stdin, over every kind of descriptor a parent gives it: a
//! pipe (Rust's and Python's `subprocess`), a socket (Node's `child_process`, libuv), a
//! regular file, with the parent keeping its own copy of the descriptor. Each case makes
//! real round trips with `peer-fixture` and ends it by closing its input.
//!
//! On Linux a pipe or socket is read through the runtime (no `ferrymcp-stdin` thread, read
//! from `/proc`), and the descriptor the parent shares is never made non-blocking: the
//! parent, or any other process holding it, keeps reading it as it did.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::process::{Child, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

use crate::FIXTURE;

/// A pipe, both ends close-on-exec: (read end, write end).
fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: `fds` is valid for two descriptors.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0, "pipe2");
    // SAFETY: `pipe2` just opened both, owned by nothing else.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

fn is_nonblocking(fd: &impl AsRawFd) -> bool {
    // SAFETY: F_GETFL only reads the flags.
    let flags = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETFL) };
    assert!(flags >= 0, "F_GETFL");
    flags & libc::O_NONBLOCK != 0
}

/// `peer-fixture` with `stdin` as its standard input and a pipe as its standard output.
fn spawn(stdin: impl Into<Stdio>) -> (Child, BufReader<ChildStdout>) {
    let mut child = Command::new(FIXTURE).stdin(stdin).stdout(Stdio::piped()).spawn().expect("start peer-fixture");
    let stdout = BufReader::new(child.stdout.take().unwrap());
    (child, stdout)
}

fn echo(id: usize, params: &Value) -> Vec<u8> {
    let mut line =
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": "echo", "params": params})).unwrap();
    line.push(b'\n');
    line
}

/// The next answer; it must echo `params` under `id`.
fn expect_echo(stdout: &mut BufReader<ChildStdout>, id: usize, params: &Value) {
    let mut line = String::new();
    assert!(stdout.read_line(&mut line).unwrap() > 0, "the server closed stdout before answering {id}");
    let answer: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(answer["id"], id, "{}", &line[..line.len().min(200)]);
    assert!(answer["result"] == *params, "answer {id} differs from what was sent");
}

fn round_trips(input: &mut impl Write, stdout: &mut BufReader<ChildStdout>, ids: std::ops::Range<usize>) {
    for id in ids {
        let params = json!({"n": id});
        input.write_all(&echo(id, &params)).unwrap();
        expect_echo(stdout, id, &params);
    }
}

/// Whether the process runs a thread named `name` (Linux: `/proc/PID/task/*/comm`).
#[cfg(target_os = "linux")]
fn has_thread(child: &Child, name: &str) -> bool {
    let tasks = std::fs::read_dir(format!("/proc/{}/task", child.id())).expect("the server's /proc entry");
    tasks
        .filter_map(Result::ok)
        .any(|task| std::fs::read_to_string(task.path().join("comm")).is_ok_and(|comm| comm.trim_end() == name))
}

/// A frame several times a pipe's or a socket's buffer, written in pieces that end
/// mid-frame, the last one carrying the start of the next frame too: the server reads it
/// in many reads and must join them exactly.
fn large_frame_in_pieces(input: &mut impl Write, stdout: &mut BufReader<ChildStdout>) {
    let text: String = (0..3 << 20).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
    let big = json!({"text": text});
    let small = json!({"after": "the large one"});
    let mut bytes = echo(1000, &big);
    bytes.extend_from_slice(&echo(1001, &small));
    let split_in_second = bytes.len() - 20;
    let mut at = 0;
    while at < bytes.len() {
        let end = (at + 7777).min(bytes.len());
        let end = if at < split_in_second && end > split_in_second { split_in_second } else { end };
        input.write_all(&bytes[at..end]).unwrap();
        at = end;
    }
    expect_echo(stdout, 1000, &big);
    expect_echo(stdout, 1001, &small);
}

#[test]
fn a_pipe_serves_and_the_server_exits_cleanly_when_the_peer_closes_it() {
    let (read, write) = pipe();
    let (mut child, mut stdout) = spawn(read);
    let mut input = std::fs::File::from(write);
    round_trips(&mut input, &mut stdout, 0..20);
    #[cfg(target_os = "linux")]
    assert!(!has_thread(&child, "ferrymcp-stdin"), "a pipe is read through the runtime, not on a thread");
    large_frame_in_pieces(&mut input, &mut stdout);
    round_trips(&mut input, &mut stdout, 20..25);
    drop(input);
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_socket_serves_and_the_server_exits_cleanly_when_the_peer_closes_it() {
    // What Node's child_process (libuv) gives a child as its stdin.
    let (mut ours, theirs) = UnixStream::pair().unwrap();
    let (mut child, mut stdout) = spawn(OwnedFd::from(theirs));
    round_trips(&mut ours, &mut stdout, 0..20);
    #[cfg(target_os = "linux")]
    assert!(!has_thread(&child, "ferrymcp-stdin"), "a socket is read through the runtime, not on a thread");
    large_frame_in_pieces(&mut ours, &mut stdout);
    round_trips(&mut ours, &mut stdout, 20..25);
    // Half-closed, as `child.stdin.end()` does: the end of the input all the same.
    ours.shutdown(std::net::Shutdown::Write).unwrap();
    assert!(child.wait().unwrap().success());
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty(), "nothing after the answers");
}

#[test]
fn a_regular_file_is_read_to_its_end_on_the_thread() {
    let dir = std::env::temp_dir().join(format!("ferrymcp-stdin-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("requests.ndjson");
    let params = |id: usize| json!({"n": id, "pad": "p".repeat(id * 97)});
    let mut requests = Vec::new();
    for id in 0..200 {
        requests.extend_from_slice(&echo(id, &params(id)));
    }
    std::fs::write(&path, &requests).unwrap();
    let (mut child, mut stdout) = spawn(std::fs::File::open(&path).unwrap());
    for id in 0..200 {
        expect_echo(&mut stdout, id, &params(id));
    }
    assert!(child.wait().unwrap().success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dev_null_ends_the_server_at_once() {
    let (mut child, mut stdout) = spawn(Stdio::null());
    assert!(child.wait().unwrap().success());
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty());
}

/// The test process keeps its own copy of the child's stdin (a shell, `npx` or `uv run`
/// passing its stdin on does): its blocking mode is a property of the description both
/// share, and the server must leave it alone, while serving and after.
#[test]
fn a_pipe_shared_with_the_parent_stays_blocking_for_the_parent() {
    let (read, write) = pipe();
    let (mut child, mut stdout) = spawn(read.try_clone().unwrap());
    let mut input = std::fs::File::from(write);
    round_trips(&mut input, &mut stdout, 0..5);
    assert!(!is_nonblocking(&read), "the server made the parent's stdin non-blocking");
    drop(input);
    assert!(child.wait().unwrap().success(), "the end of the input is when the writers close, whoever reads");
    assert!(!is_nonblocking(&read));
    // And the parent still reads it as a blocking pipe: the end, not EAGAIN.
    let mut rest = Vec::new();
    std::fs::File::from(read).read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty(), "the server read everything written");
}

#[test]
fn a_socket_shared_with_the_parent_stays_blocking_for_the_parent() {
    let (mut ours, theirs) = UnixStream::pair().unwrap();
    let kept = theirs.try_clone().unwrap();
    let (mut child, mut stdout) = spawn(OwnedFd::from(theirs));
    round_trips(&mut ours, &mut stdout, 0..5);
    assert!(!is_nonblocking(&kept), "the server made the parent's stdin non-blocking");
    ours.shutdown(std::net::Shutdown::Write).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(!is_nonblocking(&kept));
}

/// Someone else made the shared pipe non-blocking before the server started (Node does
/// for its `process.stdin`, asyncio for its pipes): the server still waits for input
/// between frames, and leaves the flag as it found it.
#[test]
fn a_pipe_made_non_blocking_by_the_parent_still_serves_and_keeps_its_flag() {
    let (read, write) = pipe();
    // SAFETY: F_SETFL on a descriptor this test owns.
    unsafe {
        let flags = libc::fcntl(read.as_raw_fd(), libc::F_GETFL);
        assert_eq!(libc::fcntl(read.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK), 0);
    }
    let (mut child, mut stdout) = spawn(read.try_clone().unwrap());
    let mut input = std::fs::File::from(write);
    round_trips(&mut input, &mut stdout, 0..5);
    large_frame_in_pieces(&mut input, &mut stdout);
    drop(input);
    assert!(child.wait().unwrap().success());
    assert!(is_nonblocking(&read));
}

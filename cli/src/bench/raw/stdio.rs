//! A server driven over stdio: spawned fresh, handshake, then timed phases.
//!
//! One thread does everything with blocking pipes. With N in flight it tops the window up,
//! flushes once, then reads every reply already buffered before topping up again, so the
//! writes batch naturally and no thread hand-off adds to a round trip. Request ids are
//! consecutive, so a reply's send time is found by index.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use super::Result;
use super::latency::{Phase, percentile};
use super::messages::{self, Call, Era, Reply};
use super::procfs;
use super::report::{Burst, Throughput, ToolsList};

const PIPE_BUFFER: usize = 1 << 20;

pub struct StdioServer {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    line: Vec<u8>,
    next_id: u64,
}

impl StdioServer {
    /// Spawns `command` and runs the legacy handshake; returns the server and the time
    /// from spawn to the `initialize` answer.
    pub fn start(command: &[String], server_stderr: Stdio) -> Result<(StdioServer, Duration)> {
        let (program, args) = command.split_first().ok_or("no server command")?;
        let started = Instant::now();
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(server_stderr)
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdin = BufWriter::with_capacity(PIPE_BUFFER, child.stdin.take().expect("piped stdin"));
        let stdout = BufReader::with_capacity(PIPE_BUFFER, child.stdout.take().expect("piped stdout"));
        let mut server = StdioServer { child, stdin, stdout, line: Vec::new(), next_id: 1 };
        let id = server.id();
        server.send(&messages::initialize(id))?;
        server.flush()?;
        server.recv()?;
        let startup = started.elapsed();
        server.send(messages::initialized())?;
        server.flush()?;
        Ok((server, startup))
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// One echo call whose answer is checked; returns the round-trip time.
    pub fn checked_echo(&mut self, text: &str) -> Result<Duration> {
        let text_json = serde_json::to_string(text)?;
        let id = self.id();
        let sent = Instant::now();
        self.send(&messages::echo(id, &text_json, Era::Legacy))?;
        self.flush()?;
        self.recv()?;
        let elapsed = sent.elapsed();
        let reply = Reply::parse(&self.line)?.ok_or("no result")?;
        messages::check_echo(reply.result.expect("a result"), text)?;
        Ok(elapsed)
    }

    /// Calls one at a time for `duration`.
    pub fn sequential(&mut self, call: &Call, duration: Duration) -> Result<Phase> {
        let before = procfs::sample(self.pid())?;
        let start = Instant::now();
        let mut latencies = Vec::new();
        while start.elapsed() < duration {
            let id = self.id();
            let sent = Instant::now();
            self.send(&messages::call(id, call, Era::Legacy))?;
            self.flush()?;
            self.recv()?;
            latencies.push(sent.elapsed());
        }
        let elapsed = start.elapsed();
        Ok(Phase::new(latencies, elapsed, before, procfs::sample(self.pid())?))
    }

    /// Calls with `window` in flight for `duration`, then the stragglers drained.
    pub fn in_flight(&mut self, call: &Call, window: usize, duration: Duration) -> Result<Phase> {
        let before = procfs::sample(self.pid())?;
        let base = self.next_id;
        let mut sent_at: Vec<Instant> = Vec::new();
        let mut latencies = Vec::new();
        let start = Instant::now();
        let mut outstanding = 0;
        loop {
            if start.elapsed() < duration {
                while outstanding < window {
                    let id = self.id();
                    self.send(&messages::call(id, call, Era::Legacy))?;
                    sent_at.push(Instant::now());
                    outstanding += 1;
                }
                self.flush()?;
            }
            if outstanding == 0 {
                break;
            }
            loop {
                let id = self.recv()?;
                let index = id.checked_sub(base).ok_or("a reply to an unknown id")? as usize;
                latencies.push(sent_at.get(index).ok_or("a reply to an unknown id")?.elapsed());
                outstanding -= 1;
                if !self.has_buffered_line() {
                    break;
                }
            }
        }
        let elapsed = start.elapsed();
        Ok(Phase::new(latencies, elapsed, before, procfs::sample(self.pid())?))
    }

    /// Calls offered at `rate` per second for `duration`. At each wake-up the calls
    /// due by then are sent together and answered before the driver sleeps to the next due
    /// time, so a server that keeps up spends the rest of the time idle, as most servers do.
    /// A server that falls behind by more than `window` calls gets `window` at a time (the
    /// missed slots are dropped, not piled up): its `calls_per_s` then reads below the rate.
    pub fn paced(&mut self, call: &Call, rate: u32, window: usize, duration: Duration) -> Result<Phase> {
        let before = procfs::sample(self.pid())?;
        let mut latencies = Vec::new();
        let mut sent_at: Vec<Instant> = Vec::new();
        let mut slot: u64 = 0;
        let start = Instant::now();
        while start.elapsed() < duration {
            let due = (start.elapsed().as_secs_f64() * f64::from(rate)) as u64 + 1;
            slot = slot.max(due.saturating_sub(window as u64));
            let base = self.next_id;
            sent_at.clear();
            while slot < due {
                let id = self.id();
                self.send(&messages::call(id, call, Era::Legacy))?;
                sent_at.push(Instant::now());
                slot += 1;
            }
            self.flush()?;
            for _ in 0..sent_at.len() {
                let id = self.recv()?;
                let index = id.checked_sub(base).ok_or("a reply to an unknown id")? as usize;
                latencies.push(sent_at.get(index).ok_or("a reply to an unknown id")?.elapsed());
            }
            let next = start + Duration::from_secs_f64(slot as f64 / f64::from(rate));
            if let Some(wait) = next.checked_duration_since(Instant::now()) {
                thread::sleep(wait);
            }
        }
        let elapsed = start.elapsed();
        Ok(Phase::new(latencies, elapsed, before, procfs::sample(self.pid())?))
    }

    /// One call of `call`'s tool whose answer must be a result and not a tool error;
    /// returns the result's size in bytes.
    pub fn checked_call(&mut self, call: &Call) -> Result<usize> {
        let id = self.id();
        self.send(&messages::call(id, call, Era::Legacy))?;
        self.flush()?;
        self.recv()?;
        let reply = Reply::parse(&self.line)?.ok_or("no result")?;
        messages::check_result(reply.result.expect("a result"))
    }

    /// `requests` calls written all at once (by a second thread, so the server's answers
    /// are read while the requests still go out and neither pipe fills up for good), then
    /// every answer awaited: each id must come back exactly once, as a result. Answers that
    /// are errors are counted, not fatal. Fails if they are not all in within `limit`
    /// (the server is then killed, which ends the read).
    pub fn burst(&mut self, call: &Call, requests: usize, limit: Duration) -> Result<Burst> {
        let before = procfs::sample(self.pid())?;
        let base = self.next_id;
        self.next_id += requests as u64;
        let pid = self.pid();
        let mut seen = vec![false; requests];
        let mut latencies = Vec::with_capacity(requests);
        let (mut answered, mut errors) = (0usize, 0usize);
        let start = Instant::now();
        let (stdin, stdout, line) = (&mut self.stdin, &mut self.stdout, &mut self.line);
        let outcome: Result<()> = thread::scope(|scope| {
            let (done, finished) = std::sync::mpsc::channel::<()>();
            scope.spawn(move || {
                // The watchdog: a server that never answers them all is killed.
                if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(limit) {
                    // SAFETY: kill(2) with the pid of our own child process.
                    unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
                }
            });
            let writer = scope.spawn(move || -> std::io::Result<()> {
                for i in 0..requests as u64 {
                    stdin.write_all(messages::call(base + i, call, Era::Legacy).as_bytes())?;
                    stdin.write_all(b"\n")?;
                }
                stdin.flush()
            });
            let read = (|| -> Result<()> {
                while answered < requests {
                    line.clear();
                    if stdout.read_until(b'\n', line)? == 0 {
                        return Err(format!(
                            "the server closed stdout after {answered} of {requests} answers (or did not \
                             answer them all within {limit:?})"
                        )
                        .into());
                    }
                    let reply: Reply = serde_json::from_slice(line)?;
                    let Some(id) = reply.id else { continue };
                    if reply.result.is_none() && reply.error.is_none() {
                        continue; // a request from the server
                    }
                    let index =
                        id.checked_sub(base).filter(|&i| i < requests as u64).ok_or("an answer to an unknown id")?;
                    if std::mem::replace(&mut seen[index as usize], true) {
                        return Err(format!("id {id} was answered twice").into());
                    }
                    answered += 1;
                    errors += usize::from(reply.error.is_some());
                    latencies.push(start.elapsed());
                }
                Ok(())
            })();
            // A writer still blocked after a failed read is freed by the watchdog's kill.
            let wrote = writer.join().expect("the writer thread does not panic");
            drop(done);
            read?;
            Ok(wrote?)
        });
        outcome?;
        let elapsed = start.elapsed();
        let after = procfs::sample(self.pid())?;
        latencies.sort_unstable();
        Ok(Burst {
            requests,
            answered,
            errors,
            seconds: elapsed.as_secs_f64(),
            calls_per_s: answered as f64 / elapsed.as_secs_f64(),
            p50_us: percentile(&latencies, 0.50),
            p99_us: percentile(&latencies, 0.99),
            server_cpu_us_per_call: (after.cpu_seconds - before.cpu_seconds) * 1e6 / requests.max(1) as f64,
            rss_before_kib: before.rss_kib,
            rss_peak_kib: after.hwm_kib,
        })
    }

    /// Echo calls of `bytes` of text, one at a time: at least `calls` of them, and for at
    /// least `duration`.
    pub fn large_echo(&mut self, bytes: usize, calls: usize, duration: Duration) -> Result<Throughput> {
        let text: String = "abcdefghijklmnopqrstuvwxyz0123456789".chars().cycle().take(bytes).collect();
        let text_json = serde_json::to_string(&text)?;
        self.checked_echo(&text)?;
        let start = Instant::now();
        let mut done = 0;
        while done < calls || start.elapsed() < duration {
            let id = self.id();
            self.send(&messages::echo(id, &text_json, Era::Legacy))?;
            self.flush()?;
            self.recv()?;
            done += 1;
        }
        let seconds = start.elapsed().as_secs_f64();
        Ok(Throughput {
            calls: done,
            payload_bytes: bytes,
            mb_per_s: (bytes * done) as f64 / seconds / 1e6,
            rss_peak_kib: procfs::sample(self.pid())?.hwm_kib,
        })
    }

    /// Full listings (following `nextCursor`) one at a time, for `duration`.
    pub fn tools_list(&mut self, duration: Duration) -> Result<ToolsList> {
        let mut latencies = Vec::new();
        let (mut tools, mut pages) = (0, 0);
        let start = Instant::now();
        while latencies.is_empty() || start.elapsed() < duration {
            let sent = Instant::now();
            let mut cursor: Option<String> = None;
            (tools, pages) = (0, 0);
            loop {
                let id = self.id();
                self.send(&messages::tools_list(id, cursor.as_deref()))?;
                self.flush()?;
                self.recv()?;
                let reply = Reply::parse(&self.line)?.ok_or("no result")?;
                let (count, next) = messages::tools_page(reply.result.expect("a result"))?;
                tools += count;
                pages += 1;
                cursor = next;
                if cursor.is_none() {
                    break;
                }
            }
            latencies.push(sent.elapsed());
        }
        latencies.sort_unstable();
        Ok(ToolsList {
            tools,
            pages,
            listings: latencies.len(),
            p50_us: percentile(&latencies, 0.50),
            p99_us: percentile(&latencies, 0.99),
        })
    }

    /// Closes stdin and waits for the exit; kills the server if it lingers.
    pub fn close(mut self) {
        drop(self.stdin);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id - 1
    }

    fn send(&mut self, frame: &str) -> Result<()> {
        self.stdin.write_all(frame.as_bytes())?;
        self.stdin.write_all(b"\n")?;
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        Ok(self.stdin.flush()?)
    }

    /// Reads frames until a response; returns its id and leaves the frame in `self.line`.
    fn recv(&mut self) -> Result<u64> {
        loop {
            self.line.clear();
            if self.stdout.read_until(b'\n', &mut self.line)? == 0 {
                let status = self.child.wait()?;
                return Err(format!("the server closed stdout ({status})").into());
            }
            if let Some(reply) = Reply::parse(&self.line)? {
                return reply.id.ok_or_else(|| "a response without an integer id".into());
            }
        }
    }

    fn has_buffered_line(&self) -> bool {
        memchr::memchr(b'\n', self.stdout.buffer()).is_some()
    }
}

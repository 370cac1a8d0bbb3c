//! The server process's own cost, when the bench started it: CPU time (user + system) and
//! peak resident memory, read from `/proc/<pid>/stat` and `/proc/<pid>/status`.
//!
//! The kernel counts CPU time in clock ticks (usually 10 ms), so a short run's CPU time per
//! call is coarse: measure for seconds, not milliseconds, to compare servers.
//!
//! Linux only; elsewhere there is no sample and the report says "n/a". The figures are of
//! the process the bench started: a server behind a wrapper (`npx`, `sh -c`) is measured
//! as that wrapper, which the report cannot know.

use std::time::Duration;

/// One reading of the process's counters.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// User plus system CPU time since the process started.
    pub cpu: Duration,
    /// The peak resident set size so far (`VmHWM`), in KiB.
    pub peak_rss_kib: u64,
}

#[cfg(target_os = "linux")]
pub fn sample(pid: u32) -> Option<Sample> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    Some(Sample { cpu: cpu_time(&stat, clock_ticks_per_second())?, peak_rss_kib: peak_rss_kib(&status)? })
}

#[cfg(not(target_os = "linux"))]
pub fn sample(_pid: u32) -> Option<Sample> {
    None
}

#[cfg(target_os = "linux")]
fn clock_ticks_per_second() -> u64 {
    // SAFETY: sysconf has no memory effects; it returns -1 for an unknown name.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as u64 } else { 100 }
}

/// `utime` + `stime` (fields 14 and 15 of `stat`, counted after the parenthesised command
/// name, which may itself contain spaces or parentheses).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn cpu_time(stat: &str, ticks_per_second: u64) -> Option<Duration> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_secs_f64(ticks as f64 / ticks_per_second as f64))
}

#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn peak_rss_kib(status: &str) -> Option<u64> {
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cpu_time_after_a_command_name_with_spaces() {
        let stat = "42 (my server) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 100 1000 200";
        assert_eq!(cpu_time(stat, 100), Some(Duration::from_secs(3)));
        assert_eq!(peak_rss_kib("Name:\tx\nVmHWM:\t   5120 kB\nVmRSS:\t 100 kB\n"), Some(5120));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn samples_this_process() {
        let sample = sample(std::process::id()).expect("/proc is readable");
        assert!(sample.peak_rss_kib > 0);
    }
}

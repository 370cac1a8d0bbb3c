//! A child's CPU time and memory, read from `/proc/<pid>/stat` and `/proc/<pid>/status`.
//!
//! CPU time is `utime + stime` of the whole process (all its threads), in clock ticks; a
//! phase's delta divided by its calls gives the server's CPU cost per call. Memory is
//! `VmRSS` (resident now) and `VmHWM` (the resident high-water mark), in KiB.

use std::fs;

use super::Result;

/// One reading of a process's counters.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// `utime + stime`, in seconds.
    pub cpu_seconds: f64,
    pub rss_kib: u64,
    pub hwm_kib: u64,
}

pub fn sample(pid: u32) -> Result<Sample> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // The command name (field 2) may hold spaces; the fields after it start past its ')'.
    let rest = stat.rsplit_once(')').ok_or("malformed /proc stat")?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (state), so utime (14) and stime (15) are at 11 and 12.
    let utime: u64 = fields.get(11).ok_or("short /proc stat")?.parse()?;
    let stime: u64 = fields.get(12).ok_or("short /proc stat")?.parse()?;
    let status = fs::read_to_string(format!("/proc/{pid}/status"))?;
    Ok(Sample {
        cpu_seconds: (utime + stime) as f64 / clock_ticks_per_second(),
        rss_kib: status_kib(&status, "VmRSS:"),
        hwm_kib: status_kib(&status, "VmHWM:"),
    })
}

fn status_kib(status: &str, key: &str) -> u64 {
    status
        .lines()
        .find_map(|line| line.strip_prefix(key))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn clock_ticks_per_second() -> f64 {
    // SAFETY: sysconf only reads a system constant.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as f64 } else { 100.0 }
}

//! How the long-running commands (`bridge`, `gateway`) stop: on SIGINT (Ctrl-C) or SIGTERM
//! they stop taking requests, give those in flight a moment, close every upstream connection
//! (ending the server processes they started) and exit with the conventional code: 130
//! (128 + SIGINT) after an interrupt, 0 after SIGTERM, the ordinary request to stop a
//! service. On Windows, Ctrl-C and Ctrl-Break count as SIGINT.

/// The exit code after SIGINT.
pub const INTERRUPTED: u8 = 130;
/// The exit code after SIGTERM.
#[cfg(unix)]
pub const TERMINATED: u8 = 0;

/// The handlers, installed by [`Stop::install`] (before the command announces itself, so
/// a signal sent once it did is always handled); if they cannot be, the default action
/// (death by the signal) stays.
pub struct Stop {
    #[cfg(unix)]
    signals: Option<(tokio::signal::unix::Signal, tokio::signal::unix::Signal)>,
    #[cfg(windows)]
    signals: Option<(tokio::signal::windows::CtrlC, tokio::signal::windows::CtrlBreak)>,
}

impl Stop {
    #[cfg(unix)]
    pub fn install() -> Self {
        use tokio::signal::unix::{SignalKind, signal};
        let signals = signal(SignalKind::interrupt()).and_then(|i| Ok((i, signal(SignalKind::terminate())?)));
        Stop { signals: signals.ok() }
    }

    #[cfg(windows)]
    pub fn install() -> Self {
        use tokio::signal::windows::{ctrl_break, ctrl_c};
        Stop { signals: ctrl_c().and_then(|c| Ok((c, ctrl_break()?))).ok() }
    }

    /// Waits for a stop signal and gives the exit code for it.
    pub async fn requested(&mut self) -> u8 {
        let Some((first, second)) = &mut self.signals else { return std::future::pending().await };
        #[cfg(unix)]
        let second_code = TERMINATED;
        #[cfg(windows)]
        let second_code = INTERRUPTED;
        tokio::select! {
            _ = first.recv() => INTERRUPTED,
            _ = second.recv() => second_code,
        }
    }
}

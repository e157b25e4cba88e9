//! Progress on stderr, as people expect it: a bar with rate and ETA on a terminal; on a file or
//! a pipe (a CI log), where a redrawn line turns into one enormous line, a plain line at most
//! every [`PLAIN_EVERY`] and one at the end; nothing at all with `--quiet`. Stdout stays the
//! report, which scripts read.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How often a plain progress line is printed when stderr is not a terminal.
pub const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// One phase's progress (`what`: what is counted, e.g. `programs`).
#[derive(Debug)]
pub struct Progress {
    sink: Sink,
}

#[derive(Debug)]
enum Sink {
    Quiet,
    Bar(ProgressBar),
    Plain {
        what: String,
        total: Option<u64>,
        started: Instant,
        last: Option<Instant>,
        pos: u64,
        msg: String,
    },
}

impl Progress {
    /// Progress over `total` items (unknown: `None`, for a campaign bounded by time).
    pub fn new(what: &str, total: Option<u64>, quiet: bool) -> Progress {
        let sink = if quiet {
            Sink::Quiet
        } else if std::io::stderr().is_terminal() {
            let bar = match total {
                Some(n) => ProgressBar::new(n),
                None => ProgressBar::new_spinner(),
            };
            let template = if total.is_some() {
                "{prefix} [{bar:30}] {pos}/{len} {per_sec} ETA {eta} {msg}"
            } else {
                "{prefix} {spinner} {pos} {per_sec} {elapsed} {msg}"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_prefix(what.to_string());
            Sink::Bar(bar)
        } else {
            Sink::Plain {
                what: what.to_string(),
                total,
                started: Instant::now(),
                last: None,
                pos: 0,
                msg: String::new(),
            }
        };
        Progress { sink }
    }

    /// `pos` items done; `msg` says what is running or how it stands.
    pub fn set(&mut self, pos: u64, msg: &str) {
        match &mut self.sink {
            Sink::Quiet => {}
            Sink::Bar(bar) => {
                bar.set_position(pos);
                bar.set_message(msg.to_string());
            }
            Sink::Plain {
                last,
                pos: p,
                msg: m,
                ..
            } => {
                *p = pos;
                *m = msg.to_string();
                if last.is_none_or(|t| t.elapsed() >= PLAIN_EVERY) {
                    *last = Some(Instant::now());
                    self.plain_line();
                }
            }
        }
    }

    fn plain_line(&self) {
        if let Sink::Plain {
            what,
            total,
            started,
            pos,
            msg,
            ..
        } = &self.sink
        {
            let secs = started.elapsed().as_secs_f64();
            let rate = if secs > 0.0 { *pos as f64 / secs } else { 0.0 };
            let of = total.map(|t| format!("/{t}")).unwrap_or_default();
            eprintln!("{what}: {pos}{of} ({rate:.1}/s, {secs:.0} s) {msg}");
        }
    }

    /// The phase is over: the bar is cleared (the report follows), a plain log gets its last
    /// line.
    pub fn finish(&mut self) {
        match &self.sink {
            Sink::Bar(bar) => bar.finish_and_clear(),
            Sink::Plain { .. } => self.plain_line(),
            Sink::Quiet => {}
        }
        self.sink = Sink::Quiet;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Sink::Bar(bar) = &self.sink {
            bar.finish_and_clear();
        }
    }
}

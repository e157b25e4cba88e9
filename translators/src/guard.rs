//! A guard around every external translator run, so that no translator can hang dxdiff.
//!
//! A translator is started by `dxdiff translator-guard`, a small child of dxdiff that makes
//! itself a *child subreaper* (Linux `PR_SET_CHILD_SUBREAPER`): every process the translator
//! starts, even one that double-forks and calls `setsid`, stays a descendant of the guard. The
//! guard owns the translator's stdout and stderr pipes. When the translator exits, or its time
//! is up, the guard kills every descendant it still has, so the pipes close, and only then
//! hands the captured output to dxdiff on its own stdout and stderr, which no other process
//! holds. dxdiff itself therefore never waits on a pipe that a stray process keeps open, and a
//! guard that misbehaves is killed after the timeout plus a grace period.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::pipes::{Capped, MAX_ANSWER, STDERR_KEPT};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// How the translator's run ended, as the guard reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this status (128 + the signal number when a signal ended it).
    Exited(i32),
    /// Its time was up.
    TimedOut,
    /// The guard could not start it.
    CannotStart(String),
    /// It wrote more than this many bytes on stdout, and was stopped.
    TooLong(u64),
}

/// The guard's answer on its stdout: the translator's stdout, then the ending. The framing
/// keeps the two apart whatever the translator writes or whatever status it exits with.
///
/// Layout: `u64` length of the stdout bytes (little endian), the bytes, a kind byte (0 exited,
/// 1 timed out, 2 cannot start, 3 too long), an `i32` status (little endian), then for kind 2
/// the reason as UTF-8 to the end, for kind 3 the limit as a `u64` (little endian).
pub fn frame(stdout: &[u8], ending: &Ending) -> Vec<u8> {
    let mut v = Vec::with_capacity(stdout.len() + 16);
    v.extend_from_slice(&(stdout.len() as u64).to_le_bytes());
    v.extend_from_slice(stdout);
    match ending {
        Ending::Exited(code) => {
            v.push(0);
            v.extend_from_slice(&code.to_le_bytes());
        }
        Ending::TimedOut => {
            v.push(1);
            v.extend_from_slice(&0i32.to_le_bytes());
        }
        Ending::CannotStart(why) => {
            v.push(2);
            v.extend_from_slice(&0i32.to_le_bytes());
            v.extend_from_slice(why.as_bytes());
        }
        Ending::TooLong(limit) => {
            v.push(3);
            v.extend_from_slice(&0i32.to_le_bytes());
            v.extend_from_slice(&limit.to_le_bytes());
        }
    }
    v
}

/// The translator's stdout and ending from a guard's answer; `None` when it is not one.
pub fn unframe(bytes: &[u8]) -> Option<(&[u8], Ending)> {
    let len = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?);
    let len = usize::try_from(len).ok()?;
    let end = 8usize.checked_add(len)?;
    let stdout = bytes.get(8..end)?;
    let kind = *bytes.get(end)?;
    let code = i32::from_le_bytes(bytes.get(end + 1..end + 5)?.try_into().ok()?);
    let rest = bytes.get(end + 5..)?;
    let ending = match kind {
        0 => Ending::Exited(code),
        1 => Ending::TimedOut,
        2 => Ending::CannotStart(String::from_utf8_lossy(rest).into_owned()),
        3 => Ending::TooLong(u64::from_le_bytes(rest.get(..8)?.try_into().ok()?)),
        _ => return None,
    };
    Some((stdout, ending))
}

/// Every descendant of `root` (children, their children...), read from `/proc`.
fn descendants(root: u32) -> Vec<u32> {
    let mut children: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`; comm may hold spaces and parentheses.
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        if let Some(ppid) = rest.split_whitespace().nth(1).and_then(|p| p.parse().ok()) {
            children.entry(ppid).or_default().push(pid);
        }
    }
    let mut out = Vec::new();
    let mut todo = vec![root];
    while let Some(p) = todo.pop() {
        for c in children.get(&p).into_iter().flatten() {
            out.push(*c);
            todo.push(*c);
        }
    }
    out
}

/// Kill every descendant of this process and reap them, until none is left (a process may
/// fork while the first pass kills its parent).
fn kill_descendants() {
    let me = std::process::id();
    for _ in 0..64 {
        let all = descendants(me);
        if all.is_empty() {
            break;
        }
        for pid in &all {
            let _ = kill(Pid::from_raw(*pid as i32), Signal::SIGKILL);
        }
        // Reap what died (as a subreaper, orphans are our children now).
        while let Ok(status) = nix::sys::wait::waitpid(
            Pid::from_raw(-1),
            Some(nix::sys::wait::WaitPidFlag::WNOHANG),
        ) {
            if status == nix::sys::wait::WaitStatus::StillAlive {
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// `dxdiff translator-guard`: run `line` through `sh -c` with this process's stdin, within
/// `timeout`; then kill every descendant, write the translator's stderr to ours and the
/// [`frame`] of its stdout and ending to our stdout. Returns the guard's exit status (0).
pub fn serve(line: &str, timeout: Duration) -> i32 {
    let answer = |stdout: &[u8], ending: Ending| {
        let mut o = std::io::stdout();
        let _ = o.write_all(&frame(stdout, &ending));
        let _ = o.flush();
        0
    };
    if let Err(e) = nix::sys::prctl::set_child_subreaper(true) {
        return answer(
            &[],
            Ending::CannotStart(format!("cannot become a subreaper: {e}")),
        );
    }
    let mut child = match Command::new("sh")
        .args(["-c", line])
        .stdin(Stdio::inherit())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            return answer(
                &[],
                Ending::CannotStart(format!("cannot start `{line}`: {e}")),
            );
        }
    };
    let (Some(out), Some(err)) = (child.stdout.take(), child.stderr.take()) else {
        return answer(
            &[],
            Ending::CannotStart("no pipes to the translator".into()),
        );
    };
    // Stdout is kept up to the answer's limit and stderr's tail only, so a translator that
    // writes forever costs a bounded amount of memory and is stopped once it is over.
    let (out, err) = (
        Capped::head(out, MAX_ANSWER),
        Capped::tail(err, STDERR_KEPT),
    );
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Ok(s),
            Ok(None) if started.elapsed() >= timeout => break Err(Ending::TimedOut),
            Ok(None) if out.overflowed() => break Err(Ending::TooLong(MAX_ANSWER as u64)),
            Ok(None) => std::thread::sleep(Duration::from_millis(1)),
            Err(_) => break Err(Ending::TimedOut),
        }
    };
    if status.is_err() {
        let _ = child.kill();
        let _ = child.wait();
    }
    kill_descendants();
    // Every writer of the pipes is dead now, so the drains end at once.
    let grace = Duration::from_secs(2);
    let (stdout, over) = out.finish(grace);
    let (stderr, _) = err.finish(grace);
    let _ = std::io::stderr().write_all(&stderr);
    let ending = match status {
        Err(e) => e,
        Ok(_) if over => Ending::TooLong(MAX_ANSWER as u64),
        Ok(s) => Ending::Exited(exit_code(s)),
    };
    answer(&stdout, ending)
}

/// The status a shell would report: the exit code, or 128 + the signal that ended it.
fn exit_code(s: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    s.code().unwrap_or_else(|| 128 + s.signal().unwrap_or(0))
}

/// `dxdiff translator-guard --serve`: run a persistent translator (`serve:`) with this
/// process's stdin, stdout and stderr, which are dxdiff's pipes, as a child subreaper. When the
/// translator exits, or this guard is told to stop (SIGTERM, SIGINT, SIGHUP, or dxdiff's own
/// death through the parent-death signal), every descendant is killed first. Returns the
/// translator's exit status.
pub fn relay(line: &str) -> i32 {
    use nix::sys::signal::{SigSet, SigmaskHow, pthread_sigmask};
    let mut stop = SigSet::empty();
    for s in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP] {
        stop.add(s);
    }
    // Blocked here and in every thread started after; a spawned child starts with a clear mask.
    if pthread_sigmask(SigmaskHow::SIG_BLOCK, Some(&stop), None).is_err()
        || nix::sys::prctl::set_child_subreaper(true).is_err()
        || nix::sys::prctl::set_pdeathsig(Signal::SIGTERM).is_err()
    {
        eprintln!("dxdiff translator-guard: cannot set up the guard");
        return 125;
    }
    std::thread::spawn(move || {
        let signal = stop.wait();
        kill_descendants();
        std::process::exit(128 + signal.map_or(15, |s| s as i32));
    });
    let status = Command::new("sh")
        .args(["-c", line])
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .status();
    kill_descendants();
    match status {
        Ok(s) => exit_code(s),
        Err(e) => {
            eprintln!("dxdiff translator-guard: cannot start `{line}`: {e}");
            127
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_refuse_garbage() {
        for ending in [
            Ending::Exited(0),
            Ending::Exited(124),
            Ending::TimedOut,
            Ending::CannotStart("no sh".into()),
            Ending::TooLong(1 << 26),
        ] {
            let f = frame(b"{\"status\":\"ok\"}", &ending);
            let (out, e) = unframe(&f).expect("a frame");
            assert_eq!(out, b"{\"status\":\"ok\"}");
            assert_eq!(e, ending);
        }
        assert_eq!(unframe(b"short"), None);
        let mut f = frame(b"x", &Ending::Exited(1));
        f[0] = 200;
        assert_eq!(unframe(&f), None);
    }
}

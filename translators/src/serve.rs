//! `serve:<command line>`: an external translator that stays up. dxdiff starts the command once
//! per worker (a thread that translates) and sends it one request per line; the process answers
//! each with one line, so start-up (a runtime, an import, a cold first translation) is paid once
//! per worker instead of once per program. docs/translators.md has the protocol.
//!
//! A timeout, a crash, a line that is not the protocol's JSON, or an answer to another request
//! kills the process (its whole group, through its guard), blames that one program as a
//! translator crash, and the next program starts a fresh process.

use std::io::Write;
use std::process::Child;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use translator::Translation;

use super::external::{answer, kill_group, start_guard};
use super::pipes::{Line, MAX_ANSWER, Tail, lines};
use super::{Failure, Part, Translator, crash};

/// A translator that stays up between programs: a pool of processes, one per thread that is
/// translating at a time.
#[derive(Debug)]
pub struct Serve {
    /// The command line after `serve:`, run with `sh -c` behind `dxdiff translator-guard`.
    pub line: String,
    /// How long one program's answer may take before it counts as a crash.
    pub timeout: Duration,
    idle: Mutex<Vec<Server>>,
    spawner: Spawner,
    next_id: AtomicU64,
}

impl Serve {
    /// A pool for `line`, empty until the first program.
    pub fn new(line: String, timeout: Duration) -> Serve {
        Serve {
            line,
            timeout,
            idle: Mutex::new(Vec::new()),
            spawner: Spawner::start(),
            next_id: AtomicU64::new(0),
        }
    }

    /// A process from the pool (and `true`), or a fresh one. A pooled process that has exited
    /// since its last answer (a translator may serve a few programs and quit) is replaced, not
    /// blamed.
    fn take(&self) -> Result<(Server, bool), Failure> {
        while let Some(mut s) = self.idle.lock().ok().and_then(|mut i| i.pop()) {
            if matches!(s.guard.try_wait(), Ok(None)) {
                return Ok((s, true));
            }
            s.kill();
        }
        Ok((self.spawner.spawn(&self.line)?, false))
    }

    /// Back to the pool, for the next program.
    fn keep(&self, s: Server) {
        match self.idle.lock() {
            Ok(mut idle) => idle.push(s),
            Err(_) => s.kill(),
        }
    }

    /// One request and its answer; a pooled process that ends without answering (it may have
    /// been quitting as the request arrived) gets the request again in a fresh process, once,
    /// so a translator is blamed only for an ending a fresh process repeats.
    fn exchange(&self, blob: &[u8]) -> Result<Translation, Failure> {
        let (server, pooled) = self.take()?;
        match self.ask(server, blob) {
            Err(Ended(_)) if pooled => {
                let server = self.spawner.spawn(&self.line)?;
                self.ask(server, blob).map_err(|Ended(f)| f)?
            }
            Err(Ended(f)) => Err(f),
            Ok(answer) => answer,
        }
    }

    /// Send one request to `server` and read its answer line; the server goes back to the
    /// pool only when the exchange kept the protocol. `Err` when the process ended without
    /// answering.
    fn ask(&self, server: Server, blob: &[u8]) -> Result<Result<Translation, Failure>, Ended> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        if server.requests.send(request(id, blob)).is_err() {
            let tail = server.stderr.clone();
            let why = server.ended();
            return Err(Ended(crash(why, &tail.take())));
        }
        let line = match server.lines.recv_timeout(self.timeout) {
            Ok(Line::Text(l)) => l,
            Ok(Line::TooLong) => {
                let stderr = server.stderr.take();
                server.kill();
                return Ok(Err(crash(
                    format!("its answer is longer than {MAX_ANSWER} bytes"),
                    &stderr,
                )));
            }
            Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                let tail = server.stderr.clone();
                let why = server.ended();
                return Err(Ended(crash(why, &tail.take())));
            }
            Err(RecvTimeoutError::Timeout) => {
                let stderr = server.stderr.take();
                server.kill();
                return Ok(Err(crash(
                    format!("no answer within {:?}", self.timeout),
                    &stderr,
                )));
            }
        };
        #[derive(serde::Deserialize)]
        struct Id {
            id: Option<u64>,
        }
        Ok(match serde_json::from_slice::<Id>(&line) {
            Ok(Id { id: Some(got) }) if got == id => {
                let t = answer(&line, &server.stderr.take());
                self.keep(server);
                t
            }
            Ok(Id { id: got }) => {
                let stderr = server.stderr.take();
                server.kill();
                Err(crash(
                    format!(
                        "it answered request {} to request {id} (the persistent protocol needs \
                         the request's `id` in every answer)",
                        got.map_or("(none)".to_string(), |i| i.to_string())
                    ),
                    &stderr,
                ))
            }
            Err(e) => {
                let stderr = server.stderr.take();
                server.kill();
                Err(crash(
                    format!("output is not the protocol's JSON: {e}"),
                    &stderr,
                ))
            }
        })
    }
}

/// A process that ended without answering, and the crash it is if that is the program's fault.
struct Ended(Failure);

impl Drop for Serve {
    fn drop(&mut self) {
        if let Ok(mut idle) = self.idle.lock() {
            for s in idle.drain(..) {
                s.kill();
            }
        }
    }
}

impl Translator for Serve {
    fn name(&self) -> String {
        format!("serve:{}", self.line)
    }

    fn translate(&self, blob: &[u8], _shader: &dxbc::Shader) -> Result<Translation, Failure> {
        self.exchange(blob)
    }

    /// One request to a warm process: what a worker pays per program once it runs.
    fn parts(&self) -> Vec<Part<'_>> {
        vec![Part {
            name: "translation (persistent)",
            setup: Box::new(|b: &[u8]| Some(Box::new(b.to_vec()) as Box<dyn std::any::Any>)),
            run: Box::new(move |i| {
                if let Some(b) = i.downcast_ref::<Vec<u8>>() {
                    let _ = self.exchange(b);
                }
            }),
        }]
    }
}

/// `{"id":N,"dxbc":"<hex>"}` and a newline.
fn request(id: u64, blob: &[u8]) -> Vec<u8> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut r = Vec::with_capacity(blob.len() * 2 + 40);
    r.extend_from_slice(format!("{{\"id\":{id},\"dxbc\":\"").as_bytes());
    for b in blob {
        r.push(HEX[usize::from(b >> 4)]);
        r.push(HEX[usize::from(b & 15)]);
    }
    r.extend_from_slice(b"\"}\n");
    r
}

/// One running translator, behind its guard.
#[derive(Debug)]
struct Server {
    guard: Child,
    /// Requests, written by a thread of their own so that a process that stops reading cannot
    /// block dxdiff.
    requests: Sender<Vec<u8>>,
    lines: Receiver<Line>,
    stderr: Tail,
}

impl Server {
    /// Kill the guard's whole group and reap the guard.
    fn kill(mut self) {
        kill_group(self.guard.id());
        let _ = self.guard.kill();
        let _ = self.guard.wait();
    }

    /// Why the process is gone (it closed stdout or exited), once it is: its exit status, or a
    /// kill after a short wait when it only closed stdout.
    fn ended(mut self) -> String {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(2) {
            if let Ok(Some(status)) = self.guard.try_wait() {
                // Let the stderr thread read what the process wrote last (the pipe ends when
                // the process and what it left behind are gone; the group is killed below).
                self.stderr.settle(Duration::from_millis(500));
                use std::os::unix::process::ExitStatusExt;
                let code = status
                    .code()
                    .unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
                kill_group(self.guard.id());
                return format!("exited with exit status: {code}");
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        self.kill();
        "it closed its output without answering".into()
    }
}

/// A thread that starts every server of one [`Serve`]. The guard asks for the parent-death
/// signal, which Linux sends when the *thread* that started it ends; servers are therefore
/// started by this one long-lived thread, not by the worker threads that come and go, and they
/// go when the pool does.
#[derive(Debug)]
struct Spawner {
    tx: Mutex<Sender<SpawnRequest>>,
}

/// A command line to start, and where the started server goes.
type SpawnRequest = (String, Sender<Result<Server, Failure>>);

impl Spawner {
    fn start() -> Spawner {
        let (tx, rx) = channel::<SpawnRequest>();
        std::thread::spawn(move || {
            for (line, reply) in rx {
                let _ = reply.send(start_server(&line));
            }
        });
        Spawner { tx: Mutex::new(tx) }
    }

    fn spawn(&self, line: &str) -> Result<Server, Failure> {
        let (reply, answer) = channel();
        self.tx
            .lock()
            .map_err(|_| crash("the translator spawner is gone", &[]))?
            .send((line.to_string(), reply))
            .map_err(|_| crash("the translator spawner is gone", &[]))?;
        answer
            .recv()
            .map_err(|_| crash("the translator spawner is gone", &[]))?
    }
}

fn start_server(line: &str) -> Result<Server, Failure> {
    let mut guard = start_guard(&["--serve", "--timeout-ms", "0"], line)?;
    let (Some(mut stdin), Some(out), Some(err)) =
        (guard.stdin.take(), guard.stdout.take(), guard.stderr.take())
    else {
        kill_group(guard.id());
        let _ = guard.kill();
        let _ = guard.wait();
        return Err(crash("the translator guard has no pipes", &[]));
    };
    let (requests, queue) = channel::<Vec<u8>>();
    std::thread::spawn(move || {
        for r in queue {
            if stdin.write_all(&r).and_then(|()| stdin.flush()).is_err() {
                return;
            }
        }
    });
    Ok(Server {
        guard,
        requests,
        lines: lines(out),
        stderr: Tail::drain(err),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_one_line_of_json_with_the_container_in_hex() {
        let r = request(7, &[0x44, 0x58, 0x00, 0xff]);
        assert_eq!(r, b"{\"id\":7,\"dxbc\":\"445800ff\"}\n");
        let v: serde_json::Value = serde_json::from_slice(&r).expect("JSON");
        assert_eq!(v["id"], 7);
    }
}

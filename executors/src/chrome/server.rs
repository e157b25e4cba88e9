//! The HTTP side of the browser executor: a small HTTP/1.1 server on an ephemeral
//! `127.0.0.1` port (a secure context, so the page gets `navigator.gpu`) and the job queue it
//! serves. The page pulls jobs in batches and posts results back; both directions carry
//! [`crate::gpu::wire`] frames, so words travel raw. Every path names the browser generation
//! (`/g/N/...`): a page of a browser that was killed and replaced is told `410 Gone`.

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::gpu::wire::{Frame, read_frame};

/// The page, served at `/g/N/`.
const PAGE: &str = include_str!("page.html");
/// Most jobs one pull takes.
const BATCH_JOBS: usize = 16;
/// Most job bytes one pull takes (a single larger job still goes alone).
const BATCH_BYTES: usize = 16 << 20;
/// How long a pull waits for work before answering empty.
const LONG_POLL: Duration = Duration::from_millis(1000);
/// Largest request body the server reads.
const MAX_BODY: usize = 1 << 30;

/// What the page and the client share.
#[derive(Debug, Default)]
pub struct State {
    /// The browser generation whose page is served; other generations get `410`.
    pub generation: u64,
    /// Jobs not yet pulled: id and frame bytes.
    pub queue: VecDeque<(u64, Vec<u8>)>,
    /// Jobs pulled and not answered, in pull order.
    pub pulled: Vec<u64>,
    /// Answers by job id.
    pub done: HashMap<u64, Frame>,
    /// The page's last `hello`: the adapter's identity, features and limits.
    pub hello: Option<serde_json::Value>,
    /// The page asked for its GPU process to be killed (a hung device).
    pub stuck: bool,
    /// When the page last pulled, answered or sent its heartbeat (`alive`, every second).
    pub seen: Option<Instant>,
}

/// The shared state and the signal that it changed.
#[derive(Debug, Default)]
pub struct Hub {
    state: Mutex<State>,
    changed: Condvar,
}

impl Hub {
    /// The state, even after a handler thread panicked holding it.
    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Wait until the state changes or `timeout` passes.
    pub fn wait<'a>(
        &self,
        guard: MutexGuard<'a, State>,
        timeout: Duration,
    ) -> MutexGuard<'a, State> {
        match self.changed.wait_timeout(guard, timeout) {
            Ok((g, _)) => g,
            Err(p) => p.into_inner().0,
        }
    }

    /// Wake everyone waiting on the state.
    pub fn notify(&self) {
        self.changed.notify_all();
    }
}

/// Start serving on an ephemeral port; the port.
pub fn serve(hub: Arc<Hub>) -> std::io::Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let hub = hub.clone();
            std::thread::spawn(move || {
                let _ = connection(&hub, stream);
            });
        }
    });
    Ok(port)
}

/// One request as read off the connection.
struct HttpRequest {
    method: String,
    path: String,
    body: Vec<u8>,
}

fn read_request(r: &mut impl BufRead) -> std::io::Result<Option<HttpRequest>> {
    let mut line = String::new();
    if r.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("").to_string();
    let mut length = 0usize;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h)? == 0 {
            return Ok(None);
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    if length > MAX_BODY {
        return Err(std::io::Error::other("request body too large"));
    }
    let mut body = vec![0; length];
    r.read_exact(&mut body)?;
    Ok(Some(HttpRequest { method, path, body }))
}

fn respond(w: &mut impl Write, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    write!(
        w,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\n\r\n",
        body.len()
    )?;
    w.write_all(body)?;
    w.flush()
}

fn connection(hub: &Hub, stream: TcpStream) -> std::io::Result<()> {
    // Small answers would otherwise wait for Nagle's timer (about 40 ms a request).
    stream.set_nodelay(true)?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    while let Some(req) = read_request(&mut reader)? {
        let (status, kind, body) = route(hub, &req);
        respond(&mut writer, status, kind, &body)?;
    }
    Ok(())
}

type Answer = (&'static str, &'static str, Vec<u8>);

fn route(hub: &Hub, req: &HttpRequest) -> Answer {
    const BIN: &str = "application/octet-stream";
    const TEXT: &str = "text/plain";
    let gone = ("410 Gone", TEXT, b"this browser was replaced".to_vec());
    let Some(rest) = req.path.strip_prefix("/g/") else {
        return ("404 Not Found", TEXT, Vec::new());
    };
    let (generation, what) = rest.split_once('/').unwrap_or((rest, ""));
    if generation.parse::<u64>().ok() != Some(hub.lock().generation) {
        return gone;
    }
    match (req.method.as_str(), what) {
        ("GET", "") => (
            "200 OK",
            "text/html; charset=utf-8",
            PAGE.as_bytes().to_vec(),
        ),
        ("POST", "hello") => {
            let v = serde_json::from_slice(&req.body).unwrap_or_default();
            let mut s = hub.lock();
            s.hello = Some(v);
            s.seen = Some(Instant::now());
            drop(s);
            hub.notify();
            ("200 OK", TEXT, Vec::new())
        }
        ("POST", "alive") => {
            hub.lock().seen = Some(Instant::now());
            ("200 OK", TEXT, Vec::new())
        }
        ("POST", "stuck") => {
            hub.lock().stuck = true;
            hub.notify();
            ("200 OK", TEXT, Vec::new())
        }
        ("GET", "jobs") => ("200 OK", BIN, pull(hub)),
        ("POST", "results") => {
            let mut body = req.body.as_slice();
            let mut frames = Vec::new();
            while !body.is_empty() {
                match read_frame(&mut body) {
                    Ok(f) => frames.push(f),
                    Err(_) => return ("400 Bad Request", TEXT, b"not frames".to_vec()),
                }
            }
            let mut s = hub.lock();
            for f in frames {
                let id = serde_json::from_slice::<serde_json::Value>(&f.header)
                    .ok()
                    .and_then(|v| v.get("id").and_then(|i| i.as_u64()));
                if let Some(id) = id
                    && let Some(at) = s.pulled.iter().position(|p| *p == id)
                {
                    s.pulled.remove(at);
                    s.done.insert(id, f);
                }
            }
            s.seen = Some(Instant::now());
            drop(s);
            hub.notify();
            ("200 OK", TEXT, Vec::new())
        }
        _ => ("404 Not Found", TEXT, Vec::new()),
    }
}

/// Up to a batch of queued jobs, waiting a while for the first one.
fn pull(hub: &Hub) -> Vec<u8> {
    let deadline = Instant::now() + LONG_POLL;
    let mut s = hub.lock();
    s.seen = Some(Instant::now());
    while s.queue.is_empty() {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Vec::new();
        }
        s = hub.wait(s, left);
    }
    let mut body = Vec::new();
    let mut taken = 0;
    while let Some((_, frame)) = s.queue.front() {
        let full = body.len() + frame.len() > BATCH_BYTES || taken >= BATCH_JOBS;
        if full && taken > 0 {
            break;
        }
        taken += 1;
        let Some((id, frame)) = s.queue.pop_front() else {
            break;
        };
        body.extend_from_slice(&frame);
        s.pulled.push(id);
    }
    s.seen = Some(Instant::now());
    body
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::wire::write_frame;
    use std::io::Read;

    fn request(port: u16, method: &str, path: &str, body: &[u8]) -> (String, Vec<u8>) {
        let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connects");
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .expect("writes");
        s.write_all(body).expect("writes");
        let mut r = BufReader::new(s);
        let mut status = String::new();
        r.read_line(&mut status).expect("status");
        let mut length = 0;
        loop {
            let mut h = String::new();
            r.read_line(&mut h).expect("header");
            if h.trim().is_empty() {
                break;
            }
            if let Some(v) = h.to_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().expect("length");
            }
        }
        let mut body = vec![0; length];
        r.read_exact(&mut body).expect("body");
        (status.trim().to_string(), body)
    }

    #[test]
    fn jobs_are_pulled_in_batches_answered_by_id_and_stale_pages_are_gone() {
        let hub = Arc::new(Hub::default());
        hub.lock().generation = 2;
        let port = serve(hub.clone()).expect("serves");
        let (status, page) = request(port, "GET", "/g/2/", b"");
        assert!(status.contains("200") && page.starts_with(b"<!doctype html>"));
        assert!(request(port, "GET", "/g/1/jobs", b"").0.contains("410"));
        for id in [7u64, 8] {
            let mut f = Vec::new();
            write_frame(
                &mut f,
                format!("{{\"id\":{id}}}").as_bytes(),
                &[&[id as u32]],
            )
            .expect("frame");
            hub.lock().queue.push_back((id, f));
        }
        let (_, body) = request(port, "GET", "/g/2/jobs", b"");
        let mut r = body.as_slice();
        let first = read_frame(&mut r).expect("a frame");
        assert_eq!(first.words, vec![vec![7]]);
        assert_eq!(read_frame(&mut r).expect("a frame").words, vec![vec![8]]);
        assert_eq!(hub.lock().pulled, [7, 8]);
        let mut answer = Vec::new();
        write_frame(&mut answer, b"{\"id\":8,\"ok\":true}", &[&[1, 2]]).expect("frame");
        write_frame(&mut answer, b"{\"id\":99}", &[]).expect("frame");
        assert!(
            request(port, "POST", "/g/2/results", &answer)
                .0
                .contains("200")
        );
        let s = hub.lock();
        assert_eq!(s.pulled, [7]);
        assert_eq!(s.done[&8].words, vec![vec![1, 2]]);
        // An answer for a job nobody pulled is ignored.
        assert!(!s.done.contains_key(&99));
    }
}

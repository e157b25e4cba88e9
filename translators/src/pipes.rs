//! Reading a translator's pipes with bounded memory. A translator is untrusted: one that writes
//! forever must cost dxdiff a fixed amount of memory, and be stopped, never buffered whole.
//!
//! Stdout is kept from its start up to [`MAX_ANSWER`] (an answer is one JSON document, and a
//! larger one is refused as a crash); stderr only to its last [`STDERR_KEPT`] bytes, which is
//! all a crash report shows. Both keep reading past their limit and drop what they do not keep,
//! so the writer never blocks on a full pipe.

use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The most bytes of an answer (one-shot: all of stdout; persistent: one line).
pub const MAX_ANSWER: usize = 64 << 20;
/// The tail of stderr kept for a crash's report.
pub const STDERR_KEPT: usize = 4096;

/// A pipe drained on a thread of its own into a bounded buffer.
#[derive(Debug)]
pub struct Capped {
    done: Receiver<Vec<u8>>,
    over: Arc<AtomicBool>,
}

impl Capped {
    /// Keep the first `limit` bytes; [`Capped::overflowed`] turns true at the next byte.
    pub fn head(pipe: impl Read + Send + 'static, limit: usize) -> Capped {
        Capped::start(pipe, limit, false)
    }

    /// Keep the last `limit` bytes.
    pub fn tail(pipe: impl Read + Send + 'static, limit: usize) -> Capped {
        Capped::start(pipe, limit, true)
    }

    fn start(mut pipe: impl Read + Send + 'static, limit: usize, tail: bool) -> Capped {
        let (tx, done) = channel();
        let over = Arc::new(AtomicBool::new(false));
        let flag = over.clone();
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut chunk = vec![0u8; 64 << 10];
            loop {
                let n = match pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                if tail {
                    keep_tail(&mut kept, &chunk[..n], limit);
                } else {
                    let room = limit.saturating_sub(kept.len());
                    kept.extend_from_slice(&chunk[..n.min(room)]);
                    if n > room {
                        flag.store(true, Ordering::Relaxed);
                    }
                }
            }
            let _ = tx.send(kept);
        });
        Capped { done, over }
    }

    /// Whether a head-kept pipe carried more than its limit so far.
    pub fn overflowed(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }

    /// What was kept once the pipe ended (or after `grace`, empty), and whether it overflowed.
    pub fn finish(self, grace: Duration) -> (Vec<u8>, bool) {
        let kept = self.done.recv_timeout(grace).unwrap_or_default();
        (kept, self.over.load(Ordering::Relaxed))
    }
}

/// Append `more` to `kept`, keeping its last `limit` bytes.
fn keep_tail(kept: &mut Vec<u8>, more: &[u8], limit: usize) {
    if more.len() >= limit {
        kept.clear();
        kept.extend_from_slice(&more[more.len() - limit..]);
        return;
    }
    let drop = (kept.len() + more.len()).saturating_sub(limit);
    kept.drain(..drop);
    kept.extend_from_slice(more);
}

/// The last [`STDERR_KEPT`] bytes a long-lived process wrote on stderr, shared with the thread
/// that drains it; each answer takes it, so a crash shows what was written since the last
/// answer (for a new process, from its start: a server that writes and dies before its first
/// request is named by what it wrote). The flag says the pipe has ended.
#[derive(Debug, Clone, Default)]
pub struct Tail(Arc<Mutex<Vec<u8>>>, Arc<std::sync::atomic::AtomicBool>);

impl Tail {
    /// Drain `pipe` into a new tail, on a thread of its own.
    pub fn drain(mut pipe: impl Read + Send + 'static) -> Tail {
        let tail = Tail::default();
        let (kept, ended) = (tail.0.clone(), tail.1.clone());
        std::thread::spawn(move || {
            let mut chunk = vec![0u8; 16 << 10];
            loop {
                match pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if let Ok(mut k) = kept.lock() {
                            keep_tail(&mut k, &chunk[..n], STDERR_KEPT);
                        }
                    }
                }
            }
            ended.store(true, std::sync::atomic::Ordering::Release);
        });
        tail
    }

    /// Wait, at most `limit`, until the pipe has ended and everything written is kept: a
    /// process that has exited may have written its last words a moment before.
    pub fn settle(&self, limit: std::time::Duration) {
        let started = std::time::Instant::now();
        while !self.1.load(std::sync::atomic::Ordering::Acquire) && started.elapsed() < limit {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

    /// What was written since the last take (its last [`STDERR_KEPT`] bytes).
    pub fn take(&self) -> Vec<u8> {
        self.0
            .lock()
            .map(|mut k| std::mem::take(&mut *k))
            .unwrap_or_default()
    }
}

/// One line read from a long-lived process's stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A complete line, without its newline.
    Text(Vec<u8>),
    /// A line longer than [`MAX_ANSWER`]; the reader stops there.
    TooLong,
    /// The pipe ended (the process closed it or died).
    Closed,
}

/// Read `pipe` line by line on a thread of its own, each line at most [`MAX_ANSWER`] bytes;
/// the lines arrive on the returned channel, the last one [`Line::Closed`] or [`Line::TooLong`].
pub fn lines(pipe: impl Read + Send + 'static) -> Receiver<Line> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::with_capacity(64 << 10, pipe);
        loop {
            let mut line = Vec::new();
            // `take` bounds one line; a line that fills it without a newline is too long.
            let limit = MAX_ANSWER as u64 + 1;
            match (&mut reader).take(limit).read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Line::Closed);
                    return;
                }
                Ok(_) if line.last() == Some(&b'\n') => {
                    line.pop();
                    if tx.send(Line::Text(line)).is_err() {
                        return;
                    }
                }
                Ok(n) if n as u64 >= limit => {
                    let _ = tx.send(Line::TooLong);
                    return;
                }
                // The last line, without a newline: the process closed stdout after it.
                Ok(_) => {
                    let _ = tx.send(Line::Text(line));
                    let _ = tx.send(Line::Closed);
                    return;
                }
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_stop_keeping_at_their_limit_and_tails_keep_the_end() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let (kept, over) =
            Capped::head(std::io::Cursor::new(data.clone()), 1000).finish(Duration::from_secs(5));
        assert_eq!(kept, &data[..1000]);
        assert!(over);
        let (kept, over) =
            Capped::tail(std::io::Cursor::new(data.clone()), 1000).finish(Duration::from_secs(5));
        assert_eq!(kept, &data[data.len() - 1000..]);
        assert!(!over);
        let (kept, over) =
            Capped::head(std::io::Cursor::new(b"short".to_vec()), 1000).finish(Duration::ZERO);
        // A zero grace may miss the thread; what arrives is never more than was written.
        assert!(kept.is_empty() || kept == b"short");
        assert!(!over);
    }

    #[test]
    fn lines_arrive_whole_and_end_with_closed() {
        let rx = lines(std::io::Cursor::new(
            b"{\"id\":1}\n{\"id\":2}\nlast".to_vec(),
        ));
        let got: Vec<Line> = rx.iter().collect();
        assert_eq!(
            got,
            vec![
                Line::Text(b"{\"id\":1}".to_vec()),
                Line::Text(b"{\"id\":2}".to_vec()),
                Line::Text(b"last".to_vec()),
                Line::Closed
            ]
        );
    }

    #[test]
    fn a_tail_keeps_the_last_bytes_of_many_writes() {
        let mut kept = Vec::new();
        for i in 0..100u8 {
            keep_tail(&mut kept, &[i; 100], 250);
        }
        assert_eq!(kept.len(), 250);
        assert_eq!(kept[..50], [97u8; 50]);
        assert_eq!(kept[50..150], [98u8; 100]);
        assert_eq!(kept[150..], [99u8; 100]);
    }
}

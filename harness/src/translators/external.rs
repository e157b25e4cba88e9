//! `cmd:<command line>`: an external translator speaking the protocol of docs/translators.md.
//! dxdiff runs the command once per program through a guard ([`super::guard`]): the container
//! on stdin, one JSON document expected on stdout, within a timeout.

use std::any::Any;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use translator::{Manifest, Translation};

use super::guard::{Ending, unframe};
use super::{Failure, Part, Translator, Work, crash};

/// Time the guard gets beyond the translator's own timeout to kill what is left and answer.
const GUARD_GRACE: Duration = Duration::from_secs(5);

/// An external translator: a command line run through `sh -c`, once per program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct External {
    /// The command line after `cmd:`, run with `sh -c`.
    pub line: String,
    /// How long one program's translation may take before it counts as a crash.
    pub timeout: Duration,
}

impl Translator for External {
    fn name(&self) -> String {
        format!("cmd:{}", self.line)
    }

    fn translate(&self, blob: &[u8], _shader: &dxbc::Shader) -> Result<Translation, Failure> {
        let (stdout, stderr) = run_process(&self.line, self.timeout, blob)?;
        answer(&stdout, &stderr)
    }

    /// The process's wall time with its answer, and the same spawn with a command that only
    /// drains stdin, so the translator's own time is the difference.
    fn parts(&self) -> Vec<Part<'_>> {
        let blob = |b: &[u8]| Some(Box::new(b.to_vec()) as Box<dyn Any>);
        let spawn = move |line: &'static str| -> Work<'_> {
            Box::new(move |i| {
                if let Some(b) = i.downcast_ref::<Vec<u8>>() {
                    let l = if line.is_empty() { &self.line } else { line };
                    let _ = run_process(l, self.timeout, b);
                }
            })
        };
        vec![
            Part {
                name: "translation (per process)",
                setup: Box::new(blob),
                run: spawn(""),
            },
            Part {
                name: "process cost",
                setup: Box::new(blob),
                run: spawn("cat >/dev/null"),
            },
        ]
    }
}

/// The catalog id of a third party's refusal that names none: neutral, where
/// `dxdiff/not-lowered` describes the built-in translator.
pub const REFUSED: &str = "dxdiff/refused";

/// The protocol's answer on stdout.
#[derive(Debug, serde::Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
enum Answer {
    Ok {
        wgsl: String,
        manifest: Manifest,
        #[serde(default)]
        adaptations: Vec<String>,
    },
    Rejected {
        reason: String,
        /// The translator's own name for the refusal; [`REFUSED`] when it names none.
        #[serde(default)]
        catalog_id: Option<String>,
        #[serde(default)]
        instruction: Option<usize>,
    },
}

/// A thread that reads `pipe` to its end.
fn drain(mut pipe: impl Read + Send + 'static) -> std::sync::mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = pipe.read_to_end(&mut buf);
        let _ = tx.send(buf);
    });
    rx
}

/// Run `line` through `sh -c` behind a guard, with `blob` on stdin; its stdout and stderr
/// once it exits successfully within `timeout`. (`dxdiff bench` times this alone.)
pub fn run_process(
    line: &str,
    timeout: Duration,
    blob: &[u8],
) -> Result<(Vec<u8>, Vec<u8>), Failure> {
    let exe =
        std::env::current_exe().map_err(|e| crash(format!("cannot find dxdiff: {e}"), &[]))?;
    let mut guard = Command::new(exe)
        .args(["translator-guard", "--timeout-ms"])
        .arg(timeout.as_millis().to_string())
        .arg("--")
        .arg(line)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| crash(format!("cannot start the translator guard: {e}"), &[]))?;
    // Feed stdin on a thread, so a translator that never reads cannot block us; the write
    // fails once every reader is gone.
    if let Some(mut stdin) = guard.stdin.take() {
        let input = blob.to_vec();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
    let (Some(out), Some(err)) = (guard.stdout.take(), guard.stderr.take()) else {
        let _ = guard.kill();
        let _ = guard.wait();
        return Err(crash("the translator guard has no pipes", &[]));
    };
    let (out, err) = (drain(out), drain(err));
    let started = Instant::now();
    let deadline = timeout + GUARD_GRACE;
    loop {
        match guard.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
            }
            _ => {
                // The guard itself is stuck: kill it and do not wait for its pipes.
                let _ = guard.kill();
                let _ = guard.wait();
                return Err(crash(format!("no answer within {timeout:?}"), &[]));
            }
        }
    }
    // Only the guard, now gone, held these pipes.
    let grace = Duration::from_secs(2);
    let framed = out.recv_timeout(grace).unwrap_or_default();
    let stderr = err.recv_timeout(grace).unwrap_or_default();
    let Some((stdout, ending)) = unframe(&framed) else {
        return Err(crash("the translator guard gave no answer", &stderr));
    };
    match ending {
        Ending::Exited(0) => Ok((stdout.to_vec(), stderr)),
        Ending::Exited(code) => Err(crash(format!("exited with exit status: {code}"), &stderr)),
        Ending::TimedOut => Err(crash(format!("no answer within {timeout:?}"), &stderr)),
        Ending::CannotStart(why) => Err(crash(why, &stderr)),
    }
}

/// The protocol's answer, checked: JSON of the right shape, WGSL that naga validates, catalog
/// ids that exist.
pub(super) fn answer(stdout: &[u8], stderr: &[u8]) -> Result<Translation, Failure> {
    let answer: Answer = serde_json::from_slice(stdout)
        .map_err(|e| crash(format!("output is not the protocol's JSON: {e}"), stderr))?;
    match answer {
        Answer::Rejected {
            reason,
            catalog_id,
            instruction,
        } => Err(Failure::Rejected {
            catalog_id: catalog_id.unwrap_or_else(|| REFUSED.to_string()),
            reason,
            instruction,
        }),
        Answer::Ok {
            wgsl,
            manifest,
            mut adaptations,
        } => {
            translator::validate_enabling(&wgsl, &manifest.enables)
                .map_err(|e| super::invalid_wgsl(&e, stderr))?;
            // Buffers are sized from the manifest: check it before anything is allocated.
            manifest
                .check()
                .map_err(|e| crash(format!("its manifest cannot be fed: {e}"), stderr))?;
            let catalog = oracles::catalog::catalog();
            if let Some(unknown) = adaptations.iter().find(|id| catalog.get(id).is_none()) {
                return Err(crash(
                    format!("it claims `{unknown}`, which is not a catalog id"),
                    stderr,
                ));
            }
            adaptations.sort();
            adaptations.dedup();
            Ok(Translation {
                wgsl,
                manifest,
                adaptations,
            })
        }
    }
}

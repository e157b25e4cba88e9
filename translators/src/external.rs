//! `cmd:<command line>`: an external translator speaking the protocol of docs/translators.md.
//! dxdiff runs the command once per program through a guard ([`super::guard`]): the container
//! on stdin, one JSON document expected on stdout, within a timeout.

use std::any::Any;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use translator::{Manifest, Translation};

use super::guard::{Ending, unframe};
use super::pipes::{Capped, MAX_ANSWER, STDERR_KEPT};
use super::{Failure, Part, Translator, Work, crash};
use catalog::ids as id;

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
pub const REFUSED: &str = id::REFUSED;

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

/// Start `dxdiff translator-guard ARGS -- LINE` with every stream piped, in its own process
/// group, so that whatever outlives it (a translator that killed its guard) is still killed by
/// the group.
pub(crate) fn start_guard(args: &[&str], line: &str) -> Result<std::process::Child, Failure> {
    let exe =
        std::env::current_exe().map_err(|e| crash(format!("cannot find dxdiff: {e}"), &[]))?;
    Command::new(exe)
        .arg("translator-guard")
        .args(args)
        .arg("--")
        .arg(line)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| crash(format!("cannot start the translator guard: {e}"), &[]))
}

/// Run `line` through `sh -c` behind a guard, with `blob` on stdin; its stdout and stderr
/// once it exits successfully within `timeout`. (`dxdiff bench` times this alone.)
pub fn run_process(
    line: &str,
    timeout: Duration,
    blob: &[u8],
) -> Result<(Vec<u8>, Vec<u8>), Failure> {
    let millis = timeout.as_millis().to_string();
    let mut guard = start_guard(&["--timeout-ms", &millis], line)?;
    let group = guard.id();
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
    // The guard's frame is the answer and a few bytes; stderr is the translator's tail.
    let (out, err) = (
        Capped::head(out, MAX_ANSWER + 64),
        Capped::tail(err, STDERR_KEPT),
    );
    let started = Instant::now();
    let deadline = timeout + GUARD_GRACE;
    let stopped = loop {
        match guard.try_wait() {
            Ok(Some(status)) => break status.code().is_none(),
            Ok(None) if started.elapsed() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
            }
            _ => {
                // The guard itself is stuck: kill its group and do not wait for its pipes.
                kill_group(group);
                let _ = guard.kill();
                let _ = guard.wait();
                return Err(crash(format!("no answer within {timeout:?}"), &[]));
            }
        }
    };
    // A guard ended by a signal did not clean up: what it started may still run.
    if stopped {
        kill_group(group);
    }
    let grace = Duration::from_secs(2);
    let (framed, _) = out.finish(grace);
    let (stderr, _) = err.finish(grace);
    let Some((stdout, ending)) = unframe(&framed) else {
        return Err(crash(
            if stopped {
                "the translator guard was killed (by the translator?) before it answered"
            } else {
                "the translator guard gave no answer"
            },
            &stderr,
        ));
    };
    match ending {
        Ending::Exited(0) => Ok((stdout.to_vec(), stderr)),
        Ending::Exited(code) => Err(crash(format!("exited with exit status: {code}"), &stderr)),
        Ending::TimedOut => Err(crash(format!("no answer within {timeout:?}"), &stderr)),
        Ending::CannotStart(why) => Err(crash(why, &stderr)),
        Ending::TooLong(limit) => Err(crash(
            format!("it wrote more than {limit} bytes on stdout and was stopped"),
            &stderr,
        )),
    }
}

/// Kill every process of the group `leader` leads (the guard and all it started that did not
/// leave the group).
pub(crate) fn kill_group(leader: u32) {
    if let Ok(pid) = i32::try_from(leader) {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
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
            // The translator's words, shown on terminals and in reports, one line each.
            catalog_id: reports::text::one_line(&catalog_id.unwrap_or_else(|| REFUSED.to_string())),
            reason: reports::text::one_line(&reason),
            instruction,
        }),
        Answer::Ok {
            wgsl,
            manifest,
            mut adaptations,
        } => {
            let naga_unreadable = match super::wgsl::judge(&wgsl, &manifest.enables) {
                Ok(super::wgsl::Judged::Naga) => None,
                Ok(super::wgsl::Judged::TintOnly(why)) => Some(why),
                Err(why) => {
                    return Err(crash(format!("its WGSL does not validate: {why}"), stderr));
                }
            };
            // Buffers are sized from the manifest: check it before anything is allocated.
            manifest
                .check()
                .map_err(|e| crash(format!("its manifest cannot be fed: {e}"), stderr))?;
            // A manifest that contradicts its own WGSL would feed nothing (a run of zeros that
            // looks inconclusive or, worse, passes): the translator's failure.
            if naga_unreadable.is_none() {
                let text = translator::compat::for_naga(&wgsl).0;
                if let Ok(module) = naga::front::wgsl::parse_str(&text)
                    && let Some(why) = manifest.contradicts(&module)
                {
                    return Err(crash(
                        format!("its manifest contradicts its WGSL: {why}"),
                        stderr,
                    ));
                }
            }
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
                naga_unreadable,
            })
        }
    }
}

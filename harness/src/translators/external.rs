//! The translator under test: the built-in one with a profile, or any external command that
//! speaks the protocol of docs/translators.md (`cmd:<command line>`). A translation either
//! succeeds (WGSL that naga validates, a binding manifest, the catalog ids relied on), is a
//! fail-closed rejection naming a catalog id, or is a translator crash: a non-zero exit, a
//! timeout, output that is not the protocol's JSON, or WGSL that does not validate. A crash is
//! an outcome with the translator's stderr; it never stops a run.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use translator::{Manifest, Profile, Translation};

/// Default time an external translator gets per program.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Stderr kept from a crashed translator.
const STDERR_KEPT: usize = 4096;

/// Which translator runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Translator {
    Builtin(Profile),
    /// A command line run through `sh -c`, once per program.
    Command {
        line: String,
        timeout: Duration,
    },
    /// vkd3d-shader through `dxdiff vkd3d-adapter` (the same protocol, in a child).
    Vkd3d {
        timeout: Duration,
    },
}

/// Why a program has no translation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    #[error("rejected by the translator [{catalog_id}]: {reason}")]
    Rejected {
        catalog_id: String,
        reason: String,
        instruction: Option<usize>,
    },
    #[error("translator crash: {why}{}", if stderr.is_empty() { String::new() } else { format!(" (stderr: {})", stderr.trim()) })]
    Crashed { why: String, stderr: String },
}

impl Failure {
    /// A stable code for reports.
    pub fn code(&self) -> &'static str {
        match self {
            Failure::Rejected { .. } => "translator.rejected",
            Failure::Crashed { .. } => "translator.crash",
        }
    }
}

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
        catalog_id: String,
        #[serde(default)]
        instruction: Option<usize>,
    },
}

impl Translator {
    /// `builtin` (with `profile`) or `cmd:<command line>`.
    pub fn parse(spec: &str, profile: &str, timeout: Duration) -> Result<Translator, String> {
        if spec == "builtin" {
            return Profile::parse(profile)
                .map(Translator::Builtin)
                .ok_or_else(|| format!("unknown profile `{profile}` (contract or exact)"));
        }
        if spec == "vkd3d" {
            return Ok(Translator::Vkd3d { timeout });
        }
        if let Some(line) = spec.strip_prefix("cmd:") {
            if line.trim().is_empty() {
                return Err("`cmd:` needs a command line".into());
            }
            return Ok(Translator::Command {
                line: line.to_string(),
                timeout,
            });
        }
        Err(format!(
            "unknown translator `{spec}` (builtin, vkd3d or cmd:<command line>)"
        ))
    }

    /// How reports name it: `builtin/contract`, `cmd:<line>`.
    pub fn name(&self) -> String {
        match self {
            Translator::Builtin(p) => format!("builtin/{p}"),
            Translator::Command { line, .. } => format!("cmd:{line}"),
            Translator::Vkd3d { .. } => "vkd3d".into(),
        }
    }

    /// Translate one program (`blob` is its container, `shader` the decoded form).
    pub fn translate(&self, blob: &[u8], shader: &dxbc::Shader) -> Result<Translation, Failure> {
        match self {
            Translator::Builtin(p) => {
                // Emitting and validating apart: WGSL that naga rejects is the translator's
                // failure (a crash), the same rule as for an external translator.
                let t =
                    translator::emit_unvalidated(shader, *p).map_err(|r| Failure::Rejected {
                        catalog_id: r.catalog_id,
                        reason: r.reason,
                        instruction: r.instruction,
                    })?;
                translator::validate(&t.wgsl)
                    .map_err(|e| crash(format!("its WGSL does not validate: {e}"), &[]))?;
                Ok(t)
            }
            Translator::Command { line, timeout } => run_command(line, *timeout, blob),
            Translator::Vkd3d { timeout } => {
                let exe = std::env::current_exe()
                    .map_err(|e| crash(format!("cannot find dxdiff: {e}"), &[]))?;
                let quoted = exe.display().to_string().replace('\'', "'\\''");
                run_command(&format!("'{quoted}' vkd3d-adapter"), *timeout, blob)
            }
        }
    }
}

/// Kill a whole process group (the translator's shell and everything it started).
fn kill_group(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pid}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

fn crash(why: impl Into<String>, stderr: &[u8]) -> Failure {
    let text = String::from_utf8_lossy(stderr);
    let start = text.len().saturating_sub(STDERR_KEPT);
    let start = (start..text.len())
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(text.len());
    Failure::Crashed {
        why: why.into(),
        stderr: text[start..].to_string(),
    }
}

/// Run the external command: the container on stdin, one JSON document on stdout.
fn run_command(line: &str, timeout: Duration, blob: &[u8]) -> Result<Translation, Failure> {
    let (stdout, stderr) = run_process(line, timeout, blob)?;
    answer(&stdout, &stderr)
}

/// Run `line` through `sh -c` in its own process group with `blob` on stdin; its stdout and
/// stderr once it exits successfully within `timeout`. (`dxdiff bench` times this alone.)
pub fn run_process(
    line: &str,
    timeout: Duration,
    blob: &[u8],
) -> Result<(Vec<u8>, Vec<u8>), Failure> {
    let mut child = Command::new("sh")
        .args(["-c", line])
        // Its own process group, so a timeout kills what the shell started too.
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| crash(format!("cannot start `{line}`: {e}"), &[]))?;
    // Feed stdin and drain both pipes on threads, so a translator that writes a lot before
    // reading, or never reads, cannot deadlock the run.
    let mut stdin = child.stdin.take();
    let input = blob.to_vec();
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(&input);
        }
        drop(stdin);
    });
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if started.elapsed() >= timeout => {
                kill_group(child.id());
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    let Some(status) = status else {
        // A grandchild that escaped the group may still hold the pipes: do not wait for them.
        return Err(crash(format!("no answer within {timeout:?}"), &[]));
    };
    let _ = writer.join();
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    if !status.success() {
        return Err(crash(format!("exited with {status}"), &stderr));
    }
    Ok((stdout, stderr))
}

/// The protocol's answer, checked: JSON of the right shape, WGSL that naga validates, catalog
/// ids that exist.
fn answer(stdout: &[u8], stderr: &[u8]) -> Result<Translation, Failure> {
    let answer: Answer = serde_json::from_slice(stdout)
        .map_err(|e| crash(format!("output is not the protocol's JSON: {e}"), stderr))?;
    match answer {
        Answer::Rejected {
            reason,
            catalog_id,
            instruction,
        } => Err(Failure::Rejected {
            catalog_id,
            reason,
            instruction,
        }),
        Answer::Ok {
            wgsl,
            manifest,
            mut adaptations,
        } => {
            translator::validate(&wgsl)
                .map_err(|e| crash(format!("its WGSL does not validate: {e}"), stderr))?;
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

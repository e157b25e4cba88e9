//! GPU work in a child process. A hung dispatch or a driver crash ends the child, not the run:
//! the client gets a `Timeout` or `DeviceLost` error for that request, and the next request
//! starts a fresh worker. The protocol is one JSON line per request and per response over the
//! worker's stdin and stdout.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use translator::Manifest;

use super::{ComputeInputs, Gpu, GpuError, KernelOutput, Phases, Records};

/// One kernel to run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    /// The compute module: the translation itself, or its wrapped kernel.
    pub wgsl: String,
    /// The compute entry point to dispatch.
    pub entry_point: String,
    /// Which DXBC register each group-0 binding stands for.
    pub manifest: Manifest,
    /// The group-0 buffers' contents.
    pub inputs: ComputeInputs,
    /// Workgroups to dispatch (x, y, z).
    pub groups: [u32; 3],
    /// Per-invocation records, for wrapped pixel/vertex kernels.
    pub records: Option<Records>,
}

/// A worker's answer. An error travels as its stable code and detail
/// ([`GpuError::code`], [`GpuError::detail`]) and is rebuilt by [`GpuError::from_wire`].
#[derive(Debug, Clone, Serialize, Deserialize)]
enum Response {
    Ok(KernelOutput),
    Err { code: String, message: String },
}

impl Response {
    fn error(e: &GpuError) -> Response {
        Response::Err {
            code: e.code().into(),
            message: e.detail(),
        }
    }
}

/// The worker's main loop: open the device, then answer requests until stdin closes. The first
/// line it prints is the adapter description (or the error that prevented opening one).
pub fn serve(adapter: &str) -> i32 {
    let mut gpu = match Gpu::new(adapter) {
        Ok(g) => g,
        Err(e) => {
            println!(
                "{}",
                serde_json::json!({ "error": e.code(), "message": e.detail() })
            );
            return 4;
        }
    };
    println!(
        "{}",
        serde_json::json!({ "adapter": gpu.info.name, "type": format!("{:?}", gpu.info.device_type), "driver": gpu.info.driver_info })
    );
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        // A test hook: a worker that dies mid-request, as a crashing driver would.
        if std::env::var_os("DXDIFF_GPU_WORKER_ABORT").is_some() {
            std::process::abort();
        }
        let response = match serde_json::from_str::<Request>(&line) {
            Err(e) => Response::error(&GpuError::Device(format!("bad request: {e}"))),
            Ok(r) => match gpu.run_kernel(
                &r.wgsl,
                &r.entry_point,
                &r.manifest,
                &r.inputs,
                r.groups,
                r.records.as_ref(),
            ) {
                Ok(out) => Response::Ok(out),
                Err(e) => Response::error(&e),
            },
        };
        let Ok(text) = serde_json::to_string(&response) else {
            break;
        };
        if writeln!(std::io::stdout(), "{text}")
            .and_then(|()| std::io::stdout().flush())
            .is_err()
        {
            break;
        }
    }
    0
}

struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// The client side: starts `dxdiff gpu-worker` on demand and restarts it after a failure.
pub struct IsolatedGpu {
    adapter: String,
    worker: Option<Worker>,
    /// How long one request may take before the worker is killed.
    pub timeout: Duration,
    /// The adapter the current worker opened.
    pub description: String,
    /// Where the time of every request so far went.
    pub phases: Phases,
}

impl std::fmt::Debug for IsolatedGpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IsolatedGpu")
            .field("adapter", &self.description)
            .finish()
    }
}

impl IsolatedGpu {
    /// Start a worker now, so that a missing adapter is reported before any work.
    pub fn new(adapter: &str) -> Result<IsolatedGpu, GpuError> {
        let mut g = IsolatedGpu {
            adapter: adapter.to_string(),
            worker: None,
            timeout: Duration::from_secs(30),
            description: String::new(),
            phases: Phases::default(),
        };
        g.start()?;
        Ok(g)
    }

    fn start(&mut self) -> Result<(), GpuError> {
        let exe = std::env::current_exe()
            .map_err(|e| GpuError::Device(format!("cannot find dxdiff: {e}")))?;
        let mut cmd = Command::new(exe);
        // Mesa's device-select layer prints `XDG_RUNTIME_DIR is invalid` to stderr when it is
        // not set (CI, containers); wgpu picks the adapter itself, so the layer adds nothing.
        // A user who set NODEVICE_SELECT keeps their choice.
        if std::env::var_os("NODEVICE_SELECT").is_none() {
            cmd.env("NODEVICE_SELECT", "1");
        }
        let mut child = cmd
            .args(["gpu-worker", "--adapter", &self.adapter])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| GpuError::Device(format!("cannot start the GPU worker: {e}")))?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => return Err(GpuError::Device("the GPU worker has no pipes".into())),
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let hello = rx
            .recv_timeout(self.timeout)
            .map_err(|_| GpuError::Device("the GPU worker did not start".into()))?;
        let v: serde_json::Value = serde_json::from_str(&hello).unwrap_or_default();
        if let Some(code) = v.get("error").and_then(|k| k.as_str()) {
            let _ = child.wait();
            let message = v
                .get("message")
                .and_then(|m| m.as_str())
                .unwrap_or("")
                .to_string();
            return Err(GpuError::from_wire(code, message));
        }
        self.description = format!(
            "{} ({}, {})",
            v["adapter"].as_str().unwrap_or("?"),
            v["type"].as_str().unwrap_or("?"),
            v["driver"].as_str().unwrap_or("?")
        );
        self.worker = Some(Worker {
            child,
            stdin,
            lines: rx,
        });
        Ok(())
    }

    fn kill(&mut self) {
        if let Some(mut w) = self.worker.take() {
            let _ = w.child.kill();
            let _ = w.child.wait();
        }
    }

    /// Run one kernel in the worker.
    pub fn run(&mut self, request: &Request) -> Result<KernelOutput, GpuError> {
        let started = std::time::Instant::now();
        let out = self.request(request, started);
        if out.is_err() {
            self.phases.failed += started.elapsed().as_secs_f64();
        }
        out
    }

    fn request(
        &mut self,
        request: &Request,
        started: std::time::Instant,
    ) -> Result<KernelOutput, GpuError> {
        if self.worker.is_none() {
            self.start()?;
        }
        let text = serde_json::to_string(request).map_err(|e| GpuError::Device(e.to_string()))?;
        let Some(w) = self.worker.as_mut() else {
            return Err(GpuError::Device("no GPU worker".into()));
        };
        if writeln!(w.stdin, "{text}")
            .and_then(|()| w.stdin.flush())
            .is_err()
        {
            self.kill();
            return Err(GpuError::DeviceLost("the GPU worker exited".into()));
        }
        match w.lines.recv_timeout(self.timeout) {
            Ok(line) => match serde_json::from_str::<Response>(&line) {
                Ok(Response::Ok(mut out)) => {
                    out.phases.transfer =
                        (started.elapsed().as_secs_f64() - out.phases.worker_total()).max(0.0);
                    self.phases.add(&out.phases);
                    Ok(out)
                }
                Ok(Response::Err { code, message }) => {
                    let e = GpuError::from_wire(&code, message);
                    // After a timeout or a loss the device may still be busy with (or broken
                    // by) the last dispatch: the next request gets a fresh worker.
                    if matches!(e, GpuError::Timeout(_) | GpuError::DeviceLost(_)) {
                        self.kill();
                    }
                    Err(e)
                }
                Err(e) => {
                    self.kill();
                    Err(GpuError::DeviceLost(format!(
                        "the GPU worker answered garbage: {e}"
                    )))
                }
            },
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(GpuError::Timeout(self.timeout))
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.worker.as_mut().and_then(|w| w.child.wait().ok());
                self.worker = None;
                Err(GpuError::DeviceLost(format!(
                    "the GPU worker died ({status:?})"
                )))
            }
        }
    }
}

impl Drop for IsolatedGpu {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_error() -> Vec<GpuError> {
        vec![
            GpuError::NoAdapter("none".into()),
            GpuError::Device("d".into()),
            GpuError::Validation("v".into()),
            GpuError::Unfeedable("u".into()),
            GpuError::Timeout(Duration::from_millis(1500)),
            GpuError::DeviceLost("l".into()),
        ]
    }

    #[test]
    fn gpu_error_codes_are_distinct_and_not_empty() {
        let all = every_error();
        let codes: std::collections::BTreeSet<_> = all.iter().map(GpuError::code).collect();
        assert_eq!(codes.len(), all.len());
        assert!(codes.iter().all(|c| !c.is_empty()));
    }

    #[test]
    fn errors_round_trip_through_the_worker_pipe() {
        for e in every_error() {
            let line = serde_json::to_string(&Response::error(&e)).expect("serializes");
            let Ok(Response::Err { code, message }) = serde_json::from_str::<Response>(&line)
            else {
                panic!("not an error response: {line}");
            };
            assert_eq!(GpuError::from_wire(&code, message), e);
        }
        assert!(matches!(
            GpuError::from_wire("gpu.something-new", "x".into()),
            GpuError::DeviceLost(_)
        ));
    }
}

//! GPU work in a child process. A hung dispatch or a driver crash ends the child, not the run:
//! the client gets a `Timeout` or `DeviceLost` error for that request, and the next request
//! starts a fresh worker. Requests and responses travel as frames over the worker's stdin and
//! stdout ([`super::wire`]): a JSON header with the control data, and the buffers' words raw.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{BufReader, BufWriter};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use translator::Manifest;

use super::storage::Element;
use super::wire::{Frame, WireError, read_frame, write_frame};
use super::{
    BindingClass, ComputeInputs, Gpu, GpuError, KernelOutput, Phases, Records, TextureShape,
};

/// One kernel to run.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The compute module: the translation itself, or its wrapped kernel.
    pub wgsl: String,
    /// The compute entry point to dispatch.
    pub entry_point: String,
    /// Which DXBC register each binding stands for, and where the WGSL declares it.
    pub manifest: Manifest,
    /// The bound buffers' contents.
    pub inputs: ComputeInputs,
    /// Workgroups to dispatch (x, y, z).
    pub groups: [u32; 3],
    /// Per-invocation records, for wrapped pixel/vertex kernels.
    pub records: Option<Records>,
}

/// A request's JSON header: everything but the words, and what each word array is. The
/// arrays follow in this order: constant buffers, SRVs, UAVs (each by register), then the
/// input records and the lane buffers.
#[derive(Serialize, Deserialize)]
struct RequestHead<'a> {
    wgsl: Cow<'a, str>,
    entry_point: Cow<'a, str>,
    manifest: Cow<'a, Manifest>,
    groups: [u32; 3],
    /// Constant-buffer registers.
    cbs: Vec<u32>,
    /// SRV registers and view sizes in bytes.
    srvs: Vec<(u32, u32)>,
    /// UAV registers and view sizes in bytes.
    uavs: Vec<(u32, u32)>,
    /// Typed elements (`ComputeInputs::elements`).
    #[serde(default)]
    elements: Vec<((BindingClass, u32), Element)>,
    /// Sampled texture registers and shapes (`ComputeInputs::textures`).
    #[serde(default)]
    textures: Vec<(u32, TextureShape)>,
    /// Sampler states (`ComputeInputs::samplers`).
    #[serde(default)]
    samplers: Vec<(u32, super::SamplerState)>,
    /// Typed UAV textures' shapes (`ComputeInputs::uav_textures`).
    #[serde(default)]
    uav_textures: Vec<(u32, TextureShape)>,
    /// Hidden counters' initial counts (`ComputeInputs::counters`).
    #[serde(default)]
    counters: Vec<(u32, u32)>,
    /// Output record words, the number of lane buffers and the records' bind group, for a
    /// wrapped kernel.
    records: Option<(u32, usize, u32)>,
    /// The grid of a fragment kernel's draw (`Records::grid`).
    #[serde(default)]
    grid: Option<[u32; 2]>,
}

impl Request {
    /// The request as a frame's header and word arrays.
    fn encode(&self) -> Result<(Vec<u8>, Vec<&[u32]>), GpuError> {
        let i = &self.inputs;
        let head = RequestHead {
            wgsl: Cow::Borrowed(&self.wgsl),
            entry_point: Cow::Borrowed(&self.entry_point),
            manifest: Cow::Borrowed(&self.manifest),
            groups: self.groups,
            cbs: i.cbs.keys().copied().collect(),
            srvs: i.srvs.iter().map(|(k, (_, n))| (*k, *n)).collect(),
            uavs: i.uavs.iter().map(|(k, (_, n))| (*k, *n)).collect(),
            elements: i.elements.iter().map(|(k, e)| (*k, *e)).collect(),
            textures: i.textures.iter().map(|(k, (s, _))| (*k, *s)).collect(),
            samplers: i.samplers.iter().map(|(k, s)| (*k, *s)).collect(),
            uav_textures: i.uav_textures.iter().map(|(k, s)| (*k, *s)).collect(),
            counters: i.counters.iter().map(|(k, c)| (*k, *c)).collect(),
            records: self
                .records
                .as_ref()
                .map(|r| (r.out_words, r.lane_buffers.len(), r.group)),
            grid: self.records.as_ref().and_then(|r| r.grid),
        };
        let mut words: Vec<&[u32]> = i.cbs.values().map(Vec::as_slice).collect();
        words.extend(i.srvs.values().map(|(w, _)| w.as_slice()));
        words.extend(i.uavs.values().map(|(w, _)| w.as_slice()));
        words.extend(i.textures.values().map(|(_, w)| w.as_slice()));
        if let Some(r) = &self.records {
            words.push(&r.input);
            words.extend(r.lane_buffers.iter().map(Vec::as_slice));
        }
        let header = serde_json::to_vec(&head).map_err(|e| GpuError::Device(e.to_string()))?;
        Ok((header, words))
    }

    /// The request a frame carries.
    fn decode(f: Frame) -> Result<Request, String> {
        let head: RequestHead<'_> =
            serde_json::from_slice(&f.header).map_err(|e| format!("bad request: {e}"))?;
        let mut words = f.words.into_iter();
        let mut next = || words.next().ok_or("bad request: too few word arrays");
        let mut inputs = ComputeInputs::default();
        for k in head.cbs {
            inputs.cbs.insert(k, next()?);
        }
        for (k, n) in head.srvs {
            inputs.srvs.insert(k, (next()?, n));
        }
        for (k, n) in head.uavs {
            inputs.uavs.insert(k, (next()?, n));
        }
        for (k, shape) in head.textures {
            inputs.textures.insert(k, (shape, next()?));
        }
        inputs.elements = head.elements.into_iter().collect();
        inputs.samplers = head.samplers.into_iter().collect();
        inputs.uav_textures = head.uav_textures.into_iter().collect();
        inputs.counters = head.counters.into_iter().collect();
        let records = match head.records {
            Some((out_words, lanes, group)) => Some(Records {
                group,
                input: next()?,
                out_words,
                lane_buffers: (0..lanes).map(|_| next()).collect::<Result<_, _>>()?,
                grid: head.grid,
            }),
            None => None,
        };
        Ok(Request {
            wgsl: head.wgsl.into_owned(),
            entry_point: head.entry_point.into_owned(),
            manifest: head.manifest.into_owned(),
            inputs,
            groups: head.groups,
            records,
        })
    }
}

/// A response's JSON header. `Ok`'s word arrays are the UAVs (by register) and then the
/// output records. An error travels as its stable code and detail ([`GpuError::code`],
/// [`GpuError::detail`]) and is rebuilt by [`GpuError::from_wire`].
#[derive(Debug, Clone, Serialize, Deserialize)]
enum ResponseHead {
    Ok {
        uavs: Vec<u32>,
        records: bool,
        phases: Phases,
    },
    Err {
        code: String,
        message: String,
    },
}

/// A worker's answer as a frame's header and word arrays.
fn encode_response(r: &Result<KernelOutput, GpuError>) -> (Vec<u8>, Vec<&[u32]>) {
    let (head, words) = match r {
        Ok(out) => {
            let mut words: Vec<&[u32]> = out.uavs.values().map(Vec::as_slice).collect();
            words.extend(out.records.as_deref());
            (
                ResponseHead::Ok {
                    uavs: out.uavs.keys().copied().collect(),
                    records: out.records.is_some(),
                    phases: out.phases,
                },
                words,
            )
        }
        Err(e) => (
            ResponseHead::Err {
                code: e.code().into(),
                message: e.detail(),
            },
            Vec::new(),
        ),
    };
    (serde_json::to_vec(&head).unwrap_or_default(), words)
}

/// The answer a frame carries: the output, or the error as its code and detail.
fn decode_response(f: Frame) -> Result<Result<KernelOutput, GpuError>, String> {
    let head: ResponseHead =
        serde_json::from_slice(&f.header).map_err(|e| format!("a bad response: {e}"))?;
    let mut words = f.words.into_iter();
    match head {
        ResponseHead::Ok {
            uavs,
            records,
            phases,
        } => {
            let mut out = KernelOutput {
                uavs: BTreeMap::new(),
                records: None,
                phases,
            };
            for k in uavs {
                out.uavs
                    .insert(k, words.next().ok_or("a response without its UAV words")?);
            }
            if records {
                out.records = Some(words.next().ok_or("a response without its records")?);
            }
            Ok(Ok(out))
        }
        ResponseHead::Err { code, message } => Ok(Err(GpuError::from_wire(&code, message))),
    }
}

/// Write one frame to stdout; false when the pipe is gone.
fn send(header: &[u8], words: &[&[u32]]) -> bool {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    write_frame(&mut lock, header, words).is_ok()
}

/// The environment variable through which dxdiff names itself to the workers it starts.
const PARENT_ENV: &str = "DXDIFF_GPU_PARENT";

/// Have the kernel kill this worker when the dxdiff that started it dies; `false` when it is
/// already gone. A worker whose dxdiff was killed (`kill -9`, a crash) mid-request otherwise
/// runs on: a hung kernel never lets it read the closed pipe, and nothing is left to time it
/// out (20 orphans of `kill_9_twenty_times` each spun 10 % of a core for half an hour). The
/// signal follows the spawning thread, which owns the worker for its whole life (a session).
#[cfg(target_os = "linux")]
fn die_with_parent() -> bool {
    let _ = nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL);
    // Its dxdiff may have died before the request to be killed with it: then the worker has
    // another parent than the one that named itself.
    let named = std::env::var(PARENT_ENV)
        .ok()
        .and_then(|p| p.parse::<i32>().ok());
    named.is_none_or(|p| nix::unistd::getppid().as_raw() == p)
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent() -> bool {
    true
}

/// The worker's main loop: open the device, then answer requests until stdin closes. The first
/// frame it writes is the adapter description (or the error that prevented opening one).
pub fn serve(adapter: &str) -> i32 {
    if !die_with_parent() {
        return 0;
    }
    // `gpu-worker --adapter list`: the device names, then done.
    if adapter == LIST {
        let names = serde_json::json!({ "devices": super::device_names() });
        send(names.to_string().as_bytes(), &[]);
        return 0;
    }
    let mut gpu = match Gpu::new(adapter) {
        Ok(g) => g,
        Err(e) => {
            let hello = serde_json::json!({ "error": e.code(), "message": e.detail() });
            send(hello.to_string().as_bytes(), &[]);
            return 4;
        }
    };
    let hello = serde_json::json!({ "adapter": gpu.info.name, "type": format!("{:?}", gpu.info.device_type), "driver": gpu.info.driver_info });
    if !send(hello.to_string().as_bytes(), &[]) {
        return 0;
    }
    let mut stdin = BufReader::with_capacity(1 << 16, std::io::stdin());
    // A request that cannot be read ends the loop: the pipe is closed or out of step.
    while let Ok(frame) = read_frame(&mut stdin) {
        // A test hook: a worker that dies mid-request, as a crashing driver would.
        if std::env::var_os("DXDIFF_GPU_WORKER_ABORT").is_some() {
            std::process::abort();
        }
        let result = match Request::decode(frame) {
            Err(e) => Err(GpuError::Device(e)),
            Ok(r) => gpu.run_kernel(
                &r.wgsl,
                &r.entry_point,
                &r.manifest,
                &r.inputs,
                r.groups,
                r.records.as_ref(),
            ),
        };
        let (header, words) = encode_response(&result);
        if !send(&header, &words) {
            break;
        }
    }
    0
}

struct Worker {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    frames: Receiver<Result<Frame, WireError>>,
}

/// The worker's `--adapter` value that lists the devices instead of opening one.
const LIST: &str = "list";

/// The devices `--adapter all` spreads work over (every GPU, or lavapipe alone), asked of a
/// worker process so that a driver that crashes while enumerating ends the child, not the run.
pub fn devices() -> Result<Vec<String>, GpuError> {
    let exe = std::env::current_exe()
        .map_err(|e| GpuError::Device(format!("cannot find dxdiff: {e}")))?;
    let mut cmd = Command::new(exe);
    if std::env::var_os("NODEVICE_SELECT").is_none() {
        cmd.env("NODEVICE_SELECT", "1");
    }
    let out = cmd
        .args(["gpu-worker", "--adapter", LIST])
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| GpuError::Device(format!("cannot start the GPU worker: {e}")))?;
    let frame = read_frame(&mut out.stdout.as_slice())
        .map_err(|e| GpuError::Device(format!("the GPU worker's device list: {e}")))?;
    let v: serde_json::Value = serde_json::from_slice(&frame.header).unwrap_or_default();
    let names: Vec<String> = v["devices"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|n| n.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    if names.is_empty() {
        return Err(GpuError::NoAdapter(
            "no Vulkan adapter (install mesa-vulkan-drivers for lavapipe)".into(),
        ));
    }
    Ok(names)
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
            .env(PARENT_ENV, std::process::id().to_string())
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
            let mut r = BufReader::with_capacity(1 << 16, stdout);
            loop {
                let f = read_frame(&mut r);
                let end = f.is_err();
                if tx.send(f).is_err() || end {
                    break;
                }
            }
        });
        let hello = match rx.recv_timeout(self.timeout) {
            Ok(Ok(f)) => f.header,
            _ => return Err(GpuError::Device("the GPU worker did not start".into())),
        };
        let v: serde_json::Value = serde_json::from_slice(&hello).unwrap_or_default();
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
            stdin: BufWriter::with_capacity(1 << 16, stdin),
            frames: rx,
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
        let (header, words) = request.encode()?;
        let Some(w) = self.worker.as_mut() else {
            return Err(GpuError::Device("no GPU worker".into()));
        };
        if write_frame(&mut w.stdin, &header, &words).is_err() {
            self.kill();
            return Err(GpuError::DeviceLost("the GPU worker exited".into()));
        }
        match w.frames.recv_timeout(self.timeout) {
            Ok(Ok(frame)) => match decode_response(frame) {
                Ok(Ok(mut out)) => {
                    out.phases.transfer =
                        (started.elapsed().as_secs_f64() - out.phases.worker_total()).max(0.0);
                    self.phases.add(&out.phases);
                    Ok(out)
                }
                Ok(Err(e)) => {
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
            // The pipe closed (the worker died) or went out of step.
            Ok(Err(WireError::Io(_))) | Err(RecvTimeoutError::Disconnected) => {
                let status = self.worker.as_mut().and_then(|w| w.child.wait().ok());
                self.worker = None;
                Err(GpuError::DeviceLost(format!(
                    "the GPU worker died ({status:?})"
                )))
            }
            Ok(Err(e)) => {
                self.kill();
                Err(GpuError::DeviceLost(format!(
                    "the GPU worker answered garbage: [{}] {e}",
                    e.code()
                )))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(GpuError::Timeout(self.timeout))
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
            let answer = Err(e.clone());
            let (header, words) = encode_response(&answer);
            let mut buf = Vec::new();
            write_frame(&mut buf, &header, &words).expect("writes");
            let frame = read_frame(&mut buf.as_slice()).expect("reads");
            match decode_response(frame) {
                Ok(Err(back)) => assert_eq!(back, e),
                other => panic!("not an error response: {other:?}"),
            }
        }
        assert!(matches!(
            GpuError::from_wire("gpu.something-new", "x".into()),
            GpuError::DeviceLost(_)
        ));
    }

    /// A request's and a response's words cross the pipe raw and come back in their places.
    #[test]
    fn requests_and_outputs_round_trip_through_frames() {
        let mut inputs = ComputeInputs::default();
        inputs.cbs.insert(2, vec![1, 2, 3]);
        inputs.srvs.insert(0, (vec![0x7fc0_0000; 5], 20));
        inputs.uavs.insert(1, (vec![], 0));
        inputs.uavs.insert(3, (vec![9; 4], 16));
        let request = Request {
            wgsl: "@compute @workgroup_size(1) fn main() {}".into(),
            entry_point: "main".into(),
            manifest: Manifest::default(),
            inputs,
            groups: [3, 1, 1],
            records: Some(Records {
                group: 2,
                input: vec![4, 5],
                out_words: 8,
                lane_buffers: vec![vec![6], vec![]],
                grid: Some([128, 2]),
            }),
        };
        let (header, words) = request.encode().expect("encodes");
        let mut buf = Vec::new();
        write_frame(&mut buf, &header, &words).expect("writes");
        let back = Request::decode(read_frame(&mut buf.as_slice()).expect("reads"));
        assert_eq!(back.as_ref(), Ok(&request));
        // A header that names more arrays than the frame has is refused, not a panic.
        let short = Frame {
            header,
            words: Vec::new(),
        };
        assert!(Request::decode(short).is_err());
        let mut uavs = BTreeMap::new();
        uavs.insert(1, vec![0xdead_beef]);
        uavs.insert(7, vec![]);
        let out = KernelOutput {
            uavs,
            records: Some(vec![1, 2]),
            phases: Phases::default(),
        };
        let answer = Ok(out.clone());
        let (header, words) = encode_response(&answer);
        let mut buf = Vec::new();
        write_frame(&mut buf, &header, &words).expect("writes");
        match decode_response(read_frame(&mut buf.as_slice()).expect("reads")) {
            Ok(Ok(back)) => assert_eq!(back, out),
            other => panic!("{other:?}"),
        }
    }
}

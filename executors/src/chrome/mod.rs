//! Chrome's WebGPU (Dawn and Tint) as a second kernel runner beside wgpu, and Tint as a
//! second gate. dxdiff starts the browser itself on a page it serves ([`server`]); the page
//! pulls jobs in batches and posts the words back. Every dispatch is planned by
//! [`crate::gpu::plan`] exactly as for wgpu, so the two runners differ only in the
//! implementation under them.
//!
//! Failures stay one job's: a job the page cannot finish in time is a `gpu.timeout` and the
//! GPU process is killed (Chrome starts a new one); a browser that dies or stops answering is
//! killed and restarted, its unanswered job is lost, and the others are served again.

mod browser;
pub mod gate;
mod server;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::gpu::executor::KernelRunner;
use crate::gpu::isolated::Request;
use crate::gpu::plan::{self, Plan, Slot};
use crate::gpu::wire::{Frame, write_frame};
use crate::gpu::{GpuError, KernelOutput, Phases, directive_enables, webgpu_feature};

use browser::Browser;
pub use browser::binary;
use server::Hub;

/// How long a start may take until the page says hello.
const START: Duration = Duration::from_secs(90);
/// How long past a job's own deadline the page may stay silent before the browser is killed.
const GRACE: Duration = Duration::from_secs(15);
/// How long the page's heartbeat may be silent before the page counts as crashed and the
/// browser is restarted; a job's own deadline is not waited for then.
const PAGE_SILENCE: Duration = Duration::from_secs(8);
/// Browser restarts one exchange may cost before its remaining jobs are given up.
const RESTARTS: usize = 2;

/// How to start and use the browser.
#[derive(Debug, Clone)]
pub struct ChromeOptions {
    /// The browser binary (`--chrome`); `None`: `$CHROME`, then `chromium` on `PATH`.
    pub binary: Option<PathBuf>,
    /// Further browser flags (`--chrome-flag`); one naming `--use-webgpu-adapter` replaces
    /// the default SwiftShader.
    pub flags: Vec<String>,
    /// How long one job may run on the device.
    pub timeout: Duration,
}

impl Default for ChromeOptions {
    fn default() -> ChromeOptions {
        ChromeOptions {
            binary: None,
            flags: Vec::new(),
            timeout: Duration::from_secs(30),
        }
    }
}

/// One message of Tint's `getCompilationInfo`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, Serialize)]
pub struct CompileMessage {
    /// `error`, `warning` or `info`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The message.
    pub message: String,
    /// 1-based line (0 when the message has no place).
    #[serde(default)]
    pub line: u64,
    /// 1-based column.
    #[serde(default)]
    pub column: u64,
}

/// A job's header as the page reads it.
#[derive(Debug, Serialize)]
struct JobHead<'a> {
    id: u64,
    kind: &'static str,
    wgsl: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    entry: &'a str,
    groups: [u32; 3],
    group_count: u32,
    timeout_ms: u64,
    bindings: Vec<JobBinding>,
    /// A fragment kernel's draw (`Records::grid`): the grid, and the covering vertex stage.
    #[serde(skip_serializing_if = "Option::is_none")]
    grid: Option<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cover: Option<&'static str>,
}

/// One binding of a job: how the page declares, fills and reads it back.
#[derive(Debug, Serialize)]
struct JobBinding {
    group: u32,
    binding: u32,
    /// `uniform`, `storage`, `read-only-storage`, `storage-texture`, `sampled-texture` or
    /// `sampler`.
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    access: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dimension: Option<&'static str>,
    width: u32,
    /// A texture's height (0 for others), and a sampled texture's mip levels (0 otherwise).
    height: u32,
    mips: u32,
    /// A texture's layers or 3D slices (0 for others).
    layers: u32,
    /// A texture's bytes per texel (0 for others).
    texel_bytes: u32,
    /// A multisampled texture's fill program (`layers` its samples).
    #[serde(skip_serializing_if = "Option::is_none")]
    fill: Option<String>,
    /// A sampled texture's sample type: `float`, `uint`, `sint`, or `float32` (filterable
    /// only where the device has `float32-filterable`).
    #[serde(skip_serializing_if = "Option::is_none")]
    sample_type: Option<&'static str>,
    /// A sampler's filter (`nearest` or `linear`) and address modes.
    #[serde(skip_serializing_if = "Option::is_none")]
    filter: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    address: Option<[&'static str; 3]>,
    /// A sampler's `lodMinClamp` and `lodMaxClamp`.
    #[serde(skip_serializing_if = "Option::is_none")]
    lod_clamp: Option<[f32; 2]>,
    /// A comparison sampler's function (`less-equal`).
    #[serde(skip_serializing_if = "Option::is_none")]
    compare: Option<String>,
    /// A sampler's `maxAnisotropy`.
    #[serde(skip_serializing_if = "Option::is_none")]
    max_anisotropy: Option<u16>,
    /// A sampler bound as `non-filtering` (`SamplerState::non_filtering`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    non_filtering: bool,
    /// Length in words.
    len: usize,
    back: bool,
}

fn job_bindings(plan: &Plan) -> Vec<JobBinding> {
    plan.bindings
        .iter()
        .map(|p| {
            // A storage texture's declaration; a sampled texture's shape and format.
            let (kind, texture, sampled) = match p.slot {
                Slot::Uniform => ("uniform", None, None),
                Slot::Storage { read_only: true } => ("read-only-storage", None, None),
                Slot::Storage { read_only: false } => ("storage", None, None),
                Slot::Texture {
                    texture,
                    width,
                    height,
                    layers,
                } => (
                    "storage-texture",
                    Some((texture, width, height, layers)),
                    None,
                ),
                Slot::Sampled { shape, texel } => ("sampled-texture", None, Some((shape, texel))),
                Slot::Sampler(_) => ("sampler", None, None),
            };
            let sampler = match p.slot {
                Slot::Sampler(s) => Some(s),
                _ => None,
            };
            let width = texture
                .map(|(_, w, _, _)| w)
                .or(sampled.map(|(s, _)| s.width));
            let storage_rows = texture.map(|(_, _, h, l)| (h, l));
            let texture = texture.map(|(t, _, _, _)| t);
            let fill = sampled
                .filter(|(s, _)| s.multisampled)
                .and_then(|(s, _)| crate::gpu::fill_wgsl(s.format, s.width, s.height));
            JobBinding {
                group: p.group,
                binding: p.binding,
                kind,
                height: storage_rows.map_or(sampled.map_or(0, |(s, _)| s.height), |(h, _)| h),
                mips: sampled.map_or(0, |(s, _)| s.mips),
                format: texture
                    .map(|t| t.format_name())
                    .or(sampled.map(|(s, _)| crate::gpu::texel_format_name(s.format))),
                fill,
                texel_bytes: texture
                    .map_or(sampled.map_or(0, |(s, _)| s.format.bytes() as u32), |t| {
                        4 * t.lanes()
                    }),
                sample_type: sampled.map(|(s, t)| match t {
                    crate::gpu::plan::Texel::Uint => "uint",
                    crate::gpu::plan::Texel::Sint => "sint",
                    crate::gpu::plan::Texel::Depth => "depth",
                    _ if s.format.always_filterable() => "float",
                    // 32-bit floats filter only with float32-filterable: the page decides.
                    _ => "float32",
                }),
                access: texture.map(|t| t.access_name()),
                dimension: texture
                    .map(|t| t.dimension_name())
                    .or(sampled.map(|(s, _)| s.view_dimension_name())),
                layers: storage_rows
                    .map_or(sampled.map_or(0, |(s, _)| s.layers.max(1)), |(_, l)| l),
                filter: sampler.map(|s| if s.linear { "linear" } else { "nearest" }),
                lod_clamp: sampler.map(|s| s.webgpu_lod_clamp()),
                compare: sampler.and_then(|s| s.compare_name()),
                max_anisotropy: sampler.map(|s| s.webgpu_anisotropy()),
                non_filtering: sampler.is_some_and(|s| s.non_filtering),
                address: sampler.map(|s| {
                    s.address.map(|a| match a {
                        oracles::interp::Address::Wrap => "repeat",
                        oracles::interp::Address::Mirror => "mirror-repeat",
                        _ => "clamp-to-edge",
                    })
                }),
                width: width.unwrap_or(0),
                len: p.words_len,
                back: p.back.is_some(),
            }
        })
        .collect()
}

/// The browser as a kernel runner.
#[derive(Debug)]
pub struct Chrome {
    opts: ChromeOptions,
    binary: PathBuf,
    hub: Arc<Hub>,
    port: u16,
    browser: Option<Browser>,
    log: PathBuf,
    next_id: u64,
    /// The adapter as the page reported it (`hello`): identity, features, limits.
    pub hello: serde_json::Value,
    /// The adapter, as reports name it.
    pub description: String,
    phases: Phases,
    /// Browser starts so far (the first included).
    pub starts: usize,
}

impl Drop for Chrome {
    fn drop(&mut self) {
        if let Some(b) = self.browser.take() {
            b.kill();
        }
        let _ = std::fs::remove_file(&self.log);
        crate::lifetime::release(&self.log);
    }
}

fn describe(hello: &serde_json::Value) -> String {
    let s = |k: &str| hello.get(k).and_then(|v| v.as_str()).unwrap_or("");
    let version = s("userAgent")
        .split_whitespace()
        .find_map(|w| w.split_once("Chrome/").map(|(_, v)| v))
        .unwrap_or("?");
    let fallback = hello.get("fallback").and_then(|f| f.as_bool()) == Some(true);
    let mut name = format!("{} {}", s("vendor"), s("architecture"));
    if !s("description").is_empty() {
        name = format!("{name}, {}", s("description"));
    }
    format!(
        "Chrome {version} WebGPU: {}{}",
        name.trim(),
        if fallback { " (fallback adapter)" } else { "" }
    )
}

impl Chrome {
    /// Start the server and the browser; an error when there is no browser or it offers no
    /// WebGPU adapter.
    pub fn new(opts: ChromeOptions) -> Result<Chrome, GpuError> {
        let binary = binary(opts.binary.as_deref()).ok_or_else(|| {
            GpuError::NoAdapter(
                "no browser: give --chrome PATH or set $CHROME, or install chromium".into(),
            )
        })?;
        let hub = Arc::new(Hub::default());
        let port = server::serve(hub.clone())
            .map_err(|e| GpuError::Device(format!("cannot serve the page: {e}")))?;
        // One log per runner: `--jobs J` starts several in one process.
        static RUNNERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = RUNNERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let log = std::env::temp_dir().join(format!(
            "{}{}-r{n}.log",
            browser::PROFILE_PREFIX,
            std::process::id()
        ));
        crate::lifetime::own(None, &log);
        let mut c = Chrome {
            opts,
            binary,
            hub,
            port,
            browser: None,
            log,
            next_id: 0,
            hello: serde_json::Value::Null,
            description: String::new(),
            phases: Phases::default(),
            starts: 0,
        };
        c.start()?;
        Ok(c)
    }

    /// The browser's process id (its process group), while it runs.
    pub fn browser_pid(&self) -> Option<u32> {
        self.browser.as_ref().map(Browser::pid)
    }

    fn start(&mut self) -> Result<(), GpuError> {
        if let Some(b) = self.browser.take() {
            b.kill();
        }
        let generation = {
            let mut s = self.hub.lock();
            s.generation += 1;
            s.hello = None;
            s.seen = None;
            s.pulled.clear();
            s.stuck = false;
            s.generation
        };
        let url = format!("http://127.0.0.1:{}/g/{generation}/", self.port);
        let mut b =
            Browser::start(&self.binary, &url, &self.opts.flags, &self.log).map_err(|e| {
                GpuError::NoAdapter(format!("cannot start {}: {e}", self.binary.display()))
            })?;
        self.starts += 1;
        let started = Instant::now();
        let hello = loop {
            let mut s = self.hub.lock();
            if let Some(h) = s.hello.take() {
                break Some(h);
            }
            if started.elapsed() > START {
                break None;
            }
            s = self.hub.wait(s, Duration::from_millis(100));
            drop(s);
            if b.exited() {
                break None;
            }
        };
        let Some(hello) = hello else {
            let waited = started.elapsed();
            let ending = b.ending();
            b.kill();
            let tail = std::fs::read_to_string(&self.log).unwrap_or_default();
            let tail: Vec<&str> = tail.lines().rev().take(3).collect();
            let what = match ending {
                Some(how) => {
                    format!("exited ({how}) after {waited:.1?}, before it opened the page")
                }
                None => format!("did not open the page within {START:?}"),
            };
            return Err(GpuError::NoAdapter(format!(
                "{} {what} (stderr: {})",
                self.binary.display(),
                tail.join(" / ")
            )));
        };
        if let Some(e) = hello.get("error").and_then(|e| e.as_str()) {
            b.kill();
            return Err(GpuError::NoAdapter(format!("the browser's WebGPU: {e}")));
        }
        self.description = describe(&hello);
        self.hello = hello;
        self.browser = Some(b);
        Ok(())
    }

    fn limits(&self) -> plan::Limits {
        let l = |k: &str, d: u32| {
            self.hello["limits"]
                .get(k)
                .and_then(|v| v.as_u64())
                .map_or(d, |v| v as u32)
        };
        plan::Limits {
            bind_groups: l("maxBindGroups", 4),
            texture_1d: l("maxTextureDimension1D", 8192),
            texture_2d: l("maxTextureDimension2D", 8192),
        }
    }

    /// The first extension `wgsl` enables that the browser's device lacks.
    pub fn missing_feature(&self, wgsl: &str) -> Option<String> {
        let features = self.hello["features"].as_array();
        directive_enables(wgsl).into_iter().find(|name| {
            let granted = webgpu_feature(name)
                .zip(features)
                .is_some_and(|(want, have)| have.iter().any(|x| x.as_str() == Some(want)));
            !granted
        })
    }

    /// Run jobs (header without its id, word arrays) and wait for every answer, restarting
    /// the browser when it dies or stops answering.
    fn exchange(
        &mut self,
        jobs: Vec<(serde_json::Value, Vec<Vec<u32>>)>,
    ) -> Vec<Result<Frame, GpuError>> {
        let n = jobs.len();
        let mut answers: Vec<Option<Result<Frame, GpuError>>> = (0..n).map(|_| None).collect();
        if self.browser.as_mut().is_none_or(Browser::exited)
            && let Err(e) = self.start()
        {
            return (0..n).map(|_| Err(e.clone())).collect();
        }
        let mut frames = Vec::with_capacity(n);
        let mut ids = Vec::with_capacity(n);
        for (mut head, words) in jobs {
            let id = self.next_id;
            self.next_id += 1;
            head["id"] = id.into();
            let refs: Vec<&[u32]> = words.iter().map(Vec::as_slice).collect();
            let mut f = Vec::new();
            let header = serde_json::to_vec(&head).unwrap_or_default();
            let _ = write_frame(&mut f, &header, &refs);
            frames.push(f);
            ids.push(id);
        }
        {
            let mut s = self.hub.lock();
            s.queue
                .extend(ids.iter().copied().zip(frames.iter().cloned()));
        }
        self.hub.notify();
        let deadline = self.opts.timeout + GRACE;
        let mut progress = Instant::now();
        let mut restarts = 0;
        loop {
            let mut s = self.hub.lock();
            for (i, id) in ids.iter().enumerate() {
                if answers[i].is_none()
                    && let Some(f) = s.done.remove(id)
                {
                    answers[i] = Some(Ok(f));
                    progress = Instant::now();
                }
            }
            if answers.iter().all(Option::is_some) {
                break;
            }
            if std::mem::take(&mut s.stuck) {
                drop(s);
                if let Some(b) = &self.browser {
                    b.kill_gpu_process();
                }
                continue;
            }
            let exited = self.browser.as_mut().is_none_or(Browser::exited);
            let crashed = !exited && s.seen.is_some_and(|t| t.elapsed() > PAGE_SILENCE);
            let silent = progress.elapsed() > deadline;
            if !exited && !crashed && !silent {
                drop(self.hub.wait(s, Duration::from_millis(100)));
                continue;
            }
            // The job the page was running when it went is lost; the rest are served again.
            let culprit = s
                .pulled
                .iter()
                .find_map(|p| ids.iter().position(|i| i == p));
            let mine: Vec<usize> = (0..n)
                .filter(|i| answers[*i].is_none() && Some(*i) != culprit)
                .collect();
            s.queue.retain(|(id, _)| !ids.contains(id));
            drop(s);
            if let Some(c) = culprit {
                answers[c] = Some(Err(if exited {
                    GpuError::DeviceLost("the browser exited during the job".into())
                } else if crashed {
                    GpuError::DeviceLost(format!(
                        "the page crashed during the job (no heartbeat for {PAGE_SILENCE:?})"
                    ))
                } else {
                    GpuError::Timeout(deadline)
                }));
            }
            restarts += 1;
            let restarted = if restarts > RESTARTS {
                Err(GpuError::DeviceLost(format!(
                    "the browser failed {restarts} times in one batch"
                )))
            } else {
                self.start()
            };
            if let Err(e) = restarted {
                for i in mine {
                    answers[i] = Some(Err(e.clone()));
                }
                break;
            }
            let mut s = self.hub.lock();
            for &i in &mine {
                s.queue.push_back((ids[i], frames[i].clone()));
            }
            drop(s);
            self.hub.notify();
            progress = Instant::now();
        }
        answers
            .into_iter()
            .map(|a| a.unwrap_or_else(|| Err(GpuError::DeviceLost("no answer".into()))))
            .collect()
    }

    /// Compile each module with Tint (`createShaderModule` and `getCompilationInfo`): its
    /// messages, errors included.
    pub fn compile(&mut self, modules: &[&str]) -> Vec<Result<Vec<CompileMessage>, GpuError>> {
        let jobs = modules
            .iter()
            .map(|wgsl| {
                let head = serde_json::json!({"kind": "compile", "wgsl": wgsl});
                (head, Vec::new())
            })
            .collect();
        self.exchange(jobs)
            .into_iter()
            .map(|got| {
                let f = got?;
                let v: serde_json::Value = serde_json::from_slice(&f.header)
                    .map_err(|e| GpuError::DeviceLost(format!("an unreadable answer: {e}")))?;
                answer_error(&v)?;
                serde_json::from_value(v["messages"].clone())
                    .map_err(|e| GpuError::DeviceLost(format!("unreadable messages: {e}")))
            })
            .collect()
    }
}

/// The error an answer's header carries, if any.
fn answer_error(v: &serde_json::Value) -> Result<(), GpuError> {
    match v.get("error").and_then(|e| e.as_str()) {
        Some(code) => {
            let message = v["message"].as_str().unwrap_or("").to_string();
            Err(GpuError::from_wire(code, message))
        }
        None => Ok(()),
    }
}

impl KernelRunner for Chrome {
    fn description(&self) -> String {
        self.description.clone()
    }

    fn reads_with_naga(&self) -> bool {
        false
    }

    fn run(&mut self, request: &Request) -> Result<KernelOutput, GpuError> {
        let mut all = self.run_all(std::slice::from_ref(request));
        all.pop()
            .unwrap_or_else(|| Err(GpuError::DeviceLost("no answer".into())))
    }

    fn run_all(&mut self, requests: &[Request]) -> Vec<Result<KernelOutput, GpuError>> {
        let started = Instant::now();
        let limits = self.limits();
        let mut out: Vec<Option<Result<KernelOutput, GpuError>>> = Vec::new();
        let mut plans = Vec::new();
        let mut jobs = Vec::new();
        for r in requests {
            if let Some(name) = self.missing_feature(&r.wgsl) {
                out.push(Some(Err(GpuError::Feature(format!(
                    "`enable {name};` ({} does not grant it)",
                    self.description
                )))));
                continue;
            }
            let p = match plan::plan(&r.manifest, &r.inputs, r.records.as_ref(), &limits) {
                Ok(p) => p,
                Err(e) => {
                    out.push(Some(Err(e)));
                    continue;
                }
            };
            let head = JobHead {
                id: 0,
                kind: "run",
                wgsl: &r.wgsl,
                entry: &r.entry_point,
                groups: r.groups,
                group_count: p.group_count,
                timeout_ms: self.opts.timeout.as_millis() as u64,
                bindings: job_bindings(&p),
                grid: r.records.as_ref().and_then(|x| x.grid),
                cover: r
                    .records
                    .as_ref()
                    .and_then(|x| x.grid)
                    .map(|_| crate::gpu::COVER_WGSL),
            };
            let head = serde_json::to_value(&head).unwrap_or_default();
            let words = p.bindings.iter().map(plan::Planned::full_words).collect();
            jobs.push((head, words));
            plans.push(p);
            out.push(None);
        }
        let mut answers = self.exchange(jobs).into_iter().zip(plans);
        let results: Vec<Result<KernelOutput, GpuError>> = out
            .into_iter()
            .map(|slot| {
                if let Some(done) = slot {
                    return done;
                }
                let (got, plan) = answers
                    .next()
                    .ok_or_else(|| GpuError::DeviceLost("no answer".into()))?;
                let f = got?;
                let v: serde_json::Value = serde_json::from_slice(&f.header)
                    .map_err(|e| GpuError::DeviceLost(format!("an unreadable answer: {e}")))?;
                answer_error(&v)?;
                let (uavs, records) = plan.unpack(f.words);
                Ok(KernelOutput {
                    uavs,
                    records,
                    phases: Phases::default(),
                })
            })
            .collect();
        let took = started.elapsed().as_secs_f64();
        if results.iter().any(Result::is_err) {
            self.phases.failed += took;
        } else {
            self.phases.dispatch += took;
        }
        results
    }

    fn phases(&self) -> Phases {
        self.phases
    }
}

/// Whether a browser can be found (tests that need one skip without it).
pub fn available(explicit: Option<&Path>) -> bool {
    binary(explicit).is_some_and(|p| p.exists())
}

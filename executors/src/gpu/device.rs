//! The wgpu device that runs a kernel: adapter choice, one device per run with the adapter's
//! own limits, shader modules and pipelines cached by WGSL text, and the dispatch with its
//! readback. Everything is created inside error scopes, so a shader the driver rejects is an
//! error value, never a panic.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use translator::Manifest;

use super::bound::{Bound, Readback};
use super::draw::Pipeline;
use super::enables::{ENABLE_FEATURES, enable_feature};
use super::sampled::sampler_descriptor;
use super::{
    ComputeInputs, GpuError, KernelOutput, Phases, Records, directive_enables, draw, plan,
    wgpu_format,
};

/// What a pipeline depends on: the module's text, its entry point, and the type of every
/// (group, binding) bound, the harness's records included.
type PipelineKey = (String, String, Vec<(u32, u32, String)>);

#[derive(Debug, Clone)]
struct CachedPipeline {
    pipeline: Pipeline,
    /// One layout per bind group, from 0.
    layouts: Vec<wgpu::BindGroupLayout>,
}

/// An open device with its pipeline cache.
pub struct Gpu {
    /// The adapter the device was opened on.
    pub info: wgpu::AdapterInfo,
    device: wgpu::Device,
    queue: wgpu::Queue,
    modules: HashMap<String, wgpu::ShaderModule>,
    /// Pipelines with their bind-group layouts, by WGSL text, entry point and layout.
    pipelines: HashMap<PipelineKey, CachedPipeline>,
    /// The multisampled-texture fill draws, by their program text and sample count: built once,
    /// not per dispatch (behind a lock: the fill runs while the dispatch's resources borrow
    /// the device).
    fills: std::sync::Mutex<HashMap<(String, u32), wgpu::RenderPipeline>>,
    lost: Arc<AtomicBool>,
    /// How long one dispatch may take.
    pub timeout: Duration,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu")
            .field("adapter", &self.info.name)
            .finish()
    }
}

/// The devices `--adapter all` spreads work over, in enumeration order: every GPU, or every
/// adapter when there is no GPU (lavapipe alone). `#k` names the k-th of them.
fn devices(adapters: Vec<wgpu::Adapter>) -> Vec<wgpu::Adapter> {
    let gpu = |a: &wgpu::Adapter| a.get_info().device_type != wgpu::DeviceType::Cpu;
    if adapters.iter().any(gpu) {
        adapters.into_iter().filter(gpu).collect()
    } else {
        adapters
    }
}

/// Every Vulkan adapter of this host.
fn enumerate() -> Vec<wgpu::Adapter> {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(desc);
    pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN))
}

/// The names of the devices `--adapter all` uses (see [`devices`]), `#0` first.
pub fn device_names() -> Vec<String> {
    devices(enumerate())
        .iter()
        .map(|a| a.get_info().name)
        .collect()
}

/// Choose an adapter: `auto` prefers a real GPU and falls back to a CPU one (lavapipe);
/// anything else is a case-insensitive substring of the adapter's name.
fn choose(adapters: Vec<wgpu::Adapter>, want: &str) -> Result<wgpu::Adapter, GpuError> {
    let names: Vec<String> = adapters.iter().map(|a| a.get_info().name).collect();
    if let Some(k) = want.strip_prefix('#') {
        let all = devices(adapters);
        let n = all.len();
        return k
            .parse::<usize>()
            .ok()
            .and_then(|k| all.into_iter().nth(k))
            .ok_or_else(|| GpuError::NoAdapter(format!("no device {want} among {n}: {names:?}")));
    }
    let rank = |a: &wgpu::Adapter| match a.get_info().device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    };
    let mut candidates: Vec<wgpu::Adapter> = if want == "auto" {
        adapters
    } else {
        let w = want.to_lowercase();
        adapters
            .into_iter()
            .filter(|a| a.get_info().name.to_lowercase().contains(&w))
            .collect()
    };
    candidates.sort_by_key(rank);
    candidates.into_iter().next().ok_or_else(|| {
        GpuError::NoAdapter(if names.is_empty() {
            "no Vulkan adapter (install mesa-vulkan-drivers for lavapipe)".into()
        } else {
            format!("none matches `{want}` among {names:?}")
        })
    })
}

impl Gpu {
    /// Open the chosen adapter's device with the adapter's own limits.
    pub fn new(adapter: &str) -> Result<Gpu, GpuError> {
        let adapter = choose(enumerate(), adapter)?;
        let info = adapter.get_info();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("dxdiff"),
            // Filterable rgba32float lets one texture be both loaded and linearly sampled.
            required_features: adapter.features()
                & (ENABLE_FEATURES | wgpu::Features::FLOAT32_FILTERABLE),
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|e| GpuError::Device(e.to_string()))?;
        let lost = Arc::new(AtomicBool::new(false));
        let flag = lost.clone();
        device.set_device_lost_callback(move |_, _| flag.store(true, Ordering::SeqCst));
        // Errors are caught by error scopes; an uncaught one must not abort the run.
        device.on_uncaptured_error(Arc::new(|e| {
            eprintln!("dxdiff: uncaptured wgpu error: {e}")
        }));
        Ok(Gpu {
            info,
            device,
            queue,
            modules: HashMap::new(),
            pipelines: HashMap::new(),
            fills: Default::default(),
            lost,
            timeout: Duration::from_secs(20),
        })
    }

    /// Whether float textures are bound filterable (the device has `float32-filterable`), so
    /// that samplers may filter linearly.
    fn filterable(&self) -> bool {
        self.device
            .features()
            .contains(wgpu::Features::FLOAT32_FILTERABLE)
    }

    fn scoped<T>(&self, f: impl FnOnce() -> T) -> Result<T, GpuError> {
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let out = f();
        let oom_err = pollster::block_on(oom.pop());
        let val_err = pollster::block_on(validation.pop());
        match val_err.or(oom_err) {
            Some(e) => Err(GpuError::Validation(e.to_string())),
            None => Ok(out),
        }
    }

    /// The shader module for this WGSL, compiled once. Modules get wgpu's default runtime
    /// checks (docs/harness.md gives the reasons).
    fn module(&mut self, wgsl: &str) -> Result<wgpu::ShaderModule, GpuError> {
        if let Some(m) = self.modules.get(wgsl) {
            return Ok(m.clone());
        }
        // Once per module text: the extensions it enables must be features of this device.
        for name in directive_enables(wgsl) {
            let granted = enable_feature(&name).is_some_and(|f| self.device.features().contains(f));
            if !granted {
                return Err(GpuError::Feature(format!(
                    "`enable {name};` ({} does not grant it)",
                    self.info.name
                )));
            }
        }
        // Workgroup memory against this device's limit, before the driver is asked to build
        // it (lavapipe builds a kernel over its limit, and a large one takes gigabytes). Only a
        // module that declares such memory is read again.
        if wgsl.contains("var<workgroup>")
            && let Ok(m) = naga::front::wgsl::parse_str(wgsl)
        {
            let bytes = translator::memory(&m)
                .map_err(GpuError::Validation)?
                .workgroup;
            let limit = self.device.limits().max_compute_workgroup_storage_size;
            if bytes > u64::from(limit) {
                return Err(GpuError::Validation(format!(
                    "the kernel declares {bytes} bytes of workgroup memory, more than {}'s maxComputeWorkgroupStorageSize ({limit})",
                    self.info.name
                )));
            }
        }
        let device = self.device.clone();
        let m = self.scoped(|| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: None,
                source: wgpu::ShaderSource::Wgsl(wgsl.into()),
            })
        })?;
        self.modules.insert(wgsl.to_string(), m.clone());
        Ok(m)
    }

    fn check_lost(&self) -> Result<(), GpuError> {
        if self.lost.load(Ordering::SeqCst) {
            return Err(GpuError::DeviceLost("the device reported loss".into()));
        }
        Ok(())
    }

    /// Run a translated compute program over `groups` workgroups and return every UAV's final
    /// words (by register).
    pub fn run_compute(
        &mut self,
        wgsl: &str,
        manifest: &Manifest,
        inputs: &ComputeInputs,
        groups: [u32; 3],
    ) -> Result<BTreeMap<u32, Vec<u32>>, GpuError> {
        self.run_kernel(wgsl, &manifest.entry_point, manifest, inputs, groups, None)
            .map(|o| o.uavs)
    }

    /// Run a compute kernel; `records` adds group 1 with an input word buffer, an output word
    /// buffer of the given length and any per-invocation buffers (the wrapped pixel/vertex
    /// kernels); the output records are returned beside the UAVs.
    pub fn run_kernel(
        &mut self,
        wgsl: &str,
        entry_point: &str,
        manifest: &Manifest,
        inputs: &ComputeInputs,
        groups: [u32; 3],
        records: Option<&Records>,
    ) -> Result<KernelOutput, GpuError> {
        use wgpu::util::DeviceExt;
        let mut phases = Phases::default();
        let mut clock = std::time::Instant::now();
        let mut lap = |slot: &mut f64| {
            *slot += clock.elapsed().as_secs_f64();
            clock = std::time::Instant::now();
        };
        self.check_lost()?;
        let module = self.module(wgsl)?;
        lap(&mut phases.pipeline);
        let device = self.device.clone();
        let limits = device.limits();
        let plan = plan::plan(
            manifest,
            inputs,
            records,
            &plan::Limits {
                bind_groups: limits.max_bind_groups,
                texture_1d: limits.max_texture_dimension_1d,
                texture_2d: limits.max_texture_dimension_2d,
            },
        )?;
        let group_count = plan.group_count;
        // Every buffer gets its own allocation for this dispatch: a queue write would land
        // before an earlier encoded dispatch ran.
        let (buffers, backs) = self.scoped(|| -> Result<_, GpuError> {
            // (group, binding, what is bound), and what is read back, in plan order.
            let mut buffers: Vec<(u32, u32, Bound)> = Vec::new();
            let mut backs: Vec<Readback> = Vec::new();
            // A filtering sampler may only meet filterable textures: without
            // float32-filterable, the 32-bit float formats are not.
            let unfilterable = plan.bindings.iter().any(|b| {
                matches!(b.slot, plan::Slot::Sampled { shape, texel }
                    if texel == plan::Texel::Float && !shape.format.always_filterable())
            });
            for p in &plan.bindings {
                let bytes = p.bytes();
                let bound = match p.slot {
                    plan::Slot::Sampler(state) => {
                        // A comparison sampler meets depth textures only.
                        if state.compare.is_none()
                            && state.linear
                            && unfilterable
                            && !self.filterable()
                        {
                            return Err(GpuError::Feature(
                                "linear filtering of a 32-bit float texture needs \
                                 float32-filterable"
                                    .into(),
                            ));
                        }
                        let ty = if state.compare.is_some() {
                            wgpu::SamplerBindingType::Comparison
                        } else if state.non_filtering {
                            wgpu::SamplerBindingType::NonFiltering
                        } else if self.filterable() || !unfilterable {
                            wgpu::SamplerBindingType::Filtering
                        } else {
                            wgpu::SamplerBindingType::NonFiltering
                        };
                        Bound::Sampler(ty, device.create_sampler(&sampler_descriptor(state)?))
                    }
                    plan::Slot::Sampled { shape, texel } if shape.multisampled => {
                        let tex = self.multisampled_texture(&shape, &bytes)?;
                        let view = tex.create_view(&wgpu::TextureViewDescriptor::default());
                        Bound::Multisampled(texel, view)
                    }
                    plan::Slot::Sampled { shape, texel } => {
                        let tex = device.create_texture_with_data(
                            &self.queue,
                            &wgpu::TextureDescriptor {
                                label: Some("sampled texture SRV"),
                                size: wgpu::Extent3d {
                                    width: shape.width,
                                    height: shape.height,
                                    depth_or_array_layers: shape.layers.max(1),
                                },
                                mip_level_count: shape.mips,
                                sample_count: 1,
                                dimension: if shape.volume {
                                    wgpu::TextureDimension::D3
                                } else {
                                    wgpu::TextureDimension::D2
                                },
                                format: wgpu_format(shape.format),
                                usage: wgpu::TextureUsages::TEXTURE_BINDING,
                                view_formats: &[],
                            },
                            // Level after level, each level layer after layer; packed
                            // 2-byte texels end mid-word.
                            wgpu::util::TextureDataOrder::MipMajor,
                            &bytes[..shape.bytes().min(bytes.len())],
                        );
                        let view = tex.create_view(&wgpu::TextureViewDescriptor {
                            dimension: Some(shape.view_dimension()),
                            ..Default::default()
                        });
                        let filterable = self.filterable() || shape.format.always_filterable();
                        Bound::Sampled(texel, filterable, shape.view_dimension(), view)
                    }
                    plan::Slot::Texture {
                        texture,
                        width,
                        height,
                        layers,
                    } => {
                        let size = wgpu::Extent3d {
                            width,
                            height,
                            depth_or_array_layers: layers,
                        };
                        let tex = device.create_texture_with_data(
                            &self.queue,
                            &wgpu::TextureDescriptor {
                                label: Some("storage texture UAV"),
                                size,
                                mip_level_count: 1,
                                sample_count: 1,
                                dimension: texture.texture_dimension(),
                                format: texture.format(),
                                usage: wgpu::TextureUsages::STORAGE_BINDING
                                    | wgpu::TextureUsages::COPY_SRC,
                                view_formats: &[],
                            },
                            wgpu::util::TextureDataOrder::LayerMajor,
                            &bytes,
                        );
                        let view = tex.create_view(&wgpu::TextureViewDescriptor {
                            dimension: Some(texture.dimension),
                            ..Default::default()
                        });
                        if p.back.is_some() {
                            backs.push(Readback::Texture(tex, texture.lanes()));
                        }
                        Bound::Texture(texture, view)
                    }
                    slot => {
                        let (ty, usage) = match slot {
                            plan::Slot::Uniform => (
                                wgpu::BufferBindingType::Uniform,
                                wgpu::BufferUsages::UNIFORM,
                            ),
                            plan::Slot::Storage { read_only } => (
                                wgpu::BufferBindingType::Storage { read_only },
                                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                            ),
                            plan::Slot::Texture { .. }
                            | plan::Slot::Sampled { .. }
                            | plan::Slot::Sampler(_) => {
                                unreachable!("matched above")
                            }
                        };
                        let buffer = if p.words.is_empty() {
                            device.create_buffer(&wgpu::BufferDescriptor {
                                label: None,
                                size: bytes.len() as u64,
                                usage,
                                mapped_at_creation: false,
                            })
                        } else {
                            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                                label: None,
                                contents: &bytes,
                                usage,
                            })
                        };
                        if p.back.is_some() {
                            backs.push(Readback::Buffer(buffer.clone(), bytes.len() as u64));
                        }
                        Bound::Buffer(ty, buffer)
                    }
                };
                buffers.push((p.group, p.binding, bound));
            }
            Ok((buffers, backs))
        })??;
        lap(&mut phases.upload);
        let grid = records.and_then(|r| r.grid);
        let visibility = if grid.is_some() {
            wgpu::ShaderStages::FRAGMENT
        } else {
            wgpu::ShaderStages::COMPUTE
        };
        let key: PipelineKey = (
            wgsl.to_string(),
            format!(
                "{entry_point}{}",
                if grid.is_some() { " (draw)" } else { "" }
            ),
            buffers
                .iter()
                .map(|(g, b, bound)| (*g, *b, format!("{:?}", bound.layout_ty())))
                .collect(),
        );
        let cached = match self.pipelines.get(&key) {
            Some(c) => c.clone(),
            None => {
                let c = self.scoped(|| {
                    let layouts: Vec<wgpu::BindGroupLayout> = (0..group_count)
                        .map(|group| {
                            let entries: Vec<wgpu::BindGroupLayoutEntry> = buffers
                                .iter()
                                .filter(|(g, ..)| *g == group)
                                .map(|(_, binding, bound)| wgpu::BindGroupLayoutEntry {
                                    binding: *binding,
                                    visibility,
                                    ty: bound.layout_ty(),
                                    count: None,
                                })
                                .collect();
                            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                                label: None,
                                entries: &entries,
                            })
                        })
                        .collect();
                    let refs: Vec<Option<&wgpu::BindGroupLayout>> =
                        layouts.iter().map(Some).collect();
                    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                        label: None,
                        bind_group_layouts: &refs,
                        immediate_size: 0,
                    });
                    let pipeline = if grid.is_some() {
                        Pipeline::Render(draw::render_pipeline(
                            &device,
                            &layout,
                            &module,
                            entry_point,
                        ))
                    } else {
                        Pipeline::Compute(device.create_compute_pipeline(
                            &wgpu::ComputePipelineDescriptor {
                                label: None,
                                layout: Some(&layout),
                                module: &module,
                                entry_point: Some(entry_point),
                                compilation_options: Default::default(),
                                cache: None,
                            },
                        ))
                    };
                    CachedPipeline { pipeline, layouts }
                })?;
                self.pipelines.insert(key, c.clone());
                c
            }
        };
        let pipeline = cached.pipeline.clone();
        let bind_groups = self.scoped(|| {
            (0..group_count)
                .zip(&cached.layouts)
                .map(|(group, layout)| {
                    let entries: Vec<wgpu::BindGroupEntry> = buffers
                        .iter()
                        .filter(|(g, ..)| *g == group)
                        .map(|(_, binding, bound)| wgpu::BindGroupEntry {
                            binding: *binding,
                            resource: bound.resource(),
                        })
                        .collect();
                    device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: None,
                        layout,
                        entries: &entries,
                    })
                })
                .collect::<Vec<_>>()
        })?;
        lap(&mut phases.pipeline);
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        match (&pipeline, grid) {
            (Pipeline::Render(pipeline), Some(grid)) => {
                let target = self.scoped(|| draw::grid_target(&device, grid))?;
                draw::encode(&mut encoder, pipeline, &bind_groups, &target);
            }
            (Pipeline::Compute(pipeline), None) => {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
                pass.set_pipeline(pipeline);
                for (group, g) in (0..).zip(&bind_groups) {
                    pass.set_bind_group(group, g, &[]);
                }
                pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
            }
            _ => {
                return Err(GpuError::Device(
                    "a cached pipeline of the other kind (draw against dispatch)".into(),
                ));
            }
        }
        // Each staging buffer, and for a texture its padded and its real row in bytes.
        let mut staged: Vec<(wgpu::Buffer, Option<(u32, u32)>)> = Vec::new();
        let staging = self.scoped(|| {
            for back in &backs {
                let stage = |size: u64| {
                    device.create_buffer(&wgpu::BufferDescriptor {
                        label: None,
                        size,
                        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                        mapped_at_creation: false,
                    })
                };
                match back {
                    Readback::Buffer(buf, size) => {
                        let staging = stage(*size);
                        encoder.copy_buffer_to_buffer(buf, 0, &staging, 0, *size);
                        staged.push((staging, None));
                    }
                    Readback::Texture(texture, lanes) => {
                        // Rows padded to the copy alignment; `read` below drops the padding.
                        let size = texture.size();
                        let row = padded_row(size.width, *lanes);
                        let bytes = u64::from(row)
                            * u64::from(size.height)
                            * u64::from(size.depth_or_array_layers);
                        let staging = stage(bytes);
                        encoder.copy_texture_to_buffer(
                            texture.as_image_copy(),
                            wgpu::TexelCopyBufferInfo {
                                buffer: &staging,
                                layout: wgpu::TexelCopyBufferLayout {
                                    offset: 0,
                                    bytes_per_row: Some(row),
                                    rows_per_image: Some(size.height),
                                },
                            },
                            size,
                        );
                        staged.push((staging, Some((row, size.width * lanes * 4))));
                    }
                }
            }
            encoder.finish()
        })?;
        self.queue.submit([staging]);
        for (staging, _) in &staged {
            staging.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        }
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: None,
                timeout: Some(self.timeout),
            })
            .map_err(|e| match e {
                wgpu::PollError::Timeout => GpuError::Timeout(self.timeout),
                other => GpuError::DeviceLost(other.to_string()),
            })?;
        self.check_lost()?;
        lap(&mut phases.dispatch);
        let mut read = Vec::with_capacity(staged.len());
        for (staging, rows) in staged {
            let view = staging
                .slice(..)
                .get_mapped_range()
                .map_err(|e| GpuError::DeviceLost(format!("readback failed: {e}")))?;
            let words = |bytes: &[u8]| {
                bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect::<Vec<u32>>()
            };
            read.push(match rows {
                Some((padded, real)) => view
                    .chunks(padded as usize)
                    .flat_map(|r| words(&r[..(real as usize).min(r.len())]))
                    .collect(),
                None => words(&view),
            });
        }
        let (uavs, records_out) = plan.unpack(read);
        lap(&mut phases.readback);
        Ok(KernelOutput {
            uavs,
            records: records_out,
            phases,
        })
    }
}

impl Gpu {
    /// A 4-sample texture of `shape` whose samples hold `bytes` (each sample's plane in turn,
    /// row-major): no copy writes a sample, so a draw over the whole texture writes each one
    /// from a storage buffer (`sampled::fill_wgsl`), submitted before the dispatch that reads it.
    fn multisampled_texture(
        &self,
        shape: &super::TextureShape,
        bytes: &[u8],
    ) -> Result<wgpu::Texture, GpuError> {
        let device = &self.device;
        let fill = super::sampled::fill_wgsl(shape.format, shape.width, shape.height).ok_or_else(
            || GpuError::Unfeedable(format!("a multisampled {} texture", shape.format.name())),
        )?;
        let format = wgpu_format(shape.format);
        let tex = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("multisampled texture SRV"),
            size: wgpu::Extent3d {
                width: shape.width,
                height: shape.height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: shape.layers,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        let texels = wgpu::util::DeviceExt::create_buffer_init(
            device,
            &wgpu::util::BufferInitDescriptor {
                label: Some("multisampled texels"),
                contents: if bytes.is_empty() { &[0; 4] } else { bytes },
                usage: wgpu::BufferUsages::STORAGE,
            },
        );
        let pipeline = self
            .fills
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry((fill, shape.layers))
            .or_insert_with_key(|(fill, count)| fill_pipeline(device, fill, format, *count))
            .clone();
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: texels.as_entire_binding(),
            }],
        });
        let view = tex.create_view(&wgpu::TextureViewDescriptor::default());
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("multisampled fill"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.draw(0..3, 0..1);
        }
        self.queue.submit([encoder.finish()]);
        Ok(tex)
    }
}

/// The draw that writes every sample of a `count`-sample `format` texture from the fill program
/// `fill` (`sampled::fill_wgsl`).
fn fill_pipeline(
    device: &wgpu::Device,
    fill: &str,
    format: wgpu::TextureFormat,
    count: u32,
) -> wgpu::RenderPipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("multisampled fill"),
        source: wgpu::ShaderSource::Wgsl(fill.into()),
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("multisampled fill"),
        layout: None,
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: None,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState {
            count,
            mask: !0,
            alpha_to_coverage_enabled: false,
        },
        multiview_mask: None,
        cache: None,
    })
}

/// A texture row of `width` texels of `lanes` words, padded to the row alignment a copy to a
/// buffer needs.
fn padded_row(width: u32, lanes: u32) -> u32 {
    (width * lanes * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
}

//! Emitting WGSL for a whole program: the declaration scan, the module layout (bindings,
//! private registers, the body function `run`, the stage entry point) and the binding manifest.
//!
//! Registers are typeless, so every register is `vec4<u32>` and each operation bitcasts its
//! sources to the type it consumes (the seed's typeless-register rule). Inputs and outputs are
//! `array<vec4<u32>, N>` so they can be indexed relatively.

mod alu;
mod build;
mod declare;
mod double;
mod evaluation;
mod flow;
mod helpers;
mod import;
mod io;
mod memory;
mod operand;
mod rejection;
mod relied;
mod scan;
mod slots;
mod spare;
mod subroutines;
mod textures;
mod types;
mod uav_textures;

use build::{Body, H};
use naga::{GlobalVariable, Handle};
use slots::{SlotMap, SlotSet};
use std::collections::BTreeSet;
use types::Types;

use dxbc::chunks::signature::Signature;
use dxbc::{Instruction, Opcode, Program, Stage};

use crate::Profile;
use crate::manifest::{Binding, BindingKind, BindingLayout, Manifest};
use crate::names as id;
pub use rejection::Rejection;
use rejection::reject_stage;

/// Catalog entries each profile may rely on: the catalog's `claimed_by` (the `exact` profile
/// claims only the latitude no polyfill can remove, builtin accuracy and ranges, and the
/// structural rules; WGSL reads no sampler state, so it claims `dxdiff/lod-sampler-clamp`).
pub use catalog::ids::{CONTRACT_CLAIMS, EXACT_CLAIMS};

/// How a buffer-like register is viewed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Raw,
    Structured(u32),
    /// A typed buffer (one 32-bit word per element).
    TypedBuffer,
    /// A sampled texture: its texels and how it is addressed.
    Texture(TexelKind, Shape),
    /// A typed UAV texture (`RWTexture1D` … `RWTexture3D`, exact profile): its declared
    /// return type and how it is addressed (never a cube: D3D has no cube UAV).
    UavTexture(UavKind, Shape),
}

/// The return type of a typed UAV texture's `dcl_uav_typed` (all four components alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UavKind {
    Float,
    Unorm,
    Snorm,
    Uint,
    Sint,
}

impl UavKind {
    /// The storage format WGSL declares the texture with, which the manifest states and the
    /// harness creates: the program does not carry the view's format. A texture the program
    /// loads is `r32float`/`r32uint`/`r32sint` (WebGPU's read-write storage textures are r32
    /// formats only, and D3D 11.0 loads typed UAVs of R32 formats only); one it only stores to
    /// is four-channel. `None` for a loaded `unorm`/`snorm` texture, which the scan refuses.
    pub fn format(self, loaded: bool) -> Option<naga::StorageFormat> {
        use naga::StorageFormat as F;
        Some(match (self, loaded) {
            (UavKind::Float, true) => F::R32Float,
            (UavKind::Uint, true) => F::R32Uint,
            (UavKind::Sint, true) => F::R32Sint,
            (UavKind::Unorm | UavKind::Snorm, true) => return None,
            (UavKind::Float, false) => F::Rgba32Float,
            (UavKind::Unorm, false) if crate::planted(crate::PlantedBug::UavUnormAsSnorm) => {
                F::Rgba8Snorm
            }
            (UavKind::Unorm, false) => F::Rgba8Unorm,
            (UavKind::Snorm, false) => F::Rgba8Snorm,
            (UavKind::Uint, false) => F::Rgba32Uint,
            (UavKind::Sint, false) => F::Rgba32Sint,
        })
    }

    /// The scalar kind of the texels WGSL loads and stores (`f32` for the normalized ones).
    pub fn scalar(self) -> naga::ScalarKind {
        match self {
            UavKind::Float | UavKind::Unorm | UavKind::Snorm => naga::ScalarKind::Float,
            UavKind::Uint => naga::ScalarKind::Uint,
            UavKind::Sint => naga::ScalarKind::Sint,
        }
    }
}

/// A storage format as WGSL spells it (the formats [`UavKind::format`] chooses).
pub fn storage_format_name(f: naga::StorageFormat) -> &'static str {
    use naga::StorageFormat as F;
    match f {
        F::R32Float => "r32float",
        F::R32Uint => "r32uint",
        F::R32Sint => "r32sint",
        F::Rgba32Float => "rgba32float",
        F::Rgba8Unorm => "rgba8unorm",
        F::Rgba8Snorm => "rgba8snorm",
        F::Rgba32Uint => "rgba32uint",
        F::Rgba32Sint => "rgba32sint",
        _ => "unknown",
    }
}

pub use dxbc::TextureShape as Shape;

/// The component type of a texture's texels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TexelKind {
    Float,
    Uint,
    Sint,
}

impl TexelKind {
    /// The manifest layout (and WGSL type) of a texture of these texels and this shape.
    pub fn texture_layout(self, shape: Shape) -> BindingLayout {
        match (self, shape) {
            (TexelKind::Float, Shape::Plain | Shape::Line) => BindingLayout::Texture2dF32,
            (TexelKind::Uint, Shape::Plain | Shape::Line) => BindingLayout::Texture2dU32,
            (TexelKind::Sint, Shape::Plain | Shape::Line) => BindingLayout::Texture2dI32,
            (TexelKind::Float, Shape::Array | Shape::LineArray) => BindingLayout::Texture2dArrayF32,
            (TexelKind::Uint, Shape::Array | Shape::LineArray) => BindingLayout::Texture2dArrayU32,
            (TexelKind::Sint, Shape::Array | Shape::LineArray) => BindingLayout::Texture2dArrayI32,
            (TexelKind::Float, Shape::Cube) => BindingLayout::TextureCubeF32,
            (TexelKind::Uint, Shape::Cube) => BindingLayout::TextureCubeU32,
            (TexelKind::Sint, Shape::Cube) => BindingLayout::TextureCubeI32,
            (TexelKind::Float, Shape::CubeArray) => BindingLayout::TextureCubeArrayF32,
            (TexelKind::Uint, Shape::CubeArray) => BindingLayout::TextureCubeArrayU32,
            (TexelKind::Sint, Shape::CubeArray) => BindingLayout::TextureCubeArrayI32,
            (TexelKind::Float, Shape::Multisampled) => BindingLayout::TextureMultisampled2dF32,
            (TexelKind::Uint, Shape::Multisampled) => BindingLayout::TextureMultisampled2dU32,
            (TexelKind::Sint, Shape::Multisampled) => BindingLayout::TextureMultisampled2dI32,
            (TexelKind::Float, Shape::Volume) => BindingLayout::Texture3dF32,
            (TexelKind::Uint, Shape::Volume) => BindingLayout::Texture3dU32,
            (TexelKind::Sint, Shape::Volume) => BindingLayout::Texture3dI32,
        }
    }
}

/// Everything the body needs to know, gathered from declarations before emission.
pub struct Ctx<'a> {
    /// The instruction being lowered reads only immediates: they are bound to function
    /// `var`s first, so that WGSL does not evaluate the expression as a constant (where an
    /// integer overflow, such as `0x3f800000u << 26u`, or a float result out of range, such as
    /// `exp2` of 2^31, is a shader-creation error; D3D wraps or gives infinity). A `let` is not
    /// enough: Chrome's Dawn folds it back into a constant when it creates the pipeline.
    /// Found by `dxdiff fuzz` (naga) and `dxdiff fuzz --executor chrome` (Tint).
    pub opaque_literals: bool,
    /// The ALU instruction being lowered may read an immediate as a float: one whose bits are
    /// an infinity or a NaN is bound to a `var` too, because `bitcast<f32>` of such a constant
    /// is a shader-creation error in WGSL (Tint enforces it; naga does not).
    pub opaque_non_finite: bool,
    pub program: &'a Program,
    pub signatures: &'a [Signature],
    pub profile: Profile,
    pub stage: Stage,
    /// Highest temp, input and output register + 1.
    pub temps: u32,
    pub inputs: u32,
    pub outputs: u32,
    /// The WGSL extensions the module enables (`primitive_index`), listed in the manifest.
    pub enables: BTreeSet<&'static str>,
    /// Constant buffers: slot → size in vec4s.
    pub cbs: SlotMap<u32, u32>,
    pub icb: Option<Vec<u32>>,
    /// `x#` arrays: id → element count.
    pub indexable: SlotMap<u32, u32>,
    pub srvs: SlotMap<u32, View>,
    pub uavs: SlotMap<u32, View>,
    pub samplers: SlotSet<u32>,
    /// `mode_comparison` samplers (the exact profile's; the contract fails closed on them).
    pub comparison_samplers: SlotSet<u32>,
    /// Textures a comparison (`sample_c`, `sample_c_lz`, `gather4_c`) reads: bound as
    /// `texture_depth_2d` or `texture_depth_2d_array`, and read by comparisons only.
    pub depth_textures: SlotSet<u32>,
    /// Plain samplers that gather from a depth texture (the exact profile's): bound
    /// `sampler-non-filtering`, since WebGPU lets a depth texture meet no filtering sampler.
    pub non_filtering_samplers: SlotSet<u32>,
    /// TGSM: slot → (words, structure stride or None for raw).
    pub tgsm: SlotMap<u32, (u32, Option<u32>)>,
    /// UAVs and TGSM regions targeted by atomics (declared as atomic arrays).
    pub atomic_uavs: SlotSet<u32>,
    /// UAVs whose hidden counter `imm_atomic_alloc`/`consume` use (the exact profile's): each
    /// a `uav-counter` binding of one atomic word.
    pub counter_uavs: SlotSet<u32>,
    /// Typed UAV textures some `ld_uav_typed` reads: declared `read_write` with an r32 format.
    pub loaded_uavs: SlotSet<u32>,
    pub atomic_tgsm: SlotSet<u32>,
    pub workgroup: [u32; 3],
    /// The catalog ids this translation relied on.
    pub used: relied::Relied,
    /// Whether any instruction writes an input register. D3D's validator refuses that, but a
    /// hand-made program may do it; otherwise `run` reads its inputs as invariant registers.
    pub inputs_written: bool,
    /// The module being built: declarations first, then `run`, then the entry point.
    pub module: naga::Module,
    /// The body function `run` under construction.
    pub b: Body,
    /// The polyfills copied into the module so far.
    pub imported: import::Imported,
    /// A polyfill that could not be copied: the translation is refused at its end.
    pub failed: Option<Rejection>,
    /// The module's variables, by what they hold.
    pub g: declare::Globals,
    /// Each global's expression in `run`, made once, by global index (inline: there are few).
    pub global_exprs: smallvec::SmallVec<[Option<H>; 16]>,
    /// `r#` components' variables in `run`, made on first use.
    pub temp_vars: Vec<[Option<H>; 4]>,
    /// Registers named by immediate indices (inputs, outputs, constant-buffer rows), resolved
    /// in the current block: an operation reads its operands once per component, and each
    /// resolution took several map lookups. See [`operand::RegKey`].
    pub regs: smallvec::SmallVec<[(operand::RegKey, operand::Reg); 8]>,
    /// The registers the instruction being lowered has resolved, by operand and block: its
    /// components share one fetch, as D3D reads a source once (a run-time index, a thread id),
    /// and find it by the operand's address before any key is built. Emptied at every
    /// instruction.
    pub fetched: smallvec::SmallVec<[operand::Fetched; 6]>,
    /// The types the lowering names most, once inserted.
    pub types: Types,
    /// Open `if`, `loop` and `switch` constructs, innermost last.
    pub frames: Vec<flow::Frame>,
    /// Whether a derivative or implicit-LOD sample sits under non-uniform control flow.
    pub needs_derivative_opt_out: bool,
    /// Depth of control flow whose condition may vary between invocations.
    pub varying_depth: usize,
    pub next_temp: u32,
    /// Subroutine bodies, function tables and interfaces (empty for most programs).
    pub linkage: dxbc::Linkage,
    /// The bodies lowered so far, by label index (`subroutines`).
    pub bodies: subroutines::Bodies,
    /// Temps as module variables (`var<private>`), by register and component: a program with
    /// bodies shares its temps between functions. Empty otherwise.
    pub private_temps: Vec<[Option<Handle<GlobalVariable>>; 4]>,
    /// The slopes of the attributes the program evaluates off the pixel centre
    /// (`evaluation`), set at the top of `run`.
    pub planes: evaluation::Planes,
    /// Where the input and output declarations are in the program, found by the scan: the
    /// entry point reads them twice, and walking the whole program for them each time was a
    /// per cent of lowering (docs/corpus.md).
    pub io_declarations: smallvec::SmallVec<[u32; 16]>,
}

impl Ctx<'_> {
    /// Record that the translation relies on catalog entry `id`.
    pub fn relies(&mut self, entry: &'static str) {
        self.used.record(entry);
    }

    /// A call of polyfill `name` (copied into the module on first use, with what it calls).
    /// A polyfill that cannot be copied refuses the translation when it ends; the call then
    /// reads 0 so the lowering can go on.
    pub fn helper(&mut self, name: &'static str, args: Vec<H>) -> H {
        match self.imported.function(&mut self.module, name) {
            Ok(f) => self.b.call(f, args),
            Err(e) => {
                self.failed.get_or_insert_with(|| {
                    Rejection::new(id::NOT_LOWERED, format!("polyfill {name}: {}", e.0))
                });
                self.b.u(0)
            }
        }
    }

    /// A new `var<private>` of the module: state that `run` and the bodies share.
    pub fn private_global(
        &mut self,
        name: String,
        ty: Handle<naga::Type>,
    ) -> Handle<GlobalVariable> {
        self.module.global_variables.append(
            GlobalVariable {
                name: Some(name),
                space: naga::AddressSpace::Private,
                binding: None,
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            naga::Span::UNDEFINED,
        )
    }

    /// A module variable's expression in `run`.
    pub fn global(&mut self, g: Handle<GlobalVariable>) -> H {
        let i = g.index();
        if let Some(Some(h)) = self.global_exprs.get(i) {
            return *h;
        }
        let h = self.b.expr(naga::Expression::GlobalVariable(g));
        if i >= self.global_exprs.len() {
            self.global_exprs.resize(i + 1, None);
        }
        self.global_exprs[i] = Some(h);
        h
    }

    /// A fresh name for a function-local variable.
    pub fn fresh(&mut self) -> String {
        self.next_temp += 1;
        build::numbered("tmp", self.next_temp, "")
    }

    pub fn exact(&self) -> bool {
        self.profile == Profile::Exact
    }
}

/// Whether an opcode samples by comparison.
pub(crate) fn is_comparison(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::SampleC | Opcode::SampleCLz | Opcode::Gather4C | Opcode::Gather4PoC
    )
}

/// The operand that names a texture instruction's `t#`: the third, or the fourth for the
/// `gather4_po` forms, whose offset register comes before it.
pub(crate) fn resource_operand(inst: &Instruction) -> Option<&dxbc::Operand> {
    inst.operands.get(resource_at(inst))
}

/// The `s#` a texture instruction samples through: the operand after its `t#`, when it is a
/// sampler (`ld` and its kin have none).
pub(crate) fn sampler_operand(inst: &Instruction) -> Option<&dxbc::Operand> {
    inst.operands
        .get(resource_at(inst) + 1)
        .filter(|o| o.ty == dxbc::OperandType::Sampler)
}

/// Where a texture instruction's `t#` is among its operands.
fn resource_at(inst: &Instruction) -> usize {
    match inst.opcode {
        Opcode::Gather4Po | Opcode::Gather4PoC => 3,
        _ => 2,
    }
}

/// The context of lowering `program`, nothing read yet. Inlined, and filled by [`scan::scan`]
/// through a reference: the context (3 KiB) is built where it stays, where a context returned
/// in a `Result` was copied twice (into the result, then out of it).
#[inline(always)]
fn context<'a>(
    program: &'a Program,
    signatures: &'a [Signature],
    profile: Profile,
    stage: Stage,
) -> Ctx<'a> {
    Ctx {
        program,
        signatures,
        profile,
        stage,
        temps: 0,
        inputs: 0,
        outputs: 0,
        enables: BTreeSet::new(),
        cbs: SlotMap::new(),
        icb: None,
        indexable: SlotMap::new(),
        srvs: SlotMap::new(),
        uavs: SlotMap::new(),
        samplers: SlotSet::new(),
        comparison_samplers: SlotSet::new(),
        inputs_written: false,
        depth_textures: SlotSet::new(),
        non_filtering_samplers: SlotSet::new(),
        tgsm: SlotMap::new(),
        atomic_uavs: SlotSet::new(),
        counter_uavs: SlotSet::new(),
        loaded_uavs: SlotSet::new(),
        atomic_tgsm: SlotSet::new(),
        workgroup: [1, 1, 1],
        used: relied::Relied::default(),
        module: spare::module(),
        // About an emit and a store per component written: one allocation for most programs.
        b: Body::with_capacity("run", program.instructions.len() * 4),
        imported: import::Imported::default(),
        failed: None,
        g: declare::Globals::default(),
        global_exprs: smallvec::SmallVec::new(),
        temp_vars: Vec::new(),
        regs: smallvec::SmallVec::new(),
        fetched: smallvec::SmallVec::new(),
        types: Types::default(),
        frames: Vec::new(),
        needs_derivative_opt_out: false,
        opaque_literals: false,
        opaque_non_finite: false,
        varying_depth: 0,
        next_temp: 0,
        io_declarations: smallvec::SmallVec::new(),
        linkage: dxbc::Linkage::default(),
        bodies: subroutines::Bodies::new(),
        private_temps: Vec::new(),
        planes: Vec::new(),
    }
}

/// Emit a whole module.
pub fn emit(
    program: &Program,
    signatures: &[Signature],
    profile: Profile,
) -> Result<Emitted, Rejection> {
    // Every lowering indexes operands by the opcode table's counts. The decoder keeps to them;
    // a program built in memory that does not is refused here, never a panic later.
    for (i, inst) in program.instructions.iter().enumerate() {
        let info = inst.info();
        let need = usize::from(info.dst) + usize::from(info.src);
        if inst.operands.len() < need {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                format!(
                    "`{}` has {} operands, the opcode needs {need}",
                    inst.opcode.mnemonic(),
                    inst.operands.len()
                ),
            )
            .at(i, inst.opcode));
        }
    }
    let stage = program.version.stage;
    if !matches!(stage, Stage::Pixel | Stage::Vertex | Stage::Compute) {
        return Err(reject_stage(stage));
    }
    let mut c = context(program, signatures, profile, stage);
    scan::scan(&mut c)?;
    let structure = flow::check_structure(program)?;
    let mut bindings = Vec::new();
    declare::declare(&mut c, &mut bindings);
    c.temp_vars = vec![[None; 4]; c.temps as usize];
    c.attribute_planes();
    if !c.linkage.is_empty() {
        c.private_temps = vec![[None; 4]; c.temps as usize];
        c.lower_bodies(&structure)?;
    }
    let main_end = dxbc::Linkage::main_end(&program.instructions);
    for (i, inst) in program.instructions[..main_end].iter().enumerate() {
        if inst.info().is_declaration() || inst.opcode == Opcode::Customdata {
            continue;
        }
        c.instruction(inst, i, &structure)
            .map_err(|r| r.at(i, inst.opcode))?;
    }
    if let Some(r) = c.failed.take() {
        return Err(r);
    }
    let body = std::mem::replace(&mut c.b, Body::new("")).finish();
    let run = c.module.functions.append(body, naga::Span::UNDEFINED);
    let manifest_io = io::entry_point(&mut c, run)?;
    if c.needs_derivative_opt_out && c.profile == Profile::Contract {
        // What a divergent quad's derivative gives is D3D's undefined result either way
        // (`dxdiff/d3d-undefined`); only the contract profile lists the seed's adaptation.
        c.relies(id::DERIVATIVE_UNIFORMITY);
    }
    let stage = match c.stage {
        Stage::Pixel => "fragment",
        Stage::Vertex => "vertex",
        _ => "compute",
    };
    let manifest = Manifest {
        stage: stage.into(),
        entry_point: "main".into(),
        workgroup_size: (c.stage == Stage::Compute).then_some(c.workgroup),
        bindings,
        inputs: manifest_io.0,
        outputs: manifest_io.1,
        enables: c.enables.iter().map(|e| e.to_string()).collect(),
    };
    Ok(Emitted {
        module: c.module,
        header: header(program, c.needs_derivative_opt_out),
        manifest,
        adaptations: c.used.sorted(),
    })
}

/// A program lowered to naga IR, not yet validated or written.
#[derive(Debug)]
pub struct Emitted {
    /// The module: `run`, the entry point `main`, the polyfills and bindings they use.
    pub module: naga::Module,
    /// What the WGSL starts with, which naga's IR does not carry: a comment naming the program's
    /// model and the derivative-uniformity opt-out (naga's writer writes the `enable`s itself).
    pub header: String,
    /// Where each register and resource sits, for the harness.
    pub manifest: Manifest,
    /// The catalog ids the lowering relied on, sorted: the catalog's own strings, copied only
    /// into the [`crate::Translation`] that [`crate::finish`] makes.
    pub adaptations: Vec<&'static str>,
}

/// The WGSL lines before the module: see [`Emitted::header`]. The profile is not named, so a
/// program both profiles lower alike gets the same bytes, and a corpus transition between
/// profiles names only the programs whose lowering differs.
fn header(program: &Program, derivatives: bool) -> String {
    let mut out = String::with_capacity(128);
    out.push_str("// dxdiff built-in translator, ");
    program.version.push_name(&mut out);
    out.push('\n');
    if derivatives {
        out.push_str("// Derivatives under non-uniform control flow, as D3D11 allowed them.\n");
        out.push_str("diagnostic(off, derivative_uniformity);\n");
    }
    out + "\n"
}

/// The binding record for the manifest.
pub fn binding(kind: BindingKind, register: u32, binding: u32, layout: BindingLayout) -> Binding {
    Binding {
        kind,
        register,
        group: 0,
        binding,
        layout,
        size_bytes: None,
        stride: None,
        texture1d: false,
    }
}

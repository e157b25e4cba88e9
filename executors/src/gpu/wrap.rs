//! Pixel and vertex programs as compute kernels. The stage entry point is rewritten in naga IR
//! into an ordinary function (bindings stripped, `discard` turned into a flag and a return), the
//! module is written back to WGSL, and a compute entry point is appended that reads each
//! argument from a storage buffer of words, calls the function, and stores every result
//! component (and the discard flag) as words. One invocation per input vector.
//!
//! With `per_invocation_uniforms`, every constant buffer is read from a per-invocation storage
//! array instead, so one dispatch can run many input vectors that each have their own
//! constant-buffer contents (uniforms are what most test programs read their inputs from).

use translator::NagaError;

pub use super::builtins::{interface_register, wgsl_builtin};
pub use super::kernel::{Kernel, QUADS_PER_ROW};

use naga::{
    Binding, Block, Expression, Literal, Module, ScalarKind, ShaderStage, Statement, TypeInner,
};

/// Where an interface value sits in the word records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// `location N` or the builtin's WGSL name.
    pub binding: String,
    /// First word of the value within its record.
    pub offset: u32,
    /// Components (one word each): 1 to 4, or up to 8 for `clip_distances`.
    pub width: u32,
}

/// A slot's source or target: a register and the components of it the slot's words cover.
pub type Source = (usize, std::ops::Range<usize>);

impl Slot {
    /// The register this slot stands for, through the manifest's interfaces, and the components
    /// its words cover: from the interface mask's first component, all four for a vec4.
    pub fn register(
        &self,
        interfaces: &[translator::manifest::Interface],
        output: bool,
    ) -> Option<Source> {
        let (register, mask) = interfaces.iter().find_map(|i| {
            let same = match self.binding.strip_prefix("location ") {
                Some(l) => i.location.map(|x| x.to_string()).as_deref() == Some(l),
                None => i.builtin.as_deref() == Some(self.binding.as_str()),
            };
            same.then_some((interface_register(i, output)?, i.mask))
        })?;
        let first = if self.width >= 4 {
            0
        } else {
            mask.trailing_zeros().min(3) as usize
        };
        Some((
            register as usize,
            first..(first + self.width as usize).min(4),
        ))
    }

    /// The registers an output slot's words go to, each with the first of the slot's words it
    /// takes: one register, or for an array builtin the manifest lists once per register
    /// (`clip_distances` over two registers, D3D's 8 distances), each register in turn, its
    /// mask's components taking the next words. Empty where no interface names the slot.
    pub fn targets(&self, interfaces: &[translator::manifest::Interface]) -> Vec<(u32, Source)> {
        let mut parts: Vec<(u32, u8)> = interfaces
            .iter()
            .filter(|i| {
                self.binding.strip_prefix("location ").is_none()
                    && i.builtin.as_deref() == Some(self.binding.as_str())
            })
            .filter_map(|i| Some((interface_register(i, true)?, i.mask)))
            .collect();
        if parts.len() < 2 {
            return self
                .register(interfaces, true)
                .map(|s| (0, s))
                .into_iter()
                .collect();
        }
        parts.sort_unstable();
        let mut at = 0;
        let mut out = Vec::with_capacity(parts.len());
        for (register, mask) in parts {
            let first = mask.trailing_zeros().min(3) as usize;
            let n = (mask.count_ones() as usize).min(4 - first);
            if at + n as u32 > self.width {
                break;
            }
            out.push((at, (register as usize, first..first + n)));
            at += n as u32;
        }
        out
    }
}

impl Wrapped {
    /// Where each input slot's words come from, resolved once per program.
    pub fn input_sources(
        &self,
        inputs: &[translator::manifest::Interface],
    ) -> Result<Vec<Source>, WrapError> {
        self.inputs
            .iter()
            .map(|slot| {
                slot.register(inputs, false)
                    .ok_or_else(|| WrapError::NoRegister(slot.binding.clone()))
            })
            .collect()
    }
}

/// Append one invocation's input record, given the `v#` registers it runs with.
pub fn push_record(sources: &[Source], regs: &[[u32; 4]], out: &mut Vec<u32>) {
    for (register, comps) in sources {
        let v = regs.get(*register).copied().unwrap_or([0; 4]);
        out.extend(comps.clone().map(|c| v[c]));
    }
}

/// A constant buffer that the wrapped kernel reads per invocation: the records group
/// ([`Wrapped::records_group`]), binding `2 + index`, holds one copy of `stride_words` words
/// for each invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaneUniform {
    /// The `@group`/`@binding` the constant buffer had (the manifest's binding).
    pub group: u32,
    /// The `@binding` within that group.
    pub binding: u32,
    /// Words per invocation's copy (the uniform type's size in a storage array).
    pub stride_words: u32,
}

/// The wrapped kernel and its record layout.
#[derive(Debug, Clone)]
pub struct Wrapped {
    /// The compute module: the rewritten stage function plus the `dxdiff_kernel` entry point.
    pub wgsl: String,
    /// The stage's arguments, in input-record order.
    pub inputs: Vec<Slot>,
    /// The stage's results, in output-record order.
    pub outputs: Vec<Slot>,
    /// Words per input record and per output record (the last output word is the discard flag).
    pub in_stride: u32,
    /// Words per output record: the outputs, then the discard flag.
    pub out_stride: u32,
    /// The discard flag's word within an output record.
    pub discard_offset: u32,
    /// Constant buffers read per invocation, in binding order (empty unless asked for).
    pub lane_uniforms: Vec<LaneUniform>,
    /// The bind group of the harness's own buffers (records in, records out, per-invocation
    /// constants): the lowest group the translator's module leaves free, so a translator may
    /// declare its resources in any groups it likes.
    pub records_group: u32,
}

/// The lowest bind group no global of `module` is bound in.
fn free_group(module: &Module) -> u32 {
    let used: std::collections::BTreeSet<u32> = module
        .global_variables
        .iter()
        .filter_map(|(_, g)| g.binding.as_ref().map(|b| b.group))
        .collect();
    (0..).find(|g| !used.contains(g)).unwrap_or(0)
}

/// Why a program cannot be wrapped (the caller's `wrap` skip). naga failing on dxdiff's own
/// rewrite is never the translator's fault (the policy is at [`translator::NagaError`]).
/// Codes: `wrap.parse`, `wrap.no-entry-point`, `wrap.scalar`, `wrap.interface-type`,
/// `wrap.invalid`, `wrap.write`, `wrap.layout`, `wrap.uniforms`, `wrap.kernel-parse`,
/// `wrap.kernel-invalid`, `wrap.no-register`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WrapError {
    /// The translator's WGSL does not parse.
    #[error("{0}")]
    Parse(NagaError),
    /// The module has no pixel or vertex entry point to wrap.
    #[error("no pixel or vertex entry point")]
    NoEntryPoint,
    /// An interface value's scalar is not 32-bit (or bool), so it has no word form.
    #[error("interface scalar {0} is not supported")]
    Scalar(String),
    /// An interface value is neither a scalar nor a vector.
    #[error("interface type {0} is not supported")]
    InterfaceType(String),
    /// The module with the entry point rewritten into a function does not validate.
    #[error("the rewritten module does not validate: {0}")]
    Invalid(NagaError),
    /// naga cannot write the rewritten module back to WGSL.
    #[error("writing the rewritten module: {0}")]
    Write(NagaError),
    /// naga cannot lay out the module's types (needed for per-invocation uniform strides).
    #[error("laying out the module's types: {0}")]
    Layout(String),
    /// The text rewrite of uniforms found a declaration it cannot read.
    #[error("{0}")]
    Uniforms(&'static str),
    /// The kernel after the per-invocation uniform rewrite does not parse.
    #[error("the per-invocation kernel does not parse: {0}")]
    KernelParse(NagaError),
    /// The kernel after the per-invocation uniform rewrite does not validate.
    #[error("the per-invocation kernel does not validate: {0}")]
    KernelInvalid(NagaError),
    /// The manifest names no register for an input slot.
    #[error("no register for input {0}")]
    NoRegister(String),
}

impl WrapError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            WrapError::Parse(_) => "wrap.parse",
            WrapError::NoEntryPoint => "wrap.no-entry-point",
            WrapError::Scalar(_) => "wrap.scalar",
            WrapError::InterfaceType(_) => "wrap.interface-type",
            WrapError::Invalid(_) => "wrap.invalid",
            WrapError::Write(_) => "wrap.write",
            WrapError::Layout(_) => "wrap.layout",
            WrapError::Uniforms(_) => "wrap.uniforms",
            WrapError::KernelParse(_) => "wrap.kernel-parse",
            WrapError::KernelInvalid(_) => "wrap.kernel-invalid",
            WrapError::NoRegister(_) => "wrap.no-register",
        }
    }
}

fn binding_name(b: &Option<Binding>) -> String {
    match b {
        Some(Binding::Location { location, .. }) => format!("location {location}"),
        Some(Binding::BuiltIn(b)) => wgsl_builtin(b).into_owned(),
        None => "unbound".into(),
    }
}

/// The name naga's WGSL writer gives a struct member (its namer appends `_` to a name that ends
/// in a digit, so `o0` is written `o0_`).
fn written_name(name: &str) -> String {
    if name.ends_with(|c: char| c.is_ascii_digit()) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// (component count, WGSL scalar name) of a scalar or vector type.
fn shape(module: &Module, ty: naga::Handle<naga::Type>) -> Result<(u32, &'static str), WrapError> {
    let scalar = |s: naga::Scalar| -> Result<&'static str, WrapError> {
        Ok(match (s.kind, s.width) {
            (ScalarKind::Float, 4) => "f32",
            (ScalarKind::Uint, 4) => "u32",
            (ScalarKind::Sint, 4) => "i32",
            (ScalarKind::Bool, _) => "bool",
            _ => return Err(WrapError::Scalar(format!("{s:?}"))),
        })
    };
    match module.types[ty].inner {
        TypeInner::Scalar(s) => Ok((1, scalar(s)?)),
        TypeInner::Vector { size, scalar: s } => Ok((size as u32, scalar(s)?)),
        // `clip_distances`: an array of up to eight f32, one or two registers' components.
        TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(n),
            ..
        } if n.get() <= 8
            && matches!(
                module.types[base].inner,
                TypeInner::Scalar(naga::Scalar::F32)
            ) =>
        {
            Ok((n.get(), "f32"))
        }
        ref other => Err(WrapError::InterfaceType(format!("{other:?}"))),
    }
}

/// The WGSL type of `n` components of `scalar`.
fn wgsl_type(n: u32, scalar: &str) -> String {
    if n == 1 {
        scalar.to_string()
    } else {
        format!("vec{n}<{scalar}>")
    }
}

/// One argument of the stage's entry point: its bound values' shapes, and for a struct the
/// constructor that rebuilds it from them.
struct Argument {
    constructor: Option<String>,
    parts: Vec<(u32, &'static str)>,
}

/// A word as `scalar`, and back.
fn from_word(word: &str, scalar: &str) -> String {
    match scalar {
        "u32" => word.to_string(),
        "bool" => format!("({word} != 0u)"),
        s => format!("bitcast<{s}>({word})"),
    }
}

fn to_word(value: &str, scalar: &str) -> String {
    match scalar {
        "u32" => value.to_string(),
        "bool" => format!("select(0u, 1u, {value})"),
        _ => format!("bitcast<u32>({value})"),
    }
}

/// What a `discard` becomes: set the flag, then return (compute has no discard), with the
/// function's zero value when it returns one: an entry point that returns its outputs (as
/// third-party translators write them) must still return something, and the outputs of a
/// discarded invocation are never read.
#[derive(Clone, Copy)]
struct Kill {
    flag: naga::Handle<Expression>,
    one: naga::Handle<Expression>,
    zero: Option<naga::Handle<Expression>>,
}

/// Replace every `discard` in a block with [`Kill`]'s statements.
fn replace_kills(block: &mut Block, k: Kill) {
    for stmt in block.iter_mut() {
        match stmt {
            Statement::Kill => {
                *stmt = Statement::Block(Block::from_vec(vec![
                    Statement::Store {
                        pointer: k.flag,
                        value: k.one,
                    },
                    Statement::Return { value: k.zero },
                ]));
            }
            Statement::Block(b) => replace_kills(b, k),
            Statement::If { accept, reject, .. } => {
                replace_kills(accept, k);
                replace_kills(reject, k);
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                replace_kills(body, k);
                replace_kills(continuing, k);
            }
            Statement::Switch { cases, .. } => {
                for c in cases {
                    replace_kills(&mut c.body, k);
                }
            }
            _ => {}
        }
    }
}

/// Words per element of a uniform's type in a storage array, by its (group, binding).
type Strides = Vec<((u32, u32), u32)>;

fn uniform_strides(module: &Module) -> Result<Strides, WrapError> {
    let mut layouter = naga::proc::Layouter::default();
    layouter
        .update(module.to_ctx())
        .map_err(|e| WrapError::Layout(e.to_string()))?;
    Ok(module
        .global_variables
        .iter()
        .filter(|(_, g)| g.space == naga::AddressSpace::Uniform)
        .filter_map(|(_, g)| {
            let b = g.binding.as_ref()?;
            let layout = layouter[g.ty];
            Some((
                (b.group, b.binding),
                layout.alignment.round_up(layout.size) / 4,
            ))
        })
        .collect())
}

/// Rewrite the written module so that every uniform is read from a per-invocation storage
/// array: the declaration goes, each use of its name becomes `dxdiff_uK[dxdiff_lane]`.
///
/// Done on the text naga wrote rather than in IR: replacing a global-variable expression by
/// an access would need new expressions ahead of it in the arena. Copying each buffer into
/// a private variable instead made llvmpipe's compile time explode for large buffers
/// (a 5 KB constant buffer timed out at 20 s).
fn uniforms_per_invocation(
    text: &str,
    strides: &Strides,
    records_group: u32,
) -> Result<(String, Vec<LaneUniform>), WrapError> {
    let mut out = text.to_string();
    let mut found: Vec<(String, String, u32, u32)> = Vec::new();
    while let Some(at) = out.find("var<uniform> ") {
        let end = out[at..]
            .find(';')
            .map(|e| at + e)
            .ok_or(WrapError::Uniforms("a uniform declaration without `;`"))?;
        let decl = &out[at + "var<uniform> ".len()..end];
        let (name, ty) = decl
            .split_once(':')
            .ok_or(WrapError::Uniforms("a uniform declaration without a type"))?;
        let start = out[..at]
            .rfind("@group(")
            .ok_or(WrapError::Uniforms("a uniform without @group"))?;
        let attrs = &out[start..at];
        let num = |key: &str| -> Option<u32> {
            let i = attrs.find(key)? + key.len();
            attrs[i..].split(')').next()?.trim().parse().ok()
        };
        let (Some(group), Some(binding)) = (num("@group("), num("@binding(")) else {
            return Err(WrapError::Uniforms(
                "a uniform whose binding cannot be read",
            ));
        };
        found.push((
            name.trim().to_string(),
            ty.trim().to_string(),
            group,
            binding,
        ));
        out.replace_range(start..=end, "");
    }
    let names: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
    let mut rewritten = String::with_capacity(out.len() + 64 * found.len());
    let bytes = out.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let j = bytes[i..]
                .iter()
                .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
                .map_or(bytes.len(), |p| i + p);
            let word = &out[i..j];
            let member = out[..i].trim_end().ends_with('.');
            match names.iter().position(|n| *n == word) {
                Some(k) if !member => rewritten.push_str(&format!("dxdiff_u{k}[dxdiff_lane]")),
                _ => rewritten.push_str(word),
            }
            i = j;
        } else {
            let ch = out[i..].chars().next().unwrap_or(' ');
            rewritten.push(ch);
            i += ch.len_utf8();
        }
    }
    let mut lanes = Vec::new();
    if !found.is_empty() {
        rewritten.push_str("\nvar<private> dxdiff_lane: u32;\n");
    }
    for (k, (_, ty, group, binding)) in found.iter().enumerate() {
        let stride = strides
            .iter()
            .find(|(gb, _)| *gb == (*group, *binding))
            .map(|(_, s)| *s)
            .ok_or(WrapError::Uniforms("a uniform naga did not lay out"))?;
        rewritten.push_str(&format!(
            "@group({records_group}) @binding({}) var<storage, read> dxdiff_u{k}: array<{ty}>;\n",
            2 + k
        ));
        lanes.push(LaneUniform {
            group: *group,
            binding: *binding,
            stride_words: stride,
        });
    }
    Ok((rewritten, lanes))
}

/// Wrap the pixel or vertex entry point of `wgsl` into a compute kernel.
pub fn wrap(wgsl: &str) -> Result<Wrapped, WrapError> {
    wrap_with(wgsl, false)
}

/// [`wrap`], optionally with constant buffers read per invocation (see the module's doc).
/// [`wrap_with`] into a compute kernel.
pub fn wrap_with(wgsl: &str, per_invocation_uniforms: bool) -> Result<Wrapped, WrapError> {
    wrap_as(wgsl, per_invocation_uniforms, Kernel::Compute)
}

/// Rewrite a pixel or vertex module's entry point into a `kernel` that reads its inputs from
/// records and writes its outputs and discard flag to records.
pub fn wrap_as(
    wgsl: &str,
    per_invocation_uniforms: bool,
    kernel: Kernel,
) -> Result<Wrapped, WrapError> {
    let mut module = naga::front::wgsl::parse_str(wgsl)
        .map_err(|e| WrapError::Parse(NagaError::parse(&e, wgsl)))?;
    let index = module
        .entry_points
        .iter()
        .position(|e| matches!(e.stage, ShaderStage::Fragment | ShaderStage::Vertex))
        .ok_or(WrapError::NoEntryPoint)?;
    let ep = module.entry_points.remove(index);
    let mut function = ep.function;
    // The discard flag, as a private global.
    let u32_ty = module.types.insert(
        naga::Type {
            name: None,
            inner: TypeInner::Scalar(naga::Scalar::U32),
        },
        naga::Span::UNDEFINED,
    );
    let flag = module.global_variables.append(
        naga::GlobalVariable {
            name: Some("dxdiff_discarded".into()),
            space: naga::AddressSpace::Private,
            binding: None,
            ty: u32_ty,
            init: None,
            memory_decorations: Default::default(),
        },
        naga::Span::UNDEFINED,
    );
    // Every function may hold a discard (the translator's body is a helper function).
    let mut handles: Vec<naga::Handle<naga::Function>> =
        module.functions.iter().map(|(h, _)| h).collect();
    handles.sort();
    let patch = |f: &mut naga::Function| {
        let g = f
            .expressions
            .append(Expression::GlobalVariable(flag), naga::Span::UNDEFINED);
        let one = f
            .expressions
            .append(Expression::Literal(Literal::U32(1)), naga::Span::UNDEFINED);
        let zero = f.result.as_ref().map(|r| {
            f.expressions
                .append(Expression::ZeroValue(r.ty), naga::Span::UNDEFINED)
        });
        let mut body = std::mem::take(&mut f.body);
        replace_kills(&mut body, Kill { flag: g, one, zero });
        f.body = body;
    };
    for h in handles {
        patch(&mut module.functions[h]);
    }
    patch(&mut function);
    // Each argument is a value with a binding, or a struct whose members have them (as
    // translators that gather their inputs write it): either way one slot per bound value,
    // in order, and the argument rebuilt from its slots in the kernel.
    let mut inputs = Vec::new();
    let mut in_offset = 0;
    let mut arg_types: Vec<Argument> = Vec::new();
    for arg in &mut function.arguments {
        let mut parts = Vec::new();
        let constructor = match &module.types[arg.ty].inner {
            TypeInner::Struct { members, .. } => {
                for m in members {
                    parts.push((binding_name(&m.binding), shape(&module, m.ty)?));
                }
                let name = module.types[arg.ty].name.as_deref().unwrap_or("Input");
                Some(written_name(name))
            }
            _ => {
                parts.push((binding_name(&arg.binding), shape(&module, arg.ty)?));
                None
            }
        };
        for (binding, (n, _)) in &parts {
            inputs.push(Slot {
                binding: binding.clone(),
                offset: in_offset,
                width: *n,
            });
            in_offset += n;
        }
        arg_types.push(Argument {
            constructor,
            parts: parts.into_iter().map(|(_, s)| s).collect(),
        });
        arg.binding = None;
    }
    let mut outputs = Vec::new();
    let mut out_offset = 0;
    let mut result_members: Vec<(String, u32, &'static str)> = Vec::new();
    if let Some(result) = &mut function.result {
        match &module.types[result.ty].inner {
            TypeInner::Struct { members, .. } => {
                for m in members.clone() {
                    let (n, s) = shape(&module, m.ty)?;
                    outputs.push(Slot {
                        binding: binding_name(&m.binding),
                        offset: out_offset,
                        width: n,
                    });
                    result_members.push((
                        format!(".{}", written_name(m.name.as_deref().unwrap_or("member"))),
                        n,
                        s,
                    ));
                    out_offset += n;
                }
            }
            _ => {
                let (n, s) = shape(&module, result.ty)?;
                outputs.push(Slot {
                    binding: binding_name(&result.binding),
                    offset: 0,
                    width: n,
                });
                result_members.push((String::new(), n, s));
                out_offset = n;
            }
        }
        result.binding = None;
    }
    function.name = Some("dxdiff_stage_main".into());
    let has_result = function.result.is_some();
    module.functions.append(function, naga::Span::UNDEFINED);
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map_err(|e| WrapError::Invalid(NagaError::invalid(&e, wgsl)))?;
    let mut text =
        naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
            .map_err(|e| {
                WrapError::Write(NagaError::Write {
                    message: e.to_string(),
                })
            })?;
    // The module's global diagnostic filters (`diagnostic(off, derivative_uniformity);`), which
    // naga's writer leaves out: without them a browser rejects derivatives the translator
    // placed in non-uniform control flow on purpose.
    let filters: String = wgsl
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("diagnostic(") && !text.contains(*l))
        .map(|l| format!("{l}\n"))
        .collect();
    text.insert_str(0, &filters);
    let records_group = free_group(&module);
    let mut lane_uniforms = Vec::new();
    if per_invocation_uniforms {
        (text, lane_uniforms) =
            uniforms_per_invocation(&text, &uniform_strides(&module)?, records_group)?;
    }
    let in_stride = in_offset.max(1);
    let out_stride = out_offset + 1;
    text.push_str(&format!(
        "\n@group({records_group}) @binding(0) var<storage, read> dxdiff_in: array<u32>;\n\
         @group({records_group}) @binding(1) var<storage, read_write> dxdiff_out: array<u32>;\n\n"
    ));
    match kernel {
        Kernel::Compute => text.push_str(&format!(
            "@compute @workgroup_size(64)\nfn dxdiff_kernel(@builtin(global_invocation_id) gid: vec3<u32>) {{\n\
             \x20   let lane = gid.x;\n    if (lane >= arrayLength(&dxdiff_out) / {out_stride}u) {{\n        return;\n    }}\n"
        )),
        // Every pixel of the grid runs the stage in uniform control flow (a helper past the
        // last vector reads the last record), so that derivatives are defined; only pixels
        // of a vector write.
        Kernel::Quads => text.push_str(&format!(
            "@fragment\nfn dxdiff_fragment(@builtin(position) dxdiff_pos: vec4<f32>) -> @location(0) vec4<f32> {{\n\
             \x20   let px = u32(dxdiff_pos.x);\n    let py = u32(dxdiff_pos.y);\n\
             \x20   let pixel = ((py / 2u) * {QUADS_PER_ROW}u + px / 2u) * 4u + (py % 2u) * 2u + px % 2u;\n\
             \x20   let count = arrayLength(&dxdiff_out) / {out_stride}u;\n\
             \x20   let lane = min(pixel, max(count, 1u) - 1u);\n"
        )),
    }
    text.push_str(&format!("    let base = lane * {in_stride}u;\n"));
    let mut args = Vec::new();
    let mut off = 0;
    for (k, arg) in arg_types.iter().enumerate() {
        let mut values = Vec::new();
        for (n, s) in &arg.parts {
            let comps: Vec<String> = (0..*n)
                .map(|j| from_word(&format!("dxdiff_in[base + {}u]", off + j), s))
                .collect();
            off += n;
            let ty = wgsl_type(*n, s);
            values.push(if *n == 1 {
                comps[0].clone()
            } else {
                format!("{ty}({})", comps.join(", "))
            });
        }
        match &arg.constructor {
            Some(ty) => text.push_str(&format!("    let a{k} = {ty}({});\n", values.join(", "))),
            None => text.push_str(&format!("    let a{k} = {};\n", values.join(", "))),
        }
        args.push(format!("a{k}"));
    }
    if !lane_uniforms.is_empty() {
        text.push_str("    dxdiff_lane = lane;\n");
    }
    text.push_str(&format!("    let out = lane * {out_stride}u;\n"));
    if has_result {
        text.push_str(&format!(
            "    let r = dxdiff_stage_main({});\n",
            args.join(", ")
        ));
    } else {
        text.push_str(&format!("    dxdiff_stage_main({});\n", args.join(", ")));
    }
    if kernel == Kernel::Quads {
        text.push_str("    if (pixel < count) {\n");
    }
    let mut off = 0;
    for (member, n, s) in &result_members {
        for j in 0..*n {
            let v = if *n == 1 {
                format!("r{member}")
            } else {
                format!("r{member}[{j}]")
            };
            text.push_str(&format!(
                "    dxdiff_out[out + {}u] = {};\n",
                off + j,
                to_word(&v, s)
            ));
        }
        off += n;
    }
    text.push_str(&format!(
        "    dxdiff_out[out + {out_offset}u] = dxdiff_discarded;\n"
    ));
    if kernel == Kernel::Quads {
        text.push_str("    }\n    return vec4<f32>();\n");
    }
    text.push_str("}\n");
    if per_invocation_uniforms {
        // The text rewrite is checked here, so a mistake is a clear skip, not a device error.
        let m = naga::front::wgsl::parse_str(&text)
            .map_err(|e| WrapError::KernelParse(NagaError::parse(&e, &text)))?;
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&m)
        .map_err(|e| {
            // naga's plain message (not rendered against the source), as it always was.
            WrapError::KernelInvalid(NagaError::Invalid {
                message: e.to_string(),
                offset: e.location(&text).map(|l| l.offset as usize),
            })
        })?;
    }
    Ok(Wrapped {
        wgsl: text,
        inputs,
        outputs,
        in_stride,
        out_stride,
        discard_offset: out_offset,
        lane_uniforms,
        records_group,
    })
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn wrap_error_codes_are_distinct_and_not_empty() {
        let naga = || NagaError::Write {
            message: "m".into(),
        };
        let all = [
            WrapError::Parse(naga()),
            WrapError::NoEntryPoint,
            WrapError::Scalar("s".into()),
            WrapError::InterfaceType("t".into()),
            WrapError::Invalid(naga()),
            WrapError::Write(naga()),
            WrapError::Layout("l".into()),
            WrapError::Uniforms("u"),
            WrapError::KernelParse(naga()),
            WrapError::KernelInvalid(naga()),
            WrapError::NoRegister("location 0".into()),
        ];
        let codes: std::collections::BTreeSet<_> = all.iter().map(WrapError::code).collect();
        assert_eq!(codes.len(), all.len());
        assert!(codes.iter().all(|c| !c.is_empty()));
    }

    #[test]
    fn a_discard_in_an_entry_point_that_returns_its_outputs_wraps() {
        // Third-party translators return the outputs from the entry point; a discard there
        // must still return a value (it was `return;`, and every such program was a `wrap`
        // skip).
        let w = wrap(
            "@fragment fn main(@location(0) x: vec4<f32>) -> @location(0) vec4<f32> {\n    if x.x > 0.0 { discard; }\n    return x;\n}\n",
        )
        .expect("wraps");
        assert!(w.wgsl.contains("dxdiff_discarded"), "{}", w.wgsl);
        translator::validate(&w.wgsl).expect("the kernel validates");
    }

    #[test]
    fn an_entry_point_that_takes_a_struct_wraps_with_one_slot_per_member() {
        // Third-party translators gather inputs in a struct (`fn main(input: VertexInput)`).
        let src = "struct VertexInput {\n    @location(0) input0: vec3<f32>,\n    @builtin(vertex_index) id: u32,\n    @location(1) input1: vec2<u32>,\n};\n\
                   struct VertexOutput {\n    @builtin(position) position: vec4<f32>,\n    @location(0) output0: vec4<f32>,\n};\n\
                   @vertex\nfn main(input: VertexInput) -> VertexOutput {\n    var output: VertexOutput;\n    output.position = vec4<f32>(input.input0, f32(input.id));\n    output.output0 = vec4<f32>(vec2<f32>(input.input1), 0.0, 1.0);\n    return output;\n}\n";
        let w = wrap(src).expect("wraps");
        let bindings: Vec<(&str, u32, u32)> = w
            .inputs
            .iter()
            .map(|s| (s.binding.as_str(), s.offset, s.width))
            .collect();
        assert_eq!(
            bindings,
            vec![
                ("location 0", 0, 3),
                ("vertex_index", 3, 1),
                ("location 1", 4, 2)
            ]
        );
        assert_eq!(w.in_stride, 6);
        assert!(w.wgsl.contains("VertexInput("), "{}", w.wgsl);
        translator::validate(&w.wgsl).expect("the kernel validates");
    }

    #[test]
    fn wgsl_that_does_not_parse_is_a_typed_wrap_error() {
        let e = wrap("fn (").expect_err("does not parse");
        assert_eq!(e.code(), "wrap.parse");
        let e = wrap("@compute @workgroup_size(1) fn main() {}").expect_err("no stage");
        assert_eq!(e.code(), "wrap.no-entry-point");
    }

    #[test]
    fn the_records_take_the_lowest_group_the_module_leaves_free() {
        let body = "@fragment fn main(@location(0) x: vec4<u32>) -> @location(0) vec4<u32> {\n    return x + a.v + b.v;\n}\n";
        let decls = |ga: u32, gb: u32| {
            format!(
                "struct S {{ v: vec4<u32> }}\n@group({ga}) @binding(0) var<uniform> a: S;\n@group({gb}) @binding(0) var<uniform> b: S;\n{body}"
            )
        };
        for (ga, gb, free) in [(0, 1, 2), (1, 3, 0), (0, 2, 1)] {
            let w = wrap_with(&decls(ga, gb), true).expect("wraps");
            assert_eq!(w.records_group, free);
            assert!(w.wgsl.contains(&format!(
                "@group({free}) @binding(0) var<storage, read> dxdiff_in"
            )));
            assert!(w.wgsl.contains(&format!("@group({free}) @binding(2)")));
            translator::validate(&w.wgsl).expect("the kernel validates");
        }
    }
}

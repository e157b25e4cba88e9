//! Stage interfaces: the entry point `main`, which copies inputs into the `v` registers, runs
//! the body, and returns the `o` registers. Input and output types come from the signatures; the
//! system values come from the `_siv`/`_sgv` declarations.

use std::borrow::Cow;
use std::collections::BTreeMap;

use naga::{
    Binding, BuiltIn, Expression, Function, Handle, Interpolation, Sampling, ShaderStage, Statement,
};

use dxbc::chunks::signature::Signature;
use dxbc::{InterpolationMode, OperandType, Stage, SystemValue, SystemValueName};

mod declared;

use declared::{ComponentType, Decl, Role, component_type, declarations, semantic};

use super::Ctx;
use super::Rejection;
use super::build::{self, Body, H};
use crate::manifest::Interface;
use crate::names as id;

type Io = (Vec<Interface>, Vec<Interface>);

/// The manifest entry of a plain register at `@location(r)`.
fn located(sigs: &[Signature], outputs: bool, r: u32, mask: u8, ty: &'static str) -> Interface {
    iface(Some(r), mask, Some(r), None, ty, semantic(sigs, outputs, r))
}

/// `@interpolate(...)` of a float input (an integer one is always flat): the interpolation
/// and sampling, `None` for WGSL's default (perspective, center).
fn interpolation(
    mode: InterpolationMode,
    integer: bool,
) -> Result<Option<(Interpolation, Option<Sampling>)>, Rejection> {
    use Interpolation::{Flat, Linear, Perspective};
    use InterpolationMode as M;
    if integer {
        return Ok(Some((Flat, None)));
    }
    Ok(match mode {
        M::Undefined | M::Linear => None,
        M::Constant => Some((Flat, None)),
        M::LinearCentroid => Some((Perspective, Some(Sampling::Centroid))),
        M::LinearNoPerspective => Some((Linear, None)),
        M::LinearNoPerspectiveCentroid => Some((Linear, Some(Sampling::Centroid))),
        M::LinearSample => Some((Perspective, Some(Sampling::Sample))),
        M::LinearNoPerspectiveSample => Some((Linear, Some(Sampling::Sample))),
        M::Other(m) => {
            return Err(Rejection::new(
                id::INTERPOLATION_MODES,
                format!("interpolation mode {m}"),
            ));
        }
    })
}

/// `@location(r)` with an interpolation, WGSL's default (perspective, center) for a float
/// one that names none, as naga's front end would fill it in.
fn location(r: u32, interp: Option<(Interpolation, Option<Sampling>)>, float: bool) -> Binding {
    let (interpolation, sampling) = match interp {
        Some((i, s)) => (Some(i), s),
        None if float => (Some(Interpolation::Perspective), Some(Sampling::Center)),
        None => (None, None),
    };
    Binding::Location {
        location: r,
        interpolation,
        sampling,
        blend_src: None,
        per_primitive: false,
    }
}

/// The IR type of a WGSL type name the interfaces use.
fn wgsl_type(c: &mut Ctx<'_>, name: &str) -> Handle<naga::Type> {
    use naga::VectorSize::Quad;
    match name {
        "u32" => c.scalar_ty(build::U32),
        "i32" => c.scalar_ty(build::I32),
        "f32" => c.scalar_ty(build::F32),
        "bool" => c.scalar_ty(naga::Scalar::BOOL),
        "vec4<u32>" => c.vector_ty(Quad, build::U32),
        "vec4<i32>" => c.vector_ty(Quad, build::I32),
        _ => c.vector_ty(Quad, build::F32),
    }
}

/// A manifest interface; a builtin is named as WGSL spells it (`manifest::wgsl_builtin`).
fn iface(
    register: Option<u32>,
    mask: u8,
    location: Option<u32>,
    builtin: Option<BuiltIn>,
    ty: &'static str,
    semantic: impl Into<Cow<'static, str>>,
) -> Interface {
    Interface {
        register,
        mask,
        location,
        builtin: builtin.map(|b| crate::manifest::wgsl_builtin(&b)),
        wgsl_type: Cow::Borrowed(ty),
        semantic: semantic.into(),
    }
}

/// The entry point `main`, added to the module, and the manifest's inputs and outputs.
pub fn entry_point(c: &mut Ctx<'_>, run: Handle<Function>) -> Result<Io, Rejection> {
    let (function, io) = match c.stage {
        Stage::Compute => compute(c, run)?,
        Stage::Pixel => pixel(c, run)?,
        Stage::Vertex => vertex(c, run)?,
        s => {
            return Err(Rejection::new(
                id::GEOMETRY_HULL_DOMAIN,
                format!("{s:?} programs"),
            ));
        }
    };
    let stage = stage_of(c.stage);
    c.module.entry_points.push(naga::EntryPoint {
        name: "main".into(),
        stage,
        early_depth_test: None,
        workgroup_size: if stage == ShaderStage::Compute {
            c.workgroup
        } else {
            [0; 3]
        },
        workgroup_size_overrides: None,
        function,
        mesh_info: None,
        task_payload: None,
        incoming_ray_payload: None,
    });
    Ok(io)
}

fn stage_of(s: Stage) -> ShaderStage {
    match s {
        Stage::Pixel => ShaderStage::Fragment,
        Stage::Vertex => ShaderStage::Vertex,
        _ => ShaderStage::Compute,
    }
}

/// An entry point under construction: its arguments, and `run`'s call after the copies.
struct Entry {
    body: Body,
}

impl Entry {
    fn new() -> Entry {
        Entry {
            body: Body::entry("main"),
        }
    }

    /// An argument with a binding; its expression.
    fn arg(&mut self, name: String, ty: Handle<naga::Type>, binding: Binding) -> H {
        let k = self.body.f.arguments.len() as u32;
        self.body.f.arguments.push(naga::FunctionArgument {
            name: Some(name),
            ty,
            binding: Some(binding),
        });
        self.body.expr(Expression::FunctionArgument(k))
    }

    /// A pointer to `v[r]` (or its component `comp`).
    fn reg(&mut self, g: Handle<naga::GlobalVariable>, r: u32, comp: Option<usize>) -> H {
        let base = self.body.expr(Expression::GlobalVariable(g));
        let p = self.body.at(base, r);
        match comp {
            Some(k) => self.body.at(p, k as u32),
            None => p,
        }
    }

    fn call(&mut self, run: Handle<Function>) {
        self.body.stmt(Statement::Call {
            function: run,
            arguments: Vec::new(),
            result: None,
        });
    }
}

fn compute(c: &mut Ctx<'_>, run: Handle<Function>) -> Result<(Function, Io), Rejection> {
    let mut e = Entry::new();
    let v3 = c.vector_ty(naga::VectorSize::Tri, build::U32);
    let u = c.scalar_ty(build::U32);
    let ids = [
        ("gid", v3, BuiltIn::GlobalInvocationId, c.g.thread_id),
        ("wid", v3, BuiltIn::WorkGroupId, c.g.group_id),
        ("lid", v3, BuiltIn::LocalInvocationId, c.g.thread_in_group),
        ("lix", u, BuiltIn::LocalInvocationIndex, c.g.thread_index),
    ];
    for (name, ty, b, g) in ids {
        let a = e.arg(name.into(), ty, Binding::BuiltIn(b));
        if let Some(g) = g {
            let p = e.body.expr(Expression::GlobalVariable(g));
            e.body.store(p, a);
        }
    }
    e.call(run);
    let ins = vec![
        iface(
            None,
            7,
            None,
            Some(BuiltIn::GlobalInvocationId),
            "vec3<u32>",
            "SV_DispatchThreadID",
        ),
        iface(
            None,
            7,
            None,
            Some(BuiltIn::WorkGroupId),
            "vec3<u32>",
            "SV_GroupID",
        ),
        iface(
            None,
            7,
            None,
            Some(BuiltIn::LocalInvocationId),
            "vec3<u32>",
            "SV_GroupThreadID",
        ),
        iface(
            None,
            1,
            None,
            Some(BuiltIn::LocalInvocationIndex),
            "u32",
            "SV_GroupIndex",
        ),
    ];
    Ok((e.body.finish(), (ins, Vec::new())))
}

/// The WGSL types of 1 to 4 clip distances of one register, as the manifest names them.
const CLIP_TYPES: [&str; 4] = [
    "array<f32, 1>",
    "array<f32, 2>",
    "array<f32, 3>",
    "array<f32, 4>",
];

/// A vertex program's `SV_ClipDistance` components as WGSL's one `clip_distances` array (the
/// exact profile), from `regs` (register, mask) in register order: each register's
/// components, contiguous, in turn, up to D3D's 8 over two registers; and the array's type.
fn clip_distances(
    c: &mut Ctx<'_>,
    e: &mut Entry,
    regs: &[(u32, u8)],
) -> Result<(H, Handle<naga::Type>), Rejection> {
    let Some(o) = c.g.o else {
        return Err(Rejection::new(id::NOT_LOWERED, "no output registers"));
    };
    let mut parts = Vec::with_capacity(8);
    for &(r, mask) in regs {
        let first = mask.trailing_zeros();
        let n = mask.count_ones();
        if mask == 0 || (mask >> first) != (1 << n) - 1 {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                "clip distances in components apart",
            ));
        }
        for k in first..first + n {
            let p = e.reg(o, r, Some(k as usize));
            let w = e.body.load(p);
            parts.push(e.body.bitcast(naga::ScalarKind::Float, w));
        }
    }
    if parts.len() > 8 {
        return Err(Rejection::new(
            id::NOT_LOWERED,
            "more than 8 clip distances",
        ));
    }
    if crate::planted(crate::PlantedBug::ClipDistancesReversed) {
        parts.reverse();
    }
    let n = parts.len() as u32;
    let t = c.scalar_ty(build::F32);
    let ty = build::array(&mut c.module, t, n, 4);
    let v = e.body.expr(Expression::Compose {
        ty,
        components: parts,
    });
    Ok((v, ty))
}

/// Whether a pixel input register may hold both: plain data and a one-component system value
/// (fxc packs `SV_IsFrontFace`, `SV_SampleIndex` and `SV_PrimitiveID` beside varyings). The
/// value goes to its component after the data's whole-register store. `SV_Position` fills its
/// register as a vector, so it packs with nothing.
fn packable(a: Option<SystemValueName>, b: Option<SystemValueName>) -> bool {
    let scalar = |sv: Option<SystemValueName>| {
        matches!(
            sv,
            Some(SystemValueName::Known(
                SystemValue::IsFrontFace | SystemValue::SampleIndex | SystemValue::PrimitiveId
            ))
        )
    };
    (a.is_none() && scalar(b)) || (b.is_none() && scalar(a))
}

/// A system value this stage's lowering has no WGSL builtin for: fail closed.
#[cold]
fn unsupported_system_value(what: &str, sv: SystemValueName) -> Rejection {
    Rejection::new(
        id::SYSTEM_VALUES,
        format!(
            "{what} system value {}",
            dxbc::names::name(dxbc::names::SYSTEM_VALUES, sv.number()).unwrap_or("?")
        ),
    )
}

/// The system value of a `v#`/`o#` declaration (`None`: plain data); special registers are
/// rejected, as these stages lower none of them.
fn reject_special(d: &Decl) -> Result<Option<SystemValueName>, Rejection> {
    match d.role {
        Role::Register(sv) => Ok(sv),
        // `Some(..)` keeps the reason's text as it was when the type was looked up by number.
        Role::Special(ty) => Err(Rejection::new(
            id::SYSTEM_VALUES,
            format!("special register {:?}", Some(ty)),
        )),
    }
}

/// A pixel program's special register in the exact profile: its WGSL builtin, type, and the
/// semantic the manifest names (`None`: not lowered). Each lives in `v`/`o` at
/// [`OperandType::special_register`].
fn pixel_special(ty: OperandType) -> Option<(BuiltIn, &'static str, &'static str)> {
    crate::manifest::SPECIAL_BUILTINS
        .iter()
        .find(|(t, ..)| *t == ty)
        .map(|&(_, builtin, wgsl, semantic)| (builtin, wgsl, semantic))
}

/// The special registers a pixel program declares as inputs (`outputs` false) or outputs,
/// lowered in the exact profile: (register file index, builtin, type, semantic). The seed
/// lowers none (`fail-closed/system-values`).
fn pixel_specials(
    c: &Ctx<'_>,
    decls: &[Decl],
) -> Result<Vec<(u32, BuiltIn, &'static str, &'static str)>, Rejection> {
    let mut v = Vec::new();
    for d in decls {
        let Role::Special(ty) = d.role else { continue };
        match (pixel_special(ty), ty.special_register()) {
            (Some((b, t, sem)), Some(r)) if c.exact() => v.push((r, b, t, sem)),
            _ => {
                reject_special(d)?;
            }
        }
    }
    Ok(v)
}

/// A plain input `v#r` at `@location(r)`: an argument of its signature type (interpolated as
/// `interp` says for that type), copied into `v[r]` as words; its manifest entry.
fn plain_input(
    c: &mut Ctx<'_>,
    e: &mut Entry,
    r: u32,
    mask: u8,
    interp: impl FnOnce(ComponentType) -> Result<Option<(Interpolation, Option<Sampling>)>, Rejection>,
) -> Result<Interface, Rejection> {
    let ct = component_type(c.signatures, false, r);
    let interp = interp(ct)?;
    let t = c.vector_ty(naga::VectorSize::Quad, ct.scalar());
    let a = e.arg(
        build::numbered("in", r, ""),
        t,
        location(r, interp, ct.is_wgsl_float()),
    );
    if let Some(v) = c.g.v {
        let w = as_words(e, a, Some(ct));
        let p = e.reg(v, r, None);
        e.body.store(p, w);
    }
    Ok(located(c.signatures, false, r, mask, ct.wgsl_vec()))
}

/// `bitcast<vec4<u32>>(a)`, or `a` itself when it is already `vec4<u32>`.
fn as_words(e: &mut Entry, a: H, ct: Option<ComponentType>) -> H {
    if ct == Some(ComponentType::Uint) {
        a
    } else {
        e.body.bitcast(naga::ScalarKind::Uint, a)
    }
}

/// A builtin bound twice among `bindings`: WGSL binds each once per direction, and D3D
/// declares each system value once, so a program that repeats one is refused.
fn repeated_builtin<'a>(
    mut bindings: impl Iterator<Item = &'a Binding> + Clone,
) -> Option<BuiltIn> {
    while let Some(b) = bindings.next() {
        if let Binding::BuiltIn(b) = b
            && bindings.clone().any(|o| *o == Binding::BuiltIn(*b))
        {
            return Some(*b);
        }
    }
    None
}

/// The stage's outputs as a struct `name` of (member name, type, binding, value) returned.
fn finish_with_outputs(
    c: &mut Ctx<'_>,
    mut e: Entry,
    name: &str,
    fields: Vec<(String, Handle<naga::Type>, Binding, H)>,
) -> Result<Function, Rejection> {
    let args = e.body.f.arguments.iter().filter_map(|a| a.binding.as_ref());
    if let Some(b) =
        repeated_builtin(args).or_else(|| repeated_builtin(fields.iter().map(|f| &f.2)))
    {
        return Err(Rejection::new(
            id::NOT_LOWERED,
            format!(
                "the system value of @builtin({}) declared twice",
                crate::manifest::wgsl_builtin(&b)
            ),
        ));
    }
    if fields.is_empty() {
        return Ok(e.body.finish());
    }
    let components = fields.iter().map(|f| f.3).collect();
    // The names move into the struct's members: nothing reads the fields after.
    let members = fields
        .into_iter()
        .map(|(n, ty, b, _)| {
            let size = c.module.types[ty].inner.size(c.module.to_ctx());
            (n, ty, Some(b), size)
        })
        .collect();
    let st = build::structure(&mut c.module, name, members);
    let r = e.body.expr(Expression::Compose { ty: st, components });
    e.body.stmt(Statement::Return { value: Some(r) });
    e.body.f.result = Some(naga::FunctionResult {
        ty: st,
        binding: None,
    });
    Ok(e.body.finish())
}

/// `bitcast<ty>(o[r])` (or its x), as a stage output.
fn output_value(c: &mut Ctx<'_>, e: &mut Entry, r: u32, x_only: bool, ty: &str) -> H {
    let Some(o) = c.g.o else {
        return e.body.u(0);
    };
    let p = e.reg(o, r, x_only.then_some(0));
    let v = e.body.load(p);
    let kind = match ty {
        "u32" | "vec4<u32>" => None,
        "i32" | "vec4<i32>" => Some(naga::ScalarKind::Sint),
        _ => Some(naga::ScalarKind::Float),
    };
    match kind {
        Some(k) => e.body.bitcast(k, v),
        None => v,
    }
}

fn pixel(c: &mut Ctx<'_>, run: Handle<Function>) -> Result<(Function, Io), Rejection> {
    let mut e = Entry::new();
    let v = c.g.v;
    let decls_in = declarations(c, false);
    // Sized from the declarations: most programs' lists then never grow.
    let mut ins = Vec::with_capacity(decls_in.len());
    e.body.f.arguments.reserve(decls_in.len());
    for (r, b, ty, semantic) in pixel_specials(c, &decls_in)? {
        let t = wgsl_type(c, ty);
        let a = e.arg(build::numbered("special", r, ""), t, Binding::BuiltIn(b));
        if let Some(v) = v {
            let p = e.reg(v, r, Some(0));
            e.body.store(p, a);
        }
        ins.push(iface(None, 1, None, Some(b), ty, semantic));
    }
    let mut seen: BTreeMap<u32, Option<SystemValueName>> = BTreeMap::new();
    // Plain inputs first: each stores its whole register, and a one-component system value
    // packed beside them (exact profile) is stored into its component after.
    let mut decls_in = decls_in;
    decls_in.sort_by_key(|d| !matches!(d.role, Role::Register(None)));
    for d in decls_in {
        if matches!(d.role, Role::Special(_)) {
            continue;
        }
        let sv = reject_special(&d)?;
        let Some(r) = d.register else { continue };
        if let Some(prev) = seen.insert(r, sv)
            && prev != sv
            && !(c.exact() && packable(prev, sv))
        {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                format!("v{r} packs a system value with other data"),
            ));
        }
        let comp = d.mask.trailing_zeros().min(3) as usize;
        match sv {
            None => ins.push(plain_input(c, &mut e, r, d.mask, |ct| {
                interpolation(d.interpolation, ct != ComponentType::Float)
            })?),
            Some(SystemValueName::Known(SystemValue::Position)) => {
                let t = c.vector_ty(naga::VectorSize::Quad, build::F32);
                let a = e.arg(
                    build::numbered("in", r, ""),
                    t,
                    Binding::BuiltIn(BuiltIn::Position { invariant: false }),
                );
                if let Some(v) = v {
                    let w = as_words(&mut e, a, None);
                    let p = e.reg(v, r, None);
                    e.body.store(p, w);
                }
                ins.push(iface(
                    Some(r),
                    d.mask,
                    None,
                    Some(BuiltIn::Position { invariant: false }),
                    "vec4<f32>",
                    "SV_Position",
                ));
            }
            Some(SystemValueName::Known(SystemValue::IsFrontFace)) => {
                c.relies(id::FRONT_FACING);
                let t = c.scalar_ty(naga::Scalar::BOOL);
                let a = e.arg(
                    build::numbered("in", r, ""),
                    t,
                    Binding::BuiltIn(BuiltIn::FrontFacing),
                );
                if let Some(v) = v {
                    let m = e.body.mask(a);
                    let p = e.reg(v, r, Some(comp));
                    e.body.store(p, m);
                }
                ins.push(iface(
                    Some(r),
                    d.mask,
                    None,
                    Some(BuiltIn::FrontFacing),
                    "bool",
                    "SV_IsFrontFace",
                ));
            }
            // The sample being shaded and the primitive's index, exact profile only (the seed
            // fails closed on them).
            Some(SystemValueName::Known(
                sv @ (SystemValue::SampleIndex | SystemValue::PrimitiveId),
            )) if c.exact() => {
                let (semantic, b) = if sv == SystemValue::SampleIndex {
                    ("SV_SampleIndex", BuiltIn::SampleIndex)
                } else {
                    c.enables.insert("primitive_index");
                    ("SV_PrimitiveID", BuiltIn::PrimitiveIndex)
                };
                let t = c.scalar_ty(build::U32);
                let a = e.arg(build::numbered("in", r, ""), t, Binding::BuiltIn(b));
                if let Some(v) = v {
                    let p = e.reg(v, r, Some(comp));
                    e.body.store(p, a);
                }
                ins.push(iface(Some(r), d.mask, None, Some(b), "u32", semantic));
            }
            Some(sv) => return Err(unsupported_system_value("pixel input", sv)),
        }
    }
    e.call(run);
    let decls_out = declarations(c, true);
    let mut fields = Vec::with_capacity(decls_out.len());
    let mut outs = Vec::with_capacity(decls_out.len());
    for (r, b, ty, semantic) in pixel_specials(c, &decls_out)? {
        let t = wgsl_type(c, ty);
        let value = output_value(c, &mut e, r, true, ty);
        fields.push((
            build::numbered("special", r, ""),
            t,
            Binding::BuiltIn(b),
            value,
        ));
        outs.push(iface(None, 1, None, Some(b), ty, semantic));
    }
    for d in decls_out {
        if matches!(d.role, Role::Special(_)) {
            continue;
        }
        let sv = reject_special(&d)?;
        let Some(r) = d.register else { continue };
        if sv.is_some() {
            return Err(Rejection::new(
                id::SYSTEM_VALUES,
                "pixel output system values other than SV_Target",
            ));
        }
        let ct = component_type(c.signatures, true, r);
        let ty = ct.wgsl_vec();
        let t = c.vector_ty(naga::VectorSize::Quad, ct.scalar());
        let value = output_value(c, &mut e, r, false, ty);
        fields.push((
            build::numbered("o", r, ""),
            t,
            location(r, None, ct.is_wgsl_float()),
            value,
        ));
        outs.push(iface(Some(r), d.mask, Some(r), None, ty, "SV_Target"));
    }
    let f = finish_with_outputs(c, e, "PsOut", fields)?;
    Ok((f, (ins, outs)))
}

fn vertex(c: &mut Ctx<'_>, run: Handle<Function>) -> Result<(Function, Io), Rejection> {
    let mut e = Entry::new();
    let v = c.g.v;
    let decls_in = declarations(c, false);
    let mut ins = Vec::with_capacity(decls_in.len());
    e.body.f.arguments.reserve(decls_in.len());
    for d in decls_in {
        let sv = reject_special(&d)?;
        let Some(r) = d.register else { continue };
        let (builtin, semantic) = match sv {
            None => {
                ins.push(plain_input(c, &mut e, r, d.mask, |_| Ok(None))?);
                continue;
            }
            Some(SystemValueName::Known(SystemValue::VertexId)) => {
                (BuiltIn::VertexIndex, "SV_VertexID")
            }
            Some(SystemValueName::Known(SystemValue::InstanceId)) => {
                (BuiltIn::InstanceIndex, "SV_InstanceID")
            }
            Some(sv) => return Err(unsupported_system_value("vertex input", sv)),
        };
        // A vertex or instance index: a `u32` argument copied into its `v#` component.
        let t = c.scalar_ty(build::U32);
        let a = e.arg(build::numbered("in", r, ""), t, Binding::BuiltIn(builtin));
        if let Some(v) = v {
            let comp = d.mask.trailing_zeros().min(3) as usize;
            let p = e.reg(v, r, Some(comp));
            e.body.store(p, a);
        }
        ins.push(iface(Some(r), d.mask, None, Some(builtin), "u32", semantic));
    }
    e.call(run);
    let decls_out = declarations(c, true);
    // One more field than declared when the position is added.
    let mut fields = Vec::with_capacity(decls_out.len() + 1);
    let mut outs = Vec::with_capacity(decls_out.len());
    let mut has_position = false;
    let mut clips: Vec<(u32, u8)> = Vec::new();
    let position = Binding::BuiltIn(BuiltIn::Position { invariant: true });
    let vec4f = c.vector_ty(naga::VectorSize::Quad, build::F32);
    for d in decls_out {
        let sv = reject_special(&d)?;
        let Some(r) = d.register else { continue };
        match sv {
            None => {
                let ct = component_type(c.signatures, true, r);
                let ty = ct.wgsl_vec();
                let t = c.vector_ty(naga::VectorSize::Quad, ct.scalar());
                // WGSL requires integer stage outputs to be flat (found by `dxdiff fuzz`).
                let interp = if ct.is_wgsl_float() {
                    None
                } else {
                    Some((Interpolation::Flat, None))
                };
                let value = output_value(c, &mut e, r, false, ty);
                fields.push((
                    build::numbered("o", r, ""),
                    t,
                    location(r, interp, ct.is_wgsl_float()),
                    value,
                ));
                outs.push(located(c.signatures, true, r, d.mask, ty));
            }
            Some(SystemValueName::Known(SystemValue::Position)) if !has_position => {
                // The seed's `precise` rule: every vertex position is invariant.
                has_position = true;
                let value = output_value(c, &mut e, r, false, "vec4<f32>");
                fields.push((build::numbered("o", r, ""), vec4f, position.clone(), value));
                outs.push(iface(
                    Some(r),
                    d.mask,
                    None,
                    Some(BuiltIn::Position { invariant: false }),
                    "vec4<f32>",
                    "SV_Position",
                ));
            }
            // The exact profile: WGSL's `clip_distances` (a vertex output array of up to 8),
            // gathered from every register that holds distances after the loop.
            Some(SystemValueName::Known(SystemValue::ClipDistance)) if c.exact() => {
                clips.push((r, d.mask));
            }
            Some(sv) => return Err(unsupported_system_value("vertex output", sv)),
        }
    }
    if !clips.is_empty() {
        clips.sort_unstable();
        let (value, arr) = clip_distances(c, &mut e, &clips)?;
        fields.push((
            "clip_distances".into(),
            arr,
            Binding::BuiltIn(BuiltIn::ClipDistances),
            value,
        ));
        c.enables.insert("clip_distances");
        // One entry per register, each naming its own part of the array.
        for (r, mask) in &clips {
            outs.push(iface(
                Some(*r),
                *mask,
                None,
                Some(BuiltIn::ClipDistances),
                CLIP_TYPES[(mask.count_ones() as usize).clamp(1, 4) - 1],
                "SV_ClipDistance",
            ));
        }
    }
    if !has_position {
        // WGSL requires a position output; a program without one (stream-out) gets zeros.
        let z = e.body.expr(Expression::ZeroValue(vec4f));
        fields.push(("position".into(), vec4f, position, z));
    }
    let f = finish_with_outputs(c, e, "VsOut", fields)?;
    Ok((f, (ins, outs)))
}

//! Stage interfaces: the entry point `main`, which copies inputs into the `v` registers, runs
//! the body, and returns the `o` registers. Input and output types come from the signatures; the
//! system values come from the `_siv`/`_sgv` declarations.

use std::collections::BTreeMap;
use std::fmt::Write;

use dxbc::chunks::signature::Signature;
use dxbc::container::FourCC;
use dxbc::{InterpolationMode, Opcode, OperandType, Stage, SystemValue, SystemValueName};

use super::Ctx;
use crate::Rejection;
use crate::manifest::Interface;
use crate::names as id;

type Io = (Vec<Interface>, Vec<Interface>);

/// `D3D_REGISTER_COMPONENT_TYPE` of a signature register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ComponentType {
    Uint,
    Sint,
    Float,
    /// A code the format does not define; it is carried as f32 but is not float for
    /// interpolation, as before this was typed.
    Other(u32),
}

impl ComponentType {
    fn from_code(code: u32) -> ComponentType {
        match code {
            1 => ComponentType::Uint,
            2 => ComponentType::Sint,
            3 => ComponentType::Float,
            other => ComponentType::Other(other),
        }
    }

    /// The WGSL type of the whole register.
    fn wgsl_vec(self) -> &'static str {
        match self {
            ComponentType::Uint => "vec4<u32>",
            ComponentType::Sint => "vec4<i32>",
            ComponentType::Float | ComponentType::Other(_) => "vec4<f32>",
        }
    }

    /// Whether [`ComponentType::wgsl_vec`] is a float vector.
    fn is_wgsl_float(self) -> bool {
        matches!(self, ComponentType::Float | ComponentType::Other(_))
    }
}

/// The component type of a signature register; float when no element names it.
fn component_type(sigs: &[Signature], outputs: bool, register: u32) -> ComponentType {
    element(sigs, outputs, register).map_or(ComponentType::Float, |e| {
        ComponentType::from_code(e.component_type)
    })
}

/// The first signature element of an input or output register.
fn element(
    sigs: &[Signature],
    outputs: bool,
    register: u32,
) -> Option<&dxbc::chunks::signature::SignatureElement> {
    sigs.iter()
        .filter(|s| {
            let is_in = matches!(s.kind, FourCC::ISGN | FourCC::ISG1);
            let is_out = matches!(s.kind, FourCC::OSGN | FourCC::OSG1 | FourCC::OSG5);
            if outputs { is_out } else { is_in }
        })
        .flat_map(|s| s.elements.iter())
        .find(|e| e.register == register)
}

/// The manifest entry of a plain register at `@location(r)`.
fn located(sigs: &[Signature], outputs: bool, r: u32, mask: u8, ty: &str) -> Interface {
    iface(
        Some(r),
        mask,
        Some(r),
        None,
        ty,
        &semantic(sigs, outputs, r),
    )
}

/// The manifest's `semantic` of a plain register: its signature element's name and index
/// (`TEXCOORD1`), or `location` for a program without a signature.
fn semantic(sigs: &[Signature], outputs: bool, register: u32) -> String {
    match element(sigs, outputs, register) {
        Some(e) if e.semantic_index > 0 => format!("{}{}", e.semantic_name, e.semantic_index),
        Some(e) => e.semantic_name.clone(),
        None => "location".into(),
    }
}

/// What a stage input or output declaration binds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A `v#`/`o#` register: plain data (`None`, also `undefined`) or a system value.
    Register(Option<SystemValueName>),
    /// A special register (vThreadID, vPrim, oDepth...), which has no `v#`/`o#` index.
    Special(OperandType),
}

/// One declared stage input or output.
#[derive(Debug, Clone)]
struct Decl {
    register: Option<u32>,
    mask: u8,
    role: Role,
    interpolation: InterpolationMode,
}

fn declarations(c: &Ctx<'_>, outputs: bool) -> Vec<Decl> {
    let mut v = Vec::new();
    for inst in &c.program.instructions {
        let is_out = matches!(
            inst.opcode,
            Opcode::DclOutput | Opcode::DclOutputSgv | Opcode::DclOutputSiv
        );
        let is_in = matches!(
            inst.opcode,
            Opcode::DclInput
                | Opcode::DclInputSgv
                | Opcode::DclInputSiv
                | Opcode::DclInputPs
                | Opcode::DclInputPsSgv
                | Opcode::DclInputPsSiv
        );
        if (outputs && !is_out) || (!outputs && !is_in) {
            continue;
        }
        let Some(op) = inst.operands.first() else {
            continue;
        };
        let register = match op.ty {
            OperandType::Input | OperandType::Output => op
                .indices
                .first()
                .and_then(dxbc::Index::immediate)
                .map(|r| r as u32),
            _ => None,
        };
        let mask = match op.components {
            dxbc::Components::Four(dxbc::Selection::Mask(m)) => m,
            _ => 1,
        };
        let system_value = match inst.system_value_name() {
            Some(SystemValueName::Known(SystemValue::Undefined)) | None => None,
            sv => sv,
        };
        let interpolation = inst
            .interpolation_mode()
            .unwrap_or(InterpolationMode::Undefined);
        if op.ty != OperandType::Input && op.ty != OperandType::Output {
            // Special registers (vThreadID, vPrim, oDepth...): compute builtins are handled by
            // the compute entry point; the rest are recorded so they can be rejected.
            v.push(Decl {
                register: None,
                mask,
                role: Role::Special(op.ty),
                interpolation,
            });
            continue;
        }
        // A register declared in parts (`o1.xy`, `o1.zw`) is one interface.
        if let Some(prev) = v
            .iter_mut()
            .find(|p: &&mut Decl| p.register == register && p.role == Role::Register(system_value))
        {
            prev.mask |= mask;
            continue;
        }
        v.push(Decl {
            register,
            mask,
            role: Role::Register(system_value),
            interpolation,
        });
    }
    v
}

fn interpolation_attr(mode: InterpolationMode, integer: bool) -> Result<&'static str, Rejection> {
    use InterpolationMode as M;
    if integer {
        return Ok(" @interpolate(flat)");
    }
    Ok(match mode {
        M::Undefined | M::Linear => "",
        M::Constant => " @interpolate(flat)",
        M::LinearCentroid => " @interpolate(perspective, centroid)",
        M::LinearNoPerspective => " @interpolate(linear)",
        M::LinearNoPerspectiveCentroid => " @interpolate(linear, centroid)",
        M::LinearSample => " @interpolate(perspective, sample)",
        M::LinearNoPerspectiveSample => " @interpolate(linear, sample)",
        M::Other(m) => {
            return Err(Rejection::new(
                id::INTERPOLATION_MODES,
                format!("interpolation mode {m}"),
            ));
        }
    })
}

fn iface(
    register: Option<u32>,
    mask: u8,
    location: Option<u32>,
    builtin: Option<&str>,
    ty: &str,
    semantic: &str,
) -> Interface {
    Interface {
        register,
        mask,
        location,
        builtin: builtin.map(str::to_string),
        wgsl_type: ty.to_string(),
        semantic: semantic.to_string(),
    }
}

/// The entry point's WGSL and the manifest's inputs and outputs.
pub fn entry_point(c: &mut Ctx<'_>) -> Result<(String, Io), Rejection> {
    match c.stage {
        Stage::Compute => compute(c),
        Stage::Pixel => pixel(c),
        Stage::Vertex => vertex(c),
        s => Err(Rejection::new(
            id::GEOMETRY_HULL_DOMAIN,
            format!("{s:?} programs"),
        )),
    }
}

fn compute(c: &mut Ctx<'_>) -> Result<(String, Io), Rejection> {
    let [x, y, z] = c.workgroup;
    let mut s = String::new();
    let _ = writeln!(s, "@compute @workgroup_size({x}, {y}, {z})");
    s.push_str("fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>, @builtin(local_invocation_index) lix: u32) {\n");
    s.push_str("    thread_id = gid;\n    group_id = wid;\n    thread_in_group = lid;\n    thread_index = lix;\n    run();\n}\n");
    let ins = vec![
        iface(
            None,
            7,
            None,
            Some("global_invocation_id"),
            "vec3<u32>",
            "SV_DispatchThreadID",
        ),
        iface(
            None,
            7,
            None,
            Some("workgroup_id"),
            "vec3<u32>",
            "SV_GroupID",
        ),
        iface(
            None,
            7,
            None,
            Some("local_invocation_id"),
            "vec3<u32>",
            "SV_GroupThreadID",
        ),
        iface(
            None,
            1,
            None,
            Some("local_invocation_index"),
            "u32",
            "SV_GroupIndex",
        ),
    ];
    Ok((s, (ins, Vec::new())))
}

/// A system value this stage's lowering has no WGSL builtin for: fail closed.
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
fn pixel_special(ty: OperandType) -> Option<(&'static str, &'static str, &'static str)> {
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
) -> Result<Vec<(u32, &'static str, &'static str, &'static str)>, Rejection> {
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

fn pixel(c: &mut Ctx<'_>) -> Result<(String, Io), Rejection> {
    let mut params = Vec::new();
    let mut copy = Vec::new();
    let mut ins = Vec::new();
    let decls_in = declarations(c, false);
    for (r, builtin, ty, semantic) in pixel_specials(c, &decls_in)? {
        params.push(format!("@builtin({builtin}) special{r}: {ty}"));
        copy.push(format!("    v[{r}].x = special{r};"));
        ins.push(iface(None, 1, None, Some(builtin), ty, semantic));
    }
    let mut seen: BTreeMap<u32, Option<SystemValueName>> = BTreeMap::new();
    for d in decls_in {
        if matches!(d.role, Role::Special(_)) {
            continue;
        }
        let sv = reject_special(&d)?;
        let Some(r) = d.register else { continue };
        if seen.insert(r, sv).is_some_and(|prev| prev != sv) {
            return Err(Rejection::new(
                id::UNSUPPORTED,
                format!("v{r} packs a system value with other data"),
            ));
        }
        match sv {
            None => {
                let ct = component_type(c.signatures, false, r);
                let ty = ct.wgsl_vec();
                let interp = interpolation_attr(d.interpolation, ct != ComponentType::Float)?;
                params.push(format!("@location({r}){interp} in{r}: {ty}"));
                copy.push(format!("    v[{r}] = bitcast<vec4<u32>>(in{r});"));
                ins.push(located(c.signatures, false, r, d.mask, ty));
            }
            Some(SystemValueName::Known(SystemValue::Position)) => {
                params.push(format!("@builtin(position) in{r}: vec4<f32>"));
                copy.push(format!("    v[{r}] = bitcast<vec4<u32>>(in{r});"));
                ins.push(iface(
                    Some(r),
                    d.mask,
                    None,
                    Some("position"),
                    "vec4<f32>",
                    "SV_Position",
                ));
            }
            Some(SystemValueName::Known(SystemValue::IsFrontFace)) => {
                c.relies(id::FRONT_FACING);
                let comp = d.mask.trailing_zeros().min(3) as usize;
                params.push(format!("@builtin(front_facing) in{r}: bool"));
                copy.push(format!(
                    "    v[{r}].{} = select(0u, 0xffffffffu, in{r});",
                    super::operand::XYZW[comp]
                ));
                ins.push(iface(
                    Some(r),
                    d.mask,
                    None,
                    Some("front_facing"),
                    "bool",
                    "SV_IsFrontFace",
                ));
            }
            // The sample being shaded and the primitive's index, exact profile only (the seed
            // fails closed on them).
            Some(SystemValueName::Known(
                sv @ (SystemValue::SampleIndex | SystemValue::PrimitiveId),
            )) if c.exact() => {
                let (builtin, semantic) = if sv == SystemValue::SampleIndex {
                    ("sample_index", "SV_SampleIndex")
                } else {
                    c.enables.insert("primitive_index");
                    ("primitive_index", "SV_PrimitiveID")
                };
                let comp = super::operand::XYZW[d.mask.trailing_zeros().min(3) as usize];
                params.push(format!("@builtin({builtin}) in{r}: u32"));
                copy.push(format!("    v[{r}].{comp} = in{r};"));
                ins.push(iface(Some(r), d.mask, None, Some(builtin), "u32", semantic));
            }
            Some(sv) => return Err(unsupported_system_value("pixel input", sv)),
        }
    }
    let mut fields = Vec::new();
    let mut ret = Vec::new();
    let mut outs = Vec::new();
    let decls_out = declarations(c, true);
    for (r, builtin, ty, semantic) in pixel_specials(c, &decls_out)? {
        fields.push(format!("    @builtin({builtin}) special{r}: {ty},"));
        ret.push(format!("bitcast<{ty}>(o[{r}].x)"));
        outs.push(iface(None, 1, None, Some(builtin), ty, semantic));
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
        let ty = component_type(c.signatures, true, r).wgsl_vec();
        fields.push(format!("    @location({r}) o{r}: {ty},"));
        ret.push(format!("bitcast<{ty}>(o[{r}])"));
        outs.push(iface(Some(r), d.mask, Some(r), None, ty, "SV_Target"));
    }
    let mut s = String::new();
    if !fields.is_empty() {
        let _ = writeln!(s, "struct PsOut {{\n{}\n}}\n", fields.join("\n"));
    }
    let _ = write!(s, "@fragment\nfn main({})", params.join(", "));
    s.push_str(if fields.is_empty() {
        " {\n"
    } else {
        " -> PsOut {\n"
    });
    for l in &copy {
        let _ = writeln!(s, "{l}");
    }
    s.push_str("    run();\n");
    if !fields.is_empty() {
        let _ = writeln!(s, "    return PsOut({});", ret.join(", "));
    }
    s.push_str("}\n");
    Ok((s, (ins, outs)))
}

fn vertex(c: &mut Ctx<'_>) -> Result<(String, Io), Rejection> {
    let mut params = Vec::new();
    let mut copy = Vec::new();
    let mut ins = Vec::new();
    for d in declarations(c, false) {
        let sv = reject_special(&d)?;
        let Some(r) = d.register else { continue };
        let comp = super::operand::XYZW[d.mask.trailing_zeros().min(3) as usize];
        match sv {
            None => {
                let ty = component_type(c.signatures, false, r).wgsl_vec();
                params.push(format!("@location({r}) in{r}: {ty}"));
                copy.push(format!("    v[{r}] = bitcast<vec4<u32>>(in{r});"));
                ins.push(located(c.signatures, false, r, d.mask, ty));
            }
            Some(SystemValueName::Known(SystemValue::VertexId)) => {
                params.push(format!("@builtin(vertex_index) in{r}: u32"));
                copy.push(format!("    v[{r}].{comp} = in{r};"));
                ins.push(iface(
                    Some(r),
                    d.mask,
                    None,
                    Some("vertex_index"),
                    "u32",
                    "SV_VertexID",
                ));
            }
            Some(SystemValueName::Known(SystemValue::InstanceId)) => {
                params.push(format!("@builtin(instance_index) in{r}: u32"));
                copy.push(format!("    v[{r}].{comp} = in{r};"));
                ins.push(iface(
                    Some(r),
                    d.mask,
                    None,
                    Some("instance_index"),
                    "u32",
                    "SV_InstanceID",
                ));
            }
            Some(sv) => return Err(unsupported_system_value("vertex input", sv)),
        }
    }
    let mut fields = Vec::new();
    let mut ret = Vec::new();
    let mut outs = Vec::new();
    let mut has_position = false;
    for d in declarations(c, true) {
        let sv = reject_special(&d)?;
        let Some(r) = d.register else { continue };
        match sv {
            None => {
                let ct = component_type(c.signatures, true, r);
                let ty = ct.wgsl_vec();
                // WGSL requires integer stage outputs to be flat (found by `dxdiff fuzz`).
                let flat = if ct.is_wgsl_float() {
                    ""
                } else {
                    " @interpolate(flat)"
                };
                fields.push(format!("    @location({r}){flat} o{r}: {ty},"));
                ret.push(format!("bitcast<{ty}>(o[{r}])"));
                outs.push(located(c.signatures, true, r, d.mask, ty));
            }
            Some(SystemValueName::Known(SystemValue::Position)) if !has_position => {
                // The seed's `precise` rule: every vertex position is invariant.
                has_position = true;
                fields.push(format!(
                    "    @invariant @builtin(position) o{r}: vec4<f32>,"
                ));
                ret.push(format!("bitcast<vec4<f32>>(o[{r}])"));
                outs.push(iface(
                    Some(r),
                    d.mask,
                    None,
                    Some("position"),
                    "vec4<f32>",
                    "SV_Position",
                ));
            }
            Some(sv) => return Err(unsupported_system_value("vertex output", sv)),
        }
    }
    if !has_position {
        // WGSL requires a position output; a program without one (stream-out) gets zeros.
        fields.push("    @invariant @builtin(position) position: vec4<f32>,".to_string());
        ret.push("vec4<f32>()".to_string());
    }
    let mut s = String::new();
    let _ = writeln!(s, "struct VsOut {{\n{}\n}}\n", fields.join("\n"));
    let _ = writeln!(s, "@vertex\nfn main({}) -> VsOut {{", params.join(", "));
    for l in &copy {
        let _ = writeln!(s, "{l}");
    }
    s.push_str("    run();\n");
    let _ = writeln!(s, "    return VsOut({});\n}}", ret.join(", "));
    Ok((s, (ins, outs)))
}

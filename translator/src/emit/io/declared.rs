//! What a program declares about its stage interface: the `dcl_input*`/`dcl_output*`
//! declarations, and the signature elements that type and name each register.

use dxbc::chunks::signature::Signature;
use dxbc::container::FourCC;
use dxbc::{InterpolationMode, OperandType, SystemValue, SystemValueName};

use super::super::Ctx;
use super::super::build;

/// `D3D_REGISTER_COMPONENT_TYPE` of a signature register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ComponentType {
    Uint,
    Sint,
    Float,
    /// A code the format does not define; it is carried as f32 but is not float for
    /// interpolation, as before this was typed.
    Other(u32),
}

impl ComponentType {
    pub(super) fn from_code(code: u32) -> ComponentType {
        match code {
            1 => ComponentType::Uint,
            2 => ComponentType::Sint,
            3 => ComponentType::Float,
            other => ComponentType::Other(other),
        }
    }

    /// The WGSL type of the whole register.
    pub(super) fn wgsl_vec(self) -> &'static str {
        match self {
            ComponentType::Uint => "vec4<u32>",
            ComponentType::Sint => "vec4<i32>",
            ComponentType::Float | ComponentType::Other(_) => "vec4<f32>",
        }
    }

    /// The scalar of [`ComponentType::wgsl_vec`].
    pub(super) fn scalar(self) -> naga::Scalar {
        match self {
            ComponentType::Uint => build::U32,
            ComponentType::Sint => build::I32,
            ComponentType::Float | ComponentType::Other(_) => build::F32,
        }
    }

    /// Whether [`ComponentType::wgsl_vec`] is a float vector.
    pub(super) fn is_wgsl_float(self) -> bool {
        matches!(self, ComponentType::Float | ComponentType::Other(_))
    }
}

/// The component type of a signature register; float when no element names it.
pub(super) fn component_type(sigs: &[Signature], outputs: bool, register: u32) -> ComponentType {
    element(sigs, outputs, register).map_or(ComponentType::Float, |e| {
        ComponentType::from_code(e.component_type)
    })
}

/// The first signature element of an input or output register.
pub(super) fn element(
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

/// The manifest's `semantic` of a plain register: its signature element's name and index
/// (`TEXCOORD1`), or `location` for a program without a signature.
pub(super) fn semantic(sigs: &[Signature], outputs: bool, register: u32) -> String {
    match element(sigs, outputs, register) {
        Some(e) if e.semantic_index > 0 => format!("{}{}", e.semantic_name, e.semantic_index),
        Some(e) => e.semantic_name.clone(),
        None => "location".into(),
    }
}

/// What a stage input or output declaration binds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// A `v#`/`o#` register: plain data (`None`, also `undefined`) or a system value.
    Register(Option<SystemValueName>),
    /// A special register (vThreadID, vPrim, oDepth...), which has no `v#`/`o#` index.
    Special(OperandType),
}

/// One declared stage input or output.
#[derive(Debug, Clone)]
pub(super) struct Decl {
    pub(super) register: Option<u32>,
    pub(super) mask: u8,
    pub(super) role: Role,
    pub(super) interpolation: InterpolationMode,
}

/// A stage's declared inputs or outputs: a few, so on the stack.
pub(super) fn declarations(c: &Ctx<'_>, outputs: bool) -> smallvec::SmallVec<[Decl; 8]> {
    let mut v = smallvec::SmallVec::new();
    let at = |&i: &u32| c.program.instructions.get(i as usize);
    for inst in c.io_declarations.iter().filter_map(at) {
        let is_out = inst.opcode.declares_output();
        let is_in = inst.opcode.declares_input();
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

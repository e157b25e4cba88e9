//! Input and output signatures derived from a program's declarations, for containers built from
//! text that has no fxc signature tables (fxc always writes ISGN and OSGN, empty ones for
//! compute shaders).
//!
//! What fxc would write for equivalent HLSL, as far as the declarations tell it:
//! - `_sgv`/`_siv` registers get their `SV_` semantic, `D3D_NAME` and component type
//!   ([`SystemValue`]);
//! - pixel-shader `o#` are `SV_Target<n>` (n = the register); the depth, coverage-mask and
//!   stencil outputs are `SV_Depth`, `SV_DepthGreaterEqual`, `SV_DepthLessEqual`, `SV_Coverage`,
//!   `SV_StencilRef` in no register (`0xFFFFFFFF`), mask `x`;
//! - every other register is `TEXCOORD<n>`, float, with n counting these elements in register
//!   order (so the names are unique and a vertex shader's outputs match the next stage's inputs);
//! - the mask is the declaration's; inputs read it all, outputs write it all.
//!
//! Not derived: hull-shader fork/join outputs and domain-shader patch constants (the PCSG
//! chunk), and special input registers (`vPrim`, `vCoverage`, thread ids), which carry no
//! signature element in the chunks this writes.

use crate::container::FourCC;
use crate::decl::SystemValue;
use crate::ir::*;
use crate::opcodes::Opcode;

use super::signature::{Signature, SignatureElement};

/// One declared register before naming.
struct Declared {
    register: u32,
    mask: u8,
    sv: Option<SystemValue>,
    /// For special outputs: (semantic, component type).
    special: Option<(&'static str, u32)>,
}

const NO_REGISTER: u32 = u32::MAX;

/// The input signature (ISGN) and output signature (OSGN, or OSG5 for `gs_5_*`) fxc would write
/// for `program` (see the module docs).
pub fn derive_signatures(program: &Program) -> [Signature; 2] {
    let stage = program.version.stage;
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let mut patch_phase = false;
    for inst in &program.instructions {
        match inst.opcode {
            Opcode::HsForkPhase | Opcode::HsJoinPhase => patch_phase = true,
            Opcode::HsControlPointPhase => patch_phase = false,
            _ => {}
        }
        let Some(op) = inst.declared_operand() else {
            continue;
        };
        let is_input = inst.opcode.declares_input();
        let is_output = inst.opcode.declares_output();
        if !(is_input || is_output) || (is_output && patch_phase) {
            continue;
        }
        let mask = match op.components {
            Components::Four(Selection::Mask(m)) if m & 0xF != 0 => m & 0xF,
            _ => 1,
        };
        let register = op
            .indices
            .last()
            .and_then(Index::immediate)
            .and_then(|v| u32::try_from(v).ok());
        let declared = match (op.ty, register) {
            (OperandType::Input | OperandType::InputControlPoint, Some(register)) if is_input => {
                Declared {
                    register,
                    mask,
                    sv: inst.system_value(),
                    special: None,
                }
            }
            (OperandType::Output, Some(register)) if is_output => Declared {
                register,
                mask,
                sv: inst.system_value(),
                special: None,
            },
            (ty, _) if is_output => match special_output(ty) {
                Some(special) => Declared {
                    register: NO_REGISTER,
                    mask: 1,
                    sv: None,
                    special: Some(special),
                },
                None => continue,
            },
            _ => continue,
        };
        if is_input {
            inputs.push(declared);
        } else {
            outputs.push(declared);
        }
    }
    let output_kind = if stage == Stage::Geometry && program.version.major == 5 {
        FourCC::OSG5
    } else {
        FourCC::OSGN
    };
    [
        signature(FourCC::ISGN, inputs, false, stage),
        signature(output_kind, outputs, true, stage),
    ]
}

/// The semantic and component type of a pixel shader's special output register.
fn special_output(ty: OperandType) -> Option<(&'static str, u32)> {
    Some(match ty {
        OperandType::OutputDepth => ("SV_Depth", 3),
        OperandType::OutputDepthGreaterEqual => ("SV_DepthGreaterEqual", 3),
        OperandType::OutputDepthLessEqual => ("SV_DepthLessEqual", 3),
        OperandType::OutputCoverageMask => ("SV_Coverage", 1),
        OperandType::OutputStencilRef => ("SV_StencilRef", 1),
        _ => return None,
    })
}

fn signature(kind: FourCC, mut declared: Vec<Declared>, output: bool, stage: Stage) -> Signature {
    // fxc's order: by register, then by first component; special registers last.
    declared.sort_by_key(|d| (d.register, d.mask.trailing_zeros()));
    let mut generic = 0;
    let elements = declared
        .into_iter()
        .map(|d| {
            let (name, index, system_value, component_type) = match (d.special, d.sv) {
                (Some((name, ct)), _) => (name, 0, 0, ct),
                (None, Some(sv)) if sv != SystemValue::Undefined => {
                    let (name, index) = sv.semantic();
                    (name, index, sv.signature_code(), sv.component_type())
                }
                _ if output && stage == Stage::Pixel => ("SV_Target", d.register, 0, 3),
                _ => {
                    generic += 1;
                    ("TEXCOORD", generic - 1, 0, 3)
                }
            };
            SignatureElement {
                stream: 0,
                semantic_name: name.to_string(),
                semantic_index: index,
                system_value,
                component_type,
                register: d.register,
                mask: d.mask,
                rw_mask: if output { 0xF & !d.mask } else { d.mask },
                reserved: 0,
                min_precision: 0,
                name_offset: None,
            }
        })
        .collect();
    Signature { kind, elements }
}

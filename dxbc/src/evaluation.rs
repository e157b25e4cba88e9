//! Pull-model attribute evaluation (`eval_snapped`, `eval_sample_index`, `eval_centroid`): which
//! input registers a pixel program evaluates away from the pixel centre, how each is
//! interpolated, and the render target's sample count that dxdiff's pipeline state models.
//!
//! The interpreter (the attribute's plane), the translator (the derivatives it takes once) and
//! the harness (inputs that lie on a plane) all read the program through these functions.

use crate::{Index, Instruction, InterpolationMode, Opcode, OperandType};

/// The sample count of the render target dxdiff's pixel pipeline models: 4, WebGPU's only
/// multisample count. `SV_SampleIndex` is drawn below it, `SV_Coverage` has its 4 bits, and
/// `eval_sample_index` reads D3D's standard 4-sample pattern ([`crate::standard_sample_positions`]).
pub const TARGET_SAMPLES: u32 = 4;

/// Whether `op` evaluates an attribute away from where it was fed (an offset or a sample's
/// position): `eval_snapped` and `eval_sample_index`. `eval_centroid` of a fully covered pixel
/// is the centre.
pub fn off_centre(op: Opcode) -> bool {
    matches!(op, Opcode::EvalSnapped | Opcode::EvalSampleIndex)
}

/// Whether `op` is one of the three pull-model evaluations.
pub fn is_evaluation(op: Opcode) -> bool {
    off_centre(op) || op == Opcode::EvalCentroid
}

/// The input register an evaluation reads (its source names `v#` by an immediate index);
/// `None` for another instruction or an indexed source.
pub fn evaluated_register(inst: &Instruction) -> Option<u32> {
    if !is_evaluation(inst.opcode) {
        return None;
    }
    let op = inst.operands.get(1)?;
    match (op.ty, op.indices.as_slice()) {
        (OperandType::Input, [Index::Imm32(r)]) => Some(*r),
        _ => None,
    }
}

/// The input registers `instructions` evaluate away from the pixel centre, with the
/// components they read (bit `c` for component `c`): the attributes whose plane matters. A
/// `constant` attribute has none (its value is the fed one anywhere), so it is left out.
pub fn planes(instructions: &[Instruction]) -> Vec<(u32, u8)> {
    let mut out: Vec<(u32, u8)> = Vec::new();
    for inst in instructions.iter().filter(|i| off_centre(i.opcode)) {
        let (Some(reg), Some(src), Some(dst)) = (
            evaluated_register(inst),
            inst.operands.get(1),
            inst.operands.first(),
        ) else {
            continue;
        };
        if is_constant(instructions, reg) {
            continue;
        }
        let mask = (0..4)
            .filter(|c| dst.write_mask() & (1 << c) != 0)
            .fold(0u8, |m, c| m | 1 << src.source_component(c));
        match out.iter_mut().find(|(r, _)| *r == reg) {
            Some((_, m)) => *m |= mask,
            None => out.push((reg, mask)),
        }
    }
    out.sort_unstable();
    out
}

/// How input register `reg` is interpolated, from its `dcl_input_ps*` declarations; `None`
/// where none declares it (a vertex or compute program, or an undeclared register).
pub fn interpolation(instructions: &[Instruction], reg: u32) -> Option<InterpolationMode> {
    instructions.iter().find_map(|i| {
        let mode = i.interpolation_mode()?;
        let op = i.operands.first()?;
        (op.ty == OperandType::Input && op.indices.first() == Some(&Index::Imm32(reg)))
            .then_some(mode)
    })
}

/// Whether input register `reg` is declared `constant`: one value over the primitive, so that
/// evaluating it anywhere gives the value fed (the FS ignores the sample index or offset).
pub fn is_constant(instructions: &[Instruction], reg: u32) -> bool {
    interpolation(instructions, reg) == Some(InterpolationMode::Constant)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> crate::Program {
        crate::assemble(text).expect("assembles").program
    }

    #[test]
    fn planes_name_the_registers_and_components_evaluated_off_centre() {
        let p = program(
            "ps_5_0\ndcl_input_ps linear v1.xyzw\ndcl_input_ps constant v2.xy\ndcl_output o0.xyzw\ndcl_temps 1\n\
             eval_snapped r0.xy, v1.zwzz, l(1, 2, 0, 0)\neval_sample_index o0.x, v2.y, l(3)\n\
             eval_centroid o0.w, v1.x\nmov o0.yz, r0.xxyx\nret\n",
        );
        // v2 is `constant`: it has no plane.
        assert_eq!(planes(&p.instructions), vec![(1, 0b1100)]);
        assert_eq!(
            interpolation(&p.instructions, 1),
            Some(InterpolationMode::Linear)
        );
        assert!(is_constant(&p.instructions, 2));
        assert_eq!(interpolation(&p.instructions, 7), None);
    }
}

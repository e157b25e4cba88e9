//! Single-instruction programs: for each ALU opcode, a pixel program that reads its sources from
//! flat `uint` inputs `v0..v3` and writes its destinations to `uint` outputs `o0`/`o1`, so that
//! the raw words pass the stage interface untouched.

use dxbc::builder::{ProgramBuilder, input, output};
use dxbc::chunks::signature::{Signature, SignatureElement};
use dxbc::container::FourCC;
use dxbc::opcodes::{Flags, Kind, TABLE};
use dxbc::{Instruction, Opcode, Stage};

/// A generated program and what it needs.
#[derive(Debug, Clone)]
pub struct SingleOp {
    /// The one instruction the program runs.
    pub opcode: Opcode,
    /// The container (signatures and code), ready to translate.
    pub blob: Vec<u8>,
    /// Input registers `v0..` it reads, four words each.
    pub sources: usize,
    /// Output registers `o0..` it writes.
    pub outputs: usize,
}

/// Whether an opcode is a plain ALU operation over registers (what single-instruction programs
/// exercise): no flow, resources, memory, doubles or derivatives.
pub fn is_single_alu(op: Opcode) -> bool {
    let info = op.info();
    info.kind.is_alu() && !info.has(Flags::DERIVATIVE) || info.has(Flags::MOVE)
}

pub(crate) fn signature(kind: FourCC, count: usize, name: &str) -> Signature {
    Signature {
        kind,
        elements: (0..count)
            .map(|r| SignatureElement {
                stream: 0,
                semantic_name: name.to_string(),
                semantic_index: r as u32,
                system_value: 0,
                component_type: 1,
                register: r as u32,
                mask: 0xF,
                rw_mask: if kind == FourCC::ISGN { 0xF } else { 0 },
                reserved: 0,
                min_precision: 0,
                name_offset: None,
            })
            .collect(),
    }
}

/// The program for one opcode.
pub fn single(op: Opcode) -> Option<SingleOp> {
    single_with(op, dxbc::Modifier::None, false)
}

/// The program for one opcode with `modifier` on every source and, when `saturate`, `_sat` on
/// the instruction (`mov_sat o0, -|v0|`): what `dxdiff sweep` runs for each modifier of a
/// move.
pub fn single_with(op: Opcode, modifier: dxbc::Modifier, saturate: bool) -> Option<SingleOp> {
    if !is_single_alu(op) {
        return None;
    }
    let info = op.info();
    let (dst, src) = (info.dst as usize, info.src as usize);
    let mut b = ProgramBuilder::new(Stage::Pixel, 5, 0);
    b.dcl(Opcode::DclGlobalFlags, 1 << 11, None, &[]).ok()?;
    for r in 0..src {
        // Interpolation mode 1: constant (flat).
        b.dcl(Opcode::DclInputPs, 1 << 11, Some(input(r as u32)), &[])
            .ok()?;
    }
    for r in 0..dst {
        b.dcl_output(r as u32, 0xF).ok()?;
    }
    let mut operands: Vec<_> = (0..dst).map(|r| output(r as u32)).collect();
    operands.extend((0..src).map(|r| {
        let mut o = input(r as u32).swizzle([0, 1, 2, 3]);
        o.modifier = modifier;
        o
    }));
    let mut inst = Instruction::with(op, operands);
    inst.saturate = saturate;
    b.emit(inst).ok()?;
    b.op(Opcode::Ret, vec![]).ok()?;
    let sigs = [
        signature(FourCC::ISGN, src, "IN"),
        signature(FourCC::OSGN, dst, "SV_Target"),
    ];
    let blob = b.container(&sigs).ok()?.to_bytes();
    Some(SingleOp {
        opcode: op,
        blob,
        sources: src,
        outputs: dst,
    })
}

/// Single-instruction programs for every plain ALU opcode of Shader Model 5.0 and below.
pub fn all_single() -> Vec<SingleOp> {
    TABLE
        .iter()
        .filter(|i| i.model <= dxbc::opcodes::Model::Sm50D3d111 && i.kind != Kind::Double)
        .filter_map(|i| single(i.opcode))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxbc::OperandType;

    #[test]
    fn every_program_decodes_and_has_the_opcode() {
        let all = all_single();
        assert!(all.len() > 60, "{}", all.len());
        for p in &all {
            let shader = dxbc::Shader::parse(&p.blob).expect("valid container");
            assert!(
                shader
                    .program
                    .instructions
                    .iter()
                    .any(|i| i.opcode == p.opcode)
            );
            assert!(
                shader
                    .program
                    .instructions
                    .iter()
                    .all(|i| i.operands.iter().all(|o| o.ty != OperandType::Immediate64))
            );
        }
    }
}

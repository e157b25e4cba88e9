//! Which `add`s read a product that a compiler may contract into a fused multiply-add. Under
//! `dcl_globalFlags refactoringAllowed` D3D lets the driver turn `mul` then `add` into one
//! `mad` (FS §3.1.3.2; fxc sets the flag unless the HLSL says `precise`), and WGSL lets a
//! compiler fuse `a * b + c` wherever it meets it, so the sum may be rounded once. The H100
//! fused `mul r1.x, v0.x, v0.x` then `add r0.z, l(1.0), r1.x` (dxdiff fuzz, contract profile,
//! 2026-12-07). The interpreter checks such an `add` as it checks `mad`, and raises
//! `fusion-sensitive` where fusing rounds differently ([`crate::rules::fusion`]).
//!
//! A compiler contracts what it sees as one expression: the product reaches the `add` in the
//! same block (no flow instruction between), unchanged, and the product's own sources are
//! unchanged there too, so the product can be recomputed from them at the `add`. This only
//! ever claims less than a compiler can see.

use dxbc::{Index, Modifier, Opcode, Operand, OperandType, Program};

/// For one source of one `add`: the `mul` whose result it reads in a destination component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contraction {
    /// The `add`'s source that reads the product (0 or 1).
    pub src: usize,
    /// The `add`'s destination component.
    pub comp: usize,
    /// The `mul`'s instruction index.
    pub mul: usize,
    /// The `mul`'s destination component that the `add` reads.
    pub mul_comp: usize,
}

/// Every `add` of a program that reads a product a compiler may contract.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contractions {
    /// By `add` instruction index.
    at: Vec<(usize, Vec<Contraction>)>,
}

impl Contractions {
    /// The contractions of instruction `i` (none for most).
    pub fn of(&self, i: usize) -> &[Contraction] {
        match self.at.binary_search_by_key(&i, |(k, _)| *k) {
            Ok(k) => &self.at[k].1,
            Err(_) => &[],
        }
    }
}

/// A temp's register index, for a plain `r#` operand.
fn temp(op: &Operand) -> Option<usize> {
    match op.indices.as_slice() {
        [Index::Imm32(r)] if op.ty == OperandType::Temp => Some(*r as usize),
        _ => None,
    }
}

/// A source the product can be recomputed from at the `add`: a literal, an input or a
/// constant-buffer word at literal indices (fixed for the invocation), or a temp.
fn stable(op: &Operand) -> bool {
    let literal = |i: &Index| matches!(i, Index::Imm32(_) | Index::Imm64(_));
    match op.ty {
        OperandType::Immediate32 => true,
        OperandType::Input | OperandType::ConstantBuffer => op.indices.iter().all(literal),
        OperandType::Temp => temp(op).is_some(),
        _ => false,
    }
}

/// The contractions of `program` (none unless it allows refactoring).
pub fn contractions(program: &Program) -> Contractions {
    let mut out = Contractions::default();
    let allowed = program
        .instructions
        .iter()
        .any(|i| i.is_refactoring_allowed());
    if !allowed {
        return out;
    }
    // Per temp component: the `mul` (and its destination component) whose result it holds,
    // since the block began.
    let mut held: Vec<[Option<(usize, usize)>; 4]> = Vec::new();
    for (i, inst) in program.instructions.iter().enumerate() {
        let info = inst.info();
        if info.kind == dxbc::opcodes::Kind::Flow || inst.opcode == Opcode::Discard {
            held.clear();
            continue;
        }
        if info.is_declaration() {
            continue;
        }
        let (dsts, srcs) = inst.split_operands();
        if inst.opcode == Opcode::Add && !inst.saturate {
            let mask = dsts.first().map_or(0, Operand::write_mask);
            let mut found = Vec::new();
            for (k, s) in srcs.iter().enumerate() {
                if !matches!(s.modifier, Modifier::None | Modifier::Neg) {
                    continue;
                }
                let Some(r) = temp(s) else { continue };
                for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                    let sc = s.source_component(c);
                    if let Some(Some((mul, mul_comp))) = held.get(r).map(|h| h[sc]) {
                        found.push(Contraction {
                            src: k,
                            comp: c,
                            mul,
                            mul_comp,
                        });
                    }
                }
            }
            if !found.is_empty() {
                out.at.push((i, found));
            }
        }
        // This instruction's writes: what it overwrites no longer holds a product, and a
        // product read from it can no longer be recomputed.
        for d in dsts {
            let Some(r) = temp(d) else { continue };
            let mask = d.write_mask();
            for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                for h in held.iter_mut().flatten() {
                    if let Some((mul, mc)) = *h {
                        let reads = program.instructions[mul]
                            .split_operands()
                            .1
                            .iter()
                            .any(|s| temp(s) == Some(r) && s.source_component(mc) == c);
                        if reads {
                            *h = None;
                        }
                    }
                }
                if let Some(h) = held.get_mut(r) {
                    h[c] = None;
                }
            }
        }
        if inst.opcode == Opcode::Mul
            && !inst.saturate
            && srcs.iter().all(stable)
            && let Some(r) = dsts.first().and_then(temp)
        {
            if held.len() <= r {
                held.resize(r + 1, [None; 4]);
            }
            let mask = dsts[0].write_mask();
            for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                // A product of its own destination (`mul r0.x, r0.x, v0.x`) cannot be
                // recomputed after it.
                let own = srcs
                    .iter()
                    .any(|s| temp(s) == Some(r) && mask & (1 << s.source_component(c)) != 0);
                if !own {
                    held[r][c] = Some((i, c));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(body: &str) -> Contractions {
        let text = format!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps constant v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n{body}\nret\n"
        );
        contractions(&dxbc::assemble(&text).expect("assembles").program)
    }

    #[test]
    fn a_product_read_in_its_block_is_found() {
        let c = of("mul r0.x, v0.x, v0.x\nadd o0.x, l(1.0), r0.x");
        assert_eq!(
            c.of(5),
            &[Contraction {
                src: 1,
                comp: 0,
                mul: 4,
                mul_comp: 0
            }]
        );
        // Through a swizzle: each destination component reads the other product.
        let c = of("mul r0.xy, v0.xy, v0.yx\nadd o0.xy, r0.yx, l(1.0, 1.0, 0, 0)");
        let found: Vec<(usize, usize)> = c.of(5).iter().map(|c| (c.comp, c.mul_comp)).collect();
        assert_eq!(found, [(0, 1), (1, 0)]);
    }

    #[test]
    fn a_product_that_cannot_be_recomputed_is_not() {
        // Its own destination as a factor, a factor overwritten, the product overwritten, a
        // saturated product, a flow instruction between.
        for body in [
            "mul r0.x, r0.x, v0.x\nadd o0.x, l(1.0), r0.x",
            "mov r1.y, v0.y\nmul r0.x, r1.y, v0.x\nmov r1.y, l(0)\nadd o0.x, l(1.0), r0.x",
            "mul r0.x, v0.y, v0.x\nmov r0.x, l(0)\nadd o0.x, l(1.0), r0.x",
            "mul_sat r0.x, v0.y, v0.x\nadd o0.x, l(1.0), r0.x",
            "mul r0.x, v0.y, v0.x\nif_nz v0.z\nendif\nadd o0.x, l(1.0), r0.x",
        ] {
            assert!(of(body).at.is_empty(), "{body}");
        }
        // No contraction where the program forbids refactoring.
        let text = "ps_5_0\ndcl_input_ps constant v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\nmul r0.x, v0.x, v0.x\nadd o0.x, l(1.0), r0.x\nret\n";
        let p = dxbc::assemble(text).expect("assembles").program;
        assert!(contractions(&p).at.is_empty());
    }
}

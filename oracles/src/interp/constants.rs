//! Compile-time constants in registers. A GPU compiler propagates a constant through moves
//! before it simplifies arithmetic, so `mov r0.x, l(0)` then `mul r1.x, r0.x, v0.x` folds to 0
//! just as `mul r1.x, l(0), v0.x` does (see `folding`). This pass finds, once per program, the
//! temp components that hold one value wherever they are read: every write to the component,
//! anywhere in the program, is a plain `mov` of that same value from a literal, from
//! `icb[n]` with a constant `n`, or from another such component. Any other write, a modifier or
//! `_sat` makes it not constant. The rule ignores control flow, which keeps it sound: a
//! component written in a branch or a loop is constant only if every write gives the same value.

use dxbc::{Index, Opcode, Operand, OperandType, Program};

/// What is known of a temp component while the pass runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Value {
    /// Not written yet, or only from components still unknown.
    Unknown,
    Const(u32),
    Varies,
}

fn meet(a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Unknown, x) | (x, Value::Unknown) => x,
        (Value::Const(x), Value::Const(y)) if x == y => a,
        _ => Value::Varies,
    }
}

/// The bits of a source component (for destination component `comp`, modifier not applied)
/// that do not depend on the invocation, if its operand is a literal or `icb[n]` with a
/// constant `n`.
pub fn literal_value(op: &Operand, comp: usize, icb: &[u32]) -> Option<u32> {
    let c = op.source_component(comp);
    match op.ty {
        OperandType::Immediate32 => {
            let n = op.imm.len().max(1);
            Some(op.imm.get(c % n).copied().unwrap_or(0))
        }
        OperandType::ImmediateConstantBuffer => match op.indices.first() {
            // Past the end reads 0, as `icb` reads do at run time.
            Some(Index::Imm32(r)) if op.indices.len() == 1 => {
                Some(icb.get(*r as usize * 4 + c).copied().unwrap_or(0))
            }
            _ => None,
        },
        _ => None,
    }
}

fn temp_index(op: &Operand) -> Option<usize> {
    match op.indices.first() {
        Some(Index::Imm32(r)) if op.ty == OperandType::Temp && op.indices.len() == 1 => {
            Some(*r as usize)
        }
        _ => None,
    }
}

/// Per temp register and component, the value it always holds, if it is a compile-time
/// constant.
pub fn constant_temps(program: &Program, temps: usize, icb: &[u32]) -> Vec<[Option<u32>; 4]> {
    let mut state = vec![[Value::Unknown; 4]; temps];
    // Iterate to a fixed point: moves between temps carry what is known so far.
    loop {
        let mut next = vec![[Value::Unknown; 4]; temps];
        for inst in &program.instructions {
            let ndst = (inst.info().dst as usize).min(inst.operands.len());
            for (k, dst) in inst.operands[..ndst].iter().enumerate() {
                let Some(r) = temp_index(dst).filter(|r| *r < temps) else {
                    continue;
                };
                let mask = dst.write_mask();
                for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                    let plain_mov = inst.opcode == Opcode::Mov && !inst.saturate && k == 0;
                    let v = match inst.operands.get(1).filter(|_| plain_mov) {
                        Some(src) if src.modifier == dxbc::Modifier::None => {
                            match (literal_value(src, c, icb), temp_index(src)) {
                                (Some(v), _) => Value::Const(v),
                                (None, Some(s)) => state
                                    .get(s)
                                    .map_or(Value::Varies, |v| v[src.source_component(c)]),
                                _ => Value::Varies,
                            }
                        }
                        _ => Value::Varies,
                    };
                    next[r][c] = meet(next[r][c], v);
                }
            }
        }
        if next == state {
            break;
        }
        state = next;
    }
    state
        .iter()
        .map(|r| {
            r.map(|v| match v {
                Value::Const(x) => Some(x),
                _ => None,
            })
        })
        .collect()
}

//! Rule 1: which temps some read may reach before every path wrote them.

use super::tree::*;

/// Walk in program order: mark temps read where not every path wrote them. Writes inside a
/// branch or loop body count only within that body.
fn check(s: &Src, defined: &[u8], need: &mut [bool]) {
    let mut r = Vec::new();
    reads(s, &mut r);
    for (t, m) in r {
        if let Some(d) = defined.get(t as usize)
            && d & m != m
        {
            need[t as usize] = true;
        }
    }
}

pub(super) fn definite(stmts: &[Stmt], defined: &mut [u8], need: &mut [bool]) {
    for s in stmts {
        match s {
            Stmt::Op(o) => {
                for x in &o.src {
                    check(x, defined, need);
                }
                for (t, m) in o.dst.iter().flatten() {
                    if let Some(d) = defined.get_mut(*t as usize) {
                        *d |= m;
                    }
                }
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                check(cond, defined, need);
                definite(then, &mut defined.to_vec(), need);
                if let Some(o) = otherwise {
                    definite(o, &mut defined.to_vec(), need);
                }
            }
            Stmt::Loop { body, .. } => {
                // A later iteration reads what an earlier one wrote only if the write came
                // first in the body; the first iteration sees only what was defined before.
                definite(body, &mut defined.to_vec(), need);
            }
            Stmt::BreakC { cond, .. }
            | Stmt::ContinueC { cond, .. }
            | Stmt::Discard { cond, .. } => check(cond, defined, need),
            Stmt::Switch {
                sel,
                cases,
                default,
            } => {
                check(sel, defined, need);
                for c in cases {
                    definite(&c.1, &mut defined.to_vec(), need);
                }
                if let Some(d) = default {
                    definite(d, &mut defined.to_vec(), need);
                }
            }
            Stmt::IndexableStore { index, value, .. } => {
                check(index, defined, need);
                check(value, defined, need);
            }
            Stmt::SrvLoad { dst, index, .. } => {
                check(index, defined, need);
                if let Some(d) = defined.get_mut(dst.0 as usize) {
                    *d |= dst.1;
                }
            }
            Stmt::UavStore { value, .. } => check(value, defined, need),
            Stmt::TextureRead {
                dst, coords, lod, ..
            } => {
                check(coords, defined, need);
                check(lod, defined, need);
                if let Some(d) = defined.get_mut(dst.0 as usize) {
                    *d |= dst.1;
                }
            }
            Stmt::Evaluate { dst, offset, .. } => {
                check(offset, defined, need);
                if let Some(d) = defined.get_mut(dst.0 as usize) {
                    *d |= dst.1;
                }
            }
            Stmt::Atomic { address, value, .. } => {
                check(address, defined, need);
                check(value, defined, need);
            }
            Stmt::Exchange { dst, value, sel } => {
                check(value, defined, need);
                check(sel, defined, need);
                if let Some(d) = defined.get_mut(dst.0 as usize) {
                    *d |= dst.1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxbc::Opcode;

    fn mov(dst: (u32, u8), src: Reg) -> Stmt {
        Stmt::Op(Op {
            opcode: Opcode::Mov,
            sat: false,
            dst: vec![Some(dst)],
            src: vec![Src::plain(src)],
        })
    }

    /// The temps (of four) `definite` says need initialising, and what it leaves defined.
    fn need(body: &[Stmt]) -> (Vec<u32>, Vec<u8>) {
        let mut defined = vec![0u8; 4];
        let mut need = vec![false; 4];
        definite(body, &mut defined, &mut need);
        ((0..4).filter(|t| need[*t as usize]).collect(), defined)
    }

    #[test]
    fn a_temp_needs_initialising_only_where_some_path_reads_it_unwritten() {
        // Written whole, then read: defined. Read first: needed.
        let (n, d) = need(&[mov((0, 0xF), Reg::Imm([1; 4])), mov((1, 0xF), Reg::Temp(0))]);
        assert_eq!((n, d), (vec![], vec![0xF, 0xF, 0, 0]));
        assert_eq!(need(&[mov((0, 0xF), Reg::Temp(0))]).0, [0]);
        // A write of .x does not define .y.
        let wide = Src {
            swizzle: [0, 1, 0, 1],
            ..Src::plain(Reg::Temp(2))
        };
        let narrow = Src {
            swizzle: [0; 4],
            ..Src::plain(Reg::Temp(2))
        };
        let read = |s: Src| {
            Stmt::Op(Op {
                opcode: Opcode::Mov,
                sat: false,
                dst: vec![Some((3, 0xF))],
                src: vec![s],
            })
        };
        assert_eq!(need(&[mov((2, 1), Reg::Imm([0; 4])), read(wide)]).0, [2]);
        assert_eq!(
            need(&[mov((2, 1), Reg::Imm([0; 4])), read(narrow)]).0,
            [] as [u32; 0]
        );
        // Writes inside a branch or a loop body do not define anything after it.
        let cond = Src::plain(Reg::Input(0));
        let branch = Stmt::If {
            nonzero: true,
            cond: cond.clone(),
            then: vec![mov((1, 0xF), Reg::Imm([0; 4]))],
            otherwise: Some(vec![mov((1, 0xF), Reg::Imm([0; 4]))]),
        };
        let (n, d) = need(&[branch, mov((0, 0xF), Reg::Temp(1))]);
        assert_eq!((n, d[1]), (vec![1], 0));
        let looped = Stmt::Loop {
            trips: 1,
            body: vec![mov((1, 0xF), Reg::Imm([0; 4]))],
        };
        assert_eq!(need(&[looped, mov((0, 0xF), Reg::Temp(1))]).0, [1]);
        // Reads through an index, and a condition's read, count too.
        let indexed = Src::plain(Reg::CbDyn(Box::new(Src::plain(Reg::Temp(3)))));
        assert_eq!(need(&[mov((0, 0xF), indexed.reg)]).0, [3]);
        let discard = Stmt::Discard {
            nonzero: false,
            cond: Src::plain(Reg::Temp(2)),
        };
        assert_eq!(need(&[discard]).0, [2]);
        // A write that comes before the read inside one body defines it there.
        let switch = Stmt::Switch {
            sel: cond,
            cases: vec![(
                0,
                vec![mov((1, 0xF), Reg::Imm([0; 4])), mov((0, 0xF), Reg::Temp(1))],
            )],
            default: None,
        };
        assert_eq!(need(&[switch]).0, [] as [u32; 0]);
    }
}

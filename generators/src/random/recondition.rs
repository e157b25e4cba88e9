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

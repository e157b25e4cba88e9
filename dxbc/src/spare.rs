//! Storage of dropped programs, kept per thread for the next decode.
//!
//! Decoding allocates one operand list per instruction, a third of all the allocations of
//! decoding and lowering a program. A dropped [`Program`] hands its instruction list and
//! operand lists back here (emptied, capacity kept), so decoding program after program (the
//! bench, `corpus`, `fuzz`, `verify`) allocates only for a program larger than the last.

use std::cell::RefCell;

use crate::ir::{Instruction, Operand, Program};

/// Operand lists kept per capacity (index = capacity; no opcode has more than
/// [`LONGEST`] operands).
const LONGEST: usize = 8;
/// Operand lists kept per capacity class: about the instructions of a large program.
const KEPT: usize = 512;
/// An instruction list longer than this is dropped, not kept.
const LARGEST: usize = 4096;

#[derive(Default)]
struct Spare {
    operands: [Vec<Vec<Operand>>; LONGEST + 1],
    instructions: Option<Vec<Instruction>>,
}

thread_local! {
    static SPARE: RefCell<Spare> = RefCell::new(Spare::default());
}

/// The thread's spare lists, taken out for one decode (empty while another decode on the
/// thread holds them, or once the thread is ending): give them back with [`put`].
pub(crate) fn take() -> Lists {
    Lists(
        SPARE
            .try_with(|s| s.try_borrow_mut().map(|mut s| std::mem::take(&mut *s)))
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default(),
    )
}

/// Return what [`take`] lent, with what the decode left unused.
pub(crate) fn put(lists: Lists) {
    let _ = SPARE.try_with(|s| {
        if let Ok(mut s) = s.try_borrow_mut() {
            *s = lists.0;
        }
    });
}

/// Spare lists lent to one decode.
pub(crate) struct Lists(Spare);

impl Lists {
    /// An empty operand list with room for `n`.
    pub(crate) fn operands(&mut self, n: usize) -> Vec<Operand> {
        let from = n.min(LONGEST);
        for class in &mut self.0.operands[from..] {
            if let Some(v) = class.pop() {
                return v;
            }
        }
        Vec::with_capacity(n)
    }

    /// An empty instruction list with room for about `n`.
    pub(crate) fn instructions(&mut self, n: usize) -> Vec<Instruction> {
        self.0
            .instructions
            .take()
            .unwrap_or_else(|| Vec::with_capacity(n))
    }
}

/// Keep what `program` allocated.
pub(crate) fn give(program: &mut Program) {
    let _ = SPARE.try_with(|s| {
        let Ok(mut s) = s.try_borrow_mut() else {
            return;
        };
        for inst in &mut program.instructions {
            let cap = inst.operands.capacity();
            if cap == 0 || cap > LONGEST || s.operands[cap].len() >= KEPT {
                continue;
            }
            let mut v = std::mem::take(&mut inst.operands);
            v.clear();
            s.operands[cap].push(v);
        }
        if s.instructions.is_none() && program.instructions.capacity() <= LARGEST {
            let mut v = std::mem::take(&mut program.instructions);
            v.clear();
            s.instructions = Some(v);
        }
    });
}

#[cfg(test)]
mod tests {
    use crate::Shader;

    fn decode(text: &str) -> crate::Program {
        let bytes = crate::assemble_container(text)
            .expect("assembles")
            .to_bytes();
        Shader::parse(&bytes).expect("parses").program.clone()
    }

    /// Reused lists are emptied: a program decoded after larger and smaller ones on one
    /// thread equals the same program decoded on a fresh thread.
    #[test]
    fn reused_lists_change_no_instruction() {
        let small = "ps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(1.0, 2.0, 3.0, 4.0)\nret\n";
        let large = "ps_4_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n\
                     mad r0.xyzw, v0.xyzw, v0.yzwx, l(1.0, 1.0, 1.0, 1.0)\n\
                     dp4 r1.x, r0.xyzw, v0.xyzw\nlt r1.y, r1.x, l(0.0)\nif_nz r1.y\n\
                     mul r0.xyzw, r0.xyzw, r1.xxxx\nendif\nmov o0.xyzw, r0.xyzw\nret\n";
        let fresh = |t: &'static str| {
            std::thread::spawn(move || decode(t))
                .join()
                .expect("thread")
        };
        let (s, l) = (fresh(small), fresh(large));
        for _ in 0..3 {
            assert_eq!(decode(large), l);
            assert_eq!(decode(small), s);
        }
    }
}

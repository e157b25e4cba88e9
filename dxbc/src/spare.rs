//! Storage of dropped programs, kept per thread for the next decode.
//!
//! Decoding allocates one operand list per instruction, a third of all the allocations of
//! decoding and lowering a program. A dropped [`Program`] hands its instruction list back
//! here as it is, and the next decode on the thread overwrites its instructions in place, each
//! keeping its operand list; so decoding program after program (the bench, `corpus`, `fuzz`,
//! `verify`) allocates only for a program larger than any before it.

use std::cell::RefCell;
use std::thread::LocalKey;

use crate::chunks::signature::Signature;
use crate::ir::{Instruction, Operand, Program};

/// An instruction list longer than this is dropped, not kept; so is a spare beyond it.
const LARGEST: usize = 4096;

#[derive(Default)]
struct Spare {
    /// A dropped program's instructions, as they were: the next decode overwrites them in
    /// place, each keeping its operand list.
    instructions: Option<Vec<Instruction>>,
    /// The operand lists of instructions a shorter program left over, emptied, for a longer
    /// one after it. Only the list is kept, not its instruction: moving instructions (144
    /// bytes) out and back as programs of different sizes alternated was a copy per
    /// instruction both ways (docs/corpus.md).
    operands: Vec<Vec<Operand>>,
}

thread_local! {
    static SPARE: RefCell<Spare> = RefCell::new(Spare::default());
    /// The word list of the last token stream decoded: the next one is read into it.
    static WORDS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    /// The signatures of the last shader dropped: the next one's are decoded over them.
    static SIGNATURES: RefCell<Vec<Signature>> = const { RefCell::new(Vec::new()) };
}

/// Signatures kept for the next shader: a container has at most a few (one per tag), each a
/// row per register; larger ones are dropped instead.
const SIGNATURES_KEPT: usize = 8;
/// Elements a kept signature may hold (D3D11 has 32 input and 32 output registers).
const ELEMENTS_KEPT: usize = 64;
/// Bytes a kept semantic name may hold (fxc's are a few dozen).
const NAME_KEPT: usize = 256;

/// A dropped shader's signatures, to decode over (they still hold its elements: each decode
/// overwrites what it uses and cuts the rest), or an empty list.
pub(crate) fn signatures() -> Vec<Signature> {
    lend(&SIGNATURES)
}

/// Keep `signatures` for the next shader on the thread, unless one is larger than a program
/// declares ([`SIGNATURES_KEPT`], [`ELEMENTS_KEPT`], [`NAME_KEPT`]), so a hostile container
/// pins no memory.
pub(crate) fn give_signatures(signatures: Vec<Signature>) {
    let small = signatures.capacity() <= SIGNATURES_KEPT
        && signatures.iter().all(|s| {
            s.elements.capacity() <= ELEMENTS_KEPT
                && s.elements
                    .iter()
                    .all(|e| e.semantic_name.capacity() <= NAME_KEPT)
        });
    if small {
        give_back(&SIGNATURES, signatures);
    }
}

/// Words kept for the next token stream: more than a large program's are dropped instead.
const WORDS_KEPT: usize = 1 << 16;

/// An empty word list for a token stream: the last one decoded on the thread, whose memory
/// is still in cache (a fresh allocation each time walked the allocator's page, a new block a
/// program), when there is one.
pub(crate) fn words() -> Vec<u32> {
    lend(&WORDS)
}

/// Keep `words`, emptied, for the next token stream on the thread.
pub(crate) fn give_words(mut words: Vec<u32>) {
    if words.capacity() > WORDS_KEPT {
        return;
    }
    words.clear();
    give_back(&WORDS, words);
}

/// What `key` holds on this thread, taken out (the default while it is lent already, or once
/// the thread is ending).
fn lend<T: Default>(key: &'static LocalKey<RefCell<T>>) -> T {
    key.try_with(|c| c.try_borrow_mut().map(|mut c| std::mem::take(&mut *c)))
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default()
}

/// Put `value` back into `key` (dropped instead once the thread is ending).
fn give_back<T>(key: &'static LocalKey<RefCell<T>>, value: T) {
    let _ = key.try_with(|c| {
        if let Ok(mut c) = c.try_borrow_mut() {
            *c = value;
        }
    });
}

/// The thread's spare lists, taken out for one decode (empty while another decode on the
/// thread holds them, or once the thread is ending): give them back with [`put`].
pub(crate) fn take() -> Lists {
    Lists(lend(&SPARE))
}

/// Return what [`take`] lent, with what the decode left unused.
pub(crate) fn put(lists: Lists) {
    give_back(&SPARE, lists.0);
}

/// Spare lists lent to one decode.
pub(crate) struct Lists(Spare);

impl Lists {
    /// A list of used instructions to overwrite (possibly empty), with room for about `n`.
    pub(crate) fn instructions(&mut self, n: usize) -> Vec<Instruction> {
        self.0
            .instructions
            .take()
            .unwrap_or_else(|| Vec::with_capacity(n))
    }

    /// Give a blank instruction just added to a list a kept operand list, when there is one.
    /// (The instruction is made in the list, not here: moving it there was a copy of its 144
    /// bytes.)
    pub(crate) fn give_operands(&mut self, inst: &mut Instruction) {
        if let Some(operands) = self.0.operands.pop() {
            inst.operands = operands;
        }
    }

    /// Keep the operand lists of the instructions past the `used` first of `list`, emptied,
    /// and cut it there.
    pub(crate) fn keep_from(&mut self, list: &mut Vec<Instruction>, used: usize) {
        let room = LARGEST.saturating_sub(self.0.operands.len());
        for inst in list.iter_mut().skip(used).take(room) {
            let mut operands = std::mem::take(&mut inst.operands);
            operands.clear();
            self.0.operands.push(operands);
        }
        list.truncate(used);
    }

    /// Keep a list a failed decode wrote into.
    pub(crate) fn keep(&mut self, list: Vec<Instruction>) {
        if self.0.instructions.is_none() && list.capacity() <= LARGEST {
            self.0.instructions = Some(list);
        }
    }
}

/// Keep what `program` allocated: its instruction list whole, emptied only when the next
/// decode overwrites it (a walk over every instruction here cost as much as the decode saved).
pub(crate) fn give(program: &mut Program) {
    let _ = SPARE.try_with(|s| {
        let Ok(mut s) = s.try_borrow_mut() else {
            return;
        };
        if s.instructions.is_none() && program.instructions.capacity() <= LARGEST {
            s.instructions = Some(std::mem::take(&mut program.instructions));
        }
    });
}

/// A dropped program's instruction and operand lists are kept for the next decode on the
/// thread. The impl lives here, beside the pool, so that `ir` needs nothing of `spare`.
impl Drop for Program {
    fn drop(&mut self) {
        give(self);
    }
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

    /// Signatures decoded over a dropped shader's equal those of a fresh thread, whether the
    /// shader before had more signatures, more elements or longer names, or fewer.
    #[test]
    fn reused_signatures_change_no_element() {
        let few = "ps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(1.0, 2.0, 3.0, 4.0)\nret\n";
        let many = "vs_4_0\ndcl_input v0.xyzw\ndcl_input v1.xy\ndcl_input v2.xyz\n\
                    dcl_output_siv o0.xyzw, position\ndcl_output o1.xy\ndcl_output o2.xyzw\n\
                    mov o0.xyzw, v0.xyzw\nmov o1.xy, v1.xyxx\nmov o2.xyz, v2.xyzx\n\
                    mov o2.w, l(1.0)\nret\n";
        let blob = |t: &str| crate::assemble_container(t).expect("assembles").to_bytes();
        let (few, many) = (blob(few), blob(many));
        let signatures = |b: &[u8]| Shader::parse(b).expect("parses").signatures.clone();
        let fresh = |b: Vec<u8>| {
            std::thread::spawn(move || signatures(&b))
                .join()
                .expect("thread")
        };
        let (f, m) = (fresh(few.clone()), fresh(many.clone()));
        assert!(m.iter().map(|s| s.elements.len()).sum::<usize>() > 4);
        for _ in 0..3 {
            assert_eq!(signatures(&many), m);
            assert_eq!(signatures(&few), f);
        }
    }

    /// A used instruction, cleared, is a blank one: no flag, list or payload of the
    /// instruction it was survives into the next.
    #[test]
    fn a_cleared_instruction_is_a_blank_one() {
        let program = decode(
            "ps_5_0\ndcl_resource_texture2d (float,float,float,float) t0\n\
             dcl_sampler s0, mode_default\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\n\
             sample_indexable(texture2d)(float,float,float,float) o0.xyzw, v0.xyxx, t0.xyzw, s0\n\
             ret\n",
        );
        for inst in &program.instructions {
            let mut used = inst.clone();
            used.saturate = true;
            used.precise = 0xF;
            used.test = Some(crate::Test::NonZero);
            used.leading.push(1);
            used.trailing.push(2);
            used.custom = Some(crate::CustomData {
                class: 3,
                payload: vec![4],
            });
            used.length_form = crate::LengthForm::Bit31;
            used.clear();
            assert_eq!(used, crate::Instruction::new(crate::Opcode::Nop));
        }
    }

    /// A decode that fails after overwriting part of a spare list leaves nothing of itself in
    /// the programs decoded after it.
    #[test]
    fn a_failed_decode_leaves_no_trace() {
        let small = "ps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(1.0, 2.0, 3.0, 4.0)\nret\n";
        let large = "ps_4_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\n\
                     mad r0.xyzw, v0.xyzw, v0.yzwx, l(1.0, 1.0, 1.0, 1.0)\n\
                     mov o0.xyzw, r0.xyzw\nret\n";
        let (s, l) = std::thread::spawn(move || (decode(small), decode(large)))
            .join()
            .expect("thread");
        let mut words = crate::encode_words(&l).expect("encodes");
        // The last instruction (`ret`) gets an opcode no table row has.
        if let Some(last) = words.last_mut() {
            *last |= 0x7FF;
        }
        for _ in 0..3 {
            drop(decode(large));
            assert!(crate::decode_words(&words).is_err());
            assert_eq!(decode(small), s);
            assert!(crate::decode_words(&words).is_err());
            assert_eq!(decode(large), l);
        }
    }
}

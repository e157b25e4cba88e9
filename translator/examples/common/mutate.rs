//! Mutants of a program's code chunk and what the translator makes of them, for the mutation
//! campaign (`examples/mutants.rs`) and its deterministic slice (`tests/no_panic.rs`): one
//! source for both, so the test checks what the campaign measured (docs/reliability.md).

use std::panic::{AssertUnwindSafe, catch_unwind};

use translator::Profile;

/// xorshift64: a fixed stream of words for a seed, so a mutant reproduces from its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// `blob` with one to three words of its instructions changed: a bit flipped, a word copied
/// from elsewhere in the program, an edge value, the low byte replaced, or another opcode under
/// the same length. Inside the code chunk, where a mutation of the whole container seldom
/// lands; `None` for a blob without one.
pub fn mutate_code(blob: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
    let at = blob.windows(4).position(|w| w == b"SHEX" || w == b"SHDR")?;
    // The chunk's data: the version token, the length in words, then the instructions.
    let first = at + 16;
    let len = blob.get(at + 12..at + 16)?;
    let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
    let words = len
        .saturating_sub(2)
        .min(blob.len().saturating_sub(first) / 4);
    if words == 0 {
        return None;
    }
    let mut m = blob.to_vec();
    let word = |m: &[u8], i: usize| u32::from_le_bytes([m[i], m[i + 1], m[i + 2], m[i + 3]]);
    for _ in 0..1 + rng.below(3) {
        let i = first + 4 * rng.below(words);
        let w = word(&m, i);
        let new = match rng.below(5) {
            0 => w ^ (1 << rng.below(32)),
            1 => word(&m, first + 4 * rng.below(words)),
            2 => [0, 1, 4, 0xFFFF, 0x7F80_0000, 0x8000_0000, u32::MAX][rng.below(7)],
            3 => (w & !0xFF) | (rng.next() as u32 & 0xFF),
            _ => (w & !0x7FF) | dxbc::TABLE[rng.below(dxbc::TABLE.len())].opcode.number(),
        };
        m[i..i + 4].copy_from_slice(&new.to_le_bytes());
    }
    Some(m)
}

/// What the translator made of a program in one profile.
#[derive(Debug)]
pub enum Outcome {
    /// The decoder or validation refused the container.
    Malformed,
    /// The translator refused the program by name.
    Refused,
    /// Lowered, and naga validated and wrote the module.
    Translated,
    /// Lowered into a module naga refuses: a translator bug.
    NagaRefused(String),
    /// A panic: a translator bug.
    Panicked(String),
}

/// Parse `blob` and translate it in `profile`: lowering, then naga's validation and writing.
pub fn judge(blob: &[u8], profile: Profile) -> Outcome {
    let Ok(shader) = dxbc::Shader::parse(blob) else {
        return Outcome::Malformed;
    };
    let run = catch_unwind(AssertUnwindSafe(|| {
        translator::lower(&shader, profile)
            .ok()
            .map(translator::finish)
    }));
    match run {
        Ok(None) => Outcome::Refused,
        Ok(Some(Ok(_))) => Outcome::Translated,
        Ok(Some(Err(e))) => Outcome::NagaRefused(e.to_string()),
        Err(payload) => Outcome::Panicked(
            payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default(),
        ),
    }
}

/// Panic, naming the profile and naga's message, when the translator panics on `blob` or
/// lowers it into a module naga refuses: the fuzz target's check.
pub fn assert_sound(blob: &[u8]) {
    for p in [Profile::Contract, Profile::Exact] {
        match judge(blob, p) {
            Outcome::Panicked(e) => panic!("the translator panicked ({p}): {e}"),
            Outcome::NagaRefused(e) => panic!("a lowered module naga refuses ({p}): {e}"),
            Outcome::Malformed | Outcome::Refused | Outcome::Translated => {}
        }
    }
}

//! Generation is valid and pinned per seed.

use super::*;
use dxbc::Stage;

#[test]
fn generated_programs_assemble_decode_and_reencode_to_themselves() {
    let k = Knobs::default();
    for seed in 0..1500 {
        let p = generate(&k, seed);
        let blob = p.blob().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let shader = dxbc::Shader::parse(&blob).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let words = dxbc::encode_words(&shader.program).expect("encodes");
        let again = dxbc::decode_words(&words).expect("decodes");
        assert_eq!(again, shader.program, "seed {seed}");
        assert_eq!(generate(&k, seed), p, "deterministic");
    }
}

/// FNV-1a, 64-bit: a hash fixed by its definition (std's hasher may change between
/// releases), so the pinned value below means the same thing on every toolchain.
fn fnv1a(h: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *h ^= u64::from(*b);
        *h = h.wrapping_mul(0x0100_0000_01b3);
    }
}

/// The containers of 300 seeds per stage with default knobs, hashed together.
fn blobs_hash() -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for stage in [Stage::Pixel, Stage::Vertex, Stage::Compute] {
        let k = Knobs {
            stages: vec![stage],
            ..Knobs::default()
        };
        for seed in 0..300 {
            let blob = generate(&k, seed)
                .blob()
                .unwrap_or_else(|e| panic!("{stage:?} seed {seed}: {e}"));
            fnv1a(&mut h, &(blob.len() as u64).to_le_bytes());
            fnv1a(&mut h, &blob);
        }
    }
    h
}

/// Campaigns resume from (seed, index): a program must not change for a seed unless the
/// generator is changed on purpose. Update the value only in a commit that says why.
#[test]
fn generated_containers_are_pinned_per_seed() {
    assert_eq!(blobs_hash(), PINNED, "got {:#018x}", blobs_hash());
}

const PINNED: u64 = 0xb0d8_ad89_ba43_c492;

/// The generators' atomics are the table's: every `COMMUTATIVE` atomic without a returned value,
/// each once.
#[test]
fn atomics_are_the_tables_commutative_ones() {
    use dxbc::opcodes::{Flags, Kind, TABLE};
    let mut table: Vec<_> = TABLE
        .iter()
        .filter(|i| i.kind == Kind::Atomic && i.dst == 1 && i.has(Flags::COMMUTATIVE))
        .map(|i| i.opcode)
        .collect();
    let mut ours = ATOMICS.to_vec();
    table.sort();
    ours.sort();
    assert_eq!(ours, table);
}

/// Aimed opcodes take most instruction draws, the rest still appear, and every program stays
/// valid; an aim changes nothing for a campaign without one (the pinned hash above).
#[test]
fn an_aimed_campaign_draws_mostly_its_opcodes() {
    use dxbc::Opcode;
    let count = |k: &Knobs| {
        let (mut aimed, mut other) = (0usize, 0usize);
        for seed in 0..300 {
            let blob = generate(k, seed)
                .blob()
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let shader = dxbc::Shader::parse(&blob).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            for i in &shader.program.instructions {
                let info = i.info();
                if !info.kind.is_alu() || info.is_declaration() || i.opcode == Opcode::Mov {
                    continue;
                }
                if k.aimed.contains(&i.opcode) || i.opcode == Opcode::Udiv {
                    aimed += 1;
                } else {
                    other += 1;
                }
            }
        }
        (aimed, other)
    };
    let plain = Knobs::default();
    let aimed = Knobs {
        aimed: vec![Opcode::Udiv, Opcode::Ishr],
        ..Knobs::default()
    };
    let (a0, o0) = count(&plain);
    let (a1, o1) = count(&aimed);
    // Of all ALU instructions: the drawn statements and what frames them (loop counters,
    // conditions, indices), which no aim changes. Without an aim the two are a few percent.
    let share = |a: usize, o: usize| a * 100 / (a + o).max(1);
    assert!(share(a0, o0) < 5, "without an aim: {a0} of {}", a0 + o0);
    assert!(share(a1, o1) >= 35, "aimed: {a1} of {}", a1 + o1);
    assert!(o1 > 0, "the rest is still drawn");
}

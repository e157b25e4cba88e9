//! Every generated container, decoded with the `dxbc` crate (not read from the text), against
//! the shapes fxc writes and the rules of the module docs that are cheap to check on the code.

use super::*;
use dxbc::{
    Components, FourCC, Index, Instruction, Opcode, Operand, OperandType, Selection, Shader, Stage,
    SystemValue,
};

/// The write mask of a destination operand.
fn mask(o: &Operand) -> u8 {
    match o.components {
        Components::Four(Selection::Mask(m)) => m,
        _ => 0,
    }
}

/// The register number of a one-index operand.
fn register(o: &Operand) -> Option<u32> {
    o.indices
        .last()
        .and_then(Index::immediate)
        .map(|v| v as u32)
}

/// The relative part of each index of an operand: (the operand's type, the index register).
fn relative_indices(o: &Operand) -> Vec<(OperandType, &Operand)> {
    o.indices
        .iter()
        .filter_map(|i| Some((o.ty, i.relative()?)))
        .collect()
}

/// What one container breaks, if anything.
fn violations(blob: &[u8], stage: Stage, oob: bool, seen: &mut Seen) -> Vec<String> {
    let mut bad = Vec::new();
    let shader = match Shader::parse(blob) {
        Ok(s) => s,
        Err(e) => return vec![format!("does not decode: {e}")],
    };
    let code = &shader.program.instructions;
    // Signature chunks: exactly one ISGN and one OSGN, empty for compute.
    for tag in [FourCC::ISGN, FourCC::OSGN] {
        let sigs: Vec<_> = shader.signatures.iter().filter(|s| s.kind == tag).collect();
        if sigs.len() != 1 {
            bad.push(format!("{} {tag} chunks", sigs.len()));
        } else if stage == Stage::Compute && !sigs[0].elements.is_empty() {
            bad.push(format!("compute {tag} is not empty"));
        }
    }
    // Which instructions sit at the top level (outside if/loop/switch).
    let mut depth = 0i32;
    let top: Vec<bool> = code
        .iter()
        .map(|i| {
            match i.opcode {
                Opcode::Endif | Opcode::Endloop | Opcode::Endswitch => depth -= 1,
                _ => {}
            }
            let at_top = depth == 0;
            if matches!(i.opcode, Opcode::If | Opcode::Loop | Opcode::Switch) {
                depth += 1;
            }
            at_top
        })
        .collect();
    let writes_whole_at_top = |ty: OperandType, reg: u32| {
        code.iter().zip(&top).any(|(i, t)| {
            *t && !i.opcode.info().is_declaration()
                && i.operands
                    .first()
                    .is_some_and(|d| d.ty == ty && register(d) == Some(reg) && mask(d) == 0xF)
        })
    };
    // Stores write only fxc's masks.
    for i in code {
        if matches!(i.opcode, Opcode::StoreStructured | Opcode::StoreRaw) {
            let m = mask(&i.operands[0]);
            if ![0x1, 0x3, 0x7, 0xF].contains(&m) {
                bad.push(format!("{} with mask {m:#x}", i.opcode.mnemonic()));
            }
            seen.store_masks |= 1 << m;
        }
    }
    // Outputs: SV_Position in vertex programs; every output written whole at the end (rule 7).
    let outputs: Vec<&Instruction> = code
        .iter()
        .filter(|i| matches!(i.opcode, Opcode::DclOutput | Opcode::DclOutputSiv))
        .collect();
    let positions: Vec<u32> = outputs
        .iter()
        .filter(|i| i.system_value() == Some(SystemValue::Position))
        .filter_map(|i| {
            let o = &i.operands[0];
            (o.ty == OperandType::Output && mask(o) == 0xF)
                .then(|| register(o))
                .flatten()
        })
        .collect();
    let osgn = shader.signatures.iter().find(|s| s.kind == FourCC::OSGN);
    let sv_position: Vec<_> = osgn
        .map(|s| {
            s.elements
                .iter()
                .filter(|e| e.semantic_name == "SV_Position")
                .collect()
        })
        .unwrap_or_default();
    if stage == Stage::Vertex {
        match (positions.as_slice(), sv_position.as_slice()) {
            ([p], [e]) => {
                if (e.register, e.system_value, e.component_type, e.mask) != (*p, 1, 3, 0xF) {
                    bad.push(format!("SV_Position element {e:?} for o{p}"));
                }
                seen.vertex_positions += 1;
            }
            (p, e) => bad.push(format!(
                "{} position declarations, {} SV_Position elements",
                p.len(),
                e.len()
            )),
        }
    } else if !positions.is_empty() || !sv_position.is_empty() {
        bad.push("a position output outside a vertex program".into());
    }
    for d in &outputs {
        if let Some(r) = register(&d.operands[0])
            && !writes_whole_at_top(OperandType::Output, r)
        {
            bad.push(format!("o{r} is not written whole at the top level"));
        }
    }
    if stage == Stage::Compute {
        let u0 = code.iter().zip(&top).any(|(i, t)| {
            *t && i.opcode == Opcode::StoreStructured
                && register(&i.operands[0]) == Some(0)
                && i.operands[0].ty == OperandType::UnorderedAccessView
                && mask(&i.operands[0]) == 0xF
        });
        if !u0 {
            bad.push("no output store to u0".into());
        }
    }
    // Rule 2: `mov rN.x, l(1..=4)`, `loop`, `breakc_z rN.x`, `iadd rN.x, rN.x, l(-1)`, and
    // nothing else writes rN.
    let mut counters = Vec::new();
    for (k, i) in code.iter().enumerate() {
        if i.opcode != Opcode::Loop {
            continue;
        }
        let (Some(set), Some(test), Some(dec)) = (
            k.checked_sub(1).map(|j| &code[j]),
            code.get(k + 1),
            code.get(k + 2),
        ) else {
            bad.push("loop without its counter".into());
            continue;
        };
        let c = register(&set.operands[0]);
        let trips = set.operands.get(1).and_then(|o| o.imm.first().copied());
        let ok = set.opcode == Opcode::Mov
            && trips.is_some_and(|t| (1..=4).contains(&t))
            && test.opcode == Opcode::Breakc
            && register(&test.operands[0]) == c
            && dec.opcode == Opcode::Iadd
            && register(&dec.operands[0]) == c
            && dec.operands[2].imm.first() == Some(&u32::MAX);
        if !ok {
            bad.push(format!("loop {k} is not bounded by its counter"));
        }
        counters.push((c, k - 1, k + 2));
    }
    for (c, set, dec) in &counters {
        for (k, i) in code.iter().enumerate() {
            let d = i.operands.first();
            if k != *set
                && k != *dec
                && i.opcode.info().dst > 0
                && !i.opcode.info().is_declaration()
                && d.is_some_and(|d| d.ty == OperandType::Temp && register(d) == *c)
                && counters.iter().all(|o| o.1 != k && o.2 != k)
            {
                bad.push(format!("loop counter r{c:?} written at {k}"));
            }
        }
    }
    // Rule 3: a dynamic index was last written by `and rI.x, _, l(size - 1)` (twice the size
    // for cb/icb under `oob_indices`).
    let mut last_and: Vec<Option<u32>> = vec![None; 64];
    for i in code {
        if i.opcode.info().is_declaration() {
            continue;
        }
        for o in &i.operands {
            for (ty, r) in relative_indices(o) {
                let size = match ty {
                    OperandType::ConstantBuffer => CB_REGS,
                    OperandType::ImmediateConstantBuffer => ICB_ROWS,
                    _ => INDEXABLE,
                };
                let limit = if oob && size != INDEXABLE {
                    2 * size
                } else {
                    size
                };
                let m = register(r).and_then(|t| last_and[t as usize]);
                if m.is_none_or(|m| m >= limit) {
                    bad.push(format!("{ty:?} index r{:?} not masked: {m:?}", register(r)));
                }
                seen.dynamic_indices += 1;
            }
        }
        for d in &i.operands[..usize::from(i.opcode.info().dst).min(i.operands.len())] {
            if d.ty == OperandType::Temp
                && let Some(t) = register(d)
            {
                last_and[t as usize] = (i.opcode == Opcode::And)
                    .then(|| i.operands[2].imm.first().copied())
                    .flatten();
            }
        }
    }
    // Rules 5 and 6: barriers only at the top level; only order-independent atomics.
    for (i, t) in code.iter().zip(&top) {
        if i.opcode == Opcode::Sync && !t {
            bad.push("a barrier inside control flow".into());
        }
        let name = i.opcode.mnemonic();
        if name.starts_with("imm_atomic")
            || (name.starts_with("atomic") && !ATOMICS.contains(&i.opcode))
        {
            bad.push(format!("{name}: not an order-independent atomic"));
        }
    }
    bad
}

/// What the programs checked contained, so that the checks cannot pass vacuously.
#[derive(Default)]
struct Seen {
    store_masks: u32,
    vertex_positions: usize,
    dynamic_indices: usize,
}

#[test]
fn every_generated_container_is_shaped_like_fxc_output_and_keeps_the_rules() {
    let all_on = Knobs {
        oob_indices: true,
        ..Knobs::default()
    };
    let mut seen = Seen::default();
    for (name, base) in [("default", Knobs::default()), ("all on", all_on)] {
        for stage in [Stage::Pixel, Stage::Vertex, Stage::Compute] {
            let k = Knobs {
                stages: vec![stage],
                ..base.clone()
            };
            for seed in 0..400 {
                let p = generate(&k, seed);
                let blob = p
                    .blob()
                    .unwrap_or_else(|e| panic!("{name} {stage:?} {seed}: {e}"));
                let bad = violations(&blob, stage, k.oob_indices, &mut seen);
                assert!(
                    bad.is_empty(),
                    "{name} {stage:?} seed {seed}: {bad:?}\n{}",
                    p.asm()
                );
            }
        }
    }
    // Every store mask fxc writes was generated, and nothing else.
    assert_eq!(
        seen.store_masks,
        (1 << 0x1) | (1 << 0x3) | (1 << 0x7) | (1 << 0xF)
    );
    assert_eq!(seen.vertex_positions, 800);
    assert!(seen.dynamic_indices > 1000, "{}", seen.dynamic_indices);
}

#[test]
fn a_store_mask_with_a_gap_is_widened_and_the_checks_see_a_bad_one() {
    // A tree built by hand (or by a shrinker) with `.xw`: lowered as `.xyzw`.
    let p = RandomProgram {
        stage: Stage::Compute,
        temps: 1,
        threads: [4, 1, 1],
        body: vec![Stmt::UavStore {
            in_range: true,
            mask: 0b1001,
            value: Src {
                reg: Reg::Temp(0),
                swizzle: [0, 1, 2, 3],
                neg: false,
                abs: false,
            },
            texture: false,
        }],
        oob_indices: false,
        split_moves: false,
        shader_model: dxbc::TargetModel::Sm50,
    };
    assert!(p.asm().contains("store_structured u1.xyzw"), "{}", p.asm());
    let mut seen = Seen::default();
    assert!(
        violations(
            &p.blob().expect("assembles"),
            Stage::Compute,
            false,
            &mut seen
        )
        .is_empty()
    );
    // The same container with the mask patched back to `.xw` fails the check.
    let text = p
        .asm()
        .replace("store_structured u1.xyzw", "store_structured u1.xw");
    let c = dxbc::assemble_container(&text).expect("assembles");
    let bad = violations(&c.to_bytes(), Stage::Compute, false, &mut seen);
    assert!(bad.iter().any(|b| b.contains("mask 0x9")), "{bad:?}");
}

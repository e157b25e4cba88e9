//! Shrinking builds trees the generator never drew (fewer components, renumbered temps, one
//! thread); their containers must keep fxc's shapes too. Written against `generators::random`
//! the way `dxdiff fuzz` uses it, so a change to those public names fails here first.

use dxbc::{Components, FourCC, Opcode, Selection, Shader, Stage};
use generators::random::{self, Knobs, RandomProgram, Stmt};

fn check(p: &RandomProgram, what: &str) {
    let blob = p.blob().unwrap_or_else(|e| panic!("{what}: {e}"));
    let shader = Shader::parse(&blob).unwrap_or_else(|e| panic!("{what}: {e}"));
    for tag in [FourCC::ISGN, FourCC::OSGN] {
        assert!(
            shader.signatures.iter().any(|s| s.kind == tag),
            "{what}: no {tag}"
        );
    }
    for i in &shader.program.instructions {
        if matches!(i.opcode, Opcode::StoreStructured | Opcode::StoreRaw) {
            let m = match i.operands[0].components {
                Components::Four(Selection::Mask(m)) => m,
                _ => 0,
            };
            assert!([1, 3, 7, 15].contains(&m), "{what}: store mask {m:#x}");
        }
    }
    if p.stage == Stage::Vertex {
        let osgn = shader.signatures.iter().find(|s| s.kind == FourCC::OSGN);
        let pos = osgn.and_then(|s| s.elements.iter().find(|e| e.system_value == 1));
        assert!(
            pos.is_some_and(|e| e.semantic_name == "SV_Position"
                && e.register == random::POSITION_OUTPUT
                && e.mask == 0xF),
            "{what}: no SV_Position in {osgn:?}"
        );
    }
    assert!(!random::code(&blob).is_empty(), "{what}: no code");
}

#[test]
fn every_shrink_candidate_keeps_fxc_shapes() {
    let mut stores = 0;
    for stage in [Stage::Pixel, Stage::Vertex, Stage::Compute] {
        let k = Knobs {
            stages: vec![stage],
            ..Knobs::default()
        };
        for seed in 0..20 {
            let p = random::generate(&k, seed);
            check(&p, &format!("{stage:?} {seed}"));
            for (n, c) in p.shrink_candidates().iter().enumerate() {
                stores += usize::from(c.body.iter().any(|s| matches!(s, Stmt::UavStore { .. })));
                check(c, &format!("{stage:?} {seed} candidate {n}"));
            }
        }
    }
    assert!(stores > 0, "no candidate had a UAV store");
}

//! The fuzzer's generator never writes a program that relies on what Direct3D leaves
//! undefined (docs/fuzz.md): a race, an input or output index outside its range. A mismatch on
//! such a program would be the program's fault, not the translator's, so `dxdiff fuzz` must
//! never see one. Every generated program runs on the interpreter with the inputs `fuzz` gives
//! it; none may raise a finding or a `d3d-undefined` event.

use dxbc::Stage;
use generators::random::{self, Knobs};
use harness::exec::interp::Interpreter;
use harness::exec::{Executor, Unit};
use harness::inputs;
use oracles::domain::Domain;
use oracles::interp::DEFAULT_BUDGET;

/// Programs per stage: enough to draw every statement kind many times.
const PER_STAGE: u64 = 150;

#[test]
fn generated_programs_rely_on_nothing_undefined() {
    let mut ran = 0;
    for stage in [Stage::Pixel, Stage::Vertex, Stage::Compute] {
        let knobs = Knobs {
            stages: vec![stage],
            ..Knobs::default()
        };
        for i in 0..PER_STAGE {
            let seed = 0x5eed_0000 + i;
            let p = random::generate(&knobs, seed);
            let Ok(blob) = p.blob() else { continue };
            let shader = dxbc::Shader::parse(&blob).expect("a generated program decodes");
            let Ok(t) = translator::translate(&shader, translator::Profile::Exact) else {
                continue;
            };
            let batch = match t.manifest.workgroup_size {
                Some([x, y, z]) => {
                    inputs::compute(&t, &shader.program, (x * y * z).max(1), seed, 8)
                }
                None => inputs::stage(&t, &shader.program, 1, seed, 128),
            };
            let unit = Unit {
                name: "generated",
                blob: &blob,
                shader: &shader,
                translation: Some(&t),
            };
            let mut interp = Interpreter;
            let prepared = interp.prepare(&unit).expect("prepares");
            let r = interp.run(&prepared, &batch, DEFAULT_BUDGET).expect("runs");
            let facts = r.facts.expect("the interpreter's facts");
            assert!(
                facts.findings.is_empty(),
                "{stage:?} program {seed:#x}: {:?}\n{}",
                facts.findings,
                p.asm()
            );
            assert!(
                facts
                    .events
                    .iter()
                    .all(|e| e & Domain::D3dUndefined.bit() == 0),
                "{stage:?} program {seed:#x} entered d3d-undefined\n{}",
                p.asm()
            );
            ran += 1;
        }
    }
    assert!(ran > PER_STAGE * 2, "only {ran} programs ran");
}

use std::collections::BTreeSet;
fn main() {
    let mut seen = BTreeSet::new();
    for path in std::env::args().skip(1) {
        let blob = std::fs::read(&path).unwrap();
        let n = u32::from_le_bytes(blob[28..32].try_into().unwrap()) as usize;
        for i in 0..n {
            let off = u32::from_le_bytes(blob[32 + 4 * i..36 + 4 * i].try_into().unwrap()) as usize;
            let size = u32::from_le_bytes(blob[off + 4..off + 8].try_into().unwrap()) as usize;
            if &blob[off..off + 4] == b"SHDR" || &blob[off..off + 4] == b"SHEX" {
                let p = dxbc::decode_program(&blob[off + 8..off + 8 + size]).unwrap();
                for inst in &p.instructions {
                    for op in &inst.operands {
                        if matches!(op.components, dxbc::Components::Zero | dxbc::Components::One) && !op.is_immediate() {
                            seen.insert(format!("{:?} {:?} decl={}", op.ty, op.components, inst.info().is_declaration()));
                        }
                    }
                }
            }
        }
    }
    for s in seen { println!("{s}"); }
}

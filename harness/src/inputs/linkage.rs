//! Class instances for a program with interfaces: the class-instance buffer
//! ([`dxbc::CLASS_INSTANCE_CB`]) that the reference reads and a translation binds, drawn per
//! vector so that a batch calls every table an interface lists.

use dxbc::linkage::{Linkage, instance_row};
use dxbc::{Opcode, Program};

/// A word from a seed and a counter (splitmix64's finaliser): the choices need no edge bias.
fn pick(seed: u64, k: u64) -> u64 {
    let mut z = seed.wrapping_add(k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The words of the class-instance buffer for one vector, or `None` for a program without
/// interfaces. Every slot binds one of the tables its interface lists (an instance of a class
/// that implements it), with a "this" record that points into a constant buffer the program
/// declares (x the slot, y a row inside it; z and w, the first texture and sampler, 0): the
/// bindings D3D's runtime accepts. A slot no interface covers gets an empty record.
pub fn instances(program: &Program, linkage: &Linkage, seed: u64) -> Option<Vec<u32>> {
    if linkage.interfaces.is_empty() {
        return None;
    }
    let cbs: Vec<(u32, u32)> = program
        .instructions
        .iter()
        .filter(|i| i.opcode == Opcode::DclConstantbuffer)
        .filter_map(|i| {
            let slot = match i.operands.first()?.indices.first()? {
                dxbc::Index::Imm32(s) => *s,
                _ => return None,
            };
            let rows = i.constant_buffer_rows(false)? as u32;
            Some((slot, rows.max(1)))
        })
        .collect();
    // A program past D3D's slot count is refused everywhere; its instances are not drawn.
    let slots = linkage.slot_count().min(dxbc::linkage::MAX_SLOTS);
    let mut words = vec![0u32; instance_row(slots).0 as usize * 4];
    for slot in 0..slots {
        let Some((_, decl)) = linkage.interface_of(slot) else {
            continue;
        };
        let r = pick(seed, u64::from(slot));
        let (this_row, table_row) = instance_row(slot);
        if let Some(&table) = decl
            .tables
            .get((r % decl.tables.len().max(1) as u64) as usize)
        {
            words[table_row as usize * 4] = table;
        }
        if !cbs.is_empty() {
            let (cb, rows) = cbs[((r >> 16) % cbs.len() as u64) as usize];
            let at = this_row as usize * 4;
            words[at] = cb;
            words[at + 1] = ((r >> 32) % u64::from(rows)) as u32;
        }
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_binds_a_listed_table_and_points_into_a_declared_buffer() {
        let text = "ps_5_0
dcl_constantbuffer cb3[5], dynamicIndexed
dcl_function_body fb0
dcl_function_body fb1
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_interface fp0[1][1] = {ft0}
dcl_interface_dynamicindexed fp1[2][1] = {ft0, ft1}
dcl_output o0.x
ret
label fb0
ret
label fb1
ret
";
        let p = dxbc::assemble(text).expect("assembles").program;
        let l = Linkage::of(&p.instructions);
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..64 {
            let w = instances(&p, &l, seed).expect("has interfaces");
            assert_eq!(w.len(), 3 * 2 * 4);
            assert_eq!(w[4], 0, "slot 0 may bind ft0 only");
            for slot in 0..3 {
                assert_eq!(w[slot * 8], 3, "this.x names cb3");
                assert!(w[slot * 8 + 1] < 5, "this.y is a row of cb3");
                seen.insert((slot, w[slot * 8 + 4]));
            }
        }
        assert!(seen.contains(&(1, 1)) && seen.contains(&(2, 0)), "{seen:?}");
    }
}

//! Signature chunks over the corpus: binary round trips, fxc listing tables and rebuilding the
//! chunks from those tables. Skips (with a printed reason) when the corpus is absent.

mod common;

use common::{all_blobs, sdk_pairs};
use dxbc::Container;
use dxbc::chunks::signature::{Signature, parse_fxc_signature_comments};

#[test]
fn every_signature_chunk_round_trips() {
    let Some(blobs) = all_blobs() else { return };
    let (mut total, mut canonical) = (0, 0);
    for (name, bytes) in &blobs {
        let c = Container::parse(bytes).expect("corpus blob parses");
        for chunk in c
            .chunks
            .iter()
            .filter(|c| Signature::is_signature_tag(c.tag))
        {
            let sig = Signature::parse(chunk.tag, &chunk.data)
                .unwrap_or_else(|e| panic!("{name} {}: {e}", chunk.tag));
            assert_eq!(sig.encode(), chunk.data, "{name} {}", chunk.tag);
            total += 1;
            // fxc's canonical pool alone (offsets forgotten) must also reproduce the chunk.
            let mut fresh = sig.clone();
            fresh.elements.iter_mut().for_each(|e| e.name_offset = None);
            if fresh.encode() == chunk.data {
                canonical += 1;
            }
        }
    }
    println!("signatures: {total} chunks round trip; {canonical} also from the canonical pool");
    assert_eq!(canonical, total);
}

#[test]
fn listing_tables_match_and_rebuild_chunks() {
    let Some(pairs) = sdk_pairs() else { return };
    let (mut tables, mut printed, mut rebuilt, mut listings) = (0, 0, 0, 0);
    let mut misses = Vec::new();
    for (name, text, bytes) in &pairs {
        let c = Container::parse(bytes).expect("corpus blob parses");
        let sigs: Vec<Signature> = c
            .chunks
            .iter()
            .filter(|ch| Signature::is_signature_tag(ch.tag))
            .map(|ch| Signature::parse(ch.tag, &ch.data).expect("corpus signature parses"))
            .collect();
        if sigs.is_empty() || !text.contains(" signature:") {
            continue;
        }
        listings += 1;
        for sig in &sigs {
            tables += 1;
            let table = sig.to_fxc_comment();
            if text.contains(&table) {
                printed += 1;
            } else {
                misses.push(format!("{name} {} print:\n{table}", sig.kind));
            }
        }
        let parsed = parse_fxc_signature_comments(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(parsed.len(), sigs.len(), "{name}: table count");
        for p in &parsed {
            let chunk = c
                .chunk(p.kind)
                .unwrap_or_else(|| panic!("{name}: no {} chunk", p.kind));
            if p.encode() == chunk.data {
                rebuilt += 1;
            } else {
                let orig = Signature::parse(chunk.tag, &chunk.data).expect("parses");
                misses.push(format!("{name} {} rebuild:\n{p:?}\n{orig:?}", p.kind));
            }
        }
    }
    for m in &misses {
        println!("MISS {m}");
    }
    println!(
        "signature tables: {listings} listings, {tables} tables; {printed} printed byte-identically; \
         {rebuilt} chunks rebuilt byte-exactly from the text"
    );
    assert!(misses.is_empty());
}

//! RDEF, STAT and SFI0 over the corpus: every chunk parses and re-encodes byte for byte, and an
//! edited RDEF is written canonically and reads back as edited. Skips when the corpus is absent.

mod common;

use common::all_blobs;
use dxbc::chunks::rdef::Rdef;
use dxbc::chunks::sfi0::Sfi0;
use dxbc::chunks::stat::Stat;
use dxbc::{Container, FourCC};

#[test]
fn rdef_stat_sfi0_round_trip() {
    let Some(blobs) = all_blobs() else { return };
    let (mut rdefs, mut canonical_same, mut stats, mut sfi0s) = (0, 0, 0, 0);
    let mut stat_sizes = std::collections::BTreeMap::new();
    let mut flags = std::collections::BTreeSet::new();
    for (name, bytes) in &blobs {
        let c = Container::parse(bytes).expect("corpus blob parses");
        if let Some(chunk) = c.chunk(FourCC::RDEF) {
            let r = Rdef::parse(&chunk.data).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(r.encode(), chunk.data, "{name}: RDEF");
            // The canonical layout must carry the same value.
            let canonical = r.encode_canonical();
            let back = Rdef::parse(&canonical).unwrap_or_else(|e| panic!("{name} canonical: {e}"));
            assert_eq!(back, r, "{name}: canonical RDEF reads back differently");
            if canonical == chunk.data {
                canonical_same += 1;
            }
            // An edit is written canonically and reads back as edited.
            let mut edited = r.clone();
            edited.creator = format!("{} (edited)", r.creator);
            if let Some(cb) = edited.constant_buffers.first_mut() {
                cb.name.push_str("_renamed");
            }
            let encoded = edited.encode();
            assert_ne!(encoded, chunk.data);
            assert_eq!(
                Rdef::parse(&encoded).expect("edited parses"),
                edited,
                "{name}: edit"
            );
            rdefs += 1;
        }
        if let Some(chunk) = c.chunk(FourCC::STAT) {
            let s = Stat::parse(&chunk.data).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(s.encode(), chunk.data, "{name}: STAT");
            *stat_sizes.entry(s.words.len()).or_insert(0) += 1;
            stats += 1;
        }
        if let Some(chunk) = c.chunk(FourCC::SFI0) {
            let s = Sfi0::parse(&chunk.data).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(s.encode(), chunk.data, "{name}: SFI0");
            flags.insert(s.names().join("|"));
            sfi0s += 1;
        }
    }
    println!(
        "RDEF: {rdefs} chunks parse and re-encode exactly ({canonical_same} of them also from the \
         canonical layout); STAT: {stats} ({stat_sizes:?} words); SFI0: {sfi0s} ({flags:?})"
    );
    assert!(rdefs > 0 && stats > 0 && sfi0s > 0);
}

/// Corrupting any single byte of a corpus RDEF or signature chunk gives an error or a value,
/// never a panic (and whatever parses can be encoded).
#[test]
fn corrupted_chunks_never_panic() {
    use dxbc::chunks::signature::Signature;
    let Some(blobs) = all_blobs() else { return };
    let mut tried = 0;
    for (_, bytes) in blobs.iter().step_by(3) {
        let c = Container::parse(bytes).expect("corpus blob parses");
        for chunk in &c.chunks {
            let is_sig = Signature::is_signature_tag(chunk.tag);
            if chunk.tag != FourCC::RDEF && !is_sig {
                continue;
            }
            for i in 0..chunk.data.len() {
                for v in [0x00u8, 0xFF, chunk.data[i] ^ 0x01] {
                    let mut d = chunk.data.clone();
                    d[i] = v;
                    tried += 1;
                    if is_sig {
                        if let Ok(s) = Signature::parse(chunk.tag, &d) {
                            let _ = s.encode();
                        }
                    } else if let Ok(r) = Rdef::parse(&d) {
                        let _ = r.encode_canonical();
                    }
                }
            }
        }
    }
    println!("corrupted chunks: {tried} variants parsed without panicking");
}

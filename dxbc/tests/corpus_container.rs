//! Corpus tests for the container layer and immediate formatting, over `../shared/corpus`.
//! They skip (with a printed reason) when the shared folder is not present.

mod common;

use common::{all_blobs, sdk_listings};
use dxbc::numfmt::{fxc_float, parse_imm};
use dxbc::{Container, dxbc_checksum};

#[test]
fn every_corpus_blob_round_trips_and_checksums() {
    let Some(blobs) = all_blobs() else { return };
    let mut exact = 0;
    let mut fresh_matches = 0;
    let mut flagged = Vec::new();
    for (name, bytes) in &blobs {
        let c = Container::parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&c.to_bytes_exact(), bytes, "{name}: to_bytes_exact differs");
        exact += 1;
        let fresh = c.to_bytes();
        let stored = c
            .stored_checksum
            .expect("parsed containers keep their checksum");
        if name.ends_with("FxDis/test_PS.o") {
            assert!(!dxbc::checksum_matches(bytes), "{name} should be flagged");
            assert_ne!(dxbc_checksum(&fresh), stored);
            flagged.push(name.clone());
        } else {
            assert!(
                dxbc::checksum_matches(bytes),
                "{name}: stored checksum does not match"
            );
            assert_eq!(&fresh, bytes, "{name}: to_bytes differs");
            fresh_matches += 1;
        }
    }
    println!(
        "containers: {} blobs, {exact} exact round trips, {fresh_matches} fresh checksums equal \
         the stored one, flagged wrong checksum: {flagged:?}",
        blobs.len()
    );
    assert_eq!(flagged.len(), 1);
}

/// Every `l(...)` immediate in the fxc listings parses; float-looking ones re-format identically.
#[test]
fn listing_immediates_parse() {
    let Some(listings) = sdk_listings() else {
        return;
    };
    let mut total = 0;
    let mut floats = 0;
    for (name, text) in &listings {
        for line in text.lines().filter(|l| !l.starts_with("//")) {
            let mut rest = line;
            while let Some(pos) = rest.find("l(") {
                let before = rest[..pos].chars().last();
                let after = &rest[pos + 2..];
                rest = after;
                if !matches!(before, Some(' ' | ',' | '(')) {
                    continue;
                }
                let Some(end) = after.find(')') else { continue };
                for item in after[..end].split(',') {
                    let item = item.trim();
                    let bits = parse_imm(item)
                        .unwrap_or_else(|| panic!("{name}: cannot parse {item:?} in {line:?}"));
                    total += 1;
                    if item.contains('.') {
                        floats += 1;
                        assert_eq!(fxc_float(bits), item, "{name}: float text in {line:?}");
                    }
                }
            }
        }
    }
    println!("listing immediates: {total} parsed ({floats} floats re-format byte-identically)");
    assert!(total > 1000);
}

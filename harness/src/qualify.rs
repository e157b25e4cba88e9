//! `dxdiff corpus`: corpus qualification. Every program is translated once and classified as
//! *qualified* (WGSL emitted and validated), *unsupported* (a fail-closed rejection naming a
//! catalog id) or *failed* (a crash, a hang, WGSL that naga or the device rejects, or a blob
//! the dxbc crate cannot decode). The record ([`reports::corpus::Record`]) holds the SHA-256 of
//! each program's WGSL and manifest, so that two records say exactly which programs' bytes
//! changed ([`reports::transition`]).

use std::collections::BTreeMap;

use reports::corpus::{FORMAT, ProgramRecord, Record, Status, Totals};
use reports::outcome::Outcome;
use sha2::{Digest, Sha256};

use crate::programs::Program;
use crate::translators::{Failure, Translator};

/// Hex SHA-256.
pub fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Classify one program: its status follows from what happened to it ([`Status::of`]).
pub fn classify(
    name: &str,
    blob: Result<&[u8], &str>,
    translator: &dyn Translator,
) -> ProgramRecord {
    let mut rec = ProgramRecord {
        name: name.to_string(),
        status: Status::Failed,
        catalog_id: None,
        reason: None,
        wgsl_sha256: None,
        manifest_sha256: None,
        adaptations: Vec::new(),
        verdicts: None,
    };
    let outcome = translated(&mut rec, blob, translator);
    if let Outcome::Failed(why) = &outcome {
        rec.reason = Some(why.clone());
    }
    rec.status = Status::of(&outcome);
    rec
}

/// What became of one program in translation, with the translation's hashes and claims, or a
/// refusal's id and words, kept in `rec`.
fn translated(rec: &mut ProgramRecord, blob: Result<&[u8], &str>, t: &dyn Translator) -> Outcome {
    let blob = match blob {
        Ok(b) => b,
        Err(e) => return Outcome::Failed(format!("unreadable: {e}")),
    };
    let shader = match dxbc::Shader::parse(blob) {
        Ok(s) => s,
        Err(e) => return Outcome::Failed(format!("malformed DXBC: [{}] {e}", e.code())),
    };
    match t.translate(blob, &shader) {
        Ok(t) => {
            rec.wgsl_sha256 = Some(sha256(t.wgsl.as_bytes()));
            let manifest = serde_json::to_vec(&t.manifest).unwrap_or_default();
            rec.manifest_sha256 = Some(sha256(&manifest));
            rec.adaptations = t.adaptations;
            Outcome::Compared {
                counts: Default::default(),
                counterexample: None,
            }
        }
        Err(f) => {
            if let Failure::Rejected {
                catalog_id, reason, ..
            } = &f
            {
                rec.catalog_id = Some(catalog_id.clone());
                rec.reason = Some(reason.clone());
            }
            Outcome::Skipped(f.skip()).qualifying()
        }
    }
}

/// Qualify every program (no GPU), in parallel over the machine's cores.
pub fn qualify(list: &[Program], translator: &dyn Translator) -> Record {
    let programs = crate::parallel::par_map(
        list,
        |(name, blob)| {
            // A panicking translator is that program's failure, not the run's end.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                classify(name, blob.as_deref().map_err(String::as_str), translator)
            }))
            .unwrap_or_else(|_| {
                let mut r = classify(name, Err("the translator panicked"), translator);
                r.reason = Some("translator crash: it panicked".into());
                r
            })
        },
        || classify("?", Err("lost to a panic"), translator),
    );
    let mut r = Record {
        format: FORMAT.to_string(),
        translator: translator.name(),
        verify: None,
        totals: Totals::default(),
        catalog_hits: BTreeMap::new(),
        adapted_lanes: BTreeMap::new(),
        programs,
        shard: None,
        gate: None,
    };
    r.recount();
    r
}

/// `dxdiff corpus --gate tint`: every qualified program's WGSL is compiled by Chrome's Tint as
/// well as validated by naga. Browsers are where the seed's kind of translator ships, so a
/// module naga accepts and Tint rejects is the translator's failure there: the program is
/// `failed`, with Tint's message.
/// Modules compiled per exchange with the page.
const PER_EXCHANGE: usize = 32;

/// What the gate saw.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Gated {
    /// Modules Tint compiled.
    pub compiled: usize,
    /// Of them, rejected (now `failed`).
    pub rejected: usize,
    /// Programs whose module could not be compiled at all (the browser failed); their status
    /// is kept.
    pub lost: usize,
    /// Programs whose module enables an extension the browser's device does not grant
    /// (`primitive_index` on SwiftShader): Tint cannot take it there, which says nothing about
    /// the translator, so it is not compiled and its status is kept.
    pub unavailable: usize,
}

/// Compile every qualified program of `record` with Tint; rejections become `failed`.
pub fn tint(
    record: &mut Record,
    list: &[Program],
    translator: &dyn crate::translators::Translator,
    opts: crate::chrome::ChromeOptions,
) -> Result<Gated, crate::gpu::GpuError> {
    let mut chrome = crate::chrome::Chrome::new(opts)?;
    let blobs: std::collections::BTreeMap<&str, &[u8]> = list
        .iter()
        .filter_map(|(n, b)| Some((n.as_str(), b.as_deref().ok()?)))
        .collect();
    // (record index, WGSL) of every qualified program, translated again as qualification did.
    let mut modules = Vec::new();
    for (i, p) in record.programs.iter().enumerate() {
        if p.status != Status::Qualified {
            continue;
        }
        let Some(blob) = blobs.get(p.name.as_str()) else {
            continue;
        };
        let Ok(shader) = dxbc::Shader::parse(blob) else {
            continue;
        };
        if let Ok(t) = translator.translate(blob, &shader) {
            modules.push((i, t.wgsl));
        }
    }
    let mut gated = Gated::default();
    modules.retain(|(_, wgsl)| {
        let lacking = chrome.missing_feature(wgsl).is_some();
        gated.unavailable += usize::from(lacking);
        !lacking
    });
    for part in modules.chunks(PER_EXCHANGE) {
        let texts: Vec<&str> = part.iter().map(|(_, w)| w.as_str()).collect();
        for ((i, _), got) in part.iter().zip(chrome.compile(&texts)) {
            let Ok(messages) = got else {
                gated.lost += 1;
                continue;
            };
            gated.compiled += 1;
            if let Some(why) = crate::chrome::gate::rejection(&messages) {
                gated.rejected += 1;
                let p = &mut record.programs[*i];
                // WGSL that Tint refuses did not qualify.
                p.status = Status::Failed;
                p.reason = Some(why);
            }
        }
    }
    record.gate = Some(format!("tint ({})", chrome.description));
    record.recount();
    Ok(gated)
}

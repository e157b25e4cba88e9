//! `dxdiff corpus --gate tint`: every qualified program's WGSL is compiled by Chrome's Tint as
//! well as validated by naga. Browsers are where the seed's kind of translator ships, so a
//! module naga accepts and Tint rejects is the translator's failure there: the program is
//! `failed`, with Tint's message.

use reports::corpus::{Record, Status};

use super::{Chrome, ChromeOptions, CompileMessage};
use crate::gpu::GpuError;
use crate::programs::Program;
use crate::translators::Translator;

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

/// Tint's verdict as one line: the first error with its place, or `None` when it compiled.
pub fn rejection(messages: &[CompileMessage]) -> Option<String> {
    let e = messages.iter().find(|m| m.kind == "error")?;
    let more = messages.iter().filter(|m| m.kind == "error").count() - 1;
    let tail = if more > 0 {
        format!(" (and {more} more)")
    } else {
        String::new()
    };
    Some(format!(
        "tint rejected the WGSL naga accepted: {}:{}: {}{tail}",
        e.line, e.column, e.message
    ))
}

/// Compile every qualified program of `record` with Tint; rejections become `failed`.
pub fn tint(
    record: &mut Record,
    list: &[Program],
    translator: &dyn Translator,
    opts: ChromeOptions,
) -> Result<Gated, GpuError> {
    let mut chrome = Chrome::new(opts)?;
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
            if let Some(why) = rejection(&messages) {
                gated.rejected += 1;
                let p = &mut record.programs[*i];
                p.status = Status::Failed;
                p.reason = Some(why);
            }
        }
    }
    record.gate = Some(format!("tint ({})", chrome.description));
    record.recount();
    Ok(gated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_error_is_the_reason_and_warnings_are_not_rejections() {
        let m = |kind: &str, message: &str, line| CompileMessage {
            kind: kind.into(),
            message: message.into(),
            line,
            column: 5,
        };
        assert_eq!(rejection(&[m("warning", "unused", 1)]), None);
        let why = rejection(&[
            m("warning", "unused", 1),
            m(
                "error",
                "'workgroupBarrier' must only be called from uniform control flow",
                9,
            ),
            m("error", "another", 10),
        ])
        .expect("rejected");
        assert_eq!(
            why,
            "tint rejected the WGSL naga accepted: 9:5: 'workgroupBarrier' must only be \
             called from uniform control flow (and 1 more)"
        );
    }
}

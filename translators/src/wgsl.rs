//! Whether a translator's WGSL is valid, judged by the spec's implementations: naga, after
//! dxdiff's lowering of the constructs naga lacks ([`translator::compat`]), and Chrome's Tint
//! where a browser is installed. A module invalid to both is the translator's crash; one that
//! only naga cannot read is valid WGSL that the wgpu executor cannot run, which is dxdiff's
//! limit (a `feature` skip naming it), never the translator's fault.
//!
//! Tint is asked only when naga refuses, so a run that stays inside what naga reads never
//! starts a browser. The browser is started once per process, on first need, and stopped by
//! [`shutdown`] (the CLI calls it before it exits). Verdicts are remembered by the module's
//! text. `DXDIFF_TINT=off` turns Tint off: naga alone judges, as before.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use translator::NagaError;

use executors::chrome::{Chrome, ChromeOptions, gate};

/// What the judges said of a module that naga validates only after lowering, or not at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judged {
    /// naga validates it, as written or after dxdiff's lowering.
    Naga,
    /// naga cannot read it, Tint accepts it: valid WGSL, runnable in Chrome only. The text
    /// says what naga could not read.
    TintOnly(String),
}

/// Tint's answer for one module: `Ok` when it compiled, `Err` with its first error.
type Verdict = Result<(), String>;

struct Tint {
    chrome: Option<Chrome>,
    /// Whether starting the browser failed (then Tint is not asked again).
    unavailable: bool,
    seen: HashMap<u64, Verdict>,
}

fn tint() -> &'static Mutex<Tint> {
    static TINT: OnceLock<Mutex<Tint>> = OnceLock::new();
    TINT.get_or_init(|| {
        Mutex::new(Tint {
            chrome: None,
            unavailable: std::env::var("DXDIFF_TINT").is_ok_and(|v| v == "off")
                || executors::chrome::binary(None).is_none(),
            seen: HashMap::new(),
        })
    })
}

/// Tint's verdict on `wgsl`, or `None` without a browser.
fn ask_tint(wgsl: &str) -> Option<Verdict> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    wgsl.hash(&mut h);
    let key = h.finish();
    let mut t = tint().lock().ok()?;
    if let Some(v) = t.seen.get(&key) {
        return Some(v.clone());
    }
    if t.unavailable {
        return None;
    }
    if t.chrome.is_none() {
        match Chrome::new(ChromeOptions::default()) {
            Ok(c) => t.chrome = Some(c),
            Err(_) => {
                t.unavailable = true;
                return None;
            }
        }
    }
    let chrome = t.chrome.as_mut()?;
    let got = chrome.compile(&[wgsl]).into_iter().next()?.ok()?;
    let verdict = match gate::rejection(&got) {
        Some(why) => Err(why),
        None => Ok(()),
    };
    t.seen.insert(key, verdict.clone());
    Some(verdict)
}

/// Stop the browser Tint runs in, if one was started.
pub fn shutdown() {
    if let Ok(mut t) = tint().lock() {
        t.chrome = None;
    }
}

/// Judge `wgsl` (with the `enable`s its manifest declares); `Err` is naga's error, with Tint's
/// where Tint also rejects it, for the caller to report as the translator's crash.
pub fn judge(wgsl: &str, enables: &[String]) -> Result<Judged, String> {
    let naga = match translator::validate_lowering(wgsl, enables) {
        Ok(_) => return Ok(Judged::Naga),
        // dxdiff's own bound on what a translation may ask for: no browser is asked to read
        // or run such a module either.
        Err(e @ NagaError::TooLarge { .. }) => return Err(e.to_string()),
        Err(e) => e,
    };
    match ask_tint(wgsl) {
        Some(Ok(())) => Ok(Judged::TintOnly(brief(&naga))),
        Some(Err(tint)) => Err(format!("{naga}\n{tint}")),
        None => Err(naga.to_string()),
    }
}

/// naga's message in one line, for a skip's reason.
fn brief(e: &NagaError) -> String {
    let text = e.to_string();
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('┌') && !l.starts_with('│'))
        .unwrap_or("naga cannot read it");
    format!("naga cannot read this WGSL, which Tint accepts: {first}")
}

//! The built-in translator (`translator` crate), in process, with its profile.

use std::any::Any;

use translator::{Profile, Translation};

use super::{Failure, Part, Translator, invalid_wgsl};

/// The built-in DXBC→WGSL translator with a profile (`contract` or `exact`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Builtin(pub Profile);

impl Translator for Builtin {
    fn name(&self) -> String {
        format!("builtin/{}", self.0)
    }

    fn translate(&self, _blob: &[u8], shader: &dxbc::Shader) -> Result<Translation, Failure> {
        // Emitting and validating apart: WGSL that naga rejects is the translator's failure (a
        // crash), the same rule as for an external translator.
        let t = translator::emit_unvalidated(shader, self.0).map_err(|r| Failure::Rejected {
            catalog_id: r.catalog_id,
            reason: r.reason,
            instruction: r.instruction,
        })?;
        translator::validate_enabling(&t.wgsl, &t.manifest.enables)
            .map_err(|e| invalid_wgsl(&e, &[]))?;
        Ok(t)
    }

    /// DXBC decoding, translation (decoding and WGSL writing), naga validation of that WGSL,
    /// and the whole route.
    fn parts(&self) -> Vec<Part<'_>> {
        let p = self.0;
        let blob = |b: &[u8]| Some(Box::new(b.to_vec()) as Box<dyn Any>);
        vec![
            Part {
                name: "DXBC decoding",
                setup: Box::new(blob),
                run: Box::new(|i| {
                    if let Some(b) = i.downcast_ref::<Vec<u8>>() {
                        let _ = dxbc::Shader::parse(b);
                    }
                }),
            },
            Part {
                name: "translation",
                setup: Box::new(blob),
                run: Box::new(move |i| {
                    if let Some(b) = i.downcast_ref::<Vec<u8>>()
                        && let Ok(s) = dxbc::Shader::parse(b)
                    {
                        let _ = translator::emit_unvalidated(&s, p);
                    }
                }),
            },
            Part {
                name: "naga validation",
                setup: Box::new(move |b| {
                    let s = dxbc::Shader::parse(b).ok()?;
                    let t = translator::emit_unvalidated(&s, p).ok()?;
                    Some(Box::new(t.wgsl) as Box<dyn Any>)
                }),
                run: Box::new(|i| {
                    if let Some(w) = i.downcast_ref::<String>() {
                        let _ = translator::validate(w);
                    }
                }),
            },
            Part {
                name: "whole",
                setup: Box::new(blob),
                run: Box::new(move |i| {
                    if let Some(b) = i.downcast_ref::<Vec<u8>>() {
                        let _ = translator::translate_blob(b, p);
                    }
                }),
            },
        ]
    }
}

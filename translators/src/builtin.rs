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
        // Lowering and validating apart: a module that naga rejects is the translator's failure
        // (a crash), the same rule as for an external translator's WGSL.
        let e = translator::lower(shader, self.0).map_err(|r| Failure::Rejected {
            catalog_id: r.catalog_id,
            reason: r.reason,
            instruction: r.instruction,
        })?;
        translator::finish(e).map_err(|e| invalid_wgsl(&e, &[]))
    }

    /// DXBC decoding; its checksum alone (MD5, which vkd3d-shader 1.2 skips); translation
    /// (decoding and lowering to naga IR: the translator's own work, as vkd3d-shader's is DXBC →
    /// SPIR-V); naga validation of that module; naga's WGSL writing; and the whole route to
    /// validated WGSL.
    fn parts(&self) -> Vec<Part<'_>> {
        let p = self.0;
        let blob = |b: &[u8]| Some(Box::new(b.to_vec()) as Box<dyn Any>);
        let lowered = move |b: &[u8]| {
            let s = dxbc::Shader::parse(b).ok()?;
            translator::lower(&s, p).ok()
        };
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
                        let _ = translator::lower(&s, p);
                    }
                }),
            },
            Part {
                name: "naga validation",
                setup: Box::new(move |b| Some(Box::new(lowered(b)?) as Box<dyn Any>)),
                run: Box::new(|i| {
                    if let Some(e) = i.downcast_ref::<translator::Emitted>() {
                        let _ = translator::validate_module(&e.module, &e.manifest.enables);
                    }
                }),
            },
            Part {
                name: "WGSL writing",
                setup: Box::new(move |b| {
                    let e = lowered(b)?;
                    let info = translator::validate_module(&e.module, &e.manifest.enables).ok()?;
                    Some(Box::new((e, info)) as Box<dyn Any>)
                }),
                run: Box::new(|i| {
                    if let Some((e, info)) =
                        i.downcast_ref::<(translator::Emitted, naga::valid::ModuleInfo)>()
                    {
                        let _ = translator::write(e, info);
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

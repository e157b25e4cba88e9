//! The polyfills in a module: their WGSL (`polyfills/*.wgsl`, one source of truth) is parsed
//! once per process, and each program's module receives copies of the functions it calls, with
//! their types re-made in that module.

use std::sync::LazyLock;

use naga::{Expression, Function, Handle, Module, Statement, Type};

use super::build::Fx;
use super::helpers::HELPERS;

/// Every helper, parsed and validated once. A helper that does not parse is a build defect,
/// caught by the tests; at run time it makes each program that asks for it a rejection.
static LIBRARY: LazyLock<Result<Module, String>> = LazyLock::new(|| {
    let text: String = HELPERS.iter().map(|(_, s)| *s).collect();
    naga::front::wgsl::parse_str(&text).map_err(|e| e.emit_to_string(&text))
});

/// Why a helper could not be copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError(pub String);

/// Copies of library functions in one module, by name.
#[derive(Debug, Default)]
pub struct Imported {
    by_name: Fx<&'static str, Handle<Function>>,
    by_source: Fx<Handle<Function>, Handle<Function>>,
    types: Fx<Handle<Type>, Handle<Type>>,
}

impl Imported {
    /// The copy of helper `name` in `module` (copied, with what it calls, on first use).
    pub fn function(
        &mut self,
        module: &mut Module,
        name: &'static str,
    ) -> Result<Handle<Function>, ImportError> {
        if let Some(h) = self.by_name.get(name) {
            return Ok(*h);
        }
        let lib = LIBRARY.as_ref().map_err(|e| ImportError(e.clone()))?;
        let (src, _) = lib
            .functions
            .iter()
            .find(|(_, f)| f.name.as_deref() == Some(name))
            .ok_or_else(|| ImportError(format!("no helper `{name}`")))?;
        let h = self.copy(lib, src, module)?;
        self.by_name.insert(name, h);
        Ok(h)
    }

    fn copy(
        &mut self,
        lib: &Module,
        src: Handle<Function>,
        module: &mut Module,
    ) -> Result<Handle<Function>, ImportError> {
        if let Some(h) = self.by_source.get(&src) {
            return Ok(*h);
        }
        let mut f = lib.functions[src].clone();
        // Callees first, so their handles exist in `module`.
        let mut callees = Vec::new();
        calls(&mut f.body, &mut callees);
        let mut fmap = Fx::default();
        for c in callees {
            let h = self.copy(lib, c, module)?;
            fmap.insert(c, h);
        }
        for a in &mut f.arguments {
            a.ty = self.ty(lib, a.ty, module)?;
        }
        if let Some(r) = &mut f.result {
            r.ty = self.ty(lib, r.ty, module)?;
        }
        for (_, v) in f.local_variables.iter_mut() {
            v.ty = self.ty(lib, v.ty, module)?;
        }
        for (_, e) in f.expressions.iter_mut() {
            match e {
                Expression::ZeroValue(t) | Expression::Compose { ty: t, .. } => {
                    *t = self.ty(lib, *t, module)?;
                }
                Expression::CallResult(c) => {
                    *c = *fmap
                        .get(c)
                        .ok_or_else(|| ImportError("a call result without its call".into()))?;
                }
                Expression::Constant(_)
                | Expression::Override(_)
                | Expression::GlobalVariable(_)
                | Expression::AtomicResult { .. }
                | Expression::SubgroupOperationResult { .. }
                | Expression::WorkGroupUniformLoadResult { .. } => {
                    return Err(ImportError(format!(
                        "helper {:?} uses module state",
                        f.name
                    )));
                }
                _ => {}
            }
        }
        remap_calls(&mut f.body, &fmap);
        let h = module.functions.append(f, naga::Span::UNDEFINED);
        self.by_source.insert(src, h);
        Ok(h)
    }

    fn ty(
        &mut self,
        lib: &Module,
        t: Handle<Type>,
        module: &mut Module,
    ) -> Result<Handle<Type>, ImportError> {
        if let Some(h) = self.types.get(&t) {
            return Ok(*h);
        }
        let inner = &lib.types[t].inner;
        match inner {
            naga::TypeInner::Scalar(_)
            | naga::TypeInner::Vector { .. }
            | naga::TypeInner::Matrix { .. } => {
                let h = super::build::ty(module, inner.clone());
                self.types.insert(t, h);
                Ok(h)
            }
            other => Err(ImportError(format!("helper type {other:?}"))),
        }
    }
}

/// Every block nested in `block` (itself included), for `f` to look at or change.
fn each_block(block: &mut naga::Block, f: &mut impl FnMut(&mut naga::Block)) {
    f(block);
    for s in block.iter_mut() {
        match s {
            Statement::Block(b) => each_block(b, f),
            Statement::If { accept, reject, .. } => {
                each_block(accept, f);
                each_block(reject, f);
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                each_block(body, f);
                each_block(continuing, f);
            }
            Statement::Switch { cases, .. } => {
                for c in cases {
                    each_block(&mut c.body, f);
                }
            }
            _ => {}
        }
    }
}

/// The functions a block calls.
fn calls(block: &mut naga::Block, out: &mut Vec<Handle<Function>>) {
    each_block(block, &mut |b| {
        for s in b.iter() {
            if let Statement::Call { function, .. } = s {
                out.push(*function);
            }
        }
    });
}

fn remap_calls(block: &mut naga::Block, fmap: &Fx<Handle<Function>, Handle<Function>>) {
    each_block(block, &mut |b| {
        for s in b.iter_mut() {
            if let Statement::Call { function, .. } = s
                && let Some(h) = fmap.get(function)
            {
                *function = *h;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every helper function (each file's, and the functions a file shares among its own)
    /// parses, copies into a module alone with what it calls, and validates there.
    #[test]
    fn every_helper_copies_into_a_module_that_validates() {
        let lib = match LIBRARY.as_ref() {
            Ok(lib) => lib,
            Err(e) => panic!("the polyfills do not parse:\n{e}"),
        };
        let names: Vec<&'static str> = lib
            .functions
            .iter()
            .filter_map(|(_, f)| f.name.as_deref())
            .collect();
        assert!(names.len() >= HELPERS.len());
        for name in names {
            let mut module = Module::default();
            let mut imported = Imported::default();
            imported
                .function(&mut module, name)
                .unwrap_or_else(|e| panic!("{name}: {e:?}"));
            naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                crate::validate::capabilities(),
            )
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        }
        // A helper brings what it calls, once.
        let mut module = Module::default();
        let mut imported = Imported::default();
        let fout = imported
            .function(&mut module, "d3d_fout")
            .expect("d3d_fout");
        imported.function(&mut module, "d3d_ftz").expect("d3d_ftz");
        let names: Vec<_> = module
            .functions
            .iter()
            .filter_map(|(_, f)| f.name.as_deref())
            .collect();
        assert_eq!(names, ["d3d_isnan", "d3d_ftz", "d3d_fout"]);
        assert_eq!(module.functions[fout].name.as_deref(), Some("d3d_fout"));
        assert!(imported.function(&mut module, "no_such_helper").is_err());
    }
}

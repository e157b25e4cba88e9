//! How the lowering refuses a program: the rejection it passes up, and the refusals of a stage
//! and of a resource dimension, which the scan words.

use dxbc::{ResourceDimension as Dim, Stage};

use crate::names as id;

/// A rejection as the lowering passes it up: the public [`crate::Rejection`] (three strings,
/// 88 bytes) boxed, so that the `Result` of every lowering step, most of them an expression
/// handle, comes back in registers instead of through memory.
#[derive(Debug)]
pub struct Rejection(Box<crate::Rejection>);

impl Rejection {
    #[cold]
    pub(crate) fn new(catalog_id: &str, reason: impl Into<String>) -> Rejection {
        Rejection(Box::new(crate::Rejection::new(catalog_id, reason)))
    }

    /// The rejection blamed on instruction `index`, unless an inner step named one already.
    /// In place: the box is the rejection's, not made again.
    #[cold]
    pub(crate) fn at(mut self, index: usize, opcode: dxbc::Opcode) -> Rejection {
        let r = &mut *self.0;
        if r.instruction.is_none() {
            r.instruction = Some(index);
            r.opcode = Some(opcode.mnemonic().to_string());
        }
        self
    }

    /// The public rejection.
    pub(crate) fn open(self) -> crate::Rejection {
        *self.0
    }
}

#[cold]
pub(super) fn reject_stage(stage: Stage) -> Rejection {
    Rejection::new(
        id::GEOMETRY_HULL_DOMAIN,
        format!("{stage:?} programs have no WGSL stage"),
    )
}

/// A refusal of a resource dimension under `entry`, named as fxc names it.
#[cold]
pub(super) fn dimension_refused(entry: &'static str, d: Dim, note: &str) -> Rejection {
    let name = dxbc::names::name(dxbc::names::RESOURCE_DIMENSIONS, d.number()).unwrap_or("unknown");
    Rejection::new(entry, format!("resource dimension {name}{note}"))
}

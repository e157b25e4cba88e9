//! Builtins at a stage's interface: the one vocabulary of manifests (WGSL's spelling), and the
//! register each stands for in the interpreter's files.

pub use translator::manifest::wgsl_builtin;

/// The `v#`/`o#` register an interface stands for: its own, or for a pixel program's special
/// register (`frag_depth`, `sample_mask`; no `v#`/`o#` number in the manifest) the one the
/// interpreter keeps it in (`dxbc::OperandType::special_register`).
pub fn interface_register(i: &translator::manifest::Interface, output: bool) -> Option<u32> {
    i.register.or_else(|| {
        let builtin = i.builtin.as_deref()?;
        translator::manifest::SPECIAL_BUILTINS
            .iter()
            .filter(|(_, b, ..)| wgsl_builtin(b) == builtin)
            .find_map(|(ty, ..)| match ty.special_slot()? {
                (dxbc::registers::RegisterFile::Output, r) if output => Some(r),
                (dxbc::registers::RegisterFile::Input, r) if !output => Some(r),
                _ => None,
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use naga::BuiltIn;

    #[test]
    fn builtins_are_named_as_wgsl_spells_them() {
        assert_eq!(wgsl_builtin(&BuiltIn::SampleIndex), "sample_index");
        assert_eq!(wgsl_builtin(&BuiltIn::PrimitiveIndex), "primitive_index");
        assert_eq!(
            wgsl_builtin(&BuiltIn::Position { invariant: true }),
            "position"
        );
        assert_eq!(wgsl_builtin(&BuiltIn::WorkGroupId), "workgroup_id");
        assert_eq!(wgsl_builtin(&BuiltIn::PointCoord), "point_coord");
        assert_eq!(
            wgsl_builtin(&BuiltIn::Barycentric { perspective: true }),
            "barycentric"
        );
    }

    #[test]
    fn special_builtins_read_back_from_their_registers() {
        let iface = |register, builtin: &'static str| translator::manifest::Interface {
            register,
            mask: 1,
            location: None,
            builtin: Some(builtin.into()),
            wgsl_type: "u32".into(),
            semantic: "".into(),
        };
        assert_eq!(
            interface_register(&iface(None, "frag_depth"), true),
            Some(32)
        );
        assert_eq!(
            interface_register(&iface(None, "sample_mask"), true),
            Some(33)
        );
        assert_eq!(
            interface_register(&iface(None, "sample_mask"), false),
            Some(32)
        );
        assert_eq!(interface_register(&iface(None, "frag_depth"), false), None);
        assert_eq!(
            interface_register(&iface(Some(3), "position"), false),
            Some(3)
        );
    }
}

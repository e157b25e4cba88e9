//! SPIR-V → WGSL through naga: the route that vkd3d-shader's and dxbc-spirv's modules take.
//! naga's SPIR-V front end reads the module, each resource gets its own binding and a manifest
//! entry (the register comes from the translator, through a resolver), the stage's interface
//! is matched to the container's signatures, and naga validates and writes WGSL.
//!
//! [`fixup`] holds the word-level rewrites some modules need before naga reads them; those are
//! dxdiff's lowering, not the translator's (docs/dxbc-spirv.md lists each one).

pub mod fixup;
pub mod words;

use naga::{AddressSpace, Binding, BuiltIn, ShaderStage, TypeInner};
use translator::manifest::{Binding as Bound, BindingKind, BindingLayout, Interface};
use translator::{Manifest, NagaError};

/// Why a SPIR-V module does not become WGSL. Codes: `spirv.naga-read`,
/// `spirv.no-entry-point`, `spirv.layout`, `spirv.unbound`, `spirv.no-wgsl-form`,
/// `spirv.naga-invalid`, `spirv.naga-write`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RouteError {
    /// naga's SPIR-V front end cannot read the module.
    #[error("naga cannot read the SPIR-V: {0}")]
    NagaRead(NagaError),
    /// The module has no entry point.
    #[error("the SPIR-V has no entry point")]
    NoEntryPoint,
    /// naga cannot lay out the module's types while rebinding its resources.
    #[error("{0}")]
    Layout(String),
    /// A resource whose DXBC register the translator did not say.
    #[error("the module binds set {group} binding {binding}, which names no DXBC register")]
    Unbound {
        /// Its descriptor set.
        group: u32,
        /// Its binding.
        binding: u32,
    },
    /// The module uses a type WGSL has no spelling for, which naga would still write.
    #[error("{0}")]
    NoWgslForm(&'static str),
    /// The module read from SPIR-V does not validate in naga.
    #[error("naga rejects the module: {0}")]
    NagaInvalid(NagaError),
    /// naga cannot write the module as WGSL.
    #[error("naga cannot write WGSL for it: {0}")]
    NagaWrite(NagaError),
}

impl RouteError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            RouteError::NagaRead(_) => "spirv.naga-read",
            RouteError::NoEntryPoint => "spirv.no-entry-point",
            RouteError::Layout(_) => "spirv.layout",
            RouteError::Unbound { .. } => "spirv.unbound",
            RouteError::NoWgslForm(_) => "spirv.no-wgsl-form",
            RouteError::NagaInvalid(_) => "spirv.naga-invalid",
            RouteError::NagaWrite(_) => "spirv.naga-write",
        }
    }
}

/// Says which DXBC register (and of which kind) a module's resource stands for, given the
/// variable and the kind its address space suggests; `None` when the translator did not say.
pub type Resolve<'a> = &'a dyn Fn(&naga::GlobalVariable, BindingKind) -> Option<(BindingKind, u32)>;

/// naga's SPIR-V front end.
pub fn read(spv: &[u8]) -> Result<naga::Module, RouteError> {
    // naga flips a vertex position's y by default (GL → Vulkan); these modules are already in
    // Vulkan's convention, and D3D's result is what the oracle compares.
    let options = naga::front::spv::Options {
        adjust_coordinate_space: false,
        ..Default::default()
    };
    naga::front::spv::parse_u8_slice(spv, &options).map_err(|e| {
        RouteError::NagaRead(NagaError::Parse {
            message: e.to_string(),
            offset: None,
        })
    })
}

fn stage_name(s: ShaderStage) -> &'static str {
    match s {
        ShaderStage::Vertex => "vertex",
        ShaderStage::Fragment => "fragment",
        _ => "compute",
    }
}

fn type_name(module: &naga::Module, ty: naga::Handle<naga::Type>) -> String {
    let scalar = |s: naga::Scalar| match s.kind {
        naga::ScalarKind::Float => "f32",
        naga::ScalarKind::Sint => "i32",
        naga::ScalarKind::Uint => "u32",
        _ => "bool",
    };
    match module.types[ty].inner {
        TypeInner::Scalar(s) => scalar(s).to_string(),
        TypeInner::Vector { size, scalar: s } => format!("vec{}<{}>", size as u32, scalar(s)),
        ref other => format!("{other:?}"),
    }
}

/// The WGSL name of a builtin the harness feeds, and the D3D_NAME of its system value.
fn builtin_name(b: BuiltIn) -> Option<(&'static str, u32)> {
    Some(match b {
        BuiltIn::Position { .. } => ("position", 1),
        BuiltIn::VertexIndex => ("vertex_index", 6),
        BuiltIn::InstanceIndex => ("instance_index", 8),
        BuiltIn::PrimitiveIndex => ("primitive_index", 7),
        BuiltIn::FrontFacing => ("front_facing", 9),
        BuiltIn::SampleIndex => ("sample_index", 10),
        _ => return None,
    })
}

/// Where a location variable sits in its register, when a fix-up moved it off the register's
/// location ([`fixup::Relocated`]): the location naga sees, the register and first component.
fn placed(location: u32, moved: &[fixup::Relocated]) -> (u32, u8) {
    moved
        .iter()
        .find(|m| m.location == location)
        .map_or((location, 0), |m| (m.register, m.component))
}

/// The interface entry for one argument or result member, matched to the signature.
fn interface(
    module: &naga::Module,
    binding: &Binding,
    ty: naga::Handle<naga::Type>,
    signature: Option<&dxbc::chunks::signature::Signature>,
    pixel_output: bool,
    moved: &[fixup::Relocated],
) -> Option<Interface> {
    let elements = signature.map_or(&[][..], |s| s.elements.as_slice());
    let (register, first, location, builtin, sv) = match binding {
        Binding::Location { location, .. } => {
            let (register, first) = placed(*location, moved);
            (register, first, Some(*location), None, None)
        }
        Binding::BuiltIn(b) => {
            let (name, sv) = builtin_name(*b)?;
            let reg = elements
                .iter()
                .find(|e| e.system_value == sv)
                .map(|e| e.register)?;
            (reg, 0, None, Some(name.to_string()), Some(sv))
        }
    };
    let width = match module.types[ty].inner {
        TypeInner::Vector { size, .. } => size as u8,
        _ => 1,
    };
    let covered = ((1u8 << width) - 1) << first;
    let matching: Vec<_> = elements
        .iter()
        .filter(|e| {
            e.register == register
                && (first == 0 || e.mask & covered != 0)
                && match sv {
                    Some(v) => e.system_value == v,
                    None => pixel_output || e.system_value == 0 || e.system_value > 0,
                }
        })
        .collect();
    let mask = matching.iter().fold(0u8, |m, e| m | e.mask);
    let mask = if first > 0 {
        covered & 0xf
    } else if mask == 0 {
        0xf
    } else {
        mask
    };
    Some(Interface {
        register: Some(register),
        mask,
        location,
        builtin: builtin.map(Into::into),
        wgsl_type: type_name(module, ty).into(),
        semantic: matching
            .first()
            .map(|e| e.semantic_name.clone().into())
            .unwrap_or_default(),
    })
}

/// The manifest layout of an image type: the WGSL type the harness binds. A texture the
/// harness has no binding for (1D, multisampled, a cube array) stays `texture`, which it
/// reports as unfed instead of binding something else.
fn image_layout(ty: &TypeInner) -> BindingLayout {
    use BindingLayout as L;
    use naga::{ImageClass, ImageDimension as D, ScalarKind as K};
    let TypeInner::Image {
        dim,
        arrayed,
        class,
    } = *ty
    else {
        return L::Texture;
    };
    match (class, dim, arrayed) {
        (ImageClass::Sampled { kind, multi: false }, _, _) => match (dim, arrayed, kind) {
            (D::D2, false, K::Float) => L::Texture2dF32,
            (D::D2, false, K::Uint) => L::Texture2dU32,
            (D::D2, false, K::Sint) => L::Texture2dI32,
            (D::D2, true, K::Float) => L::Texture2dArrayF32,
            (D::D2, true, K::Uint) => L::Texture2dArrayU32,
            (D::D2, true, K::Sint) => L::Texture2dArrayI32,
            (D::Cube, false, K::Float) => L::TextureCubeF32,
            (D::Cube, false, K::Uint) => L::TextureCubeU32,
            (D::Cube, false, K::Sint) => L::TextureCubeI32,
            (D::D3, false, K::Float) => L::Texture3dF32,
            (D::D3, false, K::Uint) => L::Texture3dU32,
            (D::D3, false, K::Sint) => L::Texture3dI32,
            _ => L::Texture,
        },
        (ImageClass::Depth { multi: false }, D::D2, false) => L::TextureDepth2d,
        (ImageClass::Depth { multi: false }, D::D2, true) => L::TextureDepth2dArray,
        (ImageClass::Depth { multi: false }, D::Cube, false) => L::TextureDepthCube,
        (ImageClass::Storage { format, access }, _, _) => {
            let dim = match (dim, arrayed) {
                (D::D1, _) => "1d",
                (D::D2, false) => "2d",
                (D::D2, true) => "2d_array",
                (D::D3, _) => "3d",
                (D::Cube, _) => return L::Texture,
            };
            let access = if access.contains(naga::StorageAccess::LOAD | naga::StorageAccess::STORE)
            {
                "read_write"
            } else if access.contains(naga::StorageAccess::STORE) {
                "write"
            } else {
                "read"
            };
            // naga's format names are WGSL's, capitalised (`Rgba8Unorm` → `rgba8unorm`).
            let format = format!("{format:?}").to_lowercase();
            L::Other(format!("texture_storage_{dim}<{format}, {access}>"))
        }
        _ => L::Texture,
    }
}

/// A type WGSL cannot spell that naga's writer would emit anyway, so its WGSL would not parse:
/// a 1D texture array (WGSL has `texture_1d` alone) or a multisampled array.
fn no_wgsl_form(module: &naga::Module) -> Option<&'static str> {
    module.types.iter().find_map(|(_, t)| match t.inner {
        TypeInner::Image {
            dim: naga::ImageDimension::D1,
            arrayed: true,
            ..
        } => Some("a 1D texture array, which WGSL has no type for"),
        TypeInner::Image {
            arrayed: true,
            class: naga::ImageClass::Sampled { multi: true, .. } | naga::ImageClass::Depth { multi: true },
            ..
        } => Some("a multisampled texture array, which WGSL has no type for"),
        _ => None,
    })
}

/// Give each resource its own binding in group 0, and derive the manifest: the registers from
/// `resolve`, the stage interface from the module's entry point and the program's signatures
/// (`moved` says where a fix-up relocated a packed varying).
pub fn rebind(
    module: &mut naga::Module,
    shader: &dxbc::Shader,
    resolve: Resolve<'_>,
    moved: &[fixup::Relocated],
) -> Result<Manifest, RouteError> {
    let ep = module
        .entry_points
        .first()
        .cloned()
        .ok_or(RouteError::NoEntryPoint)?;
    if let Some(why) = no_wgsl_form(module) {
        return Err(RouteError::NoWgslForm(why));
    }
    let mut layouter = naga::proc::Layouter::default();
    layouter
        .update(module.to_ctx())
        .map_err(|e| RouteError::Layout(e.to_string()))?;
    let mut bindings = Vec::new();
    let handles: Vec<_> = module.global_variables.iter().map(|(h, _)| h).collect();
    for h in handles {
        let g = &module.global_variables[h];
        let Some(b) = g.binding else { continue };
        let (kind, layout, size) = match g.space {
            AddressSpace::Uniform => (
                BindingKind::Cbuffer,
                BindingLayout::UniformVec4Array,
                Some(layouter[g.ty].size),
            ),
            AddressSpace::Storage { access } => (
                if access.contains(naga::StorageAccess::STORE) {
                    BindingKind::Uav
                } else {
                    BindingKind::Srv
                },
                BindingLayout::StorageU32Array,
                None,
            ),
            AddressSpace::Handle => match module.types[g.ty].inner {
                TypeInner::Sampler { comparison } => (
                    BindingKind::Sampler,
                    if comparison {
                        BindingLayout::SamplerComparison
                    } else {
                        BindingLayout::Sampler
                    },
                    None,
                ),
                TypeInner::Image {
                    class: naga::ImageClass::Storage { .. },
                    ..
                } => (
                    BindingKind::Uav,
                    image_layout(&module.types[g.ty].inner),
                    None,
                ),
                ref image => (BindingKind::Srv, image_layout(image), None),
            },
            _ => continue,
        };
        let (kind, register) = resolve(g, kind).ok_or(RouteError::Unbound {
            group: b.group,
            binding: b.binding,
        })?;
        let new = bindings.len() as u32;
        bindings.push(Bound {
            kind,
            register,
            group: 0,
            binding: new,
            layout,
            size_bytes: size,
            stride: None,
            texture1d: false,
        });
        module.global_variables[h].binding = Some(naga::ResourceBinding {
            group: 0,
            binding: new,
        });
    }
    let sig = |tags: &[dxbc::FourCC]| shader.signatures.iter().find(|s| tags.contains(&s.kind));
    let isgn = sig(&[dxbc::FourCC::ISGN, dxbc::FourCC::ISG1]);
    let osgn = sig(&[dxbc::FourCC::OSGN, dxbc::FourCC::OSG5, dxbc::FourCC::OSG1]);
    let pixel = ep.stage == ShaderStage::Fragment;
    let (moved_outputs, moved_inputs): (Vec<_>, Vec<_>) = moved.iter().partition(|m| m.output);
    let mut inputs = Vec::new();
    if ep.stage != ShaderStage::Compute {
        for a in &ep.function.arguments {
            if let Some(b) = &a.binding
                && let Some(i) = interface(module, b, a.ty, isgn, false, &moved_inputs)
            {
                inputs.push(i);
            }
        }
    }
    let mut outputs = Vec::new();
    if let Some(r) = &ep.function.result {
        match (&module.types[r.ty].inner, &r.binding) {
            (TypeInner::Struct { members, .. }, _) => {
                for m in members {
                    if let Some(b) = &m.binding
                        && let Some(i) = interface(module, b, m.ty, osgn, pixel, &moved_outputs)
                    {
                        outputs.push(i);
                    }
                }
            }
            (_, Some(b)) => {
                if let Some(i) = interface(module, b, r.ty, osgn, pixel, &moved_outputs) {
                    outputs.push(i);
                }
            }
            _ => {}
        }
    }
    Ok(Manifest {
        stage: stage_name(ep.stage).into(),
        entry_point: ep.name.clone().into(),
        workgroup_size: (ep.stage == ShaderStage::Compute).then_some(ep.workgroup_size),
        bindings,
        inputs,
        outputs,
        enables: Vec::new(),
    })
}

/// The end of the route: naga validates the rebound module and writes WGSL, and the translation
/// carries the manifest (with the extensions the WGSL enables) and the route's claims.
pub fn finish(
    module: &naga::Module,
    mut manifest: Manifest,
    claims: &[&str],
) -> Result<translator::Translation, RouteError> {
    let info = validate(module)?;
    let wgsl = write(module, &info)?;
    // naga's writer puts the extensions the module uses first; the manifest declares them.
    manifest.enables = executors::gpu::directive_enables(&wgsl);
    Ok(translator::Translation {
        wgsl,
        manifest,
        adaptations: claims.iter().map(|c| c.to_string()).collect(),
        naga_unreadable: None,
    })
}

/// naga's validator over a module read from SPIR-V.
pub fn validate(module: &naga::Module) -> Result<naga::valid::ModuleInfo, RouteError> {
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(module)
    .map_err(|e| {
        // The module came from SPIR-V: there is no source text for an offset into, so the
        // message is the error's whole chain (the first line names only the function).
        let mut message = e.to_string();
        let mut cause = std::error::Error::source(e.as_inner());
        while let Some(c) = cause {
            message.push_str(": ");
            message.push_str(&c.to_string());
            cause = c.source();
        }
        RouteError::NagaInvalid(NagaError::Invalid {
            message,
            offset: None,
        })
    })
}

/// naga's WGSL writer.
pub fn write(module: &naga::Module, info: &naga::valid::ModuleInfo) -> Result<String, RouteError> {
    naga::back::wgsl::write_string(module, info, naga::back::wgsl::WriterFlags::empty()).map_err(
        |e| {
            RouteError::NagaWrite(NagaError::Write {
                message: e.to_string(),
            })
        },
    )
}

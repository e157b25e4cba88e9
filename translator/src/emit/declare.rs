//! The module's declarations: binding variables with guarded accessors, the register files,
//! and the manifest's binding list. Every accessor checks bounds explicitly so the results are
//! D3D's (reads 0, writes dropped) whatever the runtime's own checks do.

use super::slots::SlotMap;

use dxbc::Stage;
use naga::{
    AddressSpace, BinaryOperator, Expression, Function, GlobalVariable, Handle, Span, Statement,
    TypeInner,
};

use super::Rejection;
use super::build::{self, Body, H};
use super::memory::Mem;
use super::{Ctx, Shape, UavKind, View, binding, storage_format_name};
use crate::manifest::{Binding, BindingKind as Kind, BindingLayout as Layout};
use crate::names as id;

/// A buffer's variable and its guarded accessors `NAME_load(word)` and `NAME_store(word,
/// value)`, each made when the program first needs it: an accessor nothing calls would cost
/// the lowering, naga's validation and the writer for no use.
#[derive(Debug)]
pub struct Buffer {
    pub var: Handle<GlobalVariable>,
    name: String,
    len: Len,
    writable: bool,
    load: Option<Handle<Function>>,
    store: Option<Handle<Function>>,
}

/// A constant buffer's variable, its declared row count, and its guarded row read
/// `cb#_at(i)` once a relative index needs it.
#[derive(Debug, Clone, Copy)]
pub struct ConstantBuffer {
    pub var: Handle<GlobalVariable>,
    pub rows: u32,
    at: Option<Handle<Function>>,
}

/// The module's variables and generated functions, by what they hold.
#[derive(Debug, Default)]
pub struct Globals {
    pub v: Option<Handle<GlobalVariable>>,
    pub o: Option<Handle<GlobalVariable>>,
    pub x: SlotMap<u32, Handle<GlobalVariable>>,
    pub thread_id: Option<Handle<GlobalVariable>>,
    pub group_id: Option<Handle<GlobalVariable>>,
    pub thread_in_group: Option<Handle<GlobalVariable>>,
    pub thread_index: Option<Handle<GlobalVariable>>,
    pub cb: SlotMap<u32, ConstantBuffer>,
    pub icb_at: Option<Handle<Function>>,
    pub(super) buffers: SlotMap<Mem, Buffer>,
    pub textures: SlotMap<u32, Handle<GlobalVariable>>,
    /// Typed UAV textures: `texture_storage_*` variables, by `u#`.
    pub uav_textures: SlotMap<u32, Handle<GlobalVariable>>,
    /// Hidden counters: one `array<atomic<u32>>` of a word each, by `u#`.
    pub counters: SlotMap<u32, Handle<GlobalVariable>>,
    pub samplers: SlotMap<u32, Handle<GlobalVariable>>,
}

/// A module variable.
fn var(
    module: &mut naga::Module,
    name: String,
    space: AddressSpace,
    binding: Option<u32>,
    ty: Handle<naga::Type>,
) -> Handle<GlobalVariable> {
    module.global_variables.append(
        GlobalVariable {
            name: Some(name),
            space,
            binding: binding.map(|b| naga::ResourceBinding {
                group: 0,
                binding: b,
            }),
            ty,
            init: None,
            memory_decorations: naga::MemoryDecorations::empty(),
        },
        Span::UNDEFINED,
    )
}

/// A function of `u32` arguments, built by `body` from their expressions.
fn function(
    module: &mut naga::Module,
    name: String,
    args: &[&str],
    result: Option<Handle<naga::Type>>,
    body: impl FnOnce(&mut naga::Module, &mut Body, &[H]),
) -> Handle<Function> {
    let u = build::scalar(module, build::U32);
    let mut b = Body::new(&name);
    for a in args {
        b.f.arguments.push(naga::FunctionArgument {
            name: Some(a.to_string()),
            ty: u,
            binding: None,
        });
    }
    b.f.result = result.map(|ty| naga::FunctionResult { ty, binding: None });
    let hs: Vec<H> = (0..args.len() as u32)
        .map(|k| b.expr(Expression::FunctionArgument(k)))
        .collect();
    body(module, &mut b, &hs);
    let f = b.finish();
    module.functions.append(f, Span::UNDEFINED)
}

/// `if (ok) { return read(); } return otherwise;`: a read that happens only in range.
fn read_or(b: &mut Body, ok: H, read: impl FnOnce(&mut Body) -> H, otherwise: H) {
    b.when(ok, |b| {
        let v = read(b);
        b.stmt(Statement::Return { value: Some(v) });
    });
    b.stmt(Statement::Return {
        value: Some(otherwise),
    });
}

/// The number of words a buffer's accessors test against.
#[derive(Debug, Clone, Copy)]
enum Len {
    /// `arrayLength(&NAME)`.
    Runtime,
    Fixed(u32),
}

/// `w < words`: whether word `w` is inside the buffer.
fn in_bounds(b: &mut Body, var: Handle<GlobalVariable>, len: Len, w: H) -> H {
    let n = match len {
        Len::Runtime => {
            let g = b.expr(Expression::GlobalVariable(var));
            b.expr(Expression::ArrayLength(g))
        }
        Len::Fixed(n) => b.u(n),
    };
    b.bin(BinaryOperator::Less, w, n)
}

/// A pointer to word `w` of the buffer.
fn word(b: &mut Body, var: Handle<GlobalVariable>, w: H) -> H {
    let g = b.expr(Expression::GlobalVariable(var));
    b.access(g, w)
}

/// `NAME_load(word)`: the word, or 0 past the end.
fn load_fn(module: &mut naga::Module, buf: &Buffer) -> Handle<Function> {
    let u = build::scalar(module, build::U32);
    let (var, len) = (buf.var, buf.len);
    function(
        module,
        [buf.name.as_str(), "_load"].concat(),
        &["w"],
        Some(u),
        |_, b, a| {
            let ok = in_bounds(b, var, len, a[0]);
            let z = b.u(0);
            // An atomic word reads through `atomicLoad`, which is a load of its pointer.
            let read = |b: &mut Body| {
                let p = word(b, var, a[0]);
                b.load(p)
            };
            read_or(b, ok, read, z);
        },
    )
}

/// `NAME_store(word, value)`: the store, dropped past the end.
fn store_fn(module: &mut naga::Module, buf: &Buffer) -> Handle<Function> {
    let (var, len) = (buf.var, buf.len);
    function(
        module,
        [buf.name.as_str(), "_store"].concat(),
        &["w", "value"],
        None,
        |_, b, a| {
            let ok = in_bounds(b, var, len, a[0]);
            b.when(ok, |b| {
                let p = word(b, var, a[0]);
                b.store(p, a[1]);
            });
        },
    )
}

/// `cb#_at(i)`: row `i`, or zeros past the declared size (FS §7.5).
fn cb_at_fn(module: &mut naga::Module, slot: u32, cb: ConstantBuffer) -> Handle<Function> {
    let v4 = build::vector(module, naga::VectorSize::Quad, build::U32);
    let unguarded = crate::planted(crate::PlantedBug::CbIndexUnguarded);
    function(
        module,
        build::numbered("cb", slot, "_at"),
        &["i"],
        Some(v4),
        |_, b, a| {
            let ok = if unguarded {
                b.bool(true)
            } else {
                let n = b.u(cb.rows);
                b.bin(BinaryOperator::Less, a[0], n)
            };
            let z = b.expr(Expression::ZeroValue(v4));
            read_or(
                b,
                ok,
                |b| {
                    let gv = b.expr(Expression::GlobalVariable(cb.var));
                    let rows = b.at(gv, 0);
                    let p = b.access(rows, a[0]);
                    b.load(p)
                },
                z,
            );
        },
    )
}

impl Ctx<'_> {
    /// The buffer behind `m`.
    pub(super) fn buffer(&self, m: Mem) -> Result<&Buffer, Rejection> {
        self.g.buffers.get(&m).ok_or_else(not_a_buffer)
    }

    /// `NAME_load` of the buffer behind `m`, made on first use.
    pub(super) fn buffer_load(&mut self, m: Mem) -> Result<Handle<Function>, Rejection> {
        self.accessor(m, false)
    }

    /// `NAME_store` of the buffer behind `m`, made on first use; a read-only view has none.
    pub(super) fn buffer_store(&mut self, m: Mem) -> Result<Handle<Function>, Rejection> {
        self.accessor(m, true)
    }

    /// The buffer's `_store` (`store`) or `_load` accessor, made the first time it is asked for.
    fn accessor(&mut self, m: Mem, store: bool) -> Result<Handle<Function>, Rejection> {
        let buf = self.g.buffers.get_mut(&m).ok_or_else(not_a_buffer)?;
        if store && !buf.writable {
            return Err(Rejection::new(id::NOT_LOWERED, "store to a read-only view"));
        }
        if let Some(f) = if store { buf.store } else { buf.load } {
            return Ok(f);
        }
        let f = if store {
            store_fn(&mut self.module, buf)
        } else {
            load_fn(&mut self.module, buf)
        };
        *if store { &mut buf.store } else { &mut buf.load } = Some(f);
        Ok(f)
    }

    /// `cb#_at` of a declared constant buffer, made on first use.
    pub fn cb_at(&mut self, slot: u32) -> Option<Handle<Function>> {
        let cb = self.g.cb.get_mut(&slot)?;
        if cb.at.is_none() {
            cb.at = Some(cb_at_fn(&mut self.module, slot, *cb));
        }
        cb.at
    }
}

/// A memory operand that names no declared buffer (a texture, say).
fn not_a_buffer() -> Rejection {
    Rejection::new(id::NOT_LOWERED, "a texture read as a buffer")
}

/// A buffer whose accessors are not made yet.
fn buffer(var: Handle<GlobalVariable>, name: String, len: Len, writable: bool) -> Buffer {
    Buffer {
        var,
        name,
        len,
        writable,
        load: None,
        store: None,
    }
}

/// The IR type of a texture or sampler binding.
fn resource_type(layout: &Layout) -> Option<TypeInner> {
    use naga::{ImageClass, ImageDimension as D, ScalarKind as K};
    let sampled = |dim, arrayed, kind| TypeInner::Image {
        dim,
        arrayed,
        class: ImageClass::Sampled { kind, multi: false },
    };
    let multisampled = |kind| TypeInner::Image {
        dim: D::D2,
        arrayed: false,
        class: ImageClass::Sampled { kind, multi: true },
    };
    let depth = |dim, arrayed| TypeInner::Image {
        dim,
        arrayed,
        class: ImageClass::Depth { multi: false },
    };
    Some(match layout {
        Layout::Texture2dF32 => sampled(D::D2, false, K::Float),
        Layout::Texture2dU32 => sampled(D::D2, false, K::Uint),
        Layout::Texture2dI32 => sampled(D::D2, false, K::Sint),
        Layout::Texture2dArrayF32 => sampled(D::D2, true, K::Float),
        Layout::Texture2dArrayU32 => sampled(D::D2, true, K::Uint),
        Layout::Texture2dArrayI32 => sampled(D::D2, true, K::Sint),
        Layout::TextureCubeF32 => sampled(D::Cube, false, K::Float),
        Layout::TextureCubeU32 => sampled(D::Cube, false, K::Uint),
        Layout::TextureCubeI32 => sampled(D::Cube, false, K::Sint),
        Layout::TextureMultisampled2dF32 => multisampled(K::Float),
        Layout::TextureMultisampled2dU32 => multisampled(K::Uint),
        Layout::TextureMultisampled2dI32 => multisampled(K::Sint),
        Layout::TextureCubeArrayF32 => sampled(D::Cube, true, K::Float),
        Layout::TextureCubeArrayU32 => sampled(D::Cube, true, K::Uint),
        Layout::TextureCubeArrayI32 => sampled(D::Cube, true, K::Sint),
        Layout::Texture3dF32 => sampled(D::D3, false, K::Float),
        Layout::Texture3dU32 => sampled(D::D3, false, K::Uint),
        Layout::Texture3dI32 => sampled(D::D3, false, K::Sint),
        Layout::TextureDepth2d => depth(D::D2, false),
        Layout::TextureDepth2dArray => depth(D::D2, true),
        Layout::TextureDepthCube => depth(D::Cube, false),
        Layout::TextureDepthCubeArray => depth(D::Cube, true),
        Layout::Sampler | Layout::SamplerNonFiltering => TypeInner::Sampler { comparison: false },
        Layout::SamplerComparison => TypeInner::Sampler { comparison: true },
        _ => return None,
    })
}

/// The IR type and manifest layout of a typed UAV texture: a `texture_storage_2d`,
/// `texture_storage_2d_array` or `texture_storage_3d` (a 1D texture or 1D array is a 2D one one
/// texel high: WGSL has no 1D storage array, and the manifest marks it `texture1d`), of the
/// format [`UavKind::format`] chooses, `read_write` when the program loads it and `write`
/// otherwise.
fn storage_texture(kind: UavKind, shape: Shape, loaded: bool) -> (TypeInner, Layout) {
    use naga::{ImageClass, ImageDimension as D, StorageAccess as A};
    // The scan refuses a loaded normalized texture, so `format` has an answer here.
    let format = kind
        .format(loaded)
        .or(kind.format(false))
        .unwrap_or(naga::StorageFormat::Rgba32Float);
    let (dim, arrayed, name) = match shape {
        Shape::Volume => (D::D3, false, "3d"),
        Shape::Array | Shape::LineArray => (D::D2, true, "2d_array"),
        _ => (D::D2, false, "2d"),
    };
    let (access, access_name) = if loaded {
        (A::LOAD | A::STORE, "read_write")
    } else {
        (A::STORE, "write")
    };
    let inner = TypeInner::Image {
        dim,
        arrayed,
        class: ImageClass::Storage { format, access },
    };
    let layout = Layout::storage_texture(name, storage_format_name(format), access_name);
    (inner, layout)
}

/// Declare every binding and its accessors, and the register files; fill the manifest's
/// binding list.
pub fn declare(c: &mut Ctx<'_>, bindings: &mut Vec<Binding>) {
    let mut next = 0u32;
    let mut take = || {
        next += 1;
        next - 1
    };
    let u = c.scalar_ty(build::U32);
    let v4 = c.vector_ty(naga::VectorSize::Quad, build::U32);
    // Buffer types are made where a buffer needs them: a type nothing uses costs validation.
    // `u32` is in the module already (`u`): only the array is new.
    let words = |m: &mut naga::Module| build::runtime_array(m, u, 4);
    let atomic_u = |m: &mut naga::Module| build::ty(m, TypeInner::Atomic(build::U32));
    let atomic_words = |m: &mut naga::Module| {
        let a = atomic_u(m);
        build::runtime_array(m, a, 4)
    };
    // Copied out: the loops below add to `c`, so they cannot hold an iterator of its maps.
    for (slot, size) in c.cbs.copied() {
        let b = take();
        let rows = build::array(&mut c.module, v4, size, 16);
        let st = build::structure(
            &mut c.module,
            &build::numbered("Cb", slot, ""),
            vec![("v".into(), rows, None, size * 16)],
        );
        let g = var(
            &mut c.module,
            build::numbered("cb", slot, ""),
            AddressSpace::Uniform,
            Some(b),
            st,
        );
        c.g.cb.insert(
            slot,
            ConstantBuffer {
                var: g,
                rows: size,
                at: None,
            },
        );
        let mut rec = binding(Kind::Cbuffer, slot, b, Layout::UniformVec4Array);
        rec.size_bytes = Some(size * 16);
        bindings.push(rec);
    }
    if let Some(icb) = c.icb.clone() {
        let n = icb.len().div_ceil(4).max(1) as u32;
        let arr = build::array(&mut c.module, v4, n, 16);
        let mut rows = Vec::with_capacity(n as usize);
        for r in 0..n as usize {
            let words: Vec<Handle<Expression>> = (0..4)
                .map(|i| {
                    let w = icb.get(r * 4 + i).copied().unwrap_or(0);
                    c.module
                        .global_expressions
                        .append(Expression::Literal(naga::Literal::U32(w)), Span::UNDEFINED)
                })
                .collect();
            rows.push(c.module.global_expressions.append(
                Expression::Compose {
                    ty: v4,
                    components: words,
                },
                Span::UNDEFINED,
            ));
        }
        let init = c.module.global_expressions.append(
            Expression::Compose {
                ty: arr,
                components: rows,
            },
            Span::UNDEFINED,
        );
        let k = c.module.constants.append(
            naga::Constant {
                name: Some("icb".into()),
                ty: arr,
                init,
            },
            Span::UNDEFINED,
        );
        // A `var` copy, so the row can be chosen at run time.
        c.g.icb_at = Some(function(
            &mut c.module,
            "icb_at".into(),
            &["i"],
            Some(v4),
            |_, b, a| {
                let init = b.expr(Expression::Constant(k));
                let t = b.local("t".into(), arr, Some(init));
                let n = b.u(n);
                let ok = b.bin(BinaryOperator::Less, a[0], n);
                let z = b.expr(Expression::ZeroValue(v4));
                read_or(
                    b,
                    ok,
                    |b| {
                        let p = b.access(t, a[0]);
                        b.load(p)
                    },
                    z,
                );
            },
        ));
    }
    for (slot, view) in c.srvs.copied() {
        let b = take();
        match view {
            View::Texture(kind, shape) => {
                let layout = match shape {
                    _ if !c.depth_textures.contains(&slot) => kind.texture_layout(shape),
                    Shape::Array => Layout::TextureDepth2dArray,
                    Shape::Cube => Layout::TextureDepthCube,
                    Shape::CubeArray => Layout::TextureDepthCubeArray,
                    // `sample()` refuses a comparison of a 3D or 1D texture before this.
                    _ => Layout::TextureDepth2d,
                };
                if let Some(inner) = resource_type(&layout) {
                    let ty = build::ty(&mut c.module, inner);
                    let g = var(
                        &mut c.module,
                        build::numbered("t", slot, ""),
                        AddressSpace::Handle,
                        Some(b),
                        ty,
                    );
                    c.g.textures.insert(slot, g);
                }
                let mut rec = binding(Kind::Srv, slot, b, layout);
                rec.texture1d = shape.line();
                bindings.push(rec);
            }
            _ => {
                let ty = words(&mut c.module);
                let g = var(
                    &mut c.module,
                    build::numbered("t", slot, ""),
                    AddressSpace::Storage {
                        access: naga::StorageAccess::LOAD,
                    },
                    Some(b),
                    ty,
                );
                c.g.buffers.insert(
                    Mem::Srv(slot),
                    buffer(g, build::numbered("t", slot, ""), Len::Runtime, false),
                );
                let mut rec = binding(Kind::Srv, slot, b, Layout::StorageU32Array);
                if let View::Structured(stride) = view {
                    rec.stride = Some(stride);
                }
                bindings.push(rec);
            }
        }
    }
    for slot in c.samplers.copied() {
        let b = take();
        let layout = if c.comparison_samplers.contains(&slot) {
            Layout::SamplerComparison
        } else if c.non_filtering_samplers.contains(&slot) {
            Layout::SamplerNonFiltering
        } else {
            Layout::Sampler
        };
        if let Some(inner) = resource_type(&layout) {
            let ty = build::ty(&mut c.module, inner);
            let g = var(
                &mut c.module,
                build::numbered("s", slot, ""),
                AddressSpace::Handle,
                Some(b),
                ty,
            );
            c.g.samplers.insert(slot, g);
        }
        bindings.push(binding(Kind::Sampler, slot, b, layout));
    }
    for (slot, view) in c.uavs.copied() {
        let b = take();
        if let View::UavTexture(kind, shape) = view {
            let loaded = c.loaded_uavs.contains(&slot);
            let (inner, layout) = storage_texture(kind, shape, loaded);
            let ty = build::ty(&mut c.module, inner);
            let g = var(
                &mut c.module,
                build::numbered("u", slot, ""),
                AddressSpace::Handle,
                Some(b),
                ty,
            );
            c.g.uav_textures.insert(slot, g);
            let mut rec = binding(Kind::Uav, slot, b, layout);
            rec.texture1d = shape.line();
            bindings.push(rec);
            continue;
        }
        let atomic = c.atomic_uavs.contains(&slot);
        let ty = if atomic {
            atomic_words(&mut c.module)
        } else {
            words(&mut c.module)
        };
        let g = var(
            &mut c.module,
            build::numbered("u", slot, ""),
            AddressSpace::Storage {
                access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE,
            },
            Some(b),
            ty,
        );
        c.g.buffers.insert(
            Mem::Uav(slot),
            buffer(g, build::numbered("u", slot, ""), Len::Runtime, true),
        );
        let mut rec = binding(
            Kind::Uav,
            slot,
            b,
            if atomic {
                Layout::StorageAtomicU32Array
            } else {
                Layout::StorageU32Array
            },
        );
        if let View::Structured(stride) = view {
            rec.stride = Some(stride);
        }
        bindings.push(rec);
    }
    for slot in c.counter_uavs.copied() {
        let b = take();
        let ty = atomic_words(&mut c.module);
        let g = var(
            &mut c.module,
            build::numbered("u", slot, "_counter"),
            AddressSpace::Storage {
                access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE,
            },
            Some(b),
            ty,
        );
        c.g.counters.insert(slot, g);
        let mut rec = binding(Kind::UavCounter, slot, b, Layout::StorageAtomicU32Array);
        rec.size_bytes = Some(4);
        bindings.push(rec);
    }
    for (slot, (n, _)) in c.tgsm.copied() {
        let atomic = c.atomic_tgsm.contains(&slot);
        let n = n.max(1);
        let word = if atomic { atomic_u(&mut c.module) } else { u };
        let arr = build::array(&mut c.module, word, n, 4);
        let g = var(
            &mut c.module,
            build::numbered("g", slot, ""),
            AddressSpace::WorkGroup,
            None,
            arr,
        );
        c.g.buffers.insert(
            Mem::Tgsm(slot),
            buffer(g, build::numbered("g", slot, ""), Len::Fixed(n), true),
        );
    }
    let private = |c: &mut Ctx<'_>, name: String, n: u32| {
        let arr = build::array(&mut c.module, v4, n.max(1), 16);
        var(&mut c.module, name, AddressSpace::Private, None, arr)
    };
    c.g.v = Some(private(c, "v".into(), c.inputs));
    c.g.o = Some(private(c, "o".into(), c.outputs));
    let xs: Vec<(u32, u32)> = c.indexable.iter().map(|(k, n)| (*k, *n)).collect();
    for (x, n) in xs {
        let g = private(c, build::numbered("x", x, ""), n);
        c.g.x.insert(x, g);
    }
    if c.stage == Stage::Compute {
        let v3 = c.vector_ty(naga::VectorSize::Tri, build::U32);
        let mut private_var = |name: &str, ty| {
            Some(var(
                &mut c.module,
                name.into(),
                AddressSpace::Private,
                None,
                ty,
            ))
        };
        let (a, b2, d) = (
            private_var("thread_id", v3),
            private_var("group_id", v3),
            private_var("thread_in_group", v3),
        );
        let e = private_var("thread_index", u);
        c.g.thread_id = a;
        c.g.group_id = b2;
        c.g.thread_in_group = d;
        c.g.thread_index = e;
    }
}

//! Resources: binding declarations with guarded accessors, and the lowering of buffer, TGSM,
//! atomic and texture instructions. Every accessor checks bounds explicitly so the results are
//! D3D's (reads 0, writes and atomics dropped) whatever the runtime's own checks do.

use std::collections::BTreeMap;

use dxbc::opcodes::Num;
use dxbc::{Instruction, Opcode, Operand, OperandType, Stage};
use naga::{
    AddressSpace, BinaryOperator, Block, Expression, Function, GlobalVariable, Handle, Span,
    Statement, TypeInner,
};

use super::build::{self, Body, H};
use super::operand::{swizzled, write_mask};
use super::{Ctx, Shape, View, binding};
use crate::Rejection;
use crate::manifest::{Binding, BindingKind as Kind, BindingLayout as Layout};
use crate::names as id;

/// Which memory an operand names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Mem {
    Srv(u32),
    Uav(u32),
    Tgsm(u32),
}

/// A buffer's variable and its guarded accessors `NAME_load(word)`, `NAME_store(word, value)`.
#[derive(Debug, Clone, Copy)]
pub struct Buffer {
    pub var: Handle<GlobalVariable>,
    pub load: Handle<Function>,
    pub store: Option<Handle<Function>>,
}

/// The module's variables and generated functions, by what they hold.
#[derive(Debug, Default)]
pub struct Globals {
    pub v: Option<Handle<GlobalVariable>>,
    pub o: Option<Handle<GlobalVariable>>,
    pub x: BTreeMap<u32, Handle<GlobalVariable>>,
    pub thread_id: Option<Handle<GlobalVariable>>,
    pub group_id: Option<Handle<GlobalVariable>>,
    pub thread_in_group: Option<Handle<GlobalVariable>>,
    pub thread_index: Option<Handle<GlobalVariable>>,
    /// `cb#` and its guarded row read `cb#_at(i)`.
    pub cb: BTreeMap<u32, (Handle<GlobalVariable>, Handle<Function>)>,
    pub icb_at: Option<Handle<Function>>,
    pub(super) buffers: BTreeMap<Mem, Buffer>,
    pub textures: BTreeMap<u32, Handle<GlobalVariable>>,
    pub samplers: BTreeMap<u32, Handle<GlobalVariable>>,
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

/// The number of words a buffer's accessors test against.
#[derive(Debug, Clone, Copy)]
enum Len {
    /// `arrayLength(&NAME)`.
    Runtime,
    Fixed(u32),
}

/// `NAME_load(word)` and `NAME_store(word, value)`, guarded by the word count.
fn accessors(
    module: &mut naga::Module,
    var: Handle<GlobalVariable>,
    name: &str,
    len: Len,
    writable: bool,
) -> Buffer {
    let u = build::scalar(module, build::U32);
    let bound = |b: &mut Body, w: H| {
        let n = match len {
            Len::Runtime => {
                let g = b.expr(Expression::GlobalVariable(var));
                b.expr(Expression::ArrayLength(g))
            }
            Len::Fixed(n) => b.u(n),
        };
        b.bin(BinaryOperator::Less, w, n)
    };
    let load = function(
        module,
        format!("{name}_load"),
        &["w"],
        Some(u),
        |_, b, a| {
            let ok = bound(b, a[0]);
            b.open();
            let g = b.expr(Expression::GlobalVariable(var));
            let p = b.access(g, a[0]);
            // An atomic word reads through `atomicLoad`, which is a load of its pointer.
            let v = b.load(p);
            b.stmt(Statement::Return { value: Some(v) });
            let accept = b.close();
            b.stmt(Statement::If {
                condition: ok,
                accept,
                reject: Block::new(),
            });
            let z = b.u(0);
            b.stmt(Statement::Return { value: Some(z) });
        },
    );
    let store = writable.then(|| {
        function(
            module,
            format!("{name}_store"),
            &["w", "value"],
            None,
            |_, b, a| {
                let ok = bound(b, a[0]);
                b.open();
                let g = b.expr(Expression::GlobalVariable(var));
                let p = b.access(g, a[0]);
                b.store(p, a[1]);
                let accept = b.close();
                b.stmt(Statement::If {
                    condition: ok,
                    accept,
                    reject: Block::new(),
                });
            },
        )
    });
    Buffer { var, load, store }
}

/// The IR type of a texture or sampler binding.
fn resource_type(layout: &Layout) -> Option<TypeInner> {
    use naga::{ImageClass, ImageDimension as D, ScalarKind as K};
    let sampled = |dim, arrayed, kind| TypeInner::Image {
        dim,
        arrayed,
        class: ImageClass::Sampled { kind, multi: false },
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
        Layout::Texture3dF32 => sampled(D::D3, false, K::Float),
        Layout::Texture3dU32 => sampled(D::D3, false, K::Uint),
        Layout::Texture3dI32 => sampled(D::D3, false, K::Sint),
        Layout::TextureDepth2d => depth(D::D2, false),
        Layout::TextureDepth2dArray => depth(D::D2, true),
        Layout::TextureDepthCube => depth(D::Cube, false),
        Layout::Sampler => TypeInner::Sampler { comparison: false },
        Layout::SamplerComparison => TypeInner::Sampler { comparison: true },
        _ => return None,
    })
}

/// Declare every binding and its accessors, and the register files; fill the manifest's
/// binding list.
pub fn declare(c: &mut Ctx<'_>, bindings: &mut Vec<Binding>) {
    let mut next = 0u32;
    let mut take = || {
        next += 1;
        next - 1
    };
    let u = build::scalar(&mut c.module, build::U32);
    let v4 = build::vector(&mut c.module, naga::VectorSize::Quad, build::U32);
    let words = build::runtime_array(&mut c.module, u, 4);
    let atomic_u = build::ty(&mut c.module, TypeInner::Atomic(build::U32));
    let atomic_words = build::runtime_array(&mut c.module, atomic_u, 4);
    let cbs: Vec<(u32, u32)> = c.cbs.iter().map(|(k, v)| (*k, *v)).collect();
    for (slot, size) in cbs {
        let b = take();
        let rows = build::array(&mut c.module, v4, size, 16);
        let st = build::structure(
            &mut c.module,
            &format!("Cb{slot}"),
            vec![("v".into(), rows, None, size * 16)],
        );
        let g = var(
            &mut c.module,
            format!("cb{slot}"),
            AddressSpace::Uniform,
            Some(b),
            st,
        );
        // Reads past the declared size give 0 (FS §7.5).
        let unguarded = crate::planted(crate::PlantedBug::CbIndexUnguarded);
        let at = function(
            &mut c.module,
            format!("cb{slot}_at"),
            &["i"],
            Some(v4),
            |m, b, a| {
                let ok = if unguarded {
                    b.bool(true)
                } else {
                    let n = b.u(size);
                    b.bin(BinaryOperator::Less, a[0], n)
                };
                b.open();
                let gv = b.expr(Expression::GlobalVariable(g));
                let rows = b.at(gv, 0);
                let p = b.access(rows, a[0]);
                let v = b.load(p);
                b.stmt(Statement::Return { value: Some(v) });
                let accept = b.close();
                b.stmt(Statement::If {
                    condition: ok,
                    accept,
                    reject: Block::new(),
                });
                let ty = build::vector(m, naga::VectorSize::Quad, build::U32);
                let z = b.expr(Expression::ZeroValue(ty));
                b.stmt(Statement::Return { value: Some(z) });
            },
        );
        c.g.cb.insert(slot, (g, at));
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
            |m, b, a| {
                let init = b.expr(Expression::Constant(k));
                let t = b.local("t".into(), arr, Some(init));
                let n = b.u(n);
                let ok = b.bin(BinaryOperator::Less, a[0], n);
                b.open();
                let p = b.access(t, a[0]);
                let v = b.load(p);
                b.stmt(Statement::Return { value: Some(v) });
                let accept = b.close();
                b.stmt(Statement::If {
                    condition: ok,
                    accept,
                    reject: Block::new(),
                });
                let ty = build::vector(m, naga::VectorSize::Quad, build::U32);
                let z = b.expr(Expression::ZeroValue(ty));
                b.stmt(Statement::Return { value: Some(z) });
            },
        ));
    }
    let srvs: Vec<(u32, View)> = c.srvs.iter().map(|(k, v)| (*k, *v)).collect();
    for (slot, view) in srvs {
        let b = take();
        match view {
            View::Texture(kind, shape) => {
                let layout = match shape {
                    _ if !c.depth_textures.contains(&slot) => kind.texture_layout(shape),
                    Shape::Array => Layout::TextureDepth2dArray,
                    Shape::Cube => Layout::TextureDepthCube,
                    // `sample()` refuses a comparison of a 3D or 1D texture before this.
                    _ => Layout::TextureDepth2d,
                };
                if let Some(inner) = resource_type(&layout) {
                    let ty = build::ty(&mut c.module, inner);
                    let g = var(
                        &mut c.module,
                        format!("t{slot}"),
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
                let g = var(
                    &mut c.module,
                    format!("t{slot}"),
                    AddressSpace::Storage {
                        access: naga::StorageAccess::LOAD,
                    },
                    Some(b),
                    words,
                );
                let buf = accessors(&mut c.module, g, &format!("t{slot}"), Len::Runtime, false);
                c.g.buffers.insert(Mem::Srv(slot), buf);
                let mut rec = binding(Kind::Srv, slot, b, Layout::StorageU32Array);
                if let View::Structured(stride) = view {
                    rec.stride = Some(stride);
                }
                bindings.push(rec);
            }
        }
    }
    let samplers: Vec<u32> = c.samplers.iter().copied().collect();
    for slot in samplers {
        let b = take();
        let layout = if c.comparison_samplers.contains(&slot) {
            Layout::SamplerComparison
        } else {
            Layout::Sampler
        };
        if let Some(inner) = resource_type(&layout) {
            let ty = build::ty(&mut c.module, inner);
            let g = var(
                &mut c.module,
                format!("s{slot}"),
                AddressSpace::Handle,
                Some(b),
                ty,
            );
            c.g.samplers.insert(slot, g);
        }
        bindings.push(binding(Kind::Sampler, slot, b, layout));
    }
    let uavs: Vec<(u32, View)> = c.uavs.iter().map(|(k, v)| (*k, *v)).collect();
    for (slot, view) in uavs {
        let b = take();
        let atomic = c.atomic_uavs.contains(&slot);
        let g = var(
            &mut c.module,
            format!("u{slot}"),
            AddressSpace::Storage {
                access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE,
            },
            Some(b),
            if atomic { atomic_words } else { words },
        );
        let buf = accessors(&mut c.module, g, &format!("u{slot}"), Len::Runtime, true);
        c.g.buffers.insert(Mem::Uav(slot), buf);
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
    let tgsm: Vec<(u32, u32)> = c.tgsm.iter().map(|(k, (w, _))| (*k, *w)).collect();
    for (slot, n) in tgsm {
        let atomic = c.atomic_tgsm.contains(&slot);
        let n = n.max(1);
        let arr = build::array(&mut c.module, if atomic { atomic_u } else { u }, n, 4);
        let g = var(
            &mut c.module,
            format!("g{slot}"),
            AddressSpace::WorkGroup,
            None,
            arr,
        );
        let buf = accessors(&mut c.module, g, &format!("g{slot}"), Len::Fixed(n), true);
        c.g.buffers.insert(Mem::Tgsm(slot), buf);
    }
    let private = |c: &mut Ctx<'_>, name: String, n: u32| {
        let arr = build::array(&mut c.module, v4, n.max(1), 16);
        var(&mut c.module, name, AddressSpace::Private, None, arr)
    };
    c.g.v = Some(private(c, "v".into(), c.inputs));
    c.g.o = Some(private(c, "o".into(), c.outputs));
    let xs: Vec<(u32, u32)> = c.indexable.iter().map(|(k, n)| (*k, *n)).collect();
    for (x, n) in xs {
        let g = private(c, format!("x{x}"), n);
        c.g.x.insert(x, g);
    }
    if c.stage == Stage::Compute {
        let v3 = build::vector(&mut c.module, naga::VectorSize::Tri, build::U32);
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

impl Ctx<'_> {
    pub(super) fn mem(&self, op: &Operand) -> Result<Mem, Rejection> {
        let slot = match op.indices.first() {
            Some(dxbc::Index::Imm32(v)) => *v,
            _ => {
                return Err(Rejection::new(
                    id::UNSUPPORTED,
                    "dynamically indexed resource",
                ));
            }
        };
        match op.ty {
            OperandType::Resource if self.srvs.contains_key(&slot) => Ok(Mem::Srv(slot)),
            OperandType::UnorderedAccessView if self.uavs.contains_key(&slot) => Ok(Mem::Uav(slot)),
            OperandType::ThreadGroupSharedMemory if self.tgsm.contains_key(&slot) => {
                Ok(Mem::Tgsm(slot))
            }
            other => Err(Rejection::new(
                id::UNSUPPORTED,
                format!("undeclared {other:?} {slot}"),
            )),
        }
    }

    fn view(&self, m: Mem) -> View {
        match m {
            Mem::Srv(s) => self.srvs.get(&s).copied().unwrap_or(View::Raw),
            Mem::Uav(s) => self.uavs.get(&s).copied().unwrap_or(View::Raw),
            Mem::Tgsm(s) => match self.tgsm.get(&s) {
                Some((_, Some(stride))) => View::Structured(*stride),
                _ => View::Raw,
            },
        }
    }

    fn buffer(&self, m: Mem) -> Result<Buffer, Rejection> {
        self.g
            .buffers
            .get(&m)
            .copied()
            .ok_or_else(|| Rejection::new(id::UNSUPPORTED, "a texture read as a buffer"))
    }

    /// Words in a buffer, as a `u32` expression.
    fn words(&mut self, m: Mem) -> Result<H, Rejection> {
        Ok(match m {
            Mem::Tgsm(s) => {
                let n = self.tgsm.get(&s).map_or(1, |t| t.0.max(1));
                self.b.u(n)
            }
            _ => {
                let g = self.buffer(m)?.var;
                let p = self.global(g);
                self.b.expr(Expression::ArrayLength(p))
            }
        })
    }

    /// The first word of an access, and for a structured view a condition that the element
    /// is in range (structured accesses past the element count are dropped whole).
    fn address(&mut self, m: Mem, a0: H, a1: Option<H>) -> Result<(H, Option<H>), Rejection> {
        use BinaryOperator as B;
        let two = self.b.u(2);
        Ok(match (self.view(m), a1) {
            (View::Structured(stride), Some(off)) => {
                let words = self.words(m)?;
                let four = self.b.u(4);
                let bytes = self.b.bin(B::Multiply, words, four);
                let k = self.b.u(stride);
                let count = self.b.bin(B::Divide, bytes, k);
                let at = self.b.bin(B::Multiply, a0, k);
                let at = self.b.bin(B::Add, at, off);
                let w = self.b.bin(B::ShiftRight, at, two);
                let ok = self.b.bin(B::Less, a0, count);
                (w, Some(ok))
            }
            _ => (self.b.bin(B::ShiftRight, a0, two), None),
        })
    }

    /// Refuse a structured access whose immediate byte offset is not a whole word, or whose
    /// `words` (indices relative to the offset) run past the structure: D3D leaves the load
    /// undefined and the store makes the whole view undefined (FS §22.4.12-13), which no
    /// WGSL lowering can reproduce.
    fn check_offset(
        &self,
        m: Mem,
        offset: &Operand,
        words: impl Iterator<Item = usize>,
    ) -> Result<(), Rejection> {
        let View::Structured(stride) = self.view(m) else {
            return Ok(());
        };
        let (OperandType::Immediate32, Some(&off)) = (offset.ty, offset.imm.first()) else {
            return Ok(());
        };
        let end = 4 * (words.max().unwrap_or(0) as u64 + 1);
        if off % 4 != 0 || u64::from(off) + end > u64::from(stride) {
            return Err(Rejection::new(
                id::UNSUPPORTED,
                format!("structured byte offset {off} overruns its {stride}-byte structure"),
            ));
        }
        Ok(())
    }

    /// `w + k`.
    fn word(&mut self, w: H, k: usize) -> H {
        let k = self.b.u(k as u32);
        self.b.bin(BinaryOperator::Add, w, k)
    }

    pub fn memory(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        use Opcode::*;
        let ops = &inst.operands;
        match inst.opcode {
            LdRaw | LdStructured => {
                let structured = inst.opcode == LdStructured;
                let res = &ops[if structured { 3 } else { 2 }];
                let m = self.mem(res)?;
                if structured {
                    let mask = write_mask(&ops[0]);
                    let words = (0..4).filter(|c| mask & (1 << c) != 0);
                    self.check_offset(m, &ops[2], words.map(|c| swizzled(res, c)))?;
                }
                let a0 = self.src(&ops[1], 0, Num::Uint)?;
                let a1 = if structured {
                    Some(self.src(&ops[2], 0, Num::Uint)?)
                } else {
                    None
                };
                let (w, ok) = self.address(m, a0, a1)?;
                let load = self.buffer(m)?.load;
                let dst = &ops[0];
                let mut values = Vec::with_capacity(4);
                for c in (0..4).filter(|c| write_mask(dst) & (1 << c) != 0) {
                    let at = self.word(w, swizzled(res, c));
                    let v = self.b.call(load, vec![at]);
                    let v = match ok {
                        Some(ok) => {
                            let z = self.b.u(0);
                            self.b.select(z, v, ok)
                        }
                        None => v,
                    };
                    values.push((c, v));
                }
                self.assign(dst, &values)
            }
            StoreRaw | StoreStructured => {
                let structured = inst.opcode == StoreStructured;
                let m = self.mem(&ops[0])?;
                if matches!(m, Mem::Srv(_)) {
                    return Err(Rejection::new(id::UNSUPPORTED, "store to an SRV"));
                }
                if structured {
                    let mask = write_mask(&ops[0]);
                    self.check_offset(m, &ops[2], (0..4).filter(|c| mask & (1 << c) != 0))?;
                }
                let a0 = self.src(&ops[1], 0, Num::Uint)?;
                let a1 = if structured {
                    Some(self.src(&ops[2], 0, Num::Uint)?)
                } else {
                    None
                };
                let value = &ops[if structured { 3 } else { 2 }];
                let mut vals = Vec::with_capacity(4);
                for c in 0..4 {
                    if write_mask(&ops[0]) & (1 << c) != 0 {
                        vals.push((c, self.src(value, c, Num::Typeless)?));
                    }
                }
                let (w, ok) = self.address(m, a0, a1)?;
                let store = self
                    .buffer(m)?
                    .store
                    .ok_or_else(|| Rejection::new(id::UNSUPPORTED, "store to a read-only view"))?;
                if ok.is_some() {
                    self.b.open();
                }
                for (c, v) in vals {
                    let at = self.word(w, c);
                    self.b.flush();
                    self.b.stmt(Statement::Call {
                        function: store,
                        arguments: vec![at, v],
                        result: None,
                    });
                }
                if let Some(ok) = ok {
                    let accept = self.b.close();
                    self.b.stmt(Statement::If {
                        condition: ok,
                        accept,
                        reject: Block::new(),
                    });
                }
                Ok(())
            }
            Bufinfo => {
                use BinaryOperator as B;
                let m = self.mem(&ops[1])?;
                let words = self.words(m)?;
                let e = match self.view(m) {
                    View::Structured(stride) => {
                        let four = self.b.u(4);
                        let bytes = self.b.bin(B::Multiply, words, four);
                        let k = self.b.u(stride);
                        self.b.bin(B::Divide, bytes, k)
                    }
                    View::TypedBuffer => words,
                    _ => {
                        let four = self.b.u(4);
                        self.b.bin(B::Multiply, words, four)
                    }
                };
                let dst = &ops[0];
                let values: Vec<(usize, H)> = (0..4)
                    .filter(|c| write_mask(dst) & (1 << c) != 0)
                    .map(|c| (c, e))
                    .collect();
                self.assign(dst, &values)
            }
            LdUavTyped | StoreUavTyped | Ld
                if !matches!(self.view_of(inst)?, View::Texture(..)) =>
            {
                self.typed(inst)
            }
            Ld => self.texture_load(inst),
            Sample | SampleL | SampleB | SampleD | Gather4 | SampleC | SampleCLz | Gather4C => {
                self.sample(inst)
            }
            Gather4Po | Gather4PoC => self.gather_po(inst),
            Resinfo => self.resinfo(inst),
            Lod => self.lod(inst),
            op if op.info().kind == dxbc::opcodes::Kind::Atomic => self.atomic(inst),
            other => Err(Rejection::new(
                id::UNSUPPORTED,
                format!("`{}` is not lowered", other.mnemonic()),
            )),
        }
    }

    fn view_of(&self, inst: &Instruction) -> Result<View, Rejection> {
        let res = match inst.opcode {
            Opcode::StoreUavTyped => &inst.operands[0],
            _ => &inst.operands[2],
        };
        Ok(self.view(self.mem(res)?))
    }

    /// Typed buffers hold one 32-bit word per element here.
    fn typed(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let ops = &inst.operands;
        if inst.opcode == Opcode::StoreUavTyped {
            let m = self.mem(&ops[0])?;
            let e = self.src(&ops[1], 0, Num::Uint)?;
            let v = self.src(&ops[2], 0, Num::Typeless)?;
            let store = self
                .buffer(m)?
                .store
                .ok_or_else(|| Rejection::new(id::UNSUPPORTED, "store to a read-only view"))?;
            self.b.stmt(Statement::Call {
                function: store,
                arguments: vec![e, v],
                result: None,
            });
            return Ok(());
        }
        let m = self.mem(&ops[2])?;
        let e = self.src(&ops[1], 0, Num::Uint)?;
        let load = self.buffer(m)?.load;
        let x = self.b.call(load, vec![e]);
        let z = self.b.u(0);
        let one = self.b.u(1);
        let texel = [x, z, z, one];
        let dst = &ops[0];
        let values: Vec<(usize, H)> = (0..4)
            .filter(|c| write_mask(dst) & (1 << c) != 0)
            .map(|c| (c, texel[swizzled(&ops[2], c)]))
            .collect();
        self.assign(dst, &values)
    }

    /// Atomics, with D3D's drop on out-of-range addresses. Signed min/max and compare-exchange
    /// use a compare-exchange loop (the weak form may fail spuriously, so it retries).
    fn atomic(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        use BinaryOperator as B;
        use Opcode::*;
        use naga::AtomicFunction as F;
        let ops = &inst.operands;
        let imm = inst.info().dst == 2;
        if matches!(inst.opcode, ImmAtomicAlloc | ImmAtomicConsume) {
            return Err(Rejection::new(id::UNSUPPORTED, "append/consume counters"));
        }
        let (mem_op, rest) = if imm {
            (&ops[1], &ops[2..])
        } else {
            (&ops[0], &ops[1..])
        };
        let m = self.mem(mem_op)?;
        let structured = matches!(self.view(m), View::Structured(_));
        let a0 = self.src(&rest[0], 0, Num::Uint)?;
        let a1 = if structured {
            Some(self.src(&rest[0], 1, Num::Uint)?)
        } else {
            None
        };
        let v0 = self.src(&rest[1], 0, Num::Uint)?;
        let v1 = if rest.len() > 2 {
            self.src(&rest[2], 0, Num::Uint)?
        } else {
            self.b.u(0)
        };
        let (w, ok) = self.address(m, a0, a1)?;
        let words = self.words(m)?;
        let inside = self.b.bin(B::Less, w, words);
        let cond = match ok {
            Some(ok) => self.b.bin(B::LogicalAnd, ok, inside),
            None => inside,
        };
        let u = self.u32_ty();
        let name = self.fresh();
        let zero = self.b.u(0);
        let old = self.b.local(name, u, Some(zero));
        let var = self.buffer(m)?.var;
        let base = self.global(var);
        self.b.open();
        let p = self.b.access(base, w);
        let simple = match inst.opcode {
            AtomicAnd | ImmAtomicAnd => Some(F::And),
            AtomicOr | ImmAtomicOr => Some(F::InclusiveOr),
            AtomicXor | ImmAtomicXor => Some(F::ExclusiveOr),
            AtomicIadd | ImmAtomicIadd => Some(F::Add),
            AtomicUmax | ImmAtomicUmax => Some(F::Max),
            AtomicUmin | ImmAtomicUmin => Some(F::Min),
            ImmAtomicExch => Some(F::Exchange { compare: None }),
            _ => None,
        };
        let cmpxchg = self.module.generate_predeclared_type(
            naga::PredeclaredType::AtomicCompareExchangeWeakResult(build::U32),
        );
        // `atomicCompareExchangeWeak(p, compare, value)`: (old value, exchanged).
        let exchange = |c: &mut Self, compare: H, value: H| {
            c.b.flush();
            let r = c.b.expr(Expression::AtomicResult {
                ty: cmpxchg,
                comparison: true,
            });
            c.b.stmt(Statement::Atomic {
                pointer: p,
                fun: F::Exchange {
                    compare: Some(compare),
                },
                value,
                result: Some(r),
            });
            (c.b.at(r, 0), c.b.at(r, 1))
        };
        match (simple, inst.opcode) {
            (Some(fun), _) => {
                self.b.flush();
                let r = self.b.expr(Expression::AtomicResult {
                    ty: u,
                    comparison: false,
                });
                self.b.stmt(Statement::Atomic {
                    pointer: p,
                    fun,
                    value: v0,
                    result: Some(r),
                });
                self.b.store(old, r);
            }
            (None, AtomicImax | ImmAtomicImax | AtomicImin | ImmAtomicImin) => {
                let f = if matches!(inst.opcode, AtomicImax | ImmAtomicImax) {
                    naga::MathFunction::Max
                } else {
                    naga::MathFunction::Min
                };
                let first = self.b.load(p);
                self.b.store(old, first);
                self.b.open();
                let cur = self.b.load(old);
                let (x, y) = (
                    self.b.bitcast(naga::ScalarKind::Sint, cur),
                    self.b.bitcast(naga::ScalarKind::Sint, v0),
                );
                let n = self.b.math(f, &[x, y]);
                let n = self.b.bitcast(naga::ScalarKind::Uint, n);
                let (was, exchanged) = exchange(self, cur, n);
                self.b.open();
                self.b.stmt(Statement::Break);
                let done = self.b.close();
                self.b.stmt(Statement::If {
                    condition: exchanged,
                    accept: done,
                    reject: Block::new(),
                });
                self.b.store(old, was);
                let body = self.b.close();
                self.b.stmt(Statement::Loop {
                    body,
                    continuing: Block::new(),
                    break_if: None,
                });
            }
            (None, AtomicCmpStore | ImmAtomicCmpExch) => {
                self.b.open();
                let (was, exchanged) = exchange(self, v0, v1);
                let differs = self.b.bin(B::NotEqual, was, v0);
                let settled = self.b.bin(B::LogicalOr, exchanged, differs);
                self.b.open();
                self.b.store(old, was);
                self.b.stmt(Statement::Break);
                let done = self.b.close();
                self.b.stmt(Statement::If {
                    condition: settled,
                    accept: done,
                    reject: Block::new(),
                });
                let body = self.b.close();
                self.b.stmt(Statement::Loop {
                    body,
                    continuing: Block::new(),
                    break_if: None,
                });
            }
            (_, other) => {
                self.b.close();
                return Err(Rejection::new(
                    id::UNSUPPORTED,
                    format!("`{}` is not lowered", other.mnemonic()),
                ));
            }
        }
        let accept = self.b.close();
        self.b.stmt(Statement::If {
            condition: cond,
            accept,
            reject: Block::new(),
        });
        if imm {
            let result = self.b.load(old);
            let dst = &ops[0];
            let values: Vec<(usize, H)> = (0..4)
                .filter(|c| write_mask(dst) & (1 << c) != 0)
                .map(|c| (c, result))
                .collect();
            self.assign(dst, &values)?;
        }
        Ok(())
    }
}

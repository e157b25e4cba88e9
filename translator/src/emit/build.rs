//! Building naga IR directly: the translator's output is a `naga::Module`, which naga
//! validates and naga's WGSL back end writes. Re-parsing emitted text cost more than everything
//! else together (naga's WGSL front end is quadratic in a function's size), so nothing here is
//! text.
//!
//! [`Body`] keeps naga's evaluation rule for us: an expression is evaluated where a
//! `Statement::Emit` covers it, so every statement first emits the expressions pushed since the
//! last one. Values computed before a store therefore read the registers as they were, which is
//! what D3D's "all sources are read before the destination is written" needs.

use std::hash::BuildHasherDefault;

use super::spare;

use naga::{
    BinaryOperator, Block, Expression, Function, Handle, Literal, MathFunction, Module, Scalar,
    ScalarKind, Span, Statement, Type, TypeInner, UnaryOperator, VectorSize,
};

/// An expression of the function being built.
pub type H = Handle<Expression>;

pub type Fx<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<rustc_hash::FxHasher>>;

/// A function under construction: its arenas and the stack of open blocks.
///
/// Expressions are shared where naga's rules allow, which keeps modules small for the
/// validator and the writer: a literal is made once per function (it is valid everywhere),
/// a load of a register is reused until the next statement (a store may change what it
/// reads), and an access, or a load of a register nothing writes (a constant buffer, an
/// input), until the next block boundary (an expression emitted in a block is not
/// visible outside it).
#[derive(Debug)]
pub struct Body {
    pub f: Function,
    /// The innermost open block, where statements go: a field of its own, not the top of
    /// the stack, as nearly every statement and emit lands here (finding the last of an inline
    /// list was about 2 % of lowering's instructions, docs/corpus.md).
    top: Block,
    /// The blocks enclosing `top`, outermost first: a few deep, so kept inline.
    outer: smallvec::SmallVec<[Block; 3]>,
    /// Where the expressions not yet covered by an `Emit` start.
    pending: Option<usize>,
    /// Loads by pointer, since the last statement: a few at a time, so a list (a statement
    /// clears it, and clearing a hash table costs its capacity).
    loads: smallvec::SmallVec<[(H, H); 16]>,
    caches: Caches,
    /// The pool [`Body::finish`] gives `caches` back to, for a function whose storage is
    /// reused (`run`, the entry point).
    recycle: Option<spare::Kind>,
    /// Nested blocks opened so far (up to [`ROOMY`]).
    opened: u32,
}

/// The expressions a function shares, by what they compute.
#[derive(Debug, Default)]
pub struct Caches {
    /// Literals by (kind, bits), for the whole function.
    literals: Fx<(u8, u32), H>,
    /// Constant accesses by (base, index) for an index past a vector's components, since the
    /// last block boundary; the components' are in `slots`.
    accesses: Fx<(H, u32), H>,
    /// By expression index: what the block being built has made from that expression, valid
    /// while its stamp is `stamp`. Most shared expressions are a component or member 0 to 3 of
    /// a pointer or vector, or a load of an invariant pointer: an index into this table
    /// instead of a hash probe for each (the access cache's probe and insert were 5 % of
    /// lowering, docs/corpus.md).
    slots: Vec<Slot>,
    /// The stamp of the block being built: raised at every block boundary and kept with the
    /// table, so no stamp repeats for the life of the table and a stale slot (an earlier
    /// block's, a dropped function's) is never read, without clearing any.
    stamp: u64,
}

/// What one expression's block has derived from it: see [`Caches::slots`].
#[derive(Debug, Clone, Copy)]
struct Slot {
    stamp: u64,
    /// `base[0]` to `base[3]` (a component, or a member).
    at: [Option<H>; 4],
    /// The load through it, for a pointer nothing writes through.
    invariant: Option<H>,
}

impl Slot {
    const STALE: Slot = Slot {
        stamp: 0,
        at: [None; 4],
        invariant: None,
    };
}

impl Caches {
    pub(super) fn with_capacity(n: usize) -> Caches {
        Caches {
            literals: Fx::with_capacity_and_hasher(n, Default::default()),
            accesses: Fx::default(),
            slots: Vec::with_capacity(n),
            stamp: 0,
        }
    }

    /// The most entries any of the tables has room for.
    pub(super) fn capacity(&self) -> usize {
        self.literals
            .capacity()
            .max(self.accesses.capacity())
            .max(self.slots.capacity())
    }

    /// Empty the tables; the slots are left, as their stamps say they are stale.
    pub(super) fn clear(&mut self) {
        self.literals.clear();
        self.accesses.clear();
    }

    /// A new block: every slot written so far is stale.
    fn next_block(&mut self) {
        self.stamp += 1;
        self.accesses.clear();
    }

    /// The slot of `base` if the block being built wrote it.
    #[inline(always)]
    fn current(&self, base: H) -> Option<&Slot> {
        self.slots
            .get(base.index())
            .filter(|s| s.stamp == self.stamp)
    }

    /// The slot of `base` for the block being built, emptied first if stale.
    fn slot_mut(&mut self, base: H) -> &mut Slot {
        let i = base.index();
        if i >= self.slots.len() {
            self.slots.resize(i + 1, Slot::STALE);
        }
        let stamp = self.stamp;
        let s = &mut self.slots[i];
        if s.stamp != stamp {
            *s = Slot {
                stamp,
                ..Slot::STALE
            };
        }
        s
    }
}

/// Statements a nested block (an `if` arm, a loop body, a case) has room for when opened: an
/// empty block grew by doubling, its statements and its spans each copied at every growth
/// (docs/corpus.md). Only a function's first [`ROOMY`] nested blocks get it, so a program of
/// many small blocks takes at most about 200 KiB more per function.
const NESTED: usize = 32;
/// Nested blocks per function that are opened with room for [`NESTED`] statements.
const ROOMY: u32 = 64;

/// Expressions that are never emitted: valid from the function's start, or produced by a
/// statement.
fn not_emitted(e: &Expression) -> bool {
    e.needs_pre_emit()
        || matches!(
            e,
            Expression::CallResult(_)
                | Expression::AtomicResult { .. }
                | Expression::WorkGroupUniformLoadResult { .. }
        )
}

impl Body {
    /// A small function (the entry point, an accessor): its caches start empty and grow only
    /// if used.
    pub fn new(name: &str) -> Body {
        Body::sized(name, 0, 0, None)
    }

    /// A function whose top-level block is expected to hold about `statements` statements
    /// (`run`).
    pub fn with_capacity(name: &str, statements: usize) -> Body {
        Body::sized(name, statements, 16, Some(spare::Kind::Run))
    }

    /// The entry point: small, made for every program, so on a dropped entry point's storage.
    pub fn entry(name: &str) -> Body {
        Body::sized(name, 0, 0, Some(spare::Kind::Entry))
    }

    /// A function with room for `statements` top-level statements and `cached` entries in its
    /// literal and access caches (0 allocates nothing until used), on a dropped function's
    /// storage of kind `reuse` when there is one. Inlined, so the `Body` (three quarters of a
    /// KiB) is built where the caller keeps it instead of copied there (docs/corpus.md).
    #[inline(always)]
    fn sized(name: &str, statements: usize, cached: usize, reuse: Option<spare::Kind>) -> Body {
        let (f, body, mut caches) = if let Some(kind) = reuse {
            let (f, body) = spare::function(kind, name, statements);
            (f, body, caches(kind, cached))
        } else {
            let f = Function {
                name: Some(name.to_string()),
                ..Function::default()
            };
            (f, Block::with_capacity(statements), Caches::default())
        };
        caches.next_block();
        Body {
            f,
            top: body,
            outer: smallvec::SmallVec::new(),
            pending: None,
            loads: smallvec::SmallVec::new(),
            caches,
            recycle: reuse,
            opened: 0,
        }
    }

    /// Which block the expressions made now are visible in, for a cache of expressions kept
    /// outside `Body`: the caches' stamp, which changes at every block boundary (its low bits,
    /// distinct over 2^32 blocks).
    pub fn epoch(&self) -> u32 {
        self.caches.stamp as u32
    }

    /// Append an expression; an emittable one joins the pending `Emit` range. Inlined into
    /// every caller: most name their expression's kind, so the emit check folds away there
    /// instead of being one branch on the kind shared by all (3 % of lowering, docs/corpus.md).
    #[inline(always)]
    pub fn expr(&mut self, e: Expression) -> H {
        let pre = not_emitted(&e);
        if pre {
            self.flush();
        }
        let at = self.f.expressions.len();
        let h = self.f.expressions.append(e, Span::UNDEFINED);
        if !pre && self.pending.is_none() {
            self.pending = Some(at);
        }
        h
    }

    /// Emit the pending expressions here.
    pub fn flush(&mut self) {
        if let Some(start) = self.pending.take() {
            let range = self.f.expressions.range_from(start);
            self.top.push(Statement::Emit(range), Span::UNDEFINED);
        }
    }

    /// Append a statement after the pending expressions.
    pub fn stmt(&mut self, s: Statement) {
        self.flush();
        self.loads.clear();
        self.top.push(s, Span::UNDEFINED);
    }

    /// Forget the expressions emitted in the block being left or entered.
    fn boundary(&mut self) {
        self.flush();
        self.loads.clear();
        self.caches.next_block();
    }

    /// Open a nested block (an `if` arm, a loop body, a case).
    pub fn open(&mut self) {
        self.boundary();
        let room = if self.opened < ROOMY { NESTED } else { 0 };
        self.opened = (self.opened + 1).min(ROOMY);
        let parent = std::mem::replace(&mut self.top, Block::with_capacity(room));
        self.outer.push(parent);
    }

    /// `if (condition) { arm }`, the arm built by `arm` inside it.
    pub fn when(&mut self, condition: H, arm: impl FnOnce(&mut Body)) {
        self.open();
        arm(self);
        let accept = self.close();
        self.stmt(Statement::If {
            condition,
            accept,
            reject: Block::new(),
        });
    }

    /// Close the innermost block and return it.
    pub fn close(&mut self) -> Block {
        self.boundary();
        match self.outer.pop() {
            Some(parent) => std::mem::replace(&mut self.top, parent),
            None => Block::new(),
        }
    }

    /// The finished function; blocks left open are closed into their parents.
    pub fn finish(mut self) -> Function {
        self.flush();
        while !self.outer.is_empty() {
            let b = self.close();
            self.stmt(Statement::Block(b));
        }
        self.f.body = std::mem::take(&mut self.top);
        if let Some(kind) = self.recycle {
            give_caches(kind, std::mem::take(&mut self.caches));
        }
        self.f
    }

    /// A function-local variable and the expression that names it.
    pub fn local(&mut self, name: String, ty: Handle<Type>, init: Option<H>) -> H {
        let v = self.f.local_variables.append(
            naga::LocalVariable {
                name: Some(name),
                ty,
                init,
            },
            Span::UNDEFINED,
        );
        self.expr(Expression::LocalVariable(v))
    }

    /// A literal, made once per function.
    fn literal(&mut self, key: (u8, u32), l: Literal) -> H {
        if let Some(h) = self.caches.literals.get(&key) {
            return *h;
        }
        let h = self.expr(Expression::Literal(l));
        self.caches.literals.insert(key, h);
        h
    }

    pub fn u(&mut self, v: u32) -> H {
        self.literal((0, v), Literal::U32(v))
    }

    pub fn i(&mut self, v: i32) -> H {
        self.literal((1, v as u32), Literal::I32(v))
    }

    pub fn fl(&mut self, v: f32) -> H {
        self.literal((2, v.to_bits()), Literal::F32(v))
    }

    pub fn bool(&mut self, v: bool) -> H {
        self.literal((3, u32::from(v)), Literal::Bool(v))
    }

    pub fn bin(&mut self, op: BinaryOperator, left: H, right: H) -> H {
        self.expr(Expression::Binary { op, left, right })
    }

    pub fn un(&mut self, op: UnaryOperator, expr: H) -> H {
        self.expr(Expression::Unary { op, expr })
    }

    /// `select(reject, accept, condition)`.
    pub fn select(&mut self, reject: H, accept: H, condition: H) -> H {
        self.expr(Expression::Select {
            condition,
            accept,
            reject,
        })
    }

    /// `bitcast<kind>(e)` of a 32-bit value.
    pub fn bitcast(&mut self, kind: ScalarKind, expr: H) -> H {
        self.expr(Expression::As {
            expr,
            kind,
            convert: None,
        })
    }

    /// A numeric conversion to a 32-bit `kind` (`f32(x)`, `i32(x)`, `u32(x)`).
    pub fn convert(&mut self, kind: ScalarKind, expr: H) -> H {
        self.expr(Expression::As {
            expr,
            kind,
            convert: Some(4),
        })
    }

    pub fn math(&mut self, fun: MathFunction, args: &[H]) -> H {
        self.expr(Expression::Math {
            fun,
            arg: args[0],
            arg1: args.get(1).copied(),
            arg2: args.get(2).copied(),
            arg3: args.get(3).copied(),
        })
    }

    /// A load through `pointer`, shared with an earlier one since the last statement.
    pub fn load(&mut self, pointer: H) -> H {
        if let Some((_, h)) = self.loads.iter().find(|(p, _)| *p == pointer) {
            return *h;
        }
        let h = self.expr(Expression::Load { pointer });
        self.loads.push((pointer, h));
        h
    }

    /// A load through a pointer no statement of the function writes through (a
    /// `var<uniform>`, an input register): shared until the next block boundary, as its value
    /// cannot change in between.
    pub fn load_invariant(&mut self, pointer: H) -> H {
        if let Some(h) = self.caches.current(pointer).and_then(|s| s.invariant) {
            return h;
        }
        let h = self.expr(Expression::Load { pointer });
        self.caches.slot_mut(pointer).invariant = Some(h);
        h
    }

    pub fn store(&mut self, pointer: H, value: H) {
        self.stmt(Statement::Store { pointer, value });
    }

    /// `base[index]` with a constant index (a member, an element, a component).
    pub fn at(&mut self, base: H, index: u32) -> H {
        if index < 4 {
            let k = index as usize;
            if let Some(h) = self.caches.current(base).and_then(|s| s.at[k]) {
                return h;
            }
            let h = self.expr(Expression::AccessIndex { base, index });
            self.caches.slot_mut(base).at[k] = Some(h);
            return h;
        }
        if let Some(h) = self.caches.accesses.get(&(base, index)) {
            return *h;
        }
        let h = self.expr(Expression::AccessIndex { base, index });
        self.caches.accesses.insert((base, index), h);
        h
    }

    /// `base[index]` with a run-time index.
    pub fn access(&mut self, base: H, index: H) -> H {
        self.expr(Expression::Access { base, index })
    }

    /// A call of `function`, returning its result.
    pub fn call(&mut self, function: Handle<Function>, arguments: Vec<H>) -> H {
        // A result expression is never emitted: appending it emits what is pending first.
        let result = self.expr(Expression::CallResult(function));
        self.stmt(Statement::Call {
            function,
            arguments,
            result: Some(result),
        });
        result
    }

    /// An atomic operation on `pointer` and its result: the old value (`ty` the word's type),
    /// or for a compare-exchange (`comparison`) the predeclared (old value, exchanged) struct.
    pub fn atomic(
        &mut self,
        pointer: H,
        fun: naga::AtomicFunction,
        value: H,
        ty: Handle<Type>,
        comparison: bool,
    ) -> H {
        let result = self.expr(Expression::AtomicResult { ty, comparison });
        self.stmt(Statement::Atomic {
            pointer,
            fun,
            value,
            result: Some(result),
        });
        result
    }

    /// `cond ? 0xFFFFFFFF : 0`, D3D's comparison result.
    pub fn mask(&mut self, cond: H) -> H {
        let (zero, ones) = (self.u(0), self.u(0xffff_ffff));
        self.select(zero, ones, cond)
    }
}

/// The module-level types the lowering names.
pub fn ty(module: &mut Module, inner: TypeInner) -> Handle<Type> {
    module
        .types
        .insert(Type { name: None, inner }, Span::UNDEFINED)
}

pub fn scalar(module: &mut Module, s: Scalar) -> Handle<Type> {
    ty(module, TypeInner::Scalar(s))
}

pub fn vector(module: &mut Module, size: VectorSize, s: Scalar) -> Handle<Type> {
    ty(module, TypeInner::Vector { size, scalar: s })
}

/// A sized array of `base`.
pub fn array(module: &mut Module, base: Handle<Type>, len: u32, stride: u32) -> Handle<Type> {
    let size = match std::num::NonZeroU32::new(len) {
        Some(n) => naga::ArraySize::Constant(n),
        None => naga::ArraySize::Dynamic,
    };
    ty(module, TypeInner::Array { base, size, stride })
}

/// A runtime-sized array of `base`.
pub fn runtime_array(module: &mut Module, base: Handle<Type>, stride: u32) -> Handle<Type> {
    ty(
        module,
        TypeInner::Array {
            base,
            size: naga::ArraySize::Dynamic,
            stride,
        },
    )
}

/// A named struct of (name, type, binding) members laid out in order with the given sizes.
pub fn structure(
    module: &mut Module,
    name: &str,
    members: Vec<(String, Handle<Type>, Option<naga::Binding>, u32)>,
) -> Handle<Type> {
    let mut offset = 0;
    // Collected, not pushed: the members' list is reused in place where the layouts agree,
    // and made at its final size where they do not.
    let out: Vec<naga::StructMember> = members
        .into_iter()
        .map(|(name, ty, binding, size)| {
            let m = naga::StructMember {
                name: Some(name),
                ty,
                binding,
                offset,
            };
            offset += size;
            m
        })
        .collect();
    module.types.insert(
        Type {
            name: Some(name.to_string()),
            inner: TypeInner::Struct {
                members: out,
                span: offset,
            },
        },
        Span::UNDEFINED,
    )
}

/// `prefix`, `n` in decimal, then `suffix`: a register's or variable's name (`r12x`, `in3`).
/// Built directly: a `format!` per name was a visible share of lowering, one per register
/// component.
pub fn numbered(prefix: &str, n: u32, suffix: &str) -> String {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut v = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let digits = &digits[at..];
    let mut out = String::with_capacity(prefix.len() + digits.len() + suffix.len());
    out.push_str(prefix);
    // ASCII digits, each its own `char`: a few pushes cost less than validating them as UTF-8
    // to push one `str`.
    out.extend(digits.iter().map(|&d| char::from(d)));
    out.push_str(suffix);
    out
}

pub const U32: Scalar = Scalar::U32;
pub const I32: Scalar = Scalar::I32;
pub const F32: Scalar = Scalar::F32;

// The caches' own pool: a finished function's tables are kept for the next function of its
// kind on the thread, as `spare` keeps the arenas (this module owns `Caches`, so their pool
// lives beside them and `spare` needs nothing from here).
thread_local! {
    static CACHES: std::cell::RefCell<Vec<Caches>> = const { std::cell::RefCell::new(Vec::new()) };
    static ENTRY_CACHES: std::cell::RefCell<Vec<Caches>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The pool of finished functions' caches of `kind`.
fn caches_pool(
    kind: spare::Kind,
) -> &'static std::thread::LocalKey<std::cell::RefCell<Vec<Caches>>> {
    match kind {
        spare::Kind::Run => &CACHES,
        spare::Kind::Entry => &ENTRY_CACHES,
    }
}

/// Empty caches for a function of `kind`: a finished one's (its tables keep their size), or
/// new ones with room for `n` entries.
fn caches(kind: spare::Kind, n: usize) -> Caches {
    spare::pop(caches_pool(kind)).unwrap_or_else(|| Caches::with_capacity(n))
}

/// Keep a finished function's caches, emptied, unless one grew past [`spare::LARGEST`] entries.
fn give_caches(kind: spare::Kind, mut c: Caches) {
    if c.capacity() > spare::LARGEST {
        return;
    }
    c.clear();
    spare::keep(caches_pool(kind), c);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `module` passes naga's validator with every check on.
    fn validate(module: &Module) {
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::default(),
        )
        .validate(module)
        .expect("the module validates");
    }

    #[test]
    fn numbered_names_read_as_format_would_write_them() {
        for n in [0, 7, 10, 99, 1234, u32::MAX] {
            assert_eq!(numbered("r", n, "x"), format!("r{n}x"));
            assert_eq!(numbered("in", n, ""), format!("in{n}"));
        }
    }

    /// The sharing rules hold and the function validates: a literal is shared everywhere, a
    /// load is shared until a statement, an invariant load until a block boundary, and nothing
    /// emitted in a block is reused outside it.
    #[test]
    fn shared_expressions_respect_statements_and_blocks() {
        let mut module = Module::default();
        let u = scalar(&mut module, U32);
        let k = module.global_variables.append(
            naga::GlobalVariable {
                name: Some("k".into()),
                space: naga::AddressSpace::Uniform,
                binding: Some(naga::ResourceBinding {
                    group: 0,
                    binding: 0,
                }),
                ty: u,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        let mut b = Body::new("f");
        let x = b.local("x".into(), u, None);
        let kp = b.expr(Expression::GlobalVariable(k));
        let constant = b.load_invariant(kp);
        let one = b.u(1);
        assert_eq!(b.u(1), one, "a literal is made once");
        let first = b.load(x);
        assert_eq!(b.load(x), first, "a load is shared until a statement");
        let sum = b.bin(BinaryOperator::Add, first, one);
        b.store(x, sum);
        let second = b.load(x);
        assert_ne!(second, first, "a store makes the next load a new one");
        assert_eq!(
            b.load_invariant(kp),
            constant,
            "an invariant load outlives statements"
        );
        let cond = b.bin(BinaryOperator::Equal, second, one);
        let mut inner = None;
        b.when(cond, |b| {
            let v = b.load(x);
            assert_ne!(
                v, second,
                "a block does not reuse its parent's pending load"
            );
            inner = Some(v);
            assert_ne!(
                b.load_invariant(kp),
                constant,
                "a block does not reuse its parent's constant load"
            );
            b.store(x, v);
        });
        let after = b.load(x);
        assert_ne!(
            Some(after),
            inner,
            "a load from a closed block is not reused"
        );
        assert_eq!(b.u(1), one, "literals outlive blocks");
        let epoch = b.epoch();
        b.when(cond, |b| {
            assert_ne!(b.epoch(), epoch, "entering a block changes the epoch");
        });
        assert_ne!(b.epoch(), epoch, "leaving a block changes it again");
        let f = b.finish();
        module.functions.append(f, Span::UNDEFINED);
        validate(&module);
    }

    /// Statements land in the innermost open block; closing hands it back and resumes its
    /// parent; a close with nothing open gives an empty block and keeps the function's own;
    /// blocks still open at `finish` are closed into their parents, innermost last.
    #[test]
    fn statements_go_to_the_innermost_block_and_open_blocks_close_in_order() {
        let mut module = Module::default();
        let u = scalar(&mut module, U32);
        let mut b = Body::new("f");
        let x = b.local("x".into(), u, None);
        let one = b.u(1);
        b.store(x, one);
        b.open();
        b.stmt(Statement::Kill);
        let arm = b.close();
        assert!(
            matches!(arm.iter().last(), Some(Statement::Kill)),
            "{arm:?}"
        );
        assert!(b.close().is_empty(), "nothing open: an empty block");
        b.store(x, one);
        b.open();
        b.store(x, one);
        b.open();
        b.stmt(Statement::Kill);
        let f = b.finish();
        let top: Vec<_> = f.body.iter().collect();
        assert!(
            matches!(
                top[..],
                [
                    Statement::Store { .. },
                    Statement::Store { .. },
                    Statement::Block(_)
                ]
            ),
            "{top:?}"
        );
        let Some(Statement::Block(outer)) = top.last() else {
            unreachable!("matched above");
        };
        let outer: Vec<_> = outer.iter().collect();
        assert!(
            matches!(outer[..], [Statement::Store { .. }, Statement::Block(_)]),
            "{outer:?}"
        );
        let Some(Statement::Block(inner)) = outer.last() else {
            unreachable!("matched above");
        };
        assert!(
            matches!(inner.iter().collect::<Vec<_>>()[..], [Statement::Kill]),
            "{inner:?}"
        );
        module.functions.append(f, Span::UNDEFINED);
        validate(&module);
    }

    /// A component is shared within its block only, and a function built on a finished one's
    /// caches (the pool's, with its slots) never takes that function's entries for its own,
    /// though its expressions have the same indices.
    #[test]
    fn shared_components_are_per_block_and_per_function() {
        let mut module = Module::default();
        let v4 = vector(&mut module, VectorSize::Quad, U32);
        let build = |name: &str| {
            let mut b = Body::with_capacity(name, 4);
            let x = b.local("x".into(), v4, None);
            let n = b.f.expressions.len();
            let c = b.at(x, 1);
            assert_eq!(b.f.expressions.len(), n + 1, "{name}: made, not found");
            assert_eq!(b.at(x, 1), c, "{name}: shared in its block");
            let t = b.bool(true);
            let mut inner = None;
            b.when(t, |b| {
                let d = b.at(x, 1);
                assert_ne!(d, c, "{name}: not shared into a block");
                inner = Some(d);
            });
            assert_ne!(Some(b.at(x, 1)), inner, "{name}: nor out of one");
            (b.finish(), x)
        };
        let (first, x1) = build("first");
        let (second, x2) = build("second");
        assert_eq!(
            x1, x2,
            "the second function's variable has the first's index"
        );
        for f in [first, second] {
            module.functions.append(f, Span::UNDEFINED);
        }
        validate(&module);
    }
}

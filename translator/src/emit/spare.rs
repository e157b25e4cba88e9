//! Storage of dropped modules, kept per thread for the next program's lowering.
//!
//! naga's arenas cannot be created with a capacity, so a fresh module grows its type set, its
//! variable and function arenas, and `run`'s expressions, locals and statements by doubling:
//! about half of the ninety allocations of lowering a program, and for `run`'s expressions
//! seven reallocations and copies. A dropped [`Emitted`] hands its module's containers, its
//! `run`'s and its entry point's back here, emptied with their capacity kept, so translating
//! program after program (the bench, `corpus`, `fuzz`, `verify`) grows one only when a program
//! is larger than any before it on that thread.

use std::cell::{Cell, RefCell};
use std::thread::LocalKey;

use naga::{Arena, Block, Expression, Function, LocalVariable, Module};

use super::Emitted;

/// Items kept per pool: one per module being built at a time is enough.
const KEPT: usize = 2;
/// A `run` that held more expressions than this is dropped, not kept (about 200 KiB with
/// spans), so a rare huge program does not pin its memory; so are larger caches.
pub(super) const LARGEST: usize = 4096;
/// Items the kept arenas may take in before their span lists are emptied ([`empty_spans`]):
/// naga's `Arena::clear` empties an arena but not its span list, which goes on growing with
/// every program it holds. This bounds each list to a few tens of KiB, memory the next
/// programs' appends find in cache. (Dropping the pools at a larger bound instead cost every
/// arena's growth again every few hundred programs: 1.7 % of the instructions of lowering.)
const SPAN_BUDGET: usize = 1 << 13;

/// A dropped `run`'s storage: what [`run`] builds the next one from.
#[derive(Default)]
struct Run {
    expressions: Arena<Expression>,
    locals: Arena<LocalVariable>,
    body: Block,
    /// The function's name, emptied: every program names its `run` and `main` again.
    name: String,
}

/// Which kind of function a pool's storage comes from: `run` is large, the entry point small,
/// so each reuses its own kind's (a `run` on an entry point's storage would grow it again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Run,
    Entry,
}

thread_local! {
    static RUNS: RefCell<Vec<Run>> = const { RefCell::new(Vec::new()) };
    static ENTRIES: RefCell<Vec<Run>> = const { RefCell::new(Vec::new()) };
    static MODULES: RefCell<Vec<Module>> = const { RefCell::new(Vec::new()) };
    /// Arena items handed back since the pools were last dropped.
    static SPANS: Cell<usize> = const { Cell::new(0) };
}

/// An empty module, a dropped one's emptied containers ([`give_module`]) when there is one.
/// Inlined, so the module (about half a KiB) is built in the lowering's context, not copied
/// there.
#[inline(always)]
pub fn module() -> Module {
    pop(&MODULES).unwrap_or_default()
}

/// An empty function named `name` and its top-level block (room for about `statements`), on a
/// dropped function's storage of the same kind when there is one. Inlined, as
/// [`super::build::Body`]'s constructor is, so the pair is not copied on its way there.
#[inline(always)]
pub fn function(kind: Kind, name: &str, statements: usize) -> (Function, Block) {
    let r = pop(functions_pool(kind)).unwrap_or_else(|| Run {
        body: Block::with_capacity(statements),
        ..Run::default()
    });
    let mut kept = r.name;
    kept.clear();
    kept.push_str(name);
    let f = Function {
        name: Some(kept),
        expressions: r.expressions,
        local_variables: r.locals,
        ..Function::default()
    };
    (f, r.body)
}

/// The pool of dropped functions' storage of `kind`.
fn functions_pool(kind: Kind) -> &'static LocalKey<RefCell<Vec<Run>>> {
    match kind {
        Kind::Run => &RUNS,
        Kind::Entry => &ENTRIES,
    }
}

/// The last item put in `pool`, if any (none once the thread is ending).
pub(super) fn pop<T: 'static>(pool: &'static LocalKey<RefCell<Vec<T>>>) -> Option<T> {
    pool.try_with(|s| s.borrow_mut().pop()).ok().flatten()
}

/// Put `item` in `pool`, unless the pool holds [`KEPT`] already (or the thread is ending).
pub(super) fn keep<T: 'static>(pool: &'static LocalKey<RefCell<Vec<T>>>, item: T) {
    let _ = pool.try_with(|s| {
        let mut s = s.borrow_mut();
        if s.len() < KEPT {
            s.push(item);
        }
    });
}

/// Count `n` items into the span budget; `true` once it is spent (and the count restarts).
fn spend(n: usize) -> bool {
    SPANS
        .try_with(|s| {
            let total = s.get() + n;
            s.set(if total > SPAN_BUDGET { 0 } else { total });
            total > SPAN_BUDGET
        })
        .unwrap_or(true)
}

/// The span lists of every kept arena emptied, their capacity kept. naga's `Arena::clear`
/// leaves an arena's spans, so each program's appends went on to fresh memory until the
/// budget dropped the pools and the next programs grew every arena again by doubling;
/// compaction is the one way naga offers to cut a span list. Function arenas are compacted
/// as a function of a module of their own (an empty one costs little); local variables,
/// which compaction leaves as they are, start afresh (a program has a few dozen).
fn empty_spans(r: &mut Run) {
    let mut m = Module::default();
    let h = m.functions.append(
        Function {
            expressions: std::mem::take(&mut r.expressions),
            ..Function::default()
        },
        naga::Span::UNDEFINED,
    );
    naga::compact::compact(&mut m, naga::compact::KeepUnused::Yes);
    r.expressions = std::mem::take(&mut m.functions[h].expressions);
    r.locals = Arena::new();
}

/// [`empty_spans`] for every kept `run` and entry point; every kept module's variable and
/// function arenas start afresh (a program has a few dozen of each; compacting the module
/// instead would rebuild its type set, which `clear` already empties whole).
fn empty_all_spans() {
    each_kept(&RUNS, empty_spans);
    each_kept(&ENTRIES, empty_spans);
    each_kept(&MODULES, |m| {
        m.global_variables = Arena::new();
        m.functions = Arena::new();
    });
}

/// `f` on every item `pool` keeps (none while the pool is borrowed, or once the thread is
/// ending).
fn each_kept<T: 'static>(pool: &'static LocalKey<RefCell<Vec<T>>>, f: impl FnMut(&mut T)) {
    let _ = pool.try_with(|s| {
        if let Ok(mut s) = s.try_borrow_mut() {
            s.iter_mut().for_each(f);
        }
    });
}

/// Keep `f`'s arenas and statement list, emptied, unless it is too large; the items its
/// arenas took in, for the span budget. A small program's `run` is kept too: its arenas are the
/// ones it took from the pool, with the capacity a larger program gave them, and dropping them
/// made the next program grow new ones by doubling (a tenth of lowering a one-instruction
/// program).
fn give_function(kind: Kind, f: Function) -> usize {
    let n = f.expressions.len();
    if n > LARGEST {
        return 0;
    }
    let items = n + f.local_variables.len();
    let mut r = Run {
        expressions: f.expressions,
        locals: f.local_variables,
        body: f.body,
        name: f.name.unwrap_or_default(),
    };
    r.expressions.clear();
    r.locals.clear();
    r.body.cull(..);
    keep(functions_pool(kind), r);
    items
}

/// Keep `m`'s type set, variable and function arenas and entry-point list, emptied, in a module
/// that holds nothing else (a handle left in its special types or constants would name a type
/// no longer there); the items its arenas took in, for the span budget.
fn give_module(m: Module) -> usize {
    if m.types.len() > LARGEST {
        return 0;
    }
    let n = m.global_variables.len() + m.functions.len();
    let mut m = Module {
        types: m.types,
        global_variables: m.global_variables,
        functions: m.functions,
        entry_points: m.entry_points,
        ..Module::default()
    };
    m.types.clear();
    m.global_variables.clear();
    m.functions.clear();
    m.entry_points.clear();
    keep(&MODULES, m);
    n
}

/// A dropped module's containers, and its largest function's (`run`'s), go back to the pools
/// for the next program's lowering. The span budget is counted once all of them are in the
/// pools, so what this drop handed back is emptied with the rest when it spends the budget:
/// counted at each hand-back, a module still on its way back escaped the emptying whenever its
/// `run` spent the budget, nearly always, and its span lists grew into fresh memory, program
/// after program (docs/corpus.md).
impl Drop for Emitted {
    fn drop(&mut self) {
        let mut m = std::mem::take(&mut self.module);
        let mut items = 0;
        let largest = m
            .functions
            .iter_mut()
            .map(|(_, f)| f)
            .max_by_key(|f| f.expressions.len());
        if let Some(f) = largest {
            items += give_function(Kind::Run, std::mem::take(f));
        }
        for ep in &mut m.entry_points {
            items += give_function(Kind::Entry, std::mem::take(&mut ep.function));
        }
        items += give_module(m);
        if spend(items) {
            empty_all_spans();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` assembled, decoded and lowered under the contract profile.
    fn lowered(text: &str) -> Emitted {
        let blob = dxbc::assemble_container(text)
            .expect("assembles")
            .to_bytes();
        let shader = dxbc::Shader::parse(&blob).expect("parses");
        crate::lower(&shader, crate::Profile::Contract).expect("lowers")
    }

    /// How many dropped functions' storage `pool` holds on this thread.
    fn pooled(pool: &'static LocalKey<RefCell<Vec<Run>>>) -> usize {
        pool.with(|s| s.borrow().len())
    }

    /// What the pools hand out after a translation was dropped is empty: the next module's
    /// handles start at 0 and it holds nothing of the last one. `run`'s storage and the entry
    /// point's go back to pools of their own.
    #[test]
    fn recycled_storage_comes_back_empty() {
        std::thread::spawn(|| {
            let text = "ps_4_0\ndcl_constantbuffer cb0[1], immediateIndexed\n\
                        dcl_output o0.xyzw\ndcl_temps 2\n\
                        mul r0.xyzw, cb0[0].xyzw, cb0[0].wzyx\n\
                        dp4 r1.x, r0.xyzw, cb0[0].xyzw\nlt r1.y, r1.x, l(0.0)\n\
                        movc r0.xyzw, r1.yyyy, r0.xyzw, cb0[0].xyzw\n\
                        mov o0.xyzw, r0.xyzw\nret\n";
            let e = lowered(text);
            assert!(
                e.module
                    .functions
                    .iter()
                    .any(|(_, f)| f.expressions.len() >= 32)
            );
            drop(e);
            assert_eq!(
                (
                    pooled(&RUNS),
                    pooled(&ENTRIES),
                    MODULES.with(|s| s.borrow().len())
                ),
                (1, 1, 1)
            );
            let m = module();
            assert_eq!(format!("{m:?}"), format!("{:?}", Module::default()));
            for (kind, name) in [(Kind::Run, "run"), (Kind::Entry, "main")] {
                let (f, body) = function(kind, name, 0);
                let blank = Function {
                    name: Some(name.into()),
                    ..Function::default()
                };
                assert_eq!(format!("{f:?}"), format!("{blank:?}"), "{kind:?}");
                assert!(body.is_empty());
            }
            // The entry point's storage went back to its own pool, not `run`'s.
            assert_eq!((pooled(&RUNS), pooled(&ENTRIES)), (0, 0));
        })
        .join()
        .expect("thread");
    }

    /// Lower `text` once, then twice more, each drop spending the span budget; check that the
    /// pools keep their storage and that what they keep is empty, then that the next module on
    /// that storage is the first one again (first round), and that every span list a pool keeps
    /// was emptied, the module's and the entry point's included (second round: an item
    /// appended with a marked span is found with that span only if its list was empty).
    fn spend_the_budget(text: &'static str) -> Emitted {
        let first = lowered(text);
        let want = format!("{:?}", first.module);
        for round in 0..2 {
            let e = lowered(text);
            SPANS.with(|s| s.set(SPAN_BUDGET));
            drop(e);
            assert_eq!(SPANS.with(Cell::get), 0, "round {round}: spent");
            let pools = (
                pooled(&RUNS),
                pooled(&ENTRIES),
                MODULES.with(|s| s.borrow().len()),
            );
            assert_eq!(pools, (1, 1, 1), "round {round}");
            let blank = format!("{:?}", Module::default());
            MODULES.with(|s| {
                assert!(
                    s.borrow().iter().all(|m| format!("{m:?}") == blank),
                    "round {round}"
                );
            });
            if round == 0 {
                let next = lowered(text);
                assert_eq!(format!("{:?}", next.module), want);
                continue;
            }
            let marked = naga::Span::new(1, 2);
            let mut m = module();
            let h = m.functions.append(Function::default(), marked);
            assert_eq!(m.functions.get_span(h), marked, "the module's functions");
            for kind in [Kind::Run, Kind::Entry] {
                let (mut f, _) = function(kind, "f", 0);
                let h = f
                    .expressions
                    .append(Expression::Literal(naga::Literal::U32(0)), marked);
                assert_eq!(f.expressions.get_span(h), marked, "{kind:?}'s expressions");
            }
        }
        first
    }

    /// When a drop spends the span budget the kept storage stays kept, every span list in it
    /// emptied (the pools were dropped before; then a module handed back after `run` escaped),
    /// and the modules built on it stay the same.
    #[test]
    fn a_spent_budget_keeps_the_pools() {
        std::thread::spawn(|| {
            spend_the_budget(
                "ps_4_0\ndcl_constantbuffer cb0[1], immediateIndexed\n\
                 dcl_output o0.xyzw\ndcl_temps 1\n\
                 mul r0.xyzw, cb0[0].xyzw, cb0[0].wzyx\n\
                 mov o0.xyzw, r0.xyzw\nret\n",
            );
        })
        .join()
        .expect("thread");
    }

    /// A module with special types (a compare-exchange's result) spends the budget as safely
    /// as any: what is kept holds nothing that names a type of the dropped module (the
    /// compaction kept modules once went through followed such a handle out of bounds, and the
    /// `run` storage is still compacted as a function of a module).
    #[test]
    fn a_module_with_special_types_spends_the_budget() {
        std::thread::spawn(|| {
            let first = spend_the_budget(
                "cs_5_0\ndcl_tgsm_raw g0, 4\ndcl_temps 1\ndcl_thread_group 1, 1, 1\n\
                 imm_atomic_cmp_exch r0.x, g0, l(0), l(1), l(2)\nret\n",
            );
            let special = &first.module.special_types.predeclared_types;
            assert_eq!(special.len(), 1, "a compare-exchange's result type");
        })
        .join()
        .expect("thread");
    }

    /// A small program's `run` goes back to the pool as well: it holds the storage it took from
    /// the pool, which a larger program grew, and the next program starts from it.
    #[test]
    fn a_small_programs_run_goes_back_too() {
        std::thread::spawn(|| {
            let e = lowered("ps_4_0\ndcl_output o0.xyzw\nmov o0.x, l(1.0)\nret\n");
            let most = e
                .module
                .functions
                .iter()
                .map(|(_, f)| f.expressions.len())
                .max();
            assert!(most.is_some_and(|n| n < 8), "a small run: {most:?}");
            drop(e);
            assert_eq!(pooled(&RUNS), 1);
        })
        .join()
        .expect("thread");
    }
}

//! Shrinking a mismatching input vector before it is saved: input words are zeroed or replaced
//! by small simple values as long as the vector still mismatches. Each round tries every
//! single-word change at once (one batch through the driver), then keeps all the changes that
//! still failed if together they still fail, else the first.
//!
//! The words shrunk are a vector's `v#` registers and its constant buffers: the inputs a
//! pixel or vertex vector is drawn from.

use std::collections::BTreeMap;
use std::sync::Arc;

use oracles::verdict::Judge;

use crate::driver::{Policy, differential};
use crate::exec::{Batch, Executor, Unit};

/// Rounds of input shrinking per counterexample.
pub const ROUNDS: usize = 16;

/// The words of vector 0 of `b` that shrinking may change, in order: registers, then every
/// constant buffer's words.
fn flatten(b: &Batch) -> Vec<u32> {
    let mut out: Vec<u32> = b.inputs.iter().flatten().copied().collect();
    for words in b.resources_of(0).cbs.values() {
        out.extend_from_slice(words);
    }
    out
}

/// Vector 0 of `b` with `changes` applied to its flattened words.
fn unflatten(b: &Batch, changes: &[(usize, u32)]) -> Batch {
    let mut flat = flatten(b);
    for (i, w) in changes {
        if let Some(x) = flat.get_mut(*i) {
            *x = *w;
        }
    }
    let mut out = b.select(&[0]);
    let mut at = 0;
    for reg in &mut out.inputs {
        for c in reg.iter_mut() {
            *c = flat.get(at).copied().unwrap_or(0);
            at += 1;
        }
    }
    let mut res = (**b.resources_of(0)).clone();
    for words in res.cbs.values_mut() {
        for w in words.iter_mut() {
            *w = flat.get(at).copied().unwrap_or(0);
            at += 1;
        }
    }
    out.resources = vec![Arc::new(res)];
    out
}

/// One vector per batch entry, so a batch of candidates goes through the driver at once.
fn stack(vs: &[Batch]) -> Batch {
    let mut b = Batch {
        vectors: vs.len(),
        invocations: vs.first().map_or(1, |v| v.invocations),
        regs: vs.first().map_or(0, |v| v.regs),
        inputs: Vec::new(),
        resources: Vec::with_capacity(vs.len()),
        groups: vs.first().map_or([1, 1, 1], |v| v.groups),
    };
    for v in vs {
        b.inputs.extend_from_slice(&v.inputs);
        b.resources.push(v.resources_of(0).clone());
    }
    b
}

/// Simpler words to try in place of `w`: 0, 1.0 and 1, each only when it has fewer bits and a
/// smaller value.
fn simpler(w: u32) -> Vec<u32> {
    let mut c = vec![0u32, 0x3f80_0000, 1];
    c.retain(|x| *x != w && x.count_ones() < w.count_ones().max(1) + 1 && *x < w.max(1));
    c
}

/// Shrink the one vector of `start` while it still mismatches.
pub fn shrink(
    unit: &Unit<'_>,
    start: Batch,
    reference: &mut dyn Executor,
    candidate: &mut dyn Executor,
    judge: &Judge,
    policy: Policy,
) -> Batch {
    let mut fails = |candidates: &[Batch]| -> Vec<bool> {
        match differential(
            unit,
            &stack(candidates),
            reference,
            candidate,
            judge,
            policy,
        ) {
            Ok(d) => d.verdicts.iter().map(|v| v.is_mismatch()).collect(),
            Err(_) => vec![false; candidates.len()],
        }
    };
    let mut current = start;
    for _ in 0..ROUNDS {
        let muts: Vec<(usize, u32)> = flatten(&current)
            .iter()
            .enumerate()
            .flat_map(|(i, w)| simpler(*w).into_iter().map(move |s| (i, s)))
            .collect();
        if muts.is_empty() {
            break;
        }
        let candidates: Vec<Batch> = muts.iter().map(|m| unflatten(&current, &[*m])).collect();
        let ok = fails(&candidates);
        let kept: Vec<(usize, u32)> = muts
            .iter()
            .zip(&ok)
            .filter(|(_, f)| **f)
            .map(|(m, _)| *m)
            .collect();
        if kept.is_empty() {
            break;
        }
        // One change per word: the first that failed.
        let mut per_word: BTreeMap<usize, u32> = BTreeMap::new();
        for (i, s) in &kept {
            per_word.entry(*i).or_insert(*s);
        }
        let all: Vec<(usize, u32)> = per_word.into_iter().collect();
        let combined = unflatten(&current, &all);
        current = if fails(std::slice::from_ref(&combined))
            .first()
            .copied()
            .unwrap_or(false)
        {
            combined
        } else {
            unflatten(&current, &kept[..1])
        };
    }
    current
}

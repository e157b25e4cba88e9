//! Data races in compute programs. D3D orders the memory accesses of different invocations of
//! a group only at a barrier (`sync_*_t` with the fence of that memory: `_g` for TGSM,
//! `_ugroup`/`_uglobal` for UAVs; FS §7.14), and those of different groups never. The
//! interpreter runs a group in lockstep, which is one order among many, so it cannot see a race
//! by its result: it tracks, per memory word and barrier epoch, who wrote, read and atomically
//! updated it, and calls it a race when one invocation's plain store meets another's access of
//! any kind, or one's plain read meets another's atomic. Atomics against atomics are ordered by
//! the hardware, and plain stores of one value by many invocations leave that value whatever
//! the order, so neither is a race.
//!
//! A raced word holds an undefined value until a store that does not race defines it again:
//! the invocations involved and every later reader get `d3d-undefined`, and the run records a
//! finding.

use super::findings::{FindingKind, record};
use super::machine::Machine;
use super::tracked::{Access, Space, Who, Word};
use crate::domain::Domain;

impl Machine<'_> {
    /// Record one access of `lane` to the word at byte `addr` of `space`, at instruction `at`.
    pub(super) fn race_access(
        &mut self,
        space: Space,
        addr: u64,
        lane: usize,
        access: Access,
        at: usize,
    ) {
        if !self.races.on {
            return;
        }
        let r = &mut self.races;
        let epoch = match space {
            Space::Tgsm(_) => r.tgsm_epoch,
            Space::Uav(_) => r.uav_epoch,
        };
        let w = r.words.entry((space, addr / 4)).or_default();
        if w.epoch != epoch {
            *w = Word {
                epoch,
                poisoned: w.poisoned,
                ..Word::default()
            };
        }
        let l = lane as u32;
        let conflict = match access {
            Access::Read => w.writers.other_than(l).or(w.atomics.other_than(l)),
            Access::Atomic => w.writers.other_than(l).or(w.readers.other_than(l)),
            Access::Write(v) => w
                .readers
                .other_than(l)
                .or(w.atomics.other_than(l))
                .or(w.writers.other_than(l).filter(|_| w.mixed || w.value != v)),
        };
        match access {
            Access::Read => w.readers = w.readers.add(l),
            Access::Atomic => w.atomics = w.atomics.add(l),
            Access::Write(v) => {
                if w.writers == Who::Nobody {
                    w.value = v;
                } else if w.value != v {
                    w.mixed = true;
                }
                w.writers = w.writers.add(l);
            }
        }
        let undefined = match conflict {
            Some(other) => {
                w.poisoned = true;
                if let Some(o) = other {
                    self.events[o as usize] |= Domain::D3dUndefined.bit();
                }
                let (kind, memory) = match space {
                    Space::Tgsm(s) => (FindingKind::TgsmRace, format!("g{s}")),
                    Space::Uav(s) => (FindingKind::UavRace, format!("u{s}")),
                };
                let others = other.map_or("other invocations".to_string(), |o| {
                    format!("invocation {o}")
                });
                record(&mut self.findings, kind, at, || {
                    format!(
                        "{memory} byte {}: invocation {l} and {others} of one group, no barrier between",
                        addr & !3
                    )
                });
                true
            }
            None if matches!(access, Access::Write(_)) => {
                w.poisoned = false;
                false
            }
            None => w.poisoned,
        };
        if undefined {
            self.scratch_ev[lane] |= Domain::D3dUndefined.bit();
        }
    }
}

//! Work on all cores: one helper every command uses to spread independent items over threads,
//! and the one place that says how many threads that is.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Workers sharing this process's cores (`--jobs`, `--adapter all`).
static SHARERS: AtomicUsize = AtomicUsize::new(1);

/// `n` workers run at once from now on, each in its own thread; each gets an equal share of
/// the cores for its own threads. Without this, 16 workers on 16 cores would each start 16
/// interpreter threads per batch: 256 threads contending for the cores and the allocator.
pub fn share_cores(n: usize) {
    SHARERS.store(n.max(1), Ordering::Relaxed);
}

/// Threads one worker may use: its share of the cores, at least one.
pub fn threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores / SHARERS.load(Ordering::Relaxed).max(1)).max(1)
}

/// `f` over `items` on this worker's share of the cores ([`threads`]), results in order. A
/// thread that panics gives `fallback()` for each of its items, so one bad item never loses
/// the others' results.
pub fn par_map<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
    fallback: impl Fn() -> R,
) -> Vec<R> {
    let threads = threads().min(items.len().max(1));
    let per = items.len().div_ceil(threads).max(1);
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(per)
            .map(|chunk| {
                (
                    chunk.len(),
                    s.spawn(move || chunk.iter().map(f).collect::<Vec<_>>()),
                )
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|(n, h)| {
                h.join()
                    .unwrap_or_else(|_| (0..n).map(|_| fallback()).collect())
            })
            .collect()
    })
}

/// `f()`, with a panic caught and turned into its message: a panic is always a dxdiff bug, but
/// it costs one program its verdict (a `crash` skip), never the run and its report.
pub fn caught<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_their_order() {
        let items: Vec<u32> = (0..1000).collect();
        assert_eq!(
            par_map(&items, |x| x * 2, || 0),
            (0..1000).map(|x| x * 2).collect::<Vec<_>>()
        );
        assert!(par_map(&[] as &[u32], |x| *x, || 0).is_empty());
    }

    #[test]
    fn a_panic_becomes_its_message() {
        assert_eq!(caught(|| 7), Ok(7));
        assert_eq!(
            caught(|| -> u32 { panic!("index {} out of bounds", 9) }),
            Err("index 9 out of bounds".to_string())
        );
    }
}

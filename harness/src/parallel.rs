//! Work on all cores: one helper every command uses to spread independent items over threads.

/// `f` over `items` on all cores, results in order. A thread that panics gives `fallback()`
/// for each of its items, so one bad item never loses the others' results.
pub fn par_map<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
    fallback: impl Fn() -> R,
) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len().max(1));
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

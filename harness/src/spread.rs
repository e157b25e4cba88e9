//! `--adapter all` and `--jobs J`: one command's work spread over workers, one GPU worker
//! process each, on every device of the host or several on one.
//!
//! dxdiff grows no scheduler: a spread run is the sharded run (`--shard K/N`, the same
//! deterministic partition a cluster uses) with worker `k` running shard `k/N` in its own
//! thread, and the shards merged as `dxdiff merge` merges them. So a spread run reports what
//! the one-worker run reports, and the cluster recipes and this share one code path.
//!
//! Several workers on one device pay because a run's host side (translation, naga, the
//! interpreter's serial parts, judging, the pipe to the worker) is serial per worker and leaves
//! a large GPU idle: each extra worker overlaps one program's host work with another's
//! dispatch.

use std::fmt::Display;
use std::path::{Path, PathBuf};

use reports::shard::Shard;

/// The `--adapter` value that spreads a run over every device.
pub const ALL: &str = "all";

/// Why `--shard` and a spread run do not go together, worded once for every command.
pub const NO_SHARD: &str = "--adapter all and --jobs above 1 make their own shards, one per worker; give --shard with a named adapter and one job";

/// The help of every command's `--jobs`.
pub const JOBS_HELP: &str = "Workers per device (1 to 64), each with its own GPU worker process and one shard of the run, merged into one result; more than 1 overlaps one program's host work with another's dispatch. Default: 1, except `verify`, which takes one per CPU core up to 4 (the same result, sooner: on 2 cores with lavapipe the default run took 5.2 s with 2 workers against 8.4 s with 1; NVIDIA hosts gain nothing past 4); a run given --shard keeps 1";

/// The workers `verify` takes when `--jobs` is not given: one per core the process may use, at
/// most four (docs/performance.md: on NVIDIA hosts lanes/s stop growing past four workers;
/// on this 2-core machine with lavapipe two workers took the default run from 8.4 s to 5.2 s).
pub fn machine_jobs() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .clamp(1, 4)
}

/// The most workers per device `--jobs` takes: each is a GPU worker process with its own
/// device, and hundreds of them take gigabytes before the first program runs.
pub const MAX_JOBS: usize = 64;

/// The adapters of a run's workers: with `adapter` `all`, `#0`..`#N-1` for every device of the
/// host (every GPU, or lavapipe alone, as [`crate::gpu::isolated::devices`] lists them), each
/// `jobs` times, interleaved so that any first few workers cover every device; otherwise
/// `adapter` itself `jobs` times. Empty when the run is not spread (one named adapter, one job).
pub fn workers(adapter: &str, jobs: usize) -> Result<Vec<String>, crate::gpu::GpuError> {
    let jobs = jobs.max(1);
    if adapter != ALL {
        return Ok(if jobs == 1 {
            Vec::new()
        } else {
            vec![adapter.to_string(); jobs]
        });
    }
    let n = crate::gpu::isolated::devices()?.len().max(1);
    Ok((0..jobs)
        .flat_map(|_| (0..n).map(|k| format!("#{k}")))
        .collect())
}

/// The folder under a folder-based run's `--out` (`fuzz`, `sweep`) that holds its shards.
pub const SHARDS: &str = "shards";

/// The shard folders of a folder-based run spread over `n` workers: `out/shards/K-of-N`, each
/// a complete shard folder that resumes as any does, merged into `out` afterwards. Folders of
/// a run on a different number of workers are refused: their shards are another partition,
/// and merging them with these would count programs twice or not at all.
pub fn shard_folders(out: &Path, n: usize) -> Result<Vec<PathBuf>, String> {
    let root = out.join(SHARDS);
    let suffix = format!("-of-{n}");
    if let Ok(entries) = std::fs::read_dir(&root) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.ends_with(&suffix) {
                return Err(format!(
                    "{}: left by a run on another number of workers ({name}); this run has {n}. Resume it with the same --adapter and --jobs, or with `--shard K/N` per shard, or choose another --out",
                    root.display()
                ));
            }
        }
    }
    Ok((0..n).map(|k| root.join(format!("{k}{suffix}"))).collect())
}

/// Why a folder-based spread run stopped: before it started (its folders: a usage error), or in
/// a shard that no worker could run.
#[derive(Debug)]
pub enum Stopped<E> {
    /// `out/shards/` holds another partition's shards ([`shard_folders`]).
    Folders(String),
    /// The run's own error.
    Run(E),
}

/// A folder-based run (`fuzz`, `sweep`) spread over `workers`: `out` is held for the whole
/// run, shard `k` runs in its folder under `out/shards/` ([`shard_folders`]) through
/// `work(shard, its folder, adapter)` ([`spread`]). The shard folders, for the merge that
/// follows, each shard's result, and the hold on `out` (kept through the merge).
pub fn over_folders<T, E>(
    out: &Path,
    workers: &[String],
    quiet: bool,
    work: impl Fn(Shard, &Path, &str) -> Result<T, E> + Sync,
) -> Result<(Vec<PathBuf>, Vec<T>, crate::outdir::OutDir), Stopped<E>>
where
    T: Send,
    E: Display + Send + From<crate::gpu::GpuError> + From<crate::outdir::OutError>,
{
    let held = crate::outdir::OutDir::open(out).map_err(|e| Stopped::Run(e.into()))?;
    let dirs = shard_folders(out, workers.len()).map_err(Stopped::Folders)?;
    if !quiet {
        eprintln!(
            "dxdiff: {} workers ({}), shards in {}",
            workers.len(),
            workers.join(", "),
            out.join(SHARDS).display()
        );
    }
    let results = spread(workers, quiet, |shard, adapter| {
        work(shard, &dirs[shard.k as usize], adapter)
    })
    .map_err(Stopped::Run)?;
    Ok((dirs, results, held))
}

/// Run `work(shard k/n, &workers[k])` for every worker, each in its own thread, and return
/// the results in shard order. A shard whose worker failed (its `work` returned an error or
/// panicked) is rerun, one after another, on the adapter of the first worker whose own shard
/// succeeded; if none did, the first error is returned. `work` for commands with resumable
/// folders resumes the failed shard's folder, so nothing it measured is lost.
pub fn spread<T, E>(
    workers: &[String],
    quiet: bool,
    work: impl Fn(Shard, &str) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E>
where
    T: Send,
    E: Display + Send + From<crate::gpu::GpuError>,
{
    let n = u32::try_from(workers.len()).unwrap_or(u32::MAX);
    let shard = |k: usize| Shard {
        k: u32::try_from(k).unwrap_or(u32::MAX),
        n,
    };
    let work = &work;
    crate::parallel::share_cores(workers.len());
    let mut results: Vec<Result<T, E>> = std::thread::scope(|s| {
        let handles: Vec<_> = workers
            .iter()
            .enumerate()
            .map(|(k, adapter)| s.spawn(move || work(shard(k), adapter)))
            .collect();
        handles
            .into_iter()
            .enumerate()
            .map(|(k, h)| {
                h.join().unwrap_or_else(|_| {
                    Err(
                        crate::gpu::GpuError::Device(format!("worker {k}'s thread panicked"))
                            .into(),
                    )
                })
            })
            .collect()
    });
    // Failed shards rerun one at a time, with all the cores.
    crate::parallel::share_cores(1);
    let working = results.iter().position(Result::is_ok);
    for (k, r) in results.iter_mut().enumerate() {
        if let (Err(e), Some(d)) = (&*r, working) {
            let adapter = &workers[d];
            if !quiet {
                eprintln!(
                    "dxdiff: worker {k} on {} failed ({e}); its shard runs on {adapter}",
                    workers[k]
                );
            }
            *r = crate::parallel::caught(|| work(shard(k), adapter)).unwrap_or_else(|why| {
                Err(crate::gpu::GpuError::Device(format!("{adapter} panicked: {why}")).into())
            });
        }
    }
    results.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::GpuError;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|k| format!("#{k}")).collect()
    }

    #[test]
    fn a_named_adapter_spreads_only_over_several_jobs() {
        assert!(workers("lavapipe", 1).expect("no probe").is_empty());
        assert_eq!(
            workers("llvm", 3).expect("no probe"),
            vec!["llvm".to_string(); 3]
        );
    }

    #[test]
    fn every_shard_runs_once_on_its_own_device_in_order() {
        let got = spread(&names(3), true, |s, dev| {
            Ok::<_, GpuError>((s.k, s.n, dev.to_string()))
        })
        .expect("no device fails");
        assert_eq!(
            got,
            vec![
                (0, 3, "#0".to_string()),
                (1, 3, "#1".to_string()),
                (2, 3, "#2".to_string())
            ]
        );
    }

    #[test]
    fn a_failed_devices_shard_reruns_on_one_that_worked() {
        let got = spread(&names(3), true, |s, dev| {
            if dev == "#1" {
                Err(GpuError::Device("lost".into()))
            } else {
                Ok((s.k, dev.to_string()))
            }
        })
        .expect("the shard is rerun");
        assert_eq!(got[1], (1, "#0".to_string()));
    }

    #[test]
    fn a_panicking_device_is_a_failed_device() {
        let got = spread(&names(2), true, |s, dev| {
            if dev == "#0" {
                panic!("driver bug");
            }
            Ok::<_, GpuError>(s.k)
        })
        .expect("the shard is rerun on #1");
        assert_eq!(got, vec![0, 1]);
    }

    #[test]
    fn shard_folders_are_named_by_partition_and_another_partition_is_refused() {
        let dir = std::env::temp_dir().join(format!("dxdiff-spread-{}", std::process::id()));
        let got = shard_folders(&dir, 2).expect("a fresh folder");
        assert_eq!(got[1], dir.join("shards").join("1-of-2"));
        std::fs::create_dir_all(&got[0]).expect("create");
        assert_eq!(shard_folders(&dir, 2).expect("same partition"), got);
        let why = shard_folders(&dir, 3).expect_err("another partition");
        assert!(why.contains("0-of-2"), "{why}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn when_no_device_works_the_error_comes_back() {
        let r = spread(&names(2), true, |_, dev| {
            Err::<(), _>(GpuError::Device(format!("{dev} lost")))
        });
        assert!(r.expect_err("nothing ran").to_string().contains("#0 lost"));
    }
}

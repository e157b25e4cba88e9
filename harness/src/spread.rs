//! `--adapter all`: one command's work spread over every device of the host.
//!
//! dxdiff grows no scheduler: a multi-device run is the sharded run (`--shard K/N`, the same
//! deterministic partition a cluster uses) with device `#k` running shard `k/N` in its own
//! thread, and the shards merged as `dxdiff merge` merges them. So a run on N devices reports
//! what the one-device run reports, and the cluster recipes and this share one code path.

use std::fmt::Display;
use std::path::{Path, PathBuf};

use reports::shard::Shard;

/// The `--adapter` value that spreads a run over every device.
pub const ALL: &str = "all";

/// Why `--shard` and `--adapter all` do not go together, worded once for every command.
pub const NO_SHARD: &str =
    "--adapter all makes its own shards, one per device; give --shard with a named adapter";

/// The devices of this host, as [`crate::gpu::isolated::devices`] lists them: every GPU, or
/// lavapipe alone.
pub fn devices() -> Result<usize, crate::gpu::GpuError> {
    Ok(crate::gpu::isolated::devices()?.len())
}

/// The folder under a folder-based run's `--out` (`fuzz`, `sweep`) that holds its shards.
pub const SHARDS: &str = "devices";

/// The shard folders of a folder-based run spread over `n` devices: `out/devices/K-of-N`, each
/// a complete shard folder that resumes as any does, merged into `out` afterwards. Folders of
/// a run on a different number of devices are refused: their shards are another partition,
/// and merging them with these would count programs twice or not at all.
pub fn shard_folders(out: &Path, n: usize) -> Result<Vec<PathBuf>, String> {
    let root = out.join(SHARDS);
    let suffix = format!("-of-{n}");
    if let Ok(entries) = std::fs::read_dir(&root) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.ends_with(&suffix) {
                return Err(format!(
                    "{}: left by a run on another number of devices ({name}); this host has {n}. Resume it with `--adapter '#k' --shard K/N` per shard, or choose another --out",
                    root.display()
                ));
            }
        }
    }
    Ok((0..n).map(|k| root.join(format!("{k}{suffix}"))).collect())
}

/// Run `work(shard k/n, "#k")` for every `k < n`, each in its own thread, and return the
/// results in shard order. A shard whose device failed (its `work` returned an error or
/// panicked) is rerun, one after another, on the first device whose own shard succeeded; if
/// none did, the first error is returned. `work` for commands with resumable folders resumes
/// the failed shard's folder, so nothing it measured is lost.
pub fn spread<T, E>(
    n: usize,
    quiet: bool,
    work: impl Fn(Shard, &str) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E>
where
    T: Send,
    E: Display + Send + From<crate::gpu::GpuError>,
{
    let n32 = u32::try_from(n.max(1)).unwrap_or(u32::MAX);
    let shard = |k: u32| Shard { k, n: n32 };
    let work = &work;
    let mut results: Vec<Result<T, E>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..n32)
            .map(|k| s.spawn(move || work(shard(k), &format!("#{k}"))))
            .collect();
        handles
            .into_iter()
            .enumerate()
            .map(|(k, h)| {
                h.join().unwrap_or_else(|_| {
                    Err(
                        crate::gpu::GpuError::Device(format!("device #{k}'s thread panicked"))
                            .into(),
                    )
                })
            })
            .collect()
    });
    let working = results.iter().position(Result::is_ok);
    for (k, r) in results.iter_mut().enumerate() {
        if let (Err(e), Some(d)) = (&*r, working) {
            if !quiet {
                eprintln!("dxdiff: device #{k} failed ({e}); its shard runs on #{d}");
            }
            let k = u32::try_from(k).unwrap_or(u32::MAX);
            *r = crate::parallel::caught(|| work(shard(k), &format!("#{d}"))).unwrap_or_else(
                |why| {
                    Err(crate::gpu::GpuError::Device(format!("device #{d} panicked: {why}")).into())
                },
            );
        }
    }
    results.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::GpuError;

    #[test]
    fn every_shard_runs_once_on_its_own_device_in_order() {
        let got = spread(3, true, |s, dev| {
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
        let got = spread(3, true, |s, dev| {
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
        let got = spread(2, true, |s, dev| {
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
        assert_eq!(got[1], dir.join("devices").join("1-of-2"));
        std::fs::create_dir_all(&got[0]).expect("create");
        assert_eq!(shard_folders(&dir, 2).expect("same partition"), got);
        let why = shard_folders(&dir, 3).expect_err("another partition");
        assert!(why.contains("0-of-2"), "{why}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn when_no_device_works_the_error_comes_back() {
        let r = spread(2, true, |_, dev| {
            Err::<(), _>(GpuError::Device(format!("{dev} lost")))
        });
        assert!(r.expect_err("nothing ran").to_string().contains("#0 lost"));
    }
}

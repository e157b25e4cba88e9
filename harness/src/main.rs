//! `dxdiff`: the command-line front end ([`harness::cli`]). Every command exits 0 on success and
//! 2 on malformed input or a usage error, with a message naming the offset; no input makes it
//! panic.

/// mimalloc serves the process's Rust allocations. A translation is thousands of small,
/// short-lived allocations (naga's arenas growing, names, operand lists); mimalloc's
/// thread-local free lists make the built-in translator's lowering about 1.2× faster than
/// glibc's malloc (tuned as below) on the shared corpus (docs/translator.md, Throughput).
/// Freed memory stays with the process for a second before it is returned, so a batch-sized
/// buffer allocated again per chunk does not fault its pages in each time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    keep_freed_memory();
    harness::cli::main()
}

/// glibc's malloc still serves the C libraries in the process (the Vulkan driver,
/// libvkd3d-shader). It serves every allocation over 128 KiB (or its dynamic threshold) with a fresh `mmap`
/// and returns it on free, so a run that allocates one batch-sized buffer per chunk (sweep's
/// 2^20 inputs, a verify batch) takes a page fault and a zeroed page per 4 KiB touched, every
/// time: a quarter of a sweep's time went there. Serving them from the heap, and keeping what
/// is freed for the next batch, removes that; the heap stays bounded by the largest batches
/// alive at once.
#[allow(unsafe_code)]
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use nix::libc::{M_MMAP_THRESHOLD, M_TRIM_THRESHOLD, mallopt};
        const ONE_GIB: i32 = 1 << 30;
        // SAFETY: mallopt only sets glibc's tuning parameters; it is called before any thread
        // starts, and a refused value (0 returned) leaves glibc's defaults, which are correct.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, ONE_GIB / 2);
            mallopt(M_TRIM_THRESHOLD, ONE_GIB);
        }
    }
}

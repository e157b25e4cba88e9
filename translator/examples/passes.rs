//! Exactly N passes of the bench's `translation` part (decoding and lowering to naga IR, then
//! dropping both) over every program under the given folders that the built-in translator
//! lowers, one program after another as the bench's typical pass runs them. Made to be counted
//! rather than timed: under callgrind, the instructions of `N` passes less those of `M` passes,
//! divided by `N - M`, are the instructions of one pass to the unit, the start-up cancelled,
//! the same on every run of a binary (docs/corpus.md, "instructions counted exactly").
//!
//! ```sh
//! cargo build --release -p translator --example passes
//! for n in 20 60; do
//!   valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/passes $n ../shared/corpus/peer ../shared/corpus/sdk 2>&1 |
//!     grep Collected
//! done
//! ```
//!
//! Without valgrind it prints each pass's median time, a rough figure beside `dxdiff bench`.

use std::path::PathBuf;
use std::time::Instant;

#[path = "common/programs.rs"]
mod programs;
use programs::{blob, collect};

use translator::{Profile, lower};

/// The allocator the `dxdiff` binary uses (harness/src/main.rs), so the count is the one
/// `dxdiff bench` runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let passes: Option<usize> = args.next().and_then(|n| n.parse().ok());
    let roots: Vec<PathBuf> = args.map(PathBuf::from).collect();
    let (Some(passes), false) = (passes, roots.is_empty()) else {
        eprintln!("usage: passes N PATH...");
        std::process::exit(2);
    };
    let profile = Profile::Contract;
    let mut files = Vec::new();
    for root in &roots {
        collect(root, &mut files);
    }
    let blobs: Vec<Vec<u8>> = files
        .iter()
        .filter_map(|p| blob(p))
        .filter(|b| {
            dxbc::Shader::parse(b)
                .ok()
                .is_some_and(|s| lower(&s, profile).is_ok())
        })
        .collect();
    let mut times = Vec::with_capacity(passes);
    for _ in 0..passes {
        let start = Instant::now();
        for b in &blobs {
            if let Ok(s) = dxbc::Shader::parse(b) {
                std::hint::black_box(lower(&s, profile).ok());
            }
        }
        times.push(start.elapsed().as_secs_f64() * 1e6);
    }
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    println!(
        "{} programs, {passes} passes, median {median:.1} µs a pass",
        blobs.len()
    );
}

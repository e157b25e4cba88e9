//! dxdiff's end-to-end tests, in one test binary (`tests/e2e`), over the CLI as users run it.
//!
//! | module | what it holds |
//! | --- | --- |
//! | `support` | the `dxdiff()` command, the project root, scratch folders, the shared corpora, planting a bug, the GPU replay, a turn lock for GPU-heavy tests |
//! | `cli` | exit codes and no panic on any bytes |
//! | `catalog` | `dxdiff catalog` |
//! | `replay` | case files on the interpreter and the GPU, ground truth from real drivers, inconclusive runs |
//! | `verify` | the main job, planted bugs, case files and corpus programs |
//! | `corpus` | qualification records, baselines, transitions, JUnit, bench |
//! | `fuzz` | planted bugs found and shrunk, resumption, opcode coverage |
//! | `external` | `cmd:` translators (the example adapter, crashes, hangs, garbage) and vkd3d |
//! | `gpu_compute`, `lavapipe_loop_limit` | the GPU executor against the interpreter, a driver defect's reproducer |
//!
//! There is no fixture folder of its own: the tests read the project's examples
//! (`examples/cases/`, `examples/shaders/`, the minimized divergences in `docs/vkd3d*/`), the
//! shared corpora in `../shared/corpus/` when they are beside the project, and programs they
//! assemble and case files they write into scratch folders. Per-crate unit and snapshot tests
//! stay in their crates.

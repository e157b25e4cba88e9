#!/bin/sh
# The profile-guided release build of dxdiff (docs/corpus.md, "The profile-guided build").
#
#   deploy/pgo/build.sh [OUT]     # OUT defaults to target/pgo; the binary is OUT/dxdiff
#
# 1. builds dxdiff with `dxbc`, `translator` and `naga` instrumented (deploy/pgo/rustc);
# 2. trains it with `dxdiff bench --translator builtin --generated N` over programs dxdiff
#    makes itself (verify's built-in programs and fuzz's random ones), never a corpus, so the
#    profile has not seen the programs a corpus bench measures;
# 3. merges the profile with llvm-profdata from the toolchain's own `llvm-tools` (the profile
#    format follows rustc's LLVM, so a system llvm-profdata of another version cannot read it);
# 4. builds dxdiff again with the profile applied to the same crates, compiled for x86-64-v3
#    (AVX2, BMI2, FMA, LZCNT, MOVBE) where the build host has it: translation 2-3 % faster
#    (docs/corpus.md). DXDIFF_PGO_CPU names another level (`x86-64` for any x86-64 CPU); the
#    training build is always generic, so it runs on any build host.
# It needs no GPU. Both builds share OUT/build, so the dependencies are compiled once.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/target/pgo}
mkdir -p "$out"
out=$(cd "$out" && pwd)
programs=${DXDIFF_PGO_PROGRAMS:-3000}
host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    echo "pgo: $profdata is missing; install it with: rustup component add llvm-tools" >&2
    exit 2
fi
# The CPU level of the profile-guided build: x86-64-v3 when this host has every feature of it
# (so the binary runs where it was built), else the generic level; none off x86-64.
cpu=${DXDIFF_PGO_CPU-}
case $host in
x86_64-*)
    if [ -z "$cpu" ]; then
        cpu=x86-64-v3
        native=$(rustc --print cfg -C target-cpu=native)
        for f in avx2 bmi1 bmi2 f16c fma lzcnt movbe; do
            case $native in
            *"target_feature=\"$f\""*) ;;
            *) cpu=x86-64 ;;
            esac
        done
    fi
    ;;
*) cpu= ;;
esac
echo "pgo: the profile-guided build targets ${cpu:-the default CPU}" >&2
build() { # FLAGS
    # The flags are not in cargo's fingerprint: the crates that take them are rebuilt.
    cd "$root"
    cargo clean --release --target-dir "$out/build" -p dxbc -p translator -p naga -p harness \
        >/dev/null 2>&1 || true
    DXDIFF_PGO_FLAGS="$1" RUSTC_WRAPPER="$root/deploy/pgo/rustc" \
        cargo build --release --locked -p harness --bin dxdiff --target-dir "$out/build"
}
rm -rf "$out/raw"
build "-Cprofile-generate=$out/raw"
echo "pgo: training on $programs generated programs" >&2
NODEVICE_SELECT=1 "$out/build/release/dxdiff" bench --translator builtin \
    --generated "$programs" --seconds 2 --warm-runs 3 >"$out/training.md"
"$profdata" merge -o "$out/dxdiff.profdata" "$out/raw"
build "-Cprofile-use=$out/dxdiff.profdata${cpu:+ -Ctarget-cpu=$cpu}"
cp "$out/build/release/dxdiff" "$out/dxdiff"
echo "pgo: $out/dxdiff" >&2

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
# 4. builds dxdiff again with the profile applied to the same crates.
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
build "-Cprofile-use=$out/dxdiff.profdata"
cp "$out/build/release/dxdiff" "$out/dxdiff"
echo "pgo: $out/dxdiff" >&2

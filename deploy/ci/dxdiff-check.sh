#!/bin/sh
# dxdiff in a translator's CI: run the translator through `dxdiff verify` on a fixed seed and
# compare the run with the baseline run committed in the repository (`dxdiff diff`); fail only
# on a regression (a divergence the change introduced, or a new translator crash), never on a
# divergence the baseline already had. docs/ci.md says how to adopt it.
#
#   dxdiff-check.sh          check the change against the baseline
#   dxdiff-check.sh update   write a new baseline (commit the folder afterwards)
#
# Settings (environment):
#   DXDIFF_TRANSLATOR  the translator, as `--translator` takes it (required):
#                      'serve:./target/release/my-translator --serve', 'cmd:node translate.js'
#   DXDIFF_BUILD       a command that builds the translator first (optional)
#   DXDIFF_BASELINE    the committed baseline folder (default: dxdiff-baseline)
#   DXDIFF_OUT         where this run goes (default: dxdiff-out)
#   DXDIFF_SEED        the seed both runs use (default: 1)
#   DXDIFF_CASES       input vectors per built-in program (default: 256)
#   DXDIFF_ARGS        further `verify` arguments both runs take (`--corpus tests/shaders`)
#   DXDIFF_CONTRACT    1: also hold `dxdiff contract` to its baseline (a seed entry verified in
#                      the baseline and violated now is a regression; docs/contract.md)
#   DXDIFF_CONTRACT_ARGS further `contract` arguments both runs take (`--entry adapted/precise`)
#   DXDIFF             a dxdiff binary to use; without it, dxdiff is installed from
#                      DXDIFF_REPO at DXDIFF_REV (a pinned commit) with cargo
#   DXDIFF_REPO, DXDIFF_REV
#
# Exit: 0 no regression (or the baseline was written), 1 a regression, 2 a setup error.
set -eu

mode=${1:-check}
baseline=${DXDIFF_BASELINE:-dxdiff-baseline}
out=${DXDIFF_OUT:-dxdiff-out}
seed=${DXDIFF_SEED:-1}
cases=${DXDIFF_CASES:-256}
args=${DXDIFF_ARGS:-}
with_contract=${DXDIFF_CONTRACT:-0}
contract_args=${DXDIFF_CONTRACT_ARGS:-}

fail() {
    echo "dxdiff-check: $*" >&2
    exit 2
}

[ -n "${DXDIFF_TRANSLATOR:-}" ] || fail "set DXDIFF_TRANSLATOR to the translator (--translator syntax)"
case "$mode" in
    check | update) ;;
    *) fail "unknown mode '$mode' (check or update)" ;;
esac

if [ -z "${DXDIFF:-}" ]; then
    if [ -z "${DXDIFF_REPO:-}" ] || [ -z "${DXDIFF_REV:-}" ]; then
        fail "set DXDIFF to a dxdiff binary, or DXDIFF_REPO and DXDIFF_REV to install one"
    fi
    cargo install --locked --git "$DXDIFF_REPO" --rev "$DXDIFF_REV" --root .dxdiff harness ||
        fail "cannot install dxdiff from $DXDIFF_REPO at $DXDIFF_REV"
    DXDIFF=$PWD/.dxdiff/bin/dxdiff
fi
[ -x "$DXDIFF" ] || fail "$DXDIFF is not an executable"

if [ -n "${DXDIFF_BUILD:-}" ]; then
    sh -c "$DXDIFF_BUILD" || fail "the translator's build failed: $DXDIFF_BUILD"
fi

# One verify run into a folder; a mismatch (exit 1) is data, anything else is a setup error.
verify() {
    # shellcheck disable=SC2086 # DXDIFF_ARGS is a list of arguments
    NODEVICE_SELECT=1 "$DXDIFF" verify -q --seed "$seed" --cases "$cases" \
        --translator "$DXDIFF_TRANSLATOR" --out "$1" $args && code=0 || code=$?
    [ "$code" -le 1 ] || fail "dxdiff verify exited $code (docs/case-format.md)"
}

# One contract run into the folder `$1`, with any further arguments (`--baseline FILE`); exit 1
# (a violated entry, or a regression against the baseline) is data, anything else is a setup
# error.
contract() {
    dir=$1
    shift
    # shellcheck disable=SC2086 # DXDIFF_CONTRACT_ARGS is a list of arguments
    NODEVICE_SELECT=1 "$DXDIFF" contract -q --seed "$seed" \
        --translator "$DXDIFF_TRANSLATOR" --out "$dir" "$@" $contract_args && ccode=0 || ccode=$?
    [ "$ccode" -le 1 ] || fail "dxdiff contract exited $ccode (docs/case-format.md)"
}

if [ "$mode" = update ]; then
    rm -rf "$baseline"
    verify "$baseline"
    if [ "$with_contract" = 1 ]; then
        contract "$baseline/contract"
        echo "dxdiff-check: contract baseline written to $baseline/contract (commit contract.json)"
    fi
    # Only the report is compared; the rest of the folder is for people.
    echo "dxdiff-check: baseline written to $baseline (commit $baseline/report.json)"
    exit 0
fi

[ -f "$baseline/report.json" ] || fail "no baseline at $baseline/report.json (run '$0 update' and commit it)"
rm -rf "$out"
verify "$out"
"$DXDIFF" diff "$baseline" "$out" && code=0 || code=$?
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/diff.md" ]; then
    cat "$out/diff.md" >>"$GITHUB_STEP_SUMMARY"
fi
[ "$code" -le 1 ] || fail "dxdiff diff exited $code"
if [ "$with_contract" = 1 ]; then
    [ -f "$baseline/contract/contract.json" ] ||
        fail "no contract baseline at $baseline/contract/contract.json (run '$0 update' with DXDIFF_CONTRACT=1)"
    contract "$out/contract" --baseline "$baseline/contract/contract.json"
    [ "$ccode" -eq 0 ] || code=1
fi
exit "$code"

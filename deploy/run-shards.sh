#!/bin/sh
# Run a dxdiff command as N shards on this machine, one after another, then merge them: the
# same commands the Kubernetes, Slurm and GitHub Actions recipes run, one shard per node.
#   deploy/run-shards.sh N OUT verify --cases 10000
#   deploy/run-shards.sh N OUT fuzz --time 5m --profile exact
# Shard K writes OUT/shard-K; the merge writes OUT/merged. Corpus runs take a file:
#   deploy/run-shards.sh N OUT corpus path/to/programs
set -eu

if [ "$#" -lt 3 ]; then
    echo "usage: $0 N OUT verify|fuzz|corpus [ARGS...]" >&2
    exit 2
fi
n=$1
out=$2
command=$3
shift 3
dxdiff=${DXDIFF:-dxdiff}
mkdir -p "$out"

k=0
parts=""
while [ "$k" -lt "$n" ]; do
    case "$command" in
        corpus)
            part="$out/shard-$k.json"
            "$dxdiff" corpus "$@" --shard "$k/$n" --out "$part" >/dev/null
            ;;
        verify | fuzz)
            part="$out/shard-$k"
            # Exit 1 means the shard found a mismatch: a result, not a failure of the run.
            "$dxdiff" "$command" "$@" -q --shard "$k/$n" --out "$part" >/dev/null || [ "$?" -eq 1 ]
            ;;
        *)
            echo "$0: $command cannot be sharded (verify, fuzz or corpus)" >&2
            exit 2
            ;;
    esac
    parts="$parts $part"
    k=$((k + 1))
done

case "$command" in
    corpus) merged="$out/merged.json" ;;
    *) merged="$out/merged" ;;
esac
# The parts are plain paths made above (no spaces in OUT), split on purpose.
# shellcheck disable=SC2086
"$dxdiff" merge $parts --out "$merged"

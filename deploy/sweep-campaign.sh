#!/bin/sh
# Every 32-bit input of every op issue 18 names, in the profiles given, resumable and bounded
# in time: what the H200 campaign of docs/sweeps.md ran.
#   deploy/sweep-campaign.sh OUT [PROFILE...]        (default: exact contract)
# Each (profile, op group) is one sweep folder under OUT; a folder that exists resumes where
# it stopped. DEADLINE (seconds, default: none) stops the campaign in time to keep what it
# measured: the sweep running then is interrupted and resumes on the next call. JOBS (default
# 16) is the workers per device; a folder resumes only with the JOBS it started with.
# SWEEP_GROUPS (default "first rest") picks the op groups: "first" is rcp rsq sqrt, "rest"
# the other 28.
set -u

if [ "$#" -lt 1 ]; then
    echo "usage: $0 OUT [PROFILE...]" >&2
    exit 2
fi
out=$1
shift
[ "$#" -eq 0 ] && set -- exact contract
dxdiff=${DXDIFF:-dxdiff}
jobs=${JOBS:-16}
deadline=${DEADLINE:-0}
start=$(date +%s)
mkdir -p "$out"

# rcp, rsq and sqrt first: on a GPU whose results differ within their bands, they are the
# slowest (every differing input is judged alone).
first="rcp rsq sqrt"
rest="exp log frc round_ne round_ni round_pi round_z ftoi ftou itof utof f16tof32 f32tof16 countbits firstbit_hi firstbit_lo firstbit_shi bfrev ineg not mov mov:neg mov:abs mov:negabs mov_sat mov_sat:neg mov_sat:abs mov_sat:negabs"

status=0
for profile in "$@"; do
    for group in ${SWEEP_GROUPS:-first rest}; do
        case "$group" in
            first) ops=$first ;;
            rest) ops=$rest ;;
            *)
                echo "unknown group $group (first or rest)" >&2
                exit 2
                ;;
        esac
        limit=""
        if [ "$deadline" -gt 0 ]; then
            left=$((deadline - ($(date +%s) - start)))
            if [ "$left" -le 5 ]; then
                echo "deadline reached before $profile/$group" >&2
                exit 3
            fi
            limit="timeout -s INT $left"
        fi
        # shellcheck disable=SC2086 # the ops and the timeout prefix are word lists
        $limit "$dxdiff" sweep $ops --profile "$profile" --jobs "$jobs" -q \
            --out "$out/$profile-$group" >"$out/$profile-$group.txt" 2>&1
        code=$?
        echo "$profile-$group: exit $code: $(tail -n 1 "$out/$profile-$group.txt")"
        [ "$code" -ne 0 ] && status=$code
    done
done
exit "$status"

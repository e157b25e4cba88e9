#!/bin/sh
# An external translator for `dxdiff --translator cmd:...` that wraps the built-in one.
#
# The protocol (docs/translators.md): a DXBC container arrives on stdin; print one JSON
# document on stdout, either
#   {"status": "ok", "wgsl": "...", "manifest": {...}, "adaptations": ["catalog-id", ...]}
# or
#   {"status": "rejected", "reason": "...", "catalog_id": "...", "instruction": 12}
# and exit 0. Anything else (a non-zero exit, no answer within the timeout, other output) is
# recorded as a translator crash, with stderr.
#
# Use:  dxdiff verify --translator "cmd:sh examples/translators/builtin.sh"
# DXDIFF names the dxdiff binary (default: dxdiff on PATH); DXDIFF_PROFILE the profile.
set -eu
blob=$(mktemp)
trap 'rm -f "$blob"' EXIT
cat >"$blob"
exec "${DXDIFF:-dxdiff}" translate --json --profile "${DXDIFF_PROFILE:-contract}" "$blob"

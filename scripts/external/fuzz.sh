#!/usr/bin/env bash
# The hostile-input stage of CI: the parsers' property tests with their case
# counts shown, then random protocol sessions (UCI, USI, UAI, GTP: valid commands, mutated and
# garbage lines) against the release binary for a fixed time and seed; fails on any abort, hang
# or malformed answer, leaving reproducers in target/fuzz.
#
#   scripts/external/fuzz.sh                      # 180 s of sessions, seed 1
#   FUZZ_SECONDS=30 FUZZ_SEED=7 scripts/external/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

SECONDS_BUDGET=${FUZZ_SECONDS:-180}
SEED=${FUZZ_SEED:-1}

echo "== property tests of the parsers (cases per property from a fixed seed)"
# --nocapture shows the counts each property prints; the fast stage ran the same tests quietly.
mkdir -p target
if ! cargo test -q --test parsers_prop -- --nocapture >target/parsers_prop.log 2>&1; then
    tail -n 80 target/parsers_prop.log
    exit 1
fi
grep -oE 'parsers_prop: .*|test result: .*' target/parsers_prop.log

cargo build --release -q
GPN="${CARGO_TARGET_DIR:-target}/release/gpn"
echo "== random protocol sessions against $GPN, ${SECONDS_BUDGET} s, seed $SEED"
python3 scripts/external/fuzz_protocol.py "$GPN" --seconds "$SECONDS_BUDGET" --seed "$SEED" \
    --out "${GPN_EXT_OUT:-target/ext}/fuzz"

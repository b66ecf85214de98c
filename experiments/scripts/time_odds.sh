#!/usr/bin/env bash
# Does more time still help when the tree fills Hash many times per move? The same engine with
# 4x the time against itself (gpn match --odds 4), in a Hash small enough to be recycled several
# times per move, and the same pairing in a large Hash. Resumable: the games run in chunks of
# 20 (one seed each); a chunk whose JSON exists is skipped.
# Writes experiments/data/odds/<game>-hash<H>-<ms>ms-s<seed>.json.
# AGENT="default " plays the game's defaults row (written ...-default-hash<H>-...) instead of the
# generic sb-gpn.
# Usage: experiments/scripts/time_odds.sh [movetime_ms] [chunks] [concurrency] [game:hash ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
ms=${1:-100}
chunks=${2:-10}
conc=${3:-2}
shift $(( $# < 3 ? $# : 3 ))
cells=("$@")
if [ ${#cells[@]} -eq 0 ]; then
  cells=(cfour:4 breakthrough:4 reversi:1 cfour:1024 breakthrough:1024 reversi:1024)
fi
cargo build --release -q
out=experiments/data/odds
mkdir -p "$out"
for cell in "${cells[@]}"; do
  game=${cell%%:*}
  hash=${cell#*:}
  for seed in $(seq 1 "$chunks"); do
    tag=${AGENT:+${AGENT%% *}-}
    file="$out/$game-${tag}hash$hash-${ms}ms-s$seed.json"
    [ -s "$file" ] && continue
    echo "=== $game hash $hash: 4x ${ms} ms vs ${ms} ms, 20 games, seed $seed"
    ./target/release/gpn match "$game" --engine1 "${AGENT:-}hash=$hash" --engine2 "${AGENT:-}hash=$hash" \
      --odds 4 --games 20 --movetime "$ms" --concurrency "$conc" --openings 2 \
      --seed "$seed" --quiet --json "$file.tmp" | grep -E "^(A|score|elo)" || true
    mv "$file.tmp" "$file"
  done
done

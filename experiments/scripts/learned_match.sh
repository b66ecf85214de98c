#!/usr/bin/env bash
# The learned networks' strength measurement: the game's defaults row with a network against the same row
# without one, at equal time per move, colours swapped per pair, 2 random opening plies.
# Resumable: a rerun continues the games file. Results in experiments/data/learned/.
#
#   experiments/scripts/learned_match.sh GAME NETWORK MOVETIME_MS [GAMES] [CONCURRENCY]
#   experiments/scripts/learned_match.sh breakthrough nets/breakthrough.gpnn 50
set -euo pipefail
cd "$(dirname "$0")/../.."
game=$1 net=$2 ms=$3 games=${4:-200} concurrency=${5:-2}
out=experiments/data/learned/$game-$(basename "$net" .gpnn)-vs-default-${ms}ms
mkdir -p "$(dirname "$out")"
echo "# $(date -u +%FT%TZ) $0 $*" >&2
/usr/bin/time -f "wall %e s, CPU %U+%S s, peak %M KB" \
    target/release/gpn match "$game" --engine1 "default network=$net" --engine2 "default network=none" \
    --games "$games" --movetime "$ms" --concurrency "$concurrency" --openings 2 \
    --games-format jsonl --games-file "$out.jsonl" --resume --json "$out.json"

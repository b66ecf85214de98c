#!/usr/bin/env bash
# Experiment (b) of the GPN paper: sb-gpn with C_pn in {0, 0.1, 0.5, 1, 2, 5} against sb-uct, for
# two games, at a fixed iteration budget per move close to the paper's Ludii iteration counts.
# Seats swapped, 2 random opening plies per pair. Writes experiments/data/cpn-<game>-<c>.json;
# experiments/scripts/cpn_chart.py turns them into experiments/cpn-sweep.svg.
# Usage: experiments/scripts/cpn_sweep.sh [iterations] [games] [concurrency] [game:bias ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
iters=${1:-2000}
games=${2:-200}
conc=${3:-1}
shift $(( $# < 3 ? $# : 3 ))
pairs=("$@")
[ ${#pairs[@]} -gt 0 ] || pairs=("breakthrough:rank" "loa7:rank")
cargo build --release -q
out=experiments/data
mkdir -p "$out"
for pair in "${pairs[@]}"; do
  game=${pair%%:*}
  bias=${pair#*:}
  for c in 0 0.1 0.5 1 2 5; do
    echo "=== $game: sb-gpn bias=$bias c_pn=$c vs sb-uct, $iters iterations/move, $games games"
    ./target/release/gpn match "$game" --engine1 "sb-gpn bias=$bias c_pn=$c" --engine2 "sb-uct" \
      --games "$games" --iterations "$iters" --concurrency "$conc" --openings 2 --seed 1 --quiet \
      --json "$out/cpn-$game-$c.json"
  done
done

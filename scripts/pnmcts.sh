#!/usr/bin/env bash
# PN-MCTS against UCT (the PN-MCTS paper's Tables II and IV): the FSU variant on LOA 7x7 and
# Awari, and the double layer with contempt 0.2 on Awari. 200 games each, seats swapped.
# Usage: scripts/pnmcts.sh [loa7_ms] [awari_ms]
set -euo pipefail
cd "$(dirname "$0")/.."
loa_ms=${1:-100}
awari_ms=${2:-50}
cargo build --release -q
out=docs/experiments/data
mkdir -p "$out"
run() { # game ms name spec
  echo "=== $1: $4 vs uct, $2 ms/move, 200 games"
  ./target/release/gpn match "$1" --engine1 "$4" --engine2 uct --games 200 --movetime "$2" \
    --concurrency 2 --openings 2 --seed 1 --quiet --json "$out/pnmcts-$3.json"
}
run loa7 "$loa_ms" loa7-fsu "pn-mcts pn_flags=FSU solver_visits=5"
run awari "$awari_ms" awari-fsu "pn-mcts pn_flags=FSU solver_visits=5"
run awari "$awari_ms" awari-l2 "pn-mcts pn_flags=FSU solver_visits=5 draw_layer=true contempt=0.2"

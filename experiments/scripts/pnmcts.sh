#!/usr/bin/env bash
# PN-MCTS against UCT (the PN-MCTS paper's Tables II and IV): the FSU variant on LOA 7x7 and
# Awari, and the double layer with contempt 0.2 on Awari. Seats swapped, 2 random opening plies
# per pair. Writes $OUT/pnmcts-<name>-<budget>.json (OUT defaults to experiments/data).
# Resumable: a pairing whose JSON exists is skipped.
# Usage: experiments/scripts/pnmcts.sh [loa7 budget] [awari budget] [games]
#   a budget is a number of ms (100, 100ms) or of iterations (1000it)
set -euo pipefail
cd "$(dirname "$0")/../.."
loa_budget=${1:-100}
awari_budget=${2:-50}
games=${3:-200}
cargo build --release -q
out=${OUT:-experiments/data}
mkdir -p "$out"
run() { # game budget name spec
  local budget=$2 flag
  [[ $budget =~ ^[0-9]+$ ]] && budget="${budget}ms"
  case $budget in
    *it) flag=(--iterations "${budget%it}") ;;
    *ms) flag=(--movetime "${budget%ms}") ;;
    *) echo "budget must be a number of ms, or end in ms or it" >&2; exit 2 ;;
  esac
  local file="$out/pnmcts-$3-$budget.json"
  [ -s "$file" ] && return
  echo "=== $1: $4 vs uct, $budget per move, $games games ($(date +%H:%M))"
  ./target/release/gpn match "$1" --engine1 "$4" --engine2 uct --games "$games" "${flag[@]}" \
    --concurrency 2 --openings 2 --seed 1 --quiet --json "$file.tmp" | grep -E "^score" || true
  mv "$file.tmp" "$file"
}
run loa7 "$loa_budget" loa7-fsu "pn-mcts pn_flags=FSU solver_visits=5"
run awari "$awari_budget" awari-fsu "pn-mcts pn_flags=FSU solver_visits=5"
run awari "$awari_budget" awari-l2 "pn-mcts pn_flags=FSU solver_visits=5 draw_layer=true contempt=0.2"

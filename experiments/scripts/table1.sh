#!/usr/bin/env bash
# The GPN paper's Table 1 on every game gpn has: sb-gpn (the paper's best bias and C_pn for the
# game, score-bounded row) against sb-uct, equal time per move, seats swapped, 2 random opening
# plies per pair. Writes $OUT/table1-<game>-<budget>.json (OUT defaults to experiments/data)
# and prints the scores. Resumable: a game whose JSON exists is skipped.
# ENGINE2 replaces the opponent (default sb-uct; e.g. ENGINE2="sb-uct clip=false", Ludii's).
# Usage: [GPN=binary] [OUT=dir] [ENGINE2=agent] experiments/scripts/table1.sh [budget: 100 | 100ms | 2000it] [games] [concurrency] [game ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
budget=${1:-100}
[[ $budget =~ ^[0-9]+$ ]] && budget="${budget}ms"
case $budget in
  *it) flag=(--iterations "${budget%it}") ;;
  *ms) flag=(--movetime "${budget%ms}") ;;
  *) echo "budget must be a number of ms, or end in ms or it" >&2; exit 2 ;;
esac
games=${2:-200}
conc=${3:-2}
shift $(( $# < 3 ? $# : 3 ))
# GPN=path/to/gpn uses that binary instead of building one.
gpn=${GPN:-}
if [ -z "$gpn" ]; then
  cargo build --release -q
  gpn=./target/release/gpn
fi
out=${OUT:-experiments/data}
mkdir -p "$out"
# game | sb-gpn options (the paper's best SB row: bias, C_pn)
specs=(
  "loa7|bias=rank c_pn=2"
  "loa|bias=rank c_pn=1"
  "awari|bias=sum c_pn=1"
  "minishogi|bias=rank c_pn=0.5"
  "reversi|bias=sum c_pn=2"
  "breakthrough|bias=rank c_pn=1"
  "cfour|bias=rank c_pn=0.1"
  "ataxx|bias=max c_pn=0.5"
  "knightthrough|bias=max c_pn=2"
  "losalamos|bias=rank c_pn=1"
  "losalamos-ludii|bias=rank c_pn=1"
  "reachchess|bias=rank c_pn=2"
  "skirmish|bias=max c_pn=0.5"
  "surakarta|bias=max c_pn=0.5"
)
for spec in "${specs[@]}"; do
  game=${spec%%|*}
  opts=${spec#*|}
  if [ $# -gt 0 ] && [[ ! " $* " =~ " $game " ]]; then continue; fi
  file="$out/table1-$game-$budget.json"
  [ -s "$file" ] && continue
  echo "=== $game: sb-gpn $opts vs ${ENGINE2:-sb-uct}, $budget per move, $games games ($(date +%H:%M))"
  "$gpn" match "$game" --engine1 "sb-gpn $opts" --engine2 "${ENGINE2:-sb-uct}" \
    --games "$games" "${flag[@]}" --concurrency "$conc" --openings 2 --seed 1 --quiet \
    --json "$file.tmp" | grep -E "^score" || true
  mv "$file.tmp" "$file"
done

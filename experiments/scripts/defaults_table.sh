#!/usr/bin/env bash
# The per-game defaults table (`default`, src/search/defaults.rs) against sb-uct,
# per game, at one budget. Resumable: a game whose JSON exists is skipped. Writes
# experiments/data/defaults/<game>-table-<budget>.json (the report's engine label holds the
# row that played).
# Usage: experiments/scripts/defaults_table.sh <budget: 2000it | 100ms | 1000ms> [games] [concurrency] [game ...]
# BASELINE replaces the opponent (sb-uct), LABEL the file's "table" part. CHUNK=k plays the games
# in matches of k games (seeds 1, 2, ...), each saved as <file>.part<seed>.json as it ends, and
# merges them when all are done: a long cell survives an interrupted session. ENGINE replaces
# engine 1 (`default`, e.g. "default threads=2"), OUT the data folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
budget=${1:?budget: e.g. 2000it or 100ms}
games=${2:-200}
conc=${3:-2}
shift $(( $# < 3 ? $# : 3 ))
list=("$@")
if [ ${#list[@]} -eq 0 ]; then
  list=(breakthrough knightthrough minishogi losalamos ataxx loa7 cfour reversi loa awari kalah
        surakarta reachchess skirmish breakthrough6x6 breakthrough7x7 gomoku gomokufreestyle)
fi
case $budget in
  *it) flag=(--iterations "${budget%it}") ;;
  *ms) flag=(--movetime "${budget%ms}") ;;
  *) echo "budget must end in it or ms" >&2; exit 2 ;;
esac
cargo build --release -q
out=${OUT:-experiments/data/defaults}
mkdir -p "$out"
for game in "${list[@]}"; do
  file="$out/$game-${LABEL:-table}-$budget.json"
  [ -s "$file" ] && continue
  echo "=== $game: ${ENGINE:-default} vs ${BASELINE:-sb-uct}, $budget per move, $games games ($(date +%H:%M))"
  chunk=${CHUNK:-$games}
  parts=()
  for ((seed = 1; (seed - 1) * chunk < games; seed++)); do
    n=$(( games - (seed - 1) * chunk < chunk ? games - (seed - 1) * chunk : chunk ))
    part="$file"
    [ "$chunk" -lt "$games" ] && part="${file%.json}.part$seed.json"
    parts+=("$part")
    [ -s "$part" ] && continue
    ./target/release/gpn match "$game" --engine1 "${ENGINE:-default}" --engine2 "${BASELINE:-sb-uct}" \
      --games "$n" "${flag[@]}" --concurrency "$conc" --openings 2 --seed "$seed" --quiet \
      --json "$part.tmp" | grep -E "^score" || true
    mv "$part.tmp" "$part"
  done
  if [ "$chunk" -lt "$games" ]; then
    python3 experiments/scripts/merge_matches.py "${parts[@]}" > "$file.tmp" && mv "$file.tmp" "$file"
  fi
done

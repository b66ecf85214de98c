#!/usr/bin/env bash
# Per-game defaults, first screen: the current default search (sb-gpn, rank bias, C_pn 1,
# constant bias) and the same with the decaying bias (pn_decay=10) against sb-uct, per game, at
# a fixed number of iterations per move (machine-independent). Resumable: a cell whose JSON
# exists is skipped. Writes experiments/data/defaults/<game>-<label>-<iters>it.json.
# BASELINE replaces the opponent (sb-uct).
# Usage: experiments/scripts/defaults_screen.sh [iterations] [games] [concurrency] [game ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
iters=${1:-2000}
games=${2:-200}
conc=${3:-2}
shift $(( $# < 3 ? $# : 3 ))
list=("$@")
if [ ${#list[@]} -eq 0 ]; then
  # The six games where the constant bias failed most first, then the others.
  list=(knightthrough breakthrough minishogi losalamos ataxx loa7 cfour reversi loa awari kalah
        surakarta reachchess skirmish breakthrough6 breakthrough7 gomoku gomokufreestyle)
fi
cargo build --release -q
out=experiments/data/defaults
mkdir -p "$out"
# SPECS="label|spec;label|spec" replaces the two engines screened by default.
IFS=';' read -r -a specs <<< "${SPECS:-constant|sb-gpn;decay10|sb-gpn pn_decay=10}"
for game in "${list[@]}"; do
  for spec in "${specs[@]}"; do
    label=${spec%%|*}
    engine=${spec#*|}
    file="$out/$game-$label-${iters}it.json"
    [ -s "$file" ] && continue
    echo "=== $game: $engine vs sb-uct, $iters iterations/move, $games games"
    ./target/release/gpn match "$game" --engine1 "$engine" --engine2 "${BASELINE:-sb-uct}" --games "$games" \
      --iterations "$iters" --concurrency "$conc" --openings 2 --seed 1 --quiet \
      --json "$file.tmp" | grep -E "^score" || true
    mv "$file.tmp" "$file"
  done
done

#!/usr/bin/env bash
# Issue 7's new result: sb-gpn with implicit minimax and informed playouts against each parent,
# sb-gpn alone and sb-uct with the same knowledge, at equal time per move, seats swapped, 2 random
# opening plies per pair. Writes docs/experiments/data/combo-<game>-<parent>-<ms>ms.json.
# Usage: scripts/im_combo.sh [movetime_ms] [games] [concurrency] [game ...]
set -euo pipefail
cd "$(dirname "$0")/.."
ms=${1:-20}
games=${2:-200}
conc=${3:-1}
shift $(( $# < 3 ? $# : 3 ))
cargo build --release -q
gpn=${CARGO_TARGET_DIR:-target}/release/gpn
out=docs/experiments/data
mkdir -p "$out"
# game | sb-gpn settings (GPN paper's best SB cell where it has one) | knowledge
specs=(
  "breakthrough|bias=rank c_pn=1|policy=ipp im=0.4"
  "loa|bias=rank c_pn=1|policy=ipp im=0.2"
  "kalah|bias=rank c_pn=1|fet=4 im=0.5"
  "reversi|bias=sum c_pn=2|policy=ipp im=0.3"
  "losalamos|bias=rank c_pn=1|policy=ipp im=0.3"
)
for spec in "${specs[@]}"; do
  IFS='|' read -r game gpn_opts knowledge <<< "$spec"
  if [ $# -gt 0 ] && [[ ! " $* " =~ " $game " ]]; then continue; fi
  combo="sb-gpn $gpn_opts $knowledge"
  for parent in "sb-gpn $gpn_opts" "sb-uct $knowledge"; do
    tag=${parent%% *}
    echo "=== $game: $combo vs $parent, ${ms} ms/move, $games games"
    "$gpn" match "$game" --engine1 "$combo" --engine2 "$parent" --games "$games" \
      --movetime "$ms" --concurrency "$conc" --openings 2 --seed 1 --quiet \
      --json "$out/combo-$game-$tag-${ms}ms.json"
  done
done

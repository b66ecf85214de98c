#!/usr/bin/env bash
# The heuristics' result: sb-gpn with implicit minimax (and informed playouts where they help)
# against each parent, sb-gpn alone (same bias settings) and sb-uct with the same knowledge, at
# equal time per move, seats swapped, 2 random opening plies per pair.
# Writes experiments/data/combo[-v2]-<game>-<parent>-<ms>ms.json.
# Usage: [COMBO_SET=v1|v2] [SEED=n] experiments/scripts/im_combo.sh [movetime_ms] [games] [concurrency] [game ...]
#   v1: the first run, the papers' constant proof-number bias and each game's paper knowledge.
#   v2 (default): a decaying bias (pn_decay) where the constant one lost to sb-uct, and the
#       knowledge that helped sb-gpn in the screens of experiments/implicit-minimax.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
ms=${1:-20}
games=${2:-200}
conc=${3:-1}
shift $(( $# < 3 ? $# : 3 ))
set_name=${COMBO_SET:-v2}
seed=${SEED:-1}
cargo build --release -q
gpn=${CARGO_TARGET_DIR:-target}/release/gpn
out=experiments/data
mkdir -p "$out"
# game | sb-gpn settings | knowledge
case "$set_name" in
  v1)
    prefix=combo
    specs=(
      "breakthrough|bias=rank c_pn=1|policy=ipp im=0.4"
      "loa|bias=rank c_pn=1|policy=ipp im=0.2"
      "kalah|bias=rank c_pn=1|fet=4 im=0.5"
      "reversi|bias=sum c_pn=2|policy=ipp im=0.3"
      "losalamos|bias=rank c_pn=1|policy=ipp im=0.3"
    ) ;;
  v2)
    prefix=combo-v2
    specs=(
      "breakthrough|bias=rank c_pn=2 pn_decay=5|policy=ipp im=0.4"
      "loa|bias=rank c_pn=1|policy=ipp im=0.2"
      "kalah|bias=rank c_pn=1 pn_decay=10|fet=4 im=0.5"
      "reversi|bias=sum c_pn=2|im=0.3"
      "losalamos|bias=rank c_pn=1 pn_decay=10|im=0.3"
    ) ;;
  *) echo "COMBO_SET must be v1 or v2" >&2; exit 2 ;;
esac
for spec in "${specs[@]}"; do
  IFS='|' read -r game gpn_opts knowledge <<< "$spec"
  if [ $# -gt 0 ] && [[ ! " $* " =~ " $game " ]]; then continue; fi
  combo="sb-gpn $gpn_opts $knowledge"
  for parent in "sb-gpn $gpn_opts" "sb-uct $knowledge"; do
    tag=${parent%% *}
    echo "=== $game: $combo vs $parent, ${ms} ms/move, $games games, seed $seed"
    "$gpn" match "$game" --engine1 "$combo" --engine2 "$parent" --games "$games" \
      --movetime "$ms" --concurrency "$conc" --openings 2 --seed "$seed" --quiet \
      --json "$out/$prefix-$game-$tag-${ms}ms.json"
  done
done

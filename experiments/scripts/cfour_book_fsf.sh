#!/usr/bin/env bash
# gpn (book and exact solver on, the default) against Fairy-Stockfish 11.1 in Connect Four,
# cutechess-cli refereeing, gpn on one side for every game (-noswap): first player, then second.
#   experiments/scripts/cfour_book_fsf.sh [tc] [games] [gpn binary]
# e.g. experiments/scripts/cfour_book_fsf.sh 10+0.1 20; SIDES=first limits the sides
# PGNs and logs: experiments/data/cfour-book-<side>-<tc>.{pgn,log}
set -euo pipefail
cd "$(dirname "$0")/../.."
tc=${1:-10+0.1} games=${2:-20}
GPN=${3:-${CARGO_TARGET_DIR:-target}/release/gpn}
CC=${CUTECHESS:-/work/bin/cutechess-cli}
FSF=/usr/games/fairy-stockfish
ini="$(pwd)/scripts/external/fsf_cfour.ini"
gpn=(-engine name=gpn "cmd=$GPN" proto=uci)
fsf=(-engine name=fsf "cmd=$FSF" proto=uci "initstr=setoption name VariantPath value $ini")
mkdir -p experiments/data
for side in ${SIDES:-first second}; do
    out=experiments/data/cfour-book-$side-$tc
    rm -f "$out.pgn"
    if [[ $side == first ]]; then engines=("${gpn[@]}" "${fsf[@]}"); else engines=("${fsf[@]}" "${gpn[@]}"); fi
    "$CC" -variant cfour "${engines[@]}" -each tc="$tc" -games "$games" -noswap \
        -concurrency 1 -recover -pgnout "$out.pgn" >"$out.log" 2>&1 || true
    grep -E '^Score of' "$out.log" | tail -n 1
done

#!/usr/bin/env bash
# Learned networks: gpn (its defaults, with the variant's network where it has one) against
# Fairy-Stockfish through cutechess-cli, one variant, 10+0.1, colours swapped per pair.
# The PGN and cutechess's log land in experiments/data/learned/fsf-<variant>.{pgn,log}.
#
#   CUTECHESS=/path/to/cutechess-cli experiments/scripts/learned_fsf.sh VARIANT [GAMES] [extra gpn options]
#   TAG=nonet experiments/scripts/learned_fsf.sh cfour 20 option.EvalFile=none   # (TAG names the outputs)
set -euo pipefail
cd "$(dirname "$0")/../.."
variant=$1 games=${2:-10}
shift $(($# < 2 ? $# : 2))
CC=${CUTECHESS:-target/cutechess/cutechess-cli}
FSF=${FSF:-/usr/games/fairy-stockfish}
out=experiments/data/learned/fsf-$variant${TAG:+-$TAG}
# Debian's Fairy-Stockfish 11.1 has no cfour: it reads the variant from an ini file.
fsf_init=()
if [[ $variant == cfour ]]; then
    fsf_init=("initstr=setoption name VariantPath value $(pwd)/scripts/external/fsf_cfour.ini")
fi
mkdir -p "$(dirname "$out")"
rm -f "$out.pgn"
echo "# $(date -u +%FT%TZ) $0 $variant $games $*" | tee "$out.log"
"$CC" -variant "$variant" \
    -engine name=gpn "cmd=$(pwd)/target/release/gpn" proto=uci "$@" \
    -engine name=fsf "cmd=$FSF" proto=uci "${fsf_init[@]}" \
    -each tc=10+0.1 -games 2 -rounds $((games / 2)) -repeat -concurrency 1 -recover \
    -pgnout "$out.pgn" 2>&1 | tee -a "$out.log" | grep -E '^(Score|Finished|Elo)'

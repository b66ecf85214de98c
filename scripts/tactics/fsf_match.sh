#!/bin/bash
# gpn against full-strength Fairy-Stockfish (one thread, Hash 64) through cutechess-cli, from
# the varied openings of ladder.py (4 random plies, seats swapped per opening), with every game
# kept as PGN and the whole cutechess log beside it.
#
#   scripts/tactics/fsf_match.sh VARIANT TC GAMES OUT_PREFIX [gpn option.NAME=VALUE ...]
#   e.g. scripts/tactics/fsf_match.sh minishogi 10+0.1 40 experiments/data/fsf-full/minishogi-10+0.1
#
# Environment: GPN (default target/release/gpn), FSF (/usr/games/fairy-stockfish),
# CUTECHESS (cutechess-cli on PATH), SEED (1).
set -u
variant=$1 tc=$2 games=$3 out=$4
shift 4
gpn=${GPN:-target/release/gpn}
fsf=${FSF:-/usr/games/fairy-stockfish}
cutechess=${CUTECHESS:-cutechess-cli}
seed=${SEED:-1}
openings=experiments/tactics/results/openings-$variant-4ply-s1.pgn
[ -f "$openings" ] || { echo "no openings file $openings (make one with ladder.py)" >&2; exit 2; }
opts=()
for o in "$@"; do opts+=("$o"); done
echo "$cutechess -variant $variant -engine name=gpn cmd=$gpn proto=uci ${opts[*]} -engine name=fsf cmd=$fsf proto=uci option.Threads=1 option.Hash=64 -each tc=$tc timemargin=50 -openings file=$openings format=pgn order=random -repeat -games 2 -rounds $((games / 2)) -concurrency 1 -recover -srand $seed -pgnout $out.pgn" > "$out.cmd"
"$cutechess" -variant "$variant" \
  -engine name=gpn "cmd=$gpn" proto=uci "${opts[@]}" \
  -engine name=fsf "cmd=$fsf" proto=uci option.Threads=1 option.Hash=64 \
  -each "tc=$tc" timemargin=50 \
  -openings "file=$openings" format=pgn order=random -repeat -games 2 -rounds $((games / 2)) \
  -concurrency 1 -recover -srand "$seed" -pgnout "$out.pgn" > "$out.log" 2>&1
grep -E "^Score of|^Elo" "$out.log" | tail -2

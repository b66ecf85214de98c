#!/usr/bin/env bash
# The thread-scaling curve on a machine with many cores, in one call (docs/threads.md):
#   1. iterations/s of each game's search at 1, 2, 4, 8 and 16 threads (interleaved rounds), with
#      each threaded run's lock profile: the serial fraction and the speed-ups it projects; by
#      default each game's own defaults row (`--engine default`: the search users get, with its
#      network where the game has one) with both designs of the backup (as it is, where from
#      `shared_stats` threads on iterations land beside the selections: statistics, new nodes,
#      proofs and bounds; and with that never on, the exclusive backup), to set that default;
#   2. the equal-iteration strength of the most threads against one thread (search efficiency:
#      what virtual loss costs per iteration), in breakthrough, reversi and cfour.
# Every step writes its file under OUT as it ends and is skipped when the file is already there,
# so a rerun after a timeout goes on where it stopped.
#
# Usage: scripts/threads_curve.sh [OUT]   (default OUT: experiments/data/threads/curve-<host>)
# Environment: GPN (binary; default target/release/gpn, built if missing), THREADS (default
# "1,2,4,8,16"), ITERATIONS (bench iterations per run, default 50000), ROUNDS (default 2),
# GAMES (bench games, default every game), MATCH_GAMES (default 100), MATCH_ITERATIONS (per move,
# default 2000), MATCH_LIST (default "breakthrough reversi cfour"), ENGINES (bench specs
# separated by ';', default "default;default shared_stats=257"; "sb-gpn;sb-gpn shared_stats=257"
# times the plain search with random playouts, as the 2-core tables in experiments/threads.md did).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-experiments/data/threads/curve-$(hostname)}
gpn=${GPN:-target/release/gpn}
threads=${THREADS:-1,2,4,8,16}
iterations=${ITERATIONS:-50000}
rounds=${ROUNDS:-2}
engines=${ENGINES:-default;default shared_stats=257}
IFS=';' read -r -a engine_list <<< "$engines"
engine_args=()
for e in "${engine_list[@]}"; do engine_args+=(--engine "$e"); done
match_games=${MATCH_GAMES:-100}
match_iterations=${MATCH_ITERATIONS:-2000}
most=${threads##*,}
if [ ! -x "$gpn" ]; then
  cargo build --release -q
fi
mkdir -p "$out"
{
  echo "command: $0 $*"
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(hostname), $(nproc) cores"
  echo "gpn: $("$gpn" --version 2>/dev/null || echo unknown), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "threads=$threads iterations=$iterations rounds=$rounds engines=$engines"
  echo "match: $match_games games at $match_iterations iterations, threads=$most vs 1"
} > "$out/setup.txt"

games=${GAMES:-$("$gpn" games 2>/dev/null | awk 'NR > 1 && $1 != "" { print $1 }')}
for game in $games; do
  file="$out/bench-$game.txt"
  [ -s "$file" ] && continue
  "$gpn" bench --game "$game" --playouts 1 --iterations "$iterations" --rounds "$rounds" \
    --threads "$threads" "${engine_args[@]}" > "$file.part" 2>&1 && mv "$file.part" "$file"
  grep -E "^$game |^  e[0-9]+: serial" "$file" || true
done

for game in ${MATCH_LIST:-breakthrough reversi cfour}; do
  file="$out/match-$game-t$most-vs-t1-${match_iterations}it.txt"
  [ -s "$file" ] && continue
  "$gpn" match "$game" --engine1 "default threads=$most" --engine2 default \
    --games "$match_games" --iterations "$match_iterations" --openings 2 --quiet \
    --json "$file.json" > "$file.part" 2>&1 && mv "$file.part" "$file"
  head -3 "$file"
done
echo "results in $out"

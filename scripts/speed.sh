#!/usr/bin/env bash
# Speed figures for docs/performance.md: gpn's random playouts and perft leaf rates, and
# Fairy-Stockfish's perft on the same machine in the same run where it is installed
# (apt-get install fairy-stockfish). Usage: scripts/speed.sh [repeats]
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-3}
cargo build --release -q
gpn=./target/release/gpn

echo "## gpn bench (10000 random playouts per game), $repeats runs"
for i in $(seq "$repeats"); do $gpn bench --full; done

echo
echo "## gpn perft leaf rates"
for spec in "breakthrough 6" "cfour 9" "reversi 9" "loa 5" "loa7 5" "awari 10" "minishogi 6" "minishogi 7"; do
  for i in $(seq "$repeats"); do $gpn perft $spec 2>&1 >/dev/null; done
done

fsf=$(command -v fairy-stockfish || ls /usr/games/fairy-stockfish 2>/dev/null || true)
if [ -n "$fsf" ]; then
  echo
  echo "## Fairy-Stockfish perft ($fsf), wall time including start-up"
  for spec in "minishogi 6" "minishogi 7" "breakthrough 6"; do
    set -- $spec
    for i in $(seq "$repeats"); do
      t0=$(date +%s.%N)
      nodes=$(printf 'uci\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nisready\n' "$1" "$2" \
        | "$fsf" 2>/dev/null | sed -n 's/^Nodes searched: //p')
      t1=$(date +%s.%N)
      awk -v v="$1" -v d="$2" -v n="$nodes" -v a="$t0" -v b="$t1" \
        'BEGIN { printf "fsf perft %s depth %s: %s leaves in %.3f s (%.0f leaves/s)\n", v, d, n, b-a, n/(b-a) }'
    done
  done
fi

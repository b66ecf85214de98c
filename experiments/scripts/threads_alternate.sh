#!/usr/bin/env bash
# Several gpn binaries side by side, taking turns within every round, per game: the 2-thread /
# 1-thread iterations/s ratio and the 2-thread run's serial fraction (experiments/threads.md).
# Usage: GAMES="breakthrough cfour" ROUNDS=3 experiments/scripts/threads_alternate.sh BIN...
# (BIN: a path, or NAME for /work/bin/gpn-NAME). Output: game, binary, ratio, serial %.
set -euo pipefail
games=${GAMES:-breakthrough cfour reversi kalah awari gomoku loa}
for g in $games; do
  for _ in $(seq "${ROUNDS:-3}"); do
    for b in "$@"; do
      bin=$b
      [ -x "$bin" ] || bin=/work/bin/gpn-$b
      line=$("$bin" bench --game "$g" --playouts 1 --iterations 100000 --rounds 1 \
        --threads 1,2 --engine sb-gpn 2>&1 | grep -A2 "^game" | tail -2 | tr '\n' ' ')
      echo "$g $b $line" | awk '{print $1, $2, $6, $10, $11}'
    done
  done
done

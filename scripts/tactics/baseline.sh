#!/usr/bin/env bash
# The tactics baseline of experiments/tactics.md: gpn at 100 ms and 1 s per position and
# Fairy-Stockfish at 10 ms on each suite given, one engine job at a time. Per-position results
# land in experiments/tactics/results/<variant>-<name>-<ms>ms.jsonl, the --json summaries are
# appended to experiments/tactics/results/summary.jsonl.
#
#   GPN=/work/bin/gpn-base NAME=gpn-base scripts/tactics/baseline.sh minishogi losalamos
set -uo pipefail
cd "$(dirname "$0")/../.."
GPN=${GPN:-/work/bin/gpn-base} NAME=${NAME:-gpn-base} FSF=${FSF:-/usr/games/fairy-stockfish}
res=experiments/tactics/results
mkdir -p "$res"
for v in "$@"; do
    suite=experiments/tactics/$v.jsonl
    for ms in 100 1000; do
        python3 scripts/tactics/run_suite.py --engine "$GPN" --name "$NAME" --movetime $ms \
            --out "$res/$v-$NAME-${ms}ms.jsonl" --json "$suite" | tee /dev/stderr | tail -1 >> "$res/summary.jsonl"
    done
    python3 scripts/tactics/run_suite.py --engine "$FSF" --name fsf --movetime 10 \
        --out "$res/$v-fsf-10ms.jsonl" --json "$suite" | tee /dev/stderr | tail -1 >> "$res/summary.jsonl"
done

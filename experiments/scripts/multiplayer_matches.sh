#!/usr/bin/env bash
# The sb-gpn vs sb-uct matches of experiments/multiplayer.md: every seating of the two
# agents per random opening, in Rolit (3 and 4 players) and Chinese Checkers (3 players), at two
# iteration budgets. Usage: experiments/scripts/multiplayer_matches.sh GAME BUDGET [GAMES] (e.g. rolit-3p
# 1000 300). ENGINE1 and ENGINE2 replace the agents ("sb-gpn" and "sb-uct"; e.g.
# ENGINE1="sb-gpn c_pn=0.1"), TAG names such a run's files. Resumable: the games file (JSON
# Lines) is continued with --resume, so rerunning the same command after a kill plays only the
# missing games. Each run writes experiments/data/multiplayer/GAME-BUDGET[-TAG].{cmd,jsonl,json,txt}.
set -euo pipefail
cd "$(dirname "$0")/../.."
game=${1:?usage: $0 GAME BUDGET [GAMES]}
budget=${2:?usage: $0 GAME BUDGET [GAMES]}
games=${3:-300}
out=experiments/data/multiplayer
mkdir -p "$out"
gpn=${GPN:-target/release/gpn}
base="$out/$game-$budget${TAG:+-$TAG}"
cmd=("$gpn" match "$game" --engine1 "${ENGINE1:-sb-gpn}" --engine2 "${ENGINE2:-sb-uct}"
  --games "$games" --iterations "$budget" --openings 4 --seed 1 --concurrency "${CONCURRENCY:-1}"
  --games-file "$base.jsonl" --resume --json "$base.json" --quiet)
printf '%q ' "${cmd[@]}" > "$base.cmd"
echo >> "$base.cmd"
"${cmd[@]}" > "$base.txt"
cat "$base.txt"

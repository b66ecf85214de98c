#!/usr/bin/env bash
# Paranoid solves of Rolit's start positions for every player, with every solver kind and
# thread count (experiments/multiplayer.md, "Paranoid solving"). Resumable: a row already
# in the output file is not run again. Usage:
#   experiments/scripts/paranoid_solves.sh [out-file] [max-seconds per solve]
# Runs target/release/gpn; one solve at a time (the 2-thread rows use both cores of the
# machine the report's figures come from).
set -euo pipefail
out=${1:-experiments/data/multiplayer/paranoid-solves.tsv}
limit=${2:-300}
gpn=${GPN:-target/release/gpn}
mkdir -p "$(dirname "$out")"
[ -s "$out" ] || printf 'game\talgo\tthreads\tplayer\tvalue\tnodes\ttime_s\n' >"$out"
row() { # game algo threads player
    local key="$1	$2	$3	$4	"
    grep -qF "$key" "$out" && return 0
    local json
    json=$("$gpn" solve "$1" --algo "$2" --threads "$3" --player "$4" --max-time "$limit" \
        --memory 2048 --json --quiet)
    python3 -c 'import json,sys; j=json.loads(sys.argv[1]); v=j["value"] + ("" if j["stopped_by"] is None else " (" + j["stopped_by"] + ")"); print(sys.argv[2] + v + "\t" + str(j["nodes"]) + "\t" + format(j["time_s"], ".3f"))' "$json" "$key" >>"$out"
    tail -1 "$out"
}
for game in rolit4-3p rolit4-4p rolit6-4p rolit6-3p; do
    players=${game##*-}; players=${players%p}
    for player in $(seq 1 "$players"); do
        for algo in dfpn sb-gpn; do
            for threads in 1 2; do
                row "$game" "$algo" "$threads" "$player"
            done
        done
    done
done
# 8x8 with four players, red: DFPN solves it in about half a minute on one thread.
for algo in dfpn sb-gpn; do
    for threads in 1 2; do
        row rolit "$algo" "$threads" 1
    done
done

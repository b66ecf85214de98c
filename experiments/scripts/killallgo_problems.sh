#!/usr/bin/env bash
# The PCN paper's 81 Killall-Go problems (experiments/killallgo.md), White to move and live.
#   experiments/scripts/killallgo_problems.sh import <dir of 1.sgf..81.sgf>   # writes problems.txt
#   [TAG=name] [MEM=MB] experiments/scripts/killallgo_problems.sh solve <algo> <seconds> [gpn solve args...]
# `solve` runs `gpn solve` on each problem with one algorithm and a per-problem time limit (and
# MEM MB, default 1024) and appends one JSON line per problem to
# experiments/data/killallgo/<algo>[-TAG]-<seconds>s.jsonl as each ends; a rerun skips the
# problems already in that file (resumable; a solve stopped by a signal is not recorded, and a
# line that says so is redone). Prints the tally. SHARD=K/N solves only the problems
# n with n % N == K (run N of them side by side, one per core, into the same file). ONLY="7 10 ..."
# solves only the problems listed (a longer budget for those an earlier run left unknown).
set -euo pipefail
cd "$(dirname "$0")/../.."
data=experiments/data/killallgo
gpn=${GPN:-target/release/gpn}
mkdir -p "$data"
case ${1:-} in
  import)
    dir=$2
    : > "$data/problems.txt"
    for i in $(seq 1 81); do
      pos=$("$gpn" show killallgo --sgf "$dir/$i.sgf" | sed -n 's/^position //p')
      echo "killallgo $pos # problem $i" >> "$data/problems.txt"
    done
    wc -l "$data/problems.txt" ;;
  solve)
    algo=$2 secs=$3 mem=${MEM:-1024}
    shift 3
    out="$data/$algo${TAG:+-$TAG}-${secs}s.jsonl"
    touch "$out"
    n=0
    while IFS= read -r line; do
      n=$((n + 1))
      if [ -n "${SHARD:-}" ] && [ $((n % ${SHARD#*/})) -ne "${SHARD%/*}" ]; then continue; fi
      if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $n "* ]]; then continue; fi
      # A problem counts as done unless its line says the solve was stopped from outside.
      grep "^{\"problem\":$n," "$out" | grep -vq '"stopped_by":"stop"' && continue
      pos=${line#killallgo }
      pos=${pos%% # *}
      # Captured first: a solve stopped by a signal (this script killed) writes a line with
      # "stopped_by":"stop", which must not be recorded as the problem's result.
      result=$("$gpn" solve killallgo --position "$pos" --algo "$algo" --max-time "$secs" \
        --memory "$mem" --json --quiet "$@" 2>/dev/null) || true
      case $result in
        *'"stopped_by":"stop"'*|'') echo "problem $n: stopped, not recorded" >&2; exit 130 ;;
      esac
      echo "${result/#\{/\{\"problem\":$n,}" >> "$out"
      echo "problem $n: $(tail -1 "$out" | grep -o '"value":"[a-z]*"')" >&2
    done < "$data/problems.txt"
    kept=$(grep -v '"stopped_by":"stop"' "$out" || true)
    count() { grep -c "$1" <<< "$kept" || true; }
    echo "$algo ${secs}s: $(count '"value":"win"') win, $(count '"value":"loss"') loss, $(count '"value":"unknown"') unknown of $(count '^{')" ;;
  *) echo "usage: $0 import <dir> | solve <algo> <seconds> [gpn solve args...]" >&2; exit 2 ;;
esac

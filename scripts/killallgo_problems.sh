#!/usr/bin/env bash
# The PCN paper's 81 Killall-Go problems (docs/experiments/killallgo.md), White to move and live.
#   scripts/killallgo_problems.sh import <dir of 1.sgf..81.sgf>   # writes problems.txt
#   [TAG=name] [MEM=MB] scripts/killallgo_problems.sh solve <algo> <seconds> [gpn solve args...]
# `solve` runs `gpn solve` on each problem with one algorithm and a per-problem time limit (and
# MEM MB, default 1024) and appends one JSON line per problem to
# docs/experiments/data/killallgo/<algo>[-TAG]-<seconds>s.jsonl as each ends; a rerun skips the
# problems already in that file (resumable). Prints the tally. SHARD=K/N solves only the problems
# n with n % N == K (run N of them side by side, one per core, into the same file).
set -euo pipefail
cd "$(dirname "$0")/.."
data=docs/experiments/data/killallgo
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
      grep -q "^{\"problem\":$n," "$out" && continue
      pos=${line#killallgo }
      pos=${pos%% # *}
      "$gpn" solve killallgo --position "$pos" --algo "$algo" --max-time "$secs" \
        --memory "$mem" --json --quiet "$@" 2>/dev/null | sed "s/^{/{\"problem\":$n,/" >> "$out"
      echo "problem $n: $(tail -1 "$out" | grep -o '"value":"[a-z]*"')" >&2
    done < "$data/problems.txt"
    echo "$algo ${secs}s: $(grep -c '"value":"win"' "$out") win, $(grep -c '"value":"loss"' "$out") loss, $(grep -c '"value":"unknown"' "$out") unknown of $(wc -l < "$out")" ;;
  *) echo "usage: $0 import <dir> | solve <algo> <seconds> [gpn solve args...]" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# The Proof Cost Network paper's problem sets (experiments/pcn.md): 77 Gomoku 15x15
# freestyle problems (Black to move and win) and 81 9x9 Killall-Go problems (White to move and
# live), solved one by one with a per-problem time and node limit.
#   experiments/scripts/pcn_problems.sh import <pcn-problems dir>   # writes <set>-problems.txt for both sets
#   [TAG=name] [MEM=MB] [SHARD=K/N] experiments/scripts/pcn_problems.sh solve <gomoku|killallgo> <algo> <seconds> [gpn solve args...]
# `solve` appends one JSON line per problem to experiments/data/pcn/<set>-<algo>[-TAG]-<seconds>s.jsonl
# as each ends; a rerun skips the problems already there (resumable; a solve stopped by a signal
# is not recorded). SHARD=K/N solves only the problems n with n % N == K (one per core, into the
# same file). Prints the tally.
set -euo pipefail
cd "$(dirname "$0")/../.."
data=experiments/data/pcn
gpn=${GPN:-target/release/gpn}
mkdir -p "$data"
game_of() {
  case $1 in
    gomoku) echo gomokufreestyle ;;
    killallgo) echo killallgo ;;
    *) echo "unknown problem set '$1' (gomoku or killallgo)" >&2; exit 2 ;;
  esac
}
case ${1:-} in
  import)
    dir=$2
    for set in gomoku killallgo; do
      game=$(game_of $set)
      sub=Gomoku count=77
      [ $set = killallgo ] && sub=9x9Killall-Go count=81
      : > "$data/$set-problems.txt"
      for i in $(seq 1 $count); do
        pos=$("$gpn" show "$game" --sgf "$dir/$sub/$i.sgf" | sed -n 's/^position //p')
        echo "$game $pos # problem $i" >> "$data/$set-problems.txt"
      done
      wc -l "$data/$set-problems.txt"
    done ;;
  solve)
    set=$2 algo=$3 secs=$4 mem=${MEM:-1024}
    game=$(game_of "$set")
    shift 4
    out="$data/$set-$algo${TAG:+-$TAG}-${secs}s.jsonl"
    touch "$out"
    n=0
    while IFS= read -r line; do
      n=$((n + 1))
      if [ -n "${SHARD:-}" ] && [ $((n % ${SHARD#*/})) -ne "${SHARD%/*}" ]; then continue; fi
      grep "^{\"problem\":$n," "$out" | grep -vq '"stopped_by":"stop"' && continue
      pos=${line#"$game "}
      pos=${pos%% # *}
      result=$("$gpn" solve "$game" --position "$pos" --algo "$algo" --max-time "$secs" \
        --memory "$mem" --json --quiet "$@" 2>/dev/null) || true
      case $result in
        *'"stopped_by":"stop"'*|'') echo "problem $n: stopped, not recorded" >&2; exit 130 ;;
      esac
      echo "${result/#\{/\{\"problem\":$n,}" >> "$out"
      echo "problem $n: $(tail -1 "$out" | grep -o '"value":"[a-z]*"')" >&2
    done < "$data/$set-problems.txt"
    kept=$(grep -v '"stopped_by":"stop"' "$out" || true)
    count() { grep -c "$1" <<< "$kept" || true; }
    echo "$set $algo${TAG:+ $TAG} ${secs}s: $(count '"value":"win"') win, $(count '"value":"loss"') loss, $(count '"value":"unknown"') unknown of $(count '^{')" ;;
  *) echo "usage: $0 import <dir> | solve <gomoku|killallgo> <algo> <seconds> [gpn solve args...]" >&2; exit 2 ;;
esac

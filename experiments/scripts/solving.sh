#!/usr/bin/env bash
# The PPNS paper's experiment (experiments/solving.md): Connect Four 12-ply positions with
# 35M nodes or 420 s per position, and Othello positions after 18/26/32/36/40 plies with 8M nodes
# or 600 s, for every solver. Writes CSV files and summaries to experiments/data/solving/.
# Usage: experiments/scripts/solving.sh [cfour-all|cfour-subset|othello] ...   (default: all three)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q
gpn=target/release/gpn
data=experiments/data
out=$data/solving
mkdir -p "$out"
run() { # name file nodes seconds args...
  local name=$1 file=$2 nodes=$3 secs=$4
  shift 4
  "$gpn" solve --batch "$file" "$@" --max-nodes "$nodes" --max-time "$secs" --memory 2048 --csv \
    > "$out/$name.csv" 2> "$out/$name.summary"
  tail -1 "$out/$name.summary"
}
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(cfour-all cfour-subset othello)
for part in "${parts[@]}"; do
  case $part in
    cfour-all) # the two fast solvers on all 200 positions
      for a in dfpn pns; do run "cfour200-$a" $data/cfour-200x12.txt 35000000 420 --algo $a; done ;;
    cfour-subset) # every solver on the first 30 (the slow ones take up to 420 s per position)
      run cfour30-ppns-pr $data/cfour-30x12.txt 35000000 420 --algo ppns --pr 0.00001
      for a in ppns mcpns sb-gpn dfpn pns; do run "cfour30-$a" $data/cfour-30x12.txt 35000000 420 --algo $a; done ;;
    othello) # 10 positions per stage for the fast ones, 3 per stage for the slow ones
      run othello-ppns-pr $data/othello-5x10.txt 8000000 600 --algo ppns --pr 0.00001
      for a in dfpn pns; do run "othello-$a" $data/othello-5x10.txt 8000000 600 --algo $a; done
      for a in ppns mcpns sb-gpn; do run "othello3-$a" $data/othello-5x3.txt 8000000 600 --algo $a; done ;;
    *) echo "unknown part '$part'" >&2; exit 2 ;;
  esac
done

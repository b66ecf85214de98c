#!/usr/bin/env bash
# One `gpn match` split into N shards on a Slurm cluster, merged by a job that waits for them.
#
#   SHARDS=4 OUT=runs/cpn-1 scripts/cluster/slurm_match.sh match cfour \
#       --engine1 "sb-gpn c_pn=1" --engine2 sb-uct --games 24 --iterations 200
#
# Run on a login node, it submits itself twice:
#   1. a job array `sbatch --array=0-(N-1)`: task K runs `gpn <args> --shard K/N
#      --games-file $OUT/shard-K.jsonl` (K = SLURM_ARRAY_TASK_ID; log $OUT/shard-K.log);
#   2. the merge, `sbatch --dependency=afterok:<array id>`: `gpn merge $OUT/shard-*.jsonl
#      --json $OUT/merged.json > $OUT/merged.txt`; it runs once every task has succeeded (a
#      failed task cancels it: --kill-on-invalid-dep).
# It prints the two job ids. A shard that failed can be rerun alone (it resumes its file: the
# games it finished are kept), and merged by hand:
#   sbatch --array=K --export=ALL,GPN_CLUSTER_MODE=shard,GPN=...,SHARDS=N,OUT=... slurm_match.sh <args>
#
# Environment: GPN (the binary; default `gpn` on PATH, made absolute), SHARDS (N, default 4),
# OUT (the results folder, default gpn-match-<date>; on a filesystem every node sees),
# SBATCH_ARGS (more sbatch options for both jobs, e.g. "--partition=short --time=2:00:00").
# Each shard asks for --cpus-per-task = its --concurrency (1 unless the args say otherwise).
#SBATCH --job-name=gpn-match
set -euo pipefail

mode=${GPN_CLUSTER_MODE:-submit}
SHARDS=${SHARDS:-4}

case "$mode" in
shard)
    k=${SLURM_ARRAY_TASK_ID:?the shard runs as a Slurm array task}
    # --resume: a requeued or resubmitted task keeps the games its file already holds.
    exec "$GPN" "$@" --shard "$k/$SHARDS" --games-file "$OUT/shard-$k.jsonl" --resume
    ;;
merge)
    "$GPN" merge "$OUT"/shard-*.jsonl --json "$OUT/merged.json" >"$OUT/merged.txt"
    cat "$OUT/merged.txt"
    ;;
submit)
    if [[ "${1:-}" != match ]]; then
        echo "usage: [SHARDS=N] [OUT=dir] [GPN=path] $0 match <game> --engine1 ... --engine2 ... [match options]" >&2
        exit 2
    fi
    GPN=$(command -v "${GPN:-gpn}") || { echo "$0: no gpn binary (set GPN)" >&2; exit 2; }
    OUT=${OUT:-gpn-match-$(date +%Y%m%d-%H%M%S)}
    mkdir -p "$OUT"
    OUT=$(cd "$OUT" && pwd)
    export GPN SHARDS OUT
    # The concurrency the args ask for, so that Slurm gives each shard that many CPUs.
    cpus=1
    args=("$@")
    for ((i = 0; i < ${#args[@]}; i++)); do
        case "${args[i]}" in
        --concurrency) cpus=${args[i + 1]:-1} ;;
        --concurrency=*) cpus=${args[i]#--concurrency=} ;;
        esac
    done
    # shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
    array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="0-$((SHARDS - 1))" --cpus-per-task="$cpus" \
        --output="$OUT/shard-%a.log" --export=ALL,GPN_CLUSTER_MODE=shard "$0" "$@")
    array=${array%%;*}
    # shellcheck disable=SC2086
    merge=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name=gpn-merge --dependency="afterok:$array" \
        --kill-on-invalid-dep=yes --output="$OUT/merge.log" --export=ALL,GPN_CLUSTER_MODE=merge "$0")
    merge=${merge%%;*}
    echo "shards: job array $array (0-$((SHARDS - 1))), merge: job $merge (after $array); report: $OUT/merged.txt"
    ;;
*)
    echo "$0: unknown GPN_CLUSTER_MODE '$mode'" >&2
    exit 2
    ;;
esac

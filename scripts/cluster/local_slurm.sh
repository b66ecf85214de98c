#!/usr/bin/env bash
# A one-node Slurm on this machine, then one small match split into shards through it.
#
#   scripts/cluster/local_slurm.sh            # as root, from the repository root
#
# Needs Debian's slurm-wlm and munge (`apt-get install -y slurm-wlm munge`). There is no systemd
# here, so it starts the daemons by hand: munged (if no munged answers yet), slurmctld and slurmd,
# with a minimal slurm.conf for this host (CPUS CPUs, no cgroups, no accounting) written to
# SLURM_DIR. Then it submits the match through scripts/cluster/slurm_match.sh (a job array of
# SHARDS shards and the merge as a dependent job), waits for the merge, prints the merged report,
# and plays the same match in one process for the wall time and the game-for-game comparison.
# It stops the daemons it started at the end (KEEP=1 leaves them running).
#
# Environment: GPN (default target/release/gpn), SHARDS (4), CPUS (2), SLURM_DIR
# (/tmp/gpn-slurm), MATCH (the match arguments, default a cfour match of 24 games at 200
# iterations per move).
set -euo pipefail

GPN=$(realpath "${GPN:-target/release/gpn}")
SHARDS=${SHARDS:-4}
CPUS=${CPUS:-2}
SLURM_DIR=${SLURM_DIR:-/tmp/gpn-slurm}
MATCH=${MATCH:-match cfour --engine1 sb-gpn --engine2 sb-uct --games 24 --iterations 200 --openings 2}
here=$(cd "$(dirname "$0")" && pwd)
host=$(hostname -s)

rm -rf "$SLURM_DIR"
mkdir -p "$SLURM_DIR"/{state,spool,log}
export SLURM_CONF=$SLURM_DIR/slurm.conf
cat >"$SLURM_CONF" <<CONF
# One node, this host, $CPUS CPUs; written by scripts/cluster/local_slurm.sh.
ClusterName=gpnlocal
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/log/slurmctld.log
SlurmdLogFile=$SLURM_DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

echo "== munge"
started_munged=0
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    started_munged=1
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge
    [[ -f /etc/munge/munge.key ]] || mungekey --create
    runuser -u munge -- /usr/sbin/munged
    sleep 1
fi
munge -n | unmunge | grep -E '^STATUS'

echo "== slurmctld, slurmd ($SLURM_CONF)"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
stop_daemons() {
    if [[ "${KEEP:-0}" != 1 ]]; then
        for pidfile in "$SLURM_DIR/slurmd.pid" "$SLURM_DIR/slurmctld.pid"; do
            [[ -f "$pidfile" ]] || continue
            pid=$(cat "$pidfile")
            kill "$pid" 2>/dev/null || true
            # slurmctld saves its state on the way out: wait, so that a next run starts clean.
            for _ in $(seq 50); do
                [[ -e /proc/$pid && $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) != Z ]] || break
                sleep 0.2
            done
        done
        if [[ $started_munged == 1 && -f /run/munge/munged.pid ]]; then
            kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
        fi
    fi
}
trap stop_daemons EXIT
for _ in $(seq 60); do
    state=$(sinfo -h -o %T 2>/dev/null || true)
    [[ "$state" == idle ]] && break
    sleep 1
done
sinfo

echo "== $SHARDS shards through Slurm: $MATCH"
out=$SLURM_DIR/run
start=$(date +%s.%N)
# shellcheck disable=SC2086 # MATCH is a list of arguments
submitted=$(GPN=$GPN SHARDS=$SHARDS OUT=$out "$here/slurm_match.sh" $MATCH)
echo "$submitted"
merge_job=$(sed -n 's/.*merge: job \([0-9]*\).*/\1/p' <<<"$submitted")
last=""
while squeue -h -o '%i %T' | grep -q .; do
    now=$(squeue -h -o '%i %j %T')
    [[ "$now" != "$last" ]] && printf '%s\n%s\n' "-- $(date +%T.%N | cut -c1-12)" "$now"
    last=$now
    sleep 0.2
done
end=$(date +%s.%N)
state=$(scontrol show job "$merge_job" 2>/dev/null | sed -n 's/.*JobState=\([A-Z]*\).*/\1/p')
echo "merge job $merge_job: ${state:-gone}"
echo "== slurmctld's timeline"
grep -E 'submit_batch_job|sched: Allocate|WEXITSTATUS' "$SLURM_DIR/log/slurmctld.log"
echo "== merged report ($out/merged.txt)"
cat "$out/merged.txt"
slurm_wall=$(echo "$end - $start" | bc)

echo "== the same match in one process"
start=$(date +%s.%N)
# shellcheck disable=SC2086
"$GPN" $MATCH --quiet --games-file "$SLURM_DIR/one.jsonl" --games-format jsonl >"$SLURM_DIR/one.txt"
end=$(date +%s.%N)
one_wall=$(echo "$end - $start" | bc)
cat "$SLURM_DIR/one.txt"
# Game for game: the same moves and results at the same indexes (timings left out).
games() { sed -E 's/.*"index":([0-9]+).*"result_a":"([a-z]+)".*"moves":(\[.*\])\}$/\1 \2 \3/' "$@" | sort -n; }
if diff <(games "$out"/shard-*.jsonl) <(games "$SLURM_DIR/one.jsonl") >/dev/null; then
    echo "game for game: the shards' $(cat "$out"/shard-*.jsonl | wc -l) games equal the single process's"
else
    echo "game for game: DIFFERENT"
    exit 1
fi
printf 'wall time: Slurm %d shards on %d CPUs (submit to merged) %.1f s; one process %.1f s\n' \
    "$SHARDS" "$CPUS" "$slurm_wall" "$one_wall"

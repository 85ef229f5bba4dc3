#!/usr/bin/env bash
# The Slurm recipe of docs/scaling.md, run for real on a one-node Slurm started here: a `gen`
# array job (data shards), a match array job with a dependent `-merge` job, and one running
# match task preempted with `scontrol requeue`. Checks that every game and every position
# comes out exactly once, then stops the daemons it started.
#
#   tournaments/slurm-test.sh            # needs root (installs slurm-wlm and munge if missing)
#   SLURM_TEST=1 .ci/run                 # the same at the end of CI
#
# Environment: KEEP=1 keeps the work directory (default: a fresh one under /tmp, removed).
# Exit status 0 when everything came out right.
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d /tmp/punct-slurm.XXXXXX)
bin=$work/bin
mkdir -p "$bin" "$work/state" "$work/spool" "$work/results" "$work/data"
log() { echo "== slurm-test: $*"; }
fail() { echo "slurm-test: FAILED: $*" >&2; exit 1; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  log "installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq slurm-wlm munge >/dev/null
fi

# The binaries are copied, as on a cluster's shared disk: a rebuild meanwhile changes nothing.
[ -x "$root/target/release/punct" ] || cargo build --release --manifest-path "$root/Cargo.toml" --bins
cp "$root/target/release/punct" "$root/target/release/punct-referee" \
   "$root/target/release/punct-tune" "$bin/"

# --- munge and a one-node cluster of 2 CPUs -----------------------------------------------
started_munge=
if ! pgrep -x munged >/dev/null; then
  [ -s /etc/munge/munge.key ] || { mkdir -p /etc/munge; dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null; }
  chown munge:munge /etc/munge/munge.key 2>/dev/null || true
  chmod 400 /etc/munge/munge.key
  mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null || true
  if id munge >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged
  else
    /usr/sbin/munged --force
  fi
  started_munge=1
fi
host=$(hostname -s)
export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" <<EOF
ClusterName=punct-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
JobRequeue=1
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

cleanup() {
  [ -f "$work/slurmd.pid" ] && kill "$(cat "$work/slurmd.pid")" 2>/dev/null || true
  [ -f "$work/slurmctld.pid" ] && kill "$(cat "$work/slurmctld.pid")" 2>/dev/null || true
  sleep 1
  [ -n "$started_munge" ] && pkill -x munged 2>/dev/null || true
  if [ -z "${KEEP:-}" ]; then rm -rf "$work"; else echo "slurm-test: kept $work"; fi
}
trap cleanup EXIT

slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 1 60); do
  sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)' && break
  sleep 1
done
sinfo -h -o '%t' | grep -qE '^(idle|mix|alloc)' || { cat "$work"/slurm*.log >&2; fail "the node did not come up"; }
log "one node up: $(sinfo -h -o '%n %c CPUs, %t')"

wait_jobs() { # until none of the given jobs is pending or running
  for _ in $(seq 1 600); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 1
  done
  fail "jobs $1 still running after 10 minutes"
}

# --- data: a gen array job of 2 shards --------------------------------------------------------
cat > "$work/gen.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=punct-gen
#SBATCH --array=0-1
#SBATCH --cpus-per-task=1
#SBATCH --requeue
#SBATCH --output=$work/gen.%a.out
exec $bin/punct-tune gen -out $work/data/gen.\$SLURM_ARRAY_TASK_ID.bin -games 8 -nodes 1000 \\
    -playnodes 200 -threads 1 -srand 1 -shard \$SLURM_ARRAY_TASK_ID/2 -resume -progress 5
EOF
gen=$(sbatch --parsable "$work/gen.sbatch")
log "gen array job $gen submitted"
wait_jobs "$gen"

# --- a match: 4 shards of 80 games, a dependent merge, one task preempted ----------------------
cat > "$work/match.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=punct-match
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --requeue
#SBATCH --output=$work/match.%a.out
#SBATCH --open-mode=append
exec $bin/punct-referee -engine cmd=$bin/punct name=a -engine cmd=$bin/punct name=b \\
    -each nodes=400 -games 80 -concurrency 1 -random-openings plies=4 -srand 7 \\
    -ratinginterval 0 -shard "\$SLURM_ARRAY_TASK_ID/4" \\
    -jsonl "$work/results/run.\$SLURM_ARRAY_TASK_ID.jsonl" -resume
EOF
match=$(sbatch --parsable "$work/match.sbatch")
merge=$(sbatch --parsable --dependency=afterany:"$match" --output="$work/merge.out" --wrap \
  "$bin/punct-referee -merge $work/results/run.0.jsonl $work/results/run.1.jsonl $work/results/run.2.jsonl $work/results/run.3.jsonl")
log "match array job $match, merge job $merge"
# Preempt task 0 once it has recorded a game or two (it is then requeued and resumes).
for _ in $(seq 1 300); do
  n=$(grep -c '"type":"game"' "$work/results/run.0.jsonl" 2>/dev/null || true)
  [ "${n:-0}" -ge 2 ] && break
  sleep 0.2
done
state=$(squeue -h -j "${match}_0" -o '%T' 2>/dev/null || true)
[ "$state" = RUNNING ] || fail "task 0 was not running when it was to be preempted ($state)"
log "requeue of task ${match}_0 after ${n:-0} games"
scontrol requeue "${match}_0"
# A requeued job waits (held back as Slurm does); release it so that the test goes on.
sleep 2
scontrol release "${match}_0" 2>/dev/null || true
wait_jobs "$match,$merge"

# --- checks --------------------------------------------------------------------------------
python3 - "$work" <<'PY'
import json, sys, glob, os
work = sys.argv[1]
errors = []
# Data: every game of the run in exactly one shard, every position written once.
games, positions = [], 0
for f in sorted(glob.glob(f"{work}/data/gen.*.bin")):
    shard = int(f.split(".")[-2])
    lines = [json.loads(l) for l in open(f + ".gen.jsonl")]
    done = [l for l in lines if "game" in l]
    for l in done:
        if (l["game"] - 1) % 2 != shard:
            errors.append(f"gen: game {l['game']} in shard {shard}")
    games += [l["game"] for l in done]
    size = os.path.getsize(f)
    end = max([l["end"] for l in done], default=88)
    if size != end:
        errors.append(f"gen: {f} holds {size} bytes, its journal ends at {end}")
    positions += size // 88 - 1
if positions == 0:
    errors.append("gen: no position written")
if sorted(games) != list(range(1, 9)):
    errors.append(f"gen: games {sorted(games)}, not 1..8 once each")
# The match: 80 games, each exactly once over the shards.
numbers = []
for f in sorted(glob.glob(f"{work}/results/run.*.jsonl")):
    for line in open(f):
        o = json.loads(line)
        if o.get("type") == "game":
            numbers.append(o["game"])
if sorted(numbers) != list(range(1, 81)):
    dup = sorted({n for n in numbers if numbers.count(n) > 1})
    errors.append(f"match: {len(numbers)} games recorded, doubled {dup}, missing {sorted(set(range(1, 81)) - set(numbers))}")
merged = open(f"{work}/merge.out").read()
if "Games: 80," not in merged:
    errors.append("merge: no 'Games: 80,' line:\n" + merged)
starts = sum('"type":"start"' in l for l in open(f"{work}/results/run.0.jsonl"))
print(f"gen: 8 games, {positions} positions in 2 shards; match: {len(numbers)} games in 4 shards, "
      f"task 0 started {starts} times; merge: {[l for l in merged.splitlines() if l.startswith('Games:')]}")
if errors:
    print("\n".join(errors), file=sys.stderr)
    sys.exit(1)
PY
resumed=$(grep -h '"resumed":true' "$work/results/run.0.jsonl" | wc -l)
[ "$resumed" -ge 1 ] || fail "task 0 was not resumed after the requeue"
log "passed: every game and position once, task 0 preempted and resumed"

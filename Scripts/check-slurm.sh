#!/usr/bin/env bash
# Sharded runs on a real Slurm cluster (deploy/slurm/): brings up a single-node Slurm cluster
# (slurmctld, slurmd and munge from Debian's packages, installed when missing, the recipe of
# ../shared/reference/tooling.md §7), then
#   1. a job array of a trivial job: each task sees its SLURM_ARRAY_TASK_ID and _COUNT;
#   2. deploy/slurm/submit.sh, touchtrace-shard.sbatch and touchtrace-merge.sbatch (the real
#      scripts) with a stand-in executable: shards write partials, the merge runs after the whole
#      array; a failing shard makes `submit.sh --wait` fail and the merge never runs; the shard
#      script refuses to run outside an array;
#   3. touchtrace itself: `sweep`, `tune` (--folds, --bootstrap 200), `compare` (--bootstrap 200)
#      and `run` unsharded and through 4 shards and `touchtrace merge`, every format each writes
#      (Markdown, JSON, CSV; `run`: JSON, CSV) compared byte for byte.
# Usage: Scripts/check-slurm.sh [TOUCHTRACE] (default .build/debug/touchtrace; `make check-slurm`
# builds it). Run as root from the repository root (CI does). Every file it makes is in one
# temporary directory, removed at the end; the daemons it starts are stopped at the end. The
# cluster's configuration, state and logs live in that directory too (SLURM_CONF), on ports
# chosen free, so it neither needs nor touches /etc/slurm nor a cluster already running.
set -euo pipefail
cd "$(dirname "$0")/.."

# Seconds since the epoch, to the millisecond; elapsed SINCE: seconds since then, to 0.1 s.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
started=$(now)
step=$started
say() { echo "check-slurm: $*"; }
# Says what a step did and how long it took since the previous one.
done_step() { say "$* ($(elapsed "$step") s)"; step=$(now); }
fail() { echo "check-slurm: FAIL: $*" >&2; exit 1; }

touchtrace="${1:-.build/debug/touchtrace}"
[ -x "$touchtrace" ] || fail "$touchtrace: no executable (swift build --product touchtrace)"
touchtrace="$(cd "$(dirname "$touchtrace")" && pwd)/$(basename "$touchtrace")"
[ "$(id -u)" -eq 0 ] || fail "needs root: the daemons run as root (SlurmUser=root), as in tooling.md §7"

# --- Slurm and munge from Debian's packages -------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null \
  || ! command -v munged >/dev/null; then
  Scripts/apt-install.sh check-slurm slurmctld slurmd slurm-client munge
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/check-slurm.XXXXXX")"
mkdir -p "$work/etc" "$work/spool/ctld" "$work/spool/d" "$work/log" "$work/run"
munged_pid=""
ctld_pid=""
d_pid=""

print_logs() {
  for log in "$work"/log/*.log; do
    [ -s "$log" ] || continue
    echo "--- $log (last 20 lines)" >&2
    tail -n 20 "$log" >&2
  done
}

# Whether a process runs (a zombie, exited but not yet reaped by its parent, does not).
alive() { local state; state="$(ps -o stat= -p "$1" 2>/dev/null)" && [[ "$state" != Z* ]]; }

# Stops a daemon this script started: waits for it to go, then TERM, then KILL, each bounded.
stop_pid() {
  local pid="$1" i
  [ -n "$pid" ] || return 0
  for i in $(seq 1 50); do alive "$pid" || return 0; sleep 0.1; done
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 50); do alive "$pid" || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}

cleanup() {
  local status=$?
  trap - EXIT
  set +e
  [ -z "${bounded_pid:-}" ] || kill -TERM "$bounded_pid" 2>/dev/null
  if [ "$status" -ne 0 ]; then
    say "logs of the cluster:" >&2
    print_logs
  fi
  if [ -n "$ctld_pid$d_pid" ]; then
    # `scontrol shutdown` stops slurmctld and slurmd; stop_pid waits for them (and insists).
    timeout 15 scontrol shutdown >/dev/null 2>&1
    stop_pid "$d_pid"
    stop_pid "$ctld_pid"
  fi
  if [ -n "$munged_pid" ]; then
    kill -TERM "$munged_pid" 2>/dev/null
    stop_pid "$munged_pid"
  fi
  rm -rf "$work"
  say "$( [ "$status" -eq 0 ] && echo passed || echo failed ) in $(elapsed "$started") s"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step=$(now)
# --- munge: the recipe's key and socket directory; reuse a munged that already answers --------
mkdir -p /run/munge
[ -f /etc/munge/munge.key ] || dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
chown munge:munge /etc/munge/munge.key /run/munge
chmod 400 /etc/munge/munge.key
if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  say "munged already running; using it"
else
  # A pid file left by a munged that was killed would name some other process by now.
  rm -f /run/munge/munged.pid
  su -s /bin/sh munge -c /usr/sbin/munged
  for _ in $(seq 1 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
  munged_pid="$(cat /run/munge/munged.pid 2>/dev/null || true)"
  [ -n "$munged_pid" ] || fail "munged did not start (see /var/log/munge/munged.log)"
  munge -n | unmunge >/dev/null || fail "munge does not answer after 5 s (see /var/log/munge/munged.log)"
fi

# --- slurm.conf: tooling.md §7's settings; ports, state, pid files in $work --------------------
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ctld_port="$(free_port)"
d_port="$(free_port)"
[ "$ctld_port" != "$d_port" ] || d_port="$(free_port)"
H="$(hostname -s)"
export SLURM_CONF="$work/etc/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=ci
SlurmctldHost=$H
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=$work/spool/ctld
SlurmdSpoolDir=$work/spool/d
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
NodeName=$H CPUs=$(nproc) RealMemory=4000 State=UNKNOWN
PartitionName=main Nodes=$H Default=YES MaxTime=INFINITE State=UP
CONF
# No cgroup.conf (tooling.md §7: CgroupPlugin=disabled makes 22.05's slurmd fail).

/usr/sbin/slurmctld -f "$SLURM_CONF" -L "$work/log/ctld.log"
for _ in $(seq 1 50); do [ -s "$work/run/slurmctld.pid" ] && break; sleep 0.1; done
ctld_pid="$(cat "$work/run/slurmctld.pid" 2>/dev/null || true)"
[ -n "$ctld_pid" ] || fail "slurmctld did not start"
/usr/sbin/slurmd -f "$SLURM_CONF" -L "$work/log/d.log"
for _ in $(seq 1 50); do [ -s "$work/run/slurmd.pid" ] && break; sleep 0.1; done
d_pid="$(cat "$work/run/slurmd.pid" 2>/dev/null || true)"
[ -n "$d_pid" ] || fail "slurmd did not start"

state=""
for _ in $(seq 1 60); do
  state="$(timeout 10 sinfo --noheader --Node --format=%T 2>/dev/null | head -n 1 || true)"
  [ "$state" = idle ] && break
  sleep 1
done
if [ "$state" != idle ]; then
  timeout 10 sinfo >&2 || true
  timeout 10 scontrol show node "$H" >&2 || true
  fail "node $H is '${state:-unknown}', not idle, after 60 s"
fi
done_step "single-node cluster up (munge, slurmctld, slurmd): node $H idle, slurmctld on port $ctld_port, slurmd on $d_port"

# Runs a command for at most $1 seconds: a job that never runs makes `sbatch --wait` fail here,
# not hang. In the background and waited for, so that an interrupt is handled at once (bash
# runs a trap only after the foreground command ends); the cleanup stops it.
bounded_pid=""
bounded() {
  local status=0
  timeout --kill-after=10 "$1" "${@:2}" &
  bounded_pid=$!
  wait "$bounded_pid" || status=$?
  bounded_pid=""
  return "$status"
}

# --- 1. a job array of a trivial job ----------------------------------------------------------
mkdir -p "$work/trivial"
cat > "$work/trivial.sh" <<'JOB'
#!/bin/sh
echo "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" > "$1/task-$SLURM_ARRAY_TASK_ID"
JOB
bounded 120 sbatch --quiet --array=0-3 --wait --output="$work/log/trivial-%a.log" "$work/trivial.sh" "$work/trivial" \
  || fail "the trivial array did not succeed"
for i in 0 1 2 3; do
  [ "$(cat "$work/trivial/task-$i" 2>/dev/null)" = "$i/4" ] || fail "trivial array task $i did not write $i/4"
done
done_step "a 4-task array ran: each task saw its index and the count"

# --- 2. the deploy scripts with a stand-in executable ------------------------------------------
# The stand-in `touchtrace`: a shard writes its command, arguments and shard to its partial
# (and fails when STANDIN_FAIL_SHARD names it); `merge DIR --output F` requires parts 0 … N-1
# and writes them in order to F.
mkdir -p "$work/bin" "$work/standin"
cat > "$work/bin/standin" <<'STANDIN'
#!/usr/bin/env bash
set -euo pipefail
if [ "$1" = merge ]; then
  parts="$2"; shift 2; output=""
  while [ "$#" -gt 0 ]; do [ "$1" = --output ] && output="$2"; shift; done
  count="$(ls "$parts" | wc -l)"
  for ((i = 0; i < count; i++)); do cat "$parts/part-$i.partial"; done > "$output"
  exit 0
fi
shard=""; partial=""; arguments=("$@")
while [ "$#" -gt 0 ]; do
  case "$1" in --shard) shard="$2"; shift ;; --partial) partial="$2"; shift ;; esac
  shift
done
[ "${STANDIN_FAIL_SHARD:-}" != "${shard%/*}" ] || { echo "stand-in: shard $shard fails on purpose" >&2; exit 3; }
echo "${arguments[*]}" > "$partial"
STANDIN
chmod +x "$work/bin/standin"
TOUCHTRACE="$work/bin/standin" bounded 180 deploy/slurm/submit.sh --shards 4 --run-dir "$work/standin/run" \
  --output "$work/standin/report.txt" --wait -- sweep samples/ --recognizer all \
  || fail "submit.sh --wait with the stand-in did not succeed"
for i in 0 1 2 3; do
  echo "sweep samples/ --recognizer all --shard $i/4 --partial $work/standin/run/parts/part-$i.partial"
done > "$work/standin/expected.txt"
cmp "$work/standin/expected.txt" "$work/standin/report.txt" \
  || { diff -u "$work/standin/expected.txt" "$work/standin/report.txt" | head -n 20 >&2; fail "stand-in merge differs"; }
done_step "submit.sh: 4 shards, then the merge after the whole array (stand-in executable)"

set +e
STANDIN_FAIL_SHARD=2 TOUCHTRACE="$work/bin/standin" bounded 180 deploy/slurm/submit.sh --shards 4 \
  --run-dir "$work/standin/failing" --output "$work/standin/failing-report.txt" --wait -- sweep samples/ \
  > "$work/standin/failing.out" 2>&1
status=$?
set -e
[ "$status" -eq 1 ] || { cat "$work/standin/failing.out" >&2; fail "submit.sh --wait with a failing shard exited $status, not 1"; }
[ ! -e "$work/standin/failing-report.txt" ] || fail "the merge ran although a shard failed"
grep -q "shard 2/4 fails on purpose" "$work/standin/failing.out" \
  || { cat "$work/standin/failing.out" >&2; fail "submit.sh did not show the failing shard's log"; }
done_step "submit.sh --wait: a failing shard fails the run (exit 1), the merge never runs"

set +e
env -u SLURM_ARRAY_TASK_ID -u SLURM_ARRAY_TASK_COUNT deploy/slurm/touchtrace-shard.sbatch sweep samples/ \
  > "$work/standin/direct.out" 2>&1
status=$?
set -e
if [ "$status" -ne 64 ] || ! grep -q "not a task of a job array" "$work/standin/direct.out"; then
  cat "$work/standin/direct.out" >&2
  fail "touchtrace-shard.sbatch outside an array exited $status"
fi
set +e
TOUCHTRACE="$work/bin/standin" TOUCHTRACE_PARTS="$work/standin/single" bounded 120 sbatch --quiet --wait \
  --output="$work/standin/single.out" deploy/slurm/touchtrace-shard.sbatch sweep samples/
status=$?
set -e
if [ "$status" -eq 0 ] || ! grep -q "not a task of a job array" "$work/standin/single.out"; then
  cat "$work/standin/single.out" >&2
  fail "touchtrace-shard.sbatch as a plain job exited $status"
fi
done_step "touchtrace-shard.sbatch refuses to run outside an array (directly: exit 64; as a plain job: failed)"

# --- 3. touchtrace: unsharded against 4 shards and merge, byte for byte ------------------------

# Compares two files byte for byte; on a difference prints where and a diff excerpt.
same() {
  local expected="$1" actual="$2" what="$3"
  if ! cmp "$expected" "$actual"; then
    diff -u "$expected" "$actual" | head -n 40 >&2
    fail "$what: the merged report differs from the unsharded one"
  fi
}

# One command unsharded and through submit.sh with 4 shards, each format compared. FORMATS are
# the formats compared, the first one the report itself (--format, --output); ALONGSIDE those the
# command writes with it (--json-output, --csv-output; so does the merge). Every other format is
# a run of its own with --format, and a merge of its own of the same partials by
# touchtrace-merge.sbatch.
check_command() {
  local name="$1" formats="$2" alongside="$3"; shift 3
  local full="$work/$name/full" sharded="$work/$name/sharded" run="$work/$name/run"
  mkdir -p "$full" "$sharded"
  local first="${formats%% *}" together=() merged_together=() format
  for format in $alongside; do
    together+=("--$format-output" "$full/report.$format")
    merged_together+=("--$format-output" "$sharded/report.$format")
  done
  "$touchtrace" "$@" --quiet --format "$first" --output "$full/report.$first" ${together[@]+"${together[@]}"}
  for format in ${formats#"$first"}; do
    [[ " $alongside " == *" $format "* ]] || "$touchtrace" "$@" --quiet --format "$format" --output "$full/report.$format"
  done
  TOUCHTRACE="$touchtrace" bounded 900 deploy/slurm/submit.sh --shards 4 --run-dir "$run" \
    --format "$first" --output "$sharded/report.$first" ${merged_together[@]+"${merged_together[@]}"} \
    --quiet --wait -- "$@" || fail "$name through 4 shards did not succeed"
  for format in ${formats#"$first"}; do
    [[ " $alongside " == *" $format "* ]] && continue
    TOUCHTRACE="$touchtrace" TOUCHTRACE_PARTS="$run/parts" bounded 120 sbatch --quiet --wait \
      --output="$run/logs/merge-$format.out" deploy/slurm/touchtrace-merge.sbatch --format "$format" \
      --output "$sharded/report.$format" --quiet \
      || { cat "$run/logs/merge-$format.out" >&2; fail "$name: the $format merge did not succeed"; }
  done
  for format in $formats; do
    same "$full/report.$format" "$sharded/report.$format" "touchtrace $* ($format)"
  done
  done_step "touchtrace $*: 4 shards merged byte-identical to the unsharded report (${formats// /, })"
}

check_command sweep "md json csv" "json csv" sweep samples/ --recognizer all,tap+deep-press,long-press+deep-press
check_command tune "md json csv" json tune samples/ --recognizer deep-press,stable-press --folds 3 --bootstrap 200
check_command compare "md json csv" "" compare samples/ --a deep-press:threshold=0.4 --b stable-press --bootstrap 200
check_command run "json csv" "" run samples/ --recognizer tap --require-failure-of deep-press

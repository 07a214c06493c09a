#!/usr/bin/env bash
# Submits a sharded TouchTrace run to Slurm: a job array of N shards (touchtrace-shard.sbatch),
# then the merge (touchtrace-merge.sbatch) with --dependency=afterok on the whole array.
# See deploy/slurm/README.md.
#
#   deploy/slurm/submit.sh --shards 4 --output sweep.md --json-output sweep.json --wait \
#     -- sweep data/ --recognizer all
#
# Exit status: 0 submitted (with --wait: the merge succeeded); 1 a shard or the merge failed
# (--wait); 64 usage; 69 sbatch refused a job; 75 --wait gave up after --timeout (jobs cancelled).
set -euo pipefail

me="submit.sh"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

usage() {
  cat <<USAGE
usage: $me [OPTION...] [--] COMMAND ARGUMENT...

Runs touchtrace COMMAND ARGUMENT... (sweep, tune, compare or run) as N Slurm array tasks, each
with --shard I/N --partial, and merges the partial results into the report.

  --shards N           number of shards, the array's size (default: 4)
  --run-dir DIR        partial results go to DIR/parts, job logs to DIR/logs
                       (default: a new directory ./touchtrace-run.XXXXXX)
  --format F, --output FILE, --json-output FILE, --csv-output FILE, --quiet
                       passed to touchtrace merge (without --output: DIR/report.FORMAT)
  --sbatch OPTION      an option for both sbatch calls, e.g. --sbatch --partition=main
                       (repeatable)
  --wait               wait until the merge ends; exit 1 when a shard or the merge failed
  --timeout SECONDS    with --wait, cancel both jobs and exit 75 after this long (default: 3600)
  -h, --help           this help

Environment: TOUCHTRACE, the executable the jobs run (default: touchtrace on their PATH).
USAGE
}

die_usage() { echo "$me: error: $*" >&2; echo "see '$me --help'" >&2; exit 64; }

shards=4
run_dir=""
wait_for_merge=no
timeout=3600
merge_options=()
sbatch_options=()
has_output=no
format=md
while [ "$#" -gt 0 ]; do
  case "$1" in
    --shards) [ "$#" -ge 2 ] || die_usage "--shards needs a value"; shards="$2"; shift 2 ;;
    --run-dir) [ "$#" -ge 2 ] || die_usage "--run-dir needs a value"; run_dir="$2"; shift 2 ;;
    --format) [ "$#" -ge 2 ] || die_usage "--format needs a value"; format="$2"; merge_options+=("$1" "$2"); shift 2 ;;
    --output) [ "$#" -ge 2 ] || die_usage "--output needs a value"; has_output=yes; merge_options+=("$1" "$2"); shift 2 ;;
    --json-output | --csv-output)
      [ "$#" -ge 2 ] || die_usage "$1 needs a value"; merge_options+=("$1" "$2"); shift 2 ;;
    --quiet) merge_options+=("$1"); shift ;;
    --sbatch) [ "$#" -ge 2 ] || die_usage "--sbatch needs a value"; sbatch_options+=("$2"); shift 2 ;;
    --wait) wait_for_merge=yes; shift ;;
    --timeout) [ "$#" -ge 2 ] || die_usage "--timeout needs a value"; timeout="$2"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    -*) die_usage "unknown option $1" ;;
    *) break ;;
  esac
done
[ "$#" -ge 1 ] || die_usage "no command (sweep, tune, compare or run) and arguments"
case "$shards" in '' | *[!0-9]* | 0) die_usage "--shards must be a whole number ≥ 1, got '$shards'" ;; esac
case "$timeout" in '' | *[!0-9]*) die_usage "--timeout must be whole seconds, got '$timeout'" ;; esac
command -v sbatch >/dev/null 2>&1 || { echo "$me: error: sbatch not found: is this a Slurm submission host?" >&2; exit 69; }

if [ -z "$run_dir" ]; then
  run_dir="$(mktemp -d "$PWD/touchtrace-run.XXXXXX")"
fi
mkdir -p "$run_dir/parts" "$run_dir/logs"
run_dir="$(cd "$run_dir" && pwd)"
if [ -n "$(ls -A "$run_dir/parts")" ]; then
  echo "$me: error: $run_dir/parts is not empty; partial results of another run would mix in" >&2
  exit 64
fi
if [ "$has_output" = no ]; then
  merge_options+=(--output "$run_dir/report.$format")
fi

# The jobs see this environment (--export=ALL): the parts directory and TOUCHTRACE.
export TOUCHTRACE_PARTS="$run_dir/parts"

submit() {
  local output
  if ! output="$(sbatch --parsable --export=ALL "$@")"; then
    echo "$me: error: sbatch refused the job: sbatch $*" >&2
    exit 69
  fi
  echo "${output%%;*}"  # --parsable prints ID or ID;CLUSTER
}

array_id="$(submit --array="0-$((shards - 1))" --output="$run_dir/logs/shard-%a.out" \
  ${sbatch_options[@]+"${sbatch_options[@]}"} "$here/touchtrace-shard.sbatch" "$@")"
merge_id="$(submit --dependency="afterok:$array_id" --kill-on-invalid-dep=yes --output="$run_dir/logs/merge.out" \
  ${sbatch_options[@]+"${sbatch_options[@]}"} "$here/touchtrace-merge.sbatch" "${merge_options[@]}")"
echo "$me: array job $array_id ($shards shards of touchtrace $*), merge job $merge_id; run directory $run_dir"

[ "$wait_for_merge" = yes ] || exit 0

# A job's state and reason from the controller (finished jobs stay there MinJobAge, 300 s by default).
field() { scontrol show job "$1" --oneliner 2>/dev/null | head -n 1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# The array's tasks with their states, and the logs of the first three that did not complete
# (and the merge's, if it wrote one).
show_failure() {
  local tasks unfinished shown=0 task log
  tasks="$(scontrol show job "$array_id" --oneliner 2>/dev/null | awk '{
    task = ""; state = ""; code = ""
    for (i = 1; i <= NF; i++) {
      if ($i ~ /^ArrayTaskId=/) task = substr($i, 13)
      if ($i ~ /^JobState=/) state = substr($i, 10)
      if ($i ~ /^ExitCode=/) code = substr($i, 10)
    }
    print task, state, code }' | sort -n)"
  echo "$me: the shards (array job $array_id): task, state, exit code" >&2
  echo "$tasks" | sed 's/^/  /' >&2
  unfinished="$(echo "$tasks" | awk '$2 != "COMPLETED" { print $1 }')"
  for task in $unfinished; do
    log="$run_dir/logs/shard-$task.out"
    [ -s "$log" ] || continue
    if [ "$shown" -eq 3 ]; then echo "$me: (more logs in $run_dir/logs)" >&2; break; fi
    echo "--- $log (last lines)" >&2
    tail -n 20 "$log" >&2
    shown=$((shown + 1))
  done
  log="$run_dir/logs/merge.out"
  if [ -s "$log" ]; then echo "--- $log (last lines)" >&2; tail -n 20 "$log" >&2; fi
}

deadline=$(( $(date +%s) + timeout ))
while :; do
  state="$(field "$merge_id" JobState)"
  reason="$(field "$merge_id" Reason)"
  case "$state" in
    COMPLETED)
      echo "$me: merge job $merge_id completed; logs in $run_dir/logs"
      exit 0 ;;
    PENDING | CANCELLED)
      if [ "$reason" = DependencyNeverSatisfied ]; then
        scancel "$merge_id" 2>/dev/null || true
        echo "$me: error: a shard of array job $array_id failed; the merge (job $merge_id) will not run" >&2
        show_failure
        exit 1
      fi
      if [ "$state" = CANCELLED ]; then
        echo "$me: error: merge job $merge_id was cancelled ($reason)" >&2
        show_failure
        exit 1
      fi ;;
    RUNNING | CONFIGURING | COMPLETING | REQUEUED | RESIZING | SUSPENDED) ;;
    "")
      echo "$me: error: the controller no longer knows merge job $merge_id (see $run_dir/logs)" >&2
      exit 1 ;;
    *)
      echo "$me: error: merge job $merge_id ended $state" >&2
      show_failure
      exit 1 ;;
  esac
  if [ "$(date +%s)" -ge "$deadline" ]; then
    scancel "$array_id" "$merge_id" 2>/dev/null || true
    echo "$me: error: gave up after $timeout s (merge job $merge_id $state, $reason); cancelled both jobs" >&2
    show_failure
    exit 75
  fi
  sleep 1
done

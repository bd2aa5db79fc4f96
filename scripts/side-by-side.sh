#!/usr/bin/env bash
# Usage: scripts/side-by-side.sh [-j N] [-l LOGDIR] [-last STEP] STEP[:AFTER[,AFTER...]]...
#
# Runs make targets (the STEPs) side by side: each as `$MAKE
# --no-print-directory STEP` (MAKE defaults to make), started in the order
# given once every step it names after the colon has passed, with at most N
# running at once (-j, default 4). A step whose AFTER step failed is not
# run: it is reported as skipped. `make test` runs its checks and suites
# this way.
#
# Output stays readable: each step's output is kept in LOGDIR/STEP.log
# (default test-output/steps) and printed whole, under one header line
# with its outcome and time, when the step ends. The step named by -last is
# printed at the very end, after the summary of all steps (outcome, seconds,
# the load at start and end), so that the run closes with that step's own
# lines (e.g. go test's package lines). Exits 0 when every step passed, 1
# otherwise, naming the steps that failed or were skipped.
#
# SIGINT, SIGTERM and SIGHUP end every running step (its whole process
# group) and the script exits 130, 143 or 129.
set -uo pipefail

# wait -n -p (which step ended) is bash 5.1's.
if [ "${BASH_VERSINFO[0]}" -lt 5 ] || { [ "${BASH_VERSINFO[0]}" = 5 ] && [ "${BASH_VERSINFO[1]}" -lt 1 ]; }; then
  echo "$0: needs bash 5.1 or later (this is $BASH_VERSION)" >&2
  exit 2
fi

jobs=4
logdir=test-output/steps
last=
while [ "$#" -gt 0 ]; do
  case $1 in
  -j) jobs=$2; shift 2 ;;
  -l) logdir=$2; shift 2 ;;
  -last) last=$2; shift 2 ;;
  --) shift; break ;;
  -*) echo "$0: unknown option $1" >&2; exit 2 ;;
  *) break ;;
  esac
done
if [ "$#" -eq 0 ] || ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [-j N] [-l LOGDIR] [-last STEP] STEP[:AFTER[,AFTER...]]..." >&2
  exit 2
fi
make=${MAKE:-make}

names=()
declare -A after state pidof started took
for spec in "$@"; do
  name=${spec%%:*}
  deps=
  [[ $spec == *:* ]] && deps=${spec#*:}
  if [ -n "${state[$name]:-}" ]; then
    echo "$0: step $name is named twice" >&2
    exit 2
  fi
  names+=("$name")
  after[$name]=${deps//,/ }
  state[$name]=waiting
done
for name in "${names[@]}"; do
  for d in ${after[$name]}; do
    [ -n "${state[$d]:-}" ] || { echo "$0: step $name runs after $d, which is not a step" >&2; exit 2; }
  done
done
[ -z "$last" ] || [ -n "${state[$last]:-}" ] || { echo "$0: -last $last is not a step" >&2; exit 2; }

mkdir -p "$logdir"
logdir=$(cd "$logdir" && pwd)
# Job control gives each step a process group of its own, so that a signal
# ends the step and everything it started, and nothing else.
set -m
t0=$(date +%s)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
running=0

now() { echo $(($(date +%s) - t0)); }

stop_all() {
  local sig=$1 code=$2
  trap - INT TERM HUP
  for name in "${names[@]}"; do
    [ "${state[$name]}" = running ] && kill -TERM -- "-${pidof[$name]}" 2>/dev/null
  done
  wait
  echo "side-by-side: stopped by SIG$sig" >&2
  exit "$code"
}
trap 'stop_all INT 130' INT
trap 'stop_all TERM 143' TERM
trap 'stop_all HUP 129' HUP

start() {
  local name=$1
  echo "==> $name: started at $(now) s"
  "$make" --no-print-directory "$name" </dev/null >"$logdir/$name.log" 2>&1 &
  pidof[$name]=$!
  started[$name]=$(date +%s)
  state[$name]=running
  running=$((running + 1))
}

show() {
  local name=$1
  echo "===== $name: ${state[$name]}${took[$name]:+ in ${took[$name]} s}"
  [ -f "$logdir/$name.log" ] && cat "$logdir/$name.log"
}

# schedule starts every waiting step whose AFTER steps have passed, while
# fewer than N run, and marks as skipped those with an AFTER step that did
# not pass.
schedule() {
  local name d ready changed=1
  while [ "$changed" = 1 ]; do
    changed=0
    for name in "${names[@]}"; do
      [ "${state[$name]}" = waiting ] || continue
      ready=1
      for d in ${after[$name]}; do
        case ${state[$d]} in
        passed) ;;
        failed | skipped)
          state[$name]=skipped
          echo "after $d ${state[$d]}" >"$logdir/$name.log"
          echo "===== $name: skipped (after $d ${state[$d]})"
          changed=1
          ready=0
          break
          ;;
        *) ready=0 ;;
        esac
      done
      if [ "$ready" = 1 ] && [ "$running" -lt "$jobs" ]; then
        start "$name"
      fi
    done
  done
}

schedule
while [ "$running" -gt 0 ]; do
  pid=
  wait -n -p pid
  rc=$?
  if [ -z "$pid" ]; then
    # A trapped signal ends the wait early; 127 means no step is left,
    # which the count says cannot be.
    [ "$rc" != 127 ] || { echo "$0: no step is running, $running expected" >&2; break; }
    continue
  fi
  for name in "${names[@]}"; do
    [ "${state[$name]}" = running ] && [ "${pidof[$name]}" = "$pid" ] || continue
    running=$((running - 1))
    took[$name]=$(($(date +%s) - ${started[$name]}))
    if [ "$rc" = 0 ]; then state[$name]=passed; else state[$name]=failed; fi
    [ "$name" = "$last" ] || show "$name"
  done
  schedule
done

echo "===== summary: $(now) s in all, load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end; logs in $logdir"
bad=()
for name in "${names[@]}"; do
  printf '  %-24s %-8s %s\n' "$name" "${state[$name]}" "${took[$name]:+${took[$name]} s}"
  [ "${state[$name]}" = passed ] || bad+=("$name")
done
[ -z "$last" ] || [ "${state[$last]}" = skipped ] || show "$last"
if [ "${#bad[@]}" -gt 0 ]; then
  echo "side-by-side: not passed: ${bad[*]}"
  exit 1
fi

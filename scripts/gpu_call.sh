# Sourced first (not run) by the scripts/*_h200.sh device-call scripts, ON the GPU machine: the
# prologue and small functions they all had word for word, and gpu_libs.sh's functions.
#
#   gpu_call_start NAME [FILE]  root (the checkout, made the working directory), out ($OUT, by
#                default $root/NAME-out; created), magnus (build-gpu's tool); with FILE, say_file
#                is $out/FILE, emptied.
#   say TEXT...  prints TEXT and appends it to say_file (when set).
#   has STEP     STEP is one of steps, the comma-separated list the script set.
#   step NAME LIMIT COMMAND...  COMMAND under `timeout LIMIT`; says "NAME: ok (T s)" or
#                "NAME: FAILED (exit N, T s)" and then sets failed=1. While it runs, step_pid is
#                its timeout's process (for a trap that must stop it).
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # magnus, failed and say_file are for the caller; steps is its

# shellcheck source=scripts/gpu_libs.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_libs.sh"

gpu_call_start() {
  root=$(cd "$(dirname "$0")/.." && pwd)
  cd "$root" || exit 2
  out=${OUT:-$root/$1-out}
  mkdir -p "$out"
  magnus=$root/build-gpu/tools/magnus
  if [ -n "${2:-}" ]; then
    say_file=$out/$2
    : >"$say_file"
  fi
  failed=0
}

say() { echo "$*" | tee -a "${say_file:-/dev/null}"; }

has() { [[ ",$steps," == *",$1,"* ]]; }

step() {
  local name=$1 limit=$2 start=$SECONDS rc=0
  shift 2
  # in the background and waited for, so that a caller's trap on TERM (the device tool's limit)
  # runs at once, not after the step; step_pid lets that trap stop it
  timeout "$limit" "$@" &
  step_pid=$!
  wait "$step_pid" || rc=$?
  step_pid=
  if [ "$rc" -eq 0 ]; then say "$name: ok ($((SECONDS - start)) s)"
  else say "$name: FAILED (exit $rc, $((SECONDS - start)) s)"; failed=1; fi
}

# Helpers of the `magnus` CLI tests (sourced by every test_cli*.sh). The caller sets $magnus
# (the binary) and $work (a scratch directory) first; sourcing sets $here (this directory),
# brings in tests/util/require.sh (skip_no_device, require_shared) and empties $work, so that
# each run starts from nothing.
# shellcheck shell=bash
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../util/require.sh
. "$here/../../util/require.sh"
rm -rf "$work"
mkdir -p "$work"
# In a sanitizer build the tool reports leaks at exit; those inside the OpenCL stack are not
# its own (lsan_opencl.supp says why). Harmless elsewhere.
export LSAN_OPTIONS="suppressions=$here/lsan_opencl.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
failures=0
checks=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# device_selected [VAR=VALUE...]: whether `magnus probe`, with those environment settings,
# selects a device (both scripts decide with it what to run or whether to skip).
device_selected() {
    env "$@" "$magnus" probe --json |
        python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["selected"] else 1)'
}

# expect RC CMD...: runs CMD with stdout in $work/out and stderr in $work/err; RC is the
# expected exit status.
expect() {
    local want=$1
    shift
    checks=$((checks + 1))
    "$@" >"$work/out" 2>"$work/err"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "'$*' exited $rc, expected $want"
        sed 's/^/    stdout: /' "$work/out" | head -20 >&2
        sed 's/^/    stderr: /' "$work/err" | head -20 >&2
    fi
}

# contains FILE TEXT: FILE (out or err) contains TEXT literally.
contains() {
    checks=$((checks + 1))
    grep -qF -- "$2" "$work/$1" || {
        fail "$1 of the last command lacks '$2'"
        sed "s/^/    $1: /" "$work/$1" | head -20 >&2
    }
}

# lacks FILE TEXT: FILE (out or err) does not contain TEXT.
lacks() {
    checks=$((checks + 1))
    if grep -qF -- "$2" "$work/$1"; then
        fail "$1 of the last command contains '$2'"
        sed "s/^/    $1: /" "$work/$1" | head -10 >&2
    fi
}

# json FIELD.PATH: prints the field of the JSON object in $work/out ("" if absent or invalid).
json() {
    python3 - "$work/out" "$1" <<'PY' 2>/dev/null
import json, sys
v = json.load(open(sys.argv[1], encoding="utf-8"))
for k in sys.argv[2].split("."):
    v = v[k]
print(json.dumps(v))
PY
}

# same WHAT GOT WANT (an empty value, e.g. a missing JSON field, never matches)
same() {
    checks=$((checks + 1))
    [ -n "$2" ] && [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}

# holds WHAT PYTHON-EXPRESSION: the expression, with the JSON object of $work/out as `d`, is true.
holds() {
    checks=$((checks + 1))
    python3 - "$work/out" "$2" <<'PY' 2>/dev/null || fail "$1: '$2' is false for the last output"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

valid_json() {
    checks=$((checks + 1))
    python3 -m json.tool "$work/out" >/dev/null 2>&1 || {
        fail "stdout of the last command is not valid JSON"
        head -c 2000 "$work/out" >&2
    }
}

# facts FILE [FILE_B]: independent statistics of the Matrix Market file(s), as KEY=VALUE lines.
facts() { python3 "$here/mtx_facts.py" "$@"; }
fact() { facts "${@:2}" | sed -n "s/^$1=//p"; }

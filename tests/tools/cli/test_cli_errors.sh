#!/usr/bin/env bash
# What a user meets when something is wrong, and how devices are named (issue 14, items 3, 4,
# 5, 12): messages in the user's terms (the flag given, never MAGNUS_DEVICE unless it was set,
# no library function names, no doubled prefixes), one prefix "magnus COMMAND: ", exit 2 for
# usage errors (contradictory flags, malformed device specs, generator arguments out of range,
# options that would be ignored), exit 1 for a device that is not there (with the devices
# listed). Device specs by name, vendor and type, derived from `magnus probe --json` on this
# machine (PoCL in CI; never a hard-coded name); the note on a CPU OpenCL device; the demo's
# CPU reference time; bench --systems by spec. Device parts are skipped without a device.
# Usage: test_cli_errors.sh MAGNUS_BINARY WORK_DIR
set -u
magnus=$1
work=$2
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# prefixed CMD: the first line of stderr begins "magnus CMD: ".
prefixed() {
    checks=$((checks + 1))
    head -1 "$work/err" | grep -q "^magnus $1: " || {
        fail "stderr does not begin 'magnus $1: '"
        sed 's/^/    err: /' "$work/err" | head -5 >&2
    }
}

# no_internal_names: stderr names no library function and doubles no prefix.
no_internal_names() {
    checks=$((checks + 1))
    if grep -qE 'magnus_[a-z0-9_]+|gMAGNUS: gMAGNUS|MAGNUS_DEVICE' "$work/err"; then
        fail "stderr shows an internal name or a variable that was not set"
        sed 's/^/    err: /' "$work/err" | head -5 >&2
    fi
}

# The probe's view of this machine: devices, their ids, names, types and specs.
"$magnus" probe --json >"$work/probe.json"
probe() { python3 -c "import json,sys; p=json.load(open('$work/probe.json')); $1"; }
count=$(probe 'print(p["device_count"])')
any_gpu=$(probe 'print(int(any(not d["is_cpu"] for d in p["devices"])))')
# a backend with no device here (there is always one of the three, or the checks are skipped)
absent=$(probe 'print(next((b for b in ("cuda","level0","opencl") if not any(d["backend"]==b for d in p["devices"])), ""))')

# ---- usage errors: exit 2, the flag named --------------------------------------------------
expect 2 "$magnus" multiply rmat:8:4 --backend cuda --device opencl:0
prefixed multiply
contains err "--backend cuda and --device opencl:0 name different backends"
expect 2 "$magnus" params rmat:8:4 --backend level0 --device cuda:1
contains err "--backend level0 and --device cuda:1 name different backends"
expect 2 "$magnus" multiply rmat:8:4 --device gpu:0
prefixed multiply
contains err '"gpu" is not a backend'
no_internal_names
expect 2 "$magnus" multiply rmat:8:4 --device opencl:
contains err "nothing after ':'"
expect 2 "$magnus" demo --scale 6 --device " "
contains err "empty device spec"
expect 2 "$magnus" multiply rmat:8:4 --backend vulkan
contains err "unknown backend 'vulkan'"
expect 2 "$magnus" multiply rmat:8:4 --local-mem 0
contains err "--local-mem 0"
expect 2 "$magnus" params rmat:8:4 --local-mem 0
contains err "--local-mem 0"
# below the minimum: a usage error naming the limits, before any device is chosen
expect 2 "$magnus" multiply rmat:8:4 --local-mem 512
prefixed multiply
contains err "--local-mem 512 is below the minimum: a budget is 1024 bytes (1K) up to the device's local memory per work group"
expect 2 "$magnus" demo --local-mem 1000
contains err "--local-mem 1000 is below the minimum"
expect 2 "$magnus" multiply rmat:8:4 --verify-limit 1000
contains err "--verify-limit needs --verify"
expect 2 "$magnus" multiply rmat:8:4 --verify-vectors 2
contains err "--verify-vectors needs --verify"
expect 2 "$magnus" multiply rmat:8:4 --cpu --local-mem 0
expect 2 "$magnus" multiply rmat:8:4 --cpu --device cpu
contains err "--cpu takes no device options"
# generator arguments out of range: usage errors naming the argument
expect 2 "$magnus" multiply rmat:31:4
prefixed multiply
contains err "rmat: SCALE 31 outside 1..30"
no_internal_names
expect 2 "$magnus" info rmat:0:4
contains err "SCALE 0 outside 1..30"
expect 2 "$magnus" rmat --scale 31 --per-row 4 -o "$work/x.mtx"
prefixed rmat
contains err "--scale 31 outside 1..30"
expect 2 "$magnus" gen rmat 31 4 -o "$work/x.mtx"
contains err "SCALE 31 outside 1..30"
expect 2 "$magnus" gen laplace3d 2000 2000 2000 -o "$work/x.mtx"
contains err "exceed 2^31-1"
expect 2 "$magnus" multiply uniform:3000000000:4:2
contains err "ROWS exceed 2^31-1"
expect 2 "$magnus" gen star 3000000000 1 2 2 -o "$work/x.mtx"
contains err "star: N exceed 2^31-1"
expect 2 "$magnus" info star:100:101:5:3
prefixed info
contains err "star: LONG (the long rows) = 101 exceeds N = 100"
expect 2 "$magnus" multiply star:100:2:500:3:1
contains err "star: LEN (their length) = 500 exceeds N = 100"
expect 2 "$magnus" gen star 100 2 50 101 -o "$work/x.mtx"
contains err "star: DEG (the short rows' degree) = 101 exceeds N = 100"
expect 2 "$magnus" gen star 100 2 50 -o "$work/x.mtx"
contains err "star takes N LONG LEN DEG"
# a negative count is an invalid value, not a missing option or an unknown one (issue 33,
# item 9)
expect 2 "$magnus" rmat --scale 5 --per-row -3 -o "$work/x.mtx"
prefixed rmat
contains err "invalid value '-3' for --per-row (expected a non-negative integer)"
lacks err "required"
expect 2 "$magnus" rmat --scale 5 -o "$work/x.mtx"
contains err "--per-row is required"
expect 2 "$magnus" gen rmat 5 -3 -o "$work/x.mtx"
prefixed gen
contains err "rmat: argument 2 ('-3') must be a non-negative integer"
lacks err "unknown option"
expect 2 "$magnus" gen uniform 5 5 -0.5 -o "$work/x.mtx"
contains err "uniform: argument 3 ('-0.5') must be a non-negative number"
expect 2 "$magnus" rmat --scale 5 --per-row 2 -3 -o "$work/x.mtx"
contains err "unexpected argument '-3'"
# a valid spec just inside the range still runs
expect 0 "$magnus" gen rmat 1 2 -o "$work/tiny.mtx"

# ---- library errors: exit 1, one prefix, the user's terms ----------------------------------
expect 1 "$magnus" multiply laplace2d:4:4 laplace2d:3:3 --cpu
prefixed multiply
contains err "dimension mismatch"
no_internal_names
expect 1 "$magnus" info "$work/missing.mtx"
prefixed info
# info --json: one JSON object on stdout whatever happens, "error" saying what failed (issue 33,
# item 9); the message on stderr too
expect 1 "$magnus" info --json "$work/missing.mtx"
prefixed info
valid_json
same "info --json, no file: source" "$(json source)" "\"$work/missing.mtx\""
holds "info --json, no file: error" "'cannot open' in d['error'] and 'No such file' in d['error']"
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n1 x 3\n' >"$work/bad-index.mtx"
expect 1 "$magnus" info --json "$work/bad-index.mtx"
valid_json
holds "info --json, malformed: error" "'bad-index.mtx:3' in d['error']"
expect 2 "$magnus" info --json rmat:0:4
valid_json
holds "info --json, bad spec: error" "'SCALE 0 outside 1..30' in d['error']"
expect 1 "$magnus" info --json uniform:3:4:2 --square
valid_json
holds "info --json, --square of a 3 x 4: the facts and the error" "d['rows'] == 3 and d['cols'] == 4 and '--square needs a square matrix' in d['error']"
expect 0 "$magnus" info --json laplace2d:2:3
valid_json
same "info --json, success: no error" "$(json error)" null

# ---- help texts ------------------------------------------------------------------------------
expect 0 "$magnus" rmat --help
lacks out "Graph500 Kronecker"
contains out "permutation"
expect 0 "$magnus" gen --help
contains out "rmat SCALE PER_ROW |"
contains out "star N LONG LEN DEG} "
expect 0 "$magnus" probe --help
contains out "BACKEND:TEXT"
contains out "gpu | cpu"
expect 0 "$magnus" params --help
contains out "--backend NAME"
contains out "no --algorithm"
expect 0 "$magnus" info --help
contains out "no --device"

# ---- devices: not there (exit 1, the devices listed), or named by a stable spec -------------
if [ -n "$absent" ]; then
    expect 1 "$magnus" multiply rmat:8:4 --backend "$absent"
    prefixed multiply
    contains err "--backend: "
    contains err "no device matches \"$absent\""
    no_internal_names
    # probe finding no device fails (issue 33, item 9), after listing why, in both forms
    expect 1 env MAGNUS_BACKENDS="$absent" "$magnus" probe
    prefixed probe
    contains err "magnus probe: no device found"
    contains out "no devices found"
    contains out "$absent: "
    expect 1 env MAGNUS_BACKENDS="$absent" "$magnus" probe --json
    valid_json
    same "probe, no device: count" "$(json device_count)" 0
    same "probe, no device: selected" "$(json selected)" null
fi
if [ "$count" -gt 0 ]; then
    expect 0 "$magnus" probe
    # devices, but MAGNUS_DEVICE names none of them: listed, and a failure
    expect 1 env MAGNUS_DEVICE=no-such-device-anywhere "$magnus" probe
    prefixed probe
    contains err "magnus probe: no device selected: "
    lacks out "[selected]"
fi
expect 1 "$magnus" multiply rmat:8:4 --device no-such-device-anywhere
prefixed multiply
contains err "--device: "
contains err 'no device matches "no-such-device-anywhere"'
no_internal_names
# set by the user, the variable is named
expect 1 env MAGNUS_DEVICE=no-such-device-anywhere "$magnus" multiply rmat:8:4
contains err "MAGNUS_DEVICE: "
if [ "$any_gpu" = 0 ]; then
    # no GPU here: --device gpu fails clearly, listing what there is
    expect 1 "$magnus" multiply rmat:8:4 --device gpu
    contains err 'no device matches "gpu"'
    contains err "devices: "
    for id in $(probe 'print(" ".join(d["id"] for d in p["devices"]))'); do contains err "$id"; done
fi

if [ "$count" -gt 0 ]; then
    # every spec the probe lists for a device names that device
    n=$(probe 'print(len(p["devices"]))')
    for i in $(seq 0 $((n - 1))); do
        id=$(probe "print(p['devices'][$i]['id'])")
        probe "print('\n'.join(p['devices'][$i]['specs']))" >"$work/specs"
        checks=$((checks + 1))
        [ -s "$work/specs" ] || fail "probe lists no spec for $id"
        while IFS= read -r spec; do
            expect 0 "$magnus" params rmat:6:4 --device "$spec" --json
            same "params --device '$spec'" "$(json device)" "\"$id\""
        done <"$work/specs"
    done
    # the selected device by a part of its name in another case, with and without backend
    sel=$(probe 'print(next(d["id"] for d in p["devices"] if d["selected"]))')
    backend=${sel%%:*}
    word=$(probe 'd=next(d for d in p["devices"] if d["selected"]); import re; w=[x for x in re.split(r"[^A-Za-z0-9]+", d["name"]) if len(x)>=3] or [d["name"]]; print(w[0].swapcase())')
    same_named=$(probe "import sys; print(sum('$word'.lower() in (d['name']+' '+d['vendor']).lower() for d in p['devices']))")
    if [ "$same_named" = 1 ]; then
        for spec in "$word" "$backend:$word"; do
            expect 0 "$magnus" multiply rmat:8:4 --device "$spec" --verify --json
            same "multiply --device '$spec'" "$(json device.id)" "\"$sel\""
            same "multiply --device '$spec': verified" "$(json verified)" true
        done
        expect 0 "$magnus" multiply rmat:8:4 --backend "$backend" --device "$word" --json
        same "--backend $backend --device '$word'" "$(json device.id)" "\"$sel\""
        expect 0 env MAGNUS_DEVICE="$word" "$magnus" params rmat:6:4 --json
        same "MAGNUS_DEVICE='$word'" "$(json device)" "\"$sel\""
    else
        echo "note: '$word' names $same_named devices here: name checks skipped"
    fi
    # the type of the selected device
    sel_cpu=$(probe 'print(int(next(d["is_cpu"] for d in p["devices"] if d["selected"])))')
    type=$([ "$sel_cpu" = 1 ] && echo cpu || echo gpu)
    expect 0 "$magnus" params rmat:6:4 --device "$type" --json
    chosen=$(json device)
    checks=$((checks + 1))
    probe "import sys; sys.exit(0 if any('\"%s\"' % d['id'] == '$chosen' and d['is_cpu'] == $sel_cpu for d in p['devices']) else 1)" ||
        fail "--device $type chose $chosen"

    # ---- the note on a CPU OpenCL device: stderr and a JSON field, never in JSON stdout ----
    expect 0 "$magnus" multiply rmat:8:4 --device "$sel" --json
    valid_json
    if [ "$sel_cpu" = 1 ]; then
        contains err "note: $sel"
        contains err "CPU OpenCL device"
        contains err "--cpu"
        holds "JSON note" "'CPU OpenCL device' in d['note']"
    else
        lacks err "CPU OpenCL device"
        holds "no JSON note on a GPU" "'note' not in d"
    fi
    expect 0 "$magnus" multiply rmat:8:4 --cpu
    lacks err "CPU OpenCL device"

    # ---- the demo sets the CPU reference's time beside the device's ----------------------------
    expect 0 "$magnus" demo --scale 8 --device "$sel"
    contains out "(CPU reference: "
    expect 0 "$magnus" demo --scale 8 --device "$sel" --json
    holds "demo JSON reference time" "d['reference_seconds'] > 0 and d['compute_seconds'] > 0"

    # ---- bench --systems by spec: the system runs on the device the spec names -------------
    expect 0 "$magnus" bench rmat:7:4 --systems "$type" --no-baseline --no-bandwidth --runs 1 \
        --json "$work/bench.json"
    checks=$((checks + 1))
    python3 -c "import json,sys; b=json.load(open('$work/bench.json')); sys.exit(0 if [s['id'] for s in b['systems']] == ['gmagnus@$sel'] else 1)" ||
        fail "bench --systems $type did not run gmagnus@$sel"
    expect 2 "$magnus" bench rmat:7:4 --systems "gpu:0" --no-baseline --no-bandwidth --runs 1
    contains err "is not a backend"
    expect 2 "$magnus" bench rmat:7:4 --systems "no-such-device-anywhere" --no-baseline --runs 1
    contains err 'no device matches "no-such-device-anywhere"'
else
    echo "note: no device: device spec checks skipped"
fi

# ---- every message begins "magnus COMMAND: " (issue 33, item 9) -------------------------------
# Each line on stderr is a message with the prefix, or a continuation of one: the usage lines,
# the generator specs, indented lines; bench's per-input progress ("[i/N] ...") and its list of
# systems are its log, documented as such (bench/README.md).
all_prefixed() { # COMMAND: the name the messages of the last command must carry
    checks=$((checks + 1))
    local bad
    bad=$(grep -vE "^magnus $1: |^usage: |^\(see 'magnus $1 --help'\)|^specs:|^  |^\[[0-9]+/[0-9]+\] " "$work/err")
    [ -z "$bad" ] || fail "stderr of '$1' has lines without 'magnus $1: ': $(echo "$bad" | head -3)"
}
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 nan\n2 2 1\n' >"$work/nan.mtx"
for args in "info $work/missing.mtx" "info --json $work/missing.mtx" "info rmat:0:4" \
    "info $work/nan.mtx" "multiply $work/nan.mtx --cpu" "multiply rmat:4:2 --cpu -o /nonexistent-dir/c.mtx" \
    "multiply rmat:4:2 --bogus" "multiply rmat:4:2 --local-mem 16" "rmat --scale 4 --per-row -3 -o $work/x.mtx" \
    "gen bogus 1 -o $work/x.mtx" "gen rmat 5 -3 -o $work/x.mtx" "spmv $work/missing.mtx" \
    "params $work/missing.mtx" "demo --scale 99" "bench --csv /nonexistent-dir/x.csv rmat:4:2" \
    "bench" "probe extra"; do
    # shellcheck disable=SC2086
    "$magnus" $args >"$work/out" 2>"$work/err"
    all_prefixed "${args%% *}"
done
if [ -n "$absent" ]; then
    env MAGNUS_BACKENDS="$absent" "$magnus" probe >"$work/out" 2>"$work/err"
    all_prefixed probe
    env MAGNUS_BACKENDS="$absent" "$magnus" multiply rmat:4:2 >"$work/out" 2>"$work/err"
    all_prefixed multiply
fi

echo "cli_errors: $checks checks, $failures failures"
[ "$failures" -eq 0 ]

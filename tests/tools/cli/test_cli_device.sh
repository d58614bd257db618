#!/usr/bin/env bash
# The device path of `magnus multiply` and `magnus demo` through OpenCL (PoCL's CPU device in
# CI): both algorithms and auto, the default, verified against the CPU reference, nnz(C) (and
# auto's long-row share) against an independent Python count, a 4 KiB local-memory budget that
# takes gMAGNUS through two multisplit levels, tiny budgets refused, the randomized
# verification (forced, and chosen by --verify-limit) with its structure count checked in
# Python, the JSON report, the default budget (min(device, 48 KiB)) and the
# device's whole local memory asked for, and bad device choices (exit 1 or 2 with the reason).
# Skips (77) when the probe finds no OpenCL device.
# Usage: test_cli_device.sh MAGNUS_BINARY WORK_DIR
set -u
magnus=$1
work=$2
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

device_selected MAGNUS_BACKENDS=opencl || skip_no_device opencl "no OpenCL device"

# A pair like the demo's (A 4 per row, B 8 per row, distinct seeds), as files, so that Python
# can count the product independently.
expect 0 "$magnus" rmat --scale 10 --per-row 4 --seed 1 -o "$work/a.mtx"
expect 0 "$magnus" rmat --scale 10 --per-row 8 --seed 2 -o "$work/b.mtx"
# The OpenCL device's own local memory per work group, from the probe.
device_local=$(MAGNUS_BACKENDS=opencl "$magnus" probe --json | python3 -c \
    'import json,sys; p=json.load(sys.stdin); print([d for d in p["devices"] if d["selected"]][0]["local_mem_bytes"])')
default_local=$((device_local < 49152 ? device_local : 49152))
nnz_ab=$(fact nnz_product "$work/a.mtx" "$work/b.mtx")
products_ab=$(fact products "$work/a.mtx" "$work/b.mtx")
checks=$((checks + 1))
[ -n "$nnz_ab" ] && [ "$nnz_ab" -gt 0 ] || fail "mtx_facts.py gave no nnz(A*B)"

# ---- both algorithms through OpenCL, exact verification -------------------------------------
for algorithm in gmagnus hash; do
    expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl \
        --algorithm "$algorithm" --verify --json
    valid_json
    same "$algorithm: verified" "$(json verified)" true
    same "$algorithm: method" "$(json verification.method)" '"exact"'
    same "$algorithm: nnz(C)" "$(json C.nnz)" "$nnz_ab"
    same "$algorithm: products" "$(json products)" "$products_ab"
    same "$algorithm: report nnz_c" "$(json report.nnz_c)" "$nnz_ab"
    same "$algorithm: report products" "$(json report.products_total)" "$products_ab"
    same "$algorithm: backend" "$(json device.backend)" '"opencl"'
    same "$algorithm: report algorithm" "$(json report.algorithm)" "\"$algorithm\""
    same "$algorithm: device maximum" "$(json device.device_local_mem_bytes)" "$device_local"
    same "$algorithm: default budget" "$(json device.local_mem_bytes)" "$default_local"
    same "$algorithm: budget used" "$(json report.local_mem_bytes)" "$default_local"
    holds "$algorithm: times" "d['compute_seconds'] > 0 and d['report']['time_total_ms'] > 0 and d['setup_seconds'] >= 0"
done
# ---- the default, auto: one of the two, and why (the long rows' share counted in Python) ----
# On the default budget and on 1 KiB, whose hash tables hold so few products that most of
# this pair's rows are long; the share rule alone (dense rows off: this C would fit them).
export MAGNUS_DENSE_ROWS=0
for budget in default 1024; do
    if [ "$budget" = default ]; then
        expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl --verify --json
    else
        expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl --verify --json \
            --local-mem "$budget"
    fi
    valid_json
    same "auto $budget: verified" "$(json verified)" true
    same "auto $budget: nnz(C)" "$(json report.nnz_c)" "$nnz_ab"
    same "auto $budget: requested" "$(json report.algorithm_requested)" '"auto"'
    holds "auto $budget: ran one of the two" "d['report']['algorithm'] in ('gmagnus', 'hash')"
    holds "auto $budget: a reason" "d['report']['algorithm_reason'].startswith('auto')"
    holds "auto $budget: choice timed" \
        "0 <= d['report']['time_choice_ms'] <= d['report']['time_total_ms']"
    long_over=$(json report.auto_long_row_products)
    holds "auto $budget: a threshold" "d['report']['auto_long_row_products'] > 0"
    long_ab=$(MTX_LONG_ROW_PRODUCTS="$long_over" fact long_products "$work/a.mtx" "$work/b.mtx")
    holds "auto $budget: long share ($long_ab of $products_ab products)" \
        "abs(d['report']['auto_long_share'] - $long_ab / $products_ab) <= 1e-14"
    holds "auto $budget: the rule" \
        "d['report']['algorithm'] == ('hash' if $long_ab / $products_ab < 0.25 else 'gmagnus')"
    same "auto $budget: engine" "$(json engine)" \
        "$(json report.algorithm | sed 's/"gmagnus"/"gMAGNUS"/')"
done
expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --device opencl:0 --verify
contains out "method:   "
contains out "(the limit: 25% for the first plus 2 times the second), chosen in"
contains out "verified: yes (exact"
unset MAGNUS_DENSE_ROWS
# With dense rows (the default), a C this narrow takes the hash algorithm, from its width alone.
expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl --verify --json
valid_json
same "auto dense rows: verified" "$(json verified)" true
same "auto dense rows: algorithm" "$(json report.algorithm)" '"hash"'
same "auto dense rows: chosen by width" "$(json report.auto_dense_rows)" 1
holds "auto dense rows: C fits" "d['report']['dense_row_columns'] >= $(json report.rows_total)"
expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --device opencl:0 --verify
contains out "fit a dense row in local memory"

# "magnus", gMAGNUS's former name, still selects it; the outputs name it gmagnus.
expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl --algorithm magnus --json
valid_json
same "--algorithm magnus: report algorithm" "$(json report.algorithm)" '"gmagnus"'
# The text report names device, engine, phases and verification (gMAGNUS's: tau).
expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --device opencl:0 --algorithm gmagnus \
    --verify
contains out "device:   opencl:0"
contains out "(device maximum "
contains out "by gMAGNUS"
contains out "method:   gMAGNUS, requested by the options"
contains out "phases:"
contains out "tau"
contains out "peak device memory"
contains out "verified: yes (exact"

# ---- a small budget: heavy rows split over at least two multisplit levels --------------------
# The budget that gives two levels depends on the device's subgroup size (local histograms per
# group), so it is searched with `magnus params` on this device: the smallest from 1 KiB up.
small=$(for b in $(seq 1024 256 16384); do
    MAGNUS_BACKENDS=opencl "$magnus" params --local-mem "$b" --json rmat:12:4:1 rmat:12:8:2 2>/dev/null |
        python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d["levels"] >= 2 else 1)' \
        && { echo "$b"; break; }
done)
if [ -z "$small" ]; then
    echo "NOTE: no budget of 1-16 KiB plans two levels for rmat:12 on this device: level checks skipped"
else
for how in "--local-mem $small" "env"; do
    if [ "$how" = env ]; then
        expect 0 env MAGNUS_LOCAL_MEM_BYTES="$small" "$magnus" multiply rmat:12:4:1 rmat:12:8:2 \
            --backend opencl --algorithm magnus --verify --json
    else
        # shellcheck disable=SC2086
        expect 0 "$magnus" multiply rmat:12:4:1 rmat:12:8:2 --backend opencl $how \
            --algorithm magnus --verify --json
    fi
    valid_json
    same "$small B ($how): verified" "$(json verified)" true
    same "$small B ($how): budget" "$(json report.local_mem_bytes)" "$small"
    holds "$small B ($how): levels >= 2" "d['report']['levels'] >= 2"
    holds "$small B ($how): chunks per level multiply to chunks required" \
        "__import__('math').prod(d['report']['chunks_per_level']) == d['report']['chunks_required'] and len(d['report']['chunks_per_level']) == d['report']['levels']"
    holds "$small B ($how): heavy rows" "0 < d['report']['rows_heavy'] < d['report']['rows_total'] and d['report']['chat_bytes'] > 0"
    holds "$small B ($how): phase times per level" "len(d['report']['time_multisplit_ms']) == d['report']['levels']"
done
expect 0 "$magnus" multiply rmat:12:4:1 rmat:12:8:2 --backend opencl --local-mem "$small" \
    --algorithm magnus
contains out "(required: "
fi

# ---- the device's whole local memory, asked for (above the 48 KiB default on PoCL) ----------
expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl \
    --local-mem "$device_local" --verify --json
valid_json
same "whole budget: verified" "$(json verified)" true
same "whole budget: in effect" "$(json device.local_mem_bytes)" "$device_local"
same "whole budget: used" "$(json report.local_mem_bytes)" "$device_local"
# above the device's: a usage error naming both limits (issue 33, item 9); the library's own
# refusal when the budget comes from the environment
expect 2 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl \
    --local-mem $((device_local + 1))
contains err "magnus multiply: --local-mem $((device_local + 1)) is above the device's local memory: a budget is 1024 bytes (1K) up to $device_local ("
expect 2 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl \
    --local-mem $((device_local + 1)) --json
valid_json
holds "above the device: JSON error" "'is above the device' in d['error']"
expect 2 "$magnus" demo --scale 6 --backend opencl --local-mem $((device_local + 1))
contains err "magnus demo: --local-mem $((device_local + 1)) is above the device's local memory"
expect 2 "$magnus" params rmat:6:2 --backend opencl --local-mem $((device_local + 1))
contains err "magnus params: --local-mem $((device_local + 1)) is above the device's local memory"
expect 1 env MAGNUS_LOCAL_MEM_BYTES=$((device_local + 1)) "$magnus" multiply "$work/a.mtx" \
    --backend opencl
contains err "exceeds"

# ---- the two budgets (issue 33, item 6): the hash tables and gMAGNUS keep to the budget, the
# dense rows take the device's whole local memory unless a budget was set; the report prints
# both where they differ ---------------------------------------------------------------------
bytes() { python3 -c 'import sys; b=int(sys.argv[1]); u=0; v=float(b)
while v >= 1024 and u < 4: v /= 1024; u += 1
print("%d bytes" % b if u == 0 else "%.2f %s" % (v, ["", "KiB", "MiB", "GiB", "TiB"][u]))' "$1"; }
expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl --algorithm hash --json
same "default budget: dense rows' budget" "$(json report.dense_rows_local_bytes)" "$device_local"
holds "default budget: dense rows" "d['report']['dense_row_columns'] >= 1024"
expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl --algorithm hash
if [ "$device_local" -gt "$default_local" ]; then
    contains out "local memory $(bytes "$default_local") per work group, dense rows up to $(bytes "$device_local") (device maximum $(bytes "$device_local"))"
else
    contains out "local memory $(bytes "$default_local") per work group (device maximum"
fi
contains out "in $(bytes "$device_local") of local memory): "
expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl --algorithm hash \
    --local-mem "$default_local" --json
same "budget set: the dense rows keep to it" "$(json report.dense_rows_local_bytes)" "$default_local"
expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl --algorithm hash \
    --local-mem "$default_local"
contains out "local memory $(bytes "$default_local") per work group (device maximum"
expect 0 env MAGNUS_DENSE_ROWS=0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl \
    --algorithm hash --json
same "no dense rows: no budget of theirs" "$(json report.dense_rows_local_bytes)" 0
# demo --help names the method that runs: AUTO's choice, the hash algorithm where C's columns
# fit a dense row (as the demo's do wherever the report says they fit)
expect 0 "$magnus" demo --help
contains out "The method is the library's choice (--algorithm auto"
expect 0 "$magnus" demo --scale 10 --backend opencl --json
same "demo: algorithm requested" "$(json report.algorithm_requested)" '"auto"'
holds "demo: the hash algorithm when C fits a dense row, as --help says" \
    "d['report']['dense_row_columns'] < 1024 or (d['report']['algorithm'] == 'hash' and d['report']['auto_dense_rows'] == 1)"

# ---- randomized verification: forced, and chosen above --verify-limit -----------------------
expect 0 "$magnus" multiply "$work/a.mtx" "$work/b.mtx" --backend opencl --verify=random --json --type f32
valid_json
same "random: verified" "$(json verified)" true
same "random: method" "$(json verification.method)" '"random"'
same "random: structure nnz (Python)" "$(json verification.structure_nnz)" "$nnz_ab"
same "random: structure matched" "$(json verification.structure_matched)" true
same "random: vectors" "$(json verification.vectors)" 4
holds "random: errors below the f32 tolerance" "0 <= d['verification']['rel_error'] <= 1e-4 and 0 <= d['verification']['rel_error_row'] <= 1e-4 and d['verification']['tolerance'] == 1e-4"
expect 0 "$magnus" multiply rmat:11:4:1 rmat:11:8:2 --backend opencl --algorithm hash --type f64 \
    --verify --verify-limit 1000 --verify-vectors 2 --verify-seed 9 --json
valid_json
same "limit: method" "$(json verification.method)" '"random"'
same "limit: verified" "$(json verified)" true
same "limit: vectors" "$(json verification.vectors)" 2
holds "limit: f64 tolerance" "d['verification']['tolerance'] == 1e-10 and d['verification']['rel_error_row'] <= 1e-10"
expect 0 "$magnus" multiply rmat:11:4:1 --backend opencl --verify=random
contains out "verified: yes (random: 4 vectors"
contains out "structure: every row has the columns"
contains out "C·x on device opencl"
# --verify-on: the host on request, the device or an error, a usage error for a typo
expect 0 "$magnus" multiply rmat:11:4:1 --backend opencl --verify=random --verify-on host --json
same "verify-on host" "$(json verification.vectors_on)" '"host"'
expect 0 "$magnus" multiply rmat:11:4:1 --backend opencl --verify=random --verify-on device --json
holds "verify-on device" "d['verification']['vectors_on'].startswith('device opencl') and d['verification']['vectors_seconds'] >= 0"
expect 1 "$magnus" multiply rmat:9:4:1 --cpu --verify=random --verify-on device
contains err "--verify-on device needs a device multiply"
expect 2 "$magnus" multiply rmat:9:4:1 --verify=random --verify-on gpu
contains err "unknown --verify-on 'gpu'"
expect 2 "$magnus" multiply rmat:9:4:1 --verify-on host
contains err "--verify-on needs --verify"
expect 0 "$magnus" multiply rmat:11:4:1 --backend opencl --verify=exact --verify-limit 0 --json
same "exact above the limit: method" "$(json verification.method)" '"exact"'

# ---- issue 33 item 8: a C that cannot fit is refused before multiplying, naming C -------------
python3 - "$work" <<'PY'
import sys
n, w = 2000, sys.argv[1]
with open(w + "/col.mtx", "w") as f:
    f.write("%%%%MatrixMarket matrix coordinate pattern general\n%d 1 %d\n" % (n, n))
    f.writelines("%d 1\n" % (i + 1) for i in range(n))
with open(w + "/row.mtx", "w") as f:
    f.write("%%%%MatrixMarket matrix coordinate pattern general\n1 %d %d\n" % (n, n))
    f.writelines("1 %d\n" % (i + 1) for i in range(n))
PY
for alg in auto magnus hash; do
    expect 1 env MAGNUS_DEVICE_MEMORY_LIMIT=4M "$magnus" multiply "$work/col.mtx" "$work/row.mtx" \
        --backend opencl --algorithm $alg
    contains err "C = A·B (2000 x 2000) has at least 4000000 entries"
    contains err "refused before multiplying"
done

# ---- demo on the device, with progress ------------------------------------------------------
expect 0 "$magnus" demo --scale 10 --backend opencl --progress
contains out "verified: yes"
contains out "device:   opencl:"
contains err "preparing the device"
contains err "verifying"
expect 0 "$magnus" demo --scale 10 --algorithm hash --verify=random --json
same "demo random: verified" "$(json verified)" true
same "demo random: engine" "$(json engine)" '"hash"'

# ---- bad device choices: exit 1 (none there) or 2 (malformed, contradictory) and say why ----
# (more in test_cli_errors.sh)
expect 1 "$magnus" multiply rmat:8:4 --device opencl:99 --verify
contains err "opencl:99"
contains err "no device matches"
expect 2 "$magnus" multiply rmat:8:4 --device gpu:0
contains err "is not a backend"
expect 1 "$magnus" multiply rmat:8:4 --device 99
contains err "no device matches \"99\""
expect 2 "$magnus" demo --scale 8 --backend opencl --device cuda:0
contains err "--backend opencl and --device cuda:0 name different backends"
# --local-mem below 1K is a usage error naming the limits (issue 33, item 9). A budget too
# small for gMAGNUS set by the environment is the library's refusal, not a crash; so is one
# too small for auto's own statistics, and auto on a budget that gMAGNUS refuses says
# gMAGNUS's reason.
expect 2 "$magnus" multiply rmat:10:4 --backend opencl --local-mem 64 --algorithm magnus
contains err "magnus multiply: --local-mem 64 is below the minimum: a budget is 1024 bytes (1K) up to the device's"
expect 2 "$magnus" demo --scale 6 --local-mem 1023
contains err "magnus demo: --local-mem 1023 is below the minimum"
expect 0 "$magnus" multiply rmat:10:4 --backend opencl --local-mem 1K --algorithm magnus --verify
expect 1 env MAGNUS_LOCAL_MEM_BYTES=64 "$magnus" multiply rmat:10:4 --backend opencl --algorithm magnus
contains err "magnus multiply: invalid argument: gMAGNUS parameters: a 64-byte"
expect 1 env MAGNUS_LOCAL_MEM_BYTES=64 "$magnus" multiply rmat:10:4 --backend opencl
contains err "magnus multiply: invalid argument: gMAGNUS parameters: a 64-byte"
expect 1 env MAGNUS_LOCAL_MEM_BYTES=16 "$magnus" multiply rmat:10:4 --backend opencl
contains err "magnus multiply: invalid argument: MAGNUS_ALGORITHM_AUTO's choice of algorithm: "
contains err "a local memory budget of 16 bytes is too small"

echo "cli_device: $checks checks, $failures failures"
[ "$failures" -eq 0 ]

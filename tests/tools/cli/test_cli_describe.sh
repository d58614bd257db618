#!/usr/bin/env bash
# `magnus params --describe FILE` (issue 36, item 3): a device described in a file, no device
# probed. Without a third argument: the shipped Intel Data Center GPU Max 1550 file
# (docs/devices/intel-max-1550.txt) with no backend loaded, the budget and group sizes it
# implies, and every malformed file a usage error (exit 2) naming the line and the key. With
# "compare": the parameters printed for that file equal those printed for the Level Zero test
# driver's PVC-like device (its environment set by ctest, tests/backends/level0/level0.cmake)
# at several budgets, so the file and the device CI tests describe the same GPU.
# Usage: test_cli_describe.sh MAGNUS_BINARY WORK_DIR DEVICE_FILE [compare]
set -u
magnus=$1
work=$2
file=$3
mode=${4:-}
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

inputs=(--type f64 rmat:12:4:1 rmat:12:8:2)

if [ "$mode" = compare ]; then
    device_selected || { echo "no Level Zero test device: skipped"; exit 77; }
    for budget in "" --local-mem=1K --local-mem=64K --local-mem=128K; do
        expect 0 "$magnus" params --backend level0 $budget "${inputs[@]}"
        tail -n +2 "$work/out" >"$work/probed.txt"
        expect 0 "$magnus" params --describe "$file" $budget "${inputs[@]}"
        tail -n +2 "$work/out" >"$work/described.txt"
        checks=$((checks + 1))
        diff "$work/probed.txt" "$work/described.txt" >&2 ||
            fail "params ${budget:-(default budget)}: the described device differs from the probed one"
        # every JSON field but the device's naming
        for which in probed described; do
            if [ $which = probed ]; then
                "$magnus" params --backend level0 $budget --json "${inputs[@]}" >"$work/out"
            else
                "$magnus" params --describe "$file" $budget --json "${inputs[@]}" >"$work/out"
            fi
            python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for k in ("device", "described", "device_name"): d.pop(k)
print(json.dumps(d, sort_keys=True))' "$work/out" >"$work/$which.json"
        done
        checks=$((checks + 1))
        cmp -s "$work/probed.json" "$work/described.json" ||
            fail "params --json ${budget:-(default budget)}: the described device differs"
    done
    echo "cli_describe compare: $checks checks, $failures failures"
    [ "$failures" -eq 0 ]
    exit
fi

# No backend can load (MAGNUS_BACKENDS names one this test never has a device of through a
# missing library path): --describe must not need one.
export MAGNUS_BACKENDS=cuda LD_LIBRARY_PATH=/nonexistent
unset MAGNUS_LOCAL_MEM_BYTES MAGNUS_HASH_GROUP_MAX MAGNUS_HASH_WIDE_BINS MAGNUS_DENSE_ROWS
expect 0 "$magnus" params --describe "$file" --json "${inputs[@]}"
valid_json
same "described" "$(json described)" "\"$file\""
same "device_local_mem_bytes" "$(json device_local_mem_bytes)" 131072
same "default budget min(128 KiB, 48 KiB)" "$(json local_mem_bytes)" 49152
same "subgroup (the smaller of 16, 32)" "$(json subgroup_size)" 16
same "fp64" "$(json fp64)" true
same "hash work items per table (Level Zero's 256)" "$(json hash.group_max)" 256
holds "tau at 48 KiB, f64 (sLM / (2 * (4 + 8)))" 'd["tau"] == 49152 // 24'
holds "hash numeric entries = tau" 'd["hash"]["numeric_entries"] == d["tau"]'
expect 0 "$magnus" params --describe "$file" --local-mem 128K "${inputs[@]}"
contains out "131072 bytes per work group (128.0 KiB; the device's maximum 128.0 KiB)"
contains out "(described in $file)"
contains out "hash symbolic:"
contains out "fp64:               yes"
expect 2 "$magnus" params --describe "$file" --local-mem 256K rmat:6:2
contains err "--local-mem 262144 is above the device's local memory"
expect 2 "$magnus" params --describe "$file" --backend level0 rmat:6:2
contains err "--describe names the device: give no --backend with it"
expect 0 "$magnus" params --help
contains out "--describe FILE"
contains out "local_mem_bytes = SIZE"

# A file from the shipped one with one change: LINE_SED applied.
variant() { sed "$1" "$file" >"$work/dev.txt"; }
bad() { # bad WHAT TEXT: exit 2 and TEXT in the message
    expect 2 "$magnus" params --describe "$work/dev.txt" rmat:6:2
    contains err "$2"
}
unknown_line=$(($(wc -l <"$file") + 1))
variant '$a local_memory = 64K'
bad "unknown key" "dev.txt:$unknown_line: unknown key \"local_memory\""
variant 's/^local_mem_bytes = .*/local_mem_bytes = lots/'
line=$(grep -n '^local_mem_bytes' "$work/dev.txt" | cut -d: -f1)
bad "bad size" "dev.txt:$line: local_mem_bytes = \"lots\": expected a size in bytes"
variant 's/^subgroup_sizes = .*/subgroup_sizes = 16, x/'
line=$(grep -n '^subgroup_sizes' "$work/dev.txt" | cut -d: -f1)
bad "bad list" "dev.txt:$line: subgroup_sizes = \"16, x\": expected 1 to 8 whole numbers"
variant 's/^fp64 = .*/fp64 = maybe/'
bad "bad yes/no" "fp64 = \"maybe\": expected yes or no"
variant 's/^backend = .*/backend = metal/'
bad "bad backend" "backend = \"metal\": expected cuda, level0 or opencl"
variant 's/^max_work_group_size = .*/max_work_group_size = 0/'
bad "zero" "max_work_group_size = \"0\": expected a whole number from 1"
variant '/^local_mem_bytes/d'
bad "missing key" "dev.txt: required key \"local_mem_bytes\" missing"
variant '$a name = again'
bad "repeated key" "dev.txt:$unknown_line: key \"name\" given twice"
variant '$a just words'
bad "no =" "dev.txt:$unknown_line: expected \"key = value\""
expect 2 "$magnus" params --describe "$work/absent.txt" rmat:6:2
contains err "--describe $work/absent.txt: No such file or directory"
variant 's/^fp64 = .*/fp64 = no/'
expect 0 "$magnus" params --describe "$work/dev.txt" rmat:6:2
contains out "fp64:               no (f64 multiplies are refused)"

echo "cli_describe: $checks checks, $failures failures"
[ "$failures" -eq 0 ]

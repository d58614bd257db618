#!/bin/bash
# `magnus params`: JSON parses and agrees with the doc's worked check (48 KiB, float32:
# tau 3072, 4 chunks at C.m = 2^15), MAGNUS_LOCAL_MEM_BYTES=49152 gives the same as --local-mem 48K,
# no budget gives min(device, 48 KiB) (the device's maximum from the probe), the device's whole
# local memory can be asked for,
# the heavy rows and products match an independent count in Python from the written matrix,
# usage errors exit 2. Skips (77) when no device is found.
# usage: gmagnus_cli_params.sh MAGNUS_BINARY WORK_DIR
set -u
magnus=$1
work=$2
mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
# shellcheck source=../../util/require.sh
. "$(dirname "$0")/../../util/require.sh"

if ! "$magnus" probe --json | python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["selected"] else 1)'; then
    skip_no_device opencl "no device"
fi

"$magnus" rmat --scale 15 --per-row 4 --seed 3 -o "$work/a.mtx" >/dev/null ||
    fail "cannot write an R-MAT matrix with magnus rmat"

"$magnus" probe --json >"$work/probe.json" || fail "probe exit $?"
whole=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print([d for d in p["devices"] if d["selected"]][0]["local_mem_bytes"])' "$work/probe.json")
# The worked check below is the paper's 48 KiB budget in float32 (--type f32: rmat writes a
# `real` file, which is read as f64 by default): a device with less cannot be asked for it.
if [ "$whole" -lt 49152 ]; then
    echo "SKIP: the selected device has $whole bytes of local memory, the check needs 49152"; exit 77
fi

"$magnus" params --type f32 --local-mem 48K --json "$work/a.mtx" >"$work/p1.json" || fail "params exit $?"
MAGNUS_LOCAL_MEM_BYTES=49152 "$magnus" params --type f32 --json "$work/a.mtx" >"$work/p2.json" ||
    fail "params with MAGNUS_LOCAL_MEM_BYTES exit $?"
(unset MAGNUS_LOCAL_MEM_BYTES; "$magnus" params --type f32 --json "$work/a.mtx") >"$work/p3.json" ||
    fail "params without a budget exit $?"
"$magnus" params --type f32 --local-mem "$whole" --json "$work/a.mtx" >"$work/p4.json" ||
    fail "params with the device's whole local memory exit $?"

python3 - "$work/p1.json" "$work/p2.json" "$work/a.mtx" "$work/p3.json" "$work/p4.json" \
    "$whole" <<'EOF' || exit 1
import json, sys
p1 = json.load(open(sys.argv[1]))
p2 = json.load(open(sys.argv[2]))
p3 = json.load(open(sys.argv[4]))
p4 = json.load(open(sys.argv[5]))
whole = int(sys.argv[6])
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
check(p1["local_mem_bytes"] == 49152, "budget %s" % p1["local_mem_bytes"])
for p in (p1, p2, p3, p4):
    check(p["device_local_mem_bytes"] == whole,
          "device maximum %s, probe %s" % (p["device_local_mem_bytes"], whole))
check(p3["local_mem_bytes"] == min(whole, 49152),
      "default budget %s on a device of %s" % (p3["local_mem_bytes"], whole))
check(p4["local_mem_bytes"] == whole and p4["tau"] == whole // (2 * 8),
      "whole budget %s, tau %s" % (p4["local_mem_bytes"], p4["tau"]))
check(p1["tau"] == 3072 and p1["chunks_required"] == 4, "tau/chunks %s %s" % (p1["tau"], p1["chunks_required"]))
check(p1["dense_width"] == 8192 and p1["ndense_numeric"] == 11915, "dense %s" % p1["dense_width"])
prod = 1
for c in p1["chunks_per_level"]:
    prod *= c
check(prod == p1["chunks_required"] and p1["levels"] == len(p1["chunks_per_level"]), "levels")
for k in ("tau", "chunks", "rows_heavy", "products_heavy", "chat_bytes"):
    check(p1[k] == p2[k], "env and --local-mem differ in " + k)

# independent count: products per row of A*A from the file
rows = {}
ncols = None
with open(sys.argv[3]) as f:
    for line in f:
        if line.startswith("%"):
            continue
        parts = line.split()
        if ncols is None:
            n, ncols = int(parts[0]), int(parts[1])
            continue
        i, j = int(parts[0]) - 1, int(parts[1]) - 1
        rows.setdefault(i, []).append(j)
length = {i: len(c) for i, c in rows.items()}
heavy = products = heavy_products = 0
for i, cols in rows.items():
    p = sum(length.get(j, 0) for j in cols)
    products += p
    if p > p1["tau"]:
        heavy += 1
        heavy_products += p
check(p1["rows"] == n and p1["products"] == products, "products %s vs %s" % (p1["products"], products))
check(p1["rows_heavy"] == heavy and p1["products_heavy"] == heavy_products,
      "heavy rows %s vs %s" % (p1["rows_heavy"], heavy))
check(p1["chat_bytes"] == heavy_products * 8 + (heavy + 1) * 8, "chat bytes")
check(abs(p1["heavy_ip_fraction"] - heavy_products / products) < 1e-5, "IP fraction")
print("params JSON ok: tau %d, chunks %s, %d heavy rows" % (p1["tau"], p1["chunks"], heavy))
EOF

out=$("$magnus" params --type f32 --local-mem 49152 "$work/a.mtx") || fail "text exit $?"
grep -q "^tau: *3072 " <<<"$out" || fail "text output lacks tau: $out"
grep -q "^chunks: *4 per heavy row" <<<"$out" || fail "text output lacks chunks: $out"
grep -q "^local memory: *49152 bytes per work group (48.0 KiB; the device's maximum " <<<"$out" ||
    fail "text output lacks the budget and the device's maximum: $out"

"$magnus" params >/dev/null 2>&1; [ $? -eq 2 ] || fail "no argument: expected exit 2"
"$magnus" params --local-mem -5 "$work/a.mtx" >/dev/null 2>&1; [ $? -eq 2 ] || fail "negative budget: exit 2"
"$magnus" params --local-mem 16 "$work/a.mtx" >/dev/null 2>&1; [ $? -eq 2 ] || fail "budget below 1K: exit 2"
MAGNUS_LOCAL_MEM_BYTES=16 "$magnus" params "$work/a.mtx" >/dev/null 2>&1; [ $? -eq 1 ] || fail "tiny budget from the environment: exit 1"
"$magnus" params "$work/missing.mtx" >/dev/null 2>&1; [ $? -eq 1 ] || fail "missing file: exit 1"
echo "magnus params: all checks passed"

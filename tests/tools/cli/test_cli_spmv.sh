#!/usr/bin/env bash
# End-to-end tests of `magnus spmv`: usage errors, every format with --verify, JSON fields,
# x and y from files and y written, checked against an independent Python product of the
# same Matrix Market file. Skips (77) without a device.
# Usage: test_cli_spmv.sh MAGNUS_BINARY WORK_DIR
set -u
magnus=$1
work=$2
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# ---- usage errors (no device needed) --------------------------------------------------------
expect 0 "$magnus" spmv --help
contains out "usage: magnus spmv"
contains out "csr-balanced"
expect 2 "$magnus" spmv
expect 2 "$magnus" spmv rmat:6:4 --format dia
contains err "unknown format 'dia'"
expect 2 "$magnus" spmv rmat:6:4 --type f16
expect 2 "$magnus" spmv rmat:6:4 --alpha one
expect 2 "$magnus" spmv rmat:6:4 --backend vulkan
contains err "unknown backend 'vulkan'"
expect 2 bash -c "'$magnus' spmv - -x - </dev/null"
contains err "only one of A, -x and -y can be standard input"
expect 2 "$magnus" spmv rmat:6:4 -x - -y -
contains err "only one of A, -x and -y can be standard input"

if ! device_selected; then
    [ "$failures" -eq 0 ] || exit 1
    skip_no_device opencl "no device for magnus spmv ($checks checks, $failures failures)"
fi

# ---- every format, both types, verified; the report names the format that ran ---------------
for type in f32 f64; do
    for fmt in auto csr csr-balanced coo hybrid sellp; do
        expect 0 "$magnus" spmv rmat:11:8 --type "$type" --format "$fmt" --alpha 1.5 --beta 0 \
            --verify --json
        valid_json
        holds "$fmt $type verified" 'd["verify"]["passed"] is True'
        holds "$fmt $type times" 'd["product_ms"] > 0 and d["floor_bytes"] > 0'
        if [ "$fmt" != auto ]; then
            same "$fmt $type format" "$(json format)" "\"$fmt\""
            holds "$fmt $type reason" 'd["format_reason"] == "requested by the options"'
        else
            holds "auto picks a CSR format" 'd["format"] in ("csr", "csr-balanced")'
            holds "auto says why, with its count" \
                'd["format_reason"].startswith("auto:") and d["format"] in d["format_reason"] and (d["format"] != "csr-balanced" or d["long_rows"] > 0)'
        fi
    done
done
expect 0 "$magnus" spmv laplace2d:30:20 --format hybrid --verify
contains out "format:   hybrid"
contains out "why:      requested by the options"
contains out "verify:   passed"

# ---- files: x and y in, y out, against Python -----------------------------------------------
expect 0 "$magnus" gen uniform 200 150 6 -o "$work/A.mtx"
python3 - "$work" <<'PY'
import sys
w = sys.argv[1]
with open(w + "/x.txt", "w") as f:
    f.write("% x for the test\n")
    for j in range(150):
        f.write("%r\n" % (((j * 37) % 11 - 5) / 4.0))
with open(w + "/y0.txt", "w") as f:
    for i in range(200):
        f.write("%r\n" % ((i % 7) - 3.0))
with open(w + "/short.txt", "w") as f:
    f.write("1\n2\n")
PY
for fmt in csr csr-balanced coo hybrid sellp; do
    expect 0 "$magnus" spmv "$work/A.mtx" --type f64 --format "$fmt" -x "$work/x.txt" \
        -y "$work/y0.txt" --alpha 2 --beta -0.5 -o "$work/y.txt"
    checks=$((checks + 1))
    python3 - "$work" <<'PY' || fail "$fmt: y differs from Python's 2*A*x - 0.5*y0"
import sys
w = sys.argv[1]
rows = cols = None
y = None
with open(w + "/A.mtx") as f:
    for line in f:
        if line.startswith("%"):
            continue
        p = line.split()
        if rows is None:
            rows, cols = int(p[0]), int(p[1])
            y = [0.0] * rows
            continue
        i, j, v = int(p[0]) - 1, int(p[1]) - 1, float(p[2])
        x_j = ((j * 37) % 11 - 5) / 4.0
        y[i] += v * x_j
got = [float(l) for l in open(w + "/y.txt")]
assert len(got) == rows, (len(got), rows)
for i in range(rows):
    want = 2 * y[i] - 0.5 * ((i % 7) - 3.0)
    assert abs(got[i] - want) <= 1e-12 * (1 + abs(want)), (i, got[i], want)
PY
done
# f32 output carries 9 significant digits (round trip)
expect 0 "$magnus" spmv "$work/A.mtx" -x "$work/x.txt" -o "$work/y32.txt" --type f32
checks=$((checks + 1))
python3 - "$work/y32.txt" <<'PY' || fail "f32 output is not one %.9g value per line"
import struct, sys
lines = open(sys.argv[1]).read().split("\n")[:-1]
assert len(lines) == 200
for l in lines:
    f = struct.unpack("f", struct.pack("f", float(l)))[0]
    assert "%.9g" % f == l, l
PY
expect 1 "$magnus" spmv "$work/A.mtx" -x "$work/short.txt"
contains err "has 2 values, A needs 150"
expect 1 "$magnus" spmv "$work/A.mtx" -x "$work/no-such-file.txt"
contains err "cannot open"
expect 1 "$magnus" spmv "$work/A.mtx" -o "$work/no-such-dir/y.txt"

# ---- "-": x, y or A from standard input, y to standard output with the report on stderr -------
expect 0 "$magnus" spmv "$work/A.mtx" --type f64 -x "$work/x.txt" -y "$work/y0.txt" --alpha 2 \
    --beta -0.5 -o "$work/y-file.txt"
expect 0 bash -c "'$magnus' spmv '$work/A.mtx' --type f64 -x - -y '$work/y0.txt' --alpha 2 \
    --beta -0.5 --verify -o - <'$work/x.txt' >'$work/y-stdout.txt'"
contains err "verify:   passed"
contains err "wrote:    standard output"
checks=$((checks + 1))
cmp -s "$work/y-file.txt" "$work/y-stdout.txt" || fail "-x - -o -: stdout is not exactly y"
expect 0 bash -c "'$magnus' spmv '$work/A.mtx' --type f64 -x '$work/x.txt' -y - --alpha 2 \
    --beta -0.5 --json -o /dev/stdout <'$work/y0.txt' >'$work/y-stdout2.txt'"
cp "$work/err" "$work/out"
valid_json
same "-o /dev/stdout: JSON on stderr" "$(json output)" '"/dev/stdout"'
checks=$((checks + 1))
cmp -s "$work/y-file.txt" "$work/y-stdout2.txt" || fail "-y - --json -o /dev/stdout: stdout is not exactly y"
expect 0 bash -c "'$magnus' spmv - --type f64 -x '$work/x.txt' -o '$work/y-a-stdin.txt' <'$work/A.mtx'"
expect 0 "$magnus" spmv "$work/A.mtx" --type f64 -x "$work/x.txt" -o "$work/y-a-file.txt"
checks=$((checks + 1))
cmp -s "$work/y-a-file.txt" "$work/y-a-stdin.txt" || fail "A from standard input: y differs"
expect 1 bash -c "printf '1\n2\n' | '$magnus' spmv '$work/A.mtx' -x -"
contains err "standard input has 2 values, A needs 150"

# ---- magnus bench --op spmv: every format timed and verified, CSV and JSON ------------------
expect 2 "$magnus" bench --op dense rmat:8:4
contains err "unknown --op 'dense'"
expect 0 "$magnus" bench --op spmv rmat:9:4 laplace2d:20:20 --runs 3 --cpu --no-bandwidth \
    --csv "$work/spmv.csv" --json "$work/spmv.json"
checks=$((checks + 1))
python3 - "$work" <<'PY' || fail "bench --op spmv: CSV/JSON rows"
import csv, json, sys
w = sys.argv[1]
rows = list(csv.DictReader(open(w + "/spmv.csv")))
formats = {"csr", "csr-balanced", "coo", "hybrid", "sellp", "auto"}
assert len(rows) % 12 == 0 and len(rows) > 0, len(rows)
for name in ("rmat:9:4", "laplace2d:20:20"):
    got = [r for r in rows if r["input"] == name]
    assert {r["format"] for r in got} >= formats, (name, got)
for r in rows:
    assert r["verified"] == "yes" and float(r["median_ms"]) > 0 and float(r["gb_per_s"]) > 0, r
    assert r["format"] == "auto" or r["ran"] == r["format"], r
d = json.load(open(w + "/spmv.json"))
assert d["op"] == "spmv" and len(d["rows"]) == len(rows)
PY

echo "$checks checks, $failures failures"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# bench/compare.py on a real bench run (issue 36, item 2): two systems on PoCL's device, auto
# and gMAGNUS, at a 4 KiB budget (so gMAGNUS's rows are heavy and every phase runs); the
# table and the CSV of ratios are checked against the bench's own JSON by
# tests/tools/bench/check_compare.py (ratios recomputed, algorithms and reasons, the
# geometric mean), then labels (two files), a bad --reference, duplicate systems, and the plot
# where matplotlib is installed. Exit 77 (skipped) when no OpenCL device is found.
# Usage: test_compare.sh MAGNUS_BINARY SOURCE_DIR WORK_DIR
set -u
magnus=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
export MAGNUS_BACKENDS=opencl MAGNUS_LOCAL_MEM_BYTES=4096
device=$("$magnus" probe 2>/dev/null | awk '/^opencl:[0-9]+ / {print $1; exit}')
[ -n "$device" ] || { echo "no OpenCL device: skipped"; exit 77; }
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

"$magnus" bench --rmat-sweep --scales 8-9 --a-per-row 4 --b-per-row 8 --runs 2 --cpu \
    --systems "auto@$device,magnus@$device" --json "$work/b.json" --csv "$work/b.csv" \
    >"$work/bench.out" 2>"$work/bench.err" || { cat "$work/bench.err" >&2; fail "bench"; }
compare="$src/bench/compare.py"
python3 "$compare" "$work/b.json" --csv "$work/ratios.csv" >"$work/table.md" ||
    fail "compare.py on the JSON"
python3 "$(dirname "$0")/check_compare.py" --bench "$work/b.json" --ratios "$work/ratios.csv" \
    --table "$work/table.md" --reference "auto@$device" || fail "check_compare"
# the CSV gives the same table as the JSON
python3 "$compare" "$work/b.csv" >"$work/table_csv.md" || fail "compare.py on the CSV"
# (cell by cell; a number may differ by one in its last digit: the CSV keeps 6 significant
# digits, the JSON all of them, and a ratio at a rounding boundary may round either way)
python3 - "$work/table.md" "$work/table_csv.md" <<'PY' || fail "the CSV's table differs from the JSON's"
import re, sys
a, b = (open(p).read().splitlines() for p in sys.argv[1:3])
def close(x, y):
    if x == y:
        return True
    try:
        digits = len(x.split(".")[1]) if "." in x else 0
        return abs(float(x) - float(y)) <= 1.5 * 10 ** -digits
    except ValueError:
        return False
bad = [(l, m) for l, m in zip(a, b) if not all(close(x.strip(), y.strip())
       for x, y in zip(re.split(r"\|", l), re.split(r"\|", m)))
       or l.count("|") != m.count("|")]
if len(a) != len(b) or bad:
    print("\n".join(f"json: {l}\ncsv:  {m}" for l, m in bad[:5]) or "line counts differ")
    sys.exit(1)
PY
# labels: the same run twice, the second as the reference ("magnus@" above, gMAGNUS's former
# name, ran as gmagnus@; the reference may still be given by it)
python3 "$compare" "one=$work/b.json" "two=$work/b.json" --reference "two:magnus@$device" \
    >"$work/labels.md" || fail "compare.py with labels"
grep -qF "ratios to two:gmagnus@$device" "$work/labels.md" || fail "labelled reference missing"
grep -qF "| one:auto@$device |" "$work/labels.md" || fail "labelled system missing"
grep -qE "^\| one:gmagnus@$device \| [0-9]+ \| 1\.000 \|$" "$work/labels.md" ||
    fail "the same system in two files: its total ratio is not 1.000"
grep -q ",gmagnus@$device," "$work/b.csv" || fail "bench did not name gMAGNUS's system gmagnus@"
# a CSV from before issue 35 (system magnus@, algorithm magnus) gives the same table as the
# CSV it was made from (not the JSON's: that one differs at rounding boundaries, above)
sed -e "s/gmagnus@/magnus@/g" -e "s/,gmagnus,/,magnus,/g" "$work/b.csv" >"$work/old.csv"
grep -q ",magnus@$device," "$work/old.csv" || fail "the old-name CSV has no magnus@ system"
python3 "$compare" "$work/old.csv" >"$work/table_old.md" || fail "compare.py on an old-name CSV"
cmp -s "$work/table_csv.md" "$work/table_old.md" || fail "the old-name CSV's table differs"
# errors
python3 "$compare" "$work/b.json" "$work/b.json" >/dev/null 2>"$work/err" &&
    fail "duplicate systems accepted"
grep -qF "name each file's systems with LABEL=FILE" "$work/err" || fail "duplicate message"
python3 "$compare" "$work/b.json" --reference nothing@here >/dev/null 2>"$work/err" &&
    fail "unknown reference accepted"
grep -qF -- "--reference nothing@here: not a system" "$work/err" || fail "reference message"
# the plot, where matplotlib is (Debian's python3-matplotlib is /usr/bin/python3's)
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
    /usr/bin/python3 "$compare" "$work/b.json" --plot "$work/compare.png" >/dev/null ||
        fail "compare.py --plot"
    head -c 8 "$work/compare.png" | od -An -c | grep -q "P   N   G" || fail "no PNG written"
else
    echo "no matplotlib: the plot is not checked"
fi
echo "bench_compare: $failures failures"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# End-to-end tests of what the `magnus` tool reads and writes (issue 14, items 1, 2, 9-12): the
# value type follows the file (and every report says it), pipes and "-", `info`'s facts of the
# file, .gz output at the fastest zlib level, a byte-order mark and CR-only line ends, and the
# progress line kept off stdout. Files from the shared matrices when present.
# Usage: test_cli_io.sh MAGNUS_BINARY SHARED_MATRICES_DIR WORK_DIR
set -u
magnus=$1
shared=$2
work=$3
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# CI: the shared matrices' checks below may not skip
require_shared "$shared" hangGlider_2.mtx.gz bcsstk13.mtx.gz add32.mtx.gz soc-Slashdot0902.mtx.gz
have() { [ -f "$shared/$1.mtx.gz" ]; }
# small files of every field, 3 x 3
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 0.1\n2 2 0.2\n3 1 0.3\n' >"$work/real.mtx"
printf '%%%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 1 16777217\n2 3 1\n' >"$work/int.mtx"
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n3 3\n' >"$work/pat.mtx"

# ---- item 2: the value type follows the file; --type overrides; every report says it -----------
expect 0 "$magnus" multiply "$work/real.mtx" --cpu
contains out "type:     f64 (from the file's 'real' field)"
expect 0 "$magnus" multiply "$work/int.mtx" --cpu --json
same "integer file: type" "$(json type)" '"f64"'
same "integer file: A.type" "$(json A.type)" '"f64"'
same "integer file: A.field" "$(json A.field)" '"integer"'
expect 0 "$magnus" multiply "$work/pat.mtx" --cpu
contains out "type:     f32 (from the file's 'pattern' field"
contains out "exact in f32 up to 2^24"
expect 0 "$magnus" multiply "$work/real.mtx" --cpu --type f32 --json
same "--type f32: type" "$(json type)" '"f32"'
same "--type f32: note" "$(json A.type_note)" '"--type"'
expect 0 "$magnus" multiply laplace2d:3:3 --cpu
contains out "type:     f32 (generator default)"
# A pattern, B real: both f64, and the report says why
expect 0 "$magnus" multiply "$work/pat.mtx" "$work/real.mtx" --cpu --json
same "mixed: type" "$(json type)" '"f64"'
same "mixed: A.type" "$(json A.type)" '"f64"'
same "mixed: B.type" "$(json B.type)" '"f64"'
holds "mixed: A's note says why" '"other input is f64" in d["A"]["type_note"]'
expect 0 "$magnus" multiply "$work/pat.mtx" "$work/real.mtx" --cpu
contains out "type A:   f64 (the other input is f64"
contains out "type B:   f64 (from the file's 'real' field)"
expect 2 "$magnus" multiply "$work/real.mtx" --cpu --type f16
contains err "auto, f32 or f64"
expect 0 "$magnus" info "$work/int.mtx" --json
same "info: type" "$(json type)" '"f64"'
expect 0 "$magnus" info "$work/pat.mtx"
contains out "type:       f32 (from the file's 'pattern' field"
if device_selected; then
    expect 0 "$magnus" params "$work/real.mtx" --json
    same "params: type" "$(json type)" '"f64"'
    holds "params: type_note" '"real" in d["type_note"]'
    expect 0 "$magnus" params "$work/pat.mtx"
    contains out "type:               f32 (from the file's 'pattern' field"
    # bench: each input's value_type column follows its file (an existing column)
    expect 0 "$magnus" bench "$work/real.mtx" "$work/pat.mtx" --cpu --no-baseline --no-bandwidth \
        --runs 1 --csv "$work/bench.csv"
    types=$(python3 -c 'import csv,sys; print(",".join(r["value_type"] for r in csv.DictReader(open(sys.argv[1]))))' "$work/bench.csv")
    same "bench value_type per input" "$types" "f64,f32"
else
    echo "note: no device: params and bench checks skipped"
fi
if have hangGlider_2; then
    # C in f64 agrees with products formed in double to 1e-12 (an f32 C is off by ~1e-8)
    expect 0 "$magnus" multiply "$shared/hangGlider_2.mtx.gz" --cpu -o "$work/hg.mtx"
    contains out "type:     f64 (from the file's 'real' field)"
    expect 0 python3 "$here/c_rows_f64.py" "$shared/hangGlider_2.mtx.gz" "$work/hg.mtx" 40 1e-12
    expect 1 python3 "$here/c_rows_f64.py" "$shared/hangGlider_2.mtx.gz" "$work/hg.mtx" 40 -1
else
    echo "note: hangGlider_2 absent: the f64 accuracy check is skipped"
fi

# ---- item 9: pipes and "-" ------------------------------------------------------------------
expect 0 bash -c "cat '$work/real.mtx' | '$magnus' info - --json"
same "info -: rows" "$(json rows)" 3
same "info -: type" "$(json type)" '"f64"'
expect 0 bash -c "'$magnus' info /dev/stdin --json < '$work/pat.mtx'"
same "info /dev/stdin (a file): nnz" "$(json nnz)" 2
gzip -c "$work/real.mtx" >"$work/real.mtx.gz"
expect 0 bash -c "cat '$work/real.mtx.gz' | '$magnus' info /dev/stdin --json"
same "gzip through a pipe: nnz" "$(json nnz)" 3
src="$work/real.mtx.gz"
have bcsstk13 && src="$shared/bcsstk13.mtx.gz"
expect 0 "$magnus" multiply "$src" --cpu -o "$work/by-path.mtx"
expect 0 bash -c "zcat '$src' | '$magnus' multiply /dev/stdin --cpu -o - >'$work/by-pipe.mtx'"
contains err "type:     f64"
contains err "wrote:    -"
checks=$((checks + 1))
cmp -s "$work/by-path.mtx" "$work/by-pipe.mtx" || fail "C through a pipe and -o - differs from C by path"
expect 0 bash -c "zcat '$src' | '$magnus' multiply - --cpu --json -o /dev/stdout >'$work/by-pipe2.mtx'"
cp "$work/err" "$work/out"
valid_json
same "-o /dev/stdout: JSON on stderr" "$(json output)" '"/dev/stdout"'
checks=$((checks + 1))
cmp -s "$work/by-path.mtx" "$work/by-pipe2.mtx" || fail "-o /dev/stdout: stdout is not exactly C"
expect 0 "$magnus" info "$work/by-pipe2.mtx" --json
same "C written to stdout reads back" "$(json field)" '"real"'
expect 1 bash -c "printf 'not a matrix\n' | '$magnus' info -"
contains err "-:1:"

# ---- item 10: what info says about the file ---------------------------------------------------
if have add32; then
    expect 0 "$magnus" info "$shared/add32.mtx.gz" --json
    same "add32 explicit zeros" "$(json explicit_zeros)" 4036
    same "add32 field" "$(json field)" '"real"'
    expect 0 "$magnus" info "$shared/add32.mtx.gz"
    contains out "zeros:      4,036 of the stored values"
fi
if have bcsstk13; then
    expect 0 "$magnus" info "$shared/bcsstk13.mtx.gz" --json
    same "bcsstk13 stored" "$(json stored_entries)" 42943
    same "bcsstk13 expanded" "$(json nnz)" 83883
    same "bcsstk13 symmetry" "$(json symmetry)" '"symmetric"'
    expect 0 "$magnus" info "$shared/bcsstk13.mtx.gz"
    contains out "83,883 (density"
    contains out "42,943 stored in the file, expanded by symmetry"
    contains out "file:       real symmetric"
fi
printf '%%%%MatrixMarket matrix coordinate real general\n2 3 5\n1 1 nan\n1 2 1e400\n2 2 -inf\n2 3 0\n1 3 2\n' >"$work/nonfinite.mtx"
expect 0 "$magnus" info "$work/nonfinite.mtx" --json
same "non-finite count" "$(json nonfinite)" 3
same "overflowed count" "$(json overflowed)" 1
same "zeros count" "$(json explicit_zeros)" 1
contains err "warning: $work/nonfinite.mtx: 3 values are not finite"
expect 0 "$magnus" info "$work/nonfinite.mtx"
contains out "non-finite: 3 (NaN or inf; 1 out of f64's range)"
expect 0 "$magnus" multiply "$work/nonfinite.mtx" "$work/real.mtx" --cpu
contains err "magnus multiply: warning: $work/nonfinite.mtx: 3 values are not finite"
# a symmetric file holding both triangles is told (issue 33, item 9): a line in info's report,
# the counts in its JSON, a warning on stderr from every command that reads it; a symmetric
# file holding one triangle (either) is not
printf '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 1\n2 1 2\n1 2 2\n3 2 5\n' >"$work/both.mtx"
printf '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1\n1 2 2\n2 3 5\n' >"$work/upper.mtx"
expect 0 "$magnus" info "$work/both.mtx"
contains out "warning:    a symmetric file holding both triangles (2 entries below the diagonal, 1 above): each entry is mirrored, so one stored on both sides is summed"
contains err "magnus info: warning: $work/both.mtx: a symmetric file holding both triangles"
expect 0 "$magnus" info "$work/both.mtx" --json
same "both triangles: flag" "$(json both_triangles)" true
same "both triangles: below" "$(json stored_below_diagonal)" 2
same "both triangles: above" "$(json stored_above_diagonal)" 1
expect 0 "$magnus" multiply "$work/both.mtx" --cpu
contains err "magnus multiply: warning: $work/both.mtx: a symmetric file holding both triangles"
expect 0 "$magnus" info "$work/upper.mtx"
checks=$((checks + 1))
! grep -q "both triangles" "$work/out" "$work/err" || fail "a one-triangle file reported as both"
expect 0 "$magnus" info "$work/upper.mtx" --json
same "upper triangle: flag" "$(json both_triangles)" false
# duplicates of a pattern file are summed, as info says (issue 33, item 9): (1,1) stored twice
# is 2, so C = A*A holds 4 there; (2,1) once is 1
printf '%%%%MatrixMarket matrix coordinate pattern general\n2 2 3\n1 1\n2 1\n1 1\n' >"$work/pat-dup.mtx"
expect 0 "$magnus" info "$work/pat-dup.mtx"
contains out "entries:    2 (density 0.5); 3 stored in the file, duplicates summed"
expect 0 "$magnus" multiply "$work/pat-dup.mtx" --cpu -o -
contains out "1 1 4"
contains out "2 1 2"
checks=$((checks + 1))
[ "$(fact values "$work/pat-dup.mtx")" = mixed ] || fail "mtx_facts.py does not sum the duplicates"

# ---- item 11: .gz output at zlib's fastest level, same matrix as the plain file ----------------
expect 0 "$magnus" multiply "$src" --cpu -o "$work/c.mtx.gz"
checks=$((checks + 1))
zcat "$work/c.mtx.gz" | cmp -s - "$work/by-path.mtx" || fail ".gz output differs from the plain one"
# the gzip header's XFL byte (offset 8) is 4 for "fastest" (level 1); 0 for the default level 6
xfl=$(od -An -tu1 -j8 -N1 "$work/c.mtx.gz" | tr -d ' ')
same ".gz written at level 1 (XFL)" "$xfl" 4

# ---- item 12: a UTF-8 byte-order mark and CR-only line ends -------------------------------------
printf '\xef\xbb\xbf%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 0.1\n2 2 0.2\n3 1 0.3\n' >"$work/bom.mtx"
expect 0 "$magnus" info "$work/bom.mtx" --json
same "BOM: nnz" "$(json nnz)" 3
tr '\n' '\r' <"$work/real.mtx" >"$work/cr.mtx"
expect 0 "$magnus" info "$work/cr.mtx" --json
same "CR-only: nnz" "$(json nnz)" 3
expect 0 "$magnus" multiply "$work/cr.mtx" --cpu -o "$work/cr-c.mtx"
expect 0 "$magnus" multiply "$work/real.mtx" --cpu -o "$work/lf-c.mtx"
checks=$((checks + 1))
cmp -s "$work/cr-c.mtx" "$work/lf-c.mtx" || fail "CR-only file multiplies differently"

# ---- item 1: progress on stderr while reading, never in stdout's JSON ----------------------------
big="$work/real.mtx.gz"
have soc-Slashdot0902 && big="$shared/soc-Slashdot0902.mtx.gz"
expect 0 "$magnus" info "$big" --json --progress
valid_json
contains err "reading"
expect 0 "$magnus" info "$big" --json
checks=$((checks + 1))
[ ! -s "$work/err" ] || fail "progress printed without --progress and without a terminal"

# ---- item 1: a 3-line file declaring 2^31 rows fails at once, in little memory ----------------
printf '%%%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 1\n1 1 1\n' \
    >"$work/huge.mtx"
for cmd in info multiply; do
    checks=$((checks + 1))
    python3 - "$magnus" "$cmd" "$work/huge.mtx" <<'PY' || fail "$cmd huge.mtx: not refused fast and small"
import resource, subprocess, sys, time
t = time.monotonic()
p = subprocess.run([sys.argv[1], sys.argv[2], sys.argv[3], "--cpu"][: 4 if sys.argv[2] == "multiply" else 3],
                   capture_output=True, text=True, env={"MAGNUS_HOST_MEMORY_LIMIT": "8G", "PATH": "/usr/bin:/bin"})
seconds = time.monotonic() - t
rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
ok = (p.returncode == 1 and seconds < 1.0 and rss_mb < 100 and "MAGNUS_HOST_MEMORY_LIMIT" in p.stderr
      and "2147483647 x 2147483647" in p.stderr)
if not ok:
    print("exit %d in %.2f s, %.0f MB: %s" % (p.returncode, seconds, rss_mb, p.stderr[:300]), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
done

# ---- issue 33 item 1: a 3-entry file declaring 2 x (2^31 - 1): SpMV's x refused by name, a
# product with it multiplied and verified exactly (the CPU reference's workspace is O(nnz)), the
# random check's vectors (4 x 2^31 doubles) and bench --op spmv's x refused by name, all in
# little memory. Under an address-space limit of 2 GiB (not in sanitizer builds, whose shadow
# memory needs more), so that a dimension-sized allocation fails instead of filling the machine.
printf '%%%%MatrixMarket matrix coordinate real general\n2 2147483647 3\n1 1 1\n2 5 2\n1 2147483647 3\n' \
    >"$work/wide.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 1 2\n1 2 3\n' >"$work/small.mtx"
for cmd in spmv bench multiply random; do
    checks=$((checks + 1))
    python3 - "$magnus" "$cmd" "$work" <<'PY2' || fail "$cmd with a 2 x (2^31 - 1) matrix: not as expected in little memory"
import resource, subprocess, sys
magnus, cmd, work = sys.argv[1:]
asan = "libasan" in subprocess.run(["ldd", magnus], capture_output=True, text=True).stdout
def limit():
    if not asan:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
verify = "--verify=random" if cmd == "random" else "--verify"
args = ([magnus, "spmv", work + "/wide.mtx"] if cmd == "spmv" else
        [magnus, "bench", "--op", "spmv", work + "/wide.mtx", "--runs", "1", "--cpu",
         "--no-bandwidth"] if cmd == "bench" else
        [magnus, "multiply", work + "/small.mtx", work + "/wide.mtx", "--cpu", verify, "--json"])
p = subprocess.run(args, capture_output=True, text=True, preexec_fn=limit,
                   env={"MAGNUS_HOST_MEMORY_LIMIT": "1G" if cmd == "random" else "8G",
                        "PATH": "/usr/bin:/bin"})
rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
if cmd == "spmv":
    ok = (p.returncode == 1 and "x (2,147,483,647 float64 values, one per column of A) needs 16.0 GiB"
          in p.stderr and "MAGNUS_HOST_MEMORY_LIMIT" in p.stderr)
elif cmd == "bench":
    ok = (p.returncode == 1 and "x and y (2147483647 + 2 values) needs 16.0 GiB" in p.stderr)
elif cmd == "random":
    ok = (p.returncode == 1 and "the random check's workspace for 4 vectors x and B·x (2147483647 columns" in p.stderr
          and "MAGNUS_HOST_MEMORY_LIMIT" in p.stderr)
else:
    import json
    ok = p.returncode == 0
    if ok:
        d = json.loads(p.stdout)
        ok = d["C"]["nnz"] == 5 and d["C"]["cols"] == 2147483647 and d["verification"]["passed"] is True
ok = ok and rss_mb < 200
if not ok:
    print("exit %d, %.0f MB: %s %s" % (p.returncode, rss_mb, p.stdout[:300], p.stderr[:300]), file=sys.stderr)
sys.exit(0 if ok else 1)
PY2
done

# ---- issue 33 item 4: a correct product holding NaN and infinities passes --verify=random ------
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 nan\n1 2 1\n2 2 inf\n3 3 2\n3 1 1\n' \
    >"$work/nan.mtx"
for mode in exact random; do
    expect 0 "$magnus" multiply "$work/nan.mtx" --cpu --verify=$mode --json
    holds "NaN/inf product, --verify=$mode" 'd["verification"]["passed"] is True'
done
holds "NaN/inf rows compared entry by entry" 'd["verification"]["nonfinite_rows"] == 3'

# ---- item 11: writing .gz within a few times the time of reading it back -------------------
# bcsstk13^2 in f64 (397k entries of 17-digit values): 0.77-0.86 s to write at zlib's default
# level against 0.08 s to read (docs/benchmarks/mm_write.md), 0.23-0.27 s at level 1.
# The best of three of each: a loaded machine (ctest -j, other jobs) stretches single runs.
if [ -f "$shared/bcsstk13.mtx.gz" ]; then
    write_s=99 read_s=99
    for _ in 1 2 3; do
        expect 0 "$magnus" multiply "$shared/bcsstk13.mtx.gz" --cpu --type f64 -o "$work/C13.mtx.gz" --json
        write_s=$(python3 -c "import sys; print(min(float(sys.argv[1]), float(sys.argv[2])))" "$write_s" "$(json write_seconds)")
        expect 0 "$magnus" info "$work/C13.mtx.gz" --type f64 --json
        read_s=$(python3 -c "import sys; print(min(float(sys.argv[1]), float(sys.argv[2])))" "$read_s" "$(json read_seconds)")
    done
    holds "item 11: .gz written ($write_s s, best of 3) within 5x the read time ($read_s s) + 0.2 s" \
        "$write_s <= 5 * $read_s + 0.2"
fi

echo "test_cli_io: $checks checks, $failures failures"
[ "$failures" -eq 0 ]

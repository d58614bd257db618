#!/usr/bin/env bash
# End-to-end tests of the `magnus` command-line tool: exit codes and messages, JSON output, and
# round trips through generated files, checked against an independent Python reading of the
# same files (tests/tools/cli/mtx_facts.py).
# Usage: test_cli.sh MAGNUS_BINARY SHARED_MATRICES_DIR WORK_DIR
set -u
magnus=$1
shared=$2
work=$3
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# multiply and demo run on the best device found (PoCL's CPU device in CI; its options are
# tested in test_cli_device.sh); with no device at all they are checked on the CPU reference.
on=()
if ! device_selected; then
    on=(--cpu)
    echo "note: no device found: multiply and demo are checked with --cpu"
fi

# ---- help, version, usage errors ------------------------------------------------------------
expect 0 "$magnus" --help
contains out "usage: magnus"
expect 0 "$magnus" --version
contains out "magnus 0.1"
for cmd in info rmat gen multiply demo; do
    expect 0 "$magnus" "$cmd" --help
    contains out "usage: magnus $cmd"
    expect 0 "$magnus" help "$cmd"
    contains out "usage: magnus $cmd"
    expect 2 "$magnus" "$cmd" --no-such-option
    contains err "unknown option '--no-such-option'"
done
expect 2 "$magnus"
expect 2 "$magnus" no-such-command
contains err "unknown command 'no-such-command'"
expect 2 "$magnus" info
expect 2 "$magnus" info a.mtx b.mtx
expect 2 "$magnus" info --type f16 a.mtx
expect 2 "$magnus" rmat --scale 8 -o "$work/x.mtx"
contains err "--per-row is required"
expect 2 "$magnus" rmat --scale eight --per-row 4 -o "$work/x.mtx"
expect 2 "$magnus" gen laplace2d 4 -o "$work/x.mtx"
expect 2 "$magnus" gen hexagon 4 4 -o "$work/x.mtx"
expect 2 "$magnus" demo --scale
expect 2 "$magnus" demo --scale 0
expect 2 "$magnus" multiply rmat:eight:4
contains err "bad matrix spec"
expect 2 "$magnus" multiply rmat:8:4 --algorithm quick
contains err "unknown algorithm 'quick'"
expect 2 "$magnus" multiply rmat:8:4 --backend vulkan
contains err "unknown backend 'vulkan'"
expect 2 "$magnus" multiply rmat:8:4 --cpu --algorithm hash
contains err "--cpu takes no device options"
expect 2 "$magnus" multiply rmat:8:4 --verify=maybe
contains err "unknown verification 'maybe'"
expect 2 "$magnus" multiply rmat:8:4 --verify random
contains err "write --verify=random"
expect 2 "$magnus" multiply rmat:8:4 --verify --verify-vectors 0
expect 2 "$magnus" multiply rmat:8:4 --local-mem -5
expect 2 "$magnus" demo --algorithm quick

# ---- library errors: exit 1 with the status and detail -------------------------------------
expect 1 "$magnus" info "$work/missing-matrix.mtx"
contains err "magnus info: "
contains err "missing-matrix.mtx"
expect 1 "$magnus" multiply "$work/missing-a.mtx" --verify
contains err "missing-a.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n' >"$work/bad-index.mtx"
expect 1 "$magnus" info "$work/bad-index.mtx"
contains err "bad-index.mtx"
expect 1 "$magnus" multiply laplace2d:4:4 laplace2d:3:3
contains err "dimension mismatch"
expect 2 "$magnus" rmat --scale 40 --per-row 4 -o "$work/x.mtx"
contains err "--scale 40 outside 1..30"
expect 1 "$magnus" gen laplace2d 3 3 -o "$work/no-such-dir/x.mtx"
contains err "no-such-dir/x.mtx"

# ---- gen + info: a 2D Laplacian has 5*N - 2*(NX+NY) entries --------------------------------
expect 0 "$magnus" gen laplace2d 4 5 -o "$work/lap.mtx"
contains out "lap.mtx"
expect 0 "$magnus" info "$work/lap.mtx" --json --square
valid_json
same "laplace2d rows" "$(json rows)" 20
same "laplace2d nnz" "$(json nnz)" $((5 * 20 - 2 * (4 + 5)))
same "laplace2d products" "$(json AxA.products)" "$(fact products "$work/lap.mtx")"
same "laplace2d nnz(A*A)" "$(json AxA.nnz)" "$(fact nnz_product "$work/lap.mtx")"
same "laplace2d max row" "$(json row_nnz.max)" 5
same "laplace2d empty rows" "$(json empty_rows)" 0
expect 0 "$magnus" info "$work/lap.mtx"
contains out "20 x 20"

# ---- rmat: rows = 2^scale, values of --pattern are 1, same seed gives the same file ---------
expect 0 "$magnus" rmat --scale 9 --per-row 4 --seed 3 -o "$work/ra.mtx.gz"
expect 0 "$magnus" info "$work/ra.mtx.gz" --json
valid_json
same "rmat rows" "$(json rows)" 512
same "rmat cols" "$(json cols)" 512
same "rmat nnz" "$(json nnz)" "$(fact nnz "$work/ra.mtx.gz")"
same "rmat products" "$(json AxA.products)" "$(fact products "$work/ra.mtx.gz")"
same "rmat empty rows" "$(json empty_rows)" "$(fact empty_rows "$work/ra.mtx.gz")"
same "rmat max row" "$(json row_nnz.max)" "$(fact row_max "$work/ra.mtx.gz")"
expect 0 "$magnus" rmat --scale 9 --per-row 4 --seed 3 -o "$work/ra-again.mtx.gz"
checks=$((checks + 1))
cmp -s <(gzip -dc "$work/ra.mtx.gz") <(gzip -dc "$work/ra-again.mtx.gz") ||
    fail "rmat with the same seed wrote different files"
# --pattern writes a `pattern` file (issue 33, item 9): the structure of the real file of the
# same seed, no values, read back as f32 ones
expect 0 "$magnus" rmat --scale 8 --per-row 8 --seed 4 --pattern -o "$work/rb.mtx"
same "rmat --pattern values" "$(fact values "$work/rb.mtx")" "1"
checks=$((checks + 1))
head -1 "$work/rb.mtx" | grep -qx '%%MatrixMarket matrix coordinate pattern general' ||
    fail "rmat --pattern: banner '$(head -1 "$work/rb.mtx")'"
checks=$((checks + 1))
awk 'NR > 2 && NF != 2 { bad = 1 } END { exit bad }' "$work/rb.mtx" ||
    fail "rmat --pattern: an entry line with a value"
expect 0 "$magnus" rmat --scale 8 --per-row 8 --seed 4 -o "$work/rb-real.mtx"
checks=$((checks + 1))
cmp -s <(awk 'NR > 1 { print $1, $2 }' "$work/rb.mtx") <(awk 'NR > 1 { print $1, $2 }' "$work/rb-real.mtx") ||
    fail "rmat --pattern: not the structure of the real file of the same seed"
expect 0 "$magnus" info "$work/rb.mtx" --json
same "rmat --pattern: field" "$(json field)" '"pattern"'
same "rmat --pattern: read as" "$(json type)" '"f32"'
expect 0 "$magnus" rmat --scale 6 --per-row 4 --pattern -o "$work/rb.mtx.gz"
checks=$((checks + 1))
gzip -dc "$work/rb.mtx.gz" | head -1 | grep -q 'coordinate pattern general' || fail "rmat --pattern .gz"
# --type would be ignored: a usage error
expect 2 "$magnus" rmat --scale 8 --per-row 8 --pattern --type f64 -o "$work/rb.mtx"
contains err "--type has no effect with --pattern"
expect 0 "$magnus" gen uniform 30 40 3 --seed 5 -o "$work/uni.mtx"
expect 0 "$magnus" info "$work/uni.mtx" --json
valid_json
same "uniform rows" "$(json rows)" 30
same "uniform A*A" "$(json AxA)" null
expect 1 "$magnus" info "$work/uni.mtx" --square
contains err "square"
# star mixture (issue 34): LONG rows of LEN among rows of DEG (DEG >= LONG: exactly DEG), A*A
# against the Python count, the same seed the same file, another seed another
expect 0 "$magnus" gen star 400 2 150 3 --seed 9 -o "$work/star.mtx"
contains out "star n 400, 2 long rows of 150, others 3, seed 9"
expect 0 "$magnus" info "$work/star.mtx" --json --square
valid_json
same "star nnz" "$(json nnz)" $((2 * 150 + 398 * 3))
same "star max row" "$(json row_nnz.max)" 150
same "star products" "$(json AxA.products)" "$(fact products "$work/star.mtx")"
same "star nnz(A*A)" "$(json AxA.nnz)" "$(fact nnz_product "$work/star.mtx")"
expect 0 "$magnus" info star:400:2:150:3:9 --json
same "star spec = star file" "$(json AxA.products)" "$(fact products "$work/star.mtx")"
expect 0 "$magnus" info star:400:2:150:3:9
contains out "max/mean"
expect 0 "$magnus" gen star 400 2 150 3 --seed 9 -o "$work/star-again.mtx"
checks=$((checks + 1))
cmp -s "$work/star.mtx" "$work/star-again.mtx" || fail "star with the same seed wrote different files"
expect 0 "$magnus" gen star 400 2 150 3 --seed 10 -o "$work/star-other.mtx"
checks=$((checks + 1))
! cmp -s "$work/star.mtx" "$work/star-other.mtx" || fail "star seeds 9 and 10 wrote the same file"

# ---- progress: shown with --progress, silent otherwise (stderr is not a terminal here) -----
expect 0 "$magnus" rmat --scale 8 --per-row 4 -o "$work/p.mtx"
checks=$((checks + 1))
[ -s "$work/err" ] && fail "progress printed to a non-terminal stderr without --progress"
expect 0 "$magnus" rmat --scale 8 --per-row 4 --progress -o "$work/p.mtx"
checks=$((checks + 1))
[ -s "$work/err" ] || fail "--progress printed nothing"

# ---- multiply: verified, C matches an independent product, written C reads back ------------
expect 0 "$magnus" rmat --scale 9 --per-row 8 --seed 11 -o "$work/rc.mtx"
expect 0 "$magnus" multiply "$work/ra.mtx.gz" "$work/rc.mtx" --verify -o "$work/c.mtx.gz" "${on[@]}"
contains out "verified: yes"
contains out "wrote:"
expect 0 "$magnus" multiply "$work/ra.mtx.gz" "$work/rc.mtx" --verify --json "${on[@]}"
valid_json
same "multiply verified" "$(json verified)" true
same "multiply nnz(C)" "$(json C.nnz)" "$(fact nnz_product "$work/ra.mtx.gz" "$work/rc.mtx")"
same "multiply products" "$(json products)" "$(fact products "$work/ra.mtx.gz" "$work/rc.mtx")"
same "written C nnz" "$(fact nnz "$work/c.mtx.gz")" "$(json C.nnz)"
expect 0 "$magnus" multiply rmat:8:4:2 laplace2d:16:16 --verify --type f64 "${on[@]}"
contains out "verified: yes"
expect 0 "$magnus" multiply rmat:8:4:2 laplace2d:16:16 --cpu --verify --json
valid_json
same "multiply --cpu engine" "$(json engine)" '"CPU reference"'
same "multiply --cpu verified" "$(json verified)" true
same "multiply --cpu method" "$(json verification.method)" '"exact"'
expect 0 "$magnus" multiply laplace2d:10:10 "${on[@]}"
checks=$((checks + 1))
grep -q "verified" "$work/out" && fail "multiply without --verify claims a verification"

# ---- demo ----------------------------------------------------------------------------------
expect 0 "$magnus" demo --scale 8 "${on[@]}"
contains out "verified: yes"
expect 0 "$magnus" demo --scale 8 --json --type f64 "${on[@]}"
valid_json
same "demo verified" "$(json verified)" true
same "demo A rows" "$(json A.rows)" 256

# ---- JSON strings are escaped: file names with quotes, backslashes, newlines, bad UTF-8 ----
odd="$work/"$'we"ird\\name\n\xff.mtx'
cp "$work/lap.mtx" "$odd"
expect 0 "$magnus" info "$odd" --json
valid_json
same "escaped source" "$(json source)" "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1].encode("utf-8","surrogateescape").decode("utf-8","replace")))' "$odd")"

# ---- a real matrix from the shared set (skipped when absent, failed when CI requires it) ---
require_shared "$shared" wiki-Vote.mtx.gz
if [ -f "$shared/wiki-Vote.mtx.gz" ] && [ -f "$shared/INDEX.tsv" ]; then
    want=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "nnz_AxA") c = i }
                       $1 == "wiki-Vote" { print $c; exit }' "$shared/INDEX.tsv")
    expect 0 "$magnus" multiply "$shared/wiki-Vote.mtx.gz" --verify --json "${on[@]}"
    valid_json
    same "wiki-Vote nnz(A*A) (INDEX.tsv)" "$(json C.nnz)" "$want"
    same "wiki-Vote nnz(A*A)" "$(json C.nnz)" 1831112
    same "wiki-Vote verified" "$(json verified)" true
else
    echo "note: $shared/wiki-Vote.mtx.gz absent, real-matrix check skipped"
fi

# ---- the output checked before any work; --json always one object ---------------------------
expect 1 "$magnus" multiply rmat:9:4:1 rmat:9:8:2 -o "$work/no-such-dir/C.mtx"
contains err "cannot write $work/no-such-dir/C.mtx: directory $work/no-such-dir"
checks=$((checks + 1))
[ ! -s "$work/out" ] || fail "a failed -o check printed a report"
expect 1 "$magnus" multiply rmat:9:4:1 rmat:9:8:2 -o "$work" --json
valid_json
holds "-o DIRECTORY --json: an error, no product" \
    "'it is a directory' in d['error'] and 'C' not in d and 'A' not in d"
expect 1 "$magnus" multiply "$work/no-such.mtx" --json
valid_json
holds "missing input --json: the error names the file" "'no-such.mtx' in d['error']"
expect 0 "$magnus" multiply rmat:8:4:1 --json -o "$work/ok.mtx"
valid_json
holds "success --json: error null, output named" "d['error'] is None and d['output'].endswith('ok.mtx')"

echo "cli: $checks checks, $failures failures"
[ "$failures" -eq 0 ]

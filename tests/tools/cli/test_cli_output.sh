#!/usr/bin/env bash
# Every output of the `magnus` tool fails loudly (issue 33, item 2): a path that cannot be
# written is refused before any work (bench's --csv/--json, rmat/gen/multiply/spmv's -o), with
# "magnus COMMAND: cannot write PATH: REASON" and exit 1; a write that fails later (a full
# disk: /dev/full) is exit 1 too, never a success; standard output lost to a full disk fails
# every command. bench writes a JSON path that is no regular file (/dev/full, a pipe) in place,
# never renaming over it. Device parts are skipped without a device.
# Usage: test_cli_output.sh MAGNUS_BINARY WORK_DIR
set -u
magnus=$1
work=$2
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

full=/dev/full
[ -c "$full" ] || full=
missing=/nonexistent-magnus-dir/out
mkdir -p "$work/a-directory"

# ---- bench: both files checked before the devices are probed ---------------------------------
for op in spgemm spmv; do
    expect 1 "$magnus" bench --op "$op" rmat:4:2 --json "$missing.json"
    contains err "magnus bench: cannot write $missing.json: No such file or directory"
    lacks err "probing devices"
    expect 1 "$magnus" bench --op "$op" rmat:4:2 --csv "$missing.csv"
    contains err "magnus bench: cannot write $missing.csv: No such file or directory"
    lacks err "probing devices"
    expect 1 "$magnus" bench --op "$op" rmat:4:2 --csv "$work/a-directory"
    contains err "magnus bench: cannot write $work/a-directory: Is a directory"
    lacks err "probing devices"
    if [ -n "$full" ]; then
        # the CSV header is written (and flushed) up front: a full disk fails at once
        expect 1 "$magnus" bench --op "$op" rmat:4:2 --csv "$full"
        contains err "magnus bench: cannot write $full: No space left on device"
        lacks err "probing devices"
    fi
done

# ---- files the library writes: checked before the matrix is generated or multiplied ----------
expect 1 "$magnus" rmat --scale 4 --per-row 2 -o "$missing.mtx"
contains err "magnus rmat: cannot write $missing.mtx: directory"
expect 1 "$magnus" gen laplace2d 3 3 -o "$missing.mtx"
contains err "magnus gen: cannot write $missing.mtx: directory"
expect 1 "$magnus" multiply rmat:4:2 --cpu -o "$missing.mtx"
contains err "magnus multiply: cannot write $missing.mtx: directory"
lacks out "C = A*B"
if [ -n "$full" ]; then
    expect 1 "$magnus" rmat --scale 4 --per-row 2 -o "$full"
    contains err "No space left on device"
    expect 1 "$magnus" multiply rmat:4:2 --cpu -o "$full"
    contains err "No space left on device"
fi

# ---- standard output lost to a full disk: exit 1, whatever the command -----------------------
stdout_full() { # CMD...: stdout to /dev/full, stderr to $work/err
    checks=$((checks + 1))
    "$@" >"$full" 2>"$work/err"
    local rc=$?
    [ "$rc" -eq 1 ] || fail "'$*' >$full exited $rc, expected 1"
}
if [ -n "$full" ]; then
    stdout_full "$magnus" info --json rmat:4:2
    contains err "magnus info: cannot write standard output: No space left on device"
    stdout_full "$magnus" info rmat:4:2
    contains err "magnus info: cannot write standard output: No space left on device"
    stdout_full "$magnus" multiply rmat:4:2 --cpu --json
    contains err "magnus multiply: cannot write standard output: No space left on device"
    stdout_full "$magnus" rmat --help
    contains err "magnus rmat: cannot write standard output"
    stdout_full "$magnus" --help
    contains err "magnus: cannot write standard output"
    stdout_full "$magnus" bench --list-columns
    contains err "magnus bench: cannot write standard output"
fi

if ! device_selected; then
    echo "NOTE: no device: the device parts are skipped"
else
    if [ -n "$full" ]; then
        stdout_full "$magnus" probe --json
        contains err "magnus probe: cannot write standard output: No space left on device"
        stdout_full "$magnus" params rmat:6:2 --json
        contains err "magnus params: cannot write standard output: No space left on device"
        # A JSON path that is no regular file: opened up front, written at the end, where it
        # is. Through a link in $work: a bench that renamed its file over the path (as it
        # did) then replaces the link, not the device.
        ln -sf "$full" "$work/full-link"
        expect 1 "$magnus" bench rmat:4:2 --runs 1 --no-bandwidth --json "$work/full-link"
        contains err "magnus bench: cannot write $work/full-link: No space left on device"
        checks=$((checks + 1))
        [ -L "$work/full-link" ] || fail "bench --json replaced the link to $full"
        ln -sf "$full" "$work/full-link"
        expect 1 "$magnus" bench --op spmv rmat:4:2 --runs 1 --no-bandwidth --json "$work/full-link"
        contains err "magnus bench: cannot write $work/full-link: No space left on device"
        expect 1 "$magnus" spmv rmat:4:2 -o "$full"
        contains err "magnus spmv: cannot write $full: No space left on device"
    fi
    # the good paths still work: JSON through a pipe (fd 3; the summary goes to stdout), CSV
    # and JSON files
    checks=$((checks + 1))
    "$magnus" bench rmat:4:2 --runs 1 --no-bandwidth --json /dev/fd/3 3>&1 >/dev/null 2>"$work/err" |
        python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d["finished"] and d["rows"] else 1)' ||
        fail "bench --json /dev/stdout: not one finished JSON document"
    expect 0 "$magnus" bench rmat:4:2 --runs 1 --no-bandwidth --csv "$work/b.csv" --json "$work/b.json"
    checks=$((checks + 1))
    [ "$(wc -l <"$work/b.csv")" -eq 2 ] || fail "bench --csv: expected a header and one row"
    python3 -m json.tool "$work/b.json" >/dev/null || fail "bench --json: not valid JSON"
    checks=$((checks + 1))
    [ ! -e "$work/b.json.tmp" ] || fail "bench --json left its temporary file"
fi

echo "test_cli_output: $checks checks, $failures failures"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# The layering of runtime/ is enforced by include paths (runtime/CMakeLists.txt): each layer's
# object library sees only its own folder and the layers below. This test compiles small
# translation units with a layer's exact include path and checks that reaching up or across
# fails to compile, while a legal include compiles (so a failure is the layering, not the
# harness).
# Usage: check_layers.sh CC SNIPPET_DIR NAME=INCLUDE_DIRS...  (INCLUDE_DIRS joined by ':')
set -uo pipefail
cc=$1 dir=$2
shift 2
declare -A inc
for a in "$@"; do inc[${a%%=*}]=${a#*=}; done
failures=0
# compile LAYER SNIPPET: 0 when it compiles with LAYER's include path
compile() {
    local flags=() d
    IFS=: read -ra dirs <<<"${inc[$1]}"
    for d in "${dirs[@]}"; do [ -n "$d" ] && flags+=("-I$d"); done
    "$cc" -std=c11 -D_GNU_SOURCE -fsyntax-only "${flags[@]}" "$dir/$2" 2>"$work/$1-$2.err"
}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
expect() { # expect ok|fail LAYER SNIPPET WHY [ERROR]: a failure must say ERROR (default: the
    # header is not found), so that it is the layering that stops it
    local want=$1 layer=$2 snippet=$3 why=$4 error=${5:-No such file or directory} got=ok
    compile "$layer" "$snippet" || got=fail
    if [ "$got" = fail ] && [ "$want" = fail ] && ! grep -q "$error" "$work/$layer-$snippet.err"; then
        got="fail for another reason than '$error'"
    fi
    if [ "$got" = "$want" ]; then
        echo "ok: $layer + $snippet: $want ($why)"
    else
        echo "FAIL: $layer + $snippet: expected $want, got $got ($why)"; sed 's/^/    /' "$work/$layer-$snippet.err"
        failures=$((failures + 1))
    fi
}
expect ok   gmagnus   uses_device_runtime.c    "an algorithm uses the device runtime"
expect fail gmagnus   includes_backend.c       "an algorithm cannot see the backend table"
expect fail gmagnus   calls_backend_op.c       "an algorithm cannot call a backend op through the context" "incomplete"
expect fail hash      includes_backend.c       "the hash algorithm cannot see the backend table"
expect fail accumulate includes_backend.c      "the accumulator cannot see the backend table"
expect fail primitives includes_accumulator.c  "primitives cannot reach the accumulator above them"
expect fail device    includes_gmagnus.c       "the device runtime cannot reach an algorithm"
expect ok   backend   includes_backend.c       "a backend sees the backend table"
expect fail backend   includes_gmagnus.c       "a backend cannot include an algorithm's header"
expect fail backend   uses_device_runtime.c    "a backend cannot reach the device runtime above it"
expect fail host      uses_device_runtime.c    "host CSR code does not see the device runtime"
expect ok   spmv      uses_device_runtime.c    "SpMV uses the device runtime"
expect fail spmv      includes_backend.c       "SpMV cannot see the backend table"
expect fail spmv      calls_backend_op.c       "SpMV cannot call a backend op through the context" "incomplete"
expect fail spmv      includes_accumulator.c   "SpMV cannot reach the accumulator"
expect fail spmv      includes_gmagnus.c       "SpMV cannot reach an algorithm"
[ "$failures" -eq 0 ] && echo "layers: all checks passed" || { echo "layers: $failures check(s) failed"; exit 1; }

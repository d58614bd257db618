#!/usr/bin/env bash
# Installs magnus and builds a consumer against the installed copy, as a user would:
#   1. `cmake --install` of the build under test into a fresh prefix; the shared library's
#      SONAME must be versioned (libmagnus.so.MAJOR.MINOR);
#   2. the consumer (tests/install/consumer) built with find_package(magnus) and, separately,
#      with `cc $(pkg-config --cflags --libs magnus)`; both must run and print "ok";
#   3. a fresh static build of the library alone (no tests, no tools), installed, and the
#      consumer built against it with find_package and with `pkg-config --static`.
# Usage: test_install.sh WORK_DIR SOURCE_DIR BUILD_DIR CMAKE CC LIBDIR SHARED SANITIZE BUILD_TYPE
set -euo pipefail
work=$1 source=$2 build=$3 cmake=$4 cc=$5 libdir=$6 shared=$7 sanitize=$8 build_type=$9
consumer_src=$source/tests/install/consumer
unset DESTDIR
export PKG_CONFIG_LIBDIR= # only our prefix, never a system-wide magnus.pc
san_flags=""
if [ "$sanitize" = ON ]; then
    # A sanitized libmagnus needs its runtime in the executable too.
    san_flags="-fsanitize=address,undefined"
fi
step() { echo "== $*"; }
die() {
    echo "FAIL: $*" >&2
    exit 1
}

# check_run NAME LIB_PATH EXE: runs EXE and checks its report.
check_run() {
    local out
    out=$(LD_LIBRARY_PATH="$2" "$3") || die "$1: consumer exited with $?: $out"
    echo "$out"
    grep -q "nnz(A\*A) = 494, ok" <<<"$out" || die "$1: unexpected output"
}

# consumer_cmake NAME PREFIX FLAGS: configures and builds the consumer with find_package.
consumer_cmake() {
    local dir=$work/$1
    "$cmake" -S "$consumer_src" -B "$dir" -DCMAKE_PREFIX_PATH="$2" -DCMAKE_C_COMPILER="$cc" \
        -DCMAKE_C_FLAGS="$3" -DCMAKE_EXE_LINKER_FLAGS="$3" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
        >"$dir.log" 2>&1 || { cat "$dir.log"; die "$1: configure failed"; }
    "$cmake" --build "$dir" >>"$dir.log" 2>&1 || { cat "$dir.log"; die "$1: build failed"; }
}

# consumer_pkgconfig NAME PREFIX FLAGS [--static]: builds the consumer with pkg-config.
consumer_pkgconfig() {
    local pcdir=$2/$libdir/pkgconfig flags
    # The .pc file must point into the prefix it was installed to, wherever that is.
    local pc_libdir
    pc_libdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=libdir magnus) ||
        die "$1: pkg-config cannot find magnus in $pcdir"
    [ "$(realpath "$pc_libdir")" = "$(realpath "$2/$libdir")" ] ||
        die "$1: magnus.pc says libdir=$pc_libdir, installed in $2/$libdir"
    flags=$(PKG_CONFIG_PATH=$pcdir pkg-config ${4:-} --cflags --libs magnus)
    echo "pkg-config ${4:+$4 }--cflags --libs magnus: $flags"
    # shellcheck disable=SC2086 # flags are words
    "$cc" $3 "$consumer_src/main.c" -o "$work/$1" $flags || die "$1: build failed"
}

rm -rf "$work/prefix" "$work/static-prefix" "$work"/consumer-*
mkdir -p "$work"

step "install the build under test ($build) into $work/prefix"
"$cmake" --install "$build" --prefix "$work/prefix" >"$work/install.log" ||
    { cat "$work/install.log"; die "cmake --install failed"; }
# magnus.h includes its parts by topic: every header of include/magnus/ is installed beside it
for header in "$source"/include/magnus/*.h; do
    [ -f "$work/prefix/include/magnus/${header##*/}" ] || die "${header##*/} not installed"
done
[ -f "$work/prefix/$libdir/cmake/magnus/magnusConfig.cmake" ] || die "magnusConfig.cmake not installed"
lib_path=$work/prefix/$libdir
if [ "$shared" = ON ]; then
    soname=$(readelf -d "$lib_path/libmagnus.so" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
    echo "SONAME $soname"
    [ "$soname" = "libmagnus.so.0.1" ] || die "SONAME is '$soname', expected libmagnus.so.0.1"
    [ -e "$lib_path/$soname" ] || die "$soname not installed"
    # Only the public API is exported: no internal helper leaks out of the library.
    exported=$(nm -D --defined-only "$lib_path/libmagnus.so" | awk '{print $3}')
    if grep -v '^magnus_' <<<"$exported" | grep -v '^_' | grep -q .; then
        die "libmagnus.so exports symbols outside magnus_*"
    fi
    pkg_static=""
else
    pkg_static="--static"
fi

step "consumer with find_package(magnus)"
consumer_cmake consumer-cmake "$work/prefix" "$san_flags"
check_run consumer-cmake "$lib_path" "$work/consumer-cmake/consumer"

step "consumer with pkg-config"
consumer_pkgconfig consumer-pc "$work/prefix" "$san_flags" $pkg_static
check_run consumer-pc "$lib_path" "$work/consumer-pc"
if [ "$shared" = ON ]; then
    # Captured first: under pipefail, `ldd | grep -q` fails at random when grep exits on its
    # match before ldd has written its last line (ldd dies of SIGPIPE).
    loaded=$(LD_LIBRARY_PATH=$lib_path ldd "$work/consumer-pc")
    grep -qF "$lib_path/libmagnus.so.0.1" <<<"$loaded" ||
        die "consumer-pc does not load the installed libmagnus.so.0.1: $loaded"
fi

step "static library alone: configure and build $work/static-build"
# The build directory is kept between runs (incremental); the install prefix is not.
"$cmake" -S "$source" -B "$work/static-build" -DMAGNUS_BUILD_SHARED=OFF -DMAGNUS_BUILD_TESTS=OFF \
    -DMAGNUS_BUILD_TOOLS=OFF -DMAGNUS_SANITIZE=OFF -DCMAKE_BUILD_TYPE="$build_type" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_INSTALL_LIBDIR="$libdir" >"$work/static.log" 2>&1 ||
    { cat "$work/static.log"; die "static configure failed"; }
"$cmake" --build "$work/static-build" -j2 >>"$work/static.log" 2>&1 ||
    { tail -50 "$work/static.log"; die "static build failed"; }
"$cmake" --install "$work/static-build" --prefix "$work/static-prefix" >>"$work/static.log" ||
    die "static install failed"
[ -f "$work/static-prefix/$libdir/libmagnus.a" ] || die "libmagnus.a not installed"
[ ! -e "$work/static-prefix/$libdir/libmagnus.so" ] || die "static build installed a libmagnus.so"

step "consumer of the static library with find_package(magnus)"
consumer_cmake consumer-static-cmake "$work/static-prefix" ""
check_run consumer-static-cmake "" "$work/consumer-static-cmake/consumer"

step "consumer of the static library with pkg-config --static"
consumer_pkgconfig consumer-static-pc "$work/static-prefix" "" --static
check_run consumer-static-pc "" "$work/consumer-static-pc"
for exe in "$work/consumer-static-cmake/consumer" "$work/consumer-static-pc"; do
    needed=$(readelf -d "$exe" | grep NEEDED || true)
    if grep -q libmagnus <<<"$needed"; then
        die "$exe links libmagnus dynamically"
    fi
done
echo "install: all checks passed"

#!/bin/sh
# libmagnus loads every vendor library at run time (dlopen), so it must not be linked against
# any of them: a program using libmagnus has to start on a machine without CUDA, Level Zero or
# OpenCL installed.  usage: test_ldd.sh path/to/libmagnus.so
lib="$1"
[ -f "$lib" ] || { echo "test_ldd: no library at '$lib'"; exit 1; }
needed=$(readelf -d "$lib" | grep NEEDED)
echo "$needed"
if echo "$needed" | grep -E -q 'libcuda|libOpenCL|libze_loader|libnvrtc|libcudart'; then
    echo "test_ldd: $lib links a vendor library"
    exit 1
fi
# ldd resolves the whole dependency tree, in case a dependency pulls a vendor library in.
if ldd "$lib" | grep -E 'libcuda|libOpenCL|libze_loader'; then
    echo "test_ldd: a dependency of $lib links a vendor library"
    exit 1
fi
echo "test_ldd: $lib links no vendor library"

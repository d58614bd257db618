# Device runtime and primitives: one test source, one ctest entry per backend (each skips,
# exit code 77, where its backend has no device; see tests/device_test_main.h).
set(_rt_dir ${CMAKE_CURRENT_LIST_DIR})
magnus_add_test(primitives_opencl SOURCES ${_rt_dir}/test_primitives.c
                ENV MAGNUS_BACKENDS=opencl LABELS runtime opencl TIMEOUT 300)

# Reliability: hostile input, allocation failure, API misuse, leak detection, fuzz replay.
set(_rel_dir ${CMAKE_CURRENT_LIST_DIR})

# Leak detection itself: in a sanitizer build, a test that leaks must fail (see
# tests/util/sanitizer_defaults.c). Checked, not assumed: leak_canary leaks on request and
# leak_canary_detected requires that run to fail with LeakSanitizer's report. By hand:
#   cmake -S . -B build-asan -DMAGNUS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
#   cmake --build build-asan --target leak_canary
#   MAGNUS_LEAK_CANARY=1 build-asan/tests/leak_canary --jobs 1; echo $?   # 1, with the report
# Without abort_on_error=1 (ASAN_OPTIONS=abort_on_error=0) the same run prints the report
# and exits 0: Criterion ignores the worker's exit status after the test's verdict.
magnus_add_test(leak_canary SOURCES ${_rel_dir}/leak_canary.c LABELS reliability TIMEOUT 60)
if(MAGNUS_SANITIZE)
  add_test(NAME leak_canary_detected
           COMMAND ${CMAKE_COMMAND} -DCANARY=$<TARGET_FILE:leak_canary>
                   -P ${_rel_dir}/expect_leak_failure.cmake)
  set_tests_properties(leak_canary_detected PROPERTIES LABELS reliability TIMEOUT 60)
endif()

# Public entry points against bad input: every host function with every broken matrix, NULL
# outputs, overflowing sizes, device handles, IEEE specials, and no message left by a success
# (test_api_clean.c) (device parts on OpenCL/PoCL,
# skipped without a device). One executable of a file per job; the broken matrices they share
# are in api_errors_test_util.h.
magnus_add_test(test_api_errors
                SOURCES ${_rel_dir}/test_api_errors.c ${_rel_dir}/test_api_null.c
                        ${_rel_dir}/test_api_sizes.c ${_rel_dir}/test_api_ieee.c
                        ${_rel_dir}/test_api_device.c ${_rel_dir}/test_api_clean.c
                ENV MAGNUS_BACKENDS=opencl LABELS reliability opencl TIMEOUT 600)

# Host allocation failure sweeps of the calls not swept beside their components: CSR
# functions, compare, write, and SpGEMM on OpenCL/PoCL (both algorithms, device matrices).
magnus_add_test(test_alloc_failures SOURCES ${_rel_dir}/test_alloc_failures.c
                ENV MAGNUS_BACKENDS=opencl LABELS reliability opencl TIMEOUT 900)

# Device SpGEMM against the CPU reference: 1000 seeded random pairs (both algorithms, small
# local-memory budgets), a device-memory-limit sweep, one context per thread concurrently; a
# device test set, so on every backend present (the Level Zero test driver too) and shape.
magnus_add_device_test(spgemm_property SOURCES ${_rel_dir}/test_spgemm_property.c
                       LABELS reliability spgemm TIMEOUT 1800)
target_link_libraries(spgemm_property PRIVATE Threads::Threads)

# A broken OpenCL stack (tests/backends/opencl/fake_opencl: the real ICD loader with one entry point made to
# fail) at every step of probing, context creation and a multiply; the CUDA backend, on the
# fake CUDA driver where that is built, must still be probed.
find_path(MAGNUS_CL_HEADER_DIR CL/cl.h)
if(MAGNUS_CL_HEADER_DIR)
  add_library(magnus_fake_opencl SHARED ${PROJECT_SOURCE_DIR}/tests/backends/opencl/fake_opencl/fake_opencl.c)
  set_target_properties(magnus_fake_opencl PROPERTIES OUTPUT_NAME fake_opencl
                        LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/fake_opencl)
  target_include_directories(magnus_fake_opencl SYSTEM PRIVATE ${MAGNUS_CL_HEADER_DIR})
  target_link_libraries(magnus_fake_opencl PRIVATE ${CMAKE_DL_LIBS} Threads::Threads)
  set(_fake_cl_env MAGNUS_OPENCL_LIBRARY=$<TARGET_FILE:magnus_fake_opencl>
                   MAGNUS_BACKENDS=opencl,cuda)
  if(TARGET magnus_fake_cuda)
    list(APPEND _fake_cl_env MAGNUS_CUDA_LIBRARY=$<TARGET_FILE:magnus_fake_cuda>)
  endif()
  magnus_add_test(test_fake_opencl SOURCES ${_rel_dir}/test_fake_opencl.c
                  ENV ${_fake_cl_env} LABELS reliability opencl TIMEOUT 900)
  add_dependencies(test_fake_opencl magnus_fake_opencl)
  if(TARGET magnus_fake_cuda)
    add_dependencies(test_fake_opencl magnus_fake_cuda)
  endif()
endif()

# Matrix Market fuzzing: corpus replay always, the libFuzzer target with MAGNUS_FUZZ=ON.
include(${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz.cmake)

# CI's switches MAGNUS_REQUIRE_DEVICE and MAGNUS_REQUIRE_SHARED_MATRICES (.ci/run sets them):
# without them a missing device or shared directory skips, with them it fails, and only for
# the backends listed (tests/util/require_test_util.h, tests/util/require.sh).
add_test(NAME require_switches
         COMMAND bash ${_rel_dir}/test_require_switches.sh $<TARGET_FILE:spgemm_gmagnus>
                 ${CMAKE_CURRENT_BINARY_DIR}/require-switches-work ${PROJECT_SOURCE_DIR})
set_tests_properties(require_switches PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                     LABELS "reliability;opencl")

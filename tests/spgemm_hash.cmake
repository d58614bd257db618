# SpGEMM entry points, device-resident matrices and the hash algorithm / accumulator: every
# product compared with the CPU reference. One executable per backend; each skips (exit 77)
# where its backend has no device (tests/device_test_main.h).
set(_hash_dir ${CMAKE_CURRENT_LIST_DIR})
magnus_add_test(spgemm_hash_opencl SOURCES ${_hash_dir}/test_spgemm_hash.c
                ENV MAGNUS_BACKENDS=opencl LABELS spgemm hash opencl TIMEOUT 600)
magnus_add_test(spgemm_hash_cuda SOURCES ${_hash_dir}/test_spgemm_hash.c
                ENV MAGNUS_BACKENDS=cuda LABELS spgemm hash cuda TIMEOUT 600)

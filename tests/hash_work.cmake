# How the hash accumulator shares out its work: bin shapes, the MAGNUS_HASH_GROUP_MAX knob, and
# products through the wide paths (1024 work items per table, compaction before the sort),
# compared with the CPU reference. One executable per backend; each skips (exit 77) where its
# backend has no device.
set(_hash_work_dir ${CMAKE_CURRENT_LIST_DIR})
magnus_add_test(hash_work_opencl SOURCES ${_hash_work_dir}/test_hash_work.c
                ENV MAGNUS_BACKENDS=opencl LABELS hash opencl TIMEOUT 300)
magnus_add_test(hash_work_cuda SOURCES ${_hash_work_dir}/test_hash_work.c
                ENV MAGNUS_BACKENDS=cuda LABELS hash cuda TIMEOUT 300)

# SpMV (runtime/spmv/): every format against a CPU reference in double, both value types,
# error cases and plan reuse, on every device backend.
magnus_add_device_test(spmv SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_spmv.c
                       ${CMAKE_CURRENT_LIST_DIR}/test_spmv_carveout.c
                       ${CMAKE_CURRENT_LIST_DIR}/test_spmv_hot.c
                       LABELS spmv TIMEOUT 600)
# The staged kernels (spmv_merge, spmv_coo) away from their defaults: 2 and 3 items per work
# item in groups of at most 32, so the scans, the diagonal searches and the group splits take
# other shapes (docs/algorithm.md §9, "Tuning").
magnus_add_device_variant(spmv knobs ENV MAGNUS_SPMV_MERGE_ITEMS=2 MAGNUS_SPMV_COO_ITEMS=3
                          MAGNUS_SPMV_GROUP=32 LABELS spmv TIMEOUT 600)
# The whole set with SpMV's product kernels asking for the most L1 (MAGNUS_SPMV_CARVEOUT=0:
# CUDA's carveout, Level Zero's large-data configuration through the test driver, ignored by
# OpenCL): a hint that must never change a result.
magnus_add_device_variant(spmv carveout ENV MAGNUS_SPMV_CARVEOUT=0 LABELS spmv TIMEOUT 600)
# The whole set with CSR_BALANCED's hot x on (MAGNUS_SPMV_HOT_BYTES=2K: a few hundred columns,
# so that hot and plain columns meet in every group): a copy of x that must never change a y.
magnus_add_device_variant(spmv hot ENV MAGNUS_SPMV_HOT_BYTES=2K LABELS spmv TIMEOUT 600)

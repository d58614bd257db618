# SpMV (runtime/spmv/): every format against a CPU reference in double, both value types,
# error cases and plan reuse, on every device backend.
magnus_add_device_test(spmv SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_spmv.c
                       LABELS spmv TIMEOUT 600)

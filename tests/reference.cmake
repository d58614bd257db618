# CPU reference SpGEMM, matrix comparison and generators (runtime/reference_spgemm.c,
# runtime/csr_compare.c, runtime/gen_*.c). test_reference also squares every shared real
# matrix (skipped when MAGNUS_SHARED_MATRICES is absent).
magnus_add_test(test_reference SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_reference.c TIMEOUT 600)
magnus_add_test(test_compare SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_compare.c)
magnus_add_test(test_generators SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_generators.c)

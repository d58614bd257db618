# SpGEMM entry points, device-resident matrices and the hash algorithm: every product compared
# with the CPU reference, on every device backend.
magnus_add_device_test(spgemm_hash SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_spgemm_hash.c
                       LABELS spgemm hash TIMEOUT 600)

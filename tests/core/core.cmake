# core: the byte-size grammar of the MAGNUS_* variables and the command line
# (runtime/core/byte_size.h); no device.
magnus_add_test(test_byte_size SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_byte_size.c LABELS unit
                TIMEOUT 60)
# the parallel first touch of fresh host memory before a large download (host_prefault.h)
magnus_add_test(test_host_prefault SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_host_prefault.c
                LABELS unit TIMEOUT 60)

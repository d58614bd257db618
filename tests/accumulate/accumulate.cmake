# The hash accumulator's work shapes and wide paths (rows and chunks against host
# computations), on every device backend.
magnus_add_device_test(hash_work SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_hash_work.c
                       LABELS hash TIMEOUT 300)

# The device primitives against host computations, on every device backend.
magnus_add_device_test(primitives SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_primitives.c
                               ${CMAKE_CURRENT_LIST_DIR}/test_primitives_more.c
                       LABELS runtime TIMEOUT 600)

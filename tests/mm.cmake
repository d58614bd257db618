# Matrix Market I/O (runtime/mm_read.c, mm_build.c, mm_write.c, text_number.*, file_input.*).
magnus_add_test(test_mm_read SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_mm_read.c LABELS io TIMEOUT 300)
magnus_add_test(test_mm_errors SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_mm_errors.c LABELS io TIMEOUT 300)
magnus_add_test(test_mm_write SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_mm_write.c LABELS io TIMEOUT 300)
magnus_add_test(test_text_number SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_text_number.c LABELS io TIMEOUT 300)

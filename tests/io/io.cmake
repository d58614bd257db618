# Matrix Market reading and writing, number parsing (no device); test_mm_facts: headers, counts,
# the automatic type, pipes and standard input, byte-order marks and CR-only line ends.
set(_dir ${CMAKE_CURRENT_LIST_DIR})
magnus_add_test(test_mm_read SOURCES ${_dir}/test_mm_read.c LABELS io TIMEOUT 300)
magnus_add_test(test_mm_errors SOURCES ${_dir}/test_mm_errors.c LABELS io TIMEOUT 300)
magnus_add_test(test_mm_write SOURCES ${_dir}/test_mm_write.c LABELS io TIMEOUT 300)
magnus_add_test(test_text_number SOURCES ${_dir}/test_text_number.c LABELS io TIMEOUT 300)
magnus_add_test(test_mm_facts SOURCES ${_dir}/test_mm_facts.c LABELS io TIMEOUT 300)

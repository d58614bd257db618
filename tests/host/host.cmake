# Host matrices: the CPU reference, the comparison, the generators (no device).
set(_dir ${CMAKE_CURRENT_LIST_DIR})
magnus_add_test(test_reference SOURCES ${_dir}/test_reference.c TIMEOUT 600)
magnus_add_test(test_compare SOURCES ${_dir}/test_compare.c)
magnus_add_test(test_generators SOURCES ${_dir}/test_generators.c)
magnus_add_test(test_gen_star SOURCES ${_dir}/test_gen_star.c)

# kernels/: the declarations of kernels/kernel_signatures.h against the kernel sources, which
# the test reads from the tree (no device).
set(_dir ${CMAKE_CURRENT_LIST_DIR})
magnus_add_test(kernel_signatures SOURCES ${_dir}/test_kernel_signatures.c ${_dir}/kernel_parse.c
                LABELS unit TIMEOUT 60)
target_compile_definitions(kernel_signatures PRIVATE
                           MAGNUS_KERNELS_DIR="${PROJECT_SOURCE_DIR}/kernels")

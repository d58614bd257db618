# Device runtime and primitives. test_primitives.c is one source registered once per backend
# (each entry skips, exit code 77, where its backend has no device: tests/device_test_main.h).
# test_kernel_signatures.c checks the kernels' declarations against their sources (no device).
# test_probe.c needs no device for most of its tests; test_ldd.sh checks that libmagnus links
# no vendor library.
set(_rt_dir ${CMAKE_CURRENT_LIST_DIR})
magnus_add_test(primitives_opencl SOURCES ${_rt_dir}/test_primitives.c
                ENV MAGNUS_BACKENDS=opencl LABELS runtime opencl TIMEOUT 600)
magnus_add_test(primitives_opencl_spir SOURCES ${_rt_dir}/test_primitives.c
                ENV MAGNUS_BACKENDS=opencl MAGNUS_OPENCL_PROGRAM=spir LABELS runtime opencl
                TIMEOUT 600)
magnus_add_test(primitives_cuda SOURCES ${_rt_dir}/test_primitives.c
                ENV MAGNUS_BACKENDS=cuda LABELS runtime cuda TIMEOUT 600)
magnus_add_test(primitives_level0 SOURCES ${_rt_dir}/test_primitives.c
                ENV MAGNUS_BACKENDS=level0 LABELS runtime level0 TIMEOUT 600)

# kernels/kernel_signatures.h against the kernel sources, which the test reads from the tree.
magnus_add_test(kernel_signatures SOURCES ${_rt_dir}/test_kernel_signatures.c
                ${_rt_dir}/kernel_parse.c LABELS unit TIMEOUT 60)
target_compile_definitions(kernel_signatures PRIVATE
                           MAGNUS_KERNELS_DIR="${PROJECT_SOURCE_DIR}/kernels")

magnus_add_test(test_probe SOURCES ${_rt_dir}/test_probe.c LABELS runtime TIMEOUT 300)

if(MAGNUS_BUILD_SHARED)
  add_test(NAME libmagnus_links_no_vendor_library
           COMMAND sh ${_rt_dir}/test_ldd.sh $<TARGET_FILE:magnus>)
  set_tests_properties(libmagnus_links_no_vendor_library PROPERTIES LABELS runtime TIMEOUT 60)
endif()

if(MAGNUS_BUILD_TOOLS)
  add_test(NAME magnus_probe_cli COMMAND sh ${_rt_dir}/test_probe_cli.sh $<TARGET_FILE:magnus_cli>
           WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(magnus_probe_cli PROPERTIES LABELS "runtime;cli" TIMEOUT 120)
endif()

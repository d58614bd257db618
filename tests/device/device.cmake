# The device runtime: probe, contexts, buffers, launch checks, deferred freeing, per-kernel
# limits and the kernel cache (test_probe, one executable of a file per job, their helpers in
# probe_test_util.h: most of it needs no device), the copy-bandwidth measurement on every
# backend, and that libmagnus links no vendor library.
set(_dir ${CMAKE_CURRENT_LIST_DIR})
magnus_add_test(test_probe
                SOURCES ${_dir}/test_probe.c ${_dir}/test_context.c ${_dir}/test_deferred_free.c
                        ${_dir}/test_device_pool.c ${_dir}/test_context_constants.c
                        ${_dir}/test_kernel_limits.c ${_dir}/test_kernel_cache.c
                        ${_dir}/test_trace.c
                LABELS runtime TIMEOUT 300)
magnus_add_device_test(copy_bandwidth SOURCES ${_dir}/test_copy_bandwidth.c LABELS bench
                       TIMEOUT 300)
if(MAGNUS_BUILD_SHARED)
  add_test(NAME libmagnus_links_no_vendor_library
           COMMAND sh ${_dir}/test_ldd.sh $<TARGET_FILE:magnus>)
  set_tests_properties(libmagnus_links_no_vendor_library PROPERTIES LABELS runtime TIMEOUT 60)
endif()
if(MAGNUS_BUILD_TOOLS)
  add_test(NAME magnus_probe_cli COMMAND sh ${_dir}/test_probe_cli.sh $<TARGET_FILE:magnus_cli>
           WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(magnus_probe_cli PROPERTIES LABELS "runtime;cli" TIMEOUT 120)
endif()
# Foreign device buffers: a matrix over the caller's cl_mem objects or CUDA device pointers (the
# test makes them through the vendor's API, so OpenCL and CUDA only).
magnus_add_device_test(device_csr_wrap SOURCES ${_dir}/test_device_csr_wrap.c
                       LABELS runtime BACKENDS opencl cuda TIMEOUT 300)
# Borrowing a device matrix's buffers (magnus_device_csr_native): through magnus's own API on
# every backend (wrap(native(C)) round trips), plus a CUDA-only read through the driver API.
magnus_add_device_test(device_csr_native SOURCES ${_dir}/test_device_csr_native.c
                       LABELS runtime BACKENDS opencl level0 level0_fake cuda TIMEOUT 300)
# A device matrix's structure checked and fingerprinted on the device (wrap, plans): through
# magnus's own API on every backend.
magnus_add_device_test(device_csr_structure SOURCES ${_dir}/test_device_csr_structure.c
                       LABELS runtime TIMEOUT 300)

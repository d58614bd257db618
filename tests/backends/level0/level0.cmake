# Level Zero backend tests. No Intel GPU is needed: the real Level Zero loader
# (libze_loader.so.1) is pointed at a fake driver, tests/backends/level0/fake_ze, through ZE_ENABLE_ALT_DRIVERS;
# the fake reports whatever device its FAKE_ZE_* variables describe and runs the SPIR-V
# kernels on PoCL (tests/backends/level0/fake_ze/fake_ze.h). What that proves and what it cannot: README.md,
# docs/level0.md.
if(NOT MAGNUS_LEVEL0_INCLUDE_DIR)
  message(STATUS "magnus: Level Zero tests skipped (no level_zero/ze_api.h)")
  return()
endif()

# ---- the fake driver ----------------------------------------------------------------------
set(_fake_ze_dir ${CMAKE_CURRENT_LIST_DIR}/fake_ze)
set(_fake_ze_headers ${MAGNUS_LEVEL0_INCLUDE_DIR}/level_zero/ze_ddi.h
                     ${MAGNUS_LEVEL0_INCLUDE_DIR}/level_zero/zet_ddi.h
                     ${MAGNUS_LEVEL0_INCLUDE_DIR}/level_zero/zes_ddi.h)
set(_fake_ze_tables ${CMAKE_CURRENT_BINARY_DIR}/fake_ze_tables_gen.c)
add_custom_command(OUTPUT ${_fake_ze_tables}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${_fake_ze_tables} "-DHEADERS=${_fake_ze_headers}"
          -P ${_fake_ze_dir}/gen_tables.cmake
  DEPENDS ${_fake_ze_dir}/gen_tables.cmake ${_fake_ze_headers}
  COMMENT "fake_ze: table getters from the Level Zero DDI headers"
  VERBATIM)
# Kernels run on OpenCL (PoCL's CPU device); the fake links libOpenCL itself (it is a test
# driver; libmagnus links no vendor library).
find_package(OpenCL)
if(NOT OpenCL_FOUND)
  message(STATUS "magnus: Level Zero tests skipped (the fake driver needs OpenCL headers and "
                 "libOpenCL to run kernels)")
  return()
endif()
add_library(fake_ze SHARED ${_fake_ze_tables} ${_fake_ze_dir}/fake_ze_tables.c
                           ${_fake_ze_dir}/fake_ze_device.c ${_fake_ze_dir}/fake_ze_context.c
                           ${_fake_ze_dir}/fake_ze_memory.c ${_fake_ze_dir}/fake_ze_commands.c
                           ${_fake_ze_dir}/fake_ze_queue.c ${_fake_ze_dir}/fake_ze_run.c
                           ${_fake_ze_dir}/fake_ze_module.c ${_fake_ze_dir}/fake_ze_kernel.c
                           ${_fake_ze_dir}/fake_ze_spirv.c ${_fake_ze_dir}/fake_ze_translate.c
                           ${_fake_ze_dir}/fake_ze_opencl.c)
target_include_directories(fake_ze PRIVATE ${_fake_ze_dir})
target_include_directories(fake_ze SYSTEM PRIVATE ${MAGNUS_LEVEL0_INCLUDE_DIR})
target_link_libraries(fake_ze PRIVATE OpenCL::OpenCL)
# clSVMAlloc and clCreateCommandQueueWithProperties are OpenCL 2.0 (PoCL 3.1 has them).
set(_fake_ze_llvm_spirv llvm-spirv-14)
if(MAGNUS_LLVM_SPIRV)
  set(_fake_ze_llvm_spirv ${MAGNUS_LLVM_SPIRV})
endif()
target_compile_definitions(fake_ze PRIVATE _GNU_SOURCE CL_TARGET_OPENCL_VERSION=200
                           FAKE_ZE_DEFAULT_LLVM_SPIRV="${_fake_ze_llvm_spirv}")
# The loader resolves the getters by name; the rest stays hidden (CMAKE_C_VISIBILITY_PRESET).
target_link_options(fake_ze PRIVATE -Wl,--no-undefined)

# Every entry below runs on the fake: the variables that point the loader at it, and the cache
# of SPIR-V translations (fake_ze_translate.c), kept in the build tree.
set(_fake_ze_env "ZE_ENABLE_ALT_DRIVERS=$<TARGET_FILE:fake_ze>"
                 "FAKE_ZE_CACHE_DIR=${CMAKE_CURRENT_BINARY_DIR}/fake_ze_cache")

# ---- probe through the real loader ----------------------------------------------------------
# The loader reads ZE_ENABLE_ALT_DRIVERS once, at the process's first zeInit; Criterion runs
# every test in its own process, so each test sets its own FAKE_ZE_* variables.
magnus_add_test(test_level0_probe SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_level0_probe.c
  ENV ${_fake_ze_env} LABELS level0 TIMEOUT 120)
add_dependencies(test_level0_probe fake_ze)

# Contexts, queues, memory, events, module loading and kernel launches through the runtime.
magnus_add_test(test_level0_runtime SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_level0_runtime.c
  ENV ${_fake_ze_env} LABELS level0 TIMEOUT 120)
add_dependencies(test_level0_runtime fake_ze)

if(NOT MAGNUS_SPIRV_KERNELS)
  message(STATUS "magnus: Level Zero kernel tests skipped (no SPIR-V kernels in this build)")
  return()
endif()

# The fake driver itself, through the Level Zero API directly: regular command lists, queues,
# fences, kernel timestamps, argument capture, the checks and misuse reports.
magnus_add_test(test_fake_ze SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fake_ze.c
  ENV ${_fake_ze_env} LABELS level0 TIMEOUT 120)
add_dependencies(test_fake_ze fake_ze)

# ---- the kernels through backends/level0 on the fake ------------------------------------------
# A Data Center GPU Max (PVC) stack as Level Zero describes one: 128 KiB maxSharedLocalMemory,
# subgroups of 16 and 32, 64 Xe-cores, work groups of up to 1024. The primitives and the whole
# gMAGNUS and hash test sets run on it, every product checked against the CPU reference.
# FAKE_ZE_STRICT=1: a misuse the fake detects (memory freed under queued work, ...) aborts the
# test process, so the test fails even though a GPU would have carried on.
# The PoCL device under the fake must have at least the local memory the fake describes (the
# whole-budget tests launch with all of it): a synthetic machine of 2 MiB (docs/testing.md).
magnus_hwloc_machine(_fake_ze_pocl 2097152 2)
set(_fake_ze_pvc ${_fake_ze_env} MAGNUS_BACKENDS=level0 FAKE_ZE_STRICT=1 "${_fake_ze_pocl}"
    "FAKE_ZE_DEVICE_NAME=Fake PVC (Data Center GPU Max 1550 stack)" FAKE_ZE_LOCAL_MEM=131072
    FAKE_ZE_SUBGROUPS=16,32 FAKE_ZE_COMPUTE_UNITS=64 FAKE_ZE_GLOBAL_MEM=68719476736)
# Every device test set runs on this device too (entries *_level0_fake, tests/CMakeLists.txt).
set(MAGNUS_TEST_LEVEL0_FAKE_ENV ${_fake_ze_pvc})
# What the PVC-like device's properties make of gMAGNUS's parameters (the paper's Table VI PVC
# column at the per-group budgets its runs used) and multiplies that run 2 and 3 levels.
magnus_add_test(test_level0_pvc SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_level0_pvc.c
  ENV ${_fake_ze_pvc} LABELS gmagnus level0 TIMEOUT 300)
add_dependencies(test_level0_pvc fake_ze)

# Elsewhere: every device set also runs with MAGNUS_OPENCL_PROGRAM=spir (entries *_opencl_spir:
# PoCL builds the SPIR 1.2 bitcode translated back from this backend's SPIR-V, which checks
# that the SPIR-V build's repairs keep the kernels' meaning).

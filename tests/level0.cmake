# Level Zero backend tests. No Intel GPU is needed: the real Level Zero loader
# (libze_loader.so.1) is pointed at a fake driver, tests/fake_ze, through ZE_ENABLE_ALT_DRIVERS,
# and the fake reports whatever device its FAKE_ZE_* variables describe.
if(NOT MAGNUS_LEVEL0_INCLUDE_DIR)
  message(STATUS "magnus: Level Zero tests skipped (no level_zero/ze_api.h)")
  return()
endif()

# ---- the fake driver ----------------------------------------------------------------------
set(_fake_ze_dir ${PROJECT_SOURCE_DIR}/tests/fake_ze)
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
add_library(fake_ze SHARED ${_fake_ze_tables} ${_fake_ze_dir}/fake_ze_tables.c
                           ${_fake_ze_dir}/fake_ze_device.c ${_fake_ze_dir}/fake_ze_context.c
                           ${_fake_ze_dir}/fake_ze_memory.c ${_fake_ze_dir}/fake_ze_commands.c
                           ${_fake_ze_dir}/fake_ze_module.c)
target_include_directories(fake_ze PRIVATE ${_fake_ze_dir})
target_include_directories(fake_ze SYSTEM PRIVATE ${MAGNUS_LEVEL0_INCLUDE_DIR})
# The loader resolves the getters by name; the rest stays hidden (CMAKE_C_VISIBILITY_PRESET).
target_link_options(fake_ze PRIVATE -Wl,--no-undefined)

# ---- probe through the real loader ----------------------------------------------------------
# The loader reads ZE_ENABLE_ALT_DRIVERS once, at the process's first zeInit; Criterion runs
# every test in its own process, so each test sets its own FAKE_ZE_* variables.
magnus_add_test(test_level0_probe SOURCES test_level0_probe.c
  ENV "ZE_ENABLE_ALT_DRIVERS=$<TARGET_FILE:fake_ze>"
  LABELS level0 TIMEOUT 120)
add_dependencies(test_level0_probe fake_ze)

# Contexts, queues, memory, events and module loading through the runtime, on the fake.
magnus_add_test(test_level0_runtime SOURCES test_level0_runtime.c
  ENV "ZE_ENABLE_ALT_DRIVERS=$<TARGET_FILE:fake_ze>"
  LABELS level0 TIMEOUT 120)
add_dependencies(test_level0_runtime fake_ze)

# Elsewhere: tests/runtime.cmake runs the primitives with MAGNUS_OPENCL_PROGRAM=spir
# (primitives_opencl_spir: PoCL builds the SPIR 1.2 bitcode translated back from this
# backend's SPIR-V, which checks that the SPIR-V build's repairs keep the kernels' meaning)
# and checks that libmagnus links no vendor library (libmagnus_links_no_vendor_library).

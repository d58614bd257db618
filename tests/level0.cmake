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
                           ${_fake_ze_dir}/fake_ze_device.c)
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

# libmagnus must not need the loader to load: it is dlopened, never linked.
add_test(NAME level0_loader_not_linked
  COMMAND sh -c "readelf -d \"$0\" | grep NEEDED; ! readelf -d \"$0\" | grep -q 'libze_loader'"
          $<TARGET_FILE:magnus>)
set_tests_properties(level0_loader_not_linked PROPERTIES LABELS level0)

# Install test: installs this build, then builds and runs a consumer project against the
# installed copy with find_package(magnus) and with pkg-config, checks the versioned SONAME,
# and repeats with a fresh static build of the library (tests/install/test_install.sh).
find_program(MAGNUS_BASH bash REQUIRED)
find_program(MAGNUS_READELF readelf REQUIRED)
add_test(NAME install
  COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/test_install.sh
          ${CMAKE_CURRENT_BINARY_DIR}/install-work ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}
          ${CMAKE_COMMAND} ${CMAKE_C_COMPILER} ${CMAKE_INSTALL_LIBDIR}
          $<IF:$<BOOL:${MAGNUS_BUILD_SHARED}>,ON,OFF> $<IF:$<BOOL:${MAGNUS_SANITIZE}>,ON,OFF>
          $<IF:$<BOOL:${CMAKE_BUILD_TYPE}>,${CMAKE_BUILD_TYPE},Release>)
set_tests_properties(install PROPERTIES TIMEOUT 300 LABELS install)

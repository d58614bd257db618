# Tests of the `magnus` command-line tool (built only with MAGNUS_BUILD_TOOLS).
#   cli          end-to-end: exit codes, messages, JSON, generated files checked against an
#                independent Python reading (tests/cli/test_cli.sh, tests/cli/mtx_facts.py);
#                uses wiki-Vote from the shared matrices when present
#   cli_common   unit tests of the tool's helpers (option parsing, formatting, JSON escaping)
if(TARGET magnus_cli)
  find_program(MAGNUS_BASH bash REQUIRED)
  find_program(MAGNUS_PYTHON3 python3 REQUIRED)
  add_test(NAME cli
    COMMAND ${MAGNUS_BASH} ${PROJECT_SOURCE_DIR}/tests/cli/test_cli.sh $<TARGET_FILE:magnus_cli>
            ${MAGNUS_SHARED_MATRICES} ${CMAKE_CURRENT_BINARY_DIR}/cli-work)
  set_tests_properties(cli PROPERTIES TIMEOUT 300 LABELS cli)

  magnus_add_test(cli_common PUBLIC TIMEOUT 60 LABELS cli
    SOURCES cli/test_cli_common.c ${PROJECT_SOURCE_DIR}/tools/cli_common.c)
  target_compile_definitions(cli_common PRIVATE _POSIX_C_SOURCE=200809L)
endif()

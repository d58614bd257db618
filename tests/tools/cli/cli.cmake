# Tests of the `magnus` command-line tool (built only with MAGNUS_BUILD_TOOLS).
#   cli          end-to-end: exit codes, messages, JSON, generated files checked against an
#                independent Python reading (tests/tools/cli/test_cli.sh, tests/tools/cli/mtx_facts.py);
#                uses wiki-Vote from the shared matrices when present
#   cli_device   multiply and demo on an OpenCL device (PoCL in CI): both algorithms, small
#                local-memory budgets, randomized verification, bad device choices
#                (tests/tools/cli/test_cli_device.sh); skipped without an OpenCL device
#   cli_errors   what a user meets when something is wrong: exit codes, one message prefix,
#                flags named in messages, device specs by name and type (derived from
#                `magnus probe --json`), the CPU-device note, the demo's reference time, bench
#                --systems by spec (tests/tools/cli/test_cli_errors.sh)
#   cli_io       what the tool reads and writes: the value type from the file, pipes and "-",
#                info's facts, .gz output, BOM and CR-only files, progress off stdout
#                (tests/tools/cli/test_cli_io.sh, tests/tools/cli/c_rows_f64.py)
#   cli_first_use  first use of a device: one note when kernels are built, first-use work
#                out of the compute time (cold caches against warm, a time bound)
#                (tests/tools/cli/test_cli_first_use.sh)
#   cli_output   every output checked: bad paths refused before any work, failed writes (a
#                full disk) exit 1, standard output included (tests/tools/cli/test_cli_output.sh)
#   cli_spmv     `magnus spmv`: every format verified, JSON, x/y files against Python
#                (tests/tools/cli/test_cli_spmv.sh); skipped without a device
#   cli_common   unit tests of the tool's helpers (option parsing, formatting, JSON escaping)
#   cli_verify   unit tests of the tool's verification (exact and randomized) on perturbed
#                products
if(TARGET magnus_cli)
  find_program(MAGNUS_BASH bash REQUIRED)
  find_program(MAGNUS_PYTHON3 python3 REQUIRED)
  add_test(NAME cli
    COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/test_cli.sh $<TARGET_FILE:magnus_cli>
            ${MAGNUS_SHARED_MATRICES} ${CMAKE_CURRENT_BINARY_DIR}/cli-work)
  set_tests_properties(cli PROPERTIES TIMEOUT 300 LABELS cli)

  add_test(NAME cli_errors
    COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/test_cli_errors.sh $<TARGET_FILE:magnus_cli>
            ${CMAKE_CURRENT_BINARY_DIR}/cli-errors-work)
  set_tests_properties(cli_errors PROPERTIES TIMEOUT 300 LABELS cli)

  add_test(NAME cli_io
    COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/test_cli_io.sh $<TARGET_FILE:magnus_cli>
            ${MAGNUS_SHARED_MATRICES} ${CMAKE_CURRENT_BINARY_DIR}/cli-io-work)
  set_tests_properties(cli_io PROPERTIES TIMEOUT 300 LABELS cli)

  add_test(NAME cli_output
    COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/test_cli_output.sh $<TARGET_FILE:magnus_cli>
            ${CMAKE_CURRENT_BINARY_DIR}/cli-output-work)
  set_tests_properties(cli_output PROPERTIES TIMEOUT 300 LABELS cli)

  add_test(NAME cli_first_use
    COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/test_cli_first_use.sh
            $<TARGET_FILE:magnus_cli> ${CMAKE_CURRENT_BINARY_DIR}/cli-first-use-work)
  set_tests_properties(cli_first_use PROPERTIES TIMEOUT 600 LABELS cli SKIP_RETURN_CODE 77)

  add_test(NAME cli_device
    COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/test_cli_device.sh
            $<TARGET_FILE:magnus_cli> ${CMAKE_CURRENT_BINARY_DIR}/cli-device-work)
  set_tests_properties(cli_device PROPERTIES TIMEOUT 600 LABELS "cli;opencl" SKIP_RETURN_CODE 77)

  add_test(NAME cli_spmv
    COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/test_cli_spmv.sh
            $<TARGET_FILE:magnus_cli> ${CMAKE_CURRENT_BINARY_DIR}/cli-spmv-work)
  set_tests_properties(cli_spmv PROPERTIES TIMEOUT 600 LABELS "cli;spmv" SKIP_RETURN_CODE 77)

  # `magnus params --describe`: the shipped Data Center GPU Max file with no device, malformed
  # files; then (on the Level Zero test driver's PVC-like device) the same parameters as it.
  set(_cli_describe_file ${PROJECT_SOURCE_DIR}/docs/devices/intel-max-1550.txt)
  add_test(NAME cli_describe
    COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/test_cli_describe.sh
            $<TARGET_FILE:magnus_cli> ${CMAKE_CURRENT_BINARY_DIR}/cli-describe-work
            ${_cli_describe_file})
  set_tests_properties(cli_describe PROPERTIES TIMEOUT 120 LABELS cli)
  if(MAGNUS_TEST_LEVEL0_FAKE_ENV)
    add_test(NAME cli_describe_level0_fake
      COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/test_cli_describe.sh
              $<TARGET_FILE:magnus_cli> ${CMAKE_CURRENT_BINARY_DIR}/cli-describe-fake-work
              ${_cli_describe_file} compare)
    set_tests_properties(cli_describe_level0_fake PROPERTIES TIMEOUT 120 LABELS "cli;level0"
      SKIP_RETURN_CODE 77 ENVIRONMENT "${MAGNUS_TEST_LEVEL0_FAKE_ENV}")
  endif()

  # cli_common.c parses sizes with runtime/core/byte_size.c, compiled in as the tool does.
  set(_cli_byte_size ${PROJECT_SOURCE_DIR}/runtime/core/byte_size.c)
  magnus_add_test(cli_common PUBLIC TIMEOUT 60 LABELS cli
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_cli_common.c ${PROJECT_SOURCE_DIR}/tools/cli_common.c
            ${PROJECT_SOURCE_DIR}/tools/cli_json.c ${PROJECT_SOURCE_DIR}/tools/cli_output.c
            ${_cli_byte_size})
  target_compile_definitions(cli_common PRIVATE _POSIX_C_SOURCE=200809L)
  target_include_directories(cli_common PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/runtime/core)

  magnus_add_test(cli_verify PUBLIC TIMEOUT 120 LABELS cli
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_cli_verify.c ${PROJECT_SOURCE_DIR}/tools/cli_verify.c
            ${PROJECT_SOURCE_DIR}/tools/cli_verify_random.c ${PROJECT_SOURCE_DIR}/tools/cli_verify_rows.c
            ${PROJECT_SOURCE_DIR}/tools/cli_common.c
            ${PROJECT_SOURCE_DIR}/tools/cli_json.c ${PROJECT_SOURCE_DIR}/tools/cli_output.c
            ${_cli_byte_size})
  target_compile_definitions(cli_verify PRIVATE _POSIX_C_SOURCE=200809L)
  target_include_directories(cli_verify PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/runtime/core)
  target_link_libraries(cli_verify PRIVATE Threads::Threads)
endif()

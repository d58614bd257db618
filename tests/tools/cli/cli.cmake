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
  # One script test: bash SCRIPT TOOL [BEFORE_WORK...] WORK_DIR, its work folder named after
  # the test (cli_io -> cli-io-work); SKIP: exit status 77 means skipped (no device).
  function(magnus_cli_script_test name script timeout labels)
    cmake_parse_arguments(T "SKIP" "" "BEFORE_WORK" ${ARGN})
    string(REPLACE "_" "-" work ${name})
    add_test(NAME ${name}
      COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/${script} $<TARGET_FILE:magnus_cli>
              ${T_BEFORE_WORK} ${CMAKE_CURRENT_BINARY_DIR}/${work}-work)
    set_tests_properties(${name} PROPERTIES TIMEOUT ${timeout} LABELS "${labels}")
    if(T_SKIP)
      set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
    endif()
  endfunction()
  magnus_cli_script_test(cli test_cli.sh 300 cli BEFORE_WORK ${MAGNUS_SHARED_MATRICES})
  magnus_cli_script_test(cli_errors test_cli_errors.sh 300 cli)
  magnus_cli_script_test(cli_io test_cli_io.sh 300 cli BEFORE_WORK ${MAGNUS_SHARED_MATRICES})
  magnus_cli_script_test(cli_output test_cli_output.sh 300 cli)
  magnus_cli_script_test(cli_first_use test_cli_first_use.sh 600 cli SKIP)
  magnus_cli_script_test(cli_device test_cli_device.sh 600 "cli;opencl" SKIP)
  magnus_cli_script_test(cli_spmv test_cli_spmv.sh 600 "cli;spmv" SKIP)

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

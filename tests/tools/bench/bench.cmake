# Tests of `magnus bench` (tools/cmd_bench.c, tools/bench/), end to end on PoCL's CPU device:
#   bench_pocl                 magnus and hash on a tiny R-MAT sweep + add32, CPU reference,
#                              with --plan (plan columns numeric, plan verified)
#   bench_fake_cusparse        against a fake CUDA driver + cuSPARSE (one algorithm failing):
#                              the baseline flow, its failure record, baseline comparison,
#                              --plan verified by the randomized check; --op spmv: every
#                              cuSPARSE SpMV variant's row, the yardstick and speedups, the
#                              byte floor, y reset, and an old library without the optional
#                              entry points
#   bench_fake_cusparse_wrong  a wrong baseline C is reported, and not blamed on magnus
#   bench_pocl_unreported      magnus and hash with --unreported: the phase columns from the
#                              report's own run
#   bench_compare              bench/compare.py's per-phase ratio table on a two-system PoCL run
#   bench_fake_cusparse_wrong_run  a wrong C in a later timed run (the verified one right) is
#                              reported too: verified=no, no speedup over it, left out
# bench_fake_cusparse runs cusparse@ and cusparse-pool@ (every buffer from the fake's pool, its
# protocol checked) with every other copy one ulp off: every timed run's C checked.
# tests/tools/bench/check_bench_output.py checks the CSV/JSON against bench/README.md's columns.
# Skipped (77) without an OpenCL device.
if(TARGET magnus_cli)
  find_program(MAGNUS_BASH bash REQUIRED)
  find_program(MAGNUS_PYTHON3 python3 REQUIRED)
  set(_bench_work ${CMAKE_CURRENT_BINARY_DIR}/bench-work)
  set(_bench_script ${CMAKE_CURRENT_LIST_DIR}/test_bench.sh)
  add_test(NAME bench_pocl
    COMMAND ${MAGNUS_BASH} ${_bench_script} pocl $<TARGET_FILE:magnus_cli> ${PROJECT_SOURCE_DIR}
            ${_bench_work} ${MAGNUS_SHARED_MATRICES})
  set_tests_properties(bench_pocl PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77 LABELS bench)
  # --unreported: the timed runs without a report, the phase columns from one more run
  add_test(NAME bench_pocl_unreported
    COMMAND ${MAGNUS_BASH} ${_bench_script} pocl-unreported $<TARGET_FILE:magnus_cli>
            ${PROJECT_SOURCE_DIR} ${_bench_work} ${MAGNUS_SHARED_MATRICES})
  set_tests_properties(bench_pocl_unreported PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                       LABELS bench)
  # bench/compare.py's table and ratios against a two-system run on PoCL (test_compare.sh).
  add_test(NAME bench_compare
    COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/test_compare.sh $<TARGET_FILE:magnus_cli>
            ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/bench-compare-work)
  set_tests_properties(bench_compare PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77 LABELS bench
                       DEPENDS bench_pocl)

  if(MAGNUS_CUSPARSE_INCLUDE_DIR AND EXISTS "${MAGNUS_CUSPARSE_INCLUDE_DIR}/cuda.h")
    # magnus_fake_cusparse_old: the same without the entry points cuSPARSE added late
    # (cusparseGetStream, cusparseCreateSlicedEll, cusparseSpMV_preprocess), which the bench
    # resolves as optional.
    foreach(_lib magnus_fake_cusparse magnus_fake_cusparse_old)
      add_library(${_lib} SHARED ${CMAKE_CURRENT_LIST_DIR}/fake_cusparse.c
                                 ${CMAKE_CURRENT_LIST_DIR}/fake_cusparse_spmv.c)
      target_include_directories(${_lib} PRIVATE ${MAGNUS_CUSPARSE_INCLUDE_DIR})
      # clock_gettime (the events' clock): POSIX, hidden by -std=c11 without it
      target_compile_definitions(${_lib} PRIVATE DISABLE_CUSPARSE_DEPRECATED
                                 _POSIX_C_SOURCE=200809L)
      set_target_properties(${_lib} PROPERTIES C_VISIBILITY_PRESET hidden)
      target_link_libraries(${_lib} PRIVATE m) # nextafter (FAKE_CUSPARSE_JITTER)
    endforeach()
    target_compile_definitions(magnus_fake_cusparse_old PRIVATE FAKE_CUSPARSE_OLD)
    foreach(_mode fake fake-wrong fake-wrong-run)
      string(REPLACE "fake" "bench_fake_cusparse" _name ${_mode})
      string(REPLACE "-" "_" _name ${_name})
      add_test(NAME ${_name}
        COMMAND ${MAGNUS_BASH} ${_bench_script} ${_mode} $<TARGET_FILE:magnus_cli>
                ${PROJECT_SOURCE_DIR} ${_bench_work} ${MAGNUS_SHARED_MATRICES}
                $<TARGET_FILE:magnus_fake_cusparse> $<TARGET_FILE:magnus_fake_cusparse_old>)
      # After bench_pocl: the kernels it built are in the cache by then.
      set_tests_properties(${_name} PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77 LABELS bench
                           DEPENDS bench_pocl)
    endforeach()
  endif()
endif()

# magnus_device_copy_bandwidth, the speed-of-light ceiling, on each backend's device.
# (copy_bandwidth_<backend>: tests/device/device.cmake)

# cmake -DCANARY=<leak_canary executable> -P expect_leak_failure.cmake
# Passes only if the canary, asked to leak, fails and LeakSanitizer's report names the leak;
# and if the same executable passes when it does not leak (so the failure is the leak's).
execute_process(COMMAND ${CANARY} --jobs 1 RESULT_VARIABLE clean_rc
                OUTPUT_VARIABLE clean_out ERROR_VARIABLE clean_out)
if(NOT clean_rc EQUAL 0)
  message(FATAL_ERROR "leak canary failed without leaking (rc ${clean_rc}):\n${clean_out}")
endif()
set(ENV{MAGNUS_LEAK_CANARY} 1)
execute_process(COMMAND ${CANARY} --jobs 1 RESULT_VARIABLE leak_rc
                OUTPUT_VARIABLE leak_out ERROR_VARIABLE leak_out)
if(leak_rc EQUAL 0)
  message(FATAL_ERROR "a planted leak did not fail the test (rc 0): leak detection is off\n${leak_out}")
endif()
if(NOT leak_out MATCHES "LeakSanitizer: detected memory leaks" OR NOT leak_out MATCHES "4242 byte")
  message(FATAL_ERROR "the canary failed (rc ${leak_rc}) without LeakSanitizer's report of its leak:\n${leak_out}")
endif()
message(STATUS "planted leak failed the test as it must (rc ${leak_rc})")

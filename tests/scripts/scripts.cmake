# The GPU machine's scripts, run here on stand-ins: scripts/gpu_check.sh passes when it tested a
# GPU and fails, saying why, when it tested none (tests/scripts/test_gpu_check.sh).
add_test(NAME gpu_check_script COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_gpu_check.sh
         ${PROJECT_SOURCE_DIR})
set_tests_properties(gpu_check_script PROPERTIES LABELS "unit;scripts" TIMEOUT 120)

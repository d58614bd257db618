# The repository's own rules on the files git tracks (issue 35; tests/tree/check_tree.py): no
# source file over 600 lines, no tracked archive or binary report, no hard-coded 49152 in the
# library's code outside the dialect's defaults. tree_rules_planted proves each check fails on a
# planted violation. Skipped (77) outside a git checkout.
find_program(MAGNUS_PYTHON3 python3 REQUIRED)
add_test(NAME tree_rules COMMAND ${MAGNUS_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/check_tree.py
         ${PROJECT_SOURCE_DIR})
add_test(NAME tree_rules_planted COMMAND bash -c
         "for k in long archive literal; do '${MAGNUS_PYTHON3}' '${CMAKE_CURRENT_LIST_DIR}/check_tree.py' '${PROJECT_SOURCE_DIR}' --plant $k || exit $?; done")
set_tests_properties(tree_rules tree_rules_planted PROPERTIES LABELS "unit" TIMEOUT 60
                     SKIP_RETURN_CODE 77)

# The Python package (python/): its pytest suite against this build's libmagnus, on PoCL
# (MAGNUS_BACKENDS=opencl), from the source tree (tests/python/run_pytest.sh). Only for a
# shared, unsanitized library: Python cannot load an ASan build without preloading its runtime.
if(MAGNUS_BUILD_SHARED AND NOT MAGNUS_SANITIZE)
  find_program(MAGNUS_SYSTEM_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
  # magnus_report's layout from its field list (include/magnus/magnus_report_fields.h), as
  # this compiler lays it out: what python/tests/test_report_layout.py checks _lib.py against
  add_executable(magnus_report_layout ${CMAKE_CURRENT_LIST_DIR}/report_layout.c)
  target_include_directories(magnus_report_layout PRIVATE ${PROJECT_SOURCE_DIR}/include)
  set(MAGNUS_REPORT_LAYOUT ${PROJECT_BINARY_DIR}/report_layout.json)
  add_custom_command(OUTPUT ${MAGNUS_REPORT_LAYOUT}
    COMMAND magnus_report_layout > ${MAGNUS_REPORT_LAYOUT}
    DEPENDS magnus_report_layout
    COMMENT "magnus_report's layout (report_layout.json)")
  add_custom_target(magnus_report_layout_json ALL DEPENDS ${MAGNUS_REPORT_LAYOUT})
  if(MAGNUS_SYSTEM_PYTHON)
    add_test(NAME python_opencl
      COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/run_pytest.sh ${MAGNUS_SYSTEM_PYTHON}
              ${PROJECT_SOURCE_DIR} $<TARGET_FILE:magnus>)
    set_tests_properties(python_opencl PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                         LABELS "python;opencl"
                         ENVIRONMENT "MAGNUS_BACKENDS=opencl;MAGNUS_TEST_ENTRY_BACKEND=opencl;\
MAGNUS_REPORT_LAYOUT=${MAGNUS_REPORT_LAYOUT}")
    # the layout check alone: fast, no device
    add_test(NAME python_report_layout
      COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/run_pytest.sh ${MAGNUS_SYSTEM_PYTHON}
              ${PROJECT_SOURCE_DIR} $<TARGET_FILE:magnus>
              ${PROJECT_SOURCE_DIR}/python/tests/test_report_layout.py)
    set_tests_properties(python_report_layout PROPERTIES TIMEOUT 60 SKIP_RETURN_CODE 77
                         LABELS "python" ENVIRONMENT "MAGNUS_REPORT_LAYOUT=${MAGNUS_REPORT_LAYOUT}")
  endif()
endif()

# README.md's install command in a fresh venv, offline (scripts/python_check.sh --install-only):
# the package installs with nothing fetched and nothing written into python/ (no build/, no
# egg-info), and the installed copy loads its bundled library. .ci/run adds the pytest suite.
if(MAGNUS_BUILD_SHARED AND NOT MAGNUS_SANITIZE AND MAGNUS_SYSTEM_PYTHON)
  add_test(NAME python_install
    COMMAND ${MAGNUS_BASH} ${PROJECT_SOURCE_DIR}/scripts/python_check.sh --install-only
            ${PROJECT_BINARY_DIR} ${PROJECT_BINARY_DIR}/python-install-venv)
  set_tests_properties(python_install PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77
                       LABELS "python" ENVIRONMENT "MAGNUS_SYSTEM_PYTHON=${MAGNUS_SYSTEM_PYTHON}")
endif()

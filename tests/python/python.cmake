# The Python package (python/): its pytest suite against this build's libmagnus, on PoCL
# (MAGNUS_BACKENDS=opencl), from the source tree (tests/python/run_pytest.sh). Only for a
# shared, unsanitized library: Python cannot load an ASan build without preloading its runtime.
if(MAGNUS_BUILD_SHARED AND NOT MAGNUS_SANITIZE)
  find_program(MAGNUS_SYSTEM_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
  if(MAGNUS_SYSTEM_PYTHON)
    add_test(NAME python_opencl
      COMMAND ${MAGNUS_BASH} ${CMAKE_CURRENT_LIST_DIR}/run_pytest.sh ${MAGNUS_SYSTEM_PYTHON}
              ${PROJECT_SOURCE_DIR} $<TARGET_FILE:magnus>)
    set_tests_properties(python_opencl PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                         LABELS "python;opencl"
                         ENVIRONMENT "MAGNUS_BACKENDS=opencl;MAGNUS_TEST_ENTRY_BACKEND=opencl")
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

# gMAGNUS: parameters (pure host arithmetic, checked against the paper's tables) and the
# device algorithm end to end (every product compared with the CPU reference), once per
# backend; a backend without a device skips (exit 77). The shared real matrices squared are
# their own entry (MAGNUS_TEST_SHARED=1; MAGNUS_TEST_LARGE=1 adds the big ones).
set(_gm_dir ${CMAKE_CURRENT_LIST_DIR})
magnus_add_test(test_gmagnus_params SOURCES ${_gm_dir}/test_gmagnus_params.c
                LABELS gmagnus unit TIMEOUT 60)
foreach(_backend opencl cuda)
  magnus_add_test(spgemm_gmagnus_${_backend} SOURCES ${_gm_dir}/test_spgemm_gmagnus.c
                  ENV MAGNUS_BACKENDS=${_backend} LABELS gmagnus ${_backend} TIMEOUT 900)
  # The dense accumulator for light chunks too (MAGNUS_DENSE_MIN_ELEMENTS): its own checks,
  # then the whole suite above with every non-empty last-level chunk accumulated densely.
  magnus_add_test(gmagnus_dense_chunks_${_backend} SOURCES ${_gm_dir}/test_gmagnus_dense_chunks.c
                  ENV MAGNUS_BACKENDS=${_backend} LABELS gmagnus ${_backend} TIMEOUT 300)
  add_test(NAME spgemm_gmagnus_all_dense_${_backend} COMMAND spgemm_gmagnus_${_backend}
           --filter "gmagnus*/*")
  set_tests_properties(spgemm_gmagnus_all_dense_${_backend} PROPERTIES
                       TIMEOUT 900 SKIP_RETURN_CODE 77 LABELS "gmagnus;${_backend}"
                       ENVIRONMENT "MAGNUS_BACKENDS=${_backend};MAGNUS_DENSE_MIN_ELEMENTS=1")
  add_test(NAME spgemm_gmagnus_shared_${_backend}
           COMMAND spgemm_gmagnus_${_backend} --jobs 1 --filter gmagnus_shared/*)
  set_tests_properties(spgemm_gmagnus_shared_${_backend} PROPERTIES
                       TIMEOUT 1800 SKIP_RETURN_CODE 77 LABELS "gmagnus;${_backend};shared"
                       ENVIRONMENT "MAGNUS_BACKENDS=${_backend};MAGNUS_TEST_SHARED=1")
endforeach()
# `magnus params`: JSON and text against the worked check and a Python count of heavy rows.
if(TARGET magnus_cli)
  add_test(NAME gmagnus_cli_params
           COMMAND bash ${_gm_dir}/gmagnus_cli_params.sh $<TARGET_FILE:magnus_cli>
                   ${CMAKE_CURRENT_BINARY_DIR}/gmagnus-cli-work)
  set_tests_properties(gmagnus_cli_params PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                       LABELS "gmagnus;cli" ENVIRONMENT "MAGNUS_BACKENDS=opencl")
endif()

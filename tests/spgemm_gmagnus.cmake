# gMAGNUS: parameters (pure host arithmetic, checked against the paper's tables) and the
# device algorithm end to end (every product compared with the CPU reference).
magnus_add_test(test_gmagnus_params SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_gmagnus_params.c
                LABELS gmagnus unit TIMEOUT 60)
magnus_add_test(spgemm_gmagnus_opencl SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_spgemm_gmagnus.c
                ENV MAGNUS_BACKENDS=opencl LABELS gmagnus opencl TIMEOUT 600)
magnus_add_test(spgemm_gmagnus_cuda SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_spgemm_gmagnus.c
                ENV MAGNUS_BACKENDS=cuda LABELS gmagnus cuda TIMEOUT 600)

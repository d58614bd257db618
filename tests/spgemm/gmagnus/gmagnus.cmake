# gMAGNUS: parameters (pure host arithmetic, checked against the paper's tables) and the
# device algorithm end to end (every product compared with the CPU reference) on every device
# backend, plus variants: every non-empty last-level chunk dense, a 1 KiB budget on the Level
# Zero test driver, and the shared real matrices (test_gmagnus_shared.c, MAGNUS_TEST_SHARED=1:
# every matrix, the large ones through a sample of rows; MAGNUS_TEST_LARGE=1 multiplies them
# whole).
set(_dir ${CMAKE_CURRENT_LIST_DIR})
magnus_add_test(test_gmagnus_params SOURCES ${_dir}/test_gmagnus_params.c
                LABELS gmagnus unit TIMEOUT 60)
magnus_add_device_test(spgemm_gmagnus SOURCES ${_dir}/test_spgemm_gmagnus.c
                       ${_dir}/test_gmagnus_errors.c ${_dir}/test_gmagnus_shared.c
                       LABELS gmagnus TIMEOUT 900)
# The dense accumulator for light chunks too (MAGNUS_DENSE_MIN_ELEMENTS): its own checks,
# then the whole suite above with every non-empty last-level chunk accumulated densely.
magnus_add_device_test(gmagnus_dense_chunks SOURCES ${_dir}/test_gmagnus_dense_chunks.c
                       LABELS gmagnus TIMEOUT 300)
magnus_add_device_variant(spgemm_gmagnus all_dense ARGS --filter "gmagnus*/*"
                          ENV MAGNUS_DENSE_MIN_ELEMENTS=1 LABELS gmagnus TIMEOUT 900
                          BACKENDS opencl level0_fake cuda)
# The multisplit in place (one C-hat buffer with a gap in front) wherever it can run: the
# whole suite with a gap of 1/4 of C-hat and no minimum size.
magnus_add_device_variant(spgemm_gmagnus in_place ARGS --filter "gmagnus*/*"
                          ENV MAGNUS_CHAT_GAP=4 MAGNUS_CHAT_GAP_MIN_BYTES=0 LABELS gmagnus
                          TIMEOUT 900 BACKENDS opencl level0_fake cuda)
# The light chunks' local bins merged into the largest launch wherever they can be
# (MAGNUS_HASH_MERGE_GROUPS past any launch).
magnus_add_device_variant(spgemm_gmagnus merged ARGS --filter "gmagnus*/*"
                          ENV MAGNUS_HASH_MERGE_GROUPS=2147483647 LABELS gmagnus TIMEOUT 900
                          BACKENDS opencl level0_fake cuda)
# A 1 KiB budget per work group (MAGNUS_LOCAL_MEM_BYTES) on the PVC-like test device: every
# multiply that uses the default budget sends rows down the heavy path and through the
# multisplit (the R-MAT pairs: 8 chunks per heavy row in float32, 16 in float64); the level
# tests search budgets up to the device's 128 KiB that run exactly 1, 2 and 3 levels.
magnus_add_device_variant(spgemm_gmagnus small ENV MAGNUS_LOCAL_MEM_BYTES=1024
                          LABELS gmagnus TIMEOUT 600 BACKENDS level0_fake)
# The shared real matrices, every one (test_gmagnus_shared.c: about 10 s on PoCL with 2 cores,
# 25 s on the Level Zero test driver): on PoCL, the Level Zero test driver and CUDA.
magnus_add_device_variant(spgemm_gmagnus shared ARGS --filter "gmagnus_shared/*"
                          ENV MAGNUS_TEST_SHARED=1 LABELS gmagnus shared TIMEOUT 1800
                          BACKENDS opencl level0_fake cuda)
# `magnus params`: JSON and text against the worked check and a Python count of heavy rows.
if(TARGET magnus_cli)
  add_test(NAME gmagnus_cli_params
           COMMAND bash ${_dir}/gmagnus_cli_params.sh $<TARGET_FILE:magnus_cli>
                   ${CMAKE_CURRENT_BINARY_DIR}/gmagnus-cli-work)
  set_tests_properties(gmagnus_cli_params PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                       LABELS "gmagnus;cli" ENVIRONMENT "MAGNUS_BACKENDS=opencl")
endif()

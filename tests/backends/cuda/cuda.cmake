# CUDA backend tests that need no GPU: the loader against fake drivers, the symbol hygiene of
# libmagnus, and the hand-written fill kernel through ptxas. (On a GPU machine the backend is
# exercised by the common device tests with MAGNUS_BACKENDS=cuda; see scripts/gpu_check.sh.)
get_property(_magnus_cuda_headers GLOBAL PROPERTY MAGNUS_CUDA_HEADERS)
if(NOT _magnus_cuda_headers)
  return() # the backend is a stub in this build
endif()

# Fake drivers: one source, three builds (see tests/backends/cuda/fake_cuda/fake_cuda.c).
set(_fake_dir ${PROJECT_BINARY_DIR}/tests/fake_cuda)
foreach(_fake fake_cuda fake_cuda_v1 fake_cuda_nogetproc)
  add_library(magnus_${_fake} SHARED ${CMAKE_CURRENT_LIST_DIR}/fake_cuda/fake_cuda.c)
  set_target_properties(magnus_${_fake} PROPERTIES OUTPUT_NAME ${_fake}
                        LIBRARY_OUTPUT_DIRECTORY ${_fake_dir})
endforeach()
target_compile_definitions(magnus_fake_cuda_v1 PRIVATE FAKE_CUDA_V1_ONLY)
target_compile_definitions(magnus_fake_cuda_nogetproc PRIVATE FAKE_CUDA_NO_GETPROC)

magnus_add_test(test_cuda_loader SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_cuda_loader.c PUBLIC LABELS cuda TIMEOUT 60)
target_compile_definitions(test_cuda_loader PRIVATE
  FAKE_CUDA_LIB="$<TARGET_FILE:magnus_fake_cuda>"
  FAKE_CUDA_V1_LIB="$<TARGET_FILE:magnus_fake_cuda_v1>"
  FAKE_CUDA_NOGETPROC_LIB="$<TARGET_FILE:magnus_fake_cuda_nogetproc>")
target_link_libraries(test_cuda_loader PRIVATE ${CMAKE_DL_LIBS})
add_dependencies(test_cuda_loader magnus_fake_cuda magnus_fake_cuda_v1 magnus_fake_cuda_nogetproc)

# libmagnus neither links libcuda nor exports or imports any cu* symbol.
if(MAGNUS_BUILD_SHARED AND CMAKE_NM AND CMAKE_READELF)
  add_test(NAME cuda_no_driver_symbols
    COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:magnus> -DNM=${CMAKE_NM}
            -DREADELF=${CMAKE_READELF} -P ${CMAKE_CURRENT_LIST_DIR}/fake_cuda/check_no_cuda_symbols.cmake)
  set_tests_properties(cuda_no_driver_symbols PROPERTIES LABELS cuda TIMEOUT 60)
endif()

# ptxas (beside nvcc) checks PTX that nvcc did not produce or that is used unlike nvcc made it.
if(MAGNUS_NVCC)
  get_filename_component(_nvcc_dir ${MAGNUS_NVCC} DIRECTORY)
  find_program(MAGNUS_PTXAS ptxas HINTS ${_nvcc_dir} DOC "ptxas, to check hand-written PTX")
endif()

# The 8-byte fill kernel is hand-written PTX: ptxas must accept it for the H200's sm_90.
if(MAGNUS_PTXAS)
  add_test(NAME cuda_fill_ptx_assembles
    COMMAND ${MAGNUS_PTXAS} -arch=sm_90 ${PROJECT_SOURCE_DIR}/backends/cuda/fill_u64.ptx
            -o ${_fake_dir}/fill_u64.sm_90.cubin)
  set_tests_properties(cuda_fill_ptx_assembles PROPERTIES LABELS cuda TIMEOUT 60)
endif()

# The embedded kernels' PTX, lowered to ISA 8.0 for 12.x drivers, must stay valid.
get_property(_magnus_cuda_kernels GLOBAL PROPERTY MAGNUS_CUDA_KERNELS_EMBEDDED)
if(_magnus_cuda_kernels)
  magnus_add_test(test_cuda_ptx SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_cuda_ptx.c LABELS cuda TIMEOUT 120)
  if(MAGNUS_PTXAS)
    target_compile_definitions(test_cuda_ptx PRIVATE MAGNUS_TEST_PTXAS="${MAGNUS_PTXAS}")
  endif()
endif()

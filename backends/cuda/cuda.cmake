# CUDA backend build rules (included from runtime/CMakeLists.txt after kernels/kernels.cmake).
#
#   MAGNUS_CUDA_INCLUDE_DIR   where cuda.h is: the backend uses the driver API's types and
#                             constants only and links nothing (libcuda is dlopened at run
#                             time). Without it the backend compiles to a stub that reports
#                             itself unavailable.
#   MAGNUS_NVCC               nvcc, to build the kernels; MAGNUS_CUDA_KERNELS (default ON when
#                             nvcc is found) embeds them. Without kernels the backend still
#                             probes devices, and module_load explains what is missing.
#   MAGNUS_CUDA_ARCHITECTURES SM versions with SASS in the fatbin (each also carries its PTX).
#   MAGNUS_CUDA_PTX_ARCH      the virtual architecture of the stand-alone PTX fallback.
#   MAGNUS_CUDA_HOST_COMPILER host C++ compiler for nvcc (empty: nvcc's default).

find_path(MAGNUS_CUDA_INCLUDE_DIR cuda.h
  HINTS $ENV{CUDA_PATH}/include $ENV{CUDA_HOME}/include /usr/local/cuda/include
  DOC "Directory containing the CUDA driver API header cuda.h (headers only, nothing is linked)")
find_program(MAGNUS_NVCC nvcc
  HINTS $ENV{CUDA_PATH}/bin $ENV{CUDA_HOME}/bin /usr/local/cuda/bin
  DOC "nvcc, used to build the embedded CUDA kernels")
set(_magnus_cuda_headers OFF)
if(MAGNUS_CUDA_INCLUDE_DIR AND EXISTS "${MAGNUS_CUDA_INCLUDE_DIR}/cuda.h")
  set(_magnus_cuda_headers ON)
endif()
# tests/backends/cuda/cuda.cmake (another directory scope) reads this to know whether the backend is real.
set_property(GLOBAL PROPERTY MAGNUS_CUDA_HEADERS ${_magnus_cuda_headers})
set_property(GLOBAL PROPERTY MAGNUS_CUDA_KERNELS_EMBEDDED OFF)
if(MAGNUS_NVCC AND _magnus_cuda_headers)
  set(_magnus_cuda_kernels_default ON)
else()
  set(_magnus_cuda_kernels_default OFF)
endif()
option(MAGNUS_CUDA_KERNELS "Build the CUDA kernels with nvcc and embed them" ${_magnus_cuda_kernels_default})
set(MAGNUS_CUDA_ARCHITECTURES "90" CACHE STRING "SM versions compiled to SASS in the CUDA fatbin (;-list)")
set(MAGNUS_CUDA_PTX_ARCH "90" CACHE STRING "Virtual architecture (compute_XX) of the embedded CUDA PTX")
set(MAGNUS_CUDA_HOST_COMPILER "" CACHE STRING "Host compiler for nvcc (-ccbin); empty for nvcc's default")

file(GLOB _magnus_cuda_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.c)
if(NOT _magnus_cuda_headers)
  message(STATUS "magnus: cuda.h not found; the CUDA backend is a stub (set MAGNUS_CUDA_INCLUDE_DIR)")
  return()
endif()

# cuda.h is visible to the CUDA backend's sources only, so none of the toolkit's other headers
# can shadow a system header elsewhere in the library.
set_property(SOURCE ${_magnus_cuda_sources} TARGET_DIRECTORY magnus_backend_cuda APPEND PROPERTY
             INCLUDE_DIRECTORIES ${MAGNUS_CUDA_INCLUDE_DIR})
set_property(SOURCE ${_magnus_cuda_sources} TARGET_DIRECTORY magnus_backend_cuda APPEND PROPERTY
             COMPILE_DEFINITIONS MAGNUS_HAVE_CUDA_H)

# The 8-byte fill kernel, hand-written PTX (needs no nvcc; see the file's header).
magnus_embed(magnus_cuda_fill_ptx ${CMAKE_CURRENT_LIST_DIR}/fill_u64.ptx TEXT)

if(NOT MAGNUS_CUDA_KERNELS)
  message(STATUS "magnus: CUDA kernels not built (nvcc not found or MAGNUS_CUDA_KERNELS=OFF)")
  return()
endif()
if(NOT MAGNUS_NVCC)
  message(FATAL_ERROR "MAGNUS_CUDA_KERNELS=ON needs nvcc: set MAGNUS_NVCC")
endif()

# The kernels, built once per value type from the one kernel source (MAGNUS_KERNELS_ALL, which
# #includes every kernels/*.cl), compiled as CUDA C++ through the dialect header.
# Exact recipe (f32 shown; f64 adds -DMG_VALUE_F64), with the defaults:
#   nvcc -x cu -I<src>/kernels [-ccbin <host compiler>] -Werror all-warnings \
#        -fatbin -gencode arch=compute_90,code=[sm_90,compute_90] \
#        -o magnus_cuda_f32.fatbin <build>/generated/magnus_kernels_all.cl
#   nvcc -x cu -I<src>/kernels [-ccbin <host compiler>] -Werror all-warnings \
#        -ptx -arch=compute_90 -o magnus_cuda_f32.ptx <build>/generated/magnus_kernels_all.cl
# The fatbin holds SASS for each MAGNUS_CUDA_ARCHITECTURES entry plus its PTX (for newer
# GPUs, JIT-compiled by the driver); the stand-alone PTX is the fallback the backend
# JIT-compiles with an error log when the driver refuses the fatbin.
set(_magnus_nvcc_common -x cu -I${PROJECT_SOURCE_DIR}/kernels -Werror all-warnings)
if(MAGNUS_CUDA_HOST_COMPILER)
  list(APPEND _magnus_nvcc_common -ccbin ${MAGNUS_CUDA_HOST_COMPILER})
endif()
set(_magnus_gencode)
foreach(_arch ${MAGNUS_CUDA_ARCHITECTURES})
  list(APPEND _magnus_gencode -gencode "arch=compute_${_arch},code=[sm_${_arch},compute_${_arch}]")
endforeach()
set(_magnus_cuda_deps ${MAGNUS_KERNELS_ALL} ${MAGNUS_KERNEL_SOURCES} ${MAGNUS_KERNEL_DIALECT})

foreach(_variant f32 f64)
  set(_defs)
  if(_variant STREQUAL "f64")
    set(_defs -DMG_VALUE_F64)
  endif()
  set(_fatbin ${MAGNUS_GENERATED_DIR}/magnus_cuda_${_variant}.fatbin)
  set(_ptx ${MAGNUS_GENERATED_DIR}/magnus_cuda_${_variant}.ptx)
  add_custom_command(OUTPUT ${_fatbin}
    COMMAND ${MAGNUS_NVCC} ${_magnus_nvcc_common} ${_defs} -fatbin ${_magnus_gencode}
            -o ${_fatbin} ${MAGNUS_KERNELS_ALL}
    DEPENDS ${_magnus_cuda_deps}
    COMMENT "nvcc: CUDA kernels (${_variant}) -> fatbin for sm ${MAGNUS_CUDA_ARCHITECTURES}"
    VERBATIM)
  add_custom_command(OUTPUT ${_ptx}
    COMMAND ${MAGNUS_NVCC} ${_magnus_nvcc_common} ${_defs} -ptx -arch=compute_${MAGNUS_CUDA_PTX_ARCH}
            -o ${_ptx} ${MAGNUS_KERNELS_ALL}
    DEPENDS ${_magnus_cuda_deps}
    COMMENT "nvcc: CUDA kernels (${_variant}) -> PTX for compute_${MAGNUS_CUDA_PTX_ARCH}"
    VERBATIM)
  magnus_embed(magnus_cuda_fatbin_${_variant} ${_fatbin})
  magnus_embed(magnus_cuda_ptx_${_variant} ${_ptx} TEXT)
endforeach()
target_compile_definitions(magnus_backend_cuda PRIVATE MAGNUS_HAVE_CUDA_KERNELS)
set_property(GLOBAL PROPERTY MAGNUS_CUDA_KERNELS_EMBEDDED ON)

# Level Zero backend build rules: the Level Zero headers (the loader itself is dlopened at run
# time and never linked) and the kernels compiled to SPIR-V at build time.
#
# Outputs, per value variant V in {f32, f64} (f64 adds -DMG_VALUE_F64):
#   magnus_spirv_V    SPIR-V 1.2 module for zeModuleCreate (ZE_MODULE_FORMAT_IL_SPIRV)
#   magnus_spir12_V   SPIR 1.2 LLVM bitcode for OpenCL drivers without SPIR-V ingestion (PoCL 3.1),
#                     loaded by the OpenCL backend with clCreateProgramWithBinary and the build
#                     options "-x spir -spir-std=1.2" (checked with PoCL 3.1: both variants
#                     build and run, 64-bit and float CAS atomics included)
# and the compile definitions MAGNUS_HAVE_SPIRV (this backend) / MAGNUS_HAVE_SPIR12 (the OpenCL
# backend, whose `spir` mode loads the bitcode).

# ---- headers ---------------------------------------------------------------------------------
find_path(MAGNUS_LEVEL0_INCLUDE_DIR level_zero/ze_api.h
          DOC "Directory holding level_zero/ze_api.h (package libze-dev)")
if(MAGNUS_LEVEL0_INCLUDE_DIR)
  target_include_directories(magnus_backend_level0 SYSTEM PRIVATE ${MAGNUS_LEVEL0_INCLUDE_DIR})
  target_compile_definitions(magnus_backend_level0 PRIVATE MAGNUS_HAVE_LEVEL0_HEADERS)
else()
  message(STATUS "magnus: level_zero/ze_api.h not found; the Level Zero backend reports itself "
                 "unavailable (install libze-dev)")
endif()

# ---- SPIR-V kernels --------------------------------------------------------------------------
find_program(MAGNUS_SPIR_CLANG NAMES clang-14 DOC "clang able to target spir64 (OpenCL C 1.2)")
find_program(MAGNUS_LLVM_AS NAMES llvm-as-14 DOC "LLVM assembler matching the clang")
find_program(MAGNUS_LLVM_SPIRV NAMES llvm-spirv-14 DOC "LLVM <-> SPIR-V translator matching the clang")
find_program(MAGNUS_SPIRV_VAL NAMES spirv-val DOC "SPIR-V validator (spirv-tools)")
set(_magnus_spirv_tools MAGNUS_SPIR_CLANG MAGNUS_LLVM_AS MAGNUS_LLVM_SPIRV MAGNUS_SPIRV_VAL)
set(_magnus_spirv_default ON)
foreach(tool ${_magnus_spirv_tools})
  if(NOT ${tool})
    set(_magnus_spirv_default OFF)
  endif()
endforeach()
option(MAGNUS_SPIRV_KERNELS "Build the kernels to SPIR-V (Level Zero) and SPIR 1.2 (PoCL)"
       ${_magnus_spirv_default})

if(MAGNUS_SPIRV_KERNELS AND NOT _magnus_spirv_default)
  message(FATAL_ERROR "MAGNUS_SPIRV_KERNELS=ON needs clang-14, llvm-as-14, llvm-spirv-14 and "
                      "spirv-val (found: '${MAGNUS_SPIR_CLANG}', '${MAGNUS_LLVM_AS}', "
                      "'${MAGNUS_LLVM_SPIRV}', '${MAGNUS_SPIRV_VAL}')")
elseif(MAGNUS_SPIRV_KERNELS AND NOT MAGNUS_KERNEL_SOURCES)
  message(STATUS "magnus: no kernels/*.cl yet; SPIR-V kernels skipped")
elseif(MAGNUS_SPIRV_KERNELS)
  # The recipe, per variant V (exactly what the commands below run; k = level0_kernels_V):
  #   clang-14 -x cl -cl-std=CL1.2 -target spir64 -O2 -emit-llvm -S -I kernels [-DMG_VALUE_F64] \
  #            magnus_kernels_all.cl -o k.ll
  #   cmake -DINPUT=k.ll -DOUTPUT=k.prepared.ll -P spirv/spirv_prepare_ir.cmake
  #   llvm-as-14 k.prepared.ll -o k.bc
  #   llvm-spirv-14 --spirv-max-version=1.2 k.bc -o k.unordered.spv
  #   spirv_order_blocks k.unordered.spv k.unvalidated.spv
  #   spirv-val k.unvalidated.spv          # a module that does not validate fails the build
  #   mv k.unvalidated.spv k.spv
  #   llvm-spirv-14 -r --spirv-target-env=CL1.2 k.spv -o k.spir12.bc
  # Two repairs stand between clang-14 -O2 and a module spirv-val accepts, both for known
  # llvm-spirv-14 limitations: spirv_prepare_ir.cmake removes `freeze` instructions (which the
  # translator cannot translate) and loop metadata (which it turns into invalid OpLoopMerge),
  # and spirv_order_blocks lays each function's blocks out in dominance order (the translator
  # keeps LLVM's order, which loop rotation breaks). Each step's file says why in detail.
  # spirv-val runs with its default (universal) target environment: `--target-env opencl1.2`
  # rejects the Int64Atomics capability that cl_khr_int64_base_atomics legitimately adds.
  # The SPIR 1.2 bitcode is translated back from the validated SPIR-V, so PoCL runs the very
  # module that Level Zero receives (triple spir64-unknown-unknown, SPIR 1.2 metadata).
  # The module is renamed into place only after spirv-val passes, so a failure leaves no
  # stale output behind and the next build retries.
  add_executable(magnus_spirv_order_blocks ${CMAKE_CURRENT_LIST_DIR}/spirv/spirv_order_blocks.c)
  set(_prepare ${CMAKE_CURRENT_LIST_DIR}/spirv/spirv_prepare_ir.cmake)
  set(_kernel_deps ${MAGNUS_KERNELS_ALL} ${MAGNUS_KERNEL_SOURCES} ${MAGNUS_KERNEL_DIALECT})
  foreach(variant f32 f64)
    set(defs "")
    if(variant STREQUAL "f64")
      set(defs -DMG_VALUE_F64)
    endif()
    set(k ${MAGNUS_GENERATED_DIR}/level0_kernels_${variant})
    add_custom_command(OUTPUT ${k}.spv
      COMMAND ${MAGNUS_SPIR_CLANG} -x cl -cl-std=CL1.2 -target spir64 -O2 -emit-llvm -S
              -I${PROJECT_SOURCE_DIR}/kernels ${defs} ${MAGNUS_KERNELS_ALL} -o ${k}.ll
      COMMAND ${CMAKE_COMMAND} -DINPUT=${k}.ll -DOUTPUT=${k}.prepared.ll -P ${_prepare}
      COMMAND ${MAGNUS_LLVM_AS} ${k}.prepared.ll -o ${k}.bc
      COMMAND ${MAGNUS_LLVM_SPIRV} --spirv-max-version=1.2 ${k}.bc -o ${k}.unordered.spv
      COMMAND magnus_spirv_order_blocks ${k}.unordered.spv ${k}.unvalidated.spv
      COMMAND ${MAGNUS_SPIRV_VAL} ${k}.unvalidated.spv
      COMMAND ${CMAKE_COMMAND} -E rename ${k}.unvalidated.spv ${k}.spv
      DEPENDS ${_kernel_deps} ${_prepare} magnus_spirv_order_blocks
      COMMENT "SPIR-V kernels (${variant}): clang -O2 -target spir64, llvm-spirv, spirv-val"
      VERBATIM)
    add_custom_command(OUTPUT ${k}.spir12.bc
      COMMAND ${MAGNUS_LLVM_SPIRV} -r --spirv-target-env=CL1.2 ${k}.spv -o ${k}.spir12.bc
      DEPENDS ${k}.spv
      COMMENT "SPIR 1.2 bitcode (${variant}) from the SPIR-V, for PoCL"
      VERBATIM)
    magnus_embed(magnus_spirv_${variant} ${k}.spv)
    magnus_embed(magnus_spir12_${variant} ${k}.spir12.bc)
  endforeach()
  target_compile_definitions(magnus_backend_level0 PRIVATE MAGNUS_HAVE_SPIRV)
  target_compile_definitions(magnus_backend_opencl PRIVATE MAGNUS_HAVE_SPIR12)
endif()

# OpenCL backend kernels: the dialect header and MAGNUS_KERNEL_SOURCES (the headers shared with
# the host, kernels/lib/*.cl, kernels/*.cl: kernels/kernels.cmake) concatenated into one
# self-contained OpenCL C text (cmake/MagnusConcat.cmake strips the #include lines), embedded
# as `magnus_opencl_source` (NUL-terminated) and built at run time by module_load with
# -cl-std=CL1.2 (plus -DMG_VALUE_F64 for the float64 variant).
set(MAGNUS_OPENCL_SOURCE ${MAGNUS_GENERATED_DIR}/magnus_opencl_source.cl)
set(_magnus_opencl_inputs ${MAGNUS_KERNEL_DIALECT} ${MAGNUS_KERNEL_SOURCES})
string(REPLACE ";" "$<SEMICOLON>" _magnus_opencl_inputs_arg "${_magnus_opencl_inputs}")
add_custom_command(OUTPUT ${MAGNUS_OPENCL_SOURCE}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${MAGNUS_OPENCL_SOURCE} -DINPUTS=${_magnus_opencl_inputs_arg}
          -P ${PROJECT_SOURCE_DIR}/cmake/MagnusConcat.cmake
  DEPENDS ${_magnus_opencl_inputs} ${PROJECT_SOURCE_DIR}/cmake/MagnusConcat.cmake
  COMMENT "Concatenating the OpenCL C kernel source" VERBATIM)
magnus_embed(magnus_opencl_source ${MAGNUS_OPENCL_SOURCE} TEXT)

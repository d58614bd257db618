# cmake -DLIBRARY=libmagnus.so -DNM=nm -DREADELF=readelf -P check_no_cuda_symbols.cmake
# Fails if the shared library needs libcuda, or exports or imports any cu* (driver API) symbol:
# the CUDA backend must reach the driver only through dlopen + cuGetProcAddress.
execute_process(COMMAND ${READELF} -d ${LIBRARY} OUTPUT_VARIABLE dynamic RESULT_VARIABLE r1)
execute_process(COMMAND ${NM} -D ${LIBRARY} OUTPUT_VARIABLE symbols RESULT_VARIABLE r2)
if(NOT r1 EQUAL 0 OR NOT r2 EQUAL 0)
  message(FATAL_ERROR "cannot inspect ${LIBRARY} (readelf ${r1}, nm ${r2})")
endif()
string(REGEX MATCHALL "NEEDED[^\n]*" needed "${dynamic}")
if(NOT dynamic MATCHES "Dynamic section")
  message(FATAL_ERROR "${LIBRARY} has no dynamic section: is it a shared library?")
endif()
foreach(n ${needed})
  if(n MATCHES "libcuda")
    message(FATAL_ERROR "${LIBRARY} links the CUDA driver: ${n}")
  endif()
endforeach()
# nm -D lines: "<address> <type> <name>" or "<spaces> U <name>"; match names cu<Upper>...
string(REGEX MATCHALL "[ \t][A-Za-z][ \t]cu[A-Z][A-Za-z0-9_]*" cu_symbols "${symbols}")
if(cu_symbols)
  message(FATAL_ERROR "${LIBRARY} exports or imports CUDA driver symbols:${cu_symbols}")
endif()
message(STATUS "${LIBRARY}: no libcuda dependency, no cu* symbols (${needed})")

# The layering of runtime/ (runtime/CMakeLists.txt): translation units that reach up or across
# the layers must not compile with a layer's own include path (tests/layers/check_layers.sh).
set(_layer_args)
foreach(_pair gmagnus:magnus_spgemm_gmagnus hash:magnus_spgemm_hash accumulate:magnus_accumulate
              primitives:magnus_primitives device:magnus_device backend:magnus_backend_opencl
              host:magnus_host spmv:magnus_spmv)
  string(REPLACE ":" ";" _p ${_pair})
  list(GET _p 0 _name)
  list(GET _p 1 _target)
  list(APPEND _layer_args
       "${_name}=$<JOIN:$<TARGET_PROPERTY:${_target},INCLUDE_DIRECTORIES>,:>")
endforeach()
add_test(NAME layers COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_layers.sh
         ${CMAKE_C_COMPILER} ${CMAKE_CURRENT_LIST_DIR} ${_layer_args})
set_tests_properties(layers PROPERTIES LABELS "unit" TIMEOUT 60)

# The layers checked against every real source and object, from the manifest runtime/layers.txt:
# layers_includes replays each source's compile command (compile_commands.json) with -MM and
# rejects dependencies outside the folders its layer sees and #includes naming a folder;
# layers_symbols rejects a use of a hidden symbol of a layer neither seen nor called (a prototype
# written by hand). The _planted tests prove each check fails on a planted violation.
find_program(MAGNUS_PYTHON3 python3 REQUIRED)
set(_layers_dir ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME layers_includes COMMAND ${MAGNUS_PYTHON3} ${_layers_dir}/check_includes.py
         ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
add_test(NAME layers_includes_planted COMMAND ${MAGNUS_PYTHON3} ${_layers_dir}/plant_includes.py
         ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
set_tests_properties(layers_includes layers_includes_planted PROPERTIES LABELS "unit" TIMEOUT 300)
if(NOT CMAKE_READELF)
  message(STATUS "magnus: readelf not found; the ctests layers_symbols* are not registered")
  return()
endif()
add_test(NAME layers_symbols COMMAND ${MAGNUS_PYTHON3} ${_layers_dir}/check_symbols.py
         ${PROJECT_SOURCE_DIR} ${CMAKE_READELF} ${PROJECT_BINARY_DIR}/layers_objects.txt)
add_test(NAME layers_symbols_planted COMMAND ${MAGNUS_PYTHON3} ${_layers_dir}/plant_symbols.py
         ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${CMAKE_READELF}
         ${PROJECT_BINARY_DIR}/layers_objects.txt)
set_tests_properties(layers_symbols layers_symbols_planted PROPERTIES LABELS "unit" TIMEOUT 120)

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

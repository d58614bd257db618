# The backend registry (runtime/device.c) names a backend's ops accessor only when that
# backend's sources are in the tree, so the library links while backends are being written.
# (Weak symbols would not do: a static archive never pulls in a member for a weak reference.)
foreach(_vendor cuda level0 opencl)
  if(EXISTS ${PROJECT_SOURCE_DIR}/backends/${_vendor}/${_vendor}_ops.c)
    string(TOUPPER ${_vendor} _VENDOR)
    target_compile_definitions(magnus_objects PRIVATE MAGNUS_HAVE_BACKEND_${_VENDOR})
  endif()
endforeach()

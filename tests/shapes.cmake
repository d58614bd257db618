# The device test sets again on devices of other shapes, so that no test depends on the shape
# of the machine it happens to run on (docs/testing.md, "What a test may assume").
#
# PoCL sizes its CPU device from the host: local memory is the L2 cache (1 MiB on one CI
# machine, 2 MiB on another), compute units the hardware threads. hwloc, which PoCL asks, takes
# a synthetic machine from HWLOC_SYNTHETIC, so the OpenCL entries below run on PoCL devices of
# 48 KiB / 4 units (NVIDIA's OpenCL on the H200: the budget is the whole device, no room above
# it for dense rows, whose f64 rows are then narrower than the symbolic tables' products),
# 256 KiB / 1 unit, 2 MiB / 2 units and 3,000,000 bytes (no power of two) / 4 units. The Level
# Zero test driver (tests/backends/level0/fake_ze) reports whatever FAKE_ZE_* describes: 32 KiB with subgroups
# of 16, the PVC-like 128 KiB with 16 and 32 (every set's *_level0_fake entry), and 2 MiB with subgroups of
# 32 (its PoCL underneath then needs as much: HWLOC_SYNTHETIC again).
#
# Every device test set (magnus_add_device_test) runs on each shape: entries
# shape_<shape>_<set>, the set's executable with the shape's environment.
get_property(_shape_sets GLOBAL PROPERTY MAGNUS_DEVICE_TEST_SETS)
set(_shape_timeout 900)

# shape_<name>_<set> for every set, with the given environment.
function(_shape_tests name labels)
  foreach(_set ${_shape_sets})
    add_test(NAME shape_${name}_${_set} COMMAND ${_set} --jobs 1)
    set_tests_properties(shape_${name}_${_set} PROPERTIES TIMEOUT ${_shape_timeout}
                         SKIP_RETURN_CODE 77 LABELS "shapes;${labels}"
                         ENVIRONMENT "${ARGN}")
  endforeach()
endfunction()

magnus_hwloc_machine(_hw_48k 49152 4)
magnus_hwloc_machine(_hw_256k 262144 1)
magnus_hwloc_machine(_hw_2m 2097152 2)
magnus_hwloc_machine(_hw_3m 3000000 4)
magnus_hwloc_machine(_hw_4m 4194304 2)
# MAGNUS_TEST_ENTRY_BACKEND as in magnus_add_device_test's entries (MAGNUS_REQUIRE_DEVICE)
set(_pocl MAGNUS_BACKENDS=opencl MAGNUS_TEST_ENTRY_BACKEND=opencl)
_shape_tests(pocl_48k_4cu opencl ${_pocl} "${_hw_48k}")
_shape_tests(pocl_256k_1cu opencl ${_pocl} "${_hw_256k}")
_shape_tests(pocl_2m_2cu opencl ${_pocl} "${_hw_2m}")
_shape_tests(pocl_3000000_4cu opencl ${_pocl} "${_hw_3m}")

if(TARGET fake_ze AND MAGNUS_SPIRV_KERNELS)
  set(_ze ZE_ENABLE_ALT_DRIVERS=$<TARGET_FILE:fake_ze>
          FAKE_ZE_CACHE_DIR=${CMAKE_CURRENT_BINARY_DIR}/fake_ze_cache MAGNUS_BACKENDS=level0
          FAKE_ZE_STRICT=1 MAGNUS_TEST_ENTRY_BACKEND=level0_fake)
  _shape_tests(ze_32k_sg16 level0 ${_ze} "FAKE_ZE_DEVICE_NAME=Fake 32 KiB GPU"
               FAKE_ZE_LOCAL_MEM=32768 FAKE_ZE_SUBGROUPS=16 FAKE_ZE_COMPUTE_UNITS=2
               FAKE_ZE_GLOBAL_MEM=4294967296)
  _shape_tests(ze_2m_sg32 level0 ${_ze} "FAKE_ZE_DEVICE_NAME=Fake 2 MiB GPU"
               FAKE_ZE_LOCAL_MEM=2097152 FAKE_ZE_SUBGROUPS=32 FAKE_ZE_COMPUTE_UNITS=128
               FAKE_ZE_GLOBAL_MEM=4294967296 "${_hw_4m}")
endif()

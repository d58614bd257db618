# magnus-bench-scan: device exclusive scan of 64-bit values vs. device-to-device copy bandwidth
# on one device (see the header of bench_scan.c). A benchmark, not a test. Links
# magnus_internal: it calls the internal primitives (runtime/primitives/primitives.h).
add_executable(magnus-bench-scan ${CMAKE_CURRENT_LIST_DIR}/bench_scan.c)
target_link_libraries(magnus-bench-scan PRIVATE magnus_internal)

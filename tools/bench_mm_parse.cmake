# magnus-bench-mm-parse: Matrix Market parsing speed (MB/s of uncompressed text); see
# docs/benchmarks/mm_parse.md. A benchmark, not a test. Public API only, plus zlib to
# decompress a .gz input before timing.
if(NOT MAGNUS_SHARED_MATRICES)
  get_filename_component(MAGNUS_BENCH_MATRICES ${PROJECT_SOURCE_DIR}/../shared/matrices ABSOLUTE)
else()
  set(MAGNUS_BENCH_MATRICES ${MAGNUS_SHARED_MATRICES})
endif()
add_executable(magnus-bench-mm-parse ${CMAKE_CURRENT_LIST_DIR}/bench_mm_parse.c)
# clock_gettime, mkstemps: POSIX / BSD, hidden by -std=c11 without this.
target_compile_definitions(magnus-bench-mm-parse PRIVATE _GNU_SOURCE
                           MAGNUS_SHARED_MATRICES="${MAGNUS_BENCH_MATRICES}")
target_link_libraries(magnus-bench-mm-parse PRIVATE magnus ZLIB::ZLIB)

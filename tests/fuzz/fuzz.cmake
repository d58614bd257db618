# Fuzzing of the Matrix Market reader (docs/reliability.md).
#
#   replay_mm_read   always: the committed corpus (tests/fuzz/corpus/mm_read) through the
#                    fuzzer's oracle, as an ordinary ctest with any compiler
#   fuzz_mm_read     with -DMAGNUS_FUZZ=ON (clang, together with -DMAGNUS_SANITIZE=ON): the
#                    libFuzzer target, with the reader's sources compiled with coverage.
#                    tests/fuzz/run_fuzz.sh configures, builds and runs it.
option(MAGNUS_FUZZ "Build the libFuzzer targets (needs clang and MAGNUS_SANITIZE=ON)" OFF)

set(_fuzz_dir ${CMAKE_CURRENT_LIST_DIR})
magnus_add_test(replay_mm_read SOURCES ${_fuzz_dir}/replay_mm_read.c ${_fuzz_dir}/mm_read_check.c
                LABELS reliability io fuzz TIMEOUT 300)
target_compile_definitions(replay_mm_read PRIVATE
  MAGNUS_FUZZ_CORPUS_DIR="${_fuzz_dir}/corpus/mm_read")
target_include_directories(replay_mm_read PRIVATE ${_fuzz_dir})

if(MAGNUS_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "MAGNUS_FUZZ=ON needs clang (libFuzzer): configure with CC=clang-14")
  endif()
  if(NOT MAGNUS_SANITIZE)
    message(FATAL_ERROR "MAGNUS_FUZZ=ON needs MAGNUS_SANITIZE=ON (fuzzing without ASan/UBSan "
                        "finds crashes only)")
  endif()
  # The reader's own sources, compiled again with coverage for libFuzzer: the fuzz build
  # needs nothing else of the library (so a device source that does not build here cannot
  # stop it), and coverage outside the reader would only dilute libFuzzer's feedback.
  set(_fuzz_reader_sources io/mm_read.c io/mm_names.c io/mm_build.c io/file_input.c
                           io/text_number.c host/csr.c host/csr_products.c core/status.c
                           core/host_alloc.c core/host_limit.c core/byte_size.c core/csr_handle.c)
  list(TRANSFORM _fuzz_reader_sources PREPEND ${PROJECT_SOURCE_DIR}/runtime/)
  add_executable(fuzz_mm_read ${_fuzz_dir}/fuzz_mm_read.c ${_fuzz_dir}/mm_read_check.c
                              ${_fuzz_reader_sources})
  target_include_directories(fuzz_mm_read PRIVATE ${PROJECT_SOURCE_DIR}/include
                             ${PROJECT_SOURCE_DIR}/runtime/core ${PROJECT_SOURCE_DIR}/runtime/io
                             ${PROJECT_SOURCE_DIR}/runtime/host)
  target_compile_definitions(fuzz_mm_read PRIVATE _GNU_SOURCE MAGNUS_BUILDING_LIBRARY)
  target_compile_options(fuzz_mm_read PRIVATE -fsanitize=fuzzer-no-link)
  target_link_options(fuzz_mm_read PRIVATE -fsanitize=fuzzer)
  target_link_libraries(fuzz_mm_read PRIVATE ZLIB::ZLIB Threads::Threads m)
endif()

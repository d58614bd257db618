# `magnus bench` (tools/cmd_bench.c, the rest in tools/bench/): adds its sources to the
# `magnus` tool, which tools/magnus.cmake defines (this file sorts after it). The cuSPARSE
# baseline needs cuda.h and cusparse.h for types only: nothing is linked, libcuda and
# libcusparse are opened at run time; without the headers the baseline reports itself
# unavailable: bench_cusparse.c is always built (without the headers, as the stub that says
# so); bench_cuda.c and the baseline's other parts, bench_cusparse_*.c, only with them.
file(GLOB MAGNUS_BENCH_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/bench/bench_*.c)
list(REMOVE_ITEM MAGNUS_BENCH_SOURCES ${CMAKE_CURRENT_LIST_DIR}/bench/bench_cuda.c)
list(FILTER MAGNUS_BENCH_SOURCES EXCLUDE REGEX "/bench_cusparse_[^/]*\\.c$")
target_sources(magnus_cli PRIVATE ${MAGNUS_BENCH_SOURCES})
target_include_directories(magnus_cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/bench ${CMAKE_CURRENT_LIST_DIR})
find_package(Threads REQUIRED)
target_link_libraries(magnus_cli PRIVATE ${CMAKE_DL_LIBS} Threads::Threads)

find_path(MAGNUS_CUSPARSE_INCLUDE_DIR cusparse.h
  HINTS ${MAGNUS_CUDA_INCLUDE_DIR} $ENV{CUDA_PATH}/include $ENV{CUDA_HOME}/include /usr/local/cuda/include
  DOC "Directory containing cusparse.h (types only; libcusparse is opened at run time)")
if(MAGNUS_CUSPARSE_INCLUDE_DIR AND EXISTS "${MAGNUS_CUSPARSE_INCLUDE_DIR}/cuda.h")
  file(GLOB _bench_cusparse_parts CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/bench/bench_cusparse_*.c)
  set(_bench_cuda_sources ${CMAKE_CURRENT_LIST_DIR}/bench/bench_cuda.c
                          ${CMAKE_CURRENT_LIST_DIR}/bench/bench_cusparse.c ${_bench_cusparse_parts})
  target_sources(magnus_cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/bench/bench_cuda.c
                 ${_bench_cusparse_parts})
  # Only these files see the CUDA headers, so nothing else can pick up a toolkit header.
  # DISABLE_CUSPARSE_DEPRECATED: cusparse.h marks its legacy API deprecated, which -Werror
  # would turn into errors merely by including it.
  set_property(SOURCE ${_bench_cuda_sources} APPEND PROPERTY
               INCLUDE_DIRECTORIES ${MAGNUS_CUSPARSE_INCLUDE_DIR})
  set_property(SOURCE ${_bench_cuda_sources} APPEND PROPERTY
               COMPILE_DEFINITIONS MAGNUS_BENCH_HAVE_CUSPARSE DISABLE_CUSPARSE_DEPRECATED)
else()
  message(STATUS "magnus bench: cusparse.h/cuda.h not found; the cuSPARSE baseline is not built")
endif()

# `magnus`, the command-line tool. magnus_main.c dispatches to one cmd_<name>.c per subcommand;
# cli_*.c are their shared helpers. A new subcommand is a new cmd_<name>.c (picked up here) plus
# its line in magnus_main.c's table. The tool links the public library only, as a user's
# program would, so it exercises exactly the installed API.
file(GLOB MAGNUS_CLI_SOURCES CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/tools/cli_*.c ${PROJECT_SOURCE_DIR}/tools/cmd_*.c)
# runtime/core/byte_size.c is the library's own size grammar, compiled in as well (it needs
# nothing of the library), so --local-mem takes exactly what MAGNUS_LOCAL_MEM_BYTES takes.
set(MAGNUS_CLI_BYTE_SIZE ${PROJECT_SOURCE_DIR}/runtime/core/byte_size.c)
add_executable(magnus_cli ${PROJECT_SOURCE_DIR}/tools/magnus_main.c ${MAGNUS_CLI_SOURCES}
               ${MAGNUS_CLI_BYTE_SIZE})
target_include_directories(magnus_cli PRIVATE ${PROJECT_SOURCE_DIR}/runtime/core)
set_target_properties(magnus_cli PROPERTIES
  OUTPUT_NAME magnus
  INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
# isatty, clock_gettime: POSIX, hidden by -std=c11 without this.
target_compile_definitions(magnus_cli PRIVATE _POSIX_C_SOURCE=200809L)
# Threads: the randomized verification shares its passes over rows among threads.
find_package(Threads REQUIRED)
target_link_libraries(magnus_cli PRIVATE magnus m Threads::Threads)
install(TARGETS magnus_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# magnus-rmat-table3: regenerates the paper's Table III (R-MAT pairs) with the generator and
# the CPU reference; see docs/rmat.md. Links magnus_internal for the reference's count-only pass.
add_executable(magnus-rmat-table3 ${CMAKE_CURRENT_LIST_DIR}/rmat_table3.c)
target_link_libraries(magnus-rmat-table3 PRIVATE magnus_internal)

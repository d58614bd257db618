# cmake -DOUTPUT=<file> -DINPUTS="a;b;c" -P MagnusConcat.cmake
# Concatenates kernel sources into one self-contained OpenCL C text: the dialect header first,
# then each kernel file, with their `#include "..."` lines removed (the runtime compiler sees
# no files).
set(out "")
foreach(f ${INPUTS})
  file(READ "${f}" text)
  string(REGEX REPLACE "\n[ \t]*#[ \t]*include[ \t]+\"[^\"]*\"" "\n" text "\n${text}")
  get_filename_component(name "${f}" NAME)
  string(APPEND out "/* ---- ${name} ---- */${text}\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${out}")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")

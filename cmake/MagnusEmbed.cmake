# cmake -DINPUT=<file> -DOUTPUT=<file.c> -DSYMBOL=<name> [-DTEXT=1] -P MagnusEmbed.cmake
# Writes a C file defining `const unsigned char SYMBOL[]` (NUL-terminated when TEXT) and
# `const size_t SYMBOL_size` (bytes, without the terminator) with the content of INPUT.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR size "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
if(TEXT)
  set(body "${body}0x00,")
endif()
file(WRITE "${OUTPUT}.tmp"
"/* Generated from ${INPUT} by cmake/MagnusEmbed.cmake; do not edit. */
#include <stddef.h>
__attribute__((visibility(\"hidden\"))) const unsigned char ${SYMBOL}[] = {
${body}0x00};
__attribute__((visibility(\"hidden\"))) const size_t ${SYMBOL}_size = ${size};
")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")

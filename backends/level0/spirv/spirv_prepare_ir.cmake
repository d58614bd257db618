# cmake -DINPUT=<k.ll> -DOUTPUT=<k.prepared.ll> -P spirv_prepare_ir.cmake
#
# Makes clang-14's optimised LLVM IR translatable by llvm-spirv-14 into valid SPIR-V:
#
# 1. Every `freeze` becomes the identity
#        %r = freeze <ty> <v>   ->   %r = select i1 true, <ty> <v>, <ty> <v>
#    llvm-spirv-14 cannot translate `freeze` (SPIR-V has no such instruction; Khronos
#    SPIRV-LLVM-Translator issue #1140) while clang -O2 emits it, e.g. from the DivRemPairs
#    pass whenever a kernel computes both x / y and x % y. Dropping the freeze is what later
#    translators do themselves (their PR #2087: uses of the freeze take its operand); the select
#    is that replacement written without renaming uses, valid for any first-class type, and
#    every consumer folds it away.
# 2. `!llvm.loop` metadata is dropped from branches: llvm-spirv turns it into OpLoopMerge
#    (structured control flow, which OpenCL kernels do not need) and, for loops that LLVM has
#    rotated or merged, produces merge blocks that spirv-val rejects ("already a merge block
#    for another header"). The hints (unroll, mustprogress) have done their work by now.
# The text is handled whole (not as a CMake list of lines, which would split or join lines at
# the `;` comments and `[` brackets of the IR).
file(READ "${INPUT}" ir)
set(before "")
while(NOT before STREQUAL ir)  # a second pass catches freezes on adjacent lines
  set(before "${ir}")
  string(REGEX REPLACE "\n([ \t]*%[^ \n]+) = freeze ([^\n]+) ([^ ,\n]+)\n"
         "\n\\1 = select i1 true, \\2 \\3, \\2 \\3\n" ir "${ir}")
endwhile()
if(ir MATCHES "\n([^\n]* = freeze [^\n]*)")
  message(FATAL_ERROR "spirv_prepare_ir: cannot rewrite this freeze in ${INPUT}:\n${CMAKE_MATCH_1}")
endif()
string(REGEX REPLACE "(\n[ \t]*br [^\n]*), !llvm\\.loop ![0-9]+" "\\1" ir "${ir}")
file(WRITE "${OUTPUT}.tmp" "${ir}")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")

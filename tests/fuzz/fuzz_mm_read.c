/*
 * libFuzzer target for the Matrix Market reader (built with MAGNUS_FUZZ=ON and clang; see
 * tests/fuzz/fuzz.cmake and docs/reliability.md). Every input is read as a plain and as a
 * gzip-compressed file, as float32 and float64; mm_read_check.c says what must hold. An
 * input that starts with gzip's magic bytes also reaches the gzip decoder as it is, so
 * corrupt and truncated streams are fuzzed too.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mm_read_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *violation = fuzz_mm_read_check(data, size);
    if (violation) {
        fprintf(stderr, "fuzz_mm_read: %s\n", violation);
        abort(); /* libFuzzer saves the input as a crash */
    }
    return 0;
}

/*
 * xorshift64* (Vigna), the generator of the random inputs of the Matrix Market and number
 * parser tests: one definition for the files that each had a copy. It is the tests' own, not
 * the library's generators, so a generator bug cannot hide in the inputs it checks; each test
 * keeps its own seed, so every file's inputs are the ones they always were.
 */
#ifndef MAGNUS_TESTS_XORSHIFT_TEST_UTIL_H
#define MAGNUS_TESTS_XORSHIFT_TEST_UTIL_H

#include <stdint.h>

/* The next number of the sequence; *state must not be 0. */
static inline uint64_t xorshift64star_next(uint64_t *state) {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 0x2545F4914F6CDD1DULL;
}

#endif

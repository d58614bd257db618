/*
 * Sizes in bytes as people write them, one grammar for the library's MAGNUS_* variables
 * (MAGNUS_LOCAL_MEM_BYTES, MAGNUS_DEVICE_MEMORY_LIMIT) and the command line (--local-mem,
 * --bandwidth-bytes, --host-memory-limit), so a size one accepts the other accepts too.
 *
 * byte_size.c depends on nothing but the C library and magnus_status, because the command-line
 * tool, which links only the public library, compiles it in as well (tools/magnus.cmake).
 */
#ifndef MAGNUS_BYTE_SIZE_H
#define MAGNUS_BYTE_SIZE_H

#include <stdint.h>

#include "magnus/magnus.h"

/*
 * Parses `text` into *out: optional blanks, an optional '+', decimal digits, an optional unit
 * K, M, G or T (binary: 1024, 1024^2, ...) followed by an optional "i", then an optional "B",
 * optional blanks; letters in any case. "4096", "48K", "48KiB", "48kb", " 2G ", "100B".
 * MAGNUS_ERROR_INVALID_ARGUMENT for no digits, a sign other than '+', a fraction, anything
 * else after the number, or a value past 2^64 - 1; MAGNUS_ERROR_NULL_POINTER for a NULL
 * argument. Sets no detail message (see above): callers name the variable or option that
 * held the text in their own. *out is written only on success.
 */
magnus_status magnus_parse_bytes(uint64_t *out, const char *text);

#endif

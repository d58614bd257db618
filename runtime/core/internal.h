/*
 * Internal helpers shared by every runtime/ and backends/ source: error reporting, handle
 * magic numbers, checked host allocation and overflow-safe size arithmetic. Nothing here is
 * part of the public API.
 */
#ifndef MAGNUS_INTERNAL_H
#define MAGNUS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "magnus/magnus.h"

#if defined(__GNUC__)
#define MAGNUS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define MAGNUS_PRINTF(f, a)
#endif

/* Magic numbers: one per handle type, cleared on free so use-after-free is caught. */
#define MAGNUS_MAGIC_CSR 0x6d61676e63737231ULL     /* "magncsr1" */
#define MAGNUS_MAGIC_FREED 0xdeadbeefdeadbeefULL

/* Sets this thread's detail message and returns `status`, so errors read
 *   return magnus_error(MAGNUS_ERROR_MM_NUMBER, "%s:%lld: bad value", path, line); */
magnus_status magnus_error(magnus_status status, const char *fmt, ...) MAGNUS_PRINTF(2, 3);
/* Clears the detail message (public entry points call it first). */
void magnus_error_clear(void);
/* Appends context to the current detail message ("while reading B: " + old message). */
void magnus_error_prefix(const char *fmt, ...) MAGNUS_PRINTF(1, 2);

/*
 * Host allocation. Every host allocation of the library goes through these, so tests can make
 * the n-th allocation fail (magnus_host_alloc_fail_after) and check that nothing leaks.
 * magnus_host_malloc(0) returns a valid unique pointer.
 */
void *magnus_host_malloc(size_t bytes);
void *magnus_host_calloc(size_t count, size_t size);
void *magnus_host_realloc(void *p, size_t bytes);
void magnus_host_free(void *p);
/* Testing hook: after `n` more successful allocations, every allocation fails (n < 0: never).
 * Process-wide. */
void magnus_host_alloc_fail_after(int64_t n);
/* Testing hook: every single allocation of more than max_bytes fails (0: no limit), so a
 * fuzzer can feed size lines that ask for terabytes and still see the out-of-memory path
 * rather than its own allocation limit. Process-wide. */
void magnus_host_alloc_limit(size_t max_bytes);

/* Overflow-checked arithmetic: return false on overflow. */
static inline bool magnus_mul_size(size_t a, size_t b, size_t *out) {
    return !__builtin_mul_overflow(a, b, out);
}
static inline bool magnus_add_i64(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_add_overflow(a, b, out);
}
static inline bool magnus_mul_i64(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_mul_overflow(a, b, out);
}

/* A live CSR handle (runtime/core/csr_handle.c) that owns the arrays given, which must fit
 * rows, nnz and type; NULL when out of host memory (the arrays then stay the caller's). */
magnus_csr magnus_csr_handle_of(int64_t rows, int64_t cols, int64_t nnz, magnus_value_type type,
                                int64_t *row_ptr, int32_t *col_idx, void *values);

/* Checks that A is a live CSR handle (not NULL, magic intact) without validating content. */
magnus_status magnus_csr_check_handle(const magnus_csr_s *A, const char *name);

/* magnus_csr_validate of the operands A, then B: the failing one's message begins
 * "<where>A: " or "<where>B: " (where: "" or the caller's name for itself, say "matrix "). */
magnus_status magnus_csr_validate_operands(const magnus_csr_s *A, const magnus_csr_s *B,
                                           const char *where);

#endif

/*
 * magnus's foundations: version, export macro, status codes, host CSR matrices, progress callbacks.
 * Part of the public API: include <magnus/magnus.h>, which includes every part; the conventions
 * (outputs first, magnus_X_free, magnus_last_error, thread safety) are stated there.
 */
#ifndef MAGNUS_CORE_H
#define MAGNUS_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MAGNUS_VERSION_MAJOR 0
#define MAGNUS_VERSION_MINOR 1
#define MAGNUS_VERSION_PATCH 0

#if defined(_WIN32)
#define MAGNUS_API
#elif defined(__GNUC__)
#define MAGNUS_API __attribute__((visibility("default")))
#else
#define MAGNUS_API
#endif

/* ------------------------------------------------------------------------------------------
 * Status codes
 * ------------------------------------------------------------------------------------------ */
typedef enum magnus_status {
    MAGNUS_SUCCESS = 0,

    /* caller errors */
    MAGNUS_ERROR_NULL_POINTER = -1,        /* a required pointer argument is NULL */
    MAGNUS_ERROR_INVALID_HANDLE = -2,      /* handle freed, corrupted or of another type */
    MAGNUS_ERROR_INVALID_ARGUMENT = -3,    /* an option or size is out of its range */
    MAGNUS_ERROR_DIMENSION_MISMATCH = -4,  /* A.cols != B.rows, or shapes differ in compare */
    MAGNUS_ERROR_UNSUPPORTED_TYPE = -5,    /* value type other than float32/float64, or mixed */
    MAGNUS_ERROR_SIZE_OVERFLOW = -6,       /* a size or product count does not fit 64 bits */
    MAGNUS_ERROR_CANCELLED = -7,           /* a progress callback returned 0 to stop the work */

    /* invalid CSR content (magnus_csr_validate and every entry point taking a matrix) */
    MAGNUS_ERROR_ROWPTR_INVALID = -10,     /* row_ptr[0] != 0 or row_ptr[rows] != nnz */
    MAGNUS_ERROR_ROWPTR_NOT_MONOTONE = -11,
    MAGNUS_ERROR_COLUMN_OUT_OF_RANGE = -12,
    MAGNUS_ERROR_COLUMNS_UNSORTED = -13,
    MAGNUS_ERROR_DUPLICATE_COLUMN = -14,

    /* files */
    MAGNUS_ERROR_FILE_OPEN = -20,          /* cannot open / create the file */
    MAGNUS_ERROR_FILE_READ = -21,          /* I/O error or corrupt compressed stream */
    MAGNUS_ERROR_FILE_WRITE = -22,
    MAGNUS_ERROR_MM_BANNER = -23,          /* missing or malformed %%MatrixMarket line */
    MAGNUS_ERROR_MM_UNSUPPORTED = -24,     /* complex, hermitian, array, ... */
    MAGNUS_ERROR_MM_SIZE_LINE = -25,       /* malformed or out-of-range size line */
    MAGNUS_ERROR_MM_ENTRY_COUNT = -26,     /* more or fewer entries than the size line says */
    MAGNUS_ERROR_MM_INDEX_RANGE = -27,     /* row or column index outside 1..rows / 1..cols */
    MAGNUS_ERROR_MM_NUMBER = -28,          /* non-numeric or malformed field */
    MAGNUS_ERROR_MM_TRUNCATED = -29,       /* file ends inside an entry line */

    /* memory */
    MAGNUS_ERROR_OUT_OF_HOST_MEMORY = -30,
    MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY = -31,
    MAGNUS_ERROR_PROBLEM_TOO_LARGE = -32,  /* refused up front: needs more device memory */

    /* devices and backends */
    MAGNUS_ERROR_NO_DEVICE = -40,          /* no usable device (or none matches the choice) */
    MAGNUS_ERROR_BACKEND_UNAVAILABLE = -41,/* vendor library missing or broken */
    MAGNUS_ERROR_DEVICE = -42,             /* a vendor call failed; detail has its text */
    MAGNUS_ERROR_KERNEL_BUILD = -43,       /* program/module build failed; detail has the log */
    MAGNUS_ERROR_KERNEL_LAUNCH = -44,
    MAGNUS_ERROR_FEATURE_UNSUPPORTED = -45,/* device lacks a required feature (fp64, ...) */

    /* results */
    MAGNUS_ERROR_MISMATCH = -50,           /* magnus_csr_compare found a difference */

    MAGNUS_ERROR_INTERNAL = -99
} magnus_status;

/* Library version as "major.minor.patch"; never NULL. */
MAGNUS_API const char *magnus_version(void);
/* Fills any non-NULL output with the runtime library's version numbers. */
MAGNUS_API magnus_status magnus_version_numbers(int *major, int *minor, int *patch);
/* Short constant text for a status ("invalid CSR: column out of range"); never NULL. */
MAGNUS_API const char *magnus_status_string(magnus_status status);
/* Detail message of this thread's last call when it failed; "" after a call that succeeded.
 * The magnus_*_free functions and the constant queries (magnus_version, magnus_version_numbers,
 * magnus_status_string, magnus_backend_name, magnus_value_size, magnus_probe_diagnostics)
 * leave it as it was, so cleaning up after a failure keeps the failure's detail. Valid until
 * the next magnus call on this thread. */
MAGNUS_API const char *magnus_last_error(void);

/* ------------------------------------------------------------------------------------------
 * Host CSR matrices
 * ------------------------------------------------------------------------------------------ */
typedef enum magnus_value_type {
    MAGNUS_FLOAT32 = 1,
    MAGNUS_FLOAT64 = 2
} magnus_value_type;

/* Size in bytes of one value of the type, 0 for an invalid type. */
MAGNUS_API size_t magnus_value_size(magnus_value_type type);

/*
 * A host CSR matrix. Fields are public to read and to fill (after magnus_csr_new), but the
 * object is created, copied and freed only through the API.
 *   rows, cols    0 .. INT32_MAX (column indices are 32-bit)
 *   nnz           number of stored entries (explicit zeros included)
 *   row_ptr       rows+1 entries, 64-bit, row_ptr[0] = 0, row_ptr[rows] = nnz
 *   col_idx       nnz entries, 32-bit, sorted and unique within each row when valid
 *   values        nnz entries of float (MAGNUS_FLOAT32) or double (MAGNUS_FLOAT64)
 */
typedef struct magnus_csr_s {
    uint64_t magic; /* set by the library; do not touch */
    int64_t rows;
    int64_t cols;
    int64_t nnz;
    magnus_value_type type;
    int64_t *row_ptr;
    int32_t *col_idx;
    void *values;
} magnus_csr_s, *magnus_csr;

/* New matrix with arrays allocated for nnz entries; row_ptr is zeroed (an empty matrix when
 * nnz == 0), col_idx and values are left for the caller to fill. Arrays beyond the host
 * memory limit (MAGNUS_HOST_MEMORY_LIMIT, default half the machine's memory) are refused with
 * MAGNUS_ERROR_OUT_OF_HOST_MEMORY before anything is allocated. */
MAGNUS_API magnus_status magnus_csr_new(magnus_csr *out, int64_t rows, int64_t cols, int64_t nnz,
                                        magnus_value_type type);
/* The host memory limit matrices respect, for a caller's own arrays sized by a matrix (an
 * SpMV's x and y: the `magnus` tool checks them so): MAGNUS_ERROR_OUT_OF_HOST_MEMORY when
 * `bytes` exceed MAGNUS_HOST_MEMORY_LIMIT (a size such as 8G; default half the machine's
 * memory), the detail reading "<what> needs N of host memory, above the limit of L (...;
 * MAGNUS_HOST_MEMORY_LIMIT sets it)"; MAGNUS_ERROR_INVALID_ARGUMENT naming the variable when
 * it is not a size. Allocates nothing. `what` NULL reads "an allocation". */
MAGNUS_API magnus_status magnus_host_memory_check(uint64_t bytes, const char *what);
/* Deep copy of `in`, keeping its value type. */
MAGNUS_API magnus_status magnus_csr_copy(magnus_csr *out, const magnus_csr_s *in);
/* Deep copy of `in` with values converted to `type`. */
MAGNUS_API magnus_status magnus_csr_convert(magnus_csr *out, const magnus_csr_s *in,
                                            magnus_value_type type);
/* Frees the matrix and sets *A to NULL. NULL or *A == NULL is a no-op returning success. */
MAGNUS_API magnus_status magnus_csr_free(magnus_csr *A);
/* Checks the structure and reports the first problem found with its own status and a detail
 * message naming the row/entry: row_ptr[0] or row_ptr[rows] wrong, row pointers not monotone,
 * column out of range, unsorted or duplicate columns. */
MAGNUS_API magnus_status magnus_csr_validate(const magnus_csr_s *A);

/* Row-length statistics and the intermediate products of A·B (B may be A). */
typedef struct magnus_csr_stats {
    int64_t row_nnz_min, row_nnz_max;
    double row_nnz_mean, row_nnz_std;
    int64_t empty_rows;
    int64_t products;          /* sum over rows i of sum over k in A[i,:] of nnz(B[k,:]) */
    int64_t row_products_max;  /* largest row of intermediate products */
} magnus_csr_stats;
MAGNUS_API magnus_status magnus_csr_stats_compute(magnus_csr_stats *out, const magnus_csr_s *A,
                                                  const magnus_csr_s *B);

/* ------------------------------------------------------------------------------------------
 * Progress reporting for long work (file reading, generation, multiply)
 * ------------------------------------------------------------------------------------------ */
/* Called with the fraction done in [0,1] and a short label; return nonzero to keep going. */
typedef int (*magnus_progress_fn)(void *user, double fraction, const char *what);

#ifdef __cplusplus
}
#endif
#endif /* MAGNUS_CORE_H */

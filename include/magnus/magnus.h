/*
 * magnus: portable GPU SpGEMM (C = A·B, CSR) built on the gMAGNUS algorithm.
 *
 * Conventions (after SuiteSparse:GraphBLAS and Level Zero):
 *   - every call returns a magnus_status: 0 is success, negative values are errors;
 *   - outputs come first: magnus_csr_new(&A, rows, cols, nnz, type);
 *   - an output handle (magnus_csr *C, magnus_context *ctx, ...) is written, never read: it is
 *     set to NULL first and to the new object on success, so it may be uninitialized; a matrix
 *     it held before is NOT freed (free it first, or it leaks), as with any C output argument;
 *   - objects are freed with magnus_X_free(&h), which sets the handle to NULL and accepts a
 *     NULL handle (or a pointer to NULL) as a no-op;
 *   - every handle carries a magic number, so a freed or foreign pointer is reported as
 *     MAGNUS_ERROR_INVALID_HANDLE rather than read;
 *   - when a call fails, magnus_last_error() gives a one-line detail message (file and line of
 *     a parse error, the first invalid entry of a matrix, the vendor's own error text...); a
 *     call that succeeds leaves it empty.
 *
 * Thread safety: the detail message is thread-local. Calls on distinct objects may run
 * concurrently from different threads; one object must not be used by two threads at once
 * unless a function's comment says otherwise.
 */
#ifndef MAGNUS_MAGNUS_H
#define MAGNUS_MAGNUS_H

#include <stddef.h>
#include <stdint.h>

#include "magnus_report_fields.h"

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

/* ------------------------------------------------------------------------------------------
 * Matrix Market I/O
 * ------------------------------------------------------------------------------------------ */
/*
 * Reads a `coordinate` Matrix Market file (`.mtx`, or gzip-compressed `.mtx.gz`, recognised by
 * content; "-" is standard input, and pipes such as /dev/stdin are read too): fields real / integer / pattern (each pattern entry is a 1), symmetry general /
 * symmetric / skew-symmetric (expanded). Columns are sorted, duplicates summed, explicit zeros
 * kept. complex, hermitian and array files are refused with MAGNUS_ERROR_MM_UNSUPPORTED. Every
 * error's detail message names the file and line. progress may be NULL.
 *
 * Details:
 *   - values are decimal numbers ([sign] digits [. digits] [e [sign] digits]) or inf, infinity
 *     and nan in any case, correctly rounded to `type` (as strtod / strtof would); what strtod
 *     reads beyond that (hexadecimal such as 0x10, nan(...)) is MAGNUS_ERROR_MM_NUMBER, like
 *     1.0junk; duplicates are summed
 *     in double, in file order, then rounded once; out-of-range values become +-inf or 0;
 *   - symmetric files: an entry on either side of the diagonal is mirrored (so a file holding
 *     both (i,j) and (j,i) sums them); skew-symmetric: the mirror is negated and a diagonal
 *     entry is an error (MAGNUS_ERROR_MM_INDEX_RANGE), as is `pattern skew-symmetric`
 *     (MAGNUS_ERROR_MM_BANNER); a pattern entry is a 1, so duplicate pattern entries sum as
 *     well (an entry stored twice is 2; so is one stored in both triangles of a symmetric
 *     file), as SciPy's reading gives;
 *   - the banner's words are case-insensitive and `double` is read as `real`; comments and
 *     blank lines may appear anywhere after the banner; CRLF and CR-only (old Mac) line
 *     endings are accepted (CR-only when the first line ends in a CR alone), and a UTF-8
 *     byte-order mark before the banner is skipped;
 *   - a missing or malformed field is MAGNUS_ERROR_MM_NUMBER, except on an unterminated last
 *     line, where it means the file was cut: MAGNUS_ERROR_MM_TRUNCATED. A gzip stream that ends
 *     early is also MAGNUS_ERROR_MM_TRUNCATED; a corrupt one MAGNUS_ERROR_FILE_READ;
 *   - progress is called with 0 first, about every 64 MB of text, and with 1 when the text is
 *     read (before the CSR is assembled), labelled "reading"; if it returns 0 the read stops
 *     with MAGNUS_ERROR_CANCELLED and the detail "path:line: cancelled ...";
 *   - what the sizes imply (row pointer, entries) is checked against the host memory limit
 *     before it is allocated: MAGNUS_ERROR_OUT_OF_HOST_MEMORY naming the file, the sizes and
 *     MAGNUS_HOST_MEMORY_LIMIT (a size such as 8G; default half the machine's memory).
 * Numbers are read in the "C" locale whatever the application's locale (also when writing).
 */
MAGNUS_API magnus_status magnus_mm_read(magnus_csr *out, const char *path, magnus_value_type type,
                                        magnus_progress_fn progress, void *progress_user);
/*
 * What a Matrix Market file's banner and size line say.
 *   field     real (also `double`), integer or pattern
 *   symmetry  general, symmetric or skew-symmetric (symmetric kinds are expanded on reading)
 *   stored    the entries the size line declares, as stored in the file (before expansion)
 */
typedef enum magnus_mm_field {
    MAGNUS_MM_REAL = 1,
    MAGNUS_MM_INTEGER = 2,
    MAGNUS_MM_PATTERN = 3
} magnus_mm_field;
typedef enum magnus_mm_symmetry {
    MAGNUS_MM_GENERAL = 1,
    MAGNUS_MM_SYMMETRIC = 2,
    MAGNUS_MM_SKEW_SYMMETRIC = 3
} magnus_mm_symmetry;
typedef struct magnus_mm_header {
    magnus_mm_field field;
    magnus_mm_symmetry symmetry;
    int64_t rows, cols;
    int64_t stored;
} magnus_mm_header;

/*
 * Reads only the banner, comments and size line of a Matrix Market file (plain or gzip,
 * recognised by content), with magnus_mm_read's parser and its errors for those lines. Fast
 * whatever the file's size. On a pipe or standard input ("-") it consumes the stream's
 * beginning: read such input once with magnus_mm_read_facts, which also gives the header.
 */
MAGNUS_API magnus_status magnus_mm_header_read(magnus_mm_header *out, const char *path);
/* "real", "integer", "pattern" / "general", "symmetric", "skew-symmetric"; "?" if invalid. */
MAGNUS_API const char *magnus_mm_field_name(magnus_mm_field field);
MAGNUS_API const char *magnus_mm_symmetry_name(magnus_mm_symmetry symmetry);
/*
 * The value type a field calls for: real and integer -> MAGNUS_FLOAT64 (the file's text is
 * double precision); pattern -> MAGNUS_FLOAT32 (values are 1 and the products of pattern
 * matrices are integer counts, exact in float up to 2^24). 0 for an invalid field.
 */
MAGNUS_API magnus_value_type magnus_mm_field_type(magnus_mm_field field);

/* As the type argument of magnus_mm_read_facts: the type magnus_mm_field_type gives the file's
 * field. */
#define MAGNUS_MM_TYPE_AUTO ((magnus_value_type)0)

/* What a read found besides the matrix. Values are counted as stored in the file, after
 * rounding to the type read into and before duplicates are summed or symmetric entries
 * mirrored (0 for pattern files). */
typedef struct magnus_mm_facts {
    magnus_mm_header header;
    magnus_value_type type;  /* the type read into (the chosen one under MAGNUS_MM_TYPE_AUTO) */
    int64_t explicit_zeros;  /* stored values equal to 0 (of either sign) */
    int64_t nonfinite;       /* stored values that are NaN or +-inf: "nan", "inf", or a number
                                out of the type's range such as 1e400 */
    int64_t overflowed;      /* of those, the numbers out of range (written as digits) */
    int64_t stored_below;    /* stored entries below the diagonal (row > column) ... */
    int64_t stored_above;    /* ... and above it: a symmetric or skew-symmetric file holds one
                                triangle (either), so both nonzero means each entry stored on
                                both sides is mirrored onto the other and summed */
} magnus_mm_facts;

/*
 * magnus_mm_read, also filling *facts (may be NULL), and with type MAGNUS_MM_TYPE_AUTO reading
 * into the type the file's field calls for (magnus_mm_field_type). path "-" is standard input;
 * pipes and other non-seekable inputs are read as they come (gzip recognised by content).
 */
MAGNUS_API magnus_status magnus_mm_read_facts(magnus_csr *out, magnus_mm_facts *facts,
                                              const char *path, magnus_value_type type,
                                              magnus_progress_fn progress, void *progress_user);

/* Writes `coordinate real general`, 1-based, row by row, values printed to read back
 * bit-identical (%.9g for float, %.17g for double); gzip-compressed (zlib level 1, the fastest)
 * when path ends in ".gz"; path "-" writes plain text to standard output (flushed, not closed).
 * The matrix is validated first (magnus_csr_validate's status on failure). Errors:
 * MAGNUS_ERROR_FILE_OPEN, MAGNUS_ERROR_FILE_WRITE (a partly written regular file is removed). */
MAGNUS_API magnus_status magnus_mm_write(const char *path, const magnus_csr_s *A);
/* The same as `coordinate pattern general`: the structure alone, no values (read back, every
 * entry is 1). For matrices whose values mean nothing but "present", such as R-MAT's
 * pattern graphs. */
MAGNUS_API magnus_status magnus_mm_write_pattern(const char *path, const magnus_csr_s *A);

/* ------------------------------------------------------------------------------------------
 * CPU reference (verification only; shares no code with the device paths)
 * ------------------------------------------------------------------------------------------ */
/*
 * C = A·B by Gustavson's algorithm; rows of C sorted; products of
 * A's and B's entries are always formed, so cancellation leaves explicit zeros in C (as every
 * magnus device path does). Values are accumulated in double and rounded to the inputs' type.
 * If magnitude is non-NULL it receives |A|·|B| with C's structure, the scale used by
 * magnus_csr_compare's tolerance. A and B must have the same value type.
 *
 * The magnitude has C's value type. Inputs are validated first (magnus_csr_validate's status,
 * detail prefixed "A: " or "B: "); A.cols != B.rows is MAGNUS_ERROR_DIMENSION_MISMATCH (the
 * detail names both shapes), different value types MAGNUS_ERROR_UNSUPPORTED_TYPE. Rows are
 * shared among up to one thread per CPU (one thread for small products); the result does not
 * depend on the thread count. Besides C it needs, per thread, a dense accumulator of about
 * 28 bytes per column of B when B's columns are few (up to 2^16, or up to 4 times the longest
 * row's products), else a hash table of about 80 bytes per distinct column of the longest
 * row of C (at most nnz(B)): never memory in proportion to B's columns when they far
 * outnumber its entries. That workspace is checked against the host memory limit
 * (MAGNUS_HOST_MEMORY_LIMIT) before it is allocated: MAGNUS_ERROR_OUT_OF_HOST_MEMORY.
 */
MAGNUS_API magnus_status magnus_reference_spgemm(magnus_csr *C, magnus_csr *magnitude,
                                                 const magnus_csr_s *A, const magnus_csr_s *B);

/* Where two matrices first differ. */
typedef struct magnus_compare_result {
    int64_t row;           /* -1 when the matrices match */
    int64_t col;           /* column of the first differing entry, -1 if structural in row_ptr
                              (for differing columns: the first column in one row only) */
    double value, expected;/* the two values there; NaN for a structural difference */
    double max_rel_error;  /* largest |value-expected| / magnitude over all entries compared
                              (all, unless a structural difference ended the comparison);
                              infinite for a difference against m == 0 or a NaN/Inf mismatch */
} magnus_compare_result;

/*
 * Compares `C` with `expected`: dimensions and structure must match exactly; each value must
 * satisfy |c - e| <= rel_tol * m, where m is the entry of `magnitude` (|A|·|B|) or |e| when
 * magnitude is NULL. rel_tol <= 0 picks a default for the type (float32 1e-4, float64 1e-10).
 * Returns MAGNUS_ERROR_MISMATCH (detail names the first mismatch) or success. result may be
 * NULL. NaN matches NaN at the same position; Inf must match exactly.
 *
 * Values are compared in double, so C and expected may have different value types; the
 * default tolerance is float32's if either is float32. With m == 0 only c == e passes: pass
 * the magnitude when C may hold explicit zeros left by cancellation. expected must be valid
 * (else its magnus_csr_validate status); C is read only where it agrees with expected, so a
 * broken C (bad row_ptr, short arrays) is reported as a mismatch, never read out of bounds.
 * Different shapes: MAGNUS_ERROR_DIMENSION_MISMATCH; a magnitude without expected's structure:
 * MAGNUS_ERROR_INVALID_ARGUMENT; rel_tol NaN or infinite: MAGNUS_ERROR_INVALID_ARGUMENT.
 */
MAGNUS_API magnus_status magnus_csr_compare(magnus_compare_result *result, const magnus_csr_s *C,
                                            const magnus_csr_s *expected,
                                            const magnus_csr_s *magnitude, double rel_tol);

/* ------------------------------------------------------------------------------------------
 * Generators (own PRNG: the same seed gives the same matrix on every machine)
 * ------------------------------------------------------------------------------------------ */
typedef struct magnus_rmat_options {
    int scale;              /* rows = cols = 2^scale, 1..30 */
    int64_t nnz_per_row;    /* edges drawn per row on average, before duplicate removal */
    double a, b, c;         /* quadrant probabilities; d = 1-a-b-c (Graph500: .57 .19 .19) */
    uint64_t seed;
    magnus_value_type type;
    int pattern;            /* nonzero: all values 1; else uniform in [0.5, 1.5) */
} magnus_rmat_options;
/* Fills Graph500 defaults: a=.57, b=c=.19, scale 10, 8 per row, seed 1, float32, values. */
MAGNUS_API magnus_status magnus_rmat_options_init(magnus_rmat_options *opt);
/*
 * Plain R-MAT, as drawn by PaRMAT (the gMAGNUS paper's generator): no per-level noise and no
 * vertex permutation (unlike Graph500's Kronecker generator), so low indices are the dense
 * ones; duplicate edges are merged, so nnz <= nnz_per_row * 2^scale (docs/rmat.md compares
 * with the paper). progress is called about every 2 % and with 1 at the end; returning 0
 * stops with MAGNUS_ERROR_CANCELLED. Probabilities must each lie in [0,1] with a+b+c <= 1
 * (else MAGNUS_ERROR_INVALID_ARGUMENT); an overflowing edge count is MAGNUS_ERROR_SIZE_OVERFLOW.
 */
MAGNUS_API magnus_status magnus_gen_rmat(magnus_csr *out, const magnus_rmat_options *opt,
                                         magnus_progress_fn progress, void *progress_user);

/* 5-point Laplacian on an nx×ny grid (4 on the diagonal, -1 off it). Grid point (x,y,z) is
 * row x + nx*(y + ny*z); a side of 0 gives a 0×0 matrix; more than 2^31-1 points is
 * MAGNUS_ERROR_INVALID_ARGUMENT, a product of sides overflowing 64 bits
 * MAGNUS_ERROR_SIZE_OVERFLOW. nnz = 5·nx·ny - 2·nx - 2·ny. */
MAGNUS_API magnus_status magnus_gen_laplacian_2d(magnus_csr *out, int64_t nx, int64_t ny,
                                                 magnus_value_type type);
/* 7-point Laplacian on an nx×ny×nz grid (6 on the diagonal, -1 off it), numbered as above.
 * nnz = 7·n - 2·(nx·ny + ny·nz + nx·nz). */
MAGNUS_API magnus_status magnus_gen_laplacian_3d(magnus_csr *out, int64_t nx, int64_t ny,
                                                 int64_t nz, magnus_value_type type);
/* n×n band: entries (i,j) with -lower <= j-i <= upper, values uniform in [0.5,1.5).
 * lower, upper >= 0 (a band wider than the matrix fills it). */
MAGNUS_API magnus_status magnus_gen_banded(magnus_csr *out, int64_t n, int64_t lower,
                                           int64_t upper, uint64_t seed, magnus_value_type type);
/* rows×cols with about nnz_per_row distinct uniformly random columns per row: each row has
 * floor(nnz_per_row) entries, plus one with probability equal to the fraction (at most cols),
 * at a uniformly random set of columns; values uniform in [0.5,1.5). */
MAGNUS_API magnus_status magnus_gen_uniform(magnus_csr *out, int64_t rows, int64_t cols,
                                            double nnz_per_row, uint64_t seed,
                                            magnus_value_type type);
/*
 * n×n "star mixture", shaped like LP constraint matrices: long_rows rows (drawn at random)
 * hold exactly long_len distinct random columns over all of [0, n); every other row holds
 * short_deg random columns, and each long row's index is a column of exactly
 * min(short_deg, n - long_rows) random short rows (such a row keeps max(short_deg, its hub
 * columns) entries). C = A*A then has long rows of products and rows wider than long_len.
 * Values uniform in [0.5,1.5). n <= 2^31-1 and the other sizes in 0..n, else
 * MAGNUS_ERROR_INVALID_ARGUMENT. docs/generators.md describes the design.
 */
MAGNUS_API magnus_status magnus_gen_star(magnus_csr *out, int64_t n, int64_t long_rows,
                                         int64_t long_len, int64_t short_deg, uint64_t seed,
                                         magnus_value_type type);

/* ------------------------------------------------------------------------------------------
 * Devices and contexts
 * ------------------------------------------------------------------------------------------ */
typedef enum magnus_backend_kind {
    MAGNUS_BACKEND_CUDA = 1,   /* CUDA Driver API (libcuda.so.1), kernels as fatbin/PTX */
    MAGNUS_BACKEND_LEVEL0 = 2, /* oneAPI Level Zero (libze_loader.so.1), kernels as SPIR-V */
    MAGNUS_BACKEND_OPENCL = 3  /* any OpenCL 1.2+ device (libOpenCL.so.1), kernels as OpenCL C */
} magnus_backend_kind;

/* "cuda", "level0", "opencl" (the names MAGNUS_BACKENDS uses); "unknown" otherwise. */
MAGNUS_API const char *magnus_backend_name(magnus_backend_kind kind);

typedef struct magnus_device_info {
    magnus_backend_kind backend;
    int index;                   /* index within its backend */
    char name[256];
    char vendor[128];
    char driver_version[128];
    uint64_t global_mem_bytes;
    uint64_t local_mem_bytes;    /* local (shared) memory one work group can use: CUDA's
                                    opt-in maximum per block, OpenCL's CL_DEVICE_LOCAL_MEM_SIZE,
                                    Level Zero's maxSharedLocalMemory */
    int compute_units;
    int subgroup_sizes[8];
    int num_subgroup_sizes;
    uint64_t max_work_group_size;
    int fp64;                    /* double precision arithmetic */
    int atomic64;                /* 64-bit integer atomics on global and local memory */
    int is_cpu;                  /* a CPU device (PoCL): the last choice for "best" */
    uint64_t max_alloc_bytes;    /* largest single buffer the device allows (OpenCL's
                                    CL_DEVICE_MAX_MEM_ALLOC_SIZE); 0: global_mem_bytes */
    uint64_t wide_group_size;    /* the widest work group the backend vouches for, before a
                                    kernel is built, for kernels of few registers: 1024 through
                                    CUDA (an SM holds 1024 threads of up to 64 registers), 256
                                    through OpenCL and Level Zero (a kernel's own limit is known
                                    only once it is built); 0: 256. Launches stay within each
                                    kernel's own limit too (magnus_kernel_limits_get) */
} magnus_device_info;

/*
 * Lists every device of every backend whose vendor library loads, in backend order
 * (MAGNUS_BACKENDS, a comma-separated list of backend names, selects and orders them;
 * default "cuda,level0,opencl"). Writes at most `capacity` entries to `devices` (which may be
 * NULL when capacity is 0) and the total number found to *count. A backend that is missing or
 * broken is skipped; magnus_probe_diagnostics() says why. Finding no device is not an error.
 */
MAGNUS_API magnus_status magnus_device_probe(magnus_device_info *devices, size_t capacity,
                                             size_t *count);
/* One line per backend tried: loaded with N devices, or why it was skipped. Valid until the
 * next probe. */
MAGNUS_API const char *magnus_probe_diagnostics(void);
/*
 * Device specs: how MAGNUS_DEVICE, magnus_device_find and magnus_device_match (and the tool's
 * --device) name a device. Words are case-insensitive; blanks around them are ignored.
 *   N              the N-th device of the probe list ("0")
 *   gpu | cpu      the best device of that type (a "GPU" is any device that is not a CPU)
 *   BACKEND        the best device of that backend: cuda, level0 or opencl
 *   BACKEND:N      device N in that backend's own numbering ("opencl:1")
 *   BACKEND:gpu    the best device of that backend and type ("opencl:cpu")
 *   BACKEND:TEXT   a device of that backend whose name or vendor contains TEXT ("opencl:nvidia")
 *   TEXT           the same over every backend ("h200", "pthread")
 * Indices follow the vendor's enumeration, which can change between environments (OpenCL's ICD
 * order); a name or a type is stable. Where several devices match, the best of them is used
 * (as for the default device: GPUs before CPUs, then backend order, then the largest local
 * memory) provided they share one device name; matches of different names are ambiguous.
 * Errors: MAGNUS_ERROR_INVALID_ARGUMENT for a malformed spec ("", "gpu:0": a word before ':'
 * must be a backend, "opencl:" with nothing after it); MAGNUS_ERROR_NO_DEVICE when nothing
 * matches or the match is ambiguous, the detail listing the devices (`magnus probe` shows the
 * specs each device answers to).
 */
/*
 * The device to use: MAGNUS_DEVICE if set (a device spec, above; its errors are prefixed
 * "MAGNUS_DEVICE: "), else the best device (GPUs before CPUs, then backend order, then the
 * largest local memory). MAGNUS_ERROR_NO_DEVICE if none.
 */
MAGNUS_API magnus_status magnus_device_select(magnus_device_info *out);
/* Probes and gives the device `spec` names, ignoring MAGNUS_DEVICE (a program's own choice,
 * e.g. from its command line). A malformed spec fails before anything is probed. */
MAGNUS_API magnus_status magnus_device_find(magnus_device_info *out, const char *spec);
/* The same over a given list without probing: *index is the position in devices[0..count)
 * of the device `spec` names (backend order is the order in which backends first appear in
 * the list, as a probe lists them). With count 0 it checks only the spec's syntax:
 * MAGNUS_ERROR_INVALID_ARGUMENT if malformed, else MAGNUS_ERROR_NO_DEVICE. */
MAGNUS_API magnus_status magnus_device_match(size_t *index, const magnus_device_info *devices,
                                             size_t count, const char *spec);

typedef struct magnus_context_s magnus_context_s, *magnus_context;

typedef struct magnus_context_options {
    uint64_t local_mem_bytes;     /* budget per work group, up to the device's local memory
                                     (its probed local_mem_bytes asks for all of it); 0:
                                     MAGNUS_LOCAL_MEM_BYTES if set, else min(device, 48 KiB),
                                     a measured tuning choice (more, smaller work groups per
                                     SM ran faster on the H200; docs/performance.md). A budget
                                     set here or in MAGNUS_LOCAL_MEM_BYTES bounds every launch;
                                     with neither, the hash accumulator's dense rows may use
                                     the device's whole local memory (MAGNUS_DENSE_ROWS=0: off) */
    uint64_t device_memory_limit; /* 0: none; else refuse allocations beyond it
                                     (MAGNUS_DEVICE_MEMORY_LIMIT overrides when this is 0) */
    /* Tuning knobs, for measurements (docs/performance.md). magnus_context_create reads the
     * environment variable once, when the option is 0; multiplies on the context use the
     * value then in effect. A bad value (option or variable) fails the creation with
     * MAGNUS_ERROR_INVALID_ARGUMENT. */
    uint64_t hash_group_max;      /* most work items per hash table: a power of two from 8 to
                                     the device's work-group limit; 0: MAGNUS_HASH_GROUP_MAX if
                                     set, else 256 (1024 through CUDA) */
    int64_t dense_min_elements;   /* gMAGNUS: the last level's chunks with more elements go to
                                     the dense accumulator (>= 1; values above tau mean tau);
                                     0: MAGNUS_DENSE_MIN_ELEMENTS if set, else
                                     min(tau, dense width / 16) */
    uint64_t multisplit_group;    /* gMAGNUS: work items of a histogram / multisplit group, a
                                     power of two from 8 to the device's limit (fewer where
                                     tau is smaller; 1024 is the paper's); 0:
                                     MAGNUS_MULTISPLIT_GROUP if set, else 256 (measured
                                     faster on the H200, docs/performance.md) */
    /* Told when the context must compile kernels rather than load them (a cold PoCL cache
     * takes tens of seconds): build_progress(user, 0, what) before the build starts and
     * (user, 1, what) after it, `what` naming the kernels, the device and where the result
     * is cached ("building the float32 kernels for pthread-... (first use; cached in
     * /home/u/.cache/magnus)"; "not cached" when the cache cannot keep it). Before those, a
     * warning when the kernel cache cannot be written (MAGNUS_CACHE_DIR naming a file or a
     * read-only place): build_progress(user, -1, warning), `warning` naming the directory and
     * the system's reason; the build goes on. Not called for kernels loaded from a cache or
     * a prebuilt binary (CUDA's embedded cubins). NULL: nothing is told; the return value is
     * ignored. */
    magnus_progress_fn build_progress;
    void *build_progress_user;
    /* gMAGNUS: the most bytes of C-hat (the heavy rows' expanded products) one batch may
     * hold. A product whose products would take more (products x (4 + value bytes), an upper
     * bound of C-hat) is multiplied in that many row blocks of about equal products, whose
     * results are stacked into C: the peak is then one block's C-hat plus C, and while they
     * are stacked 1.5 times C (float32; 1.67 in float64), instead of the whole C-hat plus C
     * (docs/performance.md, "Heavy rows in batches"). The report's `batches` says how many
     * ran.
     * 0: MAGNUS_CHAT_BATCH_BYTES if set (a size: 512M, 16G, ...), else an eighth of the
     * device's memory (of device_memory_limit when one is set). */
    uint64_t chat_batch_bytes;
} magnus_context_options;

MAGNUS_API magnus_status magnus_context_options_init(magnus_context_options *opt);
/* A context on `device` (NULL: magnus_device_select()); opt may be NULL for defaults. */
MAGNUS_API magnus_status magnus_context_create(magnus_context *ctx, const magnus_device_info *device,
                                               const magnus_context_options *opt);
MAGNUS_API magnus_status magnus_context_free(magnus_context *ctx);
/* Gives back to the device the memory the context keeps between multiplies for reuse (freed
 * blocks of up to 64 MiB; larger ones, up to a quarter of the device's memory, on backends
 * whose allocator keeps nothing itself; through CUDA the stream-ordered pool's mapped memory), e.g.
 * before other code in the process needs the device's memory. Waits for the context's
 * queued work. The kept memory counts in every report's peak and against the context's
 * memory limit, and is given back by itself when an allocation would fail without it. */
MAGNUS_API magnus_status magnus_context_trim(magnus_context ctx);
/* The device the context runs on, with local_mem_bytes set to the budget in effect (the
 * probe's magnus_device_info has the device's maximum). */
MAGNUS_API magnus_status magnus_context_device(magnus_device_info *out, const magnus_context_s *ctx);

/* ------------------------------------------------------------------------------------------
 * SpGEMM on a device
 * ------------------------------------------------------------------------------------------ */
typedef enum magnus_algorithm {
    MAGNUS_ALGORITHM_MAGNUS = 0, /* gMAGNUS: light rows hashed, heavy rows expanded, reordered
                                    by column range and accumulated densely in local memory */
    MAGNUS_ALGORITHM_HASH = 1,   /* OpSparse-style binned hash Gustavson; rows too large for
                                    local memory use a global-memory table */
    MAGNUS_ALGORITHM_AUTO = 2    /* the default: one of the two per product, by the rule of
                                    docs/performance.md "The method per input" (measured on the
                                    H200): the hash algorithm when the rows its local tables
                                    cannot hold carry less than
                                    MAGNUS_AUTO_HASH_MAX_LONG_SHARE of the products: the share
                                    of rows of more products than its symbolic tables hold
                                    (auto_long_row_products) plus MAGNUS_AUTO_OVERFLOW_WEIGHT
                                    times that of rows of fewer products but more entries than
                                    its numeric tables hold (auto_numeric_row_nnz; estimated
                                    from MAGNUS_AUTO_OVERFLOW_SAMPLES rows drawn by products),
                                    else gMAGNUS. The report says which ran and why. */
} magnus_algorithm;
/* AUTO's threshold (a fraction of the products) */
#define MAGNUS_AUTO_HASH_MAX_LONG_SHARE 0.25
/* AUTO's sample of rows for the overflow share (its standard error at a share of 0.25 is
 * about 0.02) */
#define MAGNUS_AUTO_OVERFLOW_SAMPLES 512
/* AUTO's weight of the overflow share: such rows merge at most 3 products per entry (at most
 * auto_long_row_products products, more than a third as many entries), the inputs gMAGNUS
 * expands cheaply, while the hash algorithm fills them in global tables */
#define MAGNUS_AUTO_OVERFLOW_WEIGHT 2
/* "auto", "magnus" or "hash" (static text; NULL for another value). */
MAGNUS_API const char *magnus_algorithm_name(magnus_algorithm algorithm);

typedef struct magnus_spgemm_options {
    magnus_algorithm algorithm;  /* MAGNUS_ALGORITHM_AUTO from magnus_spgemm_options_init (and
                                    for NULL options); MAGNUS or HASH forces one, for studies */
    magnus_progress_fn progress; /* may be NULL. Told "upload", "multiply", "download", "done"
                                    (magnus_spgemm; the device entry point "multiply" and
                                    "done"), and "multiply: row block I of K" before each of
                                    gMAGNUS's row blocks (chat_batch_bytes); returning 0
                                    stops the work with MAGNUS_ERROR_CANCELLED */
    void *progress_user;
    double alpha;                /* C = alpha * A.B (1 from magnus_spgemm_options_init; NULL
                                    options mean 1): C's values, computed in the value type, are
                                    multiplied by alpha rounded to that type (alpha = 0 keeps
                                    C's structure, with zeros). Must be finite, else
                                    MAGNUS_ERROR_INVALID_ARGUMENT. */
} magnus_spgemm_options;
MAGNUS_API magnus_status magnus_spgemm_options_init(magnus_spgemm_options *opt);

#define MAGNUS_MAX_LEVELS 8
/* Filled by every multiply: where the time went and what the parameters were. Times in ms.
 * Its fields, their types and meanings are listed once in magnus_report_fields.h
 * (MAGNUS_REPORT_FIELDS): algorithm, algorithm_requested, algorithm_reason, the AUTO choice's
 * auto_* and time_choice_ms, the phase times time_*_ms, gMAGNUS's parameters (tau,
 * heavy_row_products, levels, chunks_*), the sizes (rows_*, products_*, nnz_c) and the
 * memory (chat_bytes, peak_device_bytes, reserved_device_bytes, ...). */
typedef struct magnus_report {
    MAGNUS_REPORT_FIELDS(MAGNUS_REPORT_MEMBER)
} magnus_report;

/*
 * C = A·B on the context's device. A and B are validated (magnus_csr_validate) and must have
 * the same value type; C gets it too. report and opt may be NULL. *C is an output only (see
 * the conventions at the top): set to NULL first, then to a new matrix; a matrix *C held
 * before is neither read nor freed, so `magnus_spgemm(&C, ...)` in a loop must free C between
 * calls. On failure *C is NULL. A product whose C cannot fit the device's memory (or the
 * context's device_memory_limit) beside what is in use fails before any phase runs, with
 * MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY naming C and the bytes it needs at least: a lower bound,
 * each row of C holding every column of the B rows its A row selects, so a product that fits
 * is never refused (magnus_spgemm_device and magnus_spgemm_plan_create alike).
 */
MAGNUS_API magnus_status magnus_spgemm(magnus_csr *C, magnus_context ctx, const magnus_csr_s *A,
                                       const magnus_csr_s *B, const magnus_spgemm_options *opt,
                                       magnus_report *report);

/* Device-resident matrices: upload once, multiply many times, download when asked. */
typedef struct magnus_device_csr_s *magnus_device_csr;
MAGNUS_API magnus_status magnus_device_csr_upload(magnus_device_csr *out, magnus_context ctx,
                                                  const magnus_csr_s *A);
/* A new host matrix with dA's contents. Its arrays are fresh memory: from 16 MiB on, up to 8
 * threads (MAGNUS_HOST_THREADS) fault in their pages before the copy, which otherwise takes
 * each page fault in turn (5x faster for 650 MB on the H200's host). */
MAGNUS_API magnus_status magnus_device_csr_download(magnus_csr *out, const magnus_device_csr dA);
MAGNUS_API magnus_status magnus_device_csr_free(magnus_device_csr *dA);
/* Shape and nnz of a device matrix (any output may be NULL). */
MAGNUS_API magnus_status magnus_device_csr_shape(int64_t *rows, int64_t *cols, int64_t *nnz,
                                                 const magnus_device_csr dA);
MAGNUS_API magnus_status magnus_spgemm_device(magnus_device_csr *C, magnus_context ctx,
                                              const magnus_device_csr A, const magnus_device_csr B,
                                              const magnus_spgemm_options *opt,
                                              magnus_report *report);

/* ------------------------------------------------------------------------------------------
 * SpGEMM plans: symbolic once, numeric many (C = alpha·A·B for A and B of one structure and
 * changing values)
 * ------------------------------------------------------------------------------------------ */
typedef struct magnus_spgemm_plan_s *magnus_spgemm_plan;

/*
 * A plan for C = alpha·A·B made from device matrices A and B of the context (they may be the
 * same matrix). It keeps the operands' shapes, value type and structure fingerprints,
 * opt->alpha (opt may be NULL: alpha 1), C's structure and what its numeric phase needs. A and
 * B are not kept: they may be freed after. Two kinds (magnus_spgemm_plan_info.positions says
 * which was made; the reports' algorithm_reason says why):
 *   - product positions (the default): create runs a whole multiply with opt->algorithm (AUTO,
 *     the default, picks one) and keeps C's row pointers and columns and, for every product
 *     a_ik·b_kj of A·B, the index of C's entry it adds to: about 4 bytes per product, 8 per
 *     entry of A and 4 per entry of C (its columns). An execution zeroes C's values and adds each product
 *     into its entry: one pass over the products, no symbolic work. The additions into one
 *     entry are float atomics, so their order (and the last bits of a sum) may vary between
 *     executions. The reports name the algorithm that made the structure.
 *   - hash numeric phase: create runs the hash algorithm's symbolic phase (or keeps the
 *     multiply's row pointers) and keeps C's row pointers only (rows+1 int64); an execution
 *     runs the hash algorithm's numeric phase (the reports say MAGNUS_ALGORITHM_HASH). Made
 *     when the environment sets MAGNUS_PLAN_POSITIONS=0, when nnz(C) reaches 2^32 (positions
 *     are 32-bit) or when the positions find no device memory (the context's limit included).
 * opt->progress is not called. Errors as magnus_spgemm_device. A plan must be freed before its
 * context; one thread at a time.
 *
 * The structure check: a 64-bit fingerprint of rows, cols, nnz, row_ptr and col_idx (not the
 * values), computed on the host when the matrix is uploaded with magnus_device_csr_upload, on
 * the device by magnus_device_csr_wrap, else (a matrix made on the device, e.g. an earlier C)
 * once on the device.
 * Equal structures always pass; a different structure is refused but for a chance of about
 * 2^-64 that its fingerprint collides.
 */
MAGNUS_API magnus_status magnus_spgemm_plan_create(magnus_spgemm_plan *plan, magnus_context ctx,
                                                   const magnus_device_csr A,
                                                   const magnus_device_csr B,
                                                   const magnus_spgemm_options *opt);
/*
 * C = alpha·A·B by the numeric phase only, for A and B with the structures the plan was made
 * for and any values (other matrices than the plan's, e.g. uploaded anew). *C is a new device
 * matrix (an output only, as in magnus_spgemm). Refused: shapes other than the plan's
 * (MAGNUS_ERROR_DIMENSION_MISMATCH), another value type (MAGNUS_ERROR_UNSUPPORTED_TYPE),
 * another nnz or structure (MAGNUS_ERROR_INVALID_ARGUMENT, the detail naming the operand),
 * matrices of another context (MAGNUS_ERROR_INVALID_HANDLE). report may be NULL; it gets the
 * numeric phase's times, nnz_c and the peak device memory (the plan's buffers included).
 */
MAGNUS_API magnus_status magnus_spgemm_plan_execute(magnus_device_csr *C,
                                                    const magnus_spgemm_plan plan,
                                                    const magnus_device_csr A,
                                                    const magnus_device_csr B,
                                                    magnus_report *report);
/* The same into an existing device matrix C of the plan's shape, value type and nnz (e.g.
 * the C of an earlier execution, or one wrapped over the caller's buffers with
 * magnus_device_csr_wrap, which then receive the product: zero-copy output; a wrap validates
 * the buffers' structure, so they must hold a valid one first, e.g. an earlier C's), whose
 * row pointers, columns and values are overwritten; nothing is allocated for C. Refused as above, and: C of another shape
 * (MAGNUS_ERROR_DIMENSION_MISMATCH), type (MAGNUS_ERROR_UNSUPPORTED_TYPE) or nnz, or C one of
 * the operands (MAGNUS_ERROR_INVALID_ARGUMENT). After a failure C's contents are undefined. */
MAGNUS_API magnus_status magnus_spgemm_plan_execute_into(magnus_device_csr C,
                                                         const magnus_spgemm_plan plan,
                                                         const magnus_device_csr A,
                                                         const magnus_device_csr B,
                                                         magnus_report *report);
/* Overwrites the values of device matrix dA with nnz values of `type` from host memory (nnz
 * and type must be dA's: MAGNUS_ERROR_INVALID_ARGUMENT / MAGNUS_ERROR_UNSUPPORTED_TYPE; values
 * may be NULL only when nnz is 0). The structure, and so its fingerprint, stays: the way to
 * feed a plan new values without uploading the structure again. Blocking. */
MAGNUS_API magnus_status magnus_device_csr_write_values(magnus_device_csr dA, const void *values,
                                                        int64_t nnz, magnus_value_type type);
/* What a plan holds. */
typedef struct magnus_spgemm_plan_info {
    int64_t rows, cols, nnz;     /* C's shape and entries */
    magnus_value_type type;
    magnus_algorithm algorithm;  /* what made C's structure (HASH for the hash kind) */
    double alpha;
    uint64_t device_bytes;       /* device memory the plan holds between executions */
    magnus_report symbolic;      /* create's report (its multiply or symbolic phase, peak) */
    uint64_t positions;          /* products whose positions the plan keeps; 0: hash kind */
} magnus_spgemm_plan_info;
MAGNUS_API magnus_status magnus_spgemm_plan_info_get(magnus_spgemm_plan_info *out,
                                                     const magnus_spgemm_plan plan);
/* Frees the plan's device memory and the plan; NULL or *plan == NULL is a no-op. */
MAGNUS_API magnus_status magnus_spgemm_plan_free(magnus_spgemm_plan *plan);

/* ------------------------------------------------------------------------------------------
 * Foreign device buffers: matrices whose arrays another library allocated (zero-copy input)
 * ------------------------------------------------------------------------------------------ */
/* The context's native handles, to allocate buffers magnus can wrap: OpenCL: context is the
 * cl_context and device the cl_device_id; CUDA: the device's primary context (CUcontext, which
 * CUDA runtime libraries such as CuPy use too) and the CUdevice ordinal cast to a pointer;
 * Level Zero: ze_context_handle_t and ze_device_handle_t. */
typedef struct magnus_native_handles {
    magnus_backend_kind backend;
    void *context;
    void *device;
} magnus_native_handles;
MAGNUS_API magnus_status magnus_context_native(magnus_native_handles *out,
                                               const magnus_context_s *ctx);
/*
 * A device matrix over the caller's device buffers, without copying them: row_ptr (rows+1
 * int64), col_idx (nnz int32) and values (nnz of `type`), each the backend's native buffer:
 * an OpenCL cl_mem of the context's cl_context (retained while wrapped; one of another context
 * or smaller than its array is refused with MAGNUS_ERROR_INVALID_ARGUMENT), a CUDA device
 * pointer (CUdeviceptr cast to void *), a Level Zero device USM pointer (those two are taken
 * as given). col_idx and values may be NULL when nnz is 0. The structure is validated on the
 * device as magnus_csr_validate does (its status and message for the first broken rule, the
 * detail prefixed "wrapped matrix: ") and fingerprinted for plans, in one pass over row_ptr
 * and col_idx of which a few bytes come back (blocking); the values are not read.
 * Use it as any device matrix (an operand of magnus_spgemm_device and plans, download,
 * magnus_device_csr_write_values, which then writes into the caller's buffer);
 * magnus_device_csr_free drops the wrapper and leaves the buffers to their owner, who must
 * keep them alive, and not change the structure, until then. Wrapped buffers are not counted
 * in the context's memory in use or a report's peak.
 */
MAGNUS_API magnus_status magnus_device_csr_wrap(magnus_device_csr *out, magnus_context ctx,
                                                int64_t rows, int64_t cols, int64_t nnz,
                                                magnus_value_type type, void *row_ptr,
                                                void *col_idx, void *values);
/*
 * The other direction (zero-copy output to another library): the backend-native handles of a
 * device matrix's three arrays, as magnus_device_csr_wrap takes them: row_ptr (rows+1 int64),
 * col_idx (nnz int32) and values (nnz of `type`), each a CUDA device pointer (CUdeviceptr cast
 * to void *, of the device's primary context: magnus_context_native), an OpenCL cl_mem of the
 * context's cl_context (not retained for the caller) or a Level Zero device USM pointer; each
 * array starts at offset 0 of its handle, and with nnz 0 col_idx and values are live one-byte
 * placeholders. On CUDA a buffer may come from magnus's stream-ordered memory pool: it is an
 * ordinary device pointer of the device, usable by any CUDA code there (CuPy's included).
 * Works for any live device matrix: uploaded, a product, or a wrap (whose handles are the
 * caller's own).
 *
 * Lifetime: the buffers stay owned by dA and valid until magnus_device_csr_free(&dA); the
 * caller must not free or release them. The matrix is complete when the call that made it
 * returned (magnus's queues are idle between public calls), so another library may read it at
 * once. magnus frees a matrix's buffers stream-ordered on its own queues only, and may hand
 * them to its next allocation: work of another library (another stream or queue) that uses
 * them must be complete (synchronised) before dA is freed. As with a wrap, the caller may
 * write the values; the structure must not change while magnus holds dA (plans check a
 * fingerprint taken once). Errors: out NULL (MAGNUS_ERROR_NULL_POINTER), dA NULL
 * (MAGNUS_ERROR_NULL_POINTER) or freed (MAGNUS_ERROR_INVALID_HANDLE); *out is zeroed first.
 */
typedef struct magnus_device_csr_buffers {
    magnus_backend_kind backend;
    int64_t rows, cols, nnz;
    magnus_value_type type;
    void *row_ptr;
    void *col_idx;
    void *values;
} magnus_device_csr_buffers;
MAGNUS_API magnus_status magnus_device_csr_native(magnus_device_csr_buffers *out,
                                                  const magnus_device_csr dA);

/* ------------------------------------------------------------------------------------------
 * gMAGNUS parameters (paper's §III-D, Tables V and VI): what a multiply chooses for a device
 * and an input, without multiplying. The budget per work group is the device's local_mem_bytes
 * as given: pass magnus_context_device() for the budget a multiply on that context uses (by
 * default min(device, 48 KiB)); a probed device's local_mem_bytes is its whole local memory.
 * ------------------------------------------------------------------------------------------ */
typedef struct magnus_gmagnus_params {
    uint64_t local_mem_bytes;    /* sLM: local memory budget of one work group */
    size_t value_bytes;          /* 4 (float32) or 8 (float64) */
    int64_t c_cols;              /* C.m: columns of C */
    int64_t tau;                 /* rows and chunks with more products are heavy */
    int64_t ndense_numeric;      /* columns a dense accumulator holds: sLM / (sval + 1/8) */
    int64_t dense_width;         /* columns of the last level's chunks (a power of two) */
    int64_t chunks_required;     /* chunks per heavy row after the last level (power of 2) */
    int64_t chunks_max;          /* most chunks one multisplit pass can make (power of 2) */
    int levels;                  /* multisplit levels (0: heavy rows need no split) */
    int64_t chunks_per_level[MAGNUS_MAX_LEVELS]; /* product over levels = chunks_required */
    int64_t chunk_width[MAGNUS_MAX_LEVELS];      /* columns per chunk after level i */
    int column_bits, dense_bits; /* ceil(log2 C.m), log2 dense_width */
    int64_t outer_group_elems;   /* flattened elements per outer-product work group */
    int64_t multisplit_group_elems[MAGNUS_MAX_LEVELS]; /* per histogram/multisplit group */
    int group_rows;              /* rows of C-hat one multisplit group touches (2) */
    int multisplit_group_size, subgroup_size, subgroups; /* subgroups: local histograms */
    int outer_group_size, dense_group_size;
    /* The last level's chunks with more elements than this go to the dense accumulator, the
     * others to the hash accumulator: by default min(tau, dense_width / 16) (the paper's rule
     * is tau, only heavy chunks dense; a sixteenth of the dense width ran 8-21 % faster on the
     * H200, docs/performance.md, "Dense threshold from the chunk width"), else the context's
     * dense_min_elements or MAGNUS_DENSE_MIN_ELEMENTS (an integer >= 1; values above tau mean
     * tau), a tuning knob. */
    int64_t dense_min_elements;
} magnus_gmagnus_params;

/* The parameters for `device` (its local_mem_bytes is the budget) and C with c_cols columns,
 * with MAGNUS_DENSE_MIN_ELEMENTS (read now) applied as a multiply applies a context's
 * dense_min_elements (which the context read from it at creation unless its options set it).
 * MAGNUS_ERROR_INVALID_ARGUMENT when the budget is too small for gMAGNUS or
 * MAGNUS_DENSE_MIN_ELEMENTS is not an integer >= 1. */
MAGNUS_API magnus_status magnus_gmagnus_params_compute(magnus_gmagnus_params *out,
                                                       const magnus_device_info *device,
                                                       int64_t c_cols, magnus_value_type type);

/* The parameters plus the heavy/light split of A·B (the columns of the paper's Table V). */
typedef struct magnus_gmagnus_plan {
    magnus_gmagnus_params params;
    int64_t rows, rows_heavy;         /* rows of A (= of C), rows with more than tau products */
    int64_t products, products_heavy; /* intermediate products, those of heavy rows */
    uint64_t chat_bytes;              /* C-hat: heavy products x (column + value) + row ptr
                                         (0 without heavy rows) */
} magnus_gmagnus_plan;
/* Computed on the host from A and B (validated, same value type, A.cols == B.rows). */
MAGNUS_API magnus_status magnus_gmagnus_plan_compute(magnus_gmagnus_plan *out,
                                                     const magnus_device_info *device,
                                                     const magnus_csr_s *A, const magnus_csr_s *B);

/* ------------------------------------------------------------------------------------------
 * The hash accumulator's parameters (docs/algorithm.md): how the local memory of a work group
 * is cut into hash tables, for the hash algorithm's rows and gMAGNUS's light rows and chunks,
 * without a context, so for a device that is only described (`magnus params --describe`).
 * ------------------------------------------------------------------------------------------ */
typedef struct magnus_hash_params {
    uint64_t local_mem_bytes;        /* the budget per work group a context would use */
    uint64_t device_local_mem_bytes; /* the device's own local memory per work group */
    uint32_t group_max;              /* most work items sharing one table */
    int wide_bins;                   /* items past the budget get local tables up to the
                                        device's local memory (MAGNUS_HASH_WIDE_BINS=1) */
    int symbolic_bins, numeric_bins; /* local table sizes, one bin each */
    uint32_t symbolic_table_max, numeric_table_max; /* slots of the largest local table */
    int64_t symbolic_products;       /* most products of a row (or chunk) counted in a local
                                        table; more: a global-memory table */
    int64_t numeric_entries;         /* most entries of a row (or chunk) summed in a local
                                        table; more: a global-memory table */
    int64_t dense_row_columns;       /* rows of a C at most this wide that no local table
                                        holds are accumulated in a local dense array (0: none) */
} magnus_hash_params;
/* The parameters a context on `device` (as probed or described: its local_mem_bytes is the
 * device's whole local memory) with options `opt` (NULL: defaults; the environment applies as
 * at context creation) would use for values of `type`. MAGNUS_ERROR_INVALID_ARGUMENT for a
 * budget above the device's or a bad knob, MAGNUS_ERROR_UNSUPPORTED_TYPE for a bad type. */
MAGNUS_API magnus_status magnus_hash_params_compute(magnus_hash_params *out,
                                                    const magnus_device_info *device,
                                                    const magnus_context_options *opt,
                                                    magnus_value_type type);

/* ------------------------------------------------------------------------------------------
 * SpMV on a device: y = alpha*A*x + beta*y (docs/algorithm.md §9; Anzt, Chow and Dongarra,
 * "Load-balancing sparse matrix vector product kernels on GPUs", TOPC 2020)
 * ------------------------------------------------------------------------------------------ */
/* A dense vector in device memory of a context, float32 or float64. Freed before its
 * context. */
typedef struct magnus_device_vector_s *magnus_device_vector;
/* New vector of `length` (0 .. INT32_MAX) values of `type` copied from host (length values
 * of that type; may be NULL only when length is 0). */
MAGNUS_API magnus_status magnus_device_vector_upload(magnus_device_vector *out, magnus_context ctx,
                                                     magnus_value_type type, int64_t length,
                                                     const void *host);
/* New vector of `length` zeros. */
MAGNUS_API magnus_status magnus_device_vector_zeros(magnus_device_vector *out, magnus_context ctx,
                                                    magnus_value_type type, int64_t length);
/* Copies the vector into host (room for `length` values of its type; length must be the
 * vector's: MAGNUS_ERROR_DIMENSION_MISMATCH otherwise). Waits for the device. */
MAGNUS_API magnus_status magnus_device_vector_download(void *host, int64_t length,
                                                       const magnus_device_vector v);
/* Length and value type (either output may be NULL). */
MAGNUS_API magnus_status magnus_device_vector_info(int64_t *length, magnus_value_type *type,
                                                   const magnus_device_vector v);
MAGNUS_API magnus_status magnus_device_vector_free(magnus_device_vector *v);

typedef enum magnus_spmv_format {
    MAGNUS_SPMV_AUTO = 0,         /* chosen from the row lengths (magnus_spmv_options) */
    MAGNUS_SPMV_CSR = 1,          /* the CSR as it is: lanes per row from the mean row length */
    MAGNUS_SPMV_CSR_BALANCED = 2, /* merge-path CSR: row ends + nonzeros split evenly */
    MAGNUS_SPMV_COO = 3,          /* row indices made on the device, nonzeros split evenly */
    MAGNUS_SPMV_HYBRID = 4,       /* ELL of a width from the row lengths + COO for the rest */
    MAGNUS_SPMV_SELL_P = 5        /* sliced ELL, slice widths padded to a stride */
} magnus_spmv_format;
/* "auto", "csr", "csr-balanced", "coo", "hybrid", "sellp"; "?" for another value. A constant
 * query: it leaves magnus_last_error() as it was. */
MAGNUS_API const char *magnus_spmv_format_name(magnus_spmv_format format);

typedef struct magnus_spmv_options {
    magnus_spmv_format format;
    /* AUTO's rule (from H200 measurements; docs/algorithm.md §9): CSR_BALANCED when the
     * longest row is more than max(64, 8 x the mean row length) (one group of lanes would work
     * far longer than the others); otherwise HYBRID for a plan (magnus_spmv_plan_create: its
     * conversion pays off over repeated products) and CSR for a one-shot magnus_spmv. */
    int64_t sellp_slice;        /* SELL-P rows per slice, 1..1024; 0: 32 */
    int64_t sellp_stride;       /* SELL-P slice widths are multiples of it, 1..1024; 0: 4 */
    int64_t hybrid_width;       /* ELL width of HYBRID, 0..1024; -1 (the default): the rule
                                   of docs/algorithm.md §9 (the width at least a third of
                                   the rows reach, after Bell and Garland) */
} magnus_spmv_options;
MAGNUS_API magnus_status magnus_spmv_options_init(magnus_spmv_options *opt);

/* Filled by the SpMV calls. Times in ms, measured with device events. */
typedef struct magnus_spmv_report {
    magnus_spmv_format format;  /* the format that ran (AUTO resolved) */
    double conversion_ms;       /* analysis (AUTO, HYBRID's width) and conversion on the
                                   device; 0 for a plan already converted */
    double product_ms;          /* the product alone */
    uint64_t floor_bytes;       /* the least traffic of any SpMV of this A: A's CSR (row
                                   pointers, columns, values), x, y written, and y read when
                                   beta != 0; GB/s = floor_bytes / product time */
    uint64_t format_bytes;      /* device bytes of the converted matrix (0 for CSR formats) */
    int64_t lanes;              /* CSR: work items per row */
    int64_t ell_width;          /* HYBRID: ELL width; SELL_P: the widest slice */
    int64_t coo_entries;        /* HYBRID: entries in its COO part; COO: nnz */
    int64_t groups;             /* CSR_BALANCED / COO: work-group segments of the split */
} magnus_spmv_report;

/* A converted matrix for repeated products: made once, used by magnus_spmv_plan_execute.
 * It refers to A, which must outlive it (and not change). */
typedef struct magnus_spmv_plan_s *magnus_spmv_plan;
MAGNUS_API magnus_status magnus_spmv_plan_create(magnus_spmv_plan *out, magnus_context ctx,
                                                 const magnus_device_csr A,
                                                 const magnus_spmv_options *opt,
                                                 magnus_spmv_report *report);
/* y = alpha*A*x + beta*y with the plan's matrix. x has A.cols values, y A.rows, both of A's
 * value type (else MAGNUS_ERROR_UNSUPPORTED_TYPE; lengths: MAGNUS_ERROR_DIMENSION_MISMATCH).
 * beta == 0 does not read y (NaN in y does not reach the result); alpha == 0 does not read A
 * or x. x and y must be different vectors. Values are summed in the value type. report may be
 * NULL. */
MAGNUS_API magnus_status magnus_spmv_plan_execute(magnus_spmv_plan plan, magnus_device_vector y,
                                                  double alpha, const magnus_device_vector x,
                                                  double beta, magnus_spmv_report *report);
MAGNUS_API magnus_status magnus_spmv_plan_free(magnus_spmv_plan *plan);
/* One product: plan, execute, free (the report has both times). */
MAGNUS_API magnus_status magnus_spmv(magnus_context ctx, magnus_device_vector y, double alpha,
                                     const magnus_device_csr A, const magnus_device_vector x,
                                     double beta, const magnus_spmv_options *opt,
                                     magnus_spmv_report *report);
/* The same from the host: A validated and uploaded, x (A.cols values) and y (A.rows values,
 * overwritten with the result; read only when beta != 0) of A's value type. */
MAGNUS_API magnus_status magnus_spmv_host(void *y, magnus_context ctx, double alpha,
                                          const magnus_csr_s *A, const void *x, double beta,
                                          const magnus_spmv_options *opt,
                                          magnus_spmv_report *report);

/* ------------------------------------------------------------------------------------------
 * Benchmark support (`magnus bench`)
 * ------------------------------------------------------------------------------------------ */
/*
 * Device-to-device copy bandwidth of the context's device in GB/s (10^9 bytes per second),
 * counting bytes read plus bytes written: two buffers of `bytes` (rounded down to whole 8-byte
 * words; at least 4096) are filled, one copy warms up, then `repetitions` (1..1000) copies are
 * timed with device events and the median is used. The measure of a kernel's "speed of
 * light": its minimum traffic divided by this rate. Needs 2 x bytes of device memory
 * (MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY otherwise); waits for the device before returning.
 */
MAGNUS_API magnus_status magnus_device_copy_bandwidth(double *gb_per_s, magnus_context ctx,
                                                      uint64_t bytes, int repetitions);

#ifdef __cplusplus
}
#endif
#endif /* MAGNUS_MAGNUS_H */

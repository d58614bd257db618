/*
 * Host-side work: Matrix Market I/O, the CPU reference, matrix generators.
 * Part of the public API: include <magnus/magnus.h>, which includes every part; the conventions
 * (outputs first, magnus_X_free, magnus_last_error, thread safety) are stated there.
 */
#ifndef MAGNUS_HOST_H
#define MAGNUS_HOST_H

#include "magnus_core.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif
#endif /* MAGNUS_HOST_H */

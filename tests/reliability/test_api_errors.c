/*
 * Every public entry point rejects bad input with its own status and a detail message, and
 * never reads what it was not given.
 *
 * The core is a table: each public function that takes a host matrix is called with every
 * kind of broken matrix (NULL, freed, foreign, unsupported type, each invalid-CSR case, NULL
 * arrays, impossible sizes) in every operand position, and must answer with the status that
 * the broken matrix calls for (magnus_csr_validate's, for content), a non-empty message, and
 * a NULL output. The broken matrices are built so that reading past what they claim is an
 * out-of-bounds read the sanitizer build reports. Then NULL outputs, shapes and value types
 * that do not fit, sizes whose products overflow, device handles, and how NaN, Inf and
 * explicit zeros go through a product (IEEE rules; an entry is never dropped for its value).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "context_test_util.h"
#include "device_runtime.h"

/* ---- a valid matrix and its broken variants ------------------------------------------------ */

/* 4 x 5, rows {0,2}, {}, {1,3,4}, {0}: nnz 6. */
#define M_ROWS 4
#define M_COLS 5
#define M_NNZ 6

typedef struct broken {
    magnus_csr_s m;
    int64_t row_ptr[M_ROWS + 1];
    int32_t col_idx[M_NNZ];
    double values[M_NNZ];
} broken;

static void make_valid(broken *b) {
    static const int64_t rp[M_ROWS + 1] = {0, 2, 2, 5, 6};
    static const int32_t ci[M_NNZ] = {0, 2, 1, 3, 4, 0};
    memset(b, 0, sizeof *b);
    memcpy(b->row_ptr, rp, sizeof rp);
    memcpy(b->col_idx, ci, sizeof ci);
    for (int k = 0; k < M_NNZ; k++) b->values[k] = 1.0 + k;
    b->m.magic = MAGNUS_MAGIC_CSR;
    b->m.rows = M_ROWS;
    b->m.cols = M_COLS;
    b->m.nnz = M_NNZ;
    b->m.type = MAGNUS_FLOAT64;
    b->m.row_ptr = b->row_ptr;
    b->m.col_idx = b->col_idx;
    b->m.values = b->values;
}

typedef enum corruption {
    C_NULL_HANDLE,
    C_FREED,
    C_FOREIGN,
    C_BAD_TYPE,
    C_ROWPTR0,
    C_NOT_MONOTONE,
    C_ROWPTR_PAST_NNZ,   /* a middle row pointer beyond nnz: reading it would overrun */
    C_ROWPTR_LAST_BIG,   /* row_ptr[rows] > nnz */
    C_ROWPTR_LAST_SMALL, /* row_ptr[rows] < nnz */
    C_COL_TOO_BIG,
    C_COL_NEGATIVE,
    C_UNSORTED,
    C_DUPLICATE,
    C_NULL_ROWPTR,
    C_NULL_COLS,
    C_NULL_VALUES,
    C_NEGATIVE_NNZ,
    C_COUNT
} corruption;

static const char *const corruption_names[C_COUNT] = {
    "NULL handle", "freed handle", "foreign handle", "value type 7", "row_ptr[0] = 1",
    "row pointers not monotone", "row pointer past nnz", "row_ptr[rows] > nnz",
    "row_ptr[rows] < nnz", "column == cols", "column -1", "unsorted columns",
    "duplicate column", "row_ptr NULL", "col_idx NULL", "values NULL", "nnz -1"};

/* The status every validating entry point must give. */
static const magnus_status corruption_status[C_COUNT] = {
    MAGNUS_ERROR_NULL_POINTER,        MAGNUS_ERROR_INVALID_HANDLE,
    MAGNUS_ERROR_INVALID_HANDLE,      MAGNUS_ERROR_UNSUPPORTED_TYPE,
    MAGNUS_ERROR_ROWPTR_INVALID,      MAGNUS_ERROR_ROWPTR_NOT_MONOTONE,
    MAGNUS_ERROR_ROWPTR_INVALID,      MAGNUS_ERROR_ROWPTR_INVALID,
    MAGNUS_ERROR_ROWPTR_INVALID,      MAGNUS_ERROR_COLUMN_OUT_OF_RANGE,
    MAGNUS_ERROR_COLUMN_OUT_OF_RANGE, MAGNUS_ERROR_COLUMNS_UNSORTED,
    MAGNUS_ERROR_DUPLICATE_COLUMN,    MAGNUS_ERROR_NULL_POINTER,
    MAGNUS_ERROR_NULL_POINTER,        MAGNUS_ERROR_NULL_POINTER,
    MAGNUS_ERROR_INVALID_ARGUMENT};

/*
 * The broken matrix, on the heap with arrays exactly as long as its fields say (so a read
 * past them is caught), or NULL for C_NULL_HANDLE. Free with broken_free.
 */
static magnus_csr_s *broken_make(corruption c) {
    if (c == C_NULL_HANDLE) return NULL;
    broken b;
    make_valid(&b);
    switch (c) {
    case C_FREED: b.m.magic = MAGNUS_MAGIC_FREED; break;
    case C_FOREIGN: b.m.magic = 0x0123456789abcdefULL; break;
    case C_BAD_TYPE: b.m.type = (magnus_value_type)7; break;
    case C_ROWPTR0: b.row_ptr[0] = 1; break;
    case C_NOT_MONOTONE: b.row_ptr[2] = 1; break;
    case C_ROWPTR_PAST_NNZ: b.row_ptr[2] = b.row_ptr[3] = 9; break;
    case C_ROWPTR_LAST_BIG: b.row_ptr[M_ROWS] = M_NNZ + 3; break;
    case C_ROWPTR_LAST_SMALL: b.row_ptr[M_ROWS] = M_NNZ - 1; break;
    case C_COL_TOO_BIG: b.col_idx[4] = M_COLS; break;
    case C_COL_NEGATIVE: b.col_idx[1] = -1; break;
    case C_UNSORTED: b.col_idx[2] = 3, b.col_idx[3] = 1; break;
    case C_DUPLICATE: b.col_idx[3] = 1; break;
    case C_NEGATIVE_NNZ: b.m.nnz = -1; break;
    default: break;
    }
    magnus_csr_s *m = malloc(sizeof *m);
    cr_assert_not_null(m);
    *m = b.m;
    m->row_ptr = c == C_NULL_ROWPTR ? NULL : malloc(sizeof b.row_ptr);
    m->col_idx = c == C_NULL_COLS ? NULL : malloc(sizeof b.col_idx);
    m->values = c == C_NULL_VALUES ? NULL : malloc(sizeof b.values);
    if (m->row_ptr) memcpy(m->row_ptr, b.row_ptr, sizeof b.row_ptr);
    if (m->col_idx) memcpy(m->col_idx, b.col_idx, sizeof b.col_idx);
    if (m->values) memcpy(m->values, b.values, sizeof b.values);
    return m;
}

static void broken_free(magnus_csr_s *m) {
    if (!m) return;
    free(m->row_ptr);
    free(m->col_idx);
    free(m->values);
    free(m);
}

/* A valid library-made matrix of the given shape, float64, a few entries. */
static magnus_csr valid(int64_t rows, int64_t cols) {
    magnus_csr A = NULL;
    cr_assert_eq(magnus_gen_uniform(&A, rows, cols, cols < 2 ? cols : 2, 7, MAGNUS_FLOAT64),
                 MAGNUS_SUCCESS, "%s", magnus_last_error());
    return A;
}

/* Calls `call`, expects status `want` and (on failure) a detail message; the rest of the
 * arguments are a printf label for the messages. */
#define EXPECT_STATUS(call, want, ...)                                                           \
    do {                                                                                         \
        magnus_status got_ = (call);                                                             \
        char label_[256];                                                                        \
        snprintf(label_, sizeof label_, __VA_ARGS__);                                            \
        cr_expect_eq(got_, (want), "%s: got %d (%s), want %d; detail: %s", label_, (int)got_,    \
                     magnus_status_string(got_), (int)(want), magnus_last_error());              \
        if (got_ != MAGNUS_SUCCESS)                                                              \
            cr_expect_neq(magnus_last_error()[0], '\0', "%s: empty detail message", label_);     \
    } while (0)

/* A non-NULL value the outputs start with, so that "set to NULL on failure" is checked. */
#define POISON_CSR ((magnus_csr)(uintptr_t)0x1)

static char write_path[256];

static const char *scratch_path(void) {
    snprintf(write_path, sizeof write_path, "%s/api_errors_%d.mtx", MAGNUS_BINARY_DIR,
             (int)getpid());
    return write_path;
}

/* Every host entry point, each operand position, every corruption. */
Test(api_invalid_csr, every_host_entry_point_every_corruption) {
    magnus_csr A24 = valid(2, M_ROWS); /* left operand for a broken B (A.cols == B.rows) */
    magnus_csr B53 = valid(M_COLS, 3); /* right operand for a broken A */
    magnus_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.backend = MAGNUS_BACKEND_OPENCL;
    dev.local_mem_bytes = 65536;
    dev.max_work_group_size = 256;
    dev.subgroup_sizes[0] = 32;
    dev.num_subgroup_sizes = 1;
    dev.compute_units = 8;
    dev.fp64 = 1;
    for (int c = 0; c < C_COUNT; c++) {
        const char *name = corruption_names[c];
        magnus_status want = corruption_status[c];
        magnus_csr_s *X = broken_make((corruption)c);
        magnus_csr out;
        magnus_csr_stats st;

        EXPECT_STATUS(magnus_csr_validate(X), want, "validate(%s)", name);

        out = POISON_CSR;
        EXPECT_STATUS(magnus_csr_copy(&out, X), want, "copy(%s)", name);
        cr_expect_null(out, "copy(%s) left an output", name);
        out = POISON_CSR;
        EXPECT_STATUS(magnus_csr_convert(&out, X, MAGNUS_FLOAT32), want, "convert(%s)", name);
        cr_expect_null(out, "convert(%s) left an output", name);

        /* stats: a NULL B means B = A, so a NULL B is no error */
        EXPECT_STATUS(magnus_csr_stats_compute(&st, X, B53), want, "stats(A = %s)", name);
        if (c != C_NULL_HANDLE)
            EXPECT_STATUS(magnus_csr_stats_compute(&st, A24, X), want, "stats(B = %s)", name);

        EXPECT_STATUS(magnus_mm_write(scratch_path(), X), want, "mm_write(%s)", name);
        cr_expect_neq(access(scratch_path(), F_OK), 0, "mm_write(%s) left a file", name);

        magnus_csr C = POISON_CSR, Mag = POISON_CSR;
        EXPECT_STATUS(magnus_reference_spgemm(&C, &Mag, X, B53), want, "reference(A = %s)",
                      name);
        cr_expect(C == NULL && Mag == NULL, "reference(A = %s) left an output", name);
        C = Mag = POISON_CSR;
        EXPECT_STATUS(magnus_reference_spgemm(&C, &Mag, A24, X), want, "reference(B = %s)",
                      name);
        cr_expect(C == NULL && Mag == NULL, "reference(B = %s) left an output", name);

        magnus_gmagnus_plan plan;
        EXPECT_STATUS(magnus_gmagnus_plan_compute(&plan, &dev, X, B53), want, "plan(A = %s)",
                      name);
        EXPECT_STATUS(magnus_gmagnus_plan_compute(&plan, &dev, A24, X), want, "plan(B = %s)",
                      name);

        /* compare: `expected` is validated; C is only read where it agrees with expected,
         * so broken content in C is a mismatch (NULL arrays and handles are still errors) */
        magnus_csr V = NULL;
        broken vb;
        make_valid(&vb);
        cr_assert_eq(magnus_csr_copy(&V, &vb.m), MAGNUS_SUCCESS);
        magnus_compare_result res;
        EXPECT_STATUS(magnus_csr_compare(&res, V, X, NULL, 0), want, "compare(expected = %s)",
                      name);
        magnus_status want_c = want;
        if (c >= C_ROWPTR0 && c <= C_DUPLICATE) want_c = MAGNUS_ERROR_MISMATCH;
        if (c == C_NEGATIVE_NNZ) want_c = MAGNUS_ERROR_MISMATCH;
        EXPECT_STATUS(magnus_csr_compare(&res, X, V, NULL, 0), want_c, "compare(C = %s)", name);
        magnus_csr_free(&V);
        broken_free(X);
    }
    magnus_csr_free(&A24);
    magnus_csr_free(&B53);
    unlink(scratch_path());
}

/* Shapes that do not chain and value types that differ. */
Test(api_invalid_csr, shapes_and_value_types) {
    magnus_csr A = valid(3, 4), B = valid(5, 2), B32 = NULL, C = POISON_CSR, M = POISON_CSR;
    cr_assert_eq(magnus_csr_convert(&B32, A, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    magnus_csr_stats st;
    EXPECT_STATUS(magnus_csr_stats_compute(&st, A, B), MAGNUS_ERROR_DIMENSION_MISMATCH, "stats");
    EXPECT_STATUS(magnus_reference_spgemm(&C, &M, A, B), MAGNUS_ERROR_DIMENSION_MISMATCH,
                  "reference");
    cr_expect(C == NULL && M == NULL);
    /* 3x4 times 3x4 (float32) does not chain either; 4x? is needed. Same shape, other type: */
    magnus_csr A43 = valid(4, 3), A43f = NULL;
    cr_assert_eq(magnus_csr_convert(&A43f, A43, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    C = M = POISON_CSR;
    EXPECT_STATUS(magnus_reference_spgemm(&C, &M, A, A43f), MAGNUS_ERROR_UNSUPPORTED_TYPE,
                  "reference mixed types");
    cr_expect(C == NULL && M == NULL);
    magnus_compare_result res;
    EXPECT_STATUS(magnus_csr_compare(&res, A, B, NULL, 0), MAGNUS_ERROR_DIMENSION_MISMATCH,
                  "compare shapes");
    EXPECT_STATUS(magnus_csr_compare(&res, A, A, NULL, NAN), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "compare NaN tolerance");
    EXPECT_STATUS(magnus_csr_compare(&res, A, A, B, 0), MAGNUS_ERROR_DIMENSION_MISMATCH,
                  "compare magnitude of another shape");
    magnus_csr A34other = valid(3, 4); /* same shape, other columns (another seed) */
    magnus_csr_free(&A34other);
    cr_assert_eq(magnus_gen_uniform(&A34other, 3, 4, 3, 99, MAGNUS_FLOAT64), MAGNUS_SUCCESS);
    EXPECT_STATUS(magnus_csr_compare(&res, A, A, A34other, 0), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "compare magnitude of another structure");
    magnus_csr_free(&A34other);
    magnus_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.local_mem_bytes = 65536;
    dev.max_work_group_size = 256;
    dev.subgroup_sizes[0] = 32;
    dev.num_subgroup_sizes = 1;
    magnus_gmagnus_plan plan;
    EXPECT_STATUS(magnus_gmagnus_plan_compute(&plan, &dev, A, B), MAGNUS_ERROR_DIMENSION_MISMATCH,
                  "plan shapes");
    EXPECT_STATUS(magnus_gmagnus_plan_compute(&plan, &dev, A, A43f), MAGNUS_ERROR_UNSUPPORTED_TYPE,
                  "plan mixed types");
    magnus_gmagnus_params params;
    EXPECT_STATUS(magnus_gmagnus_params_compute(&params, &dev, 10, (magnus_value_type)9),
                  MAGNUS_ERROR_UNSUPPORTED_TYPE, "params type");
    EXPECT_STATUS(magnus_gmagnus_params_compute(&params, &dev, -1, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "params negative columns");
    magnus_csr out = POISON_CSR;
    EXPECT_STATUS(magnus_csr_convert(&out, A, (magnus_value_type)0), MAGNUS_ERROR_UNSUPPORTED_TYPE,
                  "convert to type 0");
    cr_expect_null(out);
    out = POISON_CSR;
    EXPECT_STATUS(magnus_mm_read(&out, "/nonexistent/x.mtx", (magnus_value_type)3, NULL, NULL),
                  MAGNUS_ERROR_UNSUPPORTED_TYPE, "mm_read type 3");
    cr_expect_null(out);
    out = POISON_CSR;
    EXPECT_STATUS(magnus_mm_read(&out, "/nonexistent/x.mtx", MAGNUS_FLOAT32, NULL, NULL),
                  MAGNUS_ERROR_FILE_OPEN, "mm_read missing file");
    cr_expect_null(out);
    cr_expect_eq(magnus_value_size((magnus_value_type)3), 0);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&B32);
    magnus_csr_free(&A43);
    magnus_csr_free(&A43f);
}

/* NULL where an output or a required argument goes. */
Test(api_null, outputs_and_arguments) {
    magnus_csr A = valid(3, 3);
    magnus_csr out = POISON_CSR;
    EXPECT_STATUS(magnus_csr_new(NULL, 1, 1, 1, MAGNUS_FLOAT32), MAGNUS_ERROR_NULL_POINTER,
                  "csr_new");
    EXPECT_STATUS(magnus_csr_copy(NULL, A), MAGNUS_ERROR_NULL_POINTER, "copy");
    EXPECT_STATUS(magnus_csr_convert(NULL, A, MAGNUS_FLOAT32), MAGNUS_ERROR_NULL_POINTER,
                  "convert");
    EXPECT_STATUS(magnus_csr_stats_compute(NULL, A, A), MAGNUS_ERROR_NULL_POINTER, "stats");
    EXPECT_STATUS(magnus_mm_read(NULL, "x.mtx", MAGNUS_FLOAT32, NULL, NULL),
                  MAGNUS_ERROR_NULL_POINTER, "mm_read out");
    EXPECT_STATUS(magnus_mm_read(&out, NULL, MAGNUS_FLOAT32, NULL, NULL),
                  MAGNUS_ERROR_NULL_POINTER, "mm_read path");
    cr_expect_null(out);
    EXPECT_STATUS(magnus_mm_write(NULL, A), MAGNUS_ERROR_NULL_POINTER, "mm_write path");
    EXPECT_STATUS(magnus_reference_spgemm(NULL, NULL, A, A), MAGNUS_ERROR_NULL_POINTER,
                  "reference C");
    /* compare's result may be NULL */
    EXPECT_STATUS(magnus_csr_compare(NULL, A, A, NULL, 0), MAGNUS_SUCCESS, "compare result");
    EXPECT_STATUS(magnus_rmat_options_init(NULL), MAGNUS_ERROR_NULL_POINTER, "rmat init");
    magnus_rmat_options ro;
    magnus_rmat_options_init(&ro);
    EXPECT_STATUS(magnus_gen_rmat(NULL, &ro, NULL, NULL), MAGNUS_ERROR_NULL_POINTER, "rmat out");
    out = POISON_CSR;
    EXPECT_STATUS(magnus_gen_rmat(&out, NULL, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "rmat options");
    cr_expect_null(out);
    EXPECT_STATUS(magnus_gen_laplacian_2d(NULL, 2, 2, MAGNUS_FLOAT32), MAGNUS_ERROR_NULL_POINTER,
                  "lap2");
    EXPECT_STATUS(magnus_gen_laplacian_3d(NULL, 2, 2, 2, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_NULL_POINTER, "lap3");
    EXPECT_STATUS(magnus_gen_banded(NULL, 4, 1, 1, 1, MAGNUS_FLOAT32), MAGNUS_ERROR_NULL_POINTER,
                  "banded");
    EXPECT_STATUS(magnus_gen_uniform(NULL, 4, 4, 1, 1, MAGNUS_FLOAT32), MAGNUS_ERROR_NULL_POINTER,
                  "uniform");
    size_t count = 99;
    EXPECT_STATUS(magnus_device_probe(NULL, 0, NULL), MAGNUS_ERROR_NULL_POINTER, "probe count");
    EXPECT_STATUS(magnus_device_probe(NULL, 4, &count), MAGNUS_ERROR_NULL_POINTER,
                  "probe devices");
    EXPECT_STATUS(magnus_device_select(NULL), MAGNUS_ERROR_NULL_POINTER, "select");
    EXPECT_STATUS(magnus_context_options_init(NULL), MAGNUS_ERROR_NULL_POINTER, "ctx options");
    EXPECT_STATUS(magnus_context_create(NULL, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "ctx create");
    EXPECT_STATUS(magnus_spgemm_options_init(NULL), MAGNUS_ERROR_NULL_POINTER, "spgemm options");
    magnus_gmagnus_params params;
    magnus_gmagnus_plan plan;
    magnus_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.local_mem_bytes = 65536;
    EXPECT_STATUS(magnus_gmagnus_params_compute(NULL, &dev, 3, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_NULL_POINTER, "params out");
    EXPECT_STATUS(magnus_gmagnus_params_compute(&params, NULL, 3, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_NULL_POINTER, "params device");
    EXPECT_STATUS(magnus_gmagnus_plan_compute(NULL, &dev, A, A), MAGNUS_ERROR_NULL_POINTER,
                  "plan out");
    EXPECT_STATUS(magnus_gmagnus_plan_compute(&plan, NULL, A, A), MAGNUS_ERROR_NULL_POINTER,
                  "plan device");
    /* frees accept NULL and a pointer to NULL */
    EXPECT_STATUS(magnus_csr_free(NULL), MAGNUS_SUCCESS, "csr_free(NULL)");
    magnus_csr none = NULL;
    EXPECT_STATUS(magnus_csr_free(&none), MAGNUS_SUCCESS, "csr_free(&NULL)");
    EXPECT_STATUS(magnus_context_free(NULL), MAGNUS_SUCCESS, "context_free(NULL)");
    EXPECT_STATUS(magnus_device_csr_free(NULL), MAGNUS_SUCCESS, "device_csr_free(NULL)");
    /* a foreign handle is refused, not freed */
    broken fb;
    make_valid(&fb);
    fb.m.magic = MAGNUS_MAGIC_FREED;
    magnus_csr fake = &fb.m;
    EXPECT_STATUS(magnus_csr_free(&fake), MAGNUS_ERROR_INVALID_HANDLE, "csr_free(freed)");
    cr_expect_eq(fake, &fb.m, "a refused free must leave the handle");
    /* strings are never NULL */
    cr_expect_not_null(magnus_status_string((magnus_status)12345));
    cr_expect_not_null(magnus_backend_name((magnus_backend_kind)77));
    cr_expect_not_null(magnus_version());
    EXPECT_STATUS(magnus_version_numbers(NULL, NULL, NULL), MAGNUS_SUCCESS, "version numbers");
    magnus_csr_free(&A);
}

/* Sizes out of range and sizes whose byte counts overflow 64 bits. */
Test(api_sizes, out_of_range_and_overflow) {
    magnus_csr out = POISON_CSR;
    EXPECT_STATUS(magnus_csr_new(&out, -1, 1, 0, MAGNUS_FLOAT32), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "rows -1");
    cr_expect_null(out);
    EXPECT_STATUS(magnus_csr_new(&out, 1, (int64_t)INT32_MAX + 1, 0, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "cols 2^31");
    EXPECT_STATUS(magnus_csr_new(&out, 1, 1, -5, MAGNUS_FLOAT32), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "nnz -5");
    /* nnz * 8 bytes of values overflows size_t */
    EXPECT_STATUS(magnus_csr_new(&out, 1, 1, INT64_MAX, MAGNUS_FLOAT64),
                  MAGNUS_ERROR_SIZE_OVERFLOW, "nnz 2^63-1 float64");
    EXPECT_STATUS(magnus_csr_new(&out, 1, 1, INT64_MAX / 2 + 1, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_SIZE_OVERFLOW, "nnz 2^62 float32");
    cr_expect_null(out);
    /* representable but impossible: 2^60 bytes cannot be had */
    EXPECT_STATUS(magnus_csr_new(&out, 1, 1, (int64_t)1 << 58, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "nnz 2^58");
    cr_expect_null(out);
    /* generators: grids whose point count overflows, R-MAT edge counts that overflow */
    EXPECT_STATUS(magnus_gen_laplacian_2d(&out, INT64_MAX / 2, 4, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_SIZE_OVERFLOW, "laplacian 2d overflow");
    EXPECT_STATUS(magnus_gen_laplacian_3d(&out, (int64_t)1 << 22, (int64_t)1 << 22,
                                          (int64_t)1 << 22, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_SIZE_OVERFLOW, "laplacian 3d overflow");
    EXPECT_STATUS(magnus_gen_laplacian_2d(&out, 65536, 65536, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "laplacian 2d beyond 2^31 points");
    EXPECT_STATUS(magnus_gen_laplacian_2d(&out, -1, 3, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "laplacian negative side");
    magnus_rmat_options ro;
    magnus_rmat_options_init(&ro);
    ro.scale = 30;
    ro.nnz_per_row = INT64_MAX / 4;
    EXPECT_STATUS(magnus_gen_rmat(&out, &ro, NULL, NULL), MAGNUS_ERROR_SIZE_OVERFLOW,
                  "rmat edges overflow");
    magnus_rmat_options_init(&ro);
    ro.scale = 31;
    EXPECT_STATUS(magnus_gen_rmat(&out, &ro, NULL, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "rmat scale 31");
    magnus_rmat_options_init(&ro);
    ro.a = NAN;
    EXPECT_STATUS(magnus_gen_rmat(&out, &ro, NULL, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "rmat NaN probability");
    magnus_rmat_options_init(&ro);
    ro.type = (magnus_value_type)5;
    EXPECT_STATUS(magnus_gen_rmat(&out, &ro, NULL, NULL), MAGNUS_ERROR_UNSUPPORTED_TYPE,
                  "rmat type");
    EXPECT_STATUS(magnus_gen_banded(&out, 5, -1, 1, 1, MAGNUS_FLOAT64),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "banded lower -1");
    EXPECT_STATUS(magnus_gen_uniform(&out, 5, 5, NAN, 1, MAGNUS_FLOAT64),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "uniform NaN per row");
    EXPECT_STATUS(magnus_gen_uniform(&out, 5, 5, -1, 1, MAGNUS_FLOAT64),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "uniform negative per row");
    EXPECT_STATUS(magnus_gen_uniform(&out, 5, 5, 1, 1, (magnus_value_type)0),
                  MAGNUS_ERROR_UNSUPPORTED_TYPE, "uniform type");
    cr_expect_null(out);
    /*
     * Not covered here: a product whose intermediate-product count overflows 2^63 (stats,
     * magnus_spgemm's count_products). It needs nnz(A) * nnz(B row) > 2^63 with valid,
     * fully allocated matrices (validation reads every entry), far beyond any memory; the
     * overflow checks are by inspection. Per-row counts up to 2^31 * 2^31 = 2^62 fit.
     */
}

/* ---- NaN, Inf and explicit zeros through a product ------------------------------------------ */

/*
 * A (3x3) has NaN, +Inf, -Inf and an explicit zero; B (3x2) too. Each entry of C is checked
 * against the IEEE result of its sum, formed in the same order (A's row, then B's row).
 */
static void ieee_operands(magnus_csr *A, magnus_csr *B, magnus_value_type type) {
    const double inf = INFINITY;
    /* A: row 0 {0: NaN, 1: 1}, row 1 {0: +Inf, 2: 0}, row 2 {1: -Inf, 2: +Inf} */
    static const int64_t arp[4] = {0, 2, 4, 6};
    static const int32_t aci[6] = {0, 1, 0, 2, 1, 2};
    const double av[6] = {NAN, 1, inf, 0, -inf, inf};
    /* B: row 0 {0: 2}, row 1 {0: 0, 1: 3}, row 2 {0: 1, 1: 5} */
    static const int64_t brp[4] = {0, 1, 3, 5};
    static const int32_t bci[5] = {0, 0, 1, 0, 1};
    const double bv[5] = {2, 0, 3, 1, 5};
    cr_assert_eq(magnus_csr_new(A, 3, 3, 6, type), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_csr_new(B, 3, 2, 5, type), MAGNUS_SUCCESS);
    memcpy((*A)->row_ptr, arp, sizeof arp);
    memcpy((*A)->col_idx, aci, sizeof aci);
    memcpy((*B)->row_ptr, brp, sizeof brp);
    memcpy((*B)->col_idx, bci, sizeof bci);
    for (int k = 0; k < 6; k++) {
        if (type == MAGNUS_FLOAT32) ((float *)(*A)->values)[k] = (float)av[k];
        else ((double *)(*A)->values)[k] = av[k];
    }
    for (int k = 0; k < 5; k++) {
        if (type == MAGNUS_FLOAT32) ((float *)(*B)->values)[k] = (float)bv[k];
        else ((double *)(*B)->values)[k] = bv[k];
    }
}

/* What C must be: structure of every product, values by IEEE arithmetic. */
static void ieee_expect(const magnus_csr_s *C, const char *who) {
    const double inf = INFINITY;
    /* row 0: c0 = NaN*2 + 1*0 = NaN; c1 = 1*3 = 3
     * row 1: c0 = Inf*2 + 0*1 = Inf; c1 = 0*5 = 0 (explicit zero stays)
     * row 2: c0 = -Inf*0 + Inf*1 = NaN (Inf*0); c1 = -Inf*3 + Inf*5 = NaN (Inf - Inf) */
    const double want[3][2] = {{NAN, 3}, {inf, 0}, {NAN, NAN}};
    cr_assert_eq(C->rows, 3, "%s", who);
    cr_assert_eq(C->nnz, 6, "%s: every product leaves an entry, whatever its value", who);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(C->row_ptr[i + 1] - C->row_ptr[i], 2, "%s row %d", who, i);
        for (int j = 0; j < 2; j++) {
            int64_t p = C->row_ptr[i] + j;
            cr_assert_eq(C->col_idx[p], j, "%s (%d,%d)", who, i, j);
            double v = C->type == MAGNUS_FLOAT32 ? ((float *)C->values)[p]
                                                 : ((double *)C->values)[p];
            double w = want[i][j];
            if (isnan(w)) cr_expect(isnan(v), "%s (%d,%d): %g, want NaN", who, i, j, v);
            else cr_expect(v == w && signbit(v) == signbit(w), "%s (%d,%d): %g, want %g", who, i,
                           j, v, w);
        }
    }
}

Test(ieee, nan_inf_and_explicit_zeros_through_the_reference) {
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = t ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
        magnus_csr A = NULL, B = NULL, C = NULL;
        ieee_operands(&A, &B, type);
        cr_assert_eq(magnus_reference_spgemm(&C, NULL, A, B), MAGNUS_SUCCESS, "%s",
                     magnus_last_error());
        ieee_expect(C, type == MAGNUS_FLOAT32 ? "reference float32" : "reference float64");
        /* compare: NaN matches NaN at the same place, Inf only itself */
        EXPECT_STATUS(magnus_csr_compare(NULL, C, C, NULL, 0), MAGNUS_SUCCESS, "compare self");
        magnus_csr D = NULL;
        cr_assert_eq(magnus_csr_copy(&D, C), MAGNUS_SUCCESS);
        if (type == MAGNUS_FLOAT32) ((float *)D->values)[2] = -INFINITY;
        else ((double *)D->values)[2] = -INFINITY;
        EXPECT_STATUS(magnus_csr_compare(NULL, D, C, NULL, 0), MAGNUS_ERROR_MISMATCH,
                      "compare -Inf against +Inf");
        magnus_csr_free(&D);
        magnus_csr_free(&A);
        magnus_csr_free(&B);
        magnus_csr_free(&C);
    }
}

/* ---- device entry points (PoCL in CI; skipped where no device exists) ------------------------ */

Test(api_device, handles_shapes_types_and_broken_matrices, .timeout = 300) {
    magnus_context ctx = context_or_skip(0);
    magnus_csr A24 = valid(2, M_ROWS), B53 = valid(M_COLS, 3);
    magnus_spgemm_options opt;
    magnus_spgemm_options_init(&opt);

    /* a context that is not one */
    struct magnus_context_s not_ctx;
    memset(&not_ctx, 0, sizeof not_ctx);
    magnus_csr C = POISON_CSR;
    EXPECT_STATUS(magnus_spgemm(&C, NULL, A24, A24, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "spgemm NULL context");
    cr_expect_null(C);
    EXPECT_STATUS(magnus_spgemm(&C, &not_ctx, A24, A24, NULL, NULL), MAGNUS_ERROR_INVALID_HANDLE,
                  "spgemm foreign context");
    EXPECT_STATUS(magnus_spgemm(NULL, ctx, A24, A24, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "spgemm NULL C");
    magnus_device_info info;
    EXPECT_STATUS(magnus_context_device(&info, &not_ctx), MAGNUS_ERROR_INVALID_HANDLE,
                  "context_device foreign");
    EXPECT_STATUS(magnus_context_device(NULL, ctx), MAGNUS_ERROR_NULL_POINTER,
                  "context_device NULL out");
    magnus_context fake_ctx = &not_ctx;
    EXPECT_STATUS(magnus_context_free(&fake_ctx), MAGNUS_ERROR_INVALID_HANDLE,
                  "context_free foreign");
    double gbs;
    EXPECT_STATUS(magnus_device_copy_bandwidth(NULL, ctx, 4096, 1), MAGNUS_ERROR_NULL_POINTER,
                  "bandwidth NULL out");
    EXPECT_STATUS(magnus_device_copy_bandwidth(&gbs, &not_ctx, 4096, 1),
                  MAGNUS_ERROR_INVALID_HANDLE, "bandwidth foreign context");
    EXPECT_STATUS(magnus_device_copy_bandwidth(&gbs, ctx, 4096, 0), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "bandwidth 0 repetitions");

    /* options */
    opt.algorithm = (magnus_algorithm)9;
    EXPECT_STATUS(magnus_spgemm(&C, ctx, A24, B53, &opt, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "spgemm algorithm 9");
    magnus_spgemm_options_init(&opt);

    /* shapes and types */
    EXPECT_STATUS(magnus_spgemm(&C, ctx, B53, B53, NULL, NULL), MAGNUS_ERROR_DIMENSION_MISMATCH,
                  "spgemm shapes");
    magnus_csr B53f = NULL;
    cr_assert_eq(magnus_csr_convert(&B53f, B53, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    magnus_csr A25 = valid(2, M_COLS);
    EXPECT_STATUS(magnus_spgemm(&C, ctx, A25, B53f, NULL, NULL), MAGNUS_ERROR_UNSUPPORTED_TYPE,
                  "spgemm mixed types");
    cr_expect_null(C);

    /* every broken matrix, both algorithms, both positions; and upload */
    for (int alg = 0; alg < 2; alg++) {
        opt.algorithm = alg ? MAGNUS_ALGORITHM_HASH : MAGNUS_ALGORITHM_MAGNUS;
        for (int c = 0; c < C_COUNT; c++) {
            magnus_csr_s *X = broken_make((corruption)c);
            C = POISON_CSR;
            EXPECT_STATUS(magnus_spgemm(&C, ctx, X, B53, &opt, NULL), corruption_status[c],
                          "spgemm alg %d (A = %s)", alg, corruption_names[c]);
            cr_expect_null(C);
            C = POISON_CSR;
            EXPECT_STATUS(magnus_spgemm(&C, ctx, A24, X, &opt, NULL), corruption_status[c],
                          "spgemm alg %d (B = %s)", alg, corruption_names[c]);
            cr_expect_null(C);
            if (alg == 0) {
                magnus_device_csr d = (magnus_device_csr)(uintptr_t)0x1;
                EXPECT_STATUS(magnus_device_csr_upload(&d, ctx, X), corruption_status[c],
                              "upload(%s)", corruption_names[c]);
                cr_expect_null(d);
            }
            broken_free(X);
        }
    }

    /* device matrices: NULL, foreign, another context's, mismatched */
    magnus_device_csr dA = NULL, dB = NULL, dC = NULL;
    cr_assert_eq(magnus_device_csr_upload(&dA, ctx, A25), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    cr_assert_eq(magnus_device_csr_upload(&dB, ctx, B53), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    struct magnus_device_csr_s not_d;
    memset(&not_d, 0, sizeof not_d);
    EXPECT_STATUS(magnus_device_csr_upload(NULL, ctx, A24), MAGNUS_ERROR_NULL_POINTER,
                  "upload NULL out");
    EXPECT_STATUS(magnus_device_csr_upload(&dC, &not_ctx, A24), MAGNUS_ERROR_INVALID_HANDLE,
                  "upload foreign context");
    cr_expect_null(dC);
    C = POISON_CSR;
    EXPECT_STATUS(magnus_device_csr_download(&C, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "download NULL");
    cr_expect_null(C);
    EXPECT_STATUS(magnus_device_csr_download(&C, &not_d), MAGNUS_ERROR_INVALID_HANDLE,
                  "download foreign");
    EXPECT_STATUS(magnus_device_csr_download(NULL, dA), MAGNUS_ERROR_NULL_POINTER,
                  "download NULL out");
    int64_t r;
    EXPECT_STATUS(magnus_device_csr_shape(&r, NULL, NULL, &not_d), MAGNUS_ERROR_INVALID_HANDLE,
                  "shape foreign");
    EXPECT_STATUS(magnus_device_csr_shape(&r, NULL, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "shape NULL");
    magnus_device_csr fake_d = &not_d;
    EXPECT_STATUS(magnus_device_csr_free(&fake_d), MAGNUS_ERROR_INVALID_HANDLE, "free foreign");
    EXPECT_STATUS(magnus_spgemm_device(&dC, ctx, dB, dB, NULL, NULL),
                  MAGNUS_ERROR_DIMENSION_MISMATCH, "spgemm_device shapes");
    cr_expect_null(dC);
    EXPECT_STATUS(magnus_spgemm_device(&dC, ctx, &not_d, dB, NULL, NULL),
                  MAGNUS_ERROR_INVALID_HANDLE, "spgemm_device foreign A");
    EXPECT_STATUS(magnus_spgemm_device(&dC, ctx, dA, NULL, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "spgemm_device NULL B");
    EXPECT_STATUS(magnus_spgemm_device(NULL, ctx, dA, dB, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "spgemm_device NULL C");
    /* a matrix of another context */
    magnus_context other = context_or_skip(0);
    EXPECT_STATUS(magnus_spgemm_device(&dC, other, dA, dB, NULL, NULL),
                  MAGNUS_ERROR_INVALID_HANDLE, "spgemm_device other context");
    cr_expect_null(dC);
    magnus_context_free(&other);
    /* and the good call still works after all that */
    EXPECT_STATUS(magnus_spgemm_device(&dC, ctx, dA, dB, NULL, NULL), MAGNUS_SUCCESS,
                  "spgemm_device valid");
    magnus_device_csr_free(&dA);
    magnus_device_csr_free(&dB);
    magnus_device_csr_free(&dC);
    cr_expect_null(dA);

    magnus_csr_free(&A24);
    magnus_csr_free(&B53);
    magnus_csr_free(&B53f);
    magnus_csr_free(&A25);
    magnus_context_free(&ctx);
    cr_expect_null(ctx);
}

Test(api_device, context_options, .timeout = 120) {
    magnus_device_info dev;
    magnus_status s = magnus_device_select(&dev);
    if (s == MAGNUS_ERROR_NO_DEVICE) cr_skip_test("no device");
    cr_assert_eq(s, MAGNUS_SUCCESS, "%s", magnus_last_error());
    magnus_context ctx = (magnus_context)(uintptr_t)0x1;
    magnus_context_options o;
    magnus_context_options_init(&o);
    o.local_mem_bytes = dev.local_mem_bytes + 1;
    EXPECT_STATUS(magnus_context_create(&ctx, &dev, &o), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "local memory beyond the device's");
    cr_expect_null(ctx);
    magnus_device_info bad = dev;
    bad.backend = (magnus_backend_kind)42;
    EXPECT_STATUS(magnus_context_create(&ctx, &bad, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "unknown backend");
    bad = dev;
    bad.index = 1000;
    s = magnus_context_create(&ctx, &bad, NULL);
    cr_expect(s == MAGNUS_ERROR_NO_DEVICE || s == MAGNUS_ERROR_INVALID_ARGUMENT,
              "device index 1000: %d %s", s, magnus_last_error());
    cr_expect_neq(magnus_last_error()[0], '\0');
    cr_expect_null(ctx);
    bad.index = -1;
    s = magnus_context_create(&ctx, &bad, NULL);
    cr_expect(s == MAGNUS_ERROR_NO_DEVICE || s == MAGNUS_ERROR_INVALID_ARGUMENT,
              "device index -1: %d %s", s, magnus_last_error());
    cr_expect_null(ctx);
    setenv("MAGNUS_DEVICE_MEMORY_LIMIT", "lots", 1);
    EXPECT_STATUS(magnus_context_create(&ctx, &dev, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "MAGNUS_DEVICE_MEMORY_LIMIT=lots");
    setenv("MAGNUS_DEVICE_MEMORY_LIMIT", "99999999999999999999T", 1);
    EXPECT_STATUS(magnus_context_create(&ctx, &dev, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "MAGNUS_DEVICE_MEMORY_LIMIT overflowing");
    unsetenv("MAGNUS_DEVICE_MEMORY_LIMIT");
    setenv("MAGNUS_LOCAL_MEM_BYTES", "-5", 1);
    EXPECT_STATUS(magnus_context_create(&ctx, &dev, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "MAGNUS_LOCAL_MEM_BYTES=-5");
    unsetenv("MAGNUS_LOCAL_MEM_BYTES");
    cr_expect_null(ctx);
    setenv("MAGNUS_DEVICE", "opencl:999", 1);
    EXPECT_STATUS(magnus_device_select(&dev), MAGNUS_ERROR_NO_DEVICE, "MAGNUS_DEVICE=opencl:999");
    setenv("MAGNUS_DEVICE", "warp-drive:0", 1);
    s = magnus_device_select(&dev);
    cr_expect(s == MAGNUS_ERROR_INVALID_ARGUMENT || s == MAGNUS_ERROR_NO_DEVICE,
              "MAGNUS_DEVICE=warp-drive:0: %d", s);
    cr_expect_neq(magnus_last_error()[0], '\0');
    unsetenv("MAGNUS_DEVICE");
}

Test(ieee, nan_inf_and_explicit_zeros_on_the_device, .timeout = 300) {
    magnus_context ctx = context_or_skip(0);
    magnus_device_info info;
    cr_assert_eq(magnus_context_device(&info, ctx), MAGNUS_SUCCESS);
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = t ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
        if (type == MAGNUS_FLOAT64 && !info.fp64) continue;
        magnus_csr A = NULL, B = NULL;
        ieee_operands(&A, &B, type);
        for (int alg = 0; alg < 2; alg++) {
            magnus_spgemm_options opt;
            magnus_spgemm_options_init(&opt);
            opt.algorithm = alg ? MAGNUS_ALGORITHM_HASH : MAGNUS_ALGORITHM_MAGNUS;
            magnus_csr C = NULL;
            cr_assert_eq(magnus_spgemm(&C, ctx, A, B, &opt, NULL), MAGNUS_SUCCESS, "%s",
                         magnus_last_error());
            char who[64];
            snprintf(who, sizeof who, "%s %s", alg ? "hash" : "gMAGNUS",
                     type == MAGNUS_FLOAT32 ? "float32" : "float64");
            ieee_expect(C, who);
            magnus_csr_free(&C);
        }
        magnus_csr_free(&A);
        magnus_csr_free(&B);
    }
    magnus_context_free(&ctx);
}

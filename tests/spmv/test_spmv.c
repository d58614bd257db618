/*
 * SpMV (magnus.h, "SpMV on a device") against a CPU reference that sums in double: every
 * format, both value types, on empty rows, one dense row spanning many work groups,
 * rectangular shapes, an R-MAT and a 2-D Laplacian, with alpha and beta including 0 and NaN
 * in y when beta is 0; plans reused; the errors. Sizes come from the matrices, never from an
 * assumed device: the dense row is longer than any split of the runtime's (at most 256 work
 * items x 7 per group) many times over; also a run of empty rows longer than a group's
 * items, single rows (one of 50000 entries, one of 1) and fewer rows than groups.
 */
#include <math.h>
#include <string.h>

#include "device_test_main.h"
#include "primitives.h"
#include "prng.h"
#include "spmv_internal.h"
#include "status_test_util.h"

#define SEED magnus_test_seed(20261201)


static double uniform(magnus_prng *g, double lo, double hi) {
    return lo + (hi - lo) * (double)(magnus_prng_next(g) >> 11) * (1.0 / 9007199254740992.0);
}

static double value_at(const void *v, magnus_value_type t, int64_t i) {
    return t == MAGNUS_FLOAT64 ? ((const double *)v)[i] : (double)((const float *)v)[i];
}
static void value_set(void *v, magnus_value_type t, int64_t i, double x) {
    if (t == MAGNUS_FLOAT64) ((double *)v)[i] = x;
    else ((float *)v)[i] = (float)x;
}

/* A matrix from a row-length rule: row r gets len(r) random distinct-ish sorted columns. */
static magnus_csr build(int64_t rows, int64_t cols, int64_t (*len)(int64_t r, int64_t cols),
                        magnus_value_type t, uint64_t seed) {
    int64_t nnz = 0;
    for (int64_t r = 0; r < rows; r++) nnz += len(r, cols);
    magnus_csr A;
    ASSERT_OK(magnus_csr_new(&A, rows, cols, nnz, t));
    magnus_prng g;
    magnus_prng_seed(&g, seed);
    int64_t k = 0;
    for (int64_t r = 0; r < rows; r++) {
        int64_t n = len(r, cols);
        /* n columns spread over 0..cols-1: evenly spaced with a random start, sorted, unique */
        int64_t step = n ? cols / n : 1, start = n && step > 1 ? (int64_t)(magnus_prng_next(&g) % (uint64_t)step) : 0;
        for (int64_t j = 0; j < n; j++) {
            A->col_idx[k] = (int32_t)(start + j * step);
            value_set(A->values, t, k, uniform(&g, -1, 1));
            k++;
        }
        A->row_ptr[r + 1] = k;
    }
    ASSERT_OK(magnus_csr_validate(A));
    return A;
}

static int64_t len_empty_rows(int64_t r, int64_t cols) { /* leading, trailing, runs of empties */
    (void)cols;
    if (r < 5 || r >= 995) return 0;
    if ((r / 7) % 3 == 0) return 0;
    return 1 + r % 9;
}
static int64_t len_dense_row(int64_t r, int64_t cols) { return r == 3 ? cols : (r % 4 ? 2 : 0); }
static int64_t len_long_rows(int64_t r, int64_t cols) { /* a few long rows among short ones */
    return r % 97 == 1 ? cols / 2 : 1 + r % 3;
}
static int64_t len_wide(int64_t r, int64_t cols) { (void)cols; return 1 + (r * 7) % 23; }
/* 20000 rows: a run of 9000 empty rows (more row ends than a group's items, 256 x 7 by
 * default), then a row of 30000 entries (many groups), then short rows and empty ones. */
static int64_t len_empty_run(int64_t r, int64_t cols) {
    (void)cols;
    if (r >= 1000 && r < 10000) return 0;
    if (r == 10000) return 30000;
    return r % 5 == 0 ? 0 : 1 + r % 4;
}
static int64_t len_full(int64_t r, int64_t cols) { (void)r; return cols; }

typedef struct matrix_case {
    const char *name;
    magnus_csr A;
} matrix_case;

static size_t make_cases(matrix_case *c, magnus_value_type t) {
    size_t n = 0;
    c[n++] = (matrix_case){"empty rows 1000x800", build(1000, 800, len_empty_rows, t, SEED)};
    c[n++] = (matrix_case){"one dense row of 70000", build(40, 70000, len_dense_row, t, SEED + 1)};
    c[n++] = (matrix_case){"long rows 3000x9000", build(3000, 9000, len_long_rows, t, SEED + 2)};
    c[n++] = (matrix_case){"rectangular 300x2000", build(300, 2000, len_wide, t, SEED + 3)};
    c[n++] = (matrix_case){"rectangular 2000x300", build(2000, 300, len_wide, t, SEED + 4)};
    c[n++] = (matrix_case){"R-MAT scale 12", magnus_test_rmat(12, 8, SEED + 5, t)};
    c[n++] = (matrix_case){"empty run, long row 20000x40000",
                           build(20000, 40000, len_empty_run, t, SEED + 6)};
    c[n++] = (matrix_case){"one row of 50000", build(1, 50000, len_full, t, SEED + 7)};
    c[n++] = (matrix_case){"one row of 1", build(1, 1, len_full, t, SEED + 8)};
    c[n++] = (matrix_case){"3 rows of 60000 (fewer rows than groups)",
                           build(3, 60000, len_full, t, SEED + 9)};
    magnus_csr L;
    ASSERT_OK(magnus_gen_laplacian_2d(&L, 60, 50, t));
    c[n++] = (matrix_case){"laplace2d 60x50", L};
    magnus_csr Z;
    ASSERT_OK(magnus_csr_new(&Z, 50, 30, 0, t));
    c[n++] = (matrix_case){"no entries 50x30", Z};
    ASSERT_OK(magnus_csr_new(&Z, 0, 30, 0, t));
    c[n++] = (matrix_case){"no rows 0x30", Z};
    return n;
}

typedef struct scalars {
    double alpha, beta;
    int nan_y; /* y starts as NaN (only with beta == 0) */
} scalars;
static const scalars combos[] = {{1, 0, 1}, {2.5, -0.5, 0}, {0, 1.5, 0}, {-1, 1, 0}, {0, 0, 1},
                                 {0.75, 0, 0}};
#define NCOMBOS (sizeof combos / sizeof combos[0])

/* Runs one product and compares with the reference in double: |y - ref| <= tol * scale_i,
 * scale_i = |alpha|*(|A|.|x|)_i + |beta*y0_i| (0 scale: exact). */
static void check_one(magnus_context ctx, const matrix_case *mc, magnus_spmv_format f,
                      const scalars *sc, uint64_t seed) {
    const magnus_csr A = mc->A;
    const magnus_value_type t = A->type;
    const size_t vb = magnus_value_size(t);
    void *x = malloc((size_t)A->cols * vb + 8), *y = malloc((size_t)A->rows * vb + 8);
    double *y0 = malloc((size_t)A->rows * 8 + 8);
    cr_assert(x && y && y0);
    magnus_prng g;
    magnus_prng_seed(&g, seed);
    for (int64_t j = 0; j < A->cols; j++) value_set(x, t, j, uniform(&g, -1, 1));
    for (int64_t i = 0; i < A->rows; i++) {
        value_set(y, t, i, sc->nan_y ? NAN : uniform(&g, -1, 1));
        y0[i] = value_at(y, t, i);
    }
    magnus_spmv_options o;
    ASSERT_OK(magnus_spmv_options_init(&o));
    o.format = f;
    magnus_spmv_report rep;
    uint64_t in_use = ctx->memory_in_use;
    magnus_status s = magnus_spmv_host(y, ctx, sc->alpha, A, x, sc->beta, &o, &rep);
    cr_assert_eq(s, MAGNUS_SUCCESS, "%s, format %s, alpha %g beta %g: %s: %s", mc->name,
                 magnus_spmv_format_name(f), sc->alpha, sc->beta, magnus_status_string(s),
                 magnus_last_error());
    cr_assert_eq(ctx->memory_in_use, in_use, "%s, %s: device memory left allocated", mc->name,
                 magnus_spmv_format_name(f));
    if (f != MAGNUS_SPMV_AUTO)
        cr_assert_eq(rep.format, f, "%s: report says %s ran, not %s", mc->name,
                     magnus_spmv_format_name(rep.format), magnus_spmv_format_name(f));
    else
        cr_assert(rep.format == MAGNUS_SPMV_CSR || rep.format == MAGNUS_SPMV_CSR_BALANCED,
                  "AUTO chose %s", magnus_spmv_format_name(rep.format));
    const double tol = t == MAGNUS_FLOAT64 ? 1e-12 : 2e-5;
    for (int64_t i = 0; i < A->rows; i++) {
        double sum = 0, mag = 0;
        if (sc->alpha != 0)
            for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
                double a = value_at(A->values, t, k), xv = value_at(x, t, A->col_idx[k]);
                sum += a * xv;
                mag += fabs(a * xv);
            }
        double ref = sc->alpha * sum + (sc->beta != 0 ? sc->beta * y0[i] : 0);
        double scale = fabs(sc->alpha) * mag + (sc->beta != 0 ? fabs(sc->beta * y0[i]) : 0);
        double got = value_at(y, t, i);
        if (!(fabs(got - ref) <= tol * scale + (t == MAGNUS_FLOAT32 ? 1e-30 : 0)))
            cr_assert_fail("%s (%lld x %lld, %lld entries), format %s (ran %s), %s, alpha %g "
                           "beta %g%s, seed %llu: y[%lld] = %.17g, expected %.17g (scale %g)",
                           mc->name, (long long)A->rows, (long long)A->cols, (long long)A->nnz,
                           magnus_spmv_format_name(f), magnus_spmv_format_name(rep.format),
                           t == MAGNUS_FLOAT64 ? "f64" : "f32", sc->alpha, sc->beta,
                           sc->nan_y ? " (y was NaN)" : "", (unsigned long long)seed, (long long)i,
                           got, ref, scale);
    }
    free(x);
    free(y);
    free(y0);
}

static void check_format(magnus_spmv_format f, magnus_value_type t) {
    magnus_context ctx = magnus_test_context();
    if (t == MAGNUS_FLOAT64) magnus_test_require_fp64(ctx);
    matrix_case cases[16];
    size_t n = make_cases(cases, t);
    for (size_t m = 0; m < n; m++) {
        for (size_t c = 0; c < NCOMBOS; c++) check_one(ctx, &cases[m], f, &combos[c], SEED + 31 * m + c);
        magnus_csr_free(&cases[m].A);
    }
}

#define FORMAT_TESTS(name, f)                                                                  \
    Test(spmv_f32, name) { check_format(f, MAGNUS_FLOAT32); }                                  \
    Test(spmv_f64, name) { check_format(f, MAGNUS_FLOAT64); }
FORMAT_TESTS(auto_choice, MAGNUS_SPMV_AUTO)
FORMAT_TESTS(csr, MAGNUS_SPMV_CSR)
FORMAT_TESTS(csr_balanced, MAGNUS_SPMV_CSR_BALANCED)
FORMAT_TESTS(coo, MAGNUS_SPMV_COO)
FORMAT_TESTS(hybrid, MAGNUS_SPMV_HYBRID)
FORMAT_TESTS(sellp, MAGNUS_SPMV_SELL_P)

/* y = A*x of an f32 A against the product summed in double: each row within 2e-5 of the sum
 * of its terms' magnitudes. WHAT names the case in a failure. */
static void expect_y_f32(const magnus_csr_s *A, const float *x, const float *y, const char *what) {
    for (int64_t r = 0; r < A->rows; r++) {
        double sum = 0, mag = 0;
        for (int64_t k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
            sum += (double)((const float *)A->values)[k] * x[A->col_idx[k]];
            mag += fabs((double)((const float *)A->values)[k] * x[A->col_idx[k]]);
        }
        cr_assert(fabs(y[r] - sum) <= 2e-5 * mag, "%s: y[%lld] = %g, expected %g", what,
                  (long long)r, y[r], sum);
    }
}

/* Options away from the defaults: SELL-P slices of 1 and 7 rows, strides 1 and 3; HYBRID all
 * COO (width 0) and all ELL (width 1024). */
Test(spmv_f32, parameters) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = build(3000, 9000, len_long_rows, MAGNUS_FLOAT32, SEED);
    const int64_t slices[][2] = {{1, 1}, {7, 3}, {1024, 1}};
    for (size_t i = 0; i < 3; i++) {
        for (int w = 0; w < 2; w++) {
            magnus_spmv_options o;
            ASSERT_OK(magnus_spmv_options_init(&o));
            o.format = w ? MAGNUS_SPMV_HYBRID : MAGNUS_SPMV_SELL_P;
            o.sellp_slice = slices[i][0];
            o.sellp_stride = slices[i][1];
            o.hybrid_width = i == 0 ? 0 : i == 1 ? 1024 : 3;
            float *x = malloc(9000 * 4), *y = malloc(3000 * 4);
            for (int j = 0; j < 9000; j++) x[j] = (float)((j % 13) - 6);
            ASSERT_OK(magnus_spmv_host(y, ctx, 1, A, x, 0, &o, NULL));
            char what[96];
            snprintf(what, sizeof what, "%s slice %lld stride %lld width %lld",
                     w ? "hybrid" : "sellp", (long long)o.sellp_slice,
                     (long long)o.sellp_stride, (long long)o.hybrid_width);
            expect_y_f32(A, x, y, what);
            free(x);
            free(y);
        }
    }
    magnus_csr_free(&A);
}

/* A on the device, for the tests that need both (the upload must succeed). */
static magnus_device_csr upload(magnus_context ctx, const magnus_csr_s *A) {
    magnus_device_csr dA = NULL;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    return dA;
}

/* What upload() and build() gave, freed. */
static void free_both(magnus_device_csr *dA, magnus_csr *A) {
    ASSERT_OK(magnus_device_csr_free(dA));
    magnus_csr_free(A);
}

/* AUTO's rule (docs/algorithm.md §9), on both sides of its threshold: a matrix with rows far
 * above the mean gets the balanced split, plan or not; regular rows get HYBRID in a plan
 * (repeated products) and CSR in a one-shot product (no conversion to pay off). */
static magnus_spmv_format auto_choice(magnus_context ctx, magnus_csr_s *A, bool plan) {
    magnus_device_csr dA = upload(ctx, A);
    magnus_spmv_report rep;
    if (plan) {
        magnus_spmv_plan p = NULL;
        ASSERT_OK(magnus_spmv_plan_create(&p, ctx, dA, NULL, &rep));
        ASSERT_OK(magnus_spmv_plan_free(&p));
    } else {
        double *x = calloc((size_t)A->cols, sizeof *x), *y = calloc((size_t)A->rows, sizeof *y);
        cr_assert(x && y);
        ASSERT_OK(magnus_spmv_host(y, ctx, 1.0, A, x, 0.0, NULL, &rep));
        free(x);
        free(y);
    }
    magnus_device_csr_free(&dA);
    return rep.format;
}
Test(spmv_f64, auto_rule) {
    magnus_context ctx = magnus_test_context();
    if (!ctx->device.fp64) cr_skip_test("no fp64");
    magnus_csr regular = NULL, skewed = build(3000, 9000, len_long_rows, MAGNUS_FLOAT64, SEED);
    ASSERT_OK(magnus_gen_laplacian_2d(&regular, 60, 50, MAGNUS_FLOAT64));
    cr_expect_eq(auto_choice(ctx, skewed, true), MAGNUS_SPMV_CSR_BALANCED);
    cr_expect_eq(auto_choice(ctx, skewed, false), MAGNUS_SPMV_CSR_BALANCED);
    cr_expect_eq(auto_choice(ctx, regular, true), MAGNUS_SPMV_HYBRID);
    cr_expect_eq(auto_choice(ctx, regular, false), MAGNUS_SPMV_CSR);
    magnus_csr_free(&regular);
    magnus_csr_free(&skewed);
}

/* A plan converts once: repeated products report no conversion and give the right values. */
Test(spmv_f32, plan_reuse) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = magnus_test_rmat(10, 8, SEED, MAGNUS_FLOAT32);
    magnus_device_csr dA = upload(ctx, A);
    float *x = malloc((size_t)A->cols * 4), *y = malloc((size_t)A->rows * 4);
    for (int f = MAGNUS_SPMV_CSR; f <= MAGNUS_SPMV_SELL_P; f++) {
        magnus_spmv_options o;
        ASSERT_OK(magnus_spmv_options_init(&o));
        o.format = (magnus_spmv_format)f;
        magnus_spmv_plan plan;
        magnus_spmv_report rep;
        ASSERT_OK(magnus_spmv_plan_create(&plan, ctx, dA, &o, &rep));
        cr_assert_eq(rep.format, f);
        for (int round = 0; round < 3; round++) {
            for (int64_t j = 0; j < A->cols; j++) x[j] = (float)(round + 1) * (float)((j % 5) - 2);
            magnus_device_vector dx, dy;
            ASSERT_OK(magnus_device_vector_upload(&dx, ctx, MAGNUS_FLOAT32, A->cols, x));
            ASSERT_OK(magnus_device_vector_zeros(&dy, ctx, MAGNUS_FLOAT32, A->rows));
            ASSERT_OK(magnus_spmv_plan_execute(plan, dy, 1, dx, 0, &rep));
            cr_assert_eq(rep.conversion_ms, 0, "a plan's product converted again");
            ASSERT_OK(magnus_device_vector_download(y, A->rows, dy));
            char what[64];
            snprintf(what, sizeof what, "%s round %d", magnus_spmv_format_name(o.format), round);
            expect_y_f32(A, x, y, what);
            ASSERT_OK(magnus_device_vector_free(&dx));
            ASSERT_OK(magnus_device_vector_free(&dy));
        }
        ASSERT_OK(magnus_spmv_plan_free(&plan));
        cr_assert_null(plan);
    }
    free(x);
    free(y);
    free_both(&dA, &A);
}

Test(spmv_errors, bad_input) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = build(300, 2000, len_wide, MAGNUS_FLOAT32, SEED);
    magnus_device_csr dA = upload(ctx, A);
    const uint64_t in_use = ctx->memory_in_use;
    magnus_device_vector x, y, x64 = NULL, short_x;
    ASSERT_OK(magnus_device_vector_zeros(&x, ctx, MAGNUS_FLOAT32, 2000));
    ASSERT_OK(magnus_device_vector_zeros(&y, ctx, MAGNUS_FLOAT32, 300));
    ASSERT_OK(magnus_device_vector_zeros(&short_x, ctx, MAGNUS_FLOAT32, 1999));
    if (ctx->device.fp64) {
        ASSERT_OK(magnus_device_vector_zeros(&x64, ctx, MAGNUS_FLOAT64, 2000));
        cr_assert_eq(magnus_spmv(ctx, y, 1, dA, x64, 0, NULL, NULL), MAGNUS_ERROR_UNSUPPORTED_TYPE);
        cr_assert(strstr(magnus_last_error(), "value type"), "%s", magnus_last_error());
    }
    cr_assert_eq(magnus_spmv(ctx, y, 1, dA, short_x, 0, NULL, NULL), MAGNUS_ERROR_DIMENSION_MISMATCH);
    cr_assert(strstr(magnus_last_error(), "1999"), "%s", magnus_last_error());
    cr_assert_eq(magnus_spmv(ctx, x, 1, dA, y, 0, NULL, NULL), MAGNUS_ERROR_DIMENSION_MISMATCH);
    cr_assert_eq(magnus_spmv(ctx, y, 1, dA, y, 0, NULL, NULL), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_spmv(ctx, NULL, 1, dA, x, 0, NULL, NULL), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_spmv(ctx, y, 1, NULL, x, 0, NULL, NULL), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_spmv(NULL, y, 1, dA, x, 0, NULL, NULL), MAGNUS_ERROR_NULL_POINTER);
    magnus_spmv_options o;
    ASSERT_OK(magnus_spmv_options_init(&o));
    o.format = (magnus_spmv_format)42;
    cr_assert_eq(magnus_spmv(ctx, y, 1, dA, x, 0, &o, NULL), MAGNUS_ERROR_INVALID_ARGUMENT);
    ASSERT_OK(magnus_spmv_options_init(&o));
    o.sellp_slice = 2000;
    cr_assert_eq(magnus_spmv(ctx, y, 1, dA, x, 0, &o, NULL), MAGNUS_ERROR_INVALID_ARGUMENT);
    ASSERT_OK(magnus_spmv_options_init(&o));
    o.hybrid_width = -2;
    cr_assert_eq(magnus_spmv(ctx, y, 1, dA, x, 0, &o, NULL), MAGNUS_ERROR_INVALID_ARGUMENT);
    /* vectors */
    magnus_device_vector v = (magnus_device_vector)1;
    cr_assert_eq(magnus_device_vector_zeros(&v, ctx, (magnus_value_type)7, 3), MAGNUS_ERROR_UNSUPPORTED_TYPE);
    cr_assert_null(v);
    cr_assert_eq(magnus_device_vector_zeros(&v, ctx, MAGNUS_FLOAT32, -1), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_device_vector_upload(&v, ctx, MAGNUS_FLOAT32, 3, NULL), MAGNUS_ERROR_NULL_POINTER);
    float host[300];
    cr_assert_eq(magnus_device_vector_download(host, 299, y), MAGNUS_ERROR_DIMENSION_MISMATCH);
    int64_t len = 0;
    magnus_value_type type = 0;
    ASSERT_OK(magnus_device_vector_info(&len, &type, y));
    cr_assert(len == 300 && type == MAGNUS_FLOAT32);
    /* a freed vector is an invalid handle, not a crash: the handle memory is gone, so check
     * with a copy of a freed struct instead */
    struct magnus_device_vector_s dead = *short_x;
    ASSERT_OK(magnus_device_vector_free(&short_x));
    cr_assert_null(short_x);
    dead.magic = MAGNUS_MAGIC_FREED;
    cr_assert_eq(magnus_spmv(ctx, y, 1, dA, &dead, 0, NULL, NULL), MAGNUS_ERROR_INVALID_HANDLE);
    /* host call: an invalid matrix, NULL vectors */
    float hx[2000] = {0}, hy[300];
    A->col_idx[0] = 5000;
    cr_assert_eq(magnus_spmv_host(hy, ctx, 1, A, hx, 0, NULL, NULL), MAGNUS_ERROR_COLUMN_OUT_OF_RANGE);
    A->col_idx[0] = 0;
    cr_assert_eq(magnus_spmv_host(hy, ctx, 1, A, NULL, 0, NULL, NULL), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_spmv_host(NULL, ctx, 1, A, hx, 0, NULL, NULL), MAGNUS_ERROR_NULL_POINTER);
    ASSERT_OK(magnus_spmv_host(hy, ctx, 1, A, hx, 0, NULL, NULL));
    cr_assert_str_empty(magnus_last_error());
    ASSERT_OK(magnus_device_vector_free(&x));
    ASSERT_OK(magnus_device_vector_free(&y));
    ASSERT_OK(magnus_device_vector_free(&x64));
    cr_assert_eq(ctx->memory_in_use, in_use, "the failed calls left device memory allocated");
    free_both(&dA, &A);
}

/* A call that succeeds leaves magnus_last_error() empty, even right after a failing call;
 * the _free functions and the format name keep the message. */
Test(spmv_errors, success_leaves_no_message) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = build(300, 2000, len_wide, MAGNUS_FLOAT32, SEED);
    magnus_device_csr dA = upload(ctx, A);
    float hx[2000], hy[300];
    for (int j = 0; j < 2000; j++) hx[j] = 1;
#define STALE() cr_assert_neq(magnus_csr_validate(NULL), MAGNUS_SUCCESS)
#define CLEAN(call)                                                                            \
    do {                                                                                       \
        STALE();                                                                               \
        ASSERT_OK(call);                                                                       \
        cr_expect_str_empty(magnus_last_error(), "%s left \"%s\"", #call, magnus_last_error()); \
    } while (0)
    magnus_device_vector x, y;
    magnus_spmv_plan plan;
    magnus_spmv_options o;
    CLEAN(magnus_spmv_options_init(&o));
    CLEAN(magnus_device_vector_upload(&x, ctx, MAGNUS_FLOAT32, 2000, hx));
    CLEAN(magnus_device_vector_zeros(&y, ctx, MAGNUS_FLOAT32, 300));
    CLEAN(magnus_device_vector_info(NULL, NULL, y));
    o.format = MAGNUS_SPMV_HYBRID;
    CLEAN(magnus_spmv_plan_create(&plan, ctx, dA, &o, NULL));
    CLEAN(magnus_spmv_plan_execute(plan, y, 1, x, 0, NULL));
    CLEAN(magnus_spmv(ctx, y, 1, dA, x, 1, NULL, NULL));
    CLEAN(magnus_spmv_host(hy, ctx, 1, A, hx, 0, NULL, NULL));
    CLEAN(magnus_device_vector_download(hy, 300, y));
    STALE();
    cr_expect_str_eq(magnus_spmv_format_name(MAGNUS_SPMV_COO), "coo");
    cr_expect_str_not_empty(magnus_last_error(), "the format name cleared the message");
    ASSERT_OK(magnus_spmv_plan_free(&plan));
    cr_expect_str_not_empty(magnus_last_error(), "a _free cleared the message");
    ASSERT_OK(magnus_device_vector_free(&x));
    ASSERT_OK(magnus_device_vector_free(&y));
    free_both(&dA, &A);
}

/* Host allocations failing one after the other (the n-th and every later one): every call
 * fails cleanly with a message and gives back its device memory, until one succeeds. */
Test(spmv_errors, host_allocation_failures) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = build(2000, 300, len_wide, MAGNUS_FLOAT32, SEED);
    float hx[300], hy[2000];
    for (int j = 0; j < 300; j++) hx[j] = 1;
    const magnus_spmv_format fs[] = {MAGNUS_SPMV_AUTO, MAGNUS_SPMV_COO, MAGNUS_SPMV_HYBRID,
                                     MAGNUS_SPMV_SELL_P};
    for (size_t f = 0; f < sizeof fs / sizeof fs[0]; f++) {
        magnus_spmv_options o;
        ASSERT_OK(magnus_spmv_options_init(&o));
        o.format = fs[f];
        ASSERT_OK(magnus_spmv_host(hy, ctx, 1, A, hx, 0, &o, NULL)); /* kernels loaded first */
        const uint64_t in_use = ctx->memory_in_use;
        magnus_status s = MAGNUS_ERROR_INTERNAL;
        int n = 0;
        for (; n < 200 && s != MAGNUS_SUCCESS; n++) {
            magnus_host_alloc_fail_after(n);
            s = magnus_spmv_host(hy, ctx, 1, A, hx, 0, &o, NULL);
            magnus_host_alloc_fail_after(-1);
            if (s) cr_assert_str_not_empty(magnus_last_error(), "%s, failure %d: no message",
                                           magnus_spmv_format_name(fs[f]), n);
            cr_assert_eq(ctx->memory_in_use, in_use, "%s, failure after %d allocations (%s): "
                         "device memory left allocated", magnus_spmv_format_name(fs[f]), n,
                         magnus_status_string(s));
        }
        cr_assert_eq(s, MAGNUS_SUCCESS, "%s never succeeded", magnus_spmv_format_name(fs[f]));
        cr_assert_gt(n, 1, "no allocation was failed");
    }
    magnus_csr_free(&A);
}

/* Launches capped at 1 and 3 work groups, so every kernel's grid-stride loop (rows, groups'
 * shares, slices, the combine) takes more than one turn; both types. */
static void few_groups(magnus_value_type t) {
    magnus_context ctx = magnus_test_context();
    if (t == MAGNUS_FLOAT64) magnus_test_require_fp64(ctx);
    matrix_case cases[16];
    size_t n = make_cases(cases, t);
    const magnus_spmv_format fs[] = {MAGNUS_SPMV_CSR, MAGNUS_SPMV_CSR_BALANCED, MAGNUS_SPMV_COO,
                                     MAGNUS_SPMV_HYBRID, MAGNUS_SPMV_SELL_P};
    for (size_t cap = 1; cap <= 3; cap += 2) {
        magnus_prim_set_max_groups(cap);
        for (size_t m = 0; m < n; m++)
            for (size_t f = 0; f < sizeof fs / sizeof fs[0]; f++)
                check_one(ctx, &cases[m], fs[f], &combos[1], SEED + m);
    }
    magnus_prim_set_max_groups(0);
    for (size_t m = 0; m < n; m++) magnus_csr_free(&cases[m].A);
}
Test(spmv_f32, few_groups) { few_groups(MAGNUS_FLOAT32); }
Test(spmv_f64, few_groups) { few_groups(MAGNUS_FLOAT64); }

/* No float atomics: the same product twice gives the same bits (every format, both types, on
 * the R-MAT and the long row among empty ones, beta != 0). */
static void deterministic(magnus_value_type t) {
    magnus_context ctx = magnus_test_context();
    if (t == MAGNUS_FLOAT64) magnus_test_require_fp64(ctx);
    magnus_csr mats[2] = {magnus_test_rmat(13, 16, SEED + 40, t),
                          build(20000, 40000, len_empty_run, t, SEED + 41)};
    const magnus_spmv_format fs[] = {MAGNUS_SPMV_CSR, MAGNUS_SPMV_CSR_BALANCED, MAGNUS_SPMV_COO,
                                     MAGNUS_SPMV_HYBRID, MAGNUS_SPMV_SELL_P};
    const size_t vb = magnus_value_size(t);
    for (size_t m = 0; m < 2; m++) {
        const magnus_csr A = mats[m];
        void *x = malloc((size_t)A->cols * vb), *y0 = malloc((size_t)A->rows * vb),
             *y1 = malloc((size_t)A->rows * vb), *y2 = malloc((size_t)A->rows * vb);
        cr_assert(x && y0 && y1 && y2);
        magnus_prng g;
        magnus_prng_seed(&g, SEED + m);
        for (int64_t j = 0; j < A->cols; j++) value_set(x, t, j, uniform(&g, -1, 1));
        for (int64_t i = 0; i < A->rows; i++) value_set(y0, t, i, uniform(&g, -1, 1));
        for (size_t f = 0; f < sizeof fs / sizeof fs[0]; f++) {
            magnus_spmv_options o;
            ASSERT_OK(magnus_spmv_options_init(&o));
            o.format = fs[f];
            memcpy(y1, y0, (size_t)A->rows * vb);
            memcpy(y2, y0, (size_t)A->rows * vb);
            ASSERT_OK(magnus_spmv_host(y1, ctx, 1.5, A, x, -0.25, &o, NULL));
            ASSERT_OK(magnus_spmv_host(y2, ctx, 1.5, A, x, -0.25, &o, NULL));
            cr_assert(memcmp(y1, y2, (size_t)A->rows * vb) == 0, "%s: format %s differs between runs",
                      m ? "long row" : "R-MAT", magnus_spmv_format_name(fs[f]));
        }
        free(x);
        free(y0);
        free(y1);
        free(y2);
        magnus_csr_free(&mats[m]);
    }
}
Test(spmv_f32, deterministic) { deterministic(MAGNUS_FLOAT32); }
Test(spmv_f64, deterministic) { deterministic(MAGNUS_FLOAT64); }

/* The staged kernels' tuning variables: out of range, a plan of that format is refused. */
Test(spmv_errors, bad_knobs) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = build(100, 100, len_wide, MAGNUS_FLOAT32, SEED);
    float x[100], y[100];
    for (int i = 0; i < 100; i++) x[i] = y[i] = 1;
    const struct {
        const char *var, *value;
        magnus_spmv_format f;
    } bad[] = {{"MAGNUS_SPMV_MERGE_ITEMS", "0", MAGNUS_SPMV_CSR_BALANCED},
               {"MAGNUS_SPMV_MERGE_ITEMS", "64", MAGNUS_SPMV_CSR_BALANCED},
               {"MAGNUS_SPMV_COO_ITEMS", "7x", MAGNUS_SPMV_COO},
               {"MAGNUS_SPMV_GROUP", "48", MAGNUS_SPMV_HYBRID}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        magnus_spmv_options o;
        ASSERT_OK(magnus_spmv_options_init(&o));
        o.format = bad[i].f;
        o.hybrid_width = 0; /* all COO */
        setenv(bad[i].var, bad[i].value, 1);
        uint64_t in_use = ctx->memory_in_use;
        magnus_status s = magnus_spmv_host(y, ctx, 1, A, x, 0, &o, NULL);
        cr_assert_eq(ctx->memory_in_use, in_use, "%s: device memory left allocated", bad[i].var);
        cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "%s=%s: %s", bad[i].var, bad[i].value,
                     magnus_status_string(s));
        cr_assert(strstr(magnus_last_error(), bad[i].var), "%s", magnus_last_error());
        unsetenv(bad[i].var);
    }
    magnus_csr_free(&A);
}

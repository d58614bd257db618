/*
 * Generators: reproducibility (same seed, same bits; a pinned checksum catches any change of
 * the R-MAT stream across machines or versions), structure checked against independent dense
 * constructions and closed-form nnz counts, value ranges, argument errors, progress and
 * cancellation, and allocation failures.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "magnus/magnus.h"
#include "reference_test_util.h"

/* A call the generator must refuse with MAGNUS_ERROR_INVALID_ARGUMENT. */
#define EXPECT_INVALID(call) REF_EXPECT_STATUS(call, MAGNUS_ERROR_INVALID_ARGUMENT)

/* ---- helpers --------------------------------------------------------------------------- */

static bool same_matrix(const magnus_csr_s *A, const magnus_csr_s *B) {
    if (A->rows != B->rows || A->cols != B->cols || A->nnz != B->nnz || A->type != B->type)
        return false;
    size_t vsize = magnus_value_size(A->type);
    return memcmp(A->row_ptr, B->row_ptr, (size_t)(A->rows + 1) * sizeof(int64_t)) == 0 &&
           memcmp(A->col_idx, B->col_idx, (size_t)A->nnz * sizeof(int32_t)) == 0 &&
           memcmp(A->values, B->values, (size_t)A->nnz * vsize) == 0;
}

/* FNV-1a over the matrix as numbers (not memory), so the checksum is the same on any host. */
static uint64_t fnv_word(uint64_t h, uint64_t word) {
    for (int b = 0; b < 8; b++) {
        h ^= (word >> (8 * b)) & 0xff;
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint64_t checksum(const magnus_csr_s *A) {
    uint64_t h = 0xcbf29ce484222325ULL;
    h = fnv_word(h, (uint64_t)A->rows);
    h = fnv_word(h, (uint64_t)A->cols);
    h = fnv_word(h, (uint64_t)A->nnz);
    for (int64_t i = 0; i <= A->rows; i++) h = fnv_word(h, (uint64_t)A->row_ptr[i]);
    for (int64_t p = 0; p < A->nnz; p++) {
        double v = ref_value(A, p);
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        h = fnv_word(fnv_word(h, (uint64_t)A->col_idx[p]), bits);
    }
    return h;
}

static void expect_values_in_range(const magnus_csr_s *A) {
    for (int64_t p = 0; p < A->nnz; p++) {
        double v = ref_value(A, p);
        cr_assert(v >= 0.5 && v < 1.5, "value[%lld] = %.17g outside [0.5, 1.5)", (long long)p, v);
    }
}

static magnus_rmat_options rmat(int scale, int64_t per_row, uint64_t seed, magnus_value_type type) {
    magnus_rmat_options opt;
    REF_OK(magnus_rmat_options_init(&opt));
    opt.scale = scale;
    opt.nnz_per_row = per_row;
    opt.seed = seed;
    opt.type = type;
    return opt;
}

/* ---- R-MAT ----------------------------------------------------------------------------- */

Test(rmat, defaults_are_graph500) {
    magnus_rmat_options opt;
    memset(&opt, 0x7f, sizeof opt);
    REF_OK(magnus_rmat_options_init(&opt));
    cr_assert_eq(opt.a, 0.57);
    cr_assert_eq(opt.b, 0.19);
    cr_assert_eq(opt.c, 0.19);
    cr_assert_eq(opt.scale, 10);
    cr_assert_eq(opt.nnz_per_row, 8);
    cr_assert_eq(opt.seed, 1);
    cr_assert_eq(opt.type, MAGNUS_FLOAT32);
    cr_assert_eq(opt.pattern, 0);
    REF_EXPECT_STATUS(magnus_rmat_options_init(NULL), MAGNUS_ERROR_NULL_POINTER);
}

Test(rmat, same_seed_same_matrix_other_seed_differs) {
    magnus_rmat_options opt = rmat(10, 8, 7, MAGNUS_FLOAT64);
    magnus_csr A = NULL, B = NULL, C = NULL;
    REF_OK(magnus_gen_rmat(&A, &opt, NULL, NULL));
    REF_OK(magnus_gen_rmat(&B, &opt, NULL, NULL));
    cr_assert(same_matrix(A, B));
    opt.seed = 8;
    REF_OK(magnus_gen_rmat(&C, &opt, NULL, NULL));
    cr_assert(!same_matrix(A, C));
    cr_assert(A->nnz != C->nnz ||
                  memcmp(A->col_idx, C->col_idx, (size_t)A->nnz * sizeof(int32_t)) != 0,
              "another seed must change the structure, not only the values");
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&C);
}

Test(rmat, shape_validity_and_values) {
    for (int scale = 1; scale <= 12; scale++) {
        magnus_rmat_options opt = rmat(scale, 6, (uint64_t)scale, MAGNUS_FLOAT32);
        magnus_csr A = NULL;
        REF_OK(magnus_gen_rmat(&A, &opt, NULL, NULL));
        int64_t n = (int64_t)1 << scale;
        cr_assert_eq(A->rows, n);
        cr_assert_eq(A->cols, n);
        cr_assert(A->nnz <= 6 * n && A->nnz > 0);
        REF_OK(magnus_csr_validate(A));
        expect_values_in_range(A);
        magnus_csr_free(&A);
    }
}

/* float32 and float64 share the structure; float32 values are the float64 ones truncated to
 * 23 fraction bits, and pattern matrices hold ones. */
Test(rmat, types_and_pattern) {
    magnus_rmat_options opt = rmat(9, 8, 3, MAGNUS_FLOAT64);
    magnus_csr A64 = NULL, A32 = NULL, P = NULL;
    REF_OK(magnus_gen_rmat(&A64, &opt, NULL, NULL));
    opt.type = MAGNUS_FLOAT32;
    REF_OK(magnus_gen_rmat(&A32, &opt, NULL, NULL));
    opt.pattern = 1;
    REF_OK(magnus_gen_rmat(&P, &opt, NULL, NULL));
    cr_assert_eq(A64->nnz, A32->nnz);
    cr_assert_eq(memcmp(A64->col_idx, A32->col_idx, (size_t)A64->nnz * sizeof(int32_t)), 0);
    cr_assert_eq(memcmp(A64->col_idx, P->col_idx, (size_t)A64->nnz * sizeof(int32_t)), 0);
    for (int64_t p = 0; p < A64->nnz; p++) {
        double v64 = ((double *)A64->values)[p], v32 = ((float *)A32->values)[p];
        cr_assert(v32 <= v64 && v64 - v32 < ldexp(1.0, -23), "%.17g vs %.17g", v64, v32);
        cr_assert_eq(((float *)P->values)[p], 1.0f);
    }
    magnus_csr_free(&A64);
    magnus_csr_free(&A32);
    magnus_csr_free(&P);
}

/* A probability of 1 sends every edge to one quadrant at every level: the single entry sits in
 * the matching corner. This pins the quadrant order: a top-left, b top-right, c bottom-left. */
Test(rmat, quadrant_order) {
    const double probs[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}};
    const int32_t row[4] = {0, 0, 63, 63}, col[4] = {0, 63, 0, 63};
    for (int q = 0; q < 4; q++) {
        magnus_rmat_options opt = rmat(6, 4, 1, MAGNUS_FLOAT64);
        opt.a = probs[q][0];
        opt.b = probs[q][1];
        opt.c = probs[q][2];
        magnus_csr A = NULL;
        REF_OK(magnus_gen_rmat(&A, &opt, NULL, NULL));
        cr_assert_eq(A->nnz, 1, "quadrant %d: nnz %lld", q, (long long)A->nnz);
        cr_assert_eq(A->row_ptr[row[q] + 1] - A->row_ptr[row[q]], 1, "quadrant %d", q);
        cr_assert_eq(A->col_idx[0], col[q], "quadrant %d", q);
        magnus_csr_free(&A);
    }
}

/* With a = b = c = d = 1/4 the edges are uniform over the n^2 cells: the expected number of
 * distinct cells after m draws is N(1 - (1-1/N)^m), N = n^2. Scale 8, 2048 edges: about 2016.4
 * (standard deviation about 5.6). */
Test(rmat, uniform_probabilities_match_birthday_count) {
    magnus_rmat_options opt = rmat(8, 8, 99, MAGNUS_FLOAT32);
    opt.a = opt.b = opt.c = 0.25;
    magnus_csr A = NULL;
    REF_OK(magnus_gen_rmat(&A, &opt, NULL, NULL));
    double N = 65536.0, m = 2048.0;
    double expected = N * (1 - pow(1 - 1 / N, m));
    cr_assert(fabs((double)A->nnz - expected) < 30, "nnz %lld, expected about %.1f",
              (long long)A->nnz, expected);
    magnus_csr_free(&A);
}

/* Graph500 skew: rows in the top half receive a+b = 0.76 of the drawn edges. After merging
 * duplicates (more frequent in the dense top) the share of stored entries is a little lower;
 * with 65536 edges it lies well inside [0.70, 0.77]; d = 0.05 would put it near 0.24. */
Test(rmat, graph500_skew) {
    magnus_rmat_options opt = rmat(12, 16, 5, MAGNUS_FLOAT32);
    magnus_csr A = NULL;
    REF_OK(magnus_gen_rmat(&A, &opt, NULL, NULL));
    double top = (double)A->row_ptr[A->rows / 2] / (double)A->nnz;
    cr_assert(top > 0.70 && top < 0.77, "top-half share %.4f", top);
    /* Row 0 is the densest row on average: 0.76^12 of the edges, about 2.5 per thousand. */
    cr_assert(A->row_ptr[1] > 8 * A->nnz / A->rows, "row 0 has %lld entries",
              (long long)A->row_ptr[1]);
    magnus_csr_free(&A);
}

/*
 * Pinned checksum of a small R-MAT: any change to the PRNG, the quadrant mapping, the edge
 * blocking, duplicate merging or value mapping changes it. Computed once with this library
 * (the generator is its own PRNG, so it holds on every machine). If you change the generator
 * on purpose, update the numbers and say so in the commit.
 */
#define PINNED_RMAT_NNZ 1503
#define PINNED_RMAT_CHECKSUM 0x34396ffaf6b1a0cbULL
Test(rmat, pinned_checksum) {
    magnus_rmat_options opt = rmat(8, 8, 42, MAGNUS_FLOAT64);
    magnus_csr A = NULL;
    REF_OK(magnus_gen_rmat(&A, &opt, NULL, NULL));
    uint64_t h = checksum(A);
    cr_log_info("scale 8 seed 42: nnz %lld checksum 0x%016llx", (long long)A->nnz,
                (unsigned long long)h);
    cr_assert_eq(A->nnz, PINNED_RMAT_NNZ, "nnz %lld", (long long)A->nnz);
    cr_assert_eq(h, PINNED_RMAT_CHECKSUM, "checksum 0x%016llx", (unsigned long long)h);
    magnus_csr_free(&A);
}

typedef struct progress_log {
    int calls;
    double last;
    bool monotone, in_range;
    int stop_after; /* return 0 at this call (1-based); 0: never */
} progress_log;

static int record_progress(void *user, double fraction, const char *what) {
    progress_log *log = user;
    log->calls++;
    if (fraction < log->last) log->monotone = false;
    if (fraction < 0 || fraction > 1 || !what || !*what) log->in_range = false;
    log->last = fraction;
    return log->stop_after == 0 || log->calls < log->stop_after;
}

Test(rmat, progress_and_cancel) {
    magnus_rmat_options opt = rmat(16, 8, 1, MAGNUS_FLOAT32); /* 32 blocks of edges */
    progress_log log = {.monotone = true, .in_range = true};
    magnus_csr A = NULL;
    REF_OK(magnus_gen_rmat(&A, &opt, record_progress, &log));
    cr_assert(log.calls >= 10, "%d calls", log.calls);
    cr_assert(log.monotone && log.in_range);
    cr_assert_eq(log.last, 1.0);
    magnus_csr_free(&A);
    for (int stop = 1; stop <= log.calls; stop += 7) {
        progress_log cancel = {.monotone = true, .in_range = true, .stop_after = stop};
        A = (magnus_csr)1;
        REF_EXPECT_STATUS(magnus_gen_rmat(&A, &opt, record_progress, &cancel),
                          MAGNUS_ERROR_CANCELLED);
        cr_assert_null(A);
        cr_assert_eq(cancel.calls, stop);
    }
}

Test(rmat, invalid_options) {
    magnus_csr A = NULL;
    magnus_rmat_options opt = rmat(8, 8, 1, MAGNUS_FLOAT32);
    REF_EXPECT_STATUS(magnus_gen_rmat(&A, NULL, NULL, NULL), MAGNUS_ERROR_NULL_POINTER);
    REF_EXPECT_STATUS(magnus_gen_rmat(NULL, &opt, NULL, NULL), MAGNUS_ERROR_NULL_POINTER);
    const struct {
        int scale;
        int64_t per_row;
        double a, b, c;
        int type;
        magnus_status status;
    } bad[] = {
        {0, 8, .57, .19, .19, MAGNUS_FLOAT32, MAGNUS_ERROR_INVALID_ARGUMENT},
        {31, 8, .57, .19, .19, MAGNUS_FLOAT32, MAGNUS_ERROR_INVALID_ARGUMENT},
        {8, -1, .57, .19, .19, MAGNUS_FLOAT32, MAGNUS_ERROR_INVALID_ARGUMENT},
        {8, 8, -0.1, .19, .19, MAGNUS_FLOAT32, MAGNUS_ERROR_INVALID_ARGUMENT},
        {8, 8, .57, 1.5, .19, MAGNUS_FLOAT32, MAGNUS_ERROR_INVALID_ARGUMENT},
        {8, 8, .6, .3, .2, MAGNUS_FLOAT32, MAGNUS_ERROR_INVALID_ARGUMENT}, /* sum 1.1 */
        {8, 8, NAN, .19, .19, MAGNUS_FLOAT32, MAGNUS_ERROR_INVALID_ARGUMENT},
        {8, 8, .57, .19, .19, 7, MAGNUS_ERROR_UNSUPPORTED_TYPE},
        {30, INT64_MAX / 1024, .57, .19, .19, MAGNUS_FLOAT32, MAGNUS_ERROR_SIZE_OVERFLOW},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        opt = rmat(bad[i].scale, bad[i].per_row, 1, (magnus_value_type)bad[i].type);
        opt.a = bad[i].a;
        opt.b = bad[i].b;
        opt.c = bad[i].c;
        A = (magnus_csr)1;
        magnus_status s = magnus_gen_rmat(&A, &opt, NULL, NULL);
        cr_assert_eq(s, bad[i].status, "case %zu: status %d (%s)", i, s, magnus_last_error());
        cr_assert_null(A);
        cr_assert(strlen(magnus_last_error()) > 0);
    }
    /* Zero edges: a valid empty matrix. */
    opt = rmat(5, 0, 1, MAGNUS_FLOAT32);
    REF_OK(magnus_gen_rmat(&A, &opt, NULL, NULL));
    cr_assert_eq(A->nnz, 0);
    cr_assert_eq(A->rows, 32);
    magnus_csr_free(&A);
}

/* ---- Laplacians ------------------------------------------------------------------------ */

/* Dense stencil matrix built from grid geometry alone, independently of the generator. */
static void expect_stencil(const magnus_csr_s *A, int64_t nx, int64_t ny, int64_t nz,
                           double diagonal) {
    int64_t n = nx * ny * nz;
    cr_assert_eq(A->rows, n);
    cr_assert_eq(A->cols, n);
    double *dense, *got;
    unsigned char *pattern, *got_pattern;
    dense = calloc((size_t)(n * n) + 1, sizeof *dense);
    pattern = calloc((size_t)(n * n) + 1, 1);
    for (int64_t z = 0; z < nz; z++)
        for (int64_t y = 0; y < ny; y++)
            for (int64_t x = 0; x < nx; x++) {
                int64_t i = x + nx * (y + ny * z);
                const int64_t d[7][3] = {{0, 0, 0},  {1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                         {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
                for (int k = 0; k < 7; k++) {
                    int64_t X = x + d[k][0], Y = y + d[k][1], Z = z + d[k][2];
                    if (X < 0 || X >= nx || Y < 0 || Y >= ny || Z < 0 || Z >= nz) continue;
                    int64_t j = X + nx * (Y + ny * Z);
                    dense[i * n + j] = k == 0 ? diagonal : -1;
                    pattern[i * n + j] = 1;
                }
            }
    ref_dense(A, &got, &got_pattern);
    for (int64_t x = 0; x < n * n; x++) {
        cr_assert_eq(got_pattern[x], pattern[x], "%lldx%lldx%lld entry (%lld,%lld)", (long long)nx,
                     (long long)ny, (long long)nz, (long long)(x / n), (long long)(x % n));
        cr_assert_eq(got[x], dense[x]);
    }
    free(dense), free(pattern), free(got), free(got_pattern);
}

Test(laplacian, two_d) {
    const int64_t sizes[][2] = {{1, 1}, {1, 5}, {5, 1}, {2, 2}, {3, 4}, {7, 6}, {0, 3}, {3, 0}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int64_t nx = sizes[s][0], ny = sizes[s][1];
        for (int t = 1; t <= 2; t++) {
            magnus_csr A = NULL;
            REF_OK(magnus_gen_laplacian_2d(&A, nx, ny, (magnus_value_type)t));
            REF_OK(magnus_csr_validate(A));
            int64_t want = nx * ny != 0 ? 5 * nx * ny - 2 * nx - 2 * ny : 0;
            cr_assert_eq(A->nnz, want, "%lld x %lld: nnz %lld, formula %lld", (long long)nx,
                         (long long)ny, (long long)A->nnz, (long long)want);
            expect_stencil(A, nx, ny, 1, 4.0);
            magnus_csr_free(&A);
        }
    }
}

Test(laplacian, three_d) {
    const int64_t sizes[][3] = {{1, 1, 1}, {2, 3, 4}, {4, 3, 2}, {5, 5, 5}, {1, 1, 6}, {2, 0, 2}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int64_t nx = sizes[s][0], ny = sizes[s][1], nz = sizes[s][2], n = nx * ny * nz;
        magnus_csr A = NULL;
        REF_OK(magnus_gen_laplacian_3d(&A, nx, ny, nz, MAGNUS_FLOAT64));
        REF_OK(magnus_csr_validate(A));
        int64_t want = n != 0 ? 7 * n - 2 * (nx * ny + ny * nz + nx * nz) : 0;
        cr_assert_eq(A->nnz, want);
        expect_stencil(A, nx, ny, nz, 6.0);
        magnus_csr_free(&A);
    }
}

Test(laplacian, invalid_sizes) {
    magnus_csr A = (magnus_csr)1;
    EXPECT_INVALID(magnus_gen_laplacian_2d(&A, -1, 3, MAGNUS_FLOAT32));
    cr_assert_null(A);
    EXPECT_INVALID(magnus_gen_laplacian_3d(&A, 3, 3, -2, MAGNUS_FLOAT32));
    EXPECT_INVALID(magnus_gen_laplacian_2d(&A, 1 << 16, 1 << 16, MAGNUS_FLOAT32)); /* 2^32 rows */
    REF_EXPECT_STATUS(magnus_gen_laplacian_3d(&A, INT64_MAX / 2, 3, 1, MAGNUS_FLOAT32),
                      MAGNUS_ERROR_SIZE_OVERFLOW);
    REF_EXPECT_STATUS(magnus_gen_laplacian_2d(&A, 3, 3, (magnus_value_type)0),
                      MAGNUS_ERROR_UNSUPPORTED_TYPE);
    REF_EXPECT_STATUS(magnus_gen_laplacian_2d(NULL, 3, 3, MAGNUS_FLOAT32),
                      MAGNUS_ERROR_NULL_POINTER);
}

/* ---- band ------------------------------------------------------------------------------ */

Test(banded, structure_values_and_reproducibility) {
    const int64_t cases[][3] = {{10, 1, 1},  {10, 0, 0}, {10, 3, 0}, {10, 0, 4},
                                {7, 20, 20}, {1, 0, 0},  {0, 2, 2},  {50, 5, 2}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int64_t n = cases[c][0], lower = cases[c][1], upper = cases[c][2];
        magnus_csr A = NULL, B = NULL;
        REF_OK(magnus_gen_banded(&A, n, lower, upper, 17, MAGNUS_FLOAT64));
        REF_OK(magnus_csr_validate(A));
        int64_t want = 0;
        for (int64_t i = 0; i < n; i++) {
            for (int64_t j = 0; j < n; j++) {
                bool in_band = j - i >= -lower && j - i <= upper;
                bool stored = false;
                for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++)
                    stored |= A->col_idx[p] == j;
                cr_assert_eq(stored, in_band, "n %lld band [-%lld, %lld]: (%lld,%lld)",
                             (long long)n, (long long)lower, (long long)upper, (long long)i,
                             (long long)j);
                want += in_band;
            }
        }
        cr_assert_eq(A->nnz, want);
        expect_values_in_range(A);
        REF_OK(magnus_gen_banded(&B, n, lower, upper, 17, MAGNUS_FLOAT64));
        cr_assert(same_matrix(A, B));
        magnus_csr_free(&B);
        if (A->nnz > 1) {
            REF_OK(magnus_gen_banded(&B, n, lower, upper, 18, MAGNUS_FLOAT64));
            cr_assert(!same_matrix(A, B), "another seed must change the values");
            magnus_csr_free(&B);
        }
        magnus_csr_free(&A);
    }
}

Test(banded, invalid_arguments) {
    magnus_csr A = (magnus_csr)1;
    EXPECT_INVALID(magnus_gen_banded(&A, -1, 0, 0, 1, MAGNUS_FLOAT32));
    cr_assert_null(A);
    EXPECT_INVALID(magnus_gen_banded(&A, 5, -1, 0, 1, MAGNUS_FLOAT32));
    EXPECT_INVALID(magnus_gen_banded(&A, 5, 0, -1, 1, MAGNUS_FLOAT32));
    EXPECT_INVALID(magnus_gen_banded(&A, (int64_t)INT32_MAX + 1, 0, 0, 1, MAGNUS_FLOAT32));
    REF_EXPECT_STATUS(magnus_gen_banded(&A, 5, 0, 0, 1, (magnus_value_type)3),
                      MAGNUS_ERROR_UNSUPPORTED_TYPE);
}

/* ---- uniform --------------------------------------------------------------------------- */

Test(uniform, row_lengths_and_validity) {
    magnus_csr A = NULL, B = NULL;
    REF_OK(magnus_gen_uniform(&A, 2000, 300, 6.25, 4, MAGNUS_FLOAT32));
    REF_OK(magnus_csr_validate(A)); /* distinct, sorted columns */
    expect_values_in_range(A);
    int64_t longer = 0;
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t len = A->row_ptr[i + 1] - A->row_ptr[i];
        cr_assert(len == 6 || len == 7, "row %lld has %lld entries", (long long)i, (long long)len);
        longer += len == 7;
    }
    /* 7 with probability 1/4: 500 of 2000 expected, standard deviation about 19. */
    cr_assert(longer > 400 && longer < 600, "%lld rows of 7", (long long)longer);
    REF_OK(magnus_gen_uniform(&B, 2000, 300, 6.25, 4, MAGNUS_FLOAT32));
    cr_assert(same_matrix(A, B));
    magnus_csr_free(&B);
    REF_OK(magnus_gen_uniform(&B, 2000, 300, 6.25, 5, MAGNUS_FLOAT32));
    cr_assert(!same_matrix(A, B));
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

/* Each column is equally likely: with 5 of 10 columns per row over 2000 rows, every column
 * appears about 1000 times (binomial, standard deviation about 22). */
Test(uniform, columns_uniform) {
    magnus_csr A = NULL;
    REF_OK(magnus_gen_uniform(&A, 2000, 10, 5, 9, MAGNUS_FLOAT64));
    cr_assert_eq(A->nnz, 10000);
    int64_t count[10] = {0};
    for (int64_t p = 0; p < A->nnz; p++) count[A->col_idx[p]]++;
    for (int j = 0; j < 10; j++)
        cr_assert(count[j] > 880 && count[j] < 1120, "column %d appears %lld times", j,
                  (long long)count[j]);
    magnus_csr_free(&A);
}

Test(uniform, full_rows_and_degenerate_shapes) {
    magnus_csr A = NULL;
    REF_OK(magnus_gen_uniform(&A, 20, 7, 50, 1, MAGNUS_FLOAT64)); /* more than cols: full */
    cr_assert_eq(A->nnz, 140);
    REF_OK(magnus_csr_validate(A));
    magnus_csr_free(&A);
    REF_OK(magnus_gen_uniform(&A, 0, 7, 3, 1, MAGNUS_FLOAT64));
    cr_assert_eq(A->nnz, 0);
    magnus_csr_free(&A);
    REF_OK(magnus_gen_uniform(&A, 5, 0, 3, 1, MAGNUS_FLOAT64));
    cr_assert_eq(A->nnz, 0);
    cr_assert_eq(A->rows, 5);
    magnus_csr_free(&A);
    REF_OK(magnus_gen_uniform(&A, 5, 5, 0, 1, MAGNUS_FLOAT64));
    cr_assert_eq(A->nnz, 0);
    magnus_csr_free(&A);
    /* Long rows in a wide matrix exercise the radix sort of the columns. */
    REF_OK(magnus_gen_uniform(&A, 10, 1 << 20, 3000, 2, MAGNUS_FLOAT32));
    cr_assert_eq(A->nnz, 30000);
    REF_OK(magnus_csr_validate(A));
    magnus_csr_free(&A);
}

Test(uniform, invalid_arguments) {
    magnus_csr A = (magnus_csr)1;
    EXPECT_INVALID(magnus_gen_uniform(&A, -1, 5, 1, 1, MAGNUS_FLOAT32));
    cr_assert_null(A);
    EXPECT_INVALID(magnus_gen_uniform(&A, 5, -5, 1, 1, MAGNUS_FLOAT32));
    EXPECT_INVALID(magnus_gen_uniform(&A, 5, 5, -1, 1, MAGNUS_FLOAT32));
    EXPECT_INVALID(magnus_gen_uniform(&A, 5, 5, NAN, 1, MAGNUS_FLOAT32));
    EXPECT_INVALID(magnus_gen_uniform(&A, 5, 5, INFINITY, 1, MAGNUS_FLOAT32));
    EXPECT_INVALID(magnus_gen_uniform(&A, 5, (int64_t)INT32_MAX + 1, 1, 1, MAGNUS_FLOAT32));
    REF_EXPECT_STATUS(magnus_gen_uniform(&A, 5, 5, 1, 1, (magnus_value_type)9),
                      MAGNUS_ERROR_UNSUPPORTED_TYPE);
    REF_EXPECT_STATUS(magnus_gen_uniform(NULL, 5, 5, 1, 1, MAGNUS_FLOAT32),
                      MAGNUS_ERROR_NULL_POINTER);
}

/* ---- allocation failures --------------------------------------------------------------- */

typedef magnus_status (*generate_fn)(magnus_csr *out);
static magnus_status gen_rmat_small(magnus_csr *out) {
    magnus_rmat_options opt = rmat(6, 4, 1, MAGNUS_FLOAT32);
    return magnus_gen_rmat(out, &opt, NULL, NULL);
}
static magnus_status gen_lap2(magnus_csr *out) {
    return magnus_gen_laplacian_2d(out, 4, 5, MAGNUS_FLOAT64);
}
static magnus_status gen_lap3(magnus_csr *out) {
    return magnus_gen_laplacian_3d(out, 3, 4, 5, MAGNUS_FLOAT64);
}
static magnus_status gen_band(magnus_csr *out) {
    return magnus_gen_banded(out, 30, 2, 3, 1, MAGNUS_FLOAT64);
}
static magnus_status gen_unif(magnus_csr *out) {
    return magnus_gen_uniform(out, 30, 40, 5, 1, MAGNUS_FLOAT64);
}

Test(generators, allocation_failures) {
    const generate_fn fns[] = {gen_rmat_small, gen_lap2, gen_lap3, gen_band, gen_unif};
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
        bool succeeded = false;
        for (int64_t n = 0; n < 50 && !succeeded; n++) {
            magnus_csr A = NULL;
            magnus_host_alloc_fail_after(n);
            magnus_status s = fns[f](&A);
            magnus_host_alloc_fail_after(-1);
            if (s == MAGNUS_SUCCESS) {
                succeeded = true;
                magnus_csr_free(&A);
                continue;
            }
            cr_assert_eq(s, MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "generator %zu after %lld: %s", f,
                         (long long)n, magnus_last_error());
            cr_assert_null(A);
        }
        cr_assert(succeeded, "generator %zu", f);
    }
}

/*
 * R-MAT generator (Chakrabarti, Zhan, Faloutsos 2004) with the Graph500 parameters as default.
 *
 * Each of the nnz_per_row * 2^scale edges picks its (row, col) by `scale` recursive choices of
 * a quadrant: top-left with probability a, top-right b, bottom-left c, bottom-right
 * d = 1-a-b-c; the first choice decides the most significant bit of row and column.
 * Duplicate edges are then merged (one entry each), so nnz <= nnz_per_row * 2^scale.
 *
 * This is plain R-MAT as PaRMAT draws it, which is what the gMAGNUS paper used: no noise on
 * the probabilities per level and no vertex permutation (Graph500's Kronecker generator adds
 * both). Without the permutation, low row and column numbers are the dense ones, so the heavy
 * rows of A·B cluster at the top: keep that in mind when reading per-row-range timings.
 *
 * Determinism: edges are drawn in blocks of a fixed size, block k from its own stream seeded
 * by (seed, k), and values from a separate stream in CSR order, so the matrix depends only on
 * the options, never on the machine.
 */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "prng.h"
#include "sort_columns.h"

#define RMAT_EDGES_PER_BLOCK ((int64_t)1 << 14)
#define RMAT_STREAM_VALUES 0x76616c7565ULL /* "value" */
#define RMAT_STREAM_EDGES 0x6564676573ULL  /* "edges"; block k uses this + 1 + k */
#define RMAT_PROGRESS_STEPS 50             /* progress calls while drawing edges */
#define RMAT_DRAW_SHARE 0.7                /* share of the progress bar for drawing */

magnus_status magnus_rmat_options_init(magnus_rmat_options *opt) {
    magnus_error_clear();
    if (!opt)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_rmat_options_init: opt is NULL");
    memset(opt, 0, sizeof *opt);
    opt->scale = 10;
    opt->nnz_per_row = 8;
    opt->a = 0.57;
    opt->b = 0.19;
    opt->c = 0.19;
    opt->seed = 1;
    opt->type = MAGNUS_FLOAT32;
    opt->pattern = 0;
    return MAGNUS_SUCCESS;
}

static bool probability_ok(double p) { return isfinite(p) && p >= 0 && p <= 1; }

static magnus_status check_options(const magnus_rmat_options *opt, int64_t *edges) {
    if (opt->scale < 1 || opt->scale > 30)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "R-MAT: scale %d outside 1..30", opt->scale);
    if (opt->nnz_per_row < 0)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "R-MAT: nnz_per_row %lld < 0",
                            (long long)opt->nnz_per_row);
    if (!probability_ok(opt->a) || !probability_ok(opt->b) || !probability_ok(opt->c) ||
        opt->a + opt->b + opt->c > 1 + 1e-12)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "R-MAT: probabilities a=%g b=%g c=%g must each lie in [0,1] "
                            "with a+b+c <= 1",
                            opt->a, opt->b, opt->c);
    if (magnus_value_size(opt->type) == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "R-MAT: value type %d",
                            (int)opt->type);
    size_t bytes;
    if (!magnus_mul_i64(opt->nnz_per_row, (int64_t)1 << opt->scale, edges) ||
        !magnus_mul_size((size_t)*edges, 2 * sizeof(int32_t) + sizeof(double), &bytes))
        return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW,
                            "R-MAT: %lld edges per row at scale %d overflow",
                            (long long)opt->nnz_per_row, opt->scale);
    return MAGNUS_SUCCESS;
}

/* Quadrant thresholds on a 32-bit uniform r: r < a_end picks top-left, r < b_end top-right,
 * r < c_end bottom-left, else bottom-right. Integers make the choice exact and portable. */
typedef struct rmat_thresholds {
    uint64_t a_end, b_end, c_end;
} rmat_thresholds;

static uint64_t threshold_of(double p) {
    double t = floor(p * 4294967296.0 + 0.5);
    return t >= 4294967296.0 ? (uint64_t)1 << 32 : (uint64_t)t;
}

/* Draws edges [first, first+count) of block `block` into rows/cols. */
static void draw_block(int32_t *rows, int32_t *cols, int64_t count, int scale,
                       const rmat_thresholds *t, uint64_t seed, int64_t block) {
    magnus_prng g;
    magnus_prng_seed(&g, magnus_prng_derive(seed, RMAT_STREAM_EDGES + 1 + (uint64_t)block));
    for (int64_t e = 0; e < count; e++) {
        uint32_t row = 0, col = 0;
        uint64_t bits = 0;
        for (int level = 0; level < scale; level++) {
            /* Two levels per 64-bit draw. */
            if ((level & 1) == 0) bits = magnus_prng_next(&g);
            uint64_t r = (level & 1) ? bits >> 32 : bits & 0xffffffffu;
            uint32_t row_bit = r >= t->b_end; /* bottom half: c or d */
            uint32_t col_bit = (r >= t->a_end && r < t->b_end) | (r >= t->c_end); /* b or d */
            row = (row << 1) | row_bit;
            col = (col << 1) | col_bit;
        }
        rows[e] = (int32_t)row;
        cols[e] = (int32_t)col;
    }
}

static magnus_status report(magnus_progress_fn progress, void *user, double fraction,
                            const char *what) {
    if (progress && !progress(user, fraction, what))
        return magnus_error(MAGNUS_ERROR_CANCELLED, "R-MAT: cancelled at %.0f%% (%s)",
                            fraction * 100, what);
    return MAGNUS_SUCCESS;
}

/* Fills values from their own stream in CSR order. */
static void fill_values(magnus_csr A, uint64_t seed, int pattern) {
    magnus_prng g;
    magnus_prng_seed(&g, magnus_prng_derive(seed, RMAT_STREAM_VALUES));
    if (A->type == MAGNUS_FLOAT32) {
        float *v = A->values;
        for (int64_t p = 0; p < A->nnz; p++)
            v[p] = pattern ? 1.0f : magnus_prng_value32(magnus_prng_next(&g));
    } else {
        double *v = A->values;
        for (int64_t p = 0; p < A->nnz; p++)
            v[p] = pattern ? 1.0 : magnus_prng_value64(magnus_prng_next(&g));
    }
}

magnus_status magnus_gen_rmat(magnus_csr *out, const magnus_rmat_options *opt,
                              magnus_progress_fn progress, void *progress_user) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_gen_rmat: output is NULL");
    *out = NULL;
    if (!opt) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_gen_rmat: opt is NULL");
    int64_t edges = 0;
    magnus_status s = check_options(opt, &edges);
    if (s) return s;
    int64_t n = (int64_t)1 << opt->scale;
    rmat_thresholds t = {threshold_of(opt->a), threshold_of(opt->a + opt->b),
                         threshold_of(opt->a + opt->b + opt->c)};

    int32_t *edge_rows = magnus_host_malloc((size_t)edges * sizeof *edge_rows);
    int32_t *edge_cols = magnus_host_malloc((size_t)edges * sizeof *edge_cols);
    int32_t *by_row = magnus_host_malloc((size_t)edges * sizeof *by_row);
    int64_t *row_ptr = magnus_host_calloc((size_t)n + 1, sizeof *row_ptr);
    int32_t *scratch = NULL;
    magnus_csr A = NULL;
    if (!edge_rows || !edge_cols || !by_row || !row_ptr) goto oom;

    /* 1. Draw the edges, block by block. */
    int64_t blocks = (edges + RMAT_EDGES_PER_BLOCK - 1) / RMAT_EDGES_PER_BLOCK;
    int64_t next_report = 0;
    for (int64_t k = 0; k < blocks; k++) {
        if (k >= next_report) {
            if ((s = report(progress, progress_user, RMAT_DRAW_SHARE * (double)k / (double)blocks,
                            "R-MAT: drawing edges")))
                goto fail;
            next_report = k + (blocks + RMAT_PROGRESS_STEPS - 1) / RMAT_PROGRESS_STEPS;
        }
        int64_t first = k * RMAT_EDGES_PER_BLOCK;
        int64_t count = edges - first < RMAT_EDGES_PER_BLOCK ? edges - first : RMAT_EDGES_PER_BLOCK;
        draw_block(edge_rows + first, edge_cols + first, count, opt->scale, &t, opt->seed, k);
    }
    if ((s = report(progress, progress_user, RMAT_DRAW_SHARE, "R-MAT: building CSR"))) goto fail;

    /* 2. Counting sort by row; stable, so each row holds its columns in drawing order. */
    for (int64_t e = 0; e < edges; e++) row_ptr[edge_rows[e] + 1]++;
    int64_t longest = 0;
    for (int64_t i = 0; i < n; i++) {
        if (row_ptr[i + 1] > longest) longest = row_ptr[i + 1];
        row_ptr[i + 1] += row_ptr[i];
    }
    /* row_ptr[r] serves as row r's fill cursor and ends at row r+1's start: shift it back. */
    for (int64_t e = 0; e < edges; e++) by_row[row_ptr[edge_rows[e]]++] = edge_cols[e];
    memmove(row_ptr + 1, row_ptr, (size_t)n * sizeof *row_ptr);
    row_ptr[0] = 0;
    magnus_host_free(edge_rows);
    magnus_host_free(edge_cols);
    edge_rows = edge_cols = NULL;

    /* 3. Sort each row and merge duplicates, compacting towards the front. */
    scratch = magnus_host_malloc((size_t)longest * sizeof *scratch);
    if (!scratch) goto oom;
    int key_bits = opt->scale;
    int64_t kept = 0, row_start = 0;
    for (int64_t i = 0; i < n; i++) {
        if ((i & ((1 << 16) - 1)) == 0 && i > 0 &&
            (s = report(progress, progress_user,
                        RMAT_DRAW_SHARE + (1 - RMAT_DRAW_SHARE) * (double)i / (double)n,
                        "R-MAT: building CSR")))
            goto fail;
        int64_t row_end = row_ptr[i + 1];
        int32_t *row = by_row + row_start;
        int64_t len = row_end - row_start;
        magnus_sort_columns(row, scratch, len, key_bits);
        row_ptr[i] = kept;
        for (int64_t p = 0; p < len; p++)
            if (p == 0 || row[p] != row[p - 1]) by_row[kept++] = row[p];
        row_start = row_end;
    }
    row_ptr[n] = kept;

    /* 4. The matrix, with values from their own stream. */
    if ((s = magnus_csr_new(&A, n, n, kept, opt->type))) goto fail;
    memcpy(A->row_ptr, row_ptr, ((size_t)n + 1) * sizeof *row_ptr);
    memcpy(A->col_idx, by_row, (size_t)kept * sizeof *by_row);
    fill_values(A, opt->seed, opt->pattern);
    if ((s = report(progress, progress_user, 1.0, "R-MAT: done"))) goto fail;
    magnus_host_free(by_row);
    magnus_host_free(row_ptr);
    magnus_host_free(scratch);
    *out = A;
    return MAGNUS_SUCCESS;

oom:
    s = magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                     "R-MAT: cannot allocate %lld edges at scale %d", (long long)edges,
                     opt->scale);
fail:
    magnus_host_free(edge_rows);
    magnus_host_free(edge_cols);
    magnus_host_free(by_row);
    magnus_host_free(row_ptr);
    magnus_host_free(scratch);
    magnus_csr_free(&A);
    return s;
}

/*
 * The star-mixture generator: square matrices shaped like LP constraint matrices, a few very
 * long rows among many short ones, built so that C = A*A has both very long rows of products
 * and rows wider than a dense accumulator row (issue 34: where bitmask-tile SpGEMM codes beat
 * a row-wise hash/dense choice in f64).
 *
 * Structure of the n x n matrix for (n, long_rows L, long_len LEN, short_deg DEG, seed):
 *   - the long rows: L distinct row indices drawn uniformly from [0, n) (a "hub" each);
 *   - a long row holds exactly LEN distinct columns drawn uniformly from all of [0, n), so
 *     C's row of a hub gathers LEN short rows (about LEN*DEG products) spread over every
 *     column: its width is about min(n, LEN*DEG), far past a dense row's column limit;
 *   - every other (short) row holds DEG distinct uniformly random columns, except that each
 *     hub is the column of exactly min(DEG, n-L) short rows (drawn uniformly among the short
 *     rows): a short row chosen by h hubs has the h hub columns plus max(DEG-h, 0) of its own
 *     random ones, so max(DEG, h) entries. Each hub column k of a short row brings hub k's LEN
 *     products into C's row, so those L*min(DEG, n-L) rows of C are at least LEN wide too:
 *     the "star" is the hub with its long row out and its DEG spokes in;
 *   - nnz = L*LEN + sum over short rows of max(DEG, h). When LEN > max(DEG, L), exactly L rows
 *     hold LEN entries and every other row fewer, so max/mean row length is LEN / (nnz/n).
 * The hub columns are what a uniformly random matrix lacks: in LP constraint matrices the
 * dense rows' own indices recur as columns of sparse rows (linking constraints), so the long
 * rows are reached from short ones and not only read.
 *
 * Determinism: each part draws from its own stream (hub rows, spokes, columns row by row,
 * values in CSR order), so the matrix depends only on the arguments, as in the other
 * generators; values are uniform in [0.5, 1.5).
 */
#include "internal.h"
#include "prng.h"
#include "sample_columns.h"
#include "sort_columns.h"

#define STREAM_STAR_HUBS 0x68756273ULL    /* "hubs": which rows are long */
#define STREAM_STAR_SPOKES 0x73706bULL    /* "spk": which short rows take each hub column */
#define STREAM_STAR_COLUMNS 0x73636f6cULL /* "scol" */
#define STREAM_STAR_VALUES 0x7376616cULL  /* "sval" */

/* The generator's working arrays, freed together. */
typedef struct star_work {
    uint8_t *is_hub;        /* n: 1 for a long row */
    int32_t *hubs;          /* L long row indices, ascending */
    int32_t *short_rows;    /* n - L short row indices, ascending */
    int64_t *spoke_ptr;     /* n + 1: a row's hub columns are spoke_hub[spoke_ptr[i]..] */
    int32_t *spoke_hub;     /* L * spokes */
    int32_t *drawn;         /* L * spokes positions among the short rows, per hub */
    int32_t *slots_big;     /* sets for the long rows and the draws of rows */
    int32_t *slots_small;   /* the set for one short row */
    int32_t *scratch;       /* a row's sampled columns, then the sort's buffer */
} star_work;

static void star_work_free(star_work *w) {
    magnus_host_free(w->is_hub);
    magnus_host_free(w->hubs);
    magnus_host_free(w->short_rows);
    magnus_host_free(w->spoke_ptr);
    magnus_host_free(w->spoke_hub);
    magnus_host_free(w->drawn);
    magnus_host_free(w->slots_big);
    magnus_host_free(w->slots_small);
    magnus_host_free(w->scratch);
}

static void *alloc_array(size_t count, size_t size) {
    size_t bytes;
    return magnus_mul_size(count, size, &bytes) ? magnus_host_malloc(bytes) : NULL;
}

/* A set with at least 2*most slots (so probes stay short) over the buffer *slots. */
static bool make_set(column_set *set, int32_t **slots, int64_t most) {
    int bits = magnus_key_bits(2 * most > 1 ? 2 * most : 2);
    *slots = alloc_array((size_t)1 << bits, sizeof **slots);
    set->slots = *slots;
    set->mask = ((uint64_t)1 << bits) - 1;
    return *slots != NULL;
}

static int32_t max_i32(int64_t a, int64_t b) { return (int32_t)(a > b ? a : b); }

/* Which rows are long, which short rows take each hub as a column, and every row's hub
 * columns (spoke_ptr / spoke_hub). Returns false when out of memory. */
static bool draw_hubs_and_spokes(star_work *w, column_set *big, int64_t n, int64_t L,
                                 int64_t spokes, uint64_t seed, int32_t *most_hubs) {
    int64_t shorts = n - L;
    magnus_prng g;
    magnus_prng_seed(&g, magnus_prng_derive(seed, STREAM_STAR_HUBS));
    sample_columns(w->hubs, L, n, big, &g);
    magnus_sort_columns(w->hubs, w->scratch, L, magnus_key_bits(n));
    for (int64_t r = 0; r < L; r++) w->is_hub[w->hubs[r]] = 1;
    for (int64_t i = 0, s = 0; i < n; i++)
        if (!w->is_hub[i]) w->short_rows[s++] = (int32_t)i;

    magnus_prng_seed(&g, magnus_prng_derive(seed, STREAM_STAR_SPOKES));
    for (int64_t r = 0; r < L; r++) sample_columns(w->drawn + r * spokes, spokes, shorts, big, &g);
    /* Counting sort of (short row, hub) by row; hubs stay ascending within a row. */
    memset(w->spoke_ptr, 0, (size_t)(n + 1) * sizeof *w->spoke_ptr);
    for (int64_t p = 0; p < L * spokes; p++) w->spoke_ptr[w->short_rows[w->drawn[p]] + 1]++;
    *most_hubs = 0;
    for (int64_t i = 0; i < n; i++) {
        if (w->spoke_ptr[i + 1] > *most_hubs) *most_hubs = (int32_t)w->spoke_ptr[i + 1];
        w->spoke_ptr[i + 1] += w->spoke_ptr[i];
    }
    int64_t *next = alloc_array((size_t)n + 1, sizeof *next);
    if (!next) return false;
    memcpy(next, w->spoke_ptr, (size_t)(n + 1) * sizeof *next);
    for (int64_t r = 0; r < L; r++)
        for (int64_t t = 0; t < spokes; t++)
            w->spoke_hub[next[w->short_rows[w->drawn[r * spokes + t]]]++] = w->hubs[r];
    magnus_host_free(next);
    return true;
}

/* A short row: its hub columns, then its own random columns not among them, max(DEG, h) in
 * all. The draws are DEG per row whatever h is, so the stream stays aligned. */
static void fill_short_row(int32_t *row, const int32_t *row_hubs, int64_t h, int64_t deg,
                           int64_t n, column_set *small, int32_t *sampled, magnus_prng *g) {
    sample_columns(sampled, deg, n, small, g);
    memset(small->slots, 0xff, ((size_t)small->mask + 1) * sizeof *small->slots);
    int64_t k = 0;
    for (int64_t t = 0; t < h; t++) {
        column_set_insert(small, row_hubs[t]);
        row[k++] = row_hubs[t];
    }
    for (int64_t t = 0; t < deg && k < deg; t++)
        if (column_set_insert(small, sampled[t])) row[k++] = sampled[t];
}

magnus_status magnus_gen_star(magnus_csr *out, int64_t n, int64_t long_rows, int64_t long_len,
                              int64_t short_deg, uint64_t seed, magnus_value_type type) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_gen_star: output is NULL");
    *out = NULL;
    if (n < 0 || n > INT32_MAX || long_rows < 0 || long_rows > n || long_len < 0 ||
        long_len > n || short_deg < 0 || short_deg > n)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "star: n = %lld, long rows = %lld, their length = %lld, short-row "
                            "degree = %lld (need 0 <= n <= 2^31-1 and the others in 0..n)",
                            (long long)n, (long long)long_rows, (long long)long_len,
                            (long long)short_deg);
    if (magnus_value_size(type) == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "star: value type %d", (int)type);
    const int64_t L = long_rows, shorts = n - L;
    const int64_t spokes = short_deg < shorts ? short_deg : shorts;
    star_work w = {0};
    magnus_csr A = NULL;
    magnus_status s;
    column_set big, small;
    w.is_hub = magnus_host_calloc((size_t)n + 1, 1);
    w.hubs = alloc_array((size_t)L + 1, sizeof *w.hubs);
    w.short_rows = alloc_array((size_t)shorts + 1, sizeof *w.short_rows);
    w.spoke_ptr = alloc_array((size_t)n + 1, sizeof *w.spoke_ptr);
    w.spoke_hub = alloc_array((size_t)(L * spokes) + 1, sizeof *w.spoke_hub);
    w.drawn = alloc_array((size_t)(L * spokes) + 1, sizeof *w.drawn);
    /* Scratch serves the sort of the longest row and of the hub indices. */
    w.scratch = alloc_array((size_t)max_i32(max_i32(long_len, short_deg), L) + 1,
                            sizeof *w.scratch);
    int32_t most_hubs = 0;
    if (!w.is_hub || !w.hubs || !w.short_rows || !w.spoke_ptr || !w.spoke_hub || !w.drawn ||
        !w.scratch || !make_set(&big, &w.slots_big, max_i32(max_i32(long_len, L), spokes)) ||
        !draw_hubs_and_spokes(&w, &big, n, L, spokes, seed, &most_hubs) ||
        !make_set(&small, &w.slots_small, max_i32(short_deg, most_hubs)))
        goto oom;
    /* A short row holds max(DEG, h) <= max(DEG, L) entries, so scratch fits every row. */
    int64_t nnz = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t h = w.spoke_ptr[i + 1] - w.spoke_ptr[i];
        int64_t len = w.is_hub[i] ? long_len : (h > short_deg ? h : short_deg);
        if (!magnus_add_i64(nnz, len, &nnz)) {
            s = magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "star: nnz overflows");
            goto fail;
        }
    }
    if ((s = magnus_csr_new(&A, n, n, nnz, type))) goto fail;
    magnus_prng g;
    magnus_prng_seed(&g, magnus_prng_derive(seed, STREAM_STAR_COLUMNS));
    int key_bits = magnus_key_bits(n);
    A->row_ptr[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        int32_t *row = A->col_idx + A->row_ptr[i];
        int64_t h = w.spoke_ptr[i + 1] - w.spoke_ptr[i], k;
        if (w.is_hub[i]) {
            k = long_len;
            sample_columns(row, k, n, &big, &g);
        } else {
            k = h > short_deg ? h : short_deg;
            fill_short_row(row, w.spoke_hub + w.spoke_ptr[i], h, short_deg, n, &small,
                           w.scratch, &g);
        }
        magnus_sort_columns(row, w.scratch, k, key_bits);
        A->row_ptr[i + 1] = A->row_ptr[i] + k;
    }
    magnus_prng_seed(&g, magnus_prng_derive(seed, STREAM_STAR_VALUES));
    for (int64_t p = 0; p < A->nnz; p++) {
        uint64_t bits = magnus_prng_next(&g);
        if (A->type == MAGNUS_FLOAT32)
            ((float *)A->values)[p] = magnus_prng_value32(bits);
        else
            ((double *)A->values)[p] = magnus_prng_value64(bits);
    }
    star_work_free(&w);
    *out = A;
    return MAGNUS_SUCCESS;
oom:
    s = magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                     "star: cannot allocate the work arrays of n = %lld with %lld long rows of "
                     "%lld and short-row degree %lld",
                     (long long)n, (long long)L, (long long)long_len, (long long)short_deg);
fail:
    star_work_free(&w);
    magnus_csr_free(&A);
    return s;
}

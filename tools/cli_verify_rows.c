/*
 * verify_random()'s rows checked entry by entry (cli_verify_random.c has the whole method):
 * the rows with most products and some random rows are recomputed on the host and compared
 * entry by entry, as are the rows whose vector check said nothing (non-finite values).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_verify.h"
#include "cli_verify_random.h"

/* The rows to check exactly: the SAMPLE_HEAVY rows with most products (the rows gMAGNUS
 * expands and splits, where one wrong entry among many moves a row's vector error least) and
 * SAMPLE_RANDOM rows drawn uniformly. Returns how many were written to rows[] (distinct). */
#define SAMPLE_HEAVY 32
#define SAMPLE_RANDOM 32
static int choose_rows(int64_t *rows, const magnus_csr_s *A, const magnus_csr_s *B,
                       uint64_t seed) {
    int n = 0;
    int64_t weight[SAMPLE_HEAVY]; /* products of rows[0..n), descending */
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t p = 0;
        for (int64_t a = A->row_ptr[i]; a < A->row_ptr[i + 1]; a++)
            p += B->row_ptr[A->col_idx[a] + 1] - B->row_ptr[A->col_idx[a]];
        if (p == 0 || (n == SAMPLE_HEAVY && p <= weight[n - 1])) continue;
        int at = n < SAMPLE_HEAVY ? n++ : n - 1; /* insertion into the sorted list */
        while (at > 0 && weight[at - 1] < p) {
            weight[at] = weight[at - 1];
            rows[at] = rows[at - 1];
            at--;
        }
        weight[at] = p;
        rows[at] = i;
    }
    uint64_t state = seed ^ 0x5eed5eed5eedull;
    for (int k = 0; k < SAMPLE_RANDOM && A->rows > 0; k++) {
        int64_t i = (int64_t)(splitmix64(&state) % (uint64_t)A->rows);
        bool seen = false;
        for (int j = 0; j < n && !seen; j++) seen = rows[j] == i;
        if (!seen) rows[n++] = i;
    }
    return n;
}

/* Row i of A·B in double with |A|·|B| beside it, compared with C's row entry by entry as
 * magnus_csr_compare does: NaN matches only NaN and an infinity only the same infinity (the
 * sum rounded to C's type, where a float32 C overflows as the reference's would), finite
 * values within |c - e| <= tol · m (m = 0 needs c == e). Returns the largest |c - e| / m of
 * the row (0 for matching non-finite values), or infinity if the columns or a non-finite
 * value differ. val, mag: B->cols doubles; mark: B->cols stamps. */
static double check_row(const magnus_csr_s *C, const magnus_csr_s *A, const magnus_csr_s *B,
                        int64_t i, double *val, double *mag, uint32_t *mark, uint32_t stamp) {
    int64_t count = 0;
    for (int64_t a = A->row_ptr[i]; a < A->row_ptr[i + 1]; a++) {
        int32_t k = A->col_idx[a];
        double av = value_at(A, a);
        for (int64_t b = B->row_ptr[k]; b < B->row_ptr[k + 1]; b++) {
            int32_t j = B->col_idx[b];
            double bv = value_at(B, b);
            if (mark[j] != stamp) {
                mark[j] = stamp;
                val[j] = mag[j] = 0;
                count++;
            }
            val[j] += av * bv;
            mag[j] += fabs(av) * fabs(bv);
        }
    }
    if (C->row_ptr[i + 1] - C->row_ptr[i] != count) return INFINITY;
    double worst = 0;
    for (int64_t c = C->row_ptr[i]; c < C->row_ptr[i + 1]; c++) {
        int32_t j = C->col_idx[c];
        if (mark[j] != stamp) return INFINITY;
        const double got = value_at(C, c);
        const double e = C->type == MAGNUS_FLOAT32 ? (double)(float)val[j] : val[j];
        if (isnan(got) || isnan(e)) {
            if (!(isnan(got) && isnan(e))) return INFINITY;
            continue;
        }
        if (isinf(got) || isinf(e)) {
            if (got != e) return INFINITY;
            continue;
        }
        double d = fabs(got - e);
        double rel = d == 0 ? 0 : (mag[j] > 0 ? d / mag[j] : INFINITY);
        if (rel > worst) worst = rel;
    }
    return worst;
}

/* Compares rows entry by entry (check_row): the sampled ones when `sample` (the
 * rows_sample_* fields) and every row marked in nonfinite[] (the nonfinite_* fields). A
 * status (with its message) when the arrays do not fit. */
magnus_status verify_random_rows(verify_report *r, const magnus_csr_s *C, const magnus_csr_s *A,
                                 const magnus_csr_s *B, uint64_t seed, bool sample,
                                 const uint8_t *nonfinite) {
    int64_t rows[SAMPLE_HEAVY + SAMPLE_RANDOM];
    int n = sample ? choose_rows(rows, A, B, seed) : 0;
    r->rows_sampled = 0;
    r->rows_sample_error = 0;
    r->rows_sample_bad_row = -1;
    r->nonfinite_rows = 0;
    r->nonfinite_bad_row = -1;
    for (int64_t i = 0; i < A->rows; i++) r->nonfinite_rows += nonfinite[i];
    if (n == 0 && r->nonfinite_rows == 0) return MAGNUS_SUCCESS;
    size_t cols = (size_t)(B->cols > 0 ? B->cols : 1);
    const char *what = "the rows compared entry by entry: their accumulators";
    magnus_status s = magnus_host_memory_check((uint64_t)cols * 20, what);
    if (s) return s;
    double *val = malloc(cols * sizeof *val), *mag = malloc(cols * sizeof *mag);
    uint32_t *mark = calloc(cols, sizeof *mark);
    if (!val || !mag || !mark) {
        s = MAGNUS_ERROR_OUT_OF_HOST_MEMORY;
        snprintf(r->detail, sizeof r->detail, "cannot allocate %s", what);
    }
    uint32_t stamp = 0;
    for (int k = 0; !s && k < n; k++) {
        double e = check_row(C, A, B, rows[k], val, mag, mark, ++stamp);
        r->rows_sampled++;
        if (e > r->rows_sample_error) r->rows_sample_error = e;
        if (e > r->tolerance && (r->rows_sample_bad_row < 0 || rows[k] < r->rows_sample_bad_row))
            r->rows_sample_bad_row = rows[k];
    }
    for (int64_t i = 0; !s && i < A->rows && r->nonfinite_bad_row < 0; i++)
        if (nonfinite[i] && !(check_row(C, A, B, i, val, mag, mark, ++stamp) <= r->tolerance))
            r->nonfinite_bad_row = i;
    free(val);
    free(mag);
    free(mark);
    return s;
}

/*
 * Is a system's C right? Three checks, strongest first, chosen by the caller per input:
 *   reference  magnus_csr_compare against the CPU reference with |A|·|B| as the scale
 *   baseline   against another library's C: structure (entries present in only one of the
 *              two must be exactly zero: libraries may differ in explicit zeros left by
 *              cancellation) and, for inputs without negative values (where |e| is |A|·|B|
 *              up to rounding), values relative to the expected value
 *   random     C·x against A·(B·x) in double for two random positive vectors x; row i's
 *              error is relative to (|A|·(|B|·x))_i, the sum of the magnitudes that formed it,
 *              so the same per-entry tolerance holds whatever the signs
 * The tolerance is relative to those magnitudes; float32 accumulation in different orders
 * (atomics, hash tables, other libraries) stays far below 1e-3 of them.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

double bench_default_rtol(magnus_value_type type) {
    return type == MAGNUS_FLOAT64 ? 1e-9 : 1e-3;
}

static double value_at(const magnus_csr_s *M, int64_t e) {
    return M->type == MAGNUS_FLOAT64 ? ((const double *)M->values)[e]
                                     : (double)((const float *)M->values)[e];
}

static void set_method(bench_check *out, const char *method) {
    memset(out, 0, sizeof *out);
    snprintf(out->method, sizeof out->method, "%s", method);
    out->max_rel_error = NAN;
}

void bench_check_reference(bench_check *out, const magnus_csr_s *C, const magnus_csr_s *ref,
                           const magnus_csr_s *magnitude, double rtol) {
    set_method(out, "reference");
    magnus_compare_result r;
    magnus_status s = magnus_csr_compare(&r, C, ref, magnitude, rtol);
    out->max_rel_error = r.max_rel_error;
    out->passed = s == MAGNUS_SUCCESS;
    if (!out->passed)
        snprintf(out->note, sizeof out->note, "%s: %s", magnus_status_string(s), magnus_last_error());
}

void bench_check_baseline(bench_check *out, const magnus_csr_s *C, const magnus_csr_s *E,
                          bool values, double rtol) {
    set_method(out, values ? "baseline" : "baseline-structure");
    if (C->rows != E->rows || C->cols != E->cols) {
        snprintf(out->note, sizeof out->note, "C is %lld x %lld, the baseline's %lld x %lld",
                 (long long)C->rows, (long long)C->cols, (long long)E->rows, (long long)E->cols);
        return;
    }
    double worst = 0;
    int64_t only_zero = 0;
    for (int64_t i = 0; i < E->rows; i++) {
        int64_t p = C->row_ptr[i], pe = C->row_ptr[i + 1];
        int64_t q = E->row_ptr[i], qe = E->row_ptr[i + 1];
        while (p < pe || q < qe) {
            int64_t cc = p < pe ? C->col_idx[p] : INT64_MAX;
            int64_t ce = q < qe ? E->col_idx[q] : INT64_MAX;
            if (cc == ce) {
                double c = value_at(C, p), e = value_at(E, q);
                if (values && c != e) {
                    double rel = fabs(c - e) / fabs(e);
                    if (!(rel <= worst)) worst = rel; /* NaN sticks */
                    if (!(rel <= rtol)) {
                        snprintf(out->note, sizeof out->note,
                                 "C(%lld,%lld) = %.9g, the baseline's %.9g (relative %.3g)",
                                 (long long)i, (long long)cc, c, e, rel);
                        out->max_rel_error = rel;
                        return;
                    }
                }
                p++, q++;
                continue;
            }
            /* An entry in one only: acceptable as an explicit zero. */
            bool in_c = cc < ce;
            double v = in_c ? value_at(C, p) : value_at(E, q);
            if (v != 0) {
                snprintf(out->note, sizeof out->note,
                         "C(%lld,%lld) = %.9g is only in %s", (long long)i,
                         (long long)(in_c ? cc : ce), v, in_c ? "C" : "the baseline's C");
                return;
            }
            only_zero++;
            in_c ? p++ : q++;
        }
    }
    out->passed = true;
    out->max_rel_error = values ? worst : NAN;
    if (only_zero)
        snprintf(out->note, sizeof out->note, "%lld explicit zeros in one of the two only",
                 (long long)only_zero);
}

/* splitmix64: independent of the library's generator on purpose. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* y = M·x and ya = |M|·xa (ya may be NULL) over rows [r0, r1). */
typedef struct spmv_job {
    const magnus_csr_s *M;
    const double *x, *xa;
    double *y, *ya;
    int64_t r0, r1;
} spmv_job;

static void *spmv_rows(void *arg) {
    const spmv_job *j = arg;
    const magnus_csr_s *M = j->M;
    for (int64_t i = j->r0; i < j->r1; i++) {
        double s = 0, sa = 0;
        for (int64_t e = M->row_ptr[i]; e < M->row_ptr[i + 1]; e++) {
            double v = value_at(M, e);
            int32_t c = M->col_idx[e];
            s += v * j->x[c];
            if (j->ya) sa += fabs(v) * j->xa[c];
        }
        j->y[i] = s;
        if (j->ya) j->ya[i] = sa;
    }
    return NULL;
}

/* The same, rows shared among threads (each row is one thread's: the result does not depend
 * on the thread count). Large products make C large: this is the bench's host-side cost. */
static void spmv(const magnus_csr_s *M, const double *x, const double *xa, double *y, double *ya) {
    enum { MAX_THREADS = 32 };
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cpus < 1 ? 1 : cpus > MAX_THREADS ? MAX_THREADS : (int)cpus;
    if (M->nnz < (1 << 22)) threads = 1;
    spmv_job jobs[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    /* rows split by entries, so each thread reads about the same amount */
    int64_t row = 0;
    for (int t = 0; t < threads; t++) {
        int64_t target = (int64_t)((double)M->nnz * (t + 1) / threads);
        int64_t end = row;
        while (end < M->rows && M->row_ptr[end] < target) end++;
        if (t == threads - 1) end = M->rows;
        jobs[t] = (spmv_job){M, x, xa, y, ya, row, end};
        row = end;
    }
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&tid[t], NULL, spmv_rows, &jobs[t]) == 0;
    spmv_rows(&jobs[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t]) pthread_join(tid[t], NULL);
        else spmv_rows(&jobs[t]); /* no thread: do its rows here */
    }
}

void bench_check_random(bench_check *out, const magnus_csr_s *C, const magnus_csr_s *A,
                        const magnus_csr_s *B, double rtol, uint64_t seed) {
    set_method(out, "random");
    magnus_status s = magnus_csr_validate(C);
    if (s) {
        snprintf(out->note, sizeof out->note, "C is not a valid CSR: %s", magnus_last_error());
        return;
    }
    if (C->rows != A->rows || C->cols != B->cols) {
        snprintf(out->note, sizeof out->note, "C is %lld x %lld, A·B is %lld x %lld",
                 (long long)C->rows, (long long)C->cols, (long long)A->rows, (long long)B->cols);
        return;
    }
    size_t n = (size_t)B->cols, k = (size_t)B->rows, m = (size_t)A->rows;
    double *x = malloc((n + 1) * sizeof *x), *bx = malloc((k + 1) * sizeof *bx),
           *bxa = malloc((k + 1) * sizeof *bxa), *abx = malloc((m + 1) * sizeof *abx),
           *abxa = malloc((m + 1) * sizeof *abxa), *cx = malloc((m + 1) * sizeof *cx);
    if (!x || !bx || !bxa || !abx || !abxa || !cx) {
        snprintf(out->note, sizeof out->note, "out of host memory");
        goto done;
    }
    uint64_t state = seed;
    double worst = 0;
    for (int trial = 0; trial < 2; trial++) {
        for (size_t j = 0; j < n; j++)
            x[j] = 0.5 + (double)(next_random(&state) >> 11) * 0x1.0p-53; /* [0.5, 1.5) */
        spmv(B, x, x, bx, bxa);
        spmv(A, bx, bxa, abx, abxa);
        spmv(C, x, x, cx, NULL);
        for (size_t i = 0; i < m; i++) {
            double err = fabs(cx[i] - abx[i]);
            double rel = abxa[i] > 0 ? err / abxa[i] : (err == 0 ? 0 : INFINITY);
            if (!(rel <= worst)) worst = rel;
            if (!(rel <= rtol)) {
                snprintf(out->note, sizeof out->note,
                         "row %zu: (C·x) = %.12g but A·(B·x) = %.12g (relative %.3g)", i, cx[i],
                         abx[i], rel);
                out->max_rel_error = rel;
                goto done;
            }
        }
    }
    out->passed = true;
    out->max_rel_error = worst;
done:
    free(x);
    free(bx);
    free(bxa);
    free(abx);
    free(abxa);
    free(cx);
}

/*
 * Is a system's C right? Three checks, strongest first, chosen by the caller per input:
 *   reference  magnus_csr_compare against the CPU reference with |A|·|B| as the scale
 *   baseline   against another library's C: structure (entries present in only one of the
 *              two must be exactly zero: libraries may differ in explicit zeros left by
 *              cancellation) and, for inputs without negative values (where |e| is |A|·|B|
 *              up to rounding), values relative to the expected value
 *   random     C·x against A·(B·x) in double for two random vectors x (entries ±[0.5, 1]);
 *              row i's error is relative to (|A|·(|B|·|x|))_i, the sum of the magnitudes that
 *              formed it, so the same per-entry tolerance holds whatever the signs. This is
 *              the vector part of `magnus multiply --verify=random` (verify_random in
 *              tools/cli_verify_random.c, multithreaded) at the bench's tolerance.
 * The tolerance is relative to those magnitudes; float32 accumulation in different orders
 * (atomics, hash tables, other libraries) stays far below 1e-3 of them.
 */
#include <math.h>
#include <string.h>

#include "bench.h"
#include "cli_verify.h"

/* Random vectors per randomized check: each one is a fresh chance to catch a wrong entry. */
#define BENCH_RANDOM_VECTORS 2

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

void bench_check_random(bench_check *out, magnus_context ctx, const struct magnus_device_csr_s *dC,
                        const magnus_csr_s *C, const magnus_csr_s *A,
                        const magnus_csr_s *B, double rtol, uint64_t seed) {
    set_method(out, "random");
    verify_report report;
    memset(&report, 0, sizeof report);
    verify_random_settings settings = {
        .vectors = BENCH_RANDOM_VECTORS, .seed = seed, .tolerance = rtol, .vectors_only = true,
        .ctx = ctx, .dC = dC};
    magnus_status s = verify_random(&report, C, A, B, &settings, NULL);
    out->passed = s == MAGNUS_SUCCESS;
    if (report.vectors_checked) out->max_rel_error = report.rel_error_row;
    if (s == MAGNUS_ERROR_OUT_OF_HOST_MEMORY)
        snprintf(out->note, sizeof out->note, "out of host memory: %.400s",
                 report.detail[0] ? report.detail : magnus_last_error());
    else if (!out->passed && report.nonfinite_bad_row >= 0)
        snprintf(out->note, sizeof out->note, "%s", report.detail);
    else if (!out->passed && report.vectors_checked)
        snprintf(out->note, sizeof out->note,
                 "row %lld: |C·x - A·(B·x)| is %.3g of (|A|·(|B|·|x|)), above rtol %g",
                 (long long)report.worst_row, report.rel_error_row, rtol);
    else if (!out->passed)
        snprintf(out->note, sizeof out->note, "%s", report.detail);
    if (!out->note[0] && !strncmp(report.vectors_where, "device", 6))
        snprintf(out->note, sizeof out->note, "C·x on the device");
}

/* ---- every timed run's C (issue 34) --------------------------------------------------------- */
/* A 64-bit checksum of a byte range, 8 bytes a step in four independent lanes (a byte-wise
 * FNV ran at ~0.6 GB/s: a second a run on a C of 660 MB; this runs at memory speed). Each lane
 * is a multiply-xorshift of the words it takes; the lanes and the length are mixed at the end,
 * so a changed, moved, missing or extra byte changes the sum but with probability ~2^-64. */
static uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

static uint64_t sum_bytes(uint64_t seed, const void *data, size_t bytes) {
    const unsigned char *p = data;
    uint64_t lane[4] = {seed, seed ^ 0x9e3779b97f4a7c15ULL, seed ^ 0xc2b2ae3d27d4eb4fULL,
                        seed ^ 0x165667b19e3779f9ULL};
    size_t i = 0;
    for (; i + 32 <= bytes; i += 32)
        for (int k = 0; k < 4; k++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * k, 8);
            lane[k] = (lane[k] ^ w) * 0x9fb21c651e98df25ULL;
            lane[k] ^= lane[k] >> 29;
        }
    uint64_t tail = 0;
    for (size_t k = 0; i < bytes; i++, k++) tail ^= (uint64_t)p[i] << (8 * (k & 7));
    uint64_t h = mix(bytes) ^ mix(tail + 1);
    for (int k = 0; k < 4; k++) h = mix(h ^ mix(lane[k] + (uint64_t)k));
    return h;
}

uint64_t bench_csr_checksum(const magnus_csr_s *C) {
    int64_t shape[3] = {C->rows, C->cols, C->nnz};
    uint64_t h = sum_bytes(0xcbf29ce484222325ULL, shape, sizeof shape);
    h = sum_bytes(h, C->row_ptr, (size_t)(C->rows + 1) * sizeof *C->row_ptr);
    h = sum_bytes(h, C->col_idx, (size_t)C->nnz * sizeof *C->col_idx);
    return sum_bytes(h, C->values, (size_t)C->nnz * magnus_value_size(C->type));
}

void bench_runs_check_first(bench_runs_check *rc, const magnus_csr_s *C, bool timed) {
    memset(rc, 0, sizeof *rc);
    rc->have_first = true;
    rc->first_sum = bench_csr_checksum(C);
    rc->checked = rc->same = timed ? 1 : 0;
}

void bench_runs_check_same(bench_runs_check *rc) {
    rc->checked++;
    rc->same++;
    rc->fingerprinted++;
}

void bench_runs_check_add(bench_runs_check *rc, const magnus_csr_s *C, const bench_data *d,
                          const bench_plan *plan, int run) {
    rc->checked++;
    if (rc->have_first && bench_csr_checksum(C) == rc->first_sum) {
        rc->same++;
        return;
    }
    /* Not bit for bit the verified C (atomics may sum in another order): its own check. */
    rc->own++;
    bench_check c;
    if (!plan->random_check && d->ref)
        bench_check_reference(&c, C, d->ref, d->magnitude, plan->rtol);
    else
        bench_check_random(&c, NULL, NULL, C, d->A, d->B, plan->rtol, plan->seed + (uint64_t)run);
    if (c.passed) return;
    if (!rc->failed++)
        snprintf(rc->note, sizeof rc->note,
                 "timed run %d: C differs from the verified C and fails its own %s check: %.300s",
                 run, c.method, c.note);
}

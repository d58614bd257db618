/*
 * SpGEMM on a device against the CPU reference, on random pairs (a property test), under a
 * sweep of device-memory limits, and from several threads at once.
 *
 * Property test: MAGNUS_PROPERTY_PAIRS pairs (default 1000), from MAGNUS_TEST_SEED (default
 * fixed; printed with every failure, with the case index: MAGNUS_PROPERTY_CASE=i reruns one).
 * Shapes from 0x0 to a few thousand rows, densities from empty to a dense row and a dense B
 * row, small integer values with both signs (so sums cancel to explicit zeros) and some
 * explicit zeros, float32 and float64, both algorithms, and every third pair on a context
 * with a small local-memory budget, mostly with long rows against long rows (so gMAGNUS has
 * heavy rows to expand, reorder and split into chunks; at least 2% of the pairs must), and
 * half of the gMAGNUS pairs with the context's dense_min_elements (the knob
 * MAGNUS_DENSE_MIN_ELEMENTS sets) in [1, 64] (light chunks to the dense accumulator; at least
 * 0.5% of the pairs must have some).
 * Prints "spgemm property: N pairs ..." (CI shows the line from ctest's log).
 *
 * A device test set (device_test_main.h): an entry per backend (spgemm_property_opencl,
 * _level0_fake, _cuda, ...), each skipped without its device (failed where CI requires one).
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context_test_util.h"
#include "device_runtime.h"
#include "device_test_main.h"
#include "gmagnus_knobs.h"

/* ---- a tiny PRNG of our own (splitmix64), so a seed means the same pairs everywhere -------- */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static int64_t below(rng *r, int64_t n) { return n <= 0 ? 0 : (int64_t)(next(r) % (uint64_t)n); }
static double unit(rng *r) { return (double)(next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* A dimension: 0 sometimes, mostly small, sometimes a few thousand. */
static int64_t dimension(rng *r) {
    double u = unit(r);
    if (u < 0.05) return 0;
    if (u < 0.35) return 1 + below(r, 10);
    if (u < 0.85) return 11 + below(r, 290);
    return 301 + below(r, 2700);
}

typedef enum density { EMPTY, SPARSE, SKEWED, DENSE_ROW, FULL_SMALL, DENSITY_COUNT } density;
static const char *const density_names[] = {"empty", "sparse", "skewed", "dense-row", "full"};

static int compare_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* A random valid CSR: row lengths by `kind`, distinct sorted columns, values in {-3..3}
 * (zeros included: explicit zeros). */
static magnus_csr random_csr(rng *r, int64_t rows, int64_t cols, density kind,
                             magnus_value_type type) {
    int64_t *len = calloc((size_t)rows + 1, sizeof *len);
    cr_assert(rows == 0 || len);
    int64_t nnz = 0;
    int64_t dense_row = rows ? below(r, rows) : -1;
    for (int64_t i = 0; i < rows; i++) {
        int64_t n = 0;
        switch (kind) {
        case EMPTY: n = 0; break;
        case SPARSE: n = below(r, 6); break;
        case SKEWED: n = unit(r) < 0.1 ? below(r, cols + 1) : below(r, 3); break;
        case DENSE_ROW: n = i == dense_row ? cols : below(r, 4); break;
        case FULL_SMALL: n = cols <= 64 ? cols : below(r, 8); break;
        default: break;
        }
        if (n > cols) n = cols;
        len[i] = n;
        nnz += n;
    }
    magnus_csr A = NULL;
    cr_assert_eq(magnus_csr_new(&A, rows, cols, nnz, type), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    unsigned char *taken = calloc((size_t)cols + 1, 1);
    cr_assert_not_null(taken);
    int64_t p = 0;
    for (int64_t i = 0; i < rows; i++) {
        A->row_ptr[i] = p;
        int64_t n = len[i];
        if (n == cols) {
            for (int64_t c = 0; c < cols; c++) A->col_idx[p + c] = (int32_t)c;
        } else {
            /* n distinct columns: by rejection while n is at most half of cols, else as the
             * complement of cols - n rejected ones; then sorted */
            bool complement = 2 * n > cols;
            int64_t want = complement ? cols - n : n, picked = 0;
            int32_t *out = A->col_idx + p;
            while (picked < want) {
                int64_t c = below(r, cols);
                if (!taken[c]) taken[c] = 1, out[complement ? 0 : picked] = (int32_t)c, picked++;
            }
            if (complement) {
                int64_t q = 0;
                for (int64_t c = 0; c < cols; c++) {
                    if (!taken[c]) out[q++] = (int32_t)c;
                    taken[c] = 0;
                }
            } else {
                for (int64_t q = 0; q < n; q++) taken[out[q]] = 0;
                qsort(out, (size_t)n, sizeof *out, compare_i32);
            }
        }
        for (int64_t k = p; k < p + n; k++) {
            double v = (double)(below(r, 7) - 3);
            if (unit(r) < 0.5) v += 0.5; /* halves stay exact in float32 */
            if (type == MAGNUS_FLOAT32) ((float *)A->values)[k] = (float)v;
            else ((double *)A->values)[k] = v;
        }
        p += n;
    }
    A->row_ptr[rows] = p;
    free(taken);
    free(len);
    cr_assert_eq(magnus_csr_validate(A), MAGNUS_SUCCESS, "generator: %s", magnus_last_error());
    return A;
}

static uint64_t env_u64(const char *name, uint64_t fallback) {
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 0) : fallback;
}

Test(spgemm_property, random_pairs_match_the_reference, .timeout = 1800) {
    const uint64_t seed = env_u64("MAGNUS_TEST_SEED", 20261130);
    const int64_t pairs = (int64_t)env_u64("MAGNUS_PROPERTY_PAIRS", 1000);
    const char *only = getenv("MAGNUS_PROPERTY_CASE");
    magnus_context wide = context_or_skip(0), narrow = context_or_skip(8192);
    magnus_device_info info;
    cr_assert_eq(magnus_context_device(&info, wide), MAGNUS_SUCCESS);
    int64_t checked = 0, products = 0, skipped_f64 = 0, by_alg[2] = {0, 0}, heavy = 0;
    int64_t light_dense = 0; /* gMAGNUS pairs with dense chunks under a lowered threshold */
    int64_t failures = 0;
    for (int64_t i = 0; i < pairs; i++) {
        if (only && *only && i != (int64_t)strtoll(only, NULL, 10)) continue;
        rng r = {seed ^ (0x51ed270b27a1f3c5ULL * (uint64_t)(i + 1))};
        int64_t m = dimension(&r), k = dimension(&r), n = dimension(&r);
        density da = (density)below(&r, DENSITY_COUNT), db = (density)below(&r, DENSITY_COUNT);
        magnus_value_type type = unit(&r) < 0.25 ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
        magnus_algorithm alg = i % 2 ? MAGNUS_ALGORITHM_HASH : MAGNUS_ALGORITHM_MAGNUS;
        bool small_budget = i % 3 == 0;
        if (small_budget && unit(&r) < 0.7) {
            /* mostly long rows against long rows: products above tau, so heavy rows */
            da = unit(&r) < 0.5 ? SKEWED : DENSE_ROW;
            db = unit(&r) < 0.5 ? SKEWED : DENSE_ROW;
            if (k < 50) k = 50 + below(&r, 500);
            if (n < 200) n = 200 + below(&r, 2000);
        }
        if (type == MAGNUS_FLOAT64 && !info.fp64) {
            type = MAGNUS_FLOAT32;
            skipped_f64++;
        }
        magnus_csr A = random_csr(&r, m, k, da, type), B = random_csr(&r, k, n, db, type);
        magnus_csr R = NULL, M = NULL, C = NULL;
        cr_assert_eq(magnus_reference_spgemm(&R, &M, A, B), MAGNUS_SUCCESS, "%s",
                     magnus_last_error());
        magnus_spgemm_options opt;
        magnus_spgemm_options_init(&opt);
        opt.algorithm = alg;
        magnus_report rep;
        magnus_context ctx = small_budget ? narrow : wide;
        /* gMAGNUS pairs: half with the default split of chunks between the accumulators, half
         * with dense_min_elements drawn from [1, 64] (a stream of its own, so the matrices
         * stay those of the seed). Set in the context, where magnus_context_create puts
         * MAGNUS_DENSE_MIN_ELEMENTS (read once): a context per pair would load the kernels
         * every time. */
        char dense_min[24] = "default";
        magnus_gmagnus_knobs_edit(ctx)->dense_min_elements = 0;
        rng knob = {seed ^ (0x2545f4914f6cdd1dULL * (uint64_t)(i + 1))};
        if (alg == MAGNUS_ALGORITHM_MAGNUS && unit(&knob) < 0.5) {
            magnus_gmagnus_knobs_edit(ctx)->dense_min_elements = (int64_t)(1 + below(&knob, 64));
            snprintf(dense_min, sizeof dense_min, "%lld",
                     (long long)magnus_gmagnus_knobs_of(ctx)->dense_min_elements);
        }
        const uint64_t held = ctx->memory_in_use;
        magnus_status s = magnus_spgemm(&C, ctx, A, B, &opt, &rep);
        char what[288];
        snprintf(what, sizeof what,
                 "MAGNUS_TEST_SEED=%llu MAGNUS_PROPERTY_CASE=%lld: %lld x %lld (%s) * %lld x %lld "
                 "(%s), nnz %lld * %lld, %s, %s, local memory %s, dense_min_elements %s",
                 (unsigned long long)seed, (long long)i, (long long)m, (long long)k,
                 density_names[da], (long long)k, (long long)n, density_names[db],
                 (long long)A->nnz, (long long)B->nnz,
                 type == MAGNUS_FLOAT64 ? "float64" : "float32",
                 alg == MAGNUS_ALGORITHM_HASH ? "hash" : "gMAGNUS",
                 small_budget ? "8 KiB" : "default", dense_min);
        if (s != MAGNUS_SUCCESS) {
            cr_expect_eq(s, MAGNUS_SUCCESS, "%s: status %d: %s", what, s, magnus_last_error());
            failures++;
        } else {
            magnus_compare_result res;
            magnus_status c = magnus_csr_compare(&res, C, R, M, 0);
            if (c != MAGNUS_SUCCESS) failures++;
            cr_expect_eq(c, MAGNUS_SUCCESS, "%s: %s", what, magnus_last_error());
            cr_expect_eq(rep.nnz_c, R->nnz, "%s: report says nnz %lld", what,
                         (long long)rep.nnz_c);
        }
        cr_expect_eq(ctx->memory_in_use, held, "%s: %llu device bytes left held", what,
                     (unsigned long long)(ctx->memory_in_use - held));
        checked++;
        by_alg[alg == MAGNUS_ALGORITHM_HASH]++;
        heavy += alg == MAGNUS_ALGORITHM_MAGNUS && rep.rows_heavy > 0;
        light_dense += alg == MAGNUS_ALGORITHM_MAGNUS && rep.chunks_dense > 0 &&
                       rep.dense_min_elements < rep.tau;
        products += rep.products_total;
        magnus_csr_free(&A);
        magnus_csr_free(&B);
        magnus_csr_free(&R);
        magnus_csr_free(&M);
        magnus_csr_free(&C);
        cr_assert_lt(failures, 10, "stopping after 10 failures");
    }
    printf("spgemm property: %lld pairs checked against the reference on %s (seed %llu; "
           "%lld gMAGNUS, %lld of them with heavy rows, %lld with dense chunks below tau; "
           "%lld hash; %lld intermediate products; %lld float64 pairs run as float32), "
           "%lld failures\n",
           (long long)checked, info.name, (unsigned long long)seed, (long long)by_alg[0],
           (long long)heavy, (long long)light_dense, (long long)by_alg[1], (long long)products,
           (long long)skipped_f64, (long long)failures);
    fflush(stdout);
    /* the pairs must reach gMAGNUS's heavy-row path (outer product, multisplit, chunks) */
    if (!only || !*only) {
        cr_expect_geq(heavy, pairs / 50, "only %lld pairs had heavy rows", (long long)heavy);
        cr_expect_geq(light_dense, pairs / 200, "only %lld pairs had dense chunks below tau",
                      (long long)light_dense);
    }
    magnus_context_free(&wide);
    magnus_context_free(&narrow);
}

/* ---- device-memory limits ------------------------------------------------------------------ */

/* A multiply under a sweep of device-memory limits: below what it needs it fails with
 * OUT_OF_DEVICE_MEMORY or PROBLEM_TOO_LARGE and releases everything; at and above its peak it
 * succeeds with the right answer. */
static void memory_limit_sweep(magnus_algorithm alg) {
    magnus_context probe_ctx = context_or_skip(8192);
    rng r = {77};
    magnus_csr A = random_csr(&r, 300, 400, DENSE_ROW, MAGNUS_FLOAT32);
    magnus_csr B = random_csr(&r, 400, 900, SKEWED, MAGNUS_FLOAT32);
    magnus_csr R = NULL, M = NULL, C = NULL;
    cr_assert_eq(magnus_reference_spgemm(&R, &M, A, B), MAGNUS_SUCCESS);
    magnus_spgemm_options opt;
    magnus_spgemm_options_init(&opt);
    opt.algorithm = alg;
    /* the peak of an unlimited run, uploads included */
    magnus_context_reset_peak(probe_ctx);
    cr_assert_eq(magnus_spgemm(&C, probe_ctx, A, B, &opt, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    const uint64_t peak = probe_ctx->memory_peak;
    magnus_csr_free(&C);
    magnus_context_free(&probe_ctx);
    cr_assert_gt(peak, 0);
    int refused = 0;
    for (int j = 0; j <= 20; j++) {
        uint64_t limit = j < 20 ? 1 + peak * (uint64_t)j / 20 : peak;
        magnus_context_options o;
        magnus_context_options_init(&o);
        o.local_mem_bytes = 8192;
        o.device_memory_limit = limit;
        magnus_context ctx = NULL;
        cr_assert_eq(magnus_context_create(&ctx, NULL, &o), MAGNUS_SUCCESS);
        magnus_status s = magnus_spgemm(&C, ctx, A, B, &opt, NULL);
        if (limit >= peak)
            cr_expect_eq(s, MAGNUS_SUCCESS, "limit %llu >= peak %llu: %s",
                         (unsigned long long)limit, (unsigned long long)peak,
                         magnus_last_error());
        if (s == MAGNUS_SUCCESS) {
            cr_expect_eq(magnus_csr_compare(NULL, C, R, M, 0), MAGNUS_SUCCESS, "limit %llu: %s",
                         (unsigned long long)limit, magnus_last_error());
            magnus_csr_free(&C);
        } else {
            refused++;
            cr_expect(s == MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY || s == MAGNUS_ERROR_PROBLEM_TOO_LARGE,
                      "limit %llu: status %d (%s): %s", (unsigned long long)limit, s,
                      magnus_status_string(s), magnus_last_error());
            cr_expect_null(C);
            cr_expect_neq(magnus_last_error()[0], '\0');
        }
        cr_expect_eq(ctx->memory_in_use, 0, "limit %llu: %llu bytes still held",
                     (unsigned long long)limit, (unsigned long long)ctx->memory_in_use);
        cr_expect_leq(ctx->memory_peak, limit, "limit %llu passed: peak %llu",
                      (unsigned long long)limit, (unsigned long long)ctx->memory_peak);
        magnus_context_free(&ctx);
    }
    cr_expect_geq(refused, 10, "only %d limits refused", refused);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&R);
    magnus_csr_free(&M);
}

Test(device_memory_limit, sweep_gmagnus, .timeout = 600) { memory_limit_sweep(MAGNUS_ALGORITHM_MAGNUS); }
Test(device_memory_limit, sweep_hash, .timeout = 600) { memory_limit_sweep(MAGNUS_ALGORITHM_HASH); }

/* ---- concurrency: one context per thread, all multiplying at once ---------------------------- */

#define THREADS 4
#define ROUNDS 6

typedef struct worker {
    int id;
    int failures;
    char first_failure[256];
} worker;

static void *work(void *arg) {
    worker *w = arg;
    magnus_context ctx = NULL;
    if (magnus_context_create(&ctx, NULL, NULL) != MAGNUS_SUCCESS) {
        snprintf(w->first_failure, sizeof w->first_failure, "context: %s", magnus_last_error());
        w->failures++;
        return NULL;
    }
    for (int round = 0; round < ROUNDS; round++) {
        magnus_csr A = NULL, B = NULL, C = NULL, R = NULL, M = NULL;
        uint64_t seed = (uint64_t)(w->id * 100 + round);
        magnus_status s = magnus_gen_uniform(&A, 200 + 10 * w->id, 150, 5, seed, MAGNUS_FLOAT32);
        if (!s) s = magnus_gen_uniform(&B, 150, 300, 6, seed + 7, MAGNUS_FLOAT32);
        if (!s) s = magnus_reference_spgemm(&R, &M, A, B);
        magnus_spgemm_options opt;
        magnus_spgemm_options_init(&opt);
        opt.algorithm = (round + w->id) % 2 ? MAGNUS_ALGORITHM_HASH : MAGNUS_ALGORITHM_MAGNUS;
        if (!s) s = magnus_spgemm(&C, ctx, A, B, &opt, NULL);
        if (!s) s = magnus_csr_compare(NULL, C, R, M, 0);
        if (s) {
            /* the detail message is thread-local: it belongs to this thread's failure */
            if (!w->failures)
                snprintf(w->first_failure, sizeof w->first_failure, "round %d: %s: %s", round,
                         magnus_status_string(s), magnus_last_error());
            w->failures++;
        }
        magnus_csr_free(&A);
        magnus_csr_free(&B);
        magnus_csr_free(&C);
        magnus_csr_free(&R);
        magnus_csr_free(&M);
    }
    magnus_context_free(&ctx);
    return NULL;
}

Test(concurrency, one_context_per_thread, .timeout = 600) {
    /* the Level Zero test driver's state is global, for one thread at a time (fake_ze.h): it
     * reports the other threads' queued work as this one's misuse */
    const char *entry = magnus_test_entry_backend();
    if (entry && strcmp(entry, "level0_fake") == 0)
        cr_skip_test("the Level Zero test driver runs one thread at a time");
    magnus_context_free(&(magnus_context){context_or_skip(0)});
    pthread_t t[THREADS];
    worker w[THREADS];
    memset(w, 0, sizeof w);
    for (int i = 0; i < THREADS; i++) {
        w[i].id = i;
        cr_assert_eq(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS; i++)
        cr_expect_eq(w[i].failures, 0, "thread %d: %d failures, first: %s", i, w[i].failures,
                     w[i].first_failure);
}

/*
 * The helpers of the device tests, without main(): magnus_test_context() and
 * magnus_test_whole_budget_context() (this test process's shared contexts, created on first
 * use, freed at exit), magnus_test_seed(), magnus_test_budget_context(),
 * magnus_test_budget_for_levels(), magnus_test_rmat(), magnus_test_require_fp64() and
 * magnus_test_large(). device_test_main.h (which defines main, and says what each does)
 * includes this header; the other source files of an executable of several include this one.
 * Each source file has its own copy of the shared contexts: Criterion runs every test in a
 * process of its own, and a test uses those of its own file.
 */
#ifndef MAGNUS_DEVICE_TEST_UTIL_H
#define MAGNUS_DEVICE_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "device_runtime.h"
#include "reference_test_util.h"

static magnus_context magnus_test_shared_context, magnus_test_whole_budget_shared_context;

static void magnus_test_free_context(void) { magnus_context_free(&magnus_test_shared_context); }
static void magnus_test_free_whole_budget_context(void) {
    magnus_context_free(&magnus_test_whole_budget_shared_context);
}

/* The context of this test process; created on first use, freed at exit. */
static inline magnus_context magnus_test_context(void) {
    if (!magnus_test_shared_context) {
        magnus_status s = magnus_context_create(&magnus_test_shared_context, NULL, NULL);
        if (s)
            cr_assert_fail("magnus_context_create: %s: %s", magnus_status_string(s),
                           magnus_last_error());
        atexit(magnus_test_free_context);
    }
    return magnus_test_shared_context;
}

/* A context of this test process on the same device with the device's whole local memory as
 * the budget per work group (an explicit option: MAGNUS_LOCAL_MEM_BYTES does not apply);
 * created on first use, freed at exit. */
static inline magnus_context magnus_test_whole_budget_context(void) {
    if (!magnus_test_whole_budget_shared_context) {
        magnus_device_info device;
        magnus_context_options opt;
        magnus_status s = magnus_device_select(&device);
        if (!s) s = magnus_context_options_init(&opt);
        if (!s) {
            opt.local_mem_bytes = device.local_mem_bytes; /* the probe's: the device's maximum */
            s = magnus_context_create(&magnus_test_whole_budget_shared_context, &device, &opt);
        }
        if (s)
            cr_assert_fail("whole-budget context: %s: %s", magnus_status_string(s),
                           magnus_last_error());
        atexit(magnus_test_free_whole_budget_context);
    }
    return magnus_test_whole_budget_shared_context;
}

/* The seed of random test inputs: MAGNUS_TEST_SEED, else `fallback`. */
static inline uint64_t magnus_test_seed(uint64_t fallback) {
    const char *env = getenv("MAGNUS_TEST_SEED");
    return env && *env ? strtoull(env, NULL, 0) : fallback;
}

/* A new context (the caller frees it) on the default device whose work groups get
 * local_bytes of local memory (0: the default budget): the tests' small budgets that send rows
 * down the heavy or global-table paths. */
static inline magnus_context magnus_test_budget_context(uint64_t local_bytes) {
    magnus_context_options opt;
    magnus_context ctx = NULL;
    magnus_status s = magnus_context_options_init(&opt);
    opt.local_mem_bytes = local_bytes;
    if (!s) s = magnus_context_create(&ctx, NULL, &opt);
    if (s)
        cr_assert_fail("context with a %llu-byte budget: %s: %s", (unsigned long long)local_bytes,
                       magnus_status_string(s), magnus_last_error());
    return ctx;
}

/* The smallest budget (from 1 KiB, 256-byte steps) for which this device's parameters plan
 * `levels` multisplit levels for C with c_cols columns; 0 if none up to 256 KiB (the gMAGNUS
 * tests that must take the heavy path through a given number of levels). */
static inline uint64_t magnus_test_budget_for_levels(magnus_context ctx, int64_t c_cols,
                                                     magnus_value_type type, int levels) {
    magnus_device_info dev = ctx->device;
    for (uint64_t b = 1024; b <= 256 * 1024 && b <= ctx->device_local_mem_bytes; b += 256) {
        dev.local_mem_bytes = b;
        magnus_gmagnus_params p;
        if (magnus_gmagnus_params_compute(&p, &dev, c_cols, type) == MAGNUS_SUCCESS &&
            p.levels == levels)
            return b;
    }
    return 0;
}

/* A Graph500 R-MAT (the library's defaults for a, b, c) of 2^scale rows with seed
 * magnus_test_seed(seed): the power-law input of the SpGEMM tests. */
static inline magnus_csr magnus_test_rmat(int scale, int64_t per_row, uint64_t seed,
                                          magnus_value_type type) {
    magnus_rmat_options o;
    magnus_status s = magnus_rmat_options_init(&o);
    o.scale = scale;
    o.nnz_per_row = per_row;
    o.seed = magnus_test_seed(seed);
    o.type = type;
    magnus_csr A = NULL;
    if (!s) s = magnus_gen_rmat(&A, &o, NULL, NULL);
    if (s)
        cr_assert_fail("magnus_gen_rmat(scale %d, %lld per row): %s: %s", scale,
                       (long long)per_row, magnus_status_string(s), magnus_last_error());
    return A;
}

/* Skips the calling test on devices without double precision. */
#define magnus_test_require_fp64(ctx)                                                            \
    do {                                                                                         \
        if (!(ctx)->device.fp64) cr_skip_test("%s has no fp64", (ctx)->device.name);             \
    } while (0)

/* Whether tests needing many GiB of device memory should run (MAGNUS_TEST_LARGE=1). */
static inline int magnus_test_large(void) {
    const char *env = getenv("MAGNUS_TEST_LARGE");
    return env && *env && strcmp(env, "0") != 0;
}

/* Frees every device matrix named (handles set to NULL, NULL ones skipped), for the tests'
 * clean-ups: MAGNUS_TEST_FREE_DEVICE_CSRS(&dA, &dC); MAGNUS_TEST_FREE_CSRS (host matrices) is
 * in reference_test_util.h. */
static inline void magnus_test_free_device_csrs(magnus_device_csr *const *list, size_t n) {
    for (size_t i = 0; i < n; i++) magnus_device_csr_free(list[i]);
}
#define MAGNUS_TEST_FREE_DEVICE_CSRS(...)                                                        \
    magnus_test_free_device_csrs(                                                                \
        (magnus_device_csr *[]){__VA_ARGS__},                                                    \
        sizeof((magnus_device_csr *[]){__VA_ARGS__}) / sizeof(magnus_device_csr *))

#endif

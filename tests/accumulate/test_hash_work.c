/*
 * How the hash accumulator shares out its work (runtime/accumulate/hash_plan.c, docs/performance.md
 * "Numeric phase"): bin shapes (table, work items, local bytes) for every key up to gMAGNUS's
 * tau on CUDA- and OpenCL-shaped contexts; the hash_group_max knob (MAGNUS_HASH_GROUP_MAX, read
 * when a context is created); and products whose
 * rows and chunks take the wide paths (1024 work items per table, rows of a few A entries over
 * long B rows, numeric tables compacted before the sort, items of one group with different
 * entry counts), each compared with the CPU reference or a host accumulation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "device_csr.h"
#include "device_test_main.h"
#include "hash_accumulate.h"
#include "hash_chunks_test_util.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

static uint64_t next_random(uint64_t *x) {
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return *x >> 33;
}

static uint64_t floor_pow2(uint64_t x) {
    uint64_t p = 1;
    while (p <= x / 2) p <<= 1;
    return p;
}

/* ---- bin shapes (host arithmetic on context-shaped structs) ------------------------------- */

static magnus_context_s fake_context(magnus_backend_kind backend, uint64_t budget) {
    magnus_context_s c;
    memset(&c, 0, sizeof c);
    c.device.backend = backend;
    c.device.local_mem_bytes = budget;
    c.device.max_work_group_size = 1024;
    /* what the backends report (magnus_device_info.wide_group_size) */
    c.device.wide_group_size = backend == MAGNUS_BACKEND_CUDA ? 1024 : 256;
    return c;
}

/* Every key from 1 to tau (and a bit past) lands in a local table that holds it, within the
 * budget less the 16-byte reserve, with T/8 work items (8 .. cap) per table, on a context
 * whose hash_group_max is group_max (0: the default). */
static void check_shapes(magnus_backend_kind backend, uint64_t budget, magnus_value_type type,
                         uint32_t group_max, uint32_t cap) {
    magnus_context_s c = fake_context(backend, budget);
    c.hash_group_max = group_max;
    size_t slot = 4 + magnus_value_size(type);
    int64_t tau = (int64_t)(budget / (2 * slot));
    for (int numeric = 0; numeric < 2; numeric++)
        for (int64_t key = 1; key <= tau; key += 1 + key / 64) {
            magnus_hash_bin_shape sh;
            ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, type, numeric, key));
            cr_assert_gt(sh.table, 0, "budget %llu %s key %lld: no local table",
                         (unsigned long long)budget, numeric ? "numeric" : "symbolic",
                         (long long)key);
            cr_assert_geq((int64_t)sh.table, numeric ? key : key + key / 3,
                          "key %lld in a table of %u", (long long)key, sh.table);
            cr_assert_leq(sh.local_bytes, budget - 16, "key %lld: %llu local bytes of %llu",
                          (long long)key, (unsigned long long)sh.local_bytes,
                          (unsigned long long)budget);
            uint64_t lanes = floor_pow2(sh.table / 8);
            if (lanes < 8) lanes = 8;
            if (lanes > cap) lanes = cap;
            cr_assert_eq(sh.lanes, lanes, "table %u: %u work items, expected %llu", sh.table,
                         sh.lanes, (unsigned long long)lanes);
            cr_assert_leq((uint64_t)sh.lanes * sh.per_group, cap > 256 ? cap : 256);
        }
}

Test(hash_work, shapes_cover_tau_on_every_budget) {
    const uint64_t budgets[] = {4096, 32768, 49152, 65536, 101376, 232448};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
        check_shapes(MAGNUS_BACKEND_CUDA, budgets[i], MAGNUS_FLOAT32, 0, 1024);
        check_shapes(MAGNUS_BACKEND_CUDA, budgets[i], MAGNUS_FLOAT64, 0, 1024);
        check_shapes(MAGNUS_BACKEND_OPENCL, budgets[i], MAGNUS_FLOAT32, 0, 256);
        check_shapes(MAGNUS_BACKEND_LEVEL0, budgets[i], MAGNUS_FLOAT64, 0, 256);
    }
}

Test(hash_work, largest_tables_on_an_h200) {
    /* 227 KiB through CUDA: the largest numeric table (tau = 14528 entries) gets 1024 work
     * items and nearly the whole budget; a row of 3000 entries an 8192-slot table. */
    magnus_context_s c = fake_context(MAGNUS_BACKEND_CUDA, 232448);
    magnus_hash_bin_shape sh;
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, MAGNUS_FLOAT32, 1, 14528));
    cr_assert_eq(sh.lanes, 1024);
    cr_assert_eq(sh.per_group, 1);
    cr_assert_geq(sh.table, 14528);
    cr_assert_eq(sh.local_bytes, (uint64_t)sh.table * 8 + 4);
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, MAGNUS_FLOAT32, 1, 3000));
    cr_assert_eq(sh.table, 8192);
    cr_assert_eq(sh.lanes, 1024);
    cr_assert_eq(sh.local_bytes, 8192 * 8 + 4);
    /* the same through OpenCL keeps 256 */
    c = fake_context(MAGNUS_BACKEND_OPENCL, 232448);
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, MAGNUS_FLOAT32, 1, 3000));
    cr_assert_eq(sh.lanes, 256);
    /* small rows share a group of 256 */
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, MAGNUS_FLOAT32, 1, 10));
    cr_assert_eq(sh.table, 32);
    cr_assert_eq(sh.lanes * sh.per_group, 256);
    cr_assert_eq(sh.local_bytes, (uint64_t)sh.per_group * (32 * 8 + 4));
    /* beyond the largest table: global */
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, MAGNUS_FLOAT32, 1, 1 << 20));
    cr_assert_eq(sh.table, 0);
    cr_assert_eq(sh.lanes, 0);
}

/* Sets MAGNUS_HASH_GROUP_MAX to `value` (unset when NULL), reads the knob as a context creation
 * does, stores it in `c` and checks the knob and the lanes of a bin's shape on `c`. */
static uint32_t apply_group_knob(magnus_context_s *c, const char *value, uint32_t want_knob,
                                 uint32_t want_lanes) {
    const char *shown = value ? value : "(unset)";
    if (value)
        setenv("MAGNUS_HASH_GROUP_MAX", value, 1);
    else
        unsetenv("MAGNUS_HASH_GROUP_MAX");
    uint32_t knob = 0;
    ASSERT_OK(magnus_knob_hash_group_max(0, c->device.max_work_group_size, &knob));
    cr_assert_eq(knob, want_knob, "MAGNUS_HASH_GROUP_MAX=%s: knob %u", shown, knob);
    c->hash_group_max = knob;
    magnus_hash_bin_shape sh;
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, c, MAGNUS_FLOAT32, 1, 3000));
    cr_assert_eq(sh.lanes, want_lanes, "MAGNUS_HASH_GROUP_MAX=%s: %u lanes", shown, sh.lanes);
    return knob;
}

/* The knob as a context holds it (magnus_context_create reads MAGNUS_HASH_GROUP_MAX into
 * hash_group_max, below), and the variable's values as the context creation takes them, on the
 * fake device's limit of 1024 work items. */
Test(hash_work, group_knob_from_environment) {
    magnus_context_s c = fake_context(MAGNUS_BACKEND_OPENCL, 232448);
    uint32_t knob = apply_group_knob(&c, "512", 512, 512);
    check_shapes(MAGNUS_BACKEND_OPENCL, 49152, MAGNUS_FLOAT32, knob, 512);
    knob = apply_group_knob(&c, "64", 64, 64);
    check_shapes(MAGNUS_BACKEND_CUDA, 65536, MAGNUS_FLOAT64, knob, 64);
    const char *bad[] = {"1000", "4", "2048", "abc", "256x", "-256"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("MAGNUS_HASH_GROUP_MAX", bad[i], 1);
        magnus_status s = magnus_knob_hash_group_max(0, c.device.max_work_group_size, &knob);
        cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "MAGNUS_HASH_GROUP_MAX=%s: %s", bad[i],
                     magnus_status_string(s));
        cr_assert(strstr(magnus_last_error(), "MAGNUS_HASH_GROUP_MAX") != NULL);
    }
    apply_group_knob(&c, NULL, 0, 256);
}

/* ---- products on the device --------------------------------------------------------------- */

/* C = A·B with `algorithm` on ctx, against the CPU reference. */
static void check_product(magnus_context ctx, const magnus_csr_s *A, const magnus_csr_s *B,
                          magnus_algorithm algorithm, const char *label) {
    magnus_report rep;
    int64_t reference_nnz;
    magnus_csr C = multiply_and_compare(&rep, &reference_nnz, ctx, A, B, algorithm, label);
    magnus_csr_free(&C);
}

/* Each value of VARIABLE in BAD fails a context's creation with MAGNUS_ERROR_INVALID_ARGUMENT,
 * no context made, the message naming the variable; the variable is unset after. */
static void expect_variable_refused(const magnus_device_info *dev, const char *variable,
                                    const char *const *bad, size_t count) {
    for (size_t i = 0; i < count; i++) {
        magnus_context ctx = NULL;
        setenv(variable, bad[i], 1);
        magnus_status s = magnus_context_create(&ctx, dev, NULL);
        cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "%s=%s: %s", variable, bad[i],
                     magnus_status_string(s));
        cr_assert_null(ctx);
        cr_assert(strstr(magnus_last_error(), variable) != NULL, "%s", magnus_last_error());
    }
    unsetenv(variable);
}

/* A context reads MAGNUS_HASH_GROUP_MAX once, at creation, unless its option is set; a bad
 * value (variable or option) fails the creation. A symbolic key of 200 has a 512-slot table:
 * 64 work items by default, 32 with the knob. */
Test(hash_work, group_knob_read_at_context_creation) {
    magnus_device_info dev;
    magnus_context_options opt;
    magnus_context ctx = NULL;
    magnus_hash_bin_shape sh;
    ASSERT_OK(magnus_device_select(&dev));
    ASSERT_OK(magnus_context_options_init(&opt));
    if (dev.max_work_group_size < 64)
        cr_skip_test("work groups of at most %llu items",
                     (unsigned long long)dev.max_work_group_size);
    setenv("MAGNUS_HASH_GROUP_MAX", "32", 1);
    ASSERT_OK(magnus_context_create(&ctx, &dev, NULL));
    cr_assert_eq(ctx->hash_group_max, 32);
    if (ctx->device.local_mem_bytes < 4096) {
        uint64_t budget = ctx->device.local_mem_bytes;
        magnus_context_free(&ctx);
        cr_skip_test("a %llu-byte budget holds no 512-slot table", (unsigned long long)budget);
    }
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, ctx, MAGNUS_FLOAT32, 0, 200));
    cr_assert_eq(sh.table, 512);
    cr_assert_eq(sh.lanes, 32);
    /* read once: the variable changing later does not reach this context */
    unsetenv("MAGNUS_HASH_GROUP_MAX");
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, ctx, MAGNUS_FLOAT32, 0, 200));
    cr_assert_eq(sh.lanes, 32);
    magnus_csr A, B;
    ASSERT_OK(magnus_gen_uniform(&A, 400, 300, 4, magnus_test_seed(86), MAGNUS_FLOAT32));
    ASSERT_OK(magnus_gen_uniform(&B, 300, 2000, 30, magnus_test_seed(87), MAGNUS_FLOAT32));
    check_product(ctx, A, B, MAGNUS_ALGORITHM_HASH, "32 work items per table at most");
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    ASSERT_OK(magnus_context_free(&ctx));
    ASSERT_OK(magnus_context_create(&ctx, &dev, NULL));
    cr_assert_eq(ctx->hash_group_max, 0);
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, ctx, MAGNUS_FLOAT32, 0, 200));
    cr_assert_eq(sh.lanes, 64);
    ASSERT_OK(magnus_context_free(&ctx));
    /* the option wins over the variable */
    setenv("MAGNUS_HASH_GROUP_MAX", "32", 1);
    opt.hash_group_max = 16;
    ASSERT_OK(magnus_context_create(&ctx, &dev, &opt));
    cr_assert_eq(ctx->hash_group_max, 16);
    ASSERT_OK(magnus_context_free(&ctx));
    /* bad values, the device's limit among them */
    char above[24];
    uint64_t limit = 1;
    while (limit <= dev.max_work_group_size) limit *= 2;
    snprintf(above, sizeof above, "%llu", (unsigned long long)limit);
    const char *bad[] = {"1000", "4", above, "abc", "256x", "-256"};
    expect_variable_refused(&dev, "MAGNUS_HASH_GROUP_MAX", bad, sizeof bad / sizeof bad[0]);
    const uint64_t bad_options[] = {1000, 4, limit};
    for (size_t i = 0; i < sizeof bad_options / sizeof bad_options[0]; i++) {
        opt.hash_group_max = bad_options[i];
        magnus_status s = magnus_context_create(&ctx, &dev, &opt);
        cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "hash_group_max %llu: %s",
                     (unsigned long long)bad_options[i], magnus_status_string(s));
        cr_assert_null(ctx);
        cr_assert(strstr(magnus_last_error(), "hash_group_max") != NULL, "%s",
                  magnus_last_error());
    }
}

/* rows rows of A with 1, 2 or 3 entries among k columns (a few A entries, long B rows:
 * the rows kernels widen their teams). */
static magnus_csr few_per_row(int64_t rows, int64_t k, uint64_t seed, magnus_value_type type) {
    magnus_csr A;
    ASSERT_OK(magnus_csr_new(&A, rows, k, rows * 3, type));
    uint64_t x = magnus_test_seed(seed);
    int64_t e = 0;
    for (int64_t r = 0; r < rows; r++) {
        int64_t n = 1 + r % 3, first = (int64_t)(next_random(&x) % (uint64_t)(k - 3));
        for (int64_t j = 0; j < n; j++) {
            A->col_idx[e] = (int32_t)(first + j);
            double v = 0.5 + (double)(next_random(&x) % 1000) / 1000.0;
            if (type == MAGNUS_FLOAT32)
                ((float *)A->values)[e] = (float)v;
            else
                ((double *)A->values)[e] = v;
            e++;
        }
        A->row_ptr[r + 1] = e;
    }
    A->nnz = e;
    return A;
}

/* A new context (the caller frees it) for the wide paths: the device's whole local memory as
 * the budget (the default, at most 48 KiB, holds numeric tables of up to ~6000 slots in
 * float32: 512 work items), created now, so it reads the MAGNUS_HASH_GROUP_MAX the caller
 * has just set; or skip where even that holds no numeric table of 8192 slots of `type`
 * (CUDA's 227 KiB and PoCL's 1 MiB do; NVIDIA's OpenCL's 48 KiB does not). */
static magnus_context wide_context(magnus_value_type type) {
    magnus_device_info device;
    magnus_context_options opt;
    magnus_context ctx = NULL;
    ASSERT_OK(magnus_device_select(&device));
    ASSERT_OK(magnus_context_options_init(&opt));
    opt.local_mem_bytes = device.local_mem_bytes; /* the probe's: the device's maximum */
    ASSERT_OK(magnus_context_create(&ctx, &device, &opt));
    /* 8192 slots of column and value, the item's 4-byte counter, the 16-byte reserve */
    uint64_t need = 8192 * (4 + (uint64_t)magnus_value_size(type)) + 4 + 16;
    uint64_t budget = ctx->device.local_mem_bytes, items = ctx->device.max_work_group_size;
    if (budget < need || items < 1024) magnus_context_free(&ctx);
    if (budget < need)
        cr_skip_test("%llu bytes of local memory hold no 8192-slot table (%llu needed)",
                     (unsigned long long)budget, (unsigned long long)need);
    /* the wide tests ask for 1024 work items per table (MAGNUS_HASH_GROUP_MAX) */
    if (items < 1024)
        cr_skip_test("work groups of at most %llu items: the wide paths need 1024",
                     (unsigned long long)items);
    return ctx;
}

/* The rows' numeric and symbolic tables of 8192 slots, once with 256 and once with 1024 work
 * items per table; both algorithms (gMAGNUS's light rows are these rows). */
static void wide_rows(magnus_value_type type) {
    magnus_csr A = few_per_row(300, 64, 81, type), B;
    ASSERT_OK(magnus_gen_uniform(&B, 64, 8192, 1100, magnus_test_seed(82), type));
    magnus_hash_bin_shape sh;
    const char *caps[] = {"256", "1024"};
    for (int i = 0; i < 2; i++) {
        setenv("MAGNUS_HASH_GROUP_MAX", caps[i], 1);
        magnus_context ctx = wide_context(type);
        ASSERT_OK(magnus_hash_bin_shape_of(&sh, ctx, type, 1, 2500));
        cr_assert_eq(sh.lanes, (uint32_t)atoi(caps[i]), "the rows would not take the wide path");
        check_product(ctx, A, B, MAGNUS_ALGORITHM_HASH, caps[i]);
        check_product(ctx, A, B, MAGNUS_ALGORITHM_MAGNUS, caps[i]);
        ASSERT_OK(magnus_context_free(&ctx));
    }
    unsetenv("MAGNUS_HASH_GROUP_MAX");
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

Test(hash_work, few_entries_long_b_rows_f32) { wide_rows(MAGNUS_FLOAT32); }

Test(hash_work, few_entries_long_b_rows_f64) {
    if (!magnus_test_context()->device.fp64) cr_skip_test("no fp64");
    wide_rows(MAGNUS_FLOAT64);
}

Test(hash_work, mixed_small_rows_share_groups) {
    /* rows of 0 .. ~20 products: several rows per work group with different entry counts,
     * so one group sorts different sizes with one network */
    magnus_context ctx = magnus_test_context();
    magnus_csr A, B;
    ASSERT_OK(magnus_gen_uniform(&A, 3000, 700, 2.5, magnus_test_seed(83), MAGNUS_FLOAT32));
    ASSERT_OK(magnus_gen_uniform(&B, 700, 5000, 3.3, magnus_test_seed(84), MAGNUS_FLOAT32));
    magnus_hash_bin_shape sh;
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, ctx, MAGNUS_FLOAT32, 1, 12));
    cr_assert_gt(sh.per_group, 1, "rows of 12 entries would not share a group");
    check_product(ctx, A, B, MAGNUS_ALGORITHM_HASH, "mixed");
    /* the widest groups this device allows, up to 1024 */
    uint64_t cap = 1024;
    while (cap > ctx->device.max_work_group_size) cap /= 2;
    char cap_text[24];
    snprintf(cap_text, sizeof cap_text, "%llu", (unsigned long long)cap);
    setenv("MAGNUS_HASH_GROUP_MAX", cap_text, 1);
    /* a context reads the knob when it is created */
    magnus_context widest = magnus_test_budget_context(0);
    cr_assert_eq(widest->hash_group_max, cap);
    check_product(widest, A, B, MAGNUS_ALGORITHM_HASH, "mixed, widest groups");
    ASSERT_OK(magnus_context_free(&widest));
    unsetenv("MAGNUS_HASH_GROUP_MAX");
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

/* Chunks of 1 .. 4500 entries over 8192 local columns (tables of up to 16384 slots, 1024
 * work items with the knob), accumulated on the device and on the host. */
Test(hash_work, wide_chunks) {
    enum { NCHUNKS = 24, WIDTH = 8192 };
    setenv("MAGNUS_HASH_GROUP_MAX", "1024", 1);
    magnus_context ctx = wide_context(MAGNUS_FLOAT32);
    int64_t ptr[NCHUNKS + 1];
    ptr[0] = 0;
    uint64_t x = magnus_test_seed(85);
    for (int c = 0; c < NCHUNKS; c++)
        ptr[c + 1] = ptr[c] + (c == 5 ? 0 : c % 4 == 0 ? 4500 : 1 + (int64_t)(next_random(&x) % 3000));
    int64_t n = ptr[NCHUNKS];
    int32_t *col = malloc((size_t)n * 4);
    float *val = malloc((size_t)n * 4);
    for (int64_t e = 0; e < n; e++) {
        col[e] = (int32_t)(next_random(&x) % WIDTH);
        val[e] = (float)(next_random(&x) % 1000) / 250.0f - 2.0f;
    }
    /* host: sorted distinct columns and sums, chunk c shifted by c * WIDTH (period NCHUNKS) */
    int64_t counts[NCHUNKS], offs[NCHUNKS + 1];
    double *val64 = malloc((size_t)n * 8 + 8);
    for (int64_t e = 0; e < n; e++) val64[e] = val[e];
    int32_t *hcol = malloc((size_t)n * 4 + 4);
    double *hval = malloc((size_t)n * 8 + 8);
    hash_chunks_host(NCHUNKS, ptr, col, val64, WIDTH, NCHUNKS, counts, offs, hcol, hval);
    magnus_hash_bin_shape sh;
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, ctx, MAGNUS_FLOAT32, 1, counts[0]));
    cr_assert_eq(sh.lanes, 1024, "chunk 0 (%lld entries) would not get 1024 work items",
                 (long long)counts[0]);
    magnus_dbuf dptr, dcol, dval, dcounts, doffs, dccol, dcval;
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof ptr, &dptr));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)n * 4, &dcol));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)n * 4, &dval));
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof counts, &dcounts));
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof offs, &doffs));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)offs[NCHUNKS] * 4, &dccol));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)offs[NCHUNKS] * 4, &dcval));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dptr, 0, ptr, sizeof ptr));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dcol, 0, col, (size_t)n * 4));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dval, 0, val, (size_t)n * 4));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &doffs, 0, offs, sizeof offs));
    magnus_hash_segments seg = {.ptr = &dptr, .col = &dcol, .val = &dval, .col_range = WIDTH,
                                .type = MAGNUS_FLOAT32};
    magnus_hash_stats st = {0};
    ASSERT_OK(magnus_hash_chunks_symbolic_sync(ctx, NULL, &seg, NULL, 0, NCHUNKS, &dcounts, &st));
    int64_t got[NCHUNKS];
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, got, &dcounts, 0, sizeof got));
    for (int c = 0; c < NCHUNKS; c++)
        cr_assert_eq(got[c], counts[c], "chunk %d: %lld distinct, expected %lld", c,
                     (long long)got[c], (long long)counts[c]);
    magnus_hash_chunk_output out = {.offset = &doffs, .nnz = &dcounts, .shift_period = NCHUNKS,
                                    .shift_step = WIDTH, .C_col = &dccol, .C_val = &dcval};
    ASSERT_OK(magnus_hash_chunks_numeric_sync(ctx, NULL, &seg, NULL, 0, NCHUNKS, &out, &st));
    cr_assert_eq(st.items_global, 0, "a chunk took a global table");
    hash_chunks_expect_output(ctx, &dccol, &dcval, MAGNUS_FLOAT32, hcol, hval, offs[NCHUNKS]);
    magnus_dbuf *all[] = {&dptr, &dcol, &dval, &dcounts, &doffs, &dccol, &dcval};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) magnus_dbuf_free(ctx, all[i]);
    ASSERT_OK(magnus_context_free(&ctx));
    unsetenv("MAGNUS_HASH_GROUP_MAX");
    free(col);
    free(val);
    free(val64);
    free(hcol);
    free(hval);
}

/* MAGNUS_HASH_MERGE_GROUPS, read at context creation: unset, the probed device's compute units
 * (one wave of work groups); 0 (never merge) and a number as given; anything else refused,
 * naming the variable. */
Test(hash_work, merge_knob_read_at_context_creation) {
    magnus_device_info dev;
    magnus_context ctx = NULL;
    ASSERT_OK(magnus_device_select(&dev));
    unsetenv("MAGNUS_HASH_MERGE_GROUPS");
    ASSERT_OK(magnus_context_create(&ctx, &dev, NULL));
    cr_assert_gt(dev.compute_units, 0);
    cr_assert_eq(magnus_accumulate_knobs_of(ctx)->hash_merge_groups, (uint32_t)dev.compute_units);
    ASSERT_OK(magnus_context_free(&ctx));
    const struct {
        const char *value;
        uint32_t want;
    } good[] = {{"0", 0}, {"7", 7}, {"2147483647", 2147483647u}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        setenv("MAGNUS_HASH_MERGE_GROUPS", good[i].value, 1);
        ASSERT_OK(magnus_context_create(&ctx, &dev, NULL));
        cr_assert_eq(magnus_accumulate_knobs_of(ctx)->hash_merge_groups, good[i].want, "%s",
                     good[i].value);
        ASSERT_OK(magnus_context_free(&ctx));
    }
    const char *bad[] = {"abc", "-1", "2147483648", "12x"};
    expect_variable_refused(&dev, "MAGNUS_HASH_MERGE_GROUPS", bad, sizeof bad / sizeof bad[0]);
}

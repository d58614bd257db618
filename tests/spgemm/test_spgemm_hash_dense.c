/*
 * Dense rows (runtime/accumulate/dense/, which the hash accumulator uses; part of
 * spgemm_hash): rows that no local hash table holds, accumulated over C's whole width in local
 * memory when that width fits.
 * Every size comes from the probed device and the context (the widest C, the tables'
 * capacities, the work-group cap), so the inputs land on the intended side on any device:
 * rows past both tables with C as wide as the dense rows allow, one column more (global
 * tables), the knob off, an explicit budget, rows of several tiles of A entries with
 * empty B rows among them, and a C several times wider than a dense row (column stripes, up
 * to their knob). Every product is compared with the CPU reference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash_private.h"
#include "reference_test_util.h"
#include "spgemm_hash_test_util.h"

/* The widest C from the layout itself: D columns fit the context's dense-row bytes (less the
 * reserve), D + 1 do not. */
static void check_width(const magnus_context_s *ctx, magnus_value_type type, int64_t D) {
    const uint64_t vb = magnus_value_size(type), wg = magnus_hash_group_cap(ctx);
    const uint64_t room =
        magnus_dense_rows_knobs_of(ctx)->dense_rows_local_bytes - MAGNUS_DENSE_LOCAL_RESERVE;
    cr_assert_gt(D, 0);
    cr_assert_leq(mg_hash_dense_bytes(1u, (uint64_t)D, vb, wg), room, "width %lld", (long long)D);
    cr_assert_gt(mg_hash_dense_bytes(1u, (uint64_t)D + 1, vb, wg), room, "width %lld + 1",
                 (long long)D);
}

typedef struct dense_case {
    magnus_csr A, B;
    int64_t long_rows; /* rows of A whose products pass the symbolic tables */
} dense_case;

static double value_of(uint64_t a, uint64_t b) {
    return 0.5 + (double)((a * 2654435761u + b * 40503u) % 89) / 16.0;
}

/*
 * B: K rows of F entries each, row k at columns k % (W / F) + j * (W / F) (distinct, < W),
 * except every 11th row, which is empty. A: row 0 empty, then `long_rows` rows of E
 * consecutive entries (products past L, and, their B rows starting at consecutive columns,
 * more distinct columns than N), one of them with more entries than two work groups' tiles,
 * then short rows of 3 entries.
 */
static dense_case build(int64_t W, int64_t L, int64_t N, uint32_t wg, int64_t long_rows,
                        magnus_value_type type) {
    const int64_t F = 64, step = W / F;
    cr_assert_geq(step, 1, "width %lld below %lld", (long long)W, (long long)F);
    const int64_t most = L > N ? L : N;
    const int64_t E = (most + 2 * F) * 11 / 10 / F + 11; /* every 11th B row is empty */
    const int64_t E_tiles = 2 * (int64_t)wg + 3, K = (E_tiles > E ? E_tiles : E) + 64;
    dense_case d;
    d.long_rows = long_rows;
    const int64_t short_rows = 200, rows = 1 + d.long_rows + short_rows;
    int64_t b_nnz = 0;
    for (int64_t k = 0; k < K; k++) b_nnz += k % 11 == 10 ? 0 : F;
    ASSERT_OK(magnus_csr_new(&d.B, K, W, b_nnz, type));
    int64_t q = 0;
    for (int64_t k = 0; k < K; k++) {
        d.B->row_ptr[k] = q;
        if (k % 11 == 10) continue;
        const int64_t start = k % step; /* start + (F - 1) * step < W */
        for (int64_t j = 0; j < F; j++, q++) {
            d.B->col_idx[q] = (int32_t)(start + j * step);
            ref_set_value(d.B, q, value_of((uint64_t)k, (uint64_t)j));
        }
    }
    d.B->row_ptr[K] = q;
    int64_t a_nnz = 0;
    for (int64_t r = 1; r <= d.long_rows; r++) a_nnz += r == 2 ? E_tiles : E;
    a_nnz += 3 * short_rows;
    ASSERT_OK(magnus_csr_new(&d.A, rows, K, a_nnz, type));
    q = 0;
    d.A->row_ptr[0] = 0;
    for (int64_t r = 1; r < rows; r++) {
        d.A->row_ptr[r] = q;
        const int64_t n = r <= d.long_rows ? (r == 2 ? E_tiles : E) : 3;
        const int64_t first = r <= d.long_rows ? (r * 5) % (K - n + 1) : (r * 11) % (K - 3);
        for (int64_t j = 0; j < n; j++, q++) {
            d.A->col_idx[q] = (int32_t)(first + j);
            ref_set_value(d.A, q, value_of((uint64_t)r + 1000, (uint64_t)j));
        }
    }
    d.A->row_ptr[rows] = q;
    cr_assert_eq(q, a_nnz);
    return d;
}

static void dense_case_free(dense_case *d) {
    magnus_csr_free(&d->A);
    magnus_csr_free(&d->B);
}

/* The widths this device's context takes, and the case built for them; false (with a note)
 * when the device's dense rows cannot hold a row past the numeric tables. */
static bool plan(magnus_context ctx, magnus_value_type type, int64_t *D, int64_t *W,
                 dense_case *out) {
    int64_t L, N;
    magnus_hash_local_capacity(ctx, type, &L, &N);
    *D = magnus_hash_dense_row_columns(ctx, type);
    /* room for rows past both tables: a symbolic key is capped by C's width */
    const int64_t most = L > N ? L : N;
    *W = 2 * most + 512 < *D ? 2 * most + 512 : *D;
    if (*D == 0 || *W <= most + 256) {
        cr_log_info("%s: dense rows up to %lld columns, numeric tables %lld entries: skipped",
                    type == MAGNUS_FLOAT64 ? "f64" : "f32", (long long)*D, (long long)N);
        return false;
    }
    /* more long rows than one wave of resident groups (runtime/accumulate/dense/dense_rows.c), so that groups
     * take several rows each and must leave their arrays clear for the next */
    const int64_t units = ctx->device.compute_units > 0 ? ctx->device.compute_units : 1;
    const int64_t groups = units * MAGNUS_DENSE_GROUPS_PER_UNIT;
    const uint32_t wg = magnus_hash_group_cap(ctx);
    *out = build(*W, L, N, wg, groups * 2 + 3 < 300 ? groups * 2 + 3 : 300, type);
    return true;
}

/* A case of plan's for the t-th value type (f32, f64), its dense rows' width checked
 * (check_width), run through the hash algorithm with statistics. */
typedef struct dense_run {
    magnus_value_type type;
    int64_t D; /* the dense rows' columns */
    dense_case d;
    magnus_hash_stats sym, num;
    magnus_report rep;
} dense_run;

/* false where the device lacks the type or plan finds no case (the caller skips the type) */
static bool plan_and_run(dense_run *r, magnus_context ctx, int t) {
    memset(r, 0, sizeof *r);
    r->type = t ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
    int64_t W;
    if ((r->type == MAGNUS_FLOAT64 && !ctx->device.fp64) || !plan(ctx, r->type, &r->D, &W, &r->d))
        return false;
    check_width(ctx, r->type, r->D);
    hash_run_with_stats(ctx, r->d.A, r->d.B, NULL, &r->sym, &r->num, &r->rep);
    return true;
}

Test(hash_dense, rows_past_the_tables_take_dense_rows) {
    magnus_context ctx = magnus_test_context();
    int ran = 0;
    for (int t = 0; t < 2; t++) {
        dense_run r;
        if (!plan_and_run(&r, ctx, t)) continue;
        dense_case d = r.d;
        const int64_t D = r.D;
        magnus_hash_stats sym = r.sym, num = r.num;
        magnus_report rep = r.rep;
        cr_assert_eq(sym.items_global + num.items_global, 0, "global tables with dense rows");
        cr_assert_eq(sym.items_dense, d.long_rows, "symbolic dense rows %lld, expected %lld",
                     (long long)sym.items_dense, (long long)d.long_rows);
        cr_assert_eq(num.items_dense, d.long_rows, "numeric dense rows %lld",
                     (long long)num.items_dense);
        cr_assert_eq(rep.rows_dense, d.long_rows);
        cr_assert_eq(rep.rows_heavy, 0);
        cr_assert_eq(rep.dense_row_columns, D);
        /* the same product through the public entry point */
        magnus_report pub = check_product(ctx, d.A, d.B, "dense rows, public");
        cr_assert_eq(pub.rows_dense, d.long_rows);

        /* one column more than the dense rows hold, stripes off: the global tables again */
        magnus_dense_rows_knobs_edit(ctx)->dense_row_stripes = 0;
        d.B->cols = D + 1;
        magnus_hash_stats sym1 = {0}, num1 = {0};
        hash_run_with_stats(ctx, d.A, d.B, NULL, &sym1, &num1, &rep);
        cr_assert_eq(sym1.items_dense + num1.items_dense, 0, "dense rows past their width");
        cr_assert_eq(sym1.items_global, d.long_rows);
        cr_assert_eq(num1.items_global, d.long_rows);
        cr_assert_eq(rep.rows_dense, 0);
        dense_case_free(&d);
        ran++;
    }
    if (!ran) cr_skip_test("this device's dense rows hold no row past its numeric tables");
}

Test(hash_dense, knob_off_takes_global_tables) {
    setenv("MAGNUS_DENSE_ROWS", "0", 1); /* this test's own process */
    magnus_context ctx = magnus_test_context();
    cr_assert_eq(magnus_dense_rows_knobs_of(ctx)->dense_rows_local_bytes, 0);
    cr_assert_eq(magnus_hash_dense_row_columns(ctx, MAGNUS_FLOAT32), 0);
    int64_t L, N;
    magnus_hash_local_capacity(ctx, MAGNUS_FLOAT32, &L, &N);
    dense_case d = build(2 * (L > N ? L : N) + 512, L, N, magnus_hash_group_cap(ctx), 4,
                         MAGNUS_FLOAT32);
    magnus_hash_stats sym = {0}, num = {0};
    magnus_report rep;
    hash_run_with_stats(ctx, d.A, d.B, NULL, &sym, &num, &rep);
    cr_assert_eq(sym.items_dense + num.items_dense, 0);
    cr_assert_eq(sym.items_global, d.long_rows);
    cr_assert_eq(num.items_global, d.long_rows);
    cr_assert_eq(rep.dense_row_columns, 0);
    dense_case_free(&d);
}

Test(hash_dense, knob_refused_by_name) {
    setenv("MAGNUS_DENSE_ROWS", "2", 1);
    magnus_context ctx = NULL;
    magnus_status s = magnus_context_create(&ctx, NULL, NULL);
    unsetenv("MAGNUS_DENSE_STRIPES");
    cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "%s", magnus_status_string(s));
    cr_assert_null(ctx);
    cr_assert(strstr(magnus_last_error(), "MAGNUS_DENSE_ROWS"), "%s", magnus_last_error());
}

Test(hash_dense, explicit_budget_bounds_dense_rows) {
    /* a budget the caller sets bounds the dense rows too; the default lets them use the
     * device's local memory */
    magnus_context dflt = magnus_test_context();
    const char *env = getenv("MAGNUS_LOCAL_MEM_BYTES");
    cr_assert_eq(magnus_dense_rows_knobs_of(dflt)->dense_rows_local_bytes,
                 env && *env ? dflt->device.local_mem_bytes : dflt->device_local_mem_bytes);
    const uint64_t budget = 32768 < dflt->device_local_mem_bytes ? 32768 : dflt->device_local_mem_bytes;
    magnus_context ctx = magnus_test_budget_context(budget);
    cr_assert_eq(magnus_dense_rows_knobs_of(ctx)->dense_rows_local_bytes, budget);
    for (int t = 0; t < 2; t++) {
        dense_run r; /* every launch within the budget, or magnus_launch refuses it */
        if (!plan_and_run(&r, ctx, t)) continue;
        cr_assert_leq(r.D, magnus_hash_dense_row_columns(dflt, r.type));
        cr_assert_eq(r.num.items_dense, r.d.long_rows);
        cr_assert_eq(r.sym.items_global + r.num.items_global, 0);
        dense_case_free(&r.d);
    }
    magnus_context_free(&ctx);
}

/* A C about 3.4 times as wide as a dense row holds: 4 column stripes with the knob at 8 (B's
 * rows spread over the whole width, so every stripe cuts every B row), none with it at 3. */
Test(hash_dense, stripes_take_rows_of_a_wider_c) {
    magnus_context dflt = magnus_test_context();
    const uint64_t budget = 16384 < dflt->device_local_mem_bytes ? 16384 : dflt->device_local_mem_bytes;
    setenv("MAGNUS_DENSE_STRIPES", "8", 1); /* this test's own context only */
    magnus_context ctx = magnus_test_budget_context(budget);
    unsetenv("MAGNUS_DENSE_STRIPES"); /* read at creation: the contexts have it */
    cr_assert_eq(magnus_dense_rows_knobs_of(ctx)->dense_row_stripes, 8);
    int ran = 0;
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = t ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
        if (type == MAGNUS_FLOAT64 && !ctx->device.fp64) continue;
        int64_t L, N;
        magnus_hash_local_capacity(ctx, type, &L, &N);
        const int64_t D = magnus_hash_dense_row_columns(ctx, type);
        const int64_t most = L > N ? L : N;
        if (D < 64) {
            cr_log_info("dense rows of %lld columns: stripes skipped", (long long)D);
            continue;
        }
        /* products past both tables (a symbolic key is capped by C's width) */
        int64_t W = 3 * D + D / 2;
        if (W < 2 * most + 512) W = 2 * most + 512;
        const int64_t S = (W + D - 1) / D;
        if (S > 8) continue;
        cr_assert_eq(magnus_hash_dense_row_stripes(ctx, type, W), S);
        dense_case d = build(W, L, N, magnus_hash_group_cap(ctx), 40, type);
        magnus_hash_stats sym = {0}, num = {0};
        magnus_report rep;
        hash_run_with_stats(ctx, d.A, d.B, NULL, &sym, &num, &rep);
        cr_assert_eq(sym.items_global + num.items_global, 0, "global tables with stripes");
        cr_assert_eq(sym.items_dense, d.long_rows, "symbolic dense rows %lld",
                     (long long)sym.items_dense);
        cr_assert_geq(num.items_dense, d.long_rows, "numeric dense rows %lld",
                      (long long)num.items_dense);
        cr_assert_eq(sym.dense_stripes, S, "stripes %lld, expected %lld",
                     (long long)sym.dense_stripes, (long long)S);
        cr_assert_eq(num.dense_stripes, S);
        cr_assert_eq(rep.dense_stripes, S, "the report's stripes %lld, expected %lld",
                     (long long)rep.dense_stripes, (long long)S);
        check_product(ctx, d.A, d.B, "dense rows in stripes, public");
        /* more stripes than the knob allows: global tables, the same product */
        magnus_dense_rows_knobs_edit(ctx)->dense_row_stripes = (uint32_t)S - 1;
        cr_assert_eq(magnus_hash_dense_row_stripes(ctx, type, W), 0);
        magnus_hash_stats sym1 = {0}, num1 = {0};
        hash_run_with_stats(ctx, d.A, d.B, NULL, &sym1, &num1, &rep);
        cr_assert_eq(sym1.items_dense + num1.items_dense, 0);
        cr_assert_eq(rep.dense_stripes, 0, "stripes reported with none run");
        cr_assert_eq(sym1.items_global, d.long_rows);
        magnus_dense_rows_knobs_edit(ctx)->dense_row_stripes = 8;
        dense_case_free(&d);
        ran++;
    }
    magnus_context_free(&ctx);
    if (!ran) cr_skip_test("no dense rows of 64 columns at this budget");
}

/* A context created with `variable` set to `value` in this process only (unset at once). */
static magnus_status context_with(magnus_context *ctx, const char *variable, const char *value) {
    setenv(variable, value, 1);
    *ctx = NULL;
    magnus_status s = magnus_context_create(ctx, NULL, NULL);
    unsetenv(variable);
    return s;
}

Test(hash_dense, knobs_refused_by_name) {
    static const char *const bad[][2] = {{"MAGNUS_DENSE_STRIPES", "65"},
                                         {"MAGNUS_DENSE_ROW_ITEMS", "65537"},
                                         {"MAGNUS_DENSE_ROW_ITEMS", "-1"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        magnus_context ctx;
        magnus_status s = context_with(&ctx, bad[k][0], bad[k][1]);
        cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "%s=%s: %s", bad[k][0], bad[k][1],
                     magnus_status_string(s));
        cr_assert_null(ctx);
        cr_assert(strstr(magnus_last_error(), bad[k][0]), "%s", magnus_last_error());
    }
}

/* MAGNUS_DENSE_ROW_ITEMS: off (the local memory's fit alone) and far more groups per compute
 * unit than that fit, so that groups run in several waves, each taking fewer rows: the same
 * products and the same rows dense. */
Test(hash_dense, work_items_per_unit_same_products) {
    const uint32_t wg = magnus_hash_group_cap(magnus_test_context());
    const uint32_t values[] = {0, wg * 16 * MAGNUS_DENSE_GROUPS_PER_UNIT};
    int ran = 0;
    for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
        char items[32];
        snprintf(items, sizeof items, "%u", values[v]);
        magnus_context ctx;
        magnus_status st = context_with(&ctx, "MAGNUS_DENSE_ROW_ITEMS", items);
        cr_assert_eq(st, MAGNUS_SUCCESS, "%s", magnus_last_error());
        cr_assert_eq(magnus_dense_rows_knobs_of(ctx)->dense_row_items, values[v]);
        for (int t = 0; t < 2; t++) {
            dense_run r;
            if (!plan_and_run(&r, ctx, t)) continue;
            cr_assert_eq(r.sym.items_dense, r.d.long_rows);
            cr_assert_eq(r.num.items_dense, r.d.long_rows);
            check_product(ctx, r.d.A, r.d.B, items);
            dense_case_free(&r.d);
            ran++;
        }
        magnus_context_free(&ctx);
    }
    if (!ran) cr_skip_test("no dense rows past the tables on this device");
}

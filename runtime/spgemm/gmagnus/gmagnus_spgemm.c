/*
 * gMAGNUS end to end (paper Alg. 3; docs/algorithm.md §2): the flow, C, and its sections of
 * the report (spgemm_section.h: RUN and GMAGNUS; never the dispatcher's fields).
 *
 *   main    setup: products per row, heavy/light partition, C-hat's row pointer  [sync]
 *   heavy   masked CSR->CSC, outer product (queued)
 *   light   symbolic of the light rows (hash; runs while the outer product does)
 *   heavy   multisplit levels, symbolic of the chunks (dense + hash), counts up into C
 *   main    C.row_ptr = exclusive scan; free C-hat's dead buffer; allocate C      [sync]
 *   heavy   chunk positions, dense numeric (queued)
 *   light   numeric of the light rows (hash; runs while the dense numeric does)
 *   heavy   numeric of the light chunks (hash)                                   [sync]
 * No step accumulates in global memory while light rows have at most tau products (the hash
 * accumulator's local capacity; longer ones, gmagnus_rows.c, may take its wide or global
 * tables); light chunks have at most tau, heavy chunks of the last level fit the dense one.
 * The hash helpers (magnus_hash_*_sync) wait for their queue before returning, hence the
 * order above: queued heavy work first, then the blocking light call. [sync] marks the
 * other host waits for a whole queue; scans with a total and partitions also wait for
 * theirs (primitives.h), as gmagnus_internal.h lists per phase.
 */
#include <string.h>

#include "device_csr.h"
#include "gmagnus_internal.h"
#include "hash_accumulate.h"
#include "kernels.h"
#include "primitives.h"
#include "spgemm_algorithm.h"

magnus_status magnus_gm_alloc(magnus_gm *g, size_t bytes, magnus_dbuf *out) {
    double t = magnus_now_ms();
    magnus_status s = magnus_dbuf_alloc(g->ctx, bytes, out);
    g->host_alloc_ms += magnus_now_ms() - t;
    return s;
}

size_t magnus_gm_groups(int64_t items, size_t group) {
    if (items <= 0) return 0;
    uint64_t groups = ((uint64_t)items + group - 1) / group;
    const uint64_t cap = 1u << 20; /* kernels stride over the rest */
    return (size_t)(groups < cap ? groups : cap);
}

magnus_status magnus_gm_drain(magnus_gm *g, magnus_status s) {
    return magnus_context_finish_after_error(g->ctx, s);
}

magnus_status magnus_gm_iota(magnus_gm *g, magnus_queue_id q, int64_t n) {
    if (n <= g->iota_count && g->iota.mem) return MAGNUS_SUCCESS;
    magnus_dbuf_free_deferred(g->ctx, &g->iota); /* queued chunk work may still read it */
    magnus_status s = magnus_gm_alloc(g, (size_t)n * 4, &g->iota);
    if (s) return s;
    g->iota_count = n;
    return magnus_k_gmagnus_iota(g->ctx, q, g->variant, magnus_gm_groups(n, 256), 256, 0, n, 0,
                                 &g->iota);
}

void magnus_gm_release(magnus_gm *g) {
    magnus_context ctx = g->ctx;
    for (int L = 0; L < MAGNUS_MAX_LEVELS; L++) {
        magnus_gm_stage *st = &g->stage[L];
        if (st->owns_ptr) magnus_dbuf_free(ctx, &st->ptr);
        magnus_dbuf *bufs[] = {&st->perm, &st->hash_ids, &st->dense_ids, &st->cnt,
                               &st->scan, &st->base,  &st->shift};
        for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) magnus_dbuf_free(ctx, bufs[i]);
    }
    magnus_dbuf *bufs[] = {&g->heavy_rows, &g->light_rows, &g->chat_ptr, &g->col[0],
                           &g->col[1],     &g->val[0],     &g->val[1],   &g->iota};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) magnus_dbuf_free(ctx, bufs[i]);
}

/* Device event times into the sections (all queues are idle by now). */
static magnus_status collect_times(magnus_gm *g, magnus_spgemm_section *r) {
    double *slot[MAGNUS_GM_TIMERS] = {0};
    slot[MAGNUS_GM_T_SETUP] = &r->run.time_setup_ms;
    slot[MAGNUS_GM_T_CSR2CSC] = &r->gmagnus.time_csr2csc_ms;
    slot[MAGNUS_GM_T_OUTER] = &r->gmagnus.time_outer_product_ms;
    for (int L = 0; L < MAGNUS_MAX_LEVELS; L++) {
        slot[MAGNUS_GM_T_HISTOGRAM + L] = &r->gmagnus.time_histogram_ms[L];
        slot[MAGNUS_GM_T_MULTISPLIT + L] = &r->gmagnus.time_multisplit_ms[L];
    }
    magnus_status first = MAGNUS_SUCCESS;
    for (int i = 0; i < MAGNUS_GM_TIMERS; i++) {
        magnus_timer *t = &g->timers[i];
        if (!t->start) continue;
        double ms = 0;
        magnus_status s = t->end ? magnus_timer_elapsed_ms(g->ctx, t, &ms) : MAGNUS_SUCCESS;
        if (!t->end && t->start) magnus_timer_discard(g->ctx, t); /* never stopped: an error */
        if (!s && slot[i]) *slot[i] = ms;
        if (s && !first) first = s;
    }
    return first;
}

static void fill_report(const magnus_gm *g, magnus_spgemm_section *r) {
    const magnus_gmagnus_params *p = &g->p;
    r->run.local_mem_bytes = p->local_mem_bytes;
    r->run.tau = p->tau;
    r->gmagnus.heavy_row_products = g->heavy_row_products;
    r->gmagnus.heavy_row_rule = g->heavy_row_rule;
    r->gmagnus.light_rows_global = g->light_rows_global;
    r->run.rows_dense = g->light_rows_dense;
    r->run.dense_stripes = g->light_dense_stripes;
    r->run.dense_row_columns = magnus_hash_dense_row_columns(g->ctx, g->A->type);
    r->run.dense_rows_local_bytes = magnus_hash_dense_rows_local_bytes(g->ctx, g->A->type);
    r->gmagnus.chunks_required = p->chunks_required;
    r->gmagnus.levels = g->levels_run;
    for (int L = 0; L < MAGNUS_MAX_LEVELS; L++)
        r->gmagnus.chunks_per_level[L] = L < p->levels ? p->chunks_per_level[L] : 0;
    r->gmagnus.chunk_width = p->levels > 0 ? p->chunk_width[p->levels - 1] : g->B->cols;
    r->gmagnus.dense_min_elements = p->dense_min_elements;
    r->gmagnus.chunks_dense = 0;
    r->gmagnus.chunks_hash = 0;
    for (int L = 0; L < g->nstages; L++) {
        r->gmagnus.chunks_dense += g->stage[L].dense_count;
        r->gmagnus.chunks_hash += g->stage[L].hash_count;
    }
    r->run.rows_total = g->A->rows;
    r->run.rows_heavy = g->nheavy;
    r->run.products_total = g->products_total;
    r->gmagnus.products_heavy = g->products_heavy;
    r->run.nnz_c = g->C ? g->C->nnz : 0;
    r->gmagnus.chat_bytes = g->nheavy > 0 ? (uint64_t)g->chat_nnz * (4 + g->value_bytes) +
                                                ((uint64_t)g->nheavy + 1) * 8
                                          : 0;
    r->gmagnus.chat_gap_bytes = g->gap * (4 + g->value_bytes);
}

/* Light rows with at most tau products fit the hash accumulator's local memory; a row it
 * had to count in a global table then means the parameters are wrong. Above tau (the knob or
 * the rule of gmagnus_rows.c), a light row may take a wide or a global table. */
static magnus_status check_rows_local(magnus_gm *g, const magnus_hash_stats *st) {
    g->light_rows_global += st->items_global;
    if (st->items_dense > g->light_rows_dense) g->light_rows_dense = st->items_dense;
    if (st->dense_stripes > g->light_dense_stripes) g->light_dense_stripes = st->dense_stripes;
    if (g->heavy_row_products <= g->p.tau && st->items_global != 0)
        return magnus_error(MAGNUS_ERROR_INTERNAL,
                            "gMAGNUS: %lld light rows went to a global-memory hash table",
                            (long long)st->items_global);
    return MAGNUS_SUCCESS;
}

/* Symbolic: C.row_ptr[r] = nnz of row r for every row. The heavy path's reordering (outer
 * product, levels) runs here too; time_symbolic_ms counts only the symbolic calls (host
 * time: the light rows' call overlaps the outer product on the device). */
static magnus_status symbolic(magnus_gm *g, const magnus_hash_config *light,
                              magnus_spgemm_section *r) {
    magnus_status s;
    if ((s = magnus_queue_fork(g->ctx, MAGNUS_QUEUE_MAIN, MAGNUS_QUEUE_HEAVY, MAGNUS_QUEUE_LIGHT)))
        return s;
    if (g->nheavy > 0 && (s = magnus_gm_outer_product(g))) return s;
    double t = magnus_now_ms();
    magnus_hash_stats stats;
    memset(&stats, 0, sizeof stats);
    if (g->nlight > 0 &&
        ((s = magnus_hash_rows_symbolic_sync(g->ctx, light, g->A, g->B, &g->light_rows, 0,
                                             g->nlight, &g->C->row_ptr, &stats)) ||
         (s = check_rows_local(g, &stats))))
        return s;
    r->run.time_symbolic_ms += magnus_now_ms() - t;
    /* the chunks' partition would wait for the levels anyway: wait here, so the levels'
     * device time is not counted as symbolic */
    if ((s = magnus_gm_levels(g))) return s;
    /* After one level every chunk lives in buffer 1 (gmagnus_levels.c): C-hat itself, in
     * buffer 0, is dead once the multisplit has read it. Freed before C is allocated, it
     * keeps the peak at one copy of C-hat plus C instead of two plus C. */
    if (g->levels_run == 1) {
        magnus_dbuf_free_deferred(g->ctx, &g->col[0]);
        magnus_dbuf_free_deferred(g->ctx, &g->val[0]);
    }
    if ((s = magnus_queue_finish(g->ctx, MAGNUS_QUEUE_HEAVY))) return s;
    t = magnus_now_ms();
    if ((s = magnus_gm_chunks_symbolic(g))) return s;
    r->run.time_symbolic_ms += magnus_now_ms() - t;
    return MAGNUS_SUCCESS;
}

/* Numeric: C's entries, row by row in column order. */
static magnus_status numeric(magnus_gm *g, const magnus_hash_config *light) {
    magnus_status s;
    if ((s = magnus_queue_fork(g->ctx, MAGNUS_QUEUE_MAIN, MAGNUS_QUEUE_HEAVY,
                               MAGNUS_QUEUE_LIGHT)) ||
        (s = magnus_gm_chunks_numeric_dense(g)))
        return s;
    magnus_hash_stats stats;
    memset(&stats, 0, sizeof stats);
    if (g->nlight > 0 &&
        ((s = magnus_hash_rows_numeric_sync(g->ctx, light, g->A, g->B, &g->light_rows, 0,
                                            g->nlight, &g->C->row_ptr, &g->C->col_idx,
                                            &g->C->values, &stats)) ||
         (s = check_rows_local(g, &stats))))
        return s;
    return magnus_gm_chunks_numeric_sync(g);
}

static magnus_status run(magnus_gm *g, magnus_spgemm_section *r) {
    magnus_context ctx = g->ctx;
    magnus_hash_config light;
    magnus_hash_config_init(&light, MAGNUS_QUEUE_LIGHT);
    magnus_status s;
    double t = magnus_now_ms();
    if ((s = magnus_device_csr_new((magnus_device_csr *)&g->C, ctx, g->A->rows, g->B->cols,
                                   g->A->type)))
        return s;
    g->host_alloc_ms += magnus_now_ms() - t;
    if ((s = magnus_gm_setup_sync(g))) return s;

    if ((s = symbolic(g, &light, r))) return s;
    t = magnus_now_ms();
    uint64_t nnz = 0;
    if ((s = magnus_queue_depend(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_QUEUE_HEAVY)) ||
        (s = magnus_queue_depend(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_QUEUE_LIGHT)) ||
        (s = magnus_prim_scan_u64(ctx, MAGNUS_QUEUE_MAIN, &g->C->row_ptr, &g->C->row_ptr,
                                  (uint64_t)g->A->rows + 1, &nnz)))
        return s;
    r->run.time_symbolic_ms += magnus_now_ms() - t;
    /* every queue's work so far is behind the scan: what was deferred (C-hat's first buffer
     * among it) can go before C takes its place */
    if ((s = magnus_context_release_deferred(ctx))) return s;

    double ta = magnus_now_ms();
    s = magnus_device_csr_alloc_entries(g->C, (int64_t)nnz);
    g->host_alloc_ms += magnus_now_ms() - ta;
    if (s) return s;

    t = magnus_now_ms();
    if ((s = numeric(g, &light)) || (s = magnus_context_finish(ctx))) return s;
    r->run.time_numeric_ms = magnus_now_ms() - t;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_gmagnus_context_params(magnus_gmagnus_params *p, magnus_context ctx,
                                           int64_t c_cols, magnus_value_type type) {
    /* magnus_gmagnus_params_compute with the context's knobs instead of the environment's */
    magnus_gmagnus_params_input in;
    magnus_status s = magnus_gmagnus_params_input_for_device(&in, &ctx->device, c_cols, type);
    if (!s) {
        in.dense_min_elements = magnus_gmagnus_knobs_of(ctx)->dense_min_elements;
        magnus_gmagnus_params_input_set_multisplit(&in, &ctx->device,
                                                   magnus_gmagnus_knobs_of(ctx)->multisplit_group);
        s = magnus_gmagnus_params_from_input(p, &in);
    }
    return s;
}

magnus_status magnus_gmagnus_spgemm(magnus_device_csr *C, magnus_context ctx,
                                    const struct magnus_device_csr_s *A,
                                    const struct magnus_device_csr_s *B,
                                    magnus_spgemm_section *report,
                                    const magnus_row_products *counted) {
    if (!C || !ctx || !A || !B)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_gmagnus_spgemm: NULL argument");
    *C = NULL;
    magnus_spgemm_section scratch;
    magnus_spgemm_section *r = report ? report : &scratch;
    if (!report) memset(&scratch, 0, sizeof scratch);
    magnus_gm *g = magnus_host_calloc(1, sizeof *g);
    if (!g) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "gMAGNUS state");
    g->ctx = ctx;
    for (int i = 0; i < MAGNUS_GM_TIMERS; i++) g->timers[i].off = !r->phase_times;
    g->A = A;
    g->B = B;
    g->counted = counted;
    g->variant = magnus_variant_of(A->type);
    g->value_bytes = magnus_value_size(A->type);
    magnus_status s = magnus_gmagnus_context_params(&g->p, ctx, B->cols, A->type);
    /* the parameters' messages already begin "gMAGNUS parameters: " */
    if (!s) {
        magnus_gm_choose_heavy_rows(g);
        s = run(g, r);
        if (s) magnus_gm_drain(g, s);
    }
    magnus_status ts = collect_times(g, r);
    if (!s) s = ts;
    fill_report(g, r);
    r->run.time_alloc_ms = g->host_alloc_ms;
    magnus_gm_release(g);
    if (s) {
        magnus_device_csr_destroy((magnus_device_csr *)&g->C);
    } else {
        *C = g->C;
    }
    magnus_host_free(g);
    return s;
}

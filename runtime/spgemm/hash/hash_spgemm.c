/*
 * MAGNUS_ALGORITHM_HASH: OpSparse-style binned hash Gustavson SpGEMM, the baseline against
 * which studies measure what gMAGNUS's reordering buys. Steps (OpSparse §5):
 *   setup     products per row into C.row_ptr (reused, no extra array)
 *   symbolic  bin rows by products, count distinct columns per row with local-memory hash
 *             sets (global tables for rows too large), in place in C.row_ptr; exclusive scan
 *   alloc     C.col, C.val
 *   numeric   bin rows by nnz, accumulate in local hash tables (global for rows too large),
 *             sort each row in local memory, write
 * The binned phases are runtime/accumulate/; this file strings them together and
 * fills the report. Heavy bins run on the HEAVY queue, the others on LIGHT, both after MAIN
 * (all on MAIN with MAGNUS_HASH_SIDE_QUEUES=0).
 */
#include "accumulate_knobs.h"
#include "device_csr.h"
#include "hash_accumulate.h"
#include "primitives.h"
#include "spgemm_algorithm.h"
#include "spgemm_section.h"

#include <string.h>

/* The queues of a multiply: main, with the heavy and light rows on their own; or main alone
 * (MAGNUS_HASH_SIDE_QUEUES=0), where every ordering between queues orders nothing (queue.c). */
static void default_config(magnus_hash_config *cfg, magnus_context ctx) {
    magnus_hash_config_init(cfg, MAGNUS_QUEUE_MAIN);
    if (!magnus_accumulate_knobs_of(ctx)->hash_side_queues) return;
    cfg->heavy = MAGNUS_QUEUE_HEAVY;
    cfg->light = MAGNUS_QUEUE_LIGHT;
}

/* What every hash phase reports first. The hash algorithm writes only the report's RUN
 * section (spgemm_section.h). */
static void begin_report(magnus_report_run_section *rep, magnus_context ctx,
                         const struct magnus_device_csr_s *A) {
    rep->local_mem_bytes = ctx->device.local_mem_bytes;
    rep->rows_total = A->rows;
    magnus_hash_local_capacity(ctx, A->type, &rep->tau, NULL);
    rep->dense_row_columns = magnus_hash_dense_row_columns(ctx, A->type);
    rep->dense_rows_local_bytes = magnus_hash_dense_rows_local_bytes(ctx, A->type);
}

static magnus_status run_hash(magnus_device_csr *C, magnus_context ctx,
                              const struct magnus_device_csr_s *A,
                              const struct magnus_device_csr_s *B, magnus_report_run_section *rep,
                              const magnus_hash_config *config, magnus_hash_stats *symbolic_stats,
                              magnus_hash_stats *numeric_stats,
                              const magnus_row_products *counted, bool phase_times) {
    magnus_hash_config cfg;
    if (config) {
        cfg = *config;
    } else {
        default_config(&cfg, ctx);
    }
    magnus_hash_stats sym = {0}, num = {0};
    magnus_device_csr dC = NULL;
    magnus_hash_rows_numeric numeric = NULL;
    magnus_timer setup_timer = {.off = !phase_times}; /* off: setup counts in symbolic */
    const int64_t m = A->rows;
    magnus_status s;

    *C = NULL;
    begin_report(rep, ctx, A);

    /* setup: products per row in C.row_ptr[0..m-1]; C.row_ptr[m] = 0 for the scan. Timed on
     * the device, not by a host wait of its own: the symbolic phase's first read waits for it
     * anyway, so the symbolic time below is the host's span less the setup's */
    const int64_t zero = 0;
    if ((s = magnus_device_csr_new(&dC, ctx, m, B->cols, A->type)) ||
        (s = magnus_timer_start(ctx, cfg.main, &setup_timer)))
        goto fail;
    if (counted) { /* AUTO's statistics counted them already (the same layout) */
        if ((s = magnus_dbuf_copy(ctx, cfg.main, &dC->row_ptr, 0, &counted->products, 0,
                                  ((size_t)m + 1) * sizeof(int64_t))))
            goto fail;
    } else if ((s = magnus_dbuf_fill(ctx, cfg.main, &dC->row_ptr, (size_t)m * sizeof(int64_t),
                                     &zero, sizeof zero, sizeof zero)) ||
               (s = magnus_hash_rows_products(ctx, cfg.main, A, B, NULL, 0, m, &dC->row_ptr,
                                              &sym))) {
        goto fail;
    }
    if ((s = magnus_timer_stop(ctx, cfg.main, &setup_timer))) goto fail;

    /* symbolic: distinct columns per row, then row pointers. The scan's total is not read
     * back: the numeric phase's binning, queued behind it, reads its bin sizes anyway, and
     * with them nnz(C) (the sum of the rows' keys), so one host wait serves both (its time
     * counts here, with the wait) */
    double t = magnus_now_ms();
    int64_t nnz = 0;
    if ((s = magnus_hash_rows_symbolic_sync(ctx, &cfg, A, B, NULL, 0, m, &dC->row_ptr, &sym)) ||
        (s = magnus_prim_scan_u64(ctx, cfg.main, &dC->row_ptr, &dC->row_ptr, (uint64_t)m + 1,
                                  NULL)) ||
        (s = magnus_hash_rows_numeric_bin(&numeric, &nnz, ctx, &cfg, A, B, &dC->row_ptr, &num)))
        goto fail;
    const double symbolic_span_ms = magnus_now_ms() - t;

    t = magnus_now_ms();
    if ((s = magnus_device_csr_alloc_entries(dC, nnz))) goto fail;
    rep->time_alloc_ms = magnus_now_ms() - t;

    t = magnus_now_ms();
    if ((s = magnus_hash_rows_numeric_launch(&numeric, &dC->col_idx, &dC->values)) ||
        (s = magnus_context_finish(ctx)))
        goto fail;
    rep->time_numeric_ms = magnus_now_ms() - t;
    if ((s = magnus_timer_elapsed_ms(ctx, &setup_timer, &rep->time_setup_ms))) goto fail;
    rep->time_symbolic_ms =
        symbolic_span_ms > rep->time_setup_ms ? symbolic_span_ms - rep->time_setup_ms : 0;

    rep->nnz_c = nnz;
    rep->products_total = sym.key_total;
    rep->rows_heavy = sym.items_global > num.items_global ? sym.items_global : num.items_global;
    rep->rows_dense = sym.items_dense > num.items_dense ? sym.items_dense : num.items_dense;
    rep->dense_stripes =
        sym.dense_stripes > num.dense_stripes ? sym.dense_stripes : num.dense_stripes;
    if (symbolic_stats) *symbolic_stats = sym;
    if (numeric_stats) *numeric_stats = num;
    *C = dC;
    return MAGNUS_SUCCESS;
fail:
    /* queued work may still use C's buffers: drain, keeping the first error's message */
    magnus_context_finish_after_error(ctx, s);
    magnus_hash_rows_numeric_free(&numeric);
    magnus_timer_discard(ctx, &setup_timer);
    magnus_device_csr_destroy(&dC);
    return s;
}

magnus_status magnus_hash_spgemm_ex(magnus_device_csr *C, magnus_context ctx,
                                    const struct magnus_device_csr_s *A,
                                    const struct magnus_device_csr_s *B, magnus_report *report,
                                    const magnus_hash_config *config,
                                    magnus_hash_stats *symbolic_stats,
                                    magnus_hash_stats *numeric_stats) {
    /* called alone (tests, tools): its own dispatcher, which copies the section over */
    magnus_spgemm_section sec;
    magnus_spgemm_section_begin(&sec, ctx);
    magnus_status s =
        run_hash(C, ctx, A, B, &sec.run, config, symbolic_stats, numeric_stats, NULL, true);
    if (report) magnus_spgemm_section_end(report, &sec, ctx, MAGNUS_ALGORITHM_HASH);
    return s;
}

/* The table's run: one multiply, no progress to tell between its phases. */
static magnus_status hash_run(magnus_device_csr *C, magnus_context ctx,
                              const struct magnus_device_csr_s *A,
                              const struct magnus_device_csr_s *B,
                              magnus_spgemm_section *section, const magnus_row_products *counted,
                              const magnus_spgemm_progress *progress) {
    (void)progress;
    return run_hash(C, ctx, A, B, &section->run, NULL, NULL, NULL, counted,
                    section->phase_times);
}

/* ---- the plan's phases (runtime/spgemm/spgemm_plan.c) ------------------------------------ */

/* Each phase of a plan starts as a multiply does: the default queues, the report's first
 * fields. */
static magnus_report_run_section *plan_phase_begin(magnus_hash_config *cfg,
                                                   magnus_spgemm_section *section,
                                                   magnus_context ctx,
                                                   const struct magnus_device_csr_s *A) {
    default_config(cfg, ctx);
    begin_report(&section->run, ctx, A);
    return &section->run;
}

static magnus_status hash_symbolic(magnus_dbuf *row_ptr, int64_t *nnz, magnus_context ctx,
                                   const struct magnus_device_csr_s *A,
                                   const struct magnus_device_csr_s *B,
                                   magnus_spgemm_section *section) {
    magnus_hash_config cfg;
    magnus_report_run_section *rep = plan_phase_begin(&cfg, section, ctx, A);
    magnus_hash_stats sym = {0};
    const int64_t m = A->rows;
    magnus_dbuf rp = {0};
    magnus_status s;
    *nnz = 0;

    double t = magnus_now_ms();
    const int64_t zero = 0;
    uint64_t total = 0;
    if ((s = magnus_dbuf_alloc(ctx, (size_t)(m + 1) * sizeof(int64_t), &rp)) ||
        (s = magnus_dbuf_fill(ctx, cfg.main, &rp, (size_t)m * sizeof(int64_t), &zero,
                              sizeof zero, sizeof zero)) ||
        (s = magnus_hash_rows_products(ctx, cfg.main, A, B, NULL, 0, m, &rp, &sym)) ||
        (s = magnus_queue_finish(ctx, cfg.main)))
        goto fail;
    rep->time_setup_ms = magnus_now_ms() - t;
    t = magnus_now_ms();
    if ((s = magnus_hash_rows_symbolic_sync(ctx, &cfg, A, B, NULL, 0, m, &rp, &sym)) ||
        (s = magnus_prim_scan_u64(ctx, cfg.main, &rp, &rp, (uint64_t)m + 1, &total)) ||
        (s = magnus_context_finish(ctx)))
        goto fail;
    rep->time_symbolic_ms = magnus_now_ms() - t;
    rep->nnz_c = (int64_t)total;
    rep->products_total = sym.key_total;
    rep->rows_heavy = sym.items_global;
    rep->rows_dense = sym.items_dense;
    rep->dense_stripes = sym.dense_stripes;
    *row_ptr = rp;
    *nnz = (int64_t)total;
    return MAGNUS_SUCCESS;
fail:
    magnus_context_finish_after_error(ctx, s);
    magnus_dbuf_free(ctx, &rp);
    return s;
}

static magnus_status hash_numeric(magnus_device_csr *C, magnus_context ctx,
                                  const struct magnus_device_csr_s *A,
                                  const struct magnus_device_csr_s *B,
                                  const magnus_dbuf *row_ptr, int64_t nnz,
                                  struct magnus_device_csr_s *into,
                                  magnus_spgemm_section *section) {
    magnus_hash_config cfg;
    magnus_report_run_section *rep = plan_phase_begin(&cfg, section, ctx, A);
    magnus_hash_stats num = {0};
    const int64_t m = A->rows;
    magnus_device_csr dC = NULL;
    if (C) *C = NULL;

    double t = magnus_now_ms();
    magnus_status s = magnus_spgemm_numeric_target(&dC, into, ctx, m, B->cols, A->type, nnz);
    if (!s)
        s = magnus_dbuf_copy(ctx, cfg.main, &dC->row_ptr, 0, row_ptr, 0,
                             (size_t)(m + 1) * sizeof(int64_t));
    rep->time_alloc_ms = magnus_now_ms() - t;
    t = magnus_now_ms();
    if (!s && !(s = magnus_hash_rows_numeric_sync(ctx, &cfg, A, B, NULL, 0, m, &dC->row_ptr,
                                                  &dC->col_idx, &dC->values, &num)))
        s = magnus_context_finish(ctx);
    rep->time_numeric_ms = magnus_now_ms() - t;
    rep->nnz_c = s ? 0 : nnz;
    rep->rows_heavy = num.items_global;
    rep->rows_dense = num.items_dense;
    rep->dense_stripes = num.dense_stripes;
    return magnus_spgemm_numeric_done(C, &dC, into, ctx, s);
}

const magnus_spgemm_algorithm magnus_spgemm_algorithm_hash = {
    .id = MAGNUS_ALGORITHM_HASH,
    .name = "hash",
    .mark = "multiply hash",
    .run = hash_run,
    .symbolic = hash_symbolic,
    .numeric = hash_numeric,
};

/*
 * gMAGNUS in row blocks ("batches"; docs/performance.md, "Heavy rows in batches").
 *
 * gMAGNUS holds its whole C-hat (every heavy product, 4 + value bytes each) until the chunks
 * are accumulated, and C is allocated beside it: the peak is C-hat plus C. When the products
 * would take more than the context's batch budget (its knob chat_batch_bytes: the option, else
 * MAGNUS_CHAT_BATCH_BYTES, else an eighth of the device's memory or memory limit), A is cut
 * into K = ceil(products x (4 + value bytes) / budget) row blocks of about equal products,
 * each block is multiplied by gMAGNUS on its own (C_b = A_b·B, from the count of products
 * per row made once), and the blocks' products are stacked into C. The products bound C-hat
 * from above (only heavy rows are expanded), so no block's C-hat passes the budget unless one
 * row alone does.
 *
 *   peak    one block's C-hat and work buffers plus the blocks' C so far, then the blocks
 *           plus one of C's arrays while they are stacked (1.5 x C in float32,
 *           magnus_device_csr_stack), instead of the whole C-hat plus C.
 *   cost    the stacking copies C once (a read and a write of every entry) and each block
 *           pays gMAGNUS's fixed costs; the blocks' boundaries are found by a binary search
 *           over the products' scan that reads one word per step (about log2(rows) host
 *           reads per boundary).
 *
 * This is also what lets a product complete whose C-hat alone would not fit the device.
 */
#include <stdio.h>
#include <string.h>

#include "device_csr.h"
#include "gmagnus_internal.h"

/* At most this many blocks (each one's boundaries live on the host stack of the search). */
#define MAGNUS_MAX_BATCHES 1024

static magnus_status read_u64(magnus_context ctx, const magnus_dbuf *buf, uint64_t index,
                              uint64_t *out) {
    return magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, out, buf, (size_t)index * 8, 8);
}

/* bounds[0..k] = rows where the blocks start (bounds[k] = rows): bounds[i] is the first row
 * whose products' offset reaches i/k of the total, so every block holds about total/k
 * products (a block may be empty when one row carries more than that). at[i] =
 * offsets[bounds[i]]. */
static magnus_status find_bounds(int64_t *bounds, uint64_t *at, magnus_context ctx,
                                 const magnus_dbuf *offsets, int64_t rows, uint64_t total,
                                 int k) {
    bounds[0] = 0;
    at[0] = 0;
    bounds[k] = rows;
    at[k] = total;
    for (int i = 1; i < k; i++) {
        /* i * total / k without overflowing 64 bits */
        const uint64_t target =
            (total / (uint64_t)k) * (uint64_t)i + (total % (uint64_t)k) * (uint64_t)i / (uint64_t)k;
        int64_t lo = bounds[i - 1], hi = rows; /* offsets[hi] = total >= target */
        uint64_t hi_value = total;
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo) / 2;
            uint64_t v = 0;
            magnus_status s = read_u64(ctx, offsets, (uint64_t)mid, &v);
            if (s) return s;
            if (v >= target) {
                hi = mid;
                hi_value = v;
            } else {
                lo = mid + 1;
            }
        }
        bounds[i] = hi;
        at[i] = hi_value; /* hi only moves to a row just read (or stays at rows: total) */
    }
    return MAGNUS_SUCCESS;
}

/* The block's share of the products per row: products[r0 .. r1) and a final 0, and their
 * scan from 0 (what gMAGNUS's setup takes instead of counting). */
static magnus_status block_products(magnus_row_products *out, magnus_context ctx,
                                    magnus_kernel_variant variant, const magnus_row_products *all,
                                    int64_t r0, int64_t r1, uint64_t at0, uint64_t at1) {
    const uint64_t n = (uint64_t)(r1 - r0);
    const uint64_t zero = 0;
    memset(out, 0, sizeof *out);
    magnus_status s;
    if ((s = magnus_dbuf_alloc(ctx, (n + 1) * 8, &out->products)) ||
        (s = magnus_dbuf_alloc(ctx, (n + 1) * 8, &out->offsets)) ||
        (s = magnus_dbuf_copy(ctx, MAGNUS_QUEUE_MAIN, &out->products, 0, &all->products,
                              (size_t)r0 * 8, n * 8)) ||
        (s = magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &out->products, n * 8, &zero, 8, 8)) ||
        (s = magnus_dbuf_shift_u64(ctx, MAGNUS_QUEUE_MAIN, variant, &out->offsets, 0,
                                   &all->offsets, (uint64_t)r0, n + 1, 0, at0)))
        return s;
    out->total = at1 - at0;
    return MAGNUS_SUCCESS;
}

/* A block's sections into the product's, by each field's merge rule
 * (include/magnus/magnus_report_fields.h): counts and times add up, the parameters are the
 * same for every block (they depend on B and the device), peaks take the largest, and what
 * the product writes itself (the choice, the batches) is left alone. Arrays merge entry by
 * entry; a scalar is an array of one. */
#define MERGE_SUM(to, from) (to) += (from)
#define MERGE_MAX(to, from) if ((from) > (to)) (to) = (from)
#define MERGE_FIRST(to, from) if (first) (to) = (from)
#define MERGE_LAST(to, from) (to) = (from)
#define MERGE_PRODUCT(to, from) (void)0
#define MERGE_FIELD(kind, name, merge, shown, section, meaning)                               \
    MAGNUS_SPGEMM_IN_SECTION_##section(for (int i = 0; i < MAGNUS_REPORT_COUNT_##kind; i++) {  \
        MERGE_##merge(                                                                         \
            ((MAGNUS_REPORT_CTYPE_##kind *)&MAGNUS_SPGEMM_SECTION_FIELD(sum, section, name))[i], \
            ((MAGNUS_REPORT_CTYPE_##kind const *)&MAGNUS_SPGEMM_SECTION_FIELD(b, section,      \
                                                                              name))[i]);      \
    })
static void add_report(magnus_spgemm_section *sum, const magnus_spgemm_section *b, int first) {
    MAGNUS_REPORT_FIELDS(MERGE_FIELD)
}
#undef MERGE_FIELD

/* The blocks one after another, then stacked into *C. */
static magnus_status run_blocks(magnus_device_csr *C, magnus_context ctx,
                                const struct magnus_device_csr_s *A,
                                const struct magnus_device_csr_s *B, magnus_spgemm_section *rep,
                                const magnus_row_products *all, int k,
                                const magnus_spgemm_progress *progress) {
    int64_t bounds[MAGNUS_MAX_BATCHES + 1];
    uint64_t at[MAGNUS_MAX_BATCHES + 1];
    magnus_device_csr blocks[MAGNUS_MAX_BATCHES];
    const magnus_kernel_variant variant = magnus_variant_of(A->type);
    int nblocks = 0;
    double batch_ms = 0, t = magnus_now_ms();
    magnus_status s = find_bounds(bounds, at, ctx, &all->offsets, A->rows, all->total, k);
    batch_ms += magnus_now_ms() - t;
    for (int i = 0; !s && i < k; i++) {
        if (bounds[i + 1] == bounds[i]) continue;
        if (progress) { /* the blocks split the multiply's share by their products */
            char what[64];
            snprintf(what, sizeof what, "multiply: row block %d of %d", i + 1, k);
            const double done = all->total ? (double)at[i] / (double)all->total : 0;
            s = magnus_spgemm_progress_call(progress->opt,
                                            progress->from + (progress->to - progress->from) *
                                                                 done,
                                            what);
            if (s) break;
        }
        magnus_device_csr Ab = NULL;
        magnus_row_products rp;
        memset(&rp, 0, sizeof rp);
        magnus_spgemm_section br;
        memset(&br, 0, sizeof br);
        br.phase_times = rep->phase_times; /* each block timed as the whole would be */
        t = magnus_now_ms();
        if (!(s = magnus_device_csr_rows(&Ab, A, bounds[i], bounds[i + 1], MAGNUS_QUEUE_MAIN)))
            s = block_products(&rp, ctx, variant, all, bounds[i], bounds[i + 1], at[i],
                               at[i + 1]);
        batch_ms += magnus_now_ms() - t;
        if (!s) s = magnus_gmagnus_spgemm(&blocks[nblocks], ctx, Ab, B, &br, &rp);
        if (!s) add_report(rep, &br, nblocks++ == 0);
        if (s) magnus_context_finish_after_error(ctx, s);
        /* gMAGNUS returns with every queue idle: nothing reads Ab or rp any more */
        magnus_device_csr_destroy(&Ab);
        magnus_row_products_free(ctx, &rp);
    }
    t = magnus_now_ms();
    if (!s && (s = magnus_device_csr_stack(C, ctx, blocks, (size_t)nblocks, B->cols, A->type,
                                           MAGNUS_QUEUE_MAIN)) == MAGNUS_SUCCESS)
        s = magnus_queue_finish(ctx, MAGNUS_QUEUE_MAIN);
    if (s) {
        magnus_context_finish_after_error(ctx, s);
        magnus_device_csr_destroy(C);
    }
    for (int i = 0; i < nblocks; i++) magnus_device_csr_destroy(&blocks[i]);
    batch_ms += magnus_now_ms() - t;
    rep->run.nnz_c = *C ? (*C)->nnz : 0;
    rep->gmagnus.batches = nblocks;
    rep->gmagnus.time_batch_ms = batch_ms;
    return s;
}

/* The table's run: gMAGNUS, in row blocks when C-hat would pass its knob chat_batch_bytes;
 * `counted` may be NULL (it then counts the products per row itself, once, and hands the
 * count on). In blocks it tells `progress` before each block ("multiply: row block I of K");
 * a callback that returns 0 stops it with MAGNUS_ERROR_CANCELLED, nothing held. */
static magnus_status gmagnus_run(magnus_device_csr *C, magnus_context ctx,
                                 const struct magnus_device_csr_s *A,
                                 const struct magnus_device_csr_s *B,
                                 magnus_spgemm_section *rep, const magnus_row_products *counted,
                                 const magnus_spgemm_progress *progress) {
    *C = NULL;
    magnus_row_products own;
    memset(&own, 0, sizeof own);
    const magnus_row_products *rp = counted;
    /* a budget gMAGNUS cannot run in is refused in its own terms before anything is counted */
    magnus_gmagnus_params params;
    magnus_status s = magnus_gmagnus_context_params(&params, ctx, B->cols, A->type);
    if (s) return s;
    if (!rp || !rp->offsets.mem) { /* count once here; gMAGNUS then takes this count */
        double t = magnus_now_ms();
        if ((s = magnus_row_products_queue(&own, ctx, MAGNUS_QUEUE_MAIN, A, B)) ||
            (s = read_u64(ctx, &own.offsets, (uint64_t)A->rows, &own.total))) {
            magnus_context_finish_after_error(ctx, s);
            magnus_row_products_free(ctx, &own);
            return s;
        }
        rep->run.time_setup_ms += magnus_now_ms() - t;
        rp = &own;
    }
    const uint64_t element = 4 + magnus_value_size(A->type);
    const uint64_t batch_bytes = magnus_gmagnus_knobs_of(ctx)->chat_batch_bytes;
    const uint64_t budget = batch_bytes ? batch_bytes : 1;
    /* products x element without overflow: compare products with budget / element */
    const uint64_t per_block = budget / element ? budget / element : 1;
    uint64_t k = rp->total / per_block + (rp->total % per_block != 0);
    if (k > (uint64_t)A->rows) k = (uint64_t)A->rows;
    if (k > MAGNUS_MAX_BATCHES) k = MAGNUS_MAX_BATCHES;
    if (k <= 1) {
        s = magnus_gmagnus_spgemm(C, ctx, A, B, rep, rp);
        rep->gmagnus.batches = 1;
    } else {
        s = run_blocks(C, ctx, A, B, rep, rp, (int)k, progress);
    }
    magnus_row_products_free(ctx, &own); /* the queues are idle after either */
    return s;
}

const magnus_spgemm_algorithm magnus_spgemm_algorithm_gmagnus = {
    .id = MAGNUS_ALGORITHM_GMAGNUS,
    .name = "gmagnus",
    .mark = "multiply gmagnus",
    .run = gmagnus_run,
    .symbolic = NULL, /* a plan keeps the hash algorithm's phases or the positions */
    .numeric = NULL,
};

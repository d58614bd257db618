/*
 * CSR_BALANCED's hot x (docs/performance.md, "SpMV: x's hot columns in local memory"): on
 * power-law inputs a few columns take a large share of the entries (R-MAT scale 22, 16 per
 * row: the 12,288 most frequent carry 37 % of them), and every gather of x costs a 32-byte
 * sector of L2 however often its column recurs. The plan copies the most frequent columns
 * once per work group into local memory and gives their entries the column -1 - slot in a
 * column array of its own; spmv_merge then reads those from local memory.
 *
 * The choice: the columns' entry counts on the device (the histogram primitive), read back;
 * on the host the nhot largest (a radix select, ties by column order), each gathered by at
 * least two entries, and a map of every column to its new one (-1 - slot, or itself); the
 * column array rewritten on the device through that map (the gather primitive). A
 * conversion of a few passes over A's columns, paid once per plan.
 */
#include <string.h>

#include "kernels.h"
#include "primitives.h"
#include "spmv_internal.h"

#define Q MAGNUS_QUEUE_MAIN

size_t magnus_spmv_merge_local(const struct magnus_spmv_plan_s *p) {
    if (p->nhot == 0) return p->group * magnus_spmv_item_bytes(p);
    return (size_t)mg_spmv_hot_offset(p->group, p->per_item, p->value_bytes) +
           (size_t)p->nhot * p->value_bytes;
}

/* The k-th largest of the n counts (1 <= k <= n), most significant byte first. */
static uint32_t kth_largest(const uint32_t *v, size_t n, uint64_t k) {
    uint32_t prefix = 0, mask = 0;
    for (int shift = 24; shift >= 0; shift -= 8) {
        uint64_t hist[256] = {0};
        for (size_t i = 0; i < n; i++)
            if ((v[i] & mask) == prefix) hist[(v[i] >> shift) & 255u]++;
        int b = 255;
        while (b > 0 && hist[b] < k) k -= hist[b--];
        prefix |= (uint32_t)b << shift;
        mask |= 255u << shift;
    }
    return prefix;
}

/* map[c] = -1 - slot for a hot column (slot 0 .. *nhot-1), c otherwise; hot[slot] = c. The
 * columns of counts above the want-th largest count t (and at least 2) are all hot; those
 * of count t fill the rest in column order. *covered: their entries. */
static void choose_hot(int32_t *map, int32_t *hot, uint32_t *nhot, uint64_t *covered,
                       const uint32_t *counts, size_t cols, uint64_t want) {
    uint32_t t = kth_largest(counts, cols, want < cols ? want : cols);
    if (t < 2) t = 2;
    uint64_t above = 0;
    for (size_t c = 0; c < cols; c++) above += counts[c] > t;
    uint64_t ties = want > above ? want - above : 0, n = 0, sum = 0;
    for (size_t c = 0; c < cols; c++) {
        const bool take = counts[c] > t || (counts[c] == t && ties > 0);
        if (counts[c] == t && take) ties--;
        map[c] = take ? -1 - (int32_t)n : (int32_t)c;
        if (take) {
            hot[n++] = (int32_t)c;
            sum += counts[c];
        }
    }
    *nhot = (uint32_t)n;
    *covered = sum;
}

/* How many columns the knob's bytes hold beside the group's staging, within the launch
 * limit (0: none asked, or no room). */
static magnus_status hot_capacity(const struct magnus_spmv_plan_s *p, uint64_t *want) {
    uint64_t bytes = 0;
    magnus_kernel_limits lim;
    magnus_status s = magnus_knob_size(0, "MAGNUS_SPMV_HOT_BYTES", &bytes);
    *want = 0;
    if (s || bytes == 0) return s;
    if ((s = magnus_kernel_limits_get(&lim, p->ctx, p->variant, MAGNUS_KERNEL_spmv_merge)))
        return s;
    const uint64_t staging =
        mg_spmv_hot_offset(p->group, p->per_item, p->value_bytes) + lim.static_local_bytes;
    const uint64_t limit = p->ctx->launch_local_limit;
    if (staging >= limit) return MAGNUS_SUCCESS;
    if (bytes > limit - staging) bytes = limit - staging;
    *want = bytes / p->value_bytes;
    if (*want > (uint64_t)p->A->cols) *want = (uint64_t)p->A->cols;
    /* every resident group (about two a compute unit) copies them: at most a quarter of an
     * entry's gather each, so that a small A (launch-bound, x in cache anyway) keeps few */
    const int cus = p->ctx->device.compute_units;
    const uint64_t units = cus > 0 ? (uint64_t)cus : 1;
    const uint64_t by_work = (uint64_t)p->A->nnz / (4 * 2 * units);
    if (*want > by_work) *want = by_work;
    if (*want > INT32_MAX) *want = INT32_MAX;
    return MAGNUS_SUCCESS;
}

/* The groups the product launches: as many as the compute units hold at once (each copies
 * the hot columns once), at most one a segment. */
static size_t resident_groups(const struct magnus_spmv_plan_s *p) {
    const uint64_t local = magnus_spmv_merge_local(p);
    const uint64_t per_unit = local ? p->ctx->device_local_mem_bytes / local : 1;
    uint64_t groups = (uint64_t)(p->ctx->device.compute_units > 0 ? p->ctx->device.compute_units
                                                                    : 1) *
                      (per_unit > 0 ? per_unit : 1);
    const uint64_t cap = magnus_prim_max_groups(p->ctx);
    if (groups > cap) groups = cap;
    if (groups > p->ngroups) groups = p->ngroups;
    return (size_t)(groups ? groups : 1);
}

/* The plan's hot x given up (its buffers freed, out of format_bytes). */
static void free_hot(struct magnus_spmv_plan_s *p) {
    p->format_bytes -= p->hot_cols.bytes + p->hot_col_idx.bytes;
    magnus_dbuf_free(p->ctx, &p->hot_cols);
    magnus_dbuf_free(p->ctx, &p->hot_col_idx);
    p->nhot = 0;
    p->hot_share = 0;
}

magnus_status magnus_spmv_build_hot(struct magnus_spmv_plan_s *p) {
    magnus_context ctx = p->ctx;
    const struct magnus_device_csr_s *A = p->A;
    uint64_t want = 0;
    magnus_status s = hot_capacity(p, &want);
    /* the counts cost 8 bytes a column on the host and 4 on the device: not for an A far
     * wider than its entries (then few columns recur anyway) */
    if (s || want == 0 || A->nnz == 0 || (uint64_t)A->cols > 2 * (uint64_t)A->nnz + (1u << 20))
        return s;
    const size_t cols = (size_t)A->cols;
    magnus_dbuf counts = {0}, map = {0};
    uint32_t *h_counts = magnus_host_malloc(cols * sizeof *h_counts);
    int32_t *h_map = magnus_host_malloc(cols * sizeof *h_map);
    int32_t *h_hot = magnus_host_malloc((size_t)want * sizeof *h_hot);
    if (!h_counts || !h_map || !h_hot) {
        s = magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                         "SpMV: the hot columns' counts of %zu columns", cols);
        goto done;
    }
    /* A's columns are non-negative int32: the same bits as the primitives' uint32 keys */
    if ((s = magnus_dbuf_alloc(ctx, cols * 4, &counts)) ||
        (s = magnus_prim_histogram_u32(ctx, Q, &counts, (uint32_t)cols, &A->col_idx,
                                       (uint64_t)A->nnz)) ||
        (s = magnus_dbuf_read(ctx, Q, h_counts, &counts, 0, cols * 4)))
        goto done;
    uint64_t covered = 0;
    choose_hot(h_map, h_hot, &p->nhot, &covered, h_counts, cols, want);
    p->hot_share = (double)covered / (double)A->nnz;
    if (p->nhot == 0) goto done; /* no column recurs: nothing to keep */
    if ((s = magnus_dbuf_alloc(ctx, cols * 4, &map)) ||
        (s = magnus_dbuf_write(ctx, Q, &map, 0, h_map, cols * 4)) ||
        (s = magnus_spmv_plan_alloc(p, (size_t)p->nhot * 4, &p->hot_cols)) ||
        (s = magnus_dbuf_write(ctx, Q, &p->hot_cols, 0, h_hot, (size_t)p->nhot * 4)) ||
        (s = magnus_spmv_plan_alloc(p, (size_t)A->nnz * 4, &p->hot_col_idx)) ||
        (s = magnus_prim_gather_u32(ctx, Q, &p->hot_col_idx, &map, (uint64_t)cols, &A->col_idx,
                                    (uint64_t)A->nnz)))
        goto done;
    p->hot_groups = resident_groups(p);
    s = magnus_queue_finish(ctx, Q); /* the host arrays and the map go now */
done:
    if (s) p->nhot = 0;
    if (s == MAGNUS_ERROR_OUT_OF_HOST_MEMORY || s == MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY) {
        /* an optional copy: without room for its counts the plan goes on without it */
        magnus_context_finish_after_error(ctx, s);
        magnus_error_clear();
        free_hot(p);
        s = MAGNUS_SUCCESS;
    }
    magnus_dbuf_free_deferred(ctx, &counts);
    magnus_dbuf_free_deferred(ctx, &map);
    magnus_host_free(h_counts);
    magnus_host_free(h_map);
    magnus_host_free(h_hot);
    return s;
}

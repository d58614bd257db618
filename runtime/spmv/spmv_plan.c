/*
 * SpMV plans: the analysis (AUTO's choice, HYBRID's width) and the conversions into each
 * format, all on the device (queue MAIN), timed together as the report's conversion_ms.
 * docs/algorithm.md §9 gives the rules.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "primitives.h"
#include "spmv_internal.h"

#define Q MAGNUS_QUEUE_MAIN

size_t magnus_spmv_groups(const magnus_context_s *ctx, uint64_t work, size_t group) {
    uint64_t groups = (work + group - 1) / group, cap = magnus_prim_max_groups(ctx);
    if (groups > cap) groups = cap;
    return (size_t)(groups ? groups : 1);
}

magnus_status magnus_spmv_group_size(size_t *out, magnus_context ctx, magnus_kernel_variant variant,
                                     magnus_kernel_id kernel, size_t local_per_item) {
    magnus_kernel_limits lim;
    magnus_status s = magnus_kernel_limits_get(&lim, ctx, variant, kernel);
    if (s) return s;
    size_t g = MAGNUS_SPMV_GROUP_MAX;
    while (g > 1 && (g > lim.max_group_size || g > ctx->device.max_work_group_size ||
                     g * local_per_item + lim.static_local_bytes > ctx->device.local_mem_bytes))
        g /= 2;
    *out = g;
    return MAGNUS_SUCCESS;
}

size_t magnus_spmv_item_bytes(const struct magnus_spmv_plan_s *p) {
    if (p->format != MAGNUS_SPMV_CSR_BALANCED)
        return (size_t)mg_spmv_staged_bytes(p->per_item, p->value_bytes);
    return (size_t)mg_spmv_merge_bytes(p->per_item, p->value_bytes);
}

/* Items per work item of spmv_merge / spmv_coo: `variable` when set (1..MAGNUS_SPMV_ITEMS_MAX,
 * for tuning; odd values keep the items' strided local reads off one bank), else def. */
static magnus_status items_knob(const char *variable, uint32_t def, uint32_t *out) {
    uint64_t v = def;
    magnus_status s = magnus_env_uint(variable, 1, MAGNUS_SPMV_ITEMS_MAX, false, &v);
    *out = (uint32_t)v;
    return s;
}

magnus_status magnus_spmv_carveout_knob(int *local_share) {
    *local_share = -1;
    const char *env = getenv("MAGNUS_SPMV_CARVEOUT");
    if (!env || !*env) return MAGNUS_SUCCESS;
    char *end = NULL;
    errno = 0;
    long v = strtol(env, &end, 10);
    const bool signed_digits = (*env >= '0' && *env <= '9') || *env == '-'; /* no blanks, no + */
    if (!signed_digits || *end != 0 || errno != 0 || v < -1 || v > 100)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "MAGNUS_SPMV_CARVEOUT=%s: expected a percent of local memory from 0 "
                            "(the largest cache) to 100, or -1 (the driver's choice)", env);
    *local_share = (int)v;
    return MAGNUS_SUCCESS;
}

/* The group and per-item count of a staged kernel (spmv_merge, spmv_coo): the group size from
 * the device for the local memory of per_item items each (MAGNUS_SPMV_GROUP, a power of two,
 * caps it), then per_item lowered until the group's local memory fits MAGNUS_SPMV_LOCAL_CAP. */
static magnus_status staged_layout(struct magnus_spmv_plan_s *p, magnus_kernel_id kernel,
                                   const char *items_variable, uint32_t def) {
    size_t g;
    magnus_status s;
    if ((s = items_knob(items_variable, def, &p->per_item))) return s;
    if ((s = magnus_spmv_group_size(&g, p->ctx, p->variant, kernel, magnus_spmv_item_bytes(p))))
        return s;
    uint64_t v = 0;
    if ((s = magnus_env_uint("MAGNUS_SPMV_GROUP", 1, MAGNUS_SPMV_GROUP_MAX, false, &v)))
        return s;
    if (v & (v - 1))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "MAGNUS_SPMV_GROUP=%llu: expected a "
                            "power of two from 1 to %d", (unsigned long long)v,
                            MAGNUS_SPMV_GROUP_MAX);
    if (v && v < g) g = v;
    while (p->per_item > 1 && g * magnus_spmv_item_bytes(p) > MAGNUS_SPMV_LOCAL_CAP) p->per_item--;
    p->group = g;
    p->per_group = (int64_t)g * p->per_item;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_spmv_plan_alloc(struct magnus_spmv_plan_s *p, size_t bytes, magnus_dbuf *out) {
    magnus_status s = magnus_dbuf_alloc(p->ctx, bytes, out);
    if (!s) p->format_bytes += bytes;
    return s;
}

static uint32_t lanes_for_mean(double mean, size_t group) {
    uint32_t lanes = 1;
    while (lanes * 2 <= mean && lanes * 2 <= group) lanes *= 2;
    return lanes;
}

/* AUTO, from the H200 measurements of 2026-12-01 (docs/algorithm.md §9): rows longer than
 * max(64, 8 x mean) make one group of lanes work far longer than the rest, so the balanced
 * split (merge path, a conversion of a few hundred µs) is chosen then; otherwise HYBRID for a
 * plan (its ELL part reads regular rows at the copy bandwidth; the conversion pays off after a
 * dozen products) and CSR for a one-shot product (no conversion). */
static magnus_status choose_format(struct magnus_spmv_plan_s *p, magnus_spmv_format *out) {
    const struct magnus_device_csr_s *A = p->A;
    double mean = A->rows ? (double)A->nnz / (double)A->rows : 0;
    int64_t threshold = (int64_t)(8 * mean) > 64 ? (int64_t)(8 * mean) : 64;
    magnus_long_segments longer;
    /* counted on the device (row pointers are non-negative: the same bits as uint64) */
    magnus_status s = magnus_prim_long_segments(p->ctx, Q, &A->row_ptr, (uint64_t)A->rows,
                                                (uint64_t)threshold, &longer);
    p->long_rows = (int64_t)longer.count;
    p->long_row_threshold = threshold;
    *out = longer.count ? MAGNUS_SPMV_CSR_BALANCED : p->reused ? MAGNUS_SPMV_HYBRID : MAGNUS_SPMV_CSR;
    p->format_reason =
        longer.count ? "auto: rows longer than max(64, 8 x the mean) would hold a group of lanes "
                       "far longer than the rest: the balanced split (csr-balanced)"
        : p->reused  ? "auto: no row longer than max(64, 8 x the mean), a plan for many "
                       "products: the ELL part reads the regular rows at copy speed (hybrid)"
                     : "auto: no row longer than max(64, 8 x the mean), one product: no "
                       "conversion (csr)";
    return s;
}

/* HYBRID's width: the largest k <= 1024 that at least a third of the rows reach (Bell and
 * Garland's rule, without CUSP's 4096-row floor), from a histogram of min(length, 1024). */
static magnus_status hybrid_width(struct magnus_spmv_plan_s *p, int64_t *width) {
    const struct magnus_device_csr_s *A = p->A;
    const uint32_t nbins = MAGNUS_SPMV_WIDTH_CAP + 1;
    magnus_dbuf keys = {0}, bins = {0};
    uint32_t *counts = magnus_host_malloc(nbins * sizeof *counts);
    if (!counts) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "SpMV: row-length histogram");
    size_t g = 1;
    magnus_status s;
    if (!(s = magnus_spmv_group_size(&g, p->ctx, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_spmv_row_keys,
                                     0)) &&
        !(s = magnus_dbuf_alloc(p->ctx, (size_t)A->rows * 4, &keys)) &&
        !(s = magnus_dbuf_alloc(p->ctx, nbins * 4, &bins)) &&
        !(s = magnus_k_spmv_row_keys(p->ctx, Q, MAGNUS_VARIANT_F32,
                                     magnus_spmv_groups(p->ctx, (uint64_t)A->rows, g), g, 0,
                                     A->rows, &A->row_ptr, MAGNUS_SPMV_WIDTH_CAP, &keys)) &&
        !(s = magnus_prim_histogram_u32(p->ctx, Q, &bins, nbins, &keys, (uint64_t)A->rows)) &&
        !(s = magnus_dbuf_read(p->ctx, Q, counts, &bins, 0, nbins * 4))) {
        const uint64_t need = ((uint64_t)A->rows + 2) / 3;
        uint64_t reach = 0; /* rows of length >= k */
        int64_t k = MAGNUS_SPMV_WIDTH_CAP;
        for (; k > 0; k--) {
            reach += counts[k];
            if (reach >= need) break;
        }
        *width = k;
    }
    magnus_dbuf_free(p->ctx, &keys);
    magnus_dbuf_free(p->ctx, &bins);
    magnus_host_free(counts);
    return s;
}

/* The split of `entries` among groups, and the segment buffers spmv_combine reads. */
static magnus_status plan_split(struct magnus_spmv_plan_s *p, int64_t entries) {
    p->ngroups = (uint64_t)((entries + p->per_group - 1) / p->per_group);
    magnus_status s;
    if ((s = magnus_spmv_plan_alloc(p, p->ngroups * 4, &p->seg_first)) ||
        (s = magnus_spmv_plan_alloc(p, p->ngroups * 4, &p->seg_last)) ||
        (s = magnus_spmv_plan_alloc(p, p->ngroups * p->value_bytes, &p->part_first)) ||
        (s = magnus_spmv_plan_alloc(p, p->ngroups * p->value_bytes, &p->part_last)))
        return s;
    return MAGNUS_SUCCESS;
}

static magnus_status coo_layout(struct magnus_spmv_plan_s *p) {
    magnus_status s =
        staged_layout(p, MAGNUS_KERNEL_spmv_coo, "MAGNUS_SPMV_COO_ITEMS", MAGNUS_SPMV_COO_ITEMS);
    return s ? s : plan_split(p, p->coo_nnz);
}

/* CSR_BALANCED: the merge-path split of rows + nnz items and each group's start (a diagonal
 * search per group, spmv_merge_starts). */
static magnus_status build_merge(struct magnus_spmv_plan_s *p) {
    const struct magnus_device_csr_s *A = p->A;
    size_t g = 1;
    magnus_status s;
    const uint32_t items = p->value_bytes == 8 ? MAGNUS_SPMV_MERGE_ITEMS_F64
                                               : MAGNUS_SPMV_MERGE_ITEMS_F32;
    if ((s = staged_layout(p, MAGNUS_KERNEL_spmv_merge, "MAGNUS_SPMV_MERGE_ITEMS", items)) ||
        (s = plan_split(p, A->rows + A->nnz)) ||
        (s = magnus_spmv_plan_alloc(p, (p->ngroups + 1) * 8, &p->merge_starts)) ||
        (s = magnus_spmv_group_size(&g, p->ctx, MAGNUS_VARIANT_F32,
                                    MAGNUS_KERNEL_spmv_merge_starts, 0)))
        return s;
    if ((s = magnus_k_spmv_merge_starts(p->ctx, Q, MAGNUS_VARIANT_F32,
                                        magnus_spmv_groups(p->ctx, p->ngroups + 1, g), g, 0,
                                        A->rows, A->nnz, p->per_group, p->ngroups, &A->row_ptr,
                                        &p->merge_starts)))
        return s;
    return magnus_spmv_build_hot(p);
}

static magnus_status build_coo(struct magnus_spmv_plan_s *p) {
    const struct magnus_device_csr_s *A = p->A;
    p->coo_nnz = A->nnz;
    size_t g = 1;
    magnus_status s;
    if ((s = magnus_spmv_group_size(&g, p->ctx, p->variant, MAGNUS_KERNEL_spmv_coo_rows, 0)) ||
        (s = magnus_spmv_plan_alloc(p, (size_t)A->nnz * 4, &p->coo_row)) ||
        (s = magnus_k_spmv_coo_rows(p->ctx, Q, p->variant,
                                    magnus_spmv_groups(p->ctx, (uint64_t)A->rows * g, g), g, 0,
                                    A->rows, &A->row_ptr, &p->coo_row)))
        return s;
    return coo_layout(p);
}

static magnus_status build_hybrid(struct magnus_spmv_plan_s *p, int64_t width) {
    magnus_context ctx = p->ctx;
    const struct magnus_device_csr_s *A = p->A;
    magnus_dbuf count = {0}, ptr = {0};
    uint64_t coo = 0;
    size_t cells, g = 1, gf = 1;
    magnus_status s;
    if ((s = magnus_spmv_group_size(&g, ctx, p->variant, MAGNUS_KERNEL_spmv_ell_fill, 0)) ||
        (s = magnus_spmv_group_size(&gf, ctx, p->variant, MAGNUS_KERNEL_spmv_coo_fill, 0)))
        return s;
    if (width < 0 && (s = hybrid_width(p, &width))) return s;
    p->width = width;
    if (!magnus_mul_size((size_t)width, (size_t)A->rows, &cells))
        return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "SpMV: ELL of %lld x %lld", (long long)A->rows,
                            (long long)width);
    if ((s = magnus_spmv_plan_alloc(p, cells * 4, &p->ell_col)) ||
        (s = magnus_spmv_plan_alloc(p, cells * p->value_bytes, &p->ell_val)) ||
        (s = magnus_dbuf_alloc(ctx, ((size_t)A->rows + 1) * 8, &count)) ||
        (s = magnus_dbuf_alloc(ctx, ((size_t)A->rows + 1) * 8, &ptr)) ||
        (s = magnus_prim_fill_u64(ctx, Q, &count, (uint64_t)A->rows, 1, 0)) ||
        (s = magnus_k_spmv_ell_fill(ctx, Q, p->variant,
                                    magnus_spmv_groups(ctx, (uint64_t)A->rows, g), g, 0, A->rows,
                                    width, &A->row_ptr, &A->col_idx, &A->values, &p->ell_col,
                                    &p->ell_val, &count)) ||
        (s = magnus_prim_scan_u64(ctx, Q, &ptr, &count, (uint64_t)A->rows + 1, &coo)))
        goto done;
    p->coo_nnz = (int64_t)coo;
    if (coo > 0) {
        if ((s = magnus_spmv_plan_alloc(p, coo * 4, &p->coo_row)) ||
            (s = magnus_spmv_plan_alloc(p, coo * 4, &p->coo_col)) ||
            (s = magnus_spmv_plan_alloc(p, coo * p->value_bytes, &p->coo_val)) ||
            (s = magnus_k_spmv_coo_fill(ctx, Q, p->variant,
                                        magnus_spmv_groups(ctx, (uint64_t)A->rows * gf, gf), gf,
                                        0, A->rows, width, &A->row_ptr, &A->col_idx, &A->values, &ptr,
                                        &p->coo_row, &p->coo_col, &p->coo_val)) ||
            (s = coo_layout(p)))
            goto done;
    }
    s = magnus_queue_finish(ctx, Q); /* the temporaries go now */
done:
    magnus_dbuf_free_deferred(ctx, &count);
    magnus_dbuf_free_deferred(ctx, &ptr);
    return s;
}

static magnus_status build_sellp(struct magnus_spmv_plan_s *p) {
    magnus_context ctx = p->ctx;
    const struct magnus_device_csr_s *A = p->A;
    const uint64_t nslices = (uint64_t)((A->rows + p->slice - 1) / p->slice);
    magnus_dbuf len = {0};
    uint64_t total = 0;
    size_t g = 1, gf = 1;
    magnus_status s;
    if ((s = magnus_spmv_group_size(&g, ctx, p->variant, MAGNUS_KERNEL_spmv_sellp_widths, 0)) ||
        (s = magnus_spmv_group_size(&gf, ctx, p->variant, MAGNUS_KERNEL_spmv_sellp_fill, 0)) ||
        (s = magnus_dbuf_alloc(ctx, (nslices + 1) * 8, &len)) ||
        (s = magnus_spmv_plan_alloc(p, (nslices + 1) * 8, &p->slice_ptr)) ||
        (s = magnus_prim_fill_u64(ctx, Q, &len, nslices, 1, 0)) ||
        (s = magnus_k_spmv_sellp_widths(ctx, Q, p->variant, magnus_spmv_groups(ctx, nslices, g),
                                        g, 0, A->rows, p->slice, p->stride, &A->row_ptr, &len)) ||
        (s = magnus_prim_scan_u64(ctx, Q, &p->slice_ptr, &len, nslices + 1, &total)) ||
        (s = magnus_spmv_plan_alloc(p, total * 4, &p->s_col)) ||
        (s = magnus_spmv_plan_alloc(p, total * p->value_bytes, &p->s_val)) ||
        (s = magnus_k_spmv_sellp_fill(ctx, Q, p->variant,
                                      magnus_spmv_groups(ctx, (uint64_t)A->rows, gf), gf, 0,
                                      A->rows, p->slice, &A->row_ptr, &A->col_idx, &A->values,
                                      &p->slice_ptr, &p->s_col, &p->s_val)))
        goto done;
    /* the widest slice, for the report: the slice sizes are small, read them back */
    uint64_t *h = magnus_host_malloc((nslices + 1) * 8);
    if (!h) {
        s = magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "SpMV: SELL-P slice sizes");
        goto done;
    }
    if (!(s = magnus_dbuf_read(ctx, Q, h, &len, 0, nslices * 8)))
        for (uint64_t i = 0; i < nslices; i++)
            if ((int64_t)(h[i] / (uint64_t)p->slice) > p->max_width)
                p->max_width = (int64_t)(h[i] / (uint64_t)p->slice);
    magnus_host_free(h);
done:
    magnus_dbuf_free_deferred(ctx, &len);
    return s;
}

magnus_status magnus_spmv_plan_build(struct magnus_spmv_plan_s *p, const magnus_spmv_options *opt) {
    magnus_context ctx = p->ctx;
    const struct magnus_device_csr_s *A = p->A;
    magnus_timer t = {0};
    /* kernel builds stay out of the conversion time (integer kernels come from F32) */
    magnus_status s = magnus_context_load_module(ctx, p->variant);
    if (!s) s = magnus_context_load_module(ctx, MAGNUS_VARIANT_F32);
    if (!s) s = magnus_timer_start(ctx, Q, &t);
    if (s) return s;
    magnus_spmv_format f = opt->format;
    p->format_reason = "requested by the options";
    if (f == MAGNUS_SPMV_AUTO) {
        p->format_reason = "auto: A has no entries (csr)";
        if (A->nnz == 0) f = MAGNUS_SPMV_CSR;
        else if ((s = choose_format(p, &f))) goto fail;
    }
    p->format = f;
    switch (f) {
    case MAGNUS_SPMV_CSR: {
        size_t g;
        if ((s = magnus_spmv_group_size(&g, ctx, p->variant, MAGNUS_KERNEL_spmv_csr_vector,
                                        p->value_bytes)))
            goto fail;
        p->group = g;
        p->lanes = lanes_for_mean(A->rows ? (double)A->nnz / (double)A->rows : 0, g);
        break;
    }
    case MAGNUS_SPMV_CSR_BALANCED:
        if (A->nnz > 0 && (s = build_merge(p))) goto fail;
        break;
    case MAGNUS_SPMV_COO:
        if (A->nnz > 0 && (s = build_coo(p))) goto fail;
        break;
    case MAGNUS_SPMV_HYBRID:
        if (A->rows > 0 && (s = build_hybrid(p, opt->hybrid_width))) goto fail;
        break;
    case MAGNUS_SPMV_SELL_P:
        p->slice = opt->sellp_slice ? opt->sellp_slice : MAGNUS_SPMV_SELLP_SLICE;
        p->stride = opt->sellp_stride ? opt->sellp_stride : MAGNUS_SPMV_SELLP_STRIDE;
        if (A->rows > 0 && (s = build_sellp(p))) goto fail;
        break;
    default:
        s = magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "SpMV: format %d", (int)f);
        goto fail;
    }
    if ((s = magnus_timer_stop(ctx, Q, &t)) || (s = magnus_timer_elapsed_ms(ctx, &t, &p->conversion_ms)))
        goto fail;
    return magnus_context_finish(ctx);
fail:
    s = magnus_context_finish_after_error(ctx, s);
    magnus_timer_discard(ctx, &t);
    return s;
}

void magnus_spmv_plan_release(struct magnus_spmv_plan_s *p) {
    magnus_dbuf *bufs[] = {&p->coo_row,   &p->coo_col,   &p->coo_val,    &p->ell_col,
                           &p->ell_val,   &p->slice_ptr, &p->s_col,      &p->s_val,
                           &p->seg_first, &p->seg_last,  &p->part_first, &p->part_last,
                           &p->merge_starts, &p->hot_cols,  &p->hot_col_idx};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) magnus_dbuf_free(p->ctx, bufs[i]);
}

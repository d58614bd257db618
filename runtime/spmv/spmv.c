/*
 * SpMV entry points: plans (spmv_plan.c converts), the product of each format on queue MAIN,
 * the one-shot and host calls. docs/algorithm.md §9.
 */
#include <string.h>

#include "device_csr.h"
#include "kernels.h"
#include "primitives.h"
#include "spmv_internal.h"

#define Q MAGNUS_QUEUE_MAIN

const char *magnus_spmv_format_name(magnus_spmv_format format) {
    switch (format) {
    case MAGNUS_SPMV_AUTO: return "auto";
    case MAGNUS_SPMV_CSR: return "csr";
    case MAGNUS_SPMV_CSR_BALANCED: return "csr-balanced";
    case MAGNUS_SPMV_COO: return "coo";
    case MAGNUS_SPMV_HYBRID: return "hybrid";
    case MAGNUS_SPMV_SELL_P: return "sellp";
    }
    return "?";
}

magnus_status magnus_spmv_options_init(magnus_spmv_options *opt) {
    magnus_error_clear();
    if (!opt) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_spmv_options_init: opt is NULL");
    memset(opt, 0, sizeof *opt);
    opt->format = MAGNUS_SPMV_AUTO;
    opt->hybrid_width = -1;
    return MAGNUS_SUCCESS;
}

static magnus_status options_check(const magnus_spmv_options *o) {
    if ((int)o->format < MAGNUS_SPMV_AUTO || (int)o->format > MAGNUS_SPMV_SELL_P)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "SpMV format %d is none of auto, csr, "
                            "csr-balanced, coo, hybrid, sellp", (int)o->format);
    if (o->sellp_slice < 0 || o->sellp_slice > 1024)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "SpMV: SELL-P slice %lld is outside 1..1024 "
                            "(0: the default)", (long long)o->sellp_slice);
    if (o->sellp_stride < 0 || o->sellp_stride > 1024)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "SpMV: SELL-P stride %lld is outside "
                            "1..1024 (0: the default)", (long long)o->sellp_stride);
    if (o->hybrid_width < -1 || o->hybrid_width > MAGNUS_SPMV_WIDTH_CAP)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "SpMV: hybrid ELL width %lld is outside "
                            "0..1024 (-1: the rule)", (long long)o->hybrid_width);
    return MAGNUS_SUCCESS;
}

static magnus_status plan_check(const struct magnus_spmv_plan_s *p) {
    if (!p) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "SpMV plan is NULL");
    if (p->magic != MAGNUS_MAGIC_SPMV_PLAN)
        return magnus_error(MAGNUS_ERROR_INVALID_HANDLE,
                            "SpMV plan is not a live magnus_spmv_plan (freed or never created)");
    return MAGNUS_SUCCESS;
}

static magnus_status fp64_check(magnus_context ctx, magnus_value_type type) {
    if (type == MAGNUS_FLOAT64 && !ctx->device.fp64)
        return magnus_error(MAGNUS_ERROR_FEATURE_UNSUPPORTED, "SpMV: the device %s has no float64",
                            ctx->device.name);
    return MAGNUS_SUCCESS;
}

/* The kernels of the products (not the one-off conversions), and the split of local memory
 * and cache they ask for: MAGNUS_SPMV_CARVEOUT's, read with SpMV's other knobs when a plan is
 * made (magnus_spmv_carveout_knob). The gathers of x are most of the merge kernel's L2
 * traffic, and every L1 hit on x saves a sector from L2 (docs/performance.md, "SpMV on
 * power-law rows"). Unset (-1), nothing is asked and the launches are today's. */
static const magnus_kernel_id product_kernels[] = {
    MAGNUS_KERNEL_spmv_scale,   MAGNUS_KERNEL_spmv_csr_vector, MAGNUS_KERNEL_spmv_merge,
    MAGNUS_KERNEL_spmv_combine, MAGNUS_KERNEL_spmv_coo,        MAGNUS_KERNEL_spmv_ell,
    MAGNUS_KERNEL_spmv_sellp};

static magnus_status prefer_cache(magnus_context ctx, magnus_kernel_variant variant) {
    int share;
    magnus_status s = magnus_spmv_carveout_knob(&share);
    if (s || share < 0) return s;
    for (size_t i = 0; i < sizeof product_kernels / sizeof *product_kernels; i++)
        if ((s = magnus_kernel_local_share(ctx, variant, product_kernels[i], share))) return s;
    return MAGNUS_SUCCESS;
}

static void plan_destroy(struct magnus_spmv_plan_s **pp) {
    magnus_spmv_plan_release(*pp);
    (*pp)->magic = MAGNUS_MAGIC_FREED;
    magnus_host_free(*pp);
    *pp = NULL;
}

static void report_plan(magnus_spmv_report *r, const struct magnus_spmv_plan_s *p, double conv_ms) {
    memset(r, 0, sizeof *r);
    r->format = p->format;
    r->conversion_ms = conv_ms;
    r->format_bytes = p->format_bytes;
    r->lanes = p->format == MAGNUS_SPMV_CSR ? p->lanes : 0;
    r->ell_width = p->format == MAGNUS_SPMV_HYBRID ? p->width
                 : p->format == MAGNUS_SPMV_SELL_P ? p->max_width : 0;
    r->coo_entries = p->format == MAGNUS_SPMV_HYBRID || p->format == MAGNUS_SPMV_COO ? p->coo_nnz : 0;
    r->format_reason = p->format_reason;
    r->long_rows = p->long_rows;
    r->long_row_threshold = p->long_row_threshold;
    r->hot_columns = p->nhot;
    r->hot_share = p->nhot ? p->hot_share : 0;
    r->groups = (int64_t)p->ngroups;
}

/* reused: the plan serves many products (magnus_spmv_plan_create), so AUTO may pick a format
 * that converts; a one-shot magnus_spmv passes false. */
static magnus_status plan_new(struct magnus_spmv_plan_s **out, magnus_context ctx,
                              const struct magnus_device_csr_s *A, const magnus_spmv_options *opt,
                              bool reused) {
    magnus_spmv_options defaults;
    if (!opt) {
        magnus_spmv_options_init(&defaults);
        opt = &defaults;
    }
    magnus_status s;
    if ((s = options_check(opt)) || (s = fp64_check(ctx, A->type)) ||
        (s = prefer_cache(ctx, magnus_variant_of(A->type))))
        return s;
    struct magnus_spmv_plan_s *p = magnus_host_calloc(1, sizeof *p);
    if (!p) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "SpMV plan");
    p->magic = MAGNUS_MAGIC_SPMV_PLAN;
    p->ctx = ctx;
    p->A = A;
    p->variant = magnus_variant_of(A->type);
    p->value_bytes = magnus_value_size(A->type);
    p->reused = reused;
    if ((s = magnus_spmv_plan_build(p, opt))) {
        plan_destroy(&p);
        return s;
    }
    *out = p;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_spmv_plan_create(magnus_spmv_plan *out, magnus_context ctx,
                                      const magnus_device_csr A, const magnus_spmv_options *opt,
                                      magnus_spmv_report *report) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_spmv_plan_create: out is NULL");
    *out = NULL;
    magnus_status s;
    if ((s = magnus_context_check(ctx)) || (s = magnus_device_csr_check(A, ctx, "A"))) return s;
    if ((s = plan_new(out, ctx, A, opt, true))) return s;
    if (report) report_plan(report, *out, (*out)->conversion_ms);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_spmv_plan_free(magnus_spmv_plan *plan) {
    if (!plan || !*plan) return MAGNUS_SUCCESS;
    magnus_status s = plan_check(*plan);
    if (s) return s;
    plan_destroy(plan);
    return MAGNUS_SUCCESS;
}

static uint64_t scalar_bits(double v, magnus_value_type type) {
    if (type == MAGNUS_FLOAT64) {
        uint64_t b;
        memcpy(&b, &v, 8);
        return b;
    }
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* The group size of a kernel without local memory. */
static magnus_status plain_group(const struct magnus_spmv_plan_s *p, magnus_kernel_id kernel,
                                  size_t *g) {
    return magnus_spmv_group_size(g, p->ctx, p->variant, kernel, 0);
}

static magnus_status scale(const struct magnus_spmv_plan_s *p, magnus_dbuf *y, uint64_t n,
                           uint64_t beta_bits) {
    magnus_context ctx = p->ctx;
    size_t g;
    magnus_status s;
    if ((s = plain_group(p, MAGNUS_KERNEL_spmv_scale, &g))) return s;
    return magnus_k_spmv_scale(ctx, Q, p->variant, magnus_spmv_groups(ctx, n, g), g, 0, n, y,
                               beta_bits);
}

static magnus_status combine(const struct magnus_spmv_plan_s *p, magnus_dbuf *y, uint64_t ab,
                             uint64_t bb, int prescaled) {
    magnus_context ctx = p->ctx;
    size_t g;
    magnus_status s;
    if ((s = plain_group(p, MAGNUS_KERNEL_spmv_combine, &g))) return s;
    return magnus_k_spmv_combine(ctx, Q, p->variant, magnus_spmv_groups(ctx, p->ngroups, g), g, 0,
                                 p->ngroups, &p->seg_first, &p->seg_last, &p->part_first,
                                 &p->part_last, y, ab, bb, prescaled);
}

/* COO entries (coo_row sorted) added to y, which holds beta*y already. */
static magnus_status coo_product(const struct magnus_spmv_plan_s *p, const magnus_dbuf *col,
                                 const magnus_dbuf *val, const magnus_dbuf *x, magnus_dbuf *y,
                                 uint64_t ab) {
    magnus_context ctx = p->ctx;
    size_t groups = p->ngroups < magnus_prim_max_groups(ctx) ? p->ngroups : magnus_prim_max_groups(ctx);
    magnus_status s = magnus_k_spmv_coo(ctx, Q, p->variant, groups, p->group,
                                        p->group * magnus_spmv_item_bytes(p),
                                        p->coo_nnz,
                                        p->per_group, p->ngroups, p->per_item, &p->coo_row, col,
                                        val, x, y, ab, &p->seg_first, &p->seg_last, &p->part_first,
                                        &p->part_last);
    return s ? s : combine(p, y, ab, 0, 1);
}

static magnus_status product(const struct magnus_spmv_plan_s *p, magnus_dbuf *y, double alpha,
                             const magnus_dbuf *x, double beta) {
    magnus_context ctx = p->ctx;
    const struct magnus_device_csr_s *A = p->A;
    const uint64_t ab = scalar_bits(alpha, A->type), bb = scalar_bits(beta, A->type);
    const uint64_t rows = (uint64_t)A->rows;
    size_t g;
    magnus_status s;
    if (rows == 0) return MAGNUS_SUCCESS;
    if (alpha == 0 || A->nnz == 0) return beta == 1 ? MAGNUS_SUCCESS : scale(p, y, rows, bb);
    switch (p->format) {
    case MAGNUS_SPMV_CSR:
        return magnus_k_spmv_csr_vector(ctx, Q, p->variant,
                                        magnus_spmv_groups(ctx, rows * p->lanes, p->group), p->group,
                                        p->group * p->value_bytes, A->rows, &A->row_ptr,
                                        &A->col_idx, &A->values, x, y, ab, bb, p->lanes);
    case MAGNUS_SPMV_CSR_BALANCED: {
        size_t cap = magnus_prim_max_groups(ctx);
        const size_t groups = p->nhot ? p->hot_groups : p->ngroups < cap ? p->ngroups : cap;
        /* with hot x, the plan's columns (hot entries -1 - slot); else A's, hot_cols unread */
        const magnus_dbuf *col = p->nhot ? &p->hot_col_idx : &A->col_idx;
        const magnus_dbuf *hot = p->nhot ? &p->hot_cols : &A->col_idx;
        s = magnus_k_spmv_merge(ctx, Q, p->variant, groups, p->group, magnus_spmv_merge_local(p),
                                A->rows, A->nnz, p->per_item, p->ngroups, &p->merge_starts,
                                &A->row_ptr, col, &A->values, x, y, ab, bb, &p->seg_first,
                                &p->seg_last, &p->part_first, &p->part_last, p->nhot, hot);
        if (s) return s;
        return combine(p, y, ab, bb, 0);
    }
    case MAGNUS_SPMV_COO:
        if (beta != 1 && (s = scale(p, y, rows, bb))) return s;
        return coo_product(p, &A->col_idx, &A->values, x, y, ab);
    case MAGNUS_SPMV_HYBRID:
        if ((s = plain_group(p, MAGNUS_KERNEL_spmv_ell, &g))) return s;
        if ((s = magnus_k_spmv_ell(ctx, Q, p->variant, magnus_spmv_groups(ctx, rows, g), g, 0,
                                   A->rows, p->width, &p->ell_col, &p->ell_val, x, y, ab, bb)))
            return s;
        return p->coo_nnz > 0 ? coo_product(p, &p->coo_col, &p->coo_val, x, y, ab) : MAGNUS_SUCCESS;
    case MAGNUS_SPMV_SELL_P:
        if ((s = plain_group(p, MAGNUS_KERNEL_spmv_sellp, &g))) return s;
        return magnus_k_spmv_sellp(ctx, Q, p->variant, magnus_spmv_groups(ctx, rows, g), g, 0,
                                   A->rows, p->slice, &p->slice_ptr, &p->s_col, &p->s_val, x, y,
                                   ab, bb);
    default:
        return magnus_error(MAGNUS_ERROR_INTERNAL, "SpMV plan of format %d", (int)p->format);
    }
}

static magnus_status execute(struct magnus_spmv_plan_s *p, struct magnus_device_vector_s *y,
                             double alpha, const struct magnus_device_vector_s *x, double beta,
                             magnus_spmv_report *report, double conv_ms) {
    magnus_context ctx = p->ctx;
    const struct magnus_device_csr_s *A = p->A;
    magnus_status s;
    if ((s = magnus_device_vector_check(y, ctx, "y")) || (s = magnus_device_vector_check(x, ctx, "x")))
        return s;
    if (x == y)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "SpMV: x and y are the same vector");
    if (x->type != A->type || y->type != A->type)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE,
                            "SpMV: A is %s, x %s, y %s: all must have one value type",
                            A->type == MAGNUS_FLOAT64 ? "float64" : "float32",
                            x->type == MAGNUS_FLOAT64 ? "float64" : "float32",
                            y->type == MAGNUS_FLOAT64 ? "float64" : "float32");
    if (x->length != A->cols || y->length != A->rows)
        return magnus_error(MAGNUS_ERROR_DIMENSION_MISMATCH,
                            "SpMV: A is %lld x %lld, x has %lld values (needs %lld), y %lld "
                            "(needs %lld)", (long long)A->rows, (long long)A->cols,
                            (long long)x->length, (long long)A->cols, (long long)y->length,
                            (long long)A->rows);
    magnus_timer t = {0};
    double ms = 0;
    if ((s = magnus_timer_start(ctx, Q, &t)) || (s = product(p, &y->buf, alpha, &x->buf, beta)) ||
        (s = magnus_timer_stop(ctx, Q, &t)) || (s = magnus_timer_elapsed_ms(ctx, &t, &ms)) ||
        (s = magnus_context_finish(ctx))) {
        s = magnus_context_finish_after_error(ctx, s);
        magnus_timer_discard(ctx, &t);
        return s;
    }
    if (report) {
        report_plan(report, p, conv_ms);
        report->product_ms = ms;
        const uint64_t vb = p->value_bytes;
        report->floor_bytes = 8 * ((uint64_t)A->rows + 1) + (4 + vb) * (uint64_t)A->nnz +
                              vb * (uint64_t)A->cols + vb * (uint64_t)A->rows * (beta != 0 ? 2 : 1);
    }
    return MAGNUS_SUCCESS;
}

magnus_status magnus_spmv_plan_execute(magnus_spmv_plan plan, magnus_device_vector y, double alpha,
                                       const magnus_device_vector x, double beta,
                                       magnus_spmv_report *report) {
    magnus_error_clear();
    magnus_status s;
    if ((s = plan_check(plan)) || (s = magnus_context_check(plan->ctx)) ||
        (s = magnus_device_csr_check(plan->A, plan->ctx, "of the plan")))
        return s;
    return execute(plan, y, alpha, x, beta, report, 0);
}

magnus_status magnus_spmv(magnus_context ctx, magnus_device_vector y, double alpha,
                          const magnus_device_csr A, const magnus_device_vector x, double beta,
                          const magnus_spmv_options *opt, magnus_spmv_report *report) {
    magnus_error_clear();
    magnus_status s;
    if ((s = magnus_context_check(ctx)) || (s = magnus_device_csr_check(A, ctx, "A")) ||
        (s = magnus_device_vector_check(y, ctx, "y")) || (s = magnus_device_vector_check(x, ctx, "x")))
        return s;
    struct magnus_spmv_plan_s *p = NULL;
    if ((s = plan_new(&p, ctx, A, opt, false))) return s;
    s = execute(p, y, alpha, x, beta, report, p->conversion_ms);
    plan_destroy(&p);
    return s;
}

magnus_status magnus_spmv_host(void *y, magnus_context ctx, double alpha, const magnus_csr_s *A,
                               const void *x, double beta, const magnus_spmv_options *opt,
                               magnus_spmv_report *report) {
    magnus_error_clear();
    magnus_status s;
    if ((s = magnus_context_check(ctx)) || (s = magnus_csr_validate(A))) return s;
    if ((!x && A->cols > 0) || (!y && A->rows > 0))
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_spmv_host: %s is NULL", !y ? "y" : "x");
    if ((s = fp64_check(ctx, A->type))) return s;
    magnus_device_csr dA = NULL;
    magnus_device_vector dx = NULL, dy = NULL;
    if (!(s = magnus_device_csr_upload(&dA, ctx, A)) &&
        !(s = magnus_device_vector_upload(&dx, ctx, A->type, A->cols, x)) &&
        !(s = beta != 0 ? magnus_device_vector_upload(&dy, ctx, A->type, A->rows, y)
                        : magnus_device_vector_zeros(&dy, ctx, A->type, A->rows)) &&
        !(s = magnus_spmv(ctx, dy, alpha, dA, dx, beta, opt, report)))
        s = magnus_device_vector_download(y, A->rows, dy);
    magnus_device_vector_free(&dx);
    magnus_device_vector_free(&dy);
    magnus_device_csr_free(&dA);
    return s;
}

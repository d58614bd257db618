/*
 * Plans by product positions (spgemm_plan_positions.h): the host side of
 * kernels/spgemm_plan.cl. The positions are computed with each work group taking
 * PLAN_PRODUCTS_PER_ITEM products per work item (a range of the products, by whole A
 * entries), so groups are balanced whatever the row lengths. An execution's work is cut once,
 * here, from the row pointers: runs of whole rows whose C entries fit one group's local memory
 * (units, at most PLAN_UNIT_SPANS ranges of products each) are accumulated there with local
 * atomics and written once; a row with more C entries than that is cut into pieces of about a
 * range of products each, added into C by global atomics (after its segment is zeroed).
 */
#include <string.h>

#include "kernels.h"
#include "primitives.h"
#include "spgemm_plan_positions.h"

#define PLAN_PRODUCTS_PER_ITEM 8u
#define PLAN_UNIT_SPANS 8u
#define PLAN_MAX_TEAM 32u /* a subgroup on most GPUs: coalesced reads of one B row */

/* Lanes per A entry: the largest power of two not above the mean B row an entry selects,
 * within [1, min(PLAN_MAX_TEAM, group size)]. */
static uint32_t plan_team(uint64_t products, uint64_t nnz_a, size_t group_size) {
    const uint64_t mean = nnz_a ? products / nnz_a : 1;
    uint32_t team = 1;
    while ((uint64_t)team * 2 <= mean && team * 2 <= PLAN_MAX_TEAM && team * 2 <= group_size)
        team *= 2;
    return team;
}

static size_t plan_groups(const magnus_context_s *ctx, uint64_t units) {
    const size_t cap = magnus_prim_max_groups(ctx);
    return units < cap ? (size_t)units : cap;
}

static magnus_status plan_group_size(const magnus_context_s *ctx, size_t *gs) {
    *gs = magnus_prim_group_size(ctx, 0);
    if (*gs == 0)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "SpGEMM plan: a local memory budget of %llu bytes is too small",
                            (unsigned long long)ctx->device.local_mem_bytes);
    return MAGNUS_SUCCESS;
}

uint64_t magnus_plan_positions_bytes(const magnus_plan_positions *pp) {
    return pp->col_idx.bytes + pp->entry_off.bytes + pp->positions.bytes + pp->units.bytes +
           pp->pieces.bytes + pp->segments.bytes;
}

void magnus_plan_positions_free(magnus_context ctx, magnus_plan_positions *pp) {
    magnus_dbuf_free(ctx, &pp->col_idx);
    magnus_dbuf_free(ctx, &pp->entry_off);
    magnus_dbuf_free(ctx, &pp->positions);
    magnus_dbuf_free(ctx, &pp->units);
    magnus_dbuf_free(ctx, &pp->pieces);
    magnus_dbuf_free(ctx, &pp->segments);
    memset(pp, 0, sizeof *pp);
}

/* ---- the execution's work, cut on the host --------------------------------------------- */

typedef struct u64_list {
    uint64_t *v;
    size_t n, cap;
} u64_list;

static bool list_push(u64_list *l, const uint64_t *x, size_t k) {
    if (l->n + k > l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        while (cap < l->n + k) cap *= 2;
        uint64_t *v = magnus_host_malloc(cap * sizeof *v);
        if (!v) return false;
        if (l->n) memcpy(v, l->v, l->n * sizeof *v);
        magnus_host_free(l->v);
        l->v = v, l->cap = cap;
    }
    memcpy(l->v + l->n, x, k * sizeof *x);
    l->n += k;
    return true;
}

/* A list as a new device buffer (at least one byte: kernels need a live buffer). */
static magnus_status list_upload(magnus_context ctx, const u64_list *l, magnus_dbuf *out) {
    magnus_status s = magnus_dbuf_alloc(ctx, l->n * sizeof(uint64_t), out);
    if (!s && l->n)
        s = magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, out, 0, l->v, l->n * sizeof(uint64_t));
    return s;
}

/* The local-memory entries a unit may hold: the budget's values (MAGNUS_PLAN_LOCAL_BYTES, for
 * studies and tests, takes less). */
static magnus_status plan_local_entries(const magnus_context_s *ctx, size_t sval,
                                        uint64_t *out) {
    uint64_t bytes = ctx->device.local_mem_bytes;
    magnus_status s = magnus_env_uint("MAGNUS_PLAN_LOCAL_BYTES", sval, bytes, false, &bytes);
    *out = bytes / sval;
    return s;
}

typedef struct plan_cut {
    u64_list units, pieces, segments;
    uint64_t products_global;
} plan_cut;

/* Units and pieces from A's row pointers, the entry offsets and C's row pointers. */
static bool plan_cut_rows(plan_cut *cut, int64_t rows, const int64_t *a_rp, const uint64_t *eo,
                          const int64_t *c_rp, uint64_t cap, uint64_t span) {
    const uint64_t unit_max = span * PLAN_UNIT_SPANS;
    uint64_t u[4] = {0, 0, 0, 0}, u_products = 0; /* the open unit: e0, e1, c0, c1 */
    bool open = false;
    for (int64_t r = 0; r < rows; r++) {
        const uint64_t eb = (uint64_t)a_rp[r], ee = (uint64_t)a_rp[r + 1];
        const uint64_t cb = (uint64_t)c_rp[r], ce = (uint64_t)c_rp[r + 1];
        const uint64_t np = eo[ee] - eo[eb];
        if (ce - cb > cap || (open && (ce - u[2] > cap || u_products + np > unit_max))) {
            if (open && u[3] > u[2] && !list_push(&cut->units, u, 4)) return false;
            open = false;
        }
        if (ce - cb > cap) { /* a long row: its segment zeroed, pieces of about span products */
            const uint64_t seg[2] = {cb, ce};
            if (!list_push(&cut->segments, seg, 2)) return false;
            cut->products_global += np;
            uint64_t start = eb;
            for (uint64_t e = eb; e < ee; e++) {
                if (eo[e + 1] - eo[start] < span && e + 1 < ee) continue;
                const uint64_t piece[2] = {start, e + 1};
                if (!list_push(&cut->pieces, piece, 2)) return false;
                start = e + 1;
            }
            continue;
        }
        if (!open) {
            u[0] = eb, u[2] = cb, u_products = 0;
            open = true;
        }
        u[1] = ee, u[3] = ce;
        u_products += np;
    }
    return !open || u[3] <= u[2] || list_push(&cut->units, u, 4);
}

static magnus_status plan_build_work(magnus_plan_positions *pp, magnus_context ctx,
                                     const struct magnus_device_csr_s *A,
                                     const struct magnus_device_csr_s *C, uint64_t span) {
    const magnus_queue_id q = MAGNUS_QUEUE_MAIN;
    const size_t rp_bytes = (size_t)(A->rows + 1) * sizeof(int64_t);
    const size_t eo_bytes = (size_t)(A->nnz + 1) * sizeof(uint64_t);
    plan_cut cut;
    memset(&cut, 0, sizeof cut);
    int64_t *a_rp = magnus_host_malloc(rp_bytes), *c_rp = magnus_host_malloc(rp_bytes);
    uint64_t *eo = magnus_host_malloc(eo_bytes);
    magnus_status s = MAGNUS_SUCCESS;
    if (!a_rp || !c_rp || !eo) {
        s = magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                         "SpGEMM plan: %zu bytes of row pointers and entry offsets",
                         2 * rp_bytes + eo_bytes);
        goto done;
    }
    if ((s = plan_local_entries(ctx, magnus_value_size(A->type), &pp->local_entries)) ||
        (s = magnus_dbuf_read(ctx, q, a_rp, &A->row_ptr, 0, rp_bytes)) ||
        (s = magnus_dbuf_read(ctx, q, c_rp, &C->row_ptr, 0, rp_bytes)) ||
        (s = magnus_dbuf_read(ctx, q, eo, &pp->entry_off, 0, eo_bytes)))
        goto done;
    if (!plan_cut_rows(&cut, A->rows, a_rp, eo, c_rp, pp->local_entries, span)) {
        s = magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "SpGEMM plan: the list of its work");
        goto done;
    }
    if ((s = list_upload(ctx, &cut.units, &pp->units)) ||
        (s = list_upload(ctx, &cut.pieces, &pp->pieces)) ||
        (s = list_upload(ctx, &cut.segments, &pp->segments)))
        goto done;
    pp->nunits = cut.units.n / 4;
    pp->npieces = cut.pieces.n / 2;
    pp->nsegments = cut.segments.n / 2;
    pp->products_global = cut.products_global;
done:
    magnus_host_free(a_rp);
    magnus_host_free(c_rp);
    magnus_host_free(eo);
    magnus_host_free(cut.units.v);
    magnus_host_free(cut.pieces.v);
    magnus_host_free(cut.segments.v);
    return s;
}

magnus_status magnus_plan_positions_build(magnus_plan_positions *pp, magnus_context ctx,
                                          const struct magnus_device_csr_s *A,
                                          const struct magnus_device_csr_s *B,
                                          struct magnus_device_csr_s *C) {
    const magnus_queue_id q = MAGNUS_QUEUE_MAIN;
    const uint64_t nnz_a = (uint64_t)A->nnz;
    memset(pp, 0, sizeof *pp);
    magnus_dbuf missing = {0};
    uint32_t lacks = 0;
    size_t gs, bytes;
    magnus_status s;
    if ((s = plan_group_size(ctx, &gs)) ||
        (s = magnus_dbuf_alloc(ctx, (size_t)(nnz_a + 1) * sizeof(uint64_t), &pp->entry_off)) ||
        (nnz_a && (s = magnus_k_plan_entry_products(ctx, q, MAGNUS_VARIANT_F32,
                                                    plan_groups(ctx, nnz_a / gs + 1), gs, 0,
                                                    nnz_a, &A->col_idx, &B->row_ptr,
                                                    &pp->entry_off))) ||
        (s = magnus_prim_fill_u64(ctx, q, &pp->entry_off, nnz_a, 1, 0)) ||
        (s = magnus_prim_scan_u64(ctx, q, &pp->entry_off, &pp->entry_off, nnz_a + 1,
                                  &pp->products)))
        goto fail;
    if (!magnus_mul_size((size_t)pp->products, sizeof(uint32_t), &bytes)) {
        s = magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "SpGEMM plan: %llu products' positions",
                         (unsigned long long)pp->products);
        goto fail;
    }
    pp->team = plan_team(pp->products, nnz_a, gs);
    const uint64_t span = (uint64_t)gs * PLAN_PRODUCTS_PER_ITEM;
    if ((s = magnus_dbuf_alloc(ctx, bytes, &pp->positions)) ||
        (s = magnus_dbuf_alloc(ctx, sizeof(uint32_t), &missing)) ||
        (s = magnus_prim_fill_u32(ctx, q, &missing, 0, 1, 0)) ||
        (pp->products &&
         (s = magnus_k_plan_positions(ctx, q, MAGNUS_VARIANT_F32,
                                      plan_groups(ctx, (pp->products + span - 1) / span), gs, 0,
                                      pp->products, span, nnz_a, A->rows, &A->row_ptr,
                                      &A->col_idx, &B->row_ptr, &B->col_idx, &pp->entry_off,
                                      &C->row_ptr, &C->col_idx, &pp->positions, &missing,
                                      pp->team))) ||
        (s = magnus_dbuf_read(ctx, q, &lacks, &missing, 0, sizeof lacks)))
        goto fail;
    if (lacks) {
        s = magnus_error(MAGNUS_ERROR_INTERNAL,
                         "SpGEMM plan: the multiply's C lacks a column of A·B's structure");
        goto fail;
    }
    if ((s = plan_build_work(pp, ctx, A, C, span))) goto fail;
    magnus_dbuf_free(ctx, &missing);
    pp->col_idx = C->col_idx; /* C's columns are the plan's now */
    memset(&C->col_idx, 0, sizeof C->col_idx);
    return MAGNUS_SUCCESS;
fail:
    magnus_context_finish_after_error(ctx, s);
    magnus_dbuf_free(ctx, &missing);
    magnus_plan_positions_free(ctx, pp);
    return s;
}

magnus_status magnus_plan_positions_numeric(magnus_context ctx, const magnus_plan_positions *pp,
                                            const struct magnus_device_csr_s *A,
                                            const struct magnus_device_csr_s *B,
                                            const magnus_dbuf *row_ptr,
                                            struct magnus_device_csr_s *C) {
    const magnus_queue_id q = MAGNUS_QUEUE_MAIN;
    const magnus_kernel_variant v = magnus_variant_of(A->type);
    const size_t nnz = (size_t)C->nnz;
    size_t gs;
    magnus_status s;
    if ((s = plan_group_size(ctx, &gs)) ||
        (s = magnus_dbuf_copy(ctx, q, &C->row_ptr, 0, row_ptr, 0,
                              (size_t)(C->rows + 1) * sizeof(int64_t))) ||
        (nnz && (s = magnus_dbuf_copy(ctx, q, &C->col_idx, 0, &pp->col_idx, 0,
                                      nnz * sizeof(int32_t)))) ||
        (pp->nsegments &&
         (s = magnus_k_plan_zero_segments(ctx, q, v, plan_groups(ctx, pp->nsegments), gs, 0,
                                          pp->nsegments, &pp->segments, &C->values))) ||
        (pp->nunits &&
         (s = magnus_k_plan_numeric_local(
              ctx, q, v, plan_groups(ctx, pp->nunits), gs,
              (size_t)pp->local_entries * magnus_value_size(A->type), pp->nunits, &pp->units,
              &A->col_idx, &A->values, &B->row_ptr, &B->values, &pp->entry_off,
              &pp->positions, &C->values, pp->team))))
        return s;
    if (!pp->npieces) return MAGNUS_SUCCESS;
    return magnus_k_plan_numeric_global(ctx, q, v, plan_groups(ctx, pp->npieces), gs, 0,
                                        pp->npieces, &pp->pieces, &A->col_idx, &A->values,
                                        &B->row_ptr, &B->values, &pp->entry_off,
                                        &pp->positions, &C->values, pp->team);
}

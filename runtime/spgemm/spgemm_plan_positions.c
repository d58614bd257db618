/*
 * Plans by product positions (spgemm_plan_positions.h): the host side of
 * kernels/spgemm_plan.cl. Both kernels give each work group PLAN_PRODUCTS_PER_ITEM products
 * per work item (a range of the products, by whole A entries), so groups are balanced
 * whatever the row lengths.
 */
#include <string.h>

#include "kernels.h"
#include "primitives.h"
#include "spgemm_plan_positions.h"

#define PLAN_PRODUCTS_PER_ITEM 8u
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
    return pp->col_idx.bytes + pp->entry_off.bytes + pp->positions.bytes;
}

void magnus_plan_positions_free(magnus_context ctx, magnus_plan_positions *pp) {
    magnus_dbuf_free(ctx, &pp->col_idx);
    magnus_dbuf_free(ctx, &pp->entry_off);
    magnus_dbuf_free(ctx, &pp->positions);
    pp->products = 0;
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
    const uint32_t zero = 0;
    const size_t nnz = (size_t)C->nnz;
    size_t gs;
    magnus_status s;
    if ((s = plan_group_size(ctx, &gs)) ||
        (s = magnus_dbuf_copy(ctx, q, &C->row_ptr, 0, row_ptr, 0,
                              (size_t)(C->rows + 1) * sizeof(int64_t))) ||
        (nnz && ((s = magnus_dbuf_copy(ctx, q, &C->col_idx, 0, &pp->col_idx, 0,
                                       nnz * sizeof(int32_t))) ||
                 (s = magnus_dbuf_fill(ctx, q, &C->values, 0, &zero, sizeof zero,
                                       nnz * magnus_value_size(C->type))))))
        return s;
    if (pp->products == 0) return MAGNUS_SUCCESS;
    const uint64_t span = (uint64_t)gs * PLAN_PRODUCTS_PER_ITEM;
    return magnus_k_plan_numeric(ctx, q, magnus_variant_of(A->type),
                                 plan_groups(ctx, (pp->products + span - 1) / span), gs, 0,
                                 pp->products, span, (uint64_t)A->nnz, &A->col_idx, &A->values,
                                 &B->row_ptr, &B->values, &pp->entry_off, &pp->positions,
                                 &C->values, pp->team);
}

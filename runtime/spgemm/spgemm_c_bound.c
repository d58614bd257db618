/*
 * Refusing early a product whose C cannot fit (spgemm_dispatch.h, magnus_spgemm_c_fits).
 *
 * C is whole on the device at the end of every path (gMAGNUS's row blocks are stacked into
 * one C; only C-hat is cut into blocks), beside A and B. So when even a lower bound on C's
 * size passes what the device can still give, the multiply can only fail, and its symbolic
 * phase may first take minutes (a 10^5 x 1 by 1 x 10^5 product counts 10^10 products before
 * it asks for C's 80 GB). The bound (kernels/spgemm_c_bound.cl): row i of C holds every
 * column of each B row its A row selects, so nnz(C) >= sum over rows of the longest such B
 * row. It is a lower bound, never an estimate: a product that fits is never refused, however
 * many products it has. Bytes of C: its row pointers, then nnz(C) times a column and a value;
 * what the device can give: the context's limit (or the device's memory) less what is in use
 * (A and B among it), and no single array past the device's largest buffer.
 *
 * The pass over A costs a kernel and a scan, so it runs only when an upper bound on nnz(C)
 * that needs no pass, min(rows x cols, rows x nnz(B), nnz(A) x cols), would not fit.
 */
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "primitives.h"
#include "spgemm_dispatch.h"

/* The first entries of each A row the bound looks at (the kernel says why not all). */
#define C_BOUND_SCAN_ENTRIES 64u

/* a * b, saturated at UINT64_MAX */
static uint64_t mul_sat(uint64_t a, uint64_t b) {
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
static uint64_t add_sat(uint64_t a, uint64_t b) {
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}
static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Whether C of `entries` entries fits: *need its bytes, *largest its largest array. */
static bool c_fits(uint64_t *need, uint64_t *largest, uint64_t entries, uint64_t rows,
                   uint64_t value_bytes, uint64_t available, uint64_t max_alloc) {
    const uint64_t ptr = mul_sat(rows + 1, 8), vals = mul_sat(entries, value_bytes);
    *largest = ptr > vals ? ptr : vals;
    *need = add_sat(ptr, add_sat(mul_sat(entries, 4), vals));
    return *need <= available && (!max_alloc || *largest <= max_alloc);
}

/* nnz(C) >= *out: the kernel's bound per row, summed by the scan. */
static magnus_status lower_bound(uint64_t *out, magnus_context ctx,
                                 const struct magnus_device_csr_s *A,
                                 const struct magnus_device_csr_s *B) {
    const magnus_queue_id q = MAGNUS_QUEUE_MAIN;
    const uint64_t rows = (uint64_t)A->rows;
    *out = 0;
    const size_t gs = magnus_prim_group_size(ctx, 0);
    if (gs == 0) return MAGNUS_SUCCESS; /* a budget too small for a scan: no bound (0) */
    const uint64_t wanted = (rows + 1) / gs + 1, cap = magnus_prim_max_groups(ctx);
    magnus_dbuf per_row = {0};
    magnus_status s;
    if ((s = magnus_dbuf_alloc(ctx, (size_t)(rows + 1) * sizeof(uint64_t), &per_row)) ||
        (s = magnus_k_spgemm_row_nnz_floor(ctx, q, MAGNUS_VARIANT_F32,
                                           (size_t)(wanted < cap ? wanted : cap), gs, 0,
                                           A->rows, C_BOUND_SCAN_ENTRIES, &A->row_ptr,
                                           &A->col_idx, &B->row_ptr, &per_row)) ||
        (s = magnus_prim_scan_u64(ctx, q, &per_row, &per_row, rows + 1, out)))
        magnus_context_finish_after_error(ctx, s);
    magnus_dbuf_free(ctx, &per_row);
    return s;
}

magnus_status magnus_spgemm_c_fits(magnus_context ctx, const struct magnus_device_csr_s *A,
                                   const struct magnus_device_csr_s *B) {
    const uint64_t memory = ctx->memory_limit ? ctx->memory_limit : ctx->device.global_mem_bytes;
    if (memory == 0) return MAGNUS_SUCCESS; /* the device does not say */
    const uint64_t in_use = ctx->memory_in_use;
    const uint64_t available = memory > in_use ? memory - in_use : 0;
    const uint64_t max_alloc = ctx->device.max_alloc_bytes;
    const uint64_t rows = (uint64_t)A->rows, cols = (uint64_t)B->cols;
    const uint64_t vb = magnus_value_size(A->type);
    const uint64_t upper = min_u64(mul_sat(rows, cols),
                                   min_u64(mul_sat(rows, (uint64_t)B->nnz),
                                           mul_sat((uint64_t)A->nnz, cols)));
    uint64_t need, largest;
    if (c_fits(&need, &largest, upper, rows, vb, available, max_alloc)) return MAGNUS_SUCCESS;
    uint64_t lower = 0;
    magnus_status s = lower_bound(&lower, ctx, A, B);
    if (s) {
        magnus_error_prefix("the size of C = A·B: ");
        return s;
    }
    if (c_fits(&need, &largest, lower, rows, vb, available, max_alloc)) return MAGNUS_SUCCESS;
    char limit[160];
    if (ctx->memory_limit)
        snprintf(limit, sizeof limit, "the limit of %llu bytes (MAGNUS_DEVICE_MEMORY_LIMIT or "
                                      "the context option)",
                 (unsigned long long)ctx->memory_limit);
    else
        snprintf(limit, sizeof limit, "the device's %llu bytes",
                 (unsigned long long)ctx->device.global_mem_bytes);
    char what[192]; /* what every refusal says first */
    snprintf(what, sizeof what,
             "C = A·B (%lld x %lld) has at least %llu entries (each row holds every column of "
             "the B rows it selects)",
             (long long)A->rows, (long long)B->cols, (unsigned long long)lower);
    if (need > available)
        return magnus_error(MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY,
                            "%s and needs at least %llu bytes of device memory; %llu are "
                            "available (%s, %llu in use): refused before multiplying",
                            what, (unsigned long long)need, (unsigned long long)available, limit,
                            (unsigned long long)in_use);
    return magnus_error(MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY,
                        "%s: one of its arrays needs at least %llu bytes, above the device's "
                        "largest buffer of %llu bytes: refused before multiplying",
                        what, (unsigned long long)largest, (unsigned long long)max_alloc);
}

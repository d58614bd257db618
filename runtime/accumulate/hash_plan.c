/*
 * The shape of the bins (runtime/accumulate/hash_private.h): from the local-memory budget and
 * the value type, which keys each bin takes, the slots of its tables, the work items per item
 * and the items per work group; the work-group cap; the global tables' sizes.
 */
#include "hash_private.h"

#include <string.h>

/* The largest work group of the bin kernels (see HASH_MAX_GROUP), within the device's: the
 * context's hash_group_max (validated when the context was created), else the widest group the
 * backend vouches for (magnus_device_info.wide_group_size). A phase keeps it within its
 * kernels' own limits too (hash_phase.c). */
uint32_t magnus_hash_group_cap(const magnus_context_s *ctx) {
    uint64_t device = ctx->device.max_work_group_size ? ctx->device.max_work_group_size : 256;
    uint64_t cap = ctx->device.wide_group_size ? ctx->device.wide_group_size : HASH_MAX_GROUP;
    if (ctx->hash_group_max) cap = ctx->hash_group_max;
    if (cap > device) cap = device;
    return (uint32_t)pow2_floor(cap);
}

static void hash_plan_add(hash_plan *p, int numeric, size_t value_bytes, uint64_t local_bytes,
                          uint64_t table) {
    hash_bin *b = &p->bin[p->nbins++];
    /* numeric: at least 2 slots per entry; symbolic: a row's products (an upper bound on its
     * columns) fill at most 3/4 of the table */
    b->max_key = numeric ? (int64_t)(table / 2) : (int64_t)(table - table / 4);
    b->table = (uint32_t)table;
    uint64_t lanes = pow2_floor(table / 8);
    if (lanes < 8) lanes = 8;
    if (lanes > p->group_cap) lanes = p->group_cap;
    uint64_t per_group = HASH_SMALL_GROUP / lanes;
    if (per_group < 1) per_group = 1;
    while (per_group > 1 && hash_local_bytes(numeric, per_group, table, value_bytes) > local_bytes)
        per_group /= 2;
    b->lanes = (uint32_t)lanes;
    b->per_group = (uint32_t)per_group;
}

/* The bins for one phase, with work groups of at most group_cap items; nbins == 2 (empty +
 * global) when local memory holds no table. */
static void plan_build(hash_plan *p, const magnus_context_s *ctx, int numeric,
                       size_t value_bytes, uint32_t group_cap, bool wide) {
    memset(p, 0, sizeof *p);
    p->group_cap = group_cap;
    uint64_t budget = ctx->device.local_mem_bytes;
    uint64_t local_bytes = budget > HASH_LOCAL_RESERVE ? budget - HASH_LOCAL_RESERVE : 0;
    uint64_t slot = hash_slot_bytes(numeric, value_bytes);
    /* largest table one item may have next to its 4-byte counter (hash_local_bytes of one
     * item, solved for the table): numeric any even size (modulo hashing), symbolic a power of
     * two (mask) */
    uint64_t room = local_bytes > HASH_ITEM_EXTRA ? local_bytes - HASH_ITEM_EXTRA : 0;
    uint64_t largest = numeric ? (room / slot) & ~(uint64_t)1 : (room >= 4 ? pow2_floor(room / 4) : 0);
    if (largest > UINT32_MAX / 2) largest = pow2_floor(UINT32_MAX / 2);
    p->bin[p->nbins++] = (hash_bin){.max_key = 0};
    uint64_t last = 0;
    for (uint64_t t = HASH_MIN_TABLE; t <= largest && p->nbins < HASH_MAX_BINS - 2; t *= 2) {
        hash_plan_add(p, numeric, value_bytes, local_bytes, t);
        last = t;
    }
    if (largest > last && largest >= 4 && p->nbins < HASH_MAX_BINS - 1)
        hash_plan_add(p, numeric, value_bytes, local_bytes, largest);
    /* gMAGNUS sends rows and chunks of up to tau = budget / (2 * slot) entries; the reserve
     * must not push those out of local memory, so the largest table may run a few entries
     * past half full */
    hash_bin *top = &p->bin[p->nbins - 1];
    int64_t tau = (int64_t)(budget / (2 * slot));
    if (numeric && p->nbins > 1 && tau > top->max_key && tau < (int64_t)top->table)
        top->max_key = tau;
    /* Wide bins: items past the budget get local tables up to the device's local memory, at
     * lower occupancy, instead of global ones (the context's hash_wide_bins). */
    if (wide && p->nbins > 1) {
        uint64_t wide_bytes = ctx->device_local_mem_bytes - HASH_LOCAL_RESERVE;
        uint64_t wroom = wide_bytes > HASH_ITEM_EXTRA ? wide_bytes - HASH_ITEM_EXTRA : 0;
        uint64_t widest = numeric ? (wroom / slot) & ~(uint64_t)1 : pow2_floor(wroom / 4);
        if (widest > UINT32_MAX / 2) widest = pow2_floor(UINT32_MAX / 2);
        uint64_t last_table = p->bin[p->nbins - 1].table;
        for (uint64_t t = pow2_floor(last_table) * 2;; t *= 2) {
            uint64_t table = t < widest ? t : widest;
            if (table <= last_table || p->nbins >= HASH_MAX_BINS - 1) break;
            hash_plan_add(p, numeric, value_bytes, wide_bytes, table);
            last_table = table;
        }
    }
    p->bin[p->nbins++] = (hash_bin){.max_key = INT64_MAX};
}

void magnus_hash_plan_build(hash_plan *p, const magnus_context_s *ctx, int numeric,
                            size_t value_bytes, uint32_t group_cap) {
    plan_build(p, ctx, numeric, value_bytes, group_cap,
               magnus_accumulate_knobs_of(ctx)->hash_wide_bins);
}

static void capacity(const magnus_context_s *ctx, magnus_value_type type, bool wide,
                     int64_t *symbolic_products, int64_t *numeric_nnz) {
    hash_plan p;
    size_t vb = magnus_value_size(type);
    /* the keys of the bins do not depend on the group size */
    if (symbolic_products) {
        plan_build(&p, ctx, 0, vb, HASH_MAX_GROUP, wide);
        *symbolic_products = p.bin[p.nbins - 2].max_key;
    }
    if (numeric_nnz) {
        plan_build(&p, ctx, 1, vb, HASH_MAX_GROUP, wide);
        *numeric_nnz = p.bin[p.nbins - 2].max_key;
    }
}

void magnus_hash_budget_capacity(const magnus_context_s *ctx, magnus_value_type type,
                                 int64_t *symbolic_products, int64_t *numeric_nnz) {
    capacity(ctx, type, false, symbolic_products, numeric_nnz);
}

void magnus_hash_local_capacity(const magnus_context_s *ctx, magnus_value_type type,
                                int64_t *symbolic_products, int64_t *numeric_nnz) {
    capacity(ctx, type, magnus_accumulate_knobs_of(ctx)->hash_wide_bins, symbolic_products,
             numeric_nnz);
}

/* Dynamic local bytes of a launch of bin b (kernels/hash_rows.cl, hash_chunks.cl). */
uint64_t magnus_hash_bin_local_bytes(const hash_bin *b, int numeric, size_t value_bytes) {
    return hash_local_bytes(numeric, b->per_group, b->table, value_bytes);
}

magnus_status magnus_hash_bin_shape_of(magnus_hash_bin_shape *out, const magnus_context_s *ctx,
                                       magnus_value_type type, int numeric, int64_t key) {
    if (!out || !ctx)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_hash_bin_shape_of: NULL argument");
    memset(out, 0, sizeof *out);
    size_t vb = magnus_value_size(type);
    if (vb == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "magnus_hash_bin_shape_of: type %d",
                            (int)type);
    uint32_t cap = magnus_hash_group_cap(ctx);
    hash_plan p;
    magnus_hash_plan_build(&p, ctx, numeric != 0, vb, cap);
    if (key <= 0) return MAGNUS_SUCCESS;
    int b = 1;
    while (b < p.nbins - 1 && key > p.bin[b].max_key) b++;
    const hash_bin *bin = &p.bin[b];
    if (bin->table == 0) return MAGNUS_SUCCESS;
    out->table = bin->table;
    out->lanes = bin->lanes;
    out->per_group = bin->per_group;
    out->local_bytes = magnus_hash_bin_local_bytes(bin, numeric != 0, vb);
    return MAGNUS_SUCCESS;
}

/* Slots of the global table of an item with (capped) key `key`. */
uint64_t magnus_hash_global_slots(int numeric, int64_t key) {
    uint64_t k = key > 0 ? (uint64_t)key : 1;
    return numeric ? 2 * k : pow2_ceil(k + k / 3 + 1);
}

/*
 * The global bin: the items whose key exceeds what local memory holds get a global-memory
 * table each, in one scratch region sized from the configured bound, the free device memory
 * and the context's limit, processed in batches on the heavy queue; numeric entries are
 * compacted into C and sorted there, staged through local memory.
 */
#include "hash_private.h"
#include "kernels.h"

/* The global bin: one table per item in a scratch region, as few batches as the scratch
 * bound allows. Launched on the heavy queue. */
magnus_status magnus_hash_run_global(const hash_phase *ph, hash_work *w, int64_t bins_offset,
                                     int64_t count, magnus_hash_stats *st) {
    magnus_context ctx = ph->ctx;
    magnus_status s;
    int64_t *keys = NULL, *tables = NULL;
    int64_t *batch_start = NULL;
    size_t slot_bytes = hash_slot_bytes(ph->numeric, ph->value_bytes);

    /* capped keys of the global items, in bin order */
    if ((s = magnus_dbuf_alloc(ctx, (size_t)count * sizeof(int64_t), &w->gkeys))) return s;
    if ((s = magnus_k_hash_gather_keys(ctx, ph->cfg.main, ph->variant,
                                       (size_t)((count + HASH_BIN_GROUP - 1) / HASH_BIN_GROUP),
                                       HASH_BIN_GROUP, 0, &w->bins, bins_offset, count, ph->keys,
                                       ph->key_is_ptr, ph->key_cap, &w->gkeys)))
        return s;
    st->launches++;
    keys = magnus_host_malloc((size_t)count * sizeof *keys);
    tables = magnus_host_malloc((size_t)count * 2 * sizeof *tables);
    batch_start = magnus_host_malloc(((size_t)count + 1) * sizeof *batch_start);
    if (!keys || !tables || !batch_start) {
        s = magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "%s: global table plan", ph->what);
        goto done;
    }
    if ((s = magnus_dbuf_read(ctx, ph->cfg.main, keys, &w->gkeys, 0,
                              (size_t)count * sizeof *keys)))
        goto done;

    /* scratch: the configured bound (default: a quarter of the free device memory), but never
     * less than the largest table, never more than all tables together, at most half of what
     * a context memory limit leaves, each buffer within the device's largest allocation */
    uint64_t bound = ph->cfg.global_scratch_bytes;
    if (bound == 0) {
        uint64_t total = ctx->device.global_mem_bytes, used = ctx->memory_in_use;
        bound = total > used ? (total - used) / 4 : 0;
        if (bound < HASH_DEFAULT_SCRATCH) bound = HASH_DEFAULT_SCRATCH;
    }
    if (ctx->memory_limit > ctx->memory_in_use) {
        uint64_t half_left = (ctx->memory_limit - ctx->memory_in_use) / 2;
        if (half_left < bound) bound = half_left;
    }
    uint64_t bound_slots = bound / slot_bytes, largest = 0, all = 0;
    /* and each scratch buffer within the device's largest allocation */
    uint64_t widest = ph->numeric && ph->value_bytes > 4 ? ph->value_bytes : 4;
    if (ctx->device.max_alloc_bytes && bound_slots > ctx->device.max_alloc_bytes / widest)
        bound_slots = ctx->device.max_alloc_bytes / widest;
    /* table sizes first (they bound the scratch), then their offsets batch by batch */
    for (int64_t i = 0; i < count; i++) {
        uint64_t t = magnus_hash_global_slots(ph->numeric, keys[i]);
        tables[2 * i + 1] = (int64_t)t;
        if (t > largest) largest = t;
        all += t;
    }
    uint64_t scratch = bound_slots < largest ? largest : bound_slots;
    if (scratch > all) scratch = all;
    int64_t nbatches = 0;
    uint64_t used = 0;
    for (int64_t i = 0; i < count; i++) {
        uint64_t t = (uint64_t)tables[2 * i + 1];
        if (i == 0 || used + t > scratch) {
            batch_start[nbatches++] = i;
            used = 0;
        }
        tables[2 * i] = (int64_t)used;
        used += t;
    }
    batch_start[nbatches] = count;

    size_t key_bytes, val_bytes = 0;
    if (!magnus_mul_size((size_t)scratch, 4, &key_bytes) ||
        (ph->numeric && !magnus_mul_size((size_t)scratch, ph->value_bytes, &val_bytes))) {
        s = magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "%s: global hash tables of %llu slots",
                         ph->what, (unsigned long long)scratch);
        goto done;
    }
    if ((s = magnus_dbuf_alloc(ctx, (size_t)count * 2 * sizeof *tables, &w->tables)) ||
        (s = magnus_dbuf_alloc(ctx, key_bytes, &w->tkeys)) ||
        (ph->numeric && (s = magnus_dbuf_alloc(ctx, val_bytes, &w->tvals))))
        goto done;
    if ((s = magnus_dbuf_write(ctx, ph->cfg.main, &w->tables, 0, tables,
                               (size_t)count * 2 * sizeof *tables)))
        goto done;
    if (ph->cfg.heavy != ph->cfg.main &&
        (s = magnus_queue_depend(ctx, ph->cfg.heavy, ph->cfg.main)))
        goto done;

    /* numeric: a row is compacted into C and sorted there, in local-memory blocks of this
     * many entries for all but the widest merge steps (at most 8192: occupancy); a block of
     * mg_hash_sort_bytes fits what the budget leaves */
    uint64_t usable = ctx->device.local_mem_bytes > HASH_LOCAL_RESERVE
                          ? ctx->device.local_mem_bytes - HASH_LOCAL_RESERVE
                          : 0;
    uint64_t sort_block = pow2_floor(usable / slot_bytes);
    if (sort_block > HASH_SORT_BLOCK) sort_block = HASH_SORT_BLOCK;
    if (sort_block < 1) sort_block = 1;
    size_t sort_bytes = ph->numeric && sort_block > 1
                            ? (size_t)mg_hash_sort_bytes(sort_block, ph->value_bytes)
                            : 0;

    /* batches share the scratch: the heavy queue is in order, so each starts after the last */
    for (int64_t b = 0; b < nbatches; b++) {
        hash_launch l = {.bins = &w->bins,
                         .bins_offset = bins_offset + batch_start[b],
                         .count = batch_start[b + 1] - batch_start[b],
                         .global = 1,
                         .tables = &w->tables,
                         .table_index = batch_start[b],
                         .table_keys = &w->tkeys,
                         .table_vals = ph->numeric ? &w->tvals : &w->tkeys,
                         .sort_block = (uint32_t)sort_block};
        if ((s = magnus_hash_launch_bin(ph, &l, ph->cfg.heavy, (size_t)l.count, HASH_GLOBAL_GROUP,
                                        sort_bytes)))
            goto done;
        st->launches++;
    }
    st->items_global += count;
    st->global_batches += nbatches;
    uint64_t bytes = key_bytes + val_bytes;
    if (bytes > st->global_table_bytes) st->global_table_bytes = bytes;
done:
    magnus_host_free(keys);
    magnus_host_free(tables);
    magnus_host_free(batch_start);
    return s;
}

/*
 * Binning (kernels/hash_binning.cl): every item's key into a bin, a counting kernel and a fill
 * kernel that group the item ids by bin, the bin sizes read back to the host; and the buffers
 * of a phase, which binning allocates first.
 */
#include "hash_private.h"
#include "kernels.h"

/* Device buffers of one phase, freed together (the caller has waited for the queues). */
void magnus_hash_work_free(magnus_context ctx, hash_work *w) {
    magnus_dbuf *all[] = {&w->bounds, &w->sizes, &w->key_sum, &w->pos,  &w->bins,
                          &w->gkeys,  &w->tables, &w->tkeys,  &w->tvals};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) magnus_dbuf_free(ctx, all[i]);
}

/* Bins the items: sizes[] and offsets[] on the host, the grouped ids in w->bins. */
magnus_status magnus_hash_bin_items(const hash_phase *ph, const hash_plan *p, hash_work *w,
                                    uint32_t *sizes, int64_t *offsets, magnus_hash_stats *st) {
    magnus_context ctx = ph->ctx;
    magnus_queue_id q = ph->cfg.main;
    magnus_status s;
    int64_t bounds[HASH_MAX_BINS];
    uint32_t zeros[HASH_MAX_BINS] = {0};
    uint64_t key_sum = 0;
    for (int b = 0; b < p->nbins; b++) bounds[b] = p->bin[b].max_key;
    if ((s = magnus_dbuf_alloc(ctx, sizeof bounds, &w->bounds)) ||
        (s = magnus_dbuf_alloc(ctx, sizeof zeros, &w->sizes)) ||
        (s = magnus_dbuf_alloc(ctx, sizeof key_sum, &w->key_sum)) ||
        (s = magnus_dbuf_alloc(ctx, sizeof zeros, &w->pos)) ||
        (s = magnus_dbuf_alloc(ctx, (size_t)ph->count * sizeof(uint32_t), &w->bins)))
        return s;
    if ((s = magnus_dbuf_write(ctx, q, &w->bounds, 0, bounds, sizeof bounds)) ||
        (s = magnus_dbuf_write(ctx, q, &w->sizes, 0, zeros, sizeof zeros)) ||
        (s = magnus_dbuf_write(ctx, q, &w->key_sum, 0, &key_sum, sizeof key_sum)))
        return s;

    /* without an id list, keys stands in for it (has_ids 0: unread) */
    const magnus_dbuf *ids = ph->ids ? ph->ids : ph->keys;
    const int32_t has_ids = ph->ids ? 1 : 0;
    size_t groups = (size_t)((ph->count + HASH_BIN_GROUP - 1) / HASH_BIN_GROUP);
    if ((s = magnus_k_hash_bin_count(ctx, q, ph->variant, groups, HASH_BIN_GROUP, 0, ids,
                                     ph->ids_offset, has_ids, ph->count, ph->keys,
                                     ph->key_is_ptr, ph->key_cap, &w->bounds,
                                     (uint32_t)p->nbins, &w->sizes, &w->key_sum)))
        return s;
    if ((s = magnus_dbuf_read(ctx, q, sizes, &w->sizes, 0, sizeof(uint32_t) * p->nbins)) ||
        (s = magnus_dbuf_read(ctx, q, &key_sum, &w->key_sum, 0, sizeof key_sum)))
        return s;

    uint32_t pos[HASH_MAX_BINS] = {0};
    int64_t total = 0;
    for (int b = 0; b < p->nbins; b++) {
        offsets[b] = total;
        pos[b] = (uint32_t)total;
        total += sizes[b];
    }
    offsets[p->nbins] = total;
    if (total != ph->count)
        return magnus_error(MAGNUS_ERROR_INTERNAL, "%s: binning counted %lld of %lld items",
                            ph->what, (long long)total, (long long)ph->count);
    if ((s = magnus_dbuf_write(ctx, q, &w->pos, 0, pos, sizeof pos))) return s;
    if ((s = magnus_k_hash_bin_fill(ctx, q, ph->variant, groups, HASH_BIN_GROUP, 0, ids,
                                    ph->ids_offset, has_ids, ph->count, ph->keys, ph->key_is_ptr,
                                    ph->key_cap, &w->bounds, (uint32_t)p->nbins, &w->pos,
                                    &w->bins)))
        return s;
    st->launches += 2;
    st->key_total += (int64_t)key_sum;
    return MAGNUS_SUCCESS;
}

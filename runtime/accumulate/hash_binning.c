/*
 * Binning (kernels/hash_binning.cl): every item's key into a bin, a counting kernel and a fill
 * kernel that group the item ids by bin, the bin sizes read back to the host; and the buffers
 * of a phase, which binning allocates first.
 */
#include <string.h>

#include "hash_private.h"
#include "kernels.h"

/* Device buffers of one phase, freed together; queued work may still use them (freed blocks
 * are reused only after every queue has been waited for: device_pool.c). */
void magnus_hash_work_free(magnus_context ctx, hash_work *w) {
    magnus_dbuf *all[] = {&w->counts, &w->gkeys, &w->bins, &w->tables, &w->tkeys, &w->tvals};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) magnus_dbuf_free(ctx, all[i]);
}

/* Bins the items: sizes[] and offsets[] on the host, the grouped ids in w->bins. The bin
 * bounds are a constant table of the context (uploaded at the plan's first use), the counts
 * and the fill kernel's cursors share one buffer zeroed by one fill, and the fill kernel
 * finds each bin's offset from the counts itself: the one host wait is the read of the
 * counts, which the launches need. */
magnus_status magnus_hash_bin_items(const hash_phase *ph, const hash_plan *p, hash_work *w,
                                    uint32_t *sizes, int64_t *offsets, magnus_hash_stats *st) {
    magnus_context ctx = ph->ctx;
    magnus_queue_id q = ph->cfg.main;
    magnus_status s;
    int64_t bounds[HASH_MAX_BINS];
    uint32_t counts[MG_HASH_COUNT_WORDS];
    const uint32_t zero = 0;
    for (int b = 0; b < p->nbins; b++) bounds[b] = p->bin[b].max_key;
    const magnus_dbuf *bounds_buf = NULL;
    if ((s = magnus_context_constant(&bounds_buf, ctx, bounds,
                                     (size_t)p->nbins * sizeof bounds[0])) ||
        (s = magnus_dbuf_alloc(ctx, MG_HASH_BIN_WORDS * sizeof(uint32_t), &w->counts)) ||
        (s = magnus_dbuf_alloc(ctx, (size_t)ph->count * sizeof(uint32_t), &w->bins)))
        return s;
    if ((s = magnus_dbuf_fill(ctx, q, &w->counts, 0, &zero, sizeof zero,
                              MG_HASH_BIN_WORDS * sizeof(uint32_t))))
        return s;

    /* without an id list, keys stands in for it (has_ids 0: unread) */
    const magnus_dbuf *ids = ph->ids ? ph->ids : ph->keys;
    const int32_t has_ids = ph->ids ? 1 : 0;
    size_t groups = (size_t)((ph->count + HASH_BIN_GROUP - 1) / HASH_BIN_GROUP);
    if ((s = magnus_k_hash_bin_count(ctx, q, ph->variant, groups, HASH_BIN_GROUP, 0, ids,
                                     ph->ids_offset, has_ids, ph->count, ph->keys,
                                     ph->key_is_ptr, ph->key_cap, bounds_buf,
                                     (uint32_t)p->nbins, &w->counts)) ||
        /* queued behind the count on the same queue: it reads the finished counts */
        (s = magnus_k_hash_bin_fill(ctx, q, ph->variant, groups, HASH_BIN_GROUP, 0, ids,
                                    ph->ids_offset, has_ids, ph->count, ph->keys, ph->key_is_ptr,
                                    ph->key_cap, bounds_buf, (uint32_t)p->nbins, &w->counts,
                                    &w->bins)) ||
        (s = magnus_dbuf_read(ctx, q, counts, &w->counts, 0, sizeof counts)))
        return s;
    uint64_t key_sum;
    memcpy(&key_sum, &counts[MG_HASH_KEY_SUM_WORD], sizeof key_sum);

    int64_t total = 0;
    for (int b = 0; b < p->nbins; b++) {
        sizes[b] = counts[b];
        offsets[b] = total;
        total += sizes[b];
    }
    offsets[p->nbins] = total;
    if (total != ph->count)
        return magnus_error(MAGNUS_ERROR_INTERNAL, "%s: binning counted %lld of %lld items",
                            ph->what, (long long)total, (long long)ph->count);
    st->launches += 2;
    st->key_total += (int64_t)key_sum;
    return MAGNUS_SUCCESS;
}

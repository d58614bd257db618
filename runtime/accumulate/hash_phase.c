/*
 * One phase (symbolic or numeric, over rows or chunks): plan the bins from the local memory
 * budget, count and fill the bins on the device, read the bin sizes (the phase's one host
 * wait, unless items need global tables), size the global tables of the items too large for
 * local memory (or, for rows of a narrow enough C, launch them as dense rows), launch every
 * bin (largest first), and return with them queued.
 */
#include "hash_private.h"

#include <string.h>

/* The phase's work-group cap: the context's (magnus_hash_group_cap), within the largest group
 * its local kernel accepts on this device (the backend's kernel_limits), which must hold the
 * shared groups of small tables. */
static magnus_status phase_group_cap(const hash_phase *ph, uint32_t *cap) {
    static const magnus_kernel_id local_kernel[2][2] = {
        {MAGNUS_KERNEL_hash_rows_symbolic_local, MAGNUS_KERNEL_hash_rows_numeric_local},
        {MAGNUS_KERNEL_hash_chunks_symbolic_local, MAGNUS_KERNEL_hash_chunks_numeric_local}};
    *cap = magnus_hash_group_cap(ph->ctx);
    magnus_kernel_limits lim;
    const magnus_kernel_id kernel =
        local_kernel[ph->source == HASH_SOURCE_CHUNKS][ph->numeric != 0];
    magnus_status s = magnus_kernel_limits_get(&lim, ph->ctx, ph->variant, kernel);
    if (s) return s;
    if (lim.max_group_size == 0) return MAGNUS_SUCCESS; /* not reported */
    if (lim.max_group_size < HASH_SMALL_GROUP)
        return magnus_error(MAGNUS_ERROR_FEATURE_UNSUPPORTED,
                            "%s: %s accepts work groups of %llu items on this device, the hash "
                            "accumulator needs %d", ph->what, magnus_kernel_name(kernel),
                            (unsigned long long)lim.max_group_size, HASH_SMALL_GROUP);
    while (*cap > lim.max_group_size) *cap /= 2;
    return MAGNUS_SUCCESS;
}

/* After an error: the queues drained (their own error, if any, is secondary), the bins
 * freed. */
static magnus_status phase_failed(const hash_phase *ph, hash_binned *b, magnus_status s) {
    magnus_context_finish_after_error(ph->ctx, s);
    magnus_hash_binned_free(ph->ctx, b);
    return s;
}

magnus_status magnus_hash_phase_bin(const hash_phase *ph, hash_binned *b, magnus_hash_stats *st) {
    magnus_context ctx = ph->ctx;
    memset(b, 0, sizeof *b);
    st->items += ph->count;
    if (ph->count == 0) return MAGNUS_SUCCESS;
    if (ph->count > (int64_t)UINT32_MAX)
        return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "%s: %lld items exceed 32-bit ids",
                            ph->what, (long long)ph->count);
    if (ctx->device.max_work_group_size != 0 && ctx->device.max_work_group_size < HASH_BIN_GROUP)
        return magnus_error(MAGNUS_ERROR_FEATURE_UNSUPPORTED,
                            "%s: the hash kernels need work groups of %d items (device: %llu)",
                            ph->what, HASH_BIN_GROUP,
                            (unsigned long long)ctx->device.max_work_group_size);
    uint32_t cap;
    magnus_status s = phase_group_cap(ph, &cap);
    if (s) return s;
    magnus_hash_plan_build(&b->plan, ctx, ph->numeric, ph->value_bytes, cap);
    if (ph->empty_items_need_work) b->plan.bin[0].max_key = -1;
    b->dense = magnus_hash_dense_rows_apply(ph);
    if (b->dense) magnus_hash_dense_rows_cut(&b->plan, ph);
    if ((s = magnus_hash_bin_items(ph, &b->plan, &b->w, b->sizes, b->offsets, st)))
        return phase_failed(ph, b, s);
    b->binned = true;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_hash_phase_launch(const hash_phase *ph, hash_binned *b,
                                       magnus_hash_stats *st) {
    if (!b->binned) return MAGNUS_SUCCESS; /* no items */
    magnus_context ctx = ph->ctx;
    magnus_status s;
    const int last = b->plan.nbins - 1;
    if (b->sizes[last] > 0 &&
        (s = b->dense ? magnus_hash_run_dense_rows(ph, &b->w, b->offsets[last], b->sizes[last], st)
                      : magnus_hash_run_global(ph, &b->w, b->offsets[last], b->sizes[last], st)))
        return phase_failed(ph, b, s);
    /* Only the queues given work are ordered (through OpenCL each recorded event is a marker
     * and a flush, each wait a barrier: docs/performance.md, "One queue for a phase of one
     * launch"). A phase of one local launch and no global work has nothing to run side by
     * side: it runs on the main queue, unordered. Else the largest local launch joins the
     * global work on heavy (which the global work ordered after main already), the others go
     * to light, and main waits for those that got work. Below, the main queue stands for
     * "none": ordering a queue after itself orders nothing (queue.c). */
    const magnus_queue_id main = ph->cfg.main;
    const bool global = b->sizes[last] > 0;
    const int launches = magnus_hash_local_launches(ph, &b->plan, b->sizes, b->offsets);
    const bool alone = !global && launches <= 1;
    const magnus_queue_id first = alone ? main : ph->cfg.heavy;
    const magnus_queue_id others = alone ? main : ph->cfg.light;
    const magnus_queue_id others_used = launches >= 2 ? others : main;
    if ((s = magnus_queue_fork(ctx, main, global ? main : first, others_used)) ||
        (s = magnus_hash_run_local(ph, &b->plan, &b->w, b->sizes, b->offsets, first, others,
                                   st)) ||
        (s = magnus_queue_depend(ctx, main, first)) ||
        (others_used != first && (s = magnus_queue_depend(ctx, main, others_used))))
        return phase_failed(ph, b, s);
    /* The bins' kernels stay queued: the work buffers may be freed now, since a freed buffer
     * is reused only after every queue has been waited for (device_pool.c) or is released by
     * the backend after the queued work (backend.h), and whoever reads the outputs orders
     * itself after cfg->main (the same queue, or magnus_queue_depend). Not waiting here keeps
     * the device busy while the host queues the next step. */
    magnus_hash_binned_free(ctx, b);
    return MAGNUS_SUCCESS;
}

void magnus_hash_binned_free(magnus_context ctx, hash_binned *b) {
    magnus_hash_work_free(ctx, &b->w);
    b->binned = false;
}

magnus_status magnus_hash_run_phase_sync(const hash_phase *ph, magnus_hash_stats *stats) {
    magnus_hash_stats local_stats = {0};
    magnus_hash_stats *st = stats ? stats : &local_stats;
    hash_binned b;
    magnus_status s = magnus_hash_phase_bin(ph, &b, st);
    return s ? s : magnus_hash_phase_launch(ph, &b, st);
}

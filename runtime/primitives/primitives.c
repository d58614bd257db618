/* Host side of the device primitives (see primitives.h and kernels/primitives.cl). Launches
 * go through the typed wrappers of kernels.h; local-memory sizes come from the layouts the
 * kernels use (kernels/shared/prim_layout.h). */
#include <string.h>

#include "kernels.h"
#include "primitives.h"

#define PRIM_MAX_GROUP_SIZE 256
#define PRIM_VARIANT MAGNUS_VARIANT_F32 /* integer kernels: the module every device has */

static size_t max_groups_override;

void magnus_prim_set_max_groups(size_t groups) { max_groups_override = groups; }

size_t magnus_prim_max_groups(const magnus_context_s *ctx) {
    if (max_groups_override) return max_groups_override;
    size_t groups = (size_t)(ctx->device.compute_units > 0 ? ctx->device.compute_units : 1) * 32;
    return groups < 64 ? 64 : groups > 65535 ? 65535 : groups;
}

size_t magnus_prim_group_size(const magnus_context_s *ctx, size_t local_bytes_per_item) {
    size_t gs = PRIM_MAX_GROUP_SIZE;
    while (gs > 1 && (gs > ctx->device.max_work_group_size ||
                      gs * local_bytes_per_item > ctx->device.local_mem_bytes))
        gs >>= 1;
    if (gs * local_bytes_per_item > ctx->device.local_mem_bytes) return 0;
    return gs;
}

uint64_t magnus_prim_tiles(uint64_t n, size_t group_size) {
    uint64_t tile = (uint64_t)group_size * MAGNUS_PRIM_ITEMS;
    return n / tile + (n % tile != 0);
}

/* Groups for `units` independent pieces of work (tiles, or items of a grid-stride loop). */
static size_t groups_for(const magnus_context_s *ctx, uint64_t units) {
    size_t cap = magnus_prim_max_groups(ctx);
    return units < cap ? (size_t)units : cap;
}

static magnus_status group_size_or_error(const magnus_context_s *ctx, size_t bytes_per_item,
                                         const char *what, size_t *gs) {
    *gs = magnus_prim_group_size(ctx, bytes_per_item);
    if (*gs == 0)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s: a local memory budget of %llu bytes is too small", what,
                            (unsigned long long)ctx->device.local_mem_bytes);
    return MAGNUS_SUCCESS;
}

/* The buffer exists and holds `count` elements of `size` bytes. */
static magnus_status check_buffer(const magnus_dbuf *b, uint64_t count, size_t size,
                                  const char *what, const char *name) {
    if (!b) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "%s: %s is NULL", what, name);
    if (count == 0) return MAGNUS_SUCCESS;
    if (!b->mem)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "%s: %s is not allocated", what, name);
    if (count > b->bytes / size)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s: %s holds %zu bytes, %llu elements of %zu bytes need more", what,
                            name, b->bytes, (unsigned long long)count, size);
    return MAGNUS_SUCCESS;
}

/* ---- scan ------------------------------------------------------------------------------- */

/* Kernels and sizes of one scan flavour (the flavours' wrappers share one type: buffers carry
 * no element type on the host). */
typedef struct scan_kind {
    magnus_k_prim_scan_reduce_u32_fn *reduce;
    magnus_k_prim_scan_tiles_u32_fn *tiles;
    size_t in_size, out_size;
    const struct scan_kind *sums; /* the flavour that scans the tile sums */
} scan_kind;

static const scan_kind scan_u32 = {magnus_k_prim_scan_reduce_u32, magnus_k_prim_scan_tiles_u32, 4,
                                   4, &scan_u32};
static const scan_kind scan_u64 = {magnus_k_prim_scan_reduce_u64, magnus_k_prim_scan_tiles_u64, 8,
                                   8, &scan_u64};
static const scan_kind scan_u32_u64 = {magnus_k_prim_scan_reduce_u32_u64,
                                       magnus_k_prim_scan_tiles_u32_u64, 4, 8, &scan_u64};

/*
 * One level: with one tile, scan it directly; with at most the context's
 * scan_one_group_tiles, one work group walks them in order, carrying the running total (one
 * launch); else reduce tiles into sums, scan the sums (recursively, in place), and scan the
 * tiles with the scanned sums as carries. The last tile's group writes the grand total to
 * total_buf either way.
 */
static magnus_status scan_level(magnus_context ctx, magnus_queue_id q, const scan_kind *k,
                                magnus_dbuf *out, const magnus_dbuf *in, uint64_t n,
                                magnus_dbuf *total_buf) {
    size_t gs;
    magnus_status s =
        group_size_or_error(ctx, (size_t)mg_prim_tiles_bytes(1, k->out_size), "scan", &gs);
    if (s) return s;
    uint64_t ntiles = magnus_prim_tiles(n, gs);
    size_t groups = groups_for(ctx, ntiles);
    size_t tiles_local = (size_t)mg_prim_tiles_bytes(gs, k->out_size);
    /* one tile, or few enough for one group to walk: one launch (total_buf stands in for the
     * carries, unread) */
    if (ntiles == 1 || ntiles <= ctx->scan_one_group_tiles)
        return k->tiles(ctx, q, PRIM_VARIANT, 1, gs, tiles_local, in, out, n, total_buf,
                        ntiles == 1 ? 0 : 2, total_buf, ntiles);
    magnus_dbuf sums;
    if ((s = magnus_dbuf_alloc(ctx, (size_t)ntiles * k->out_size, &sums))) return s;
    s = k->reduce(ctx, q, PRIM_VARIANT, groups, gs, (size_t)mg_prim_reduce_bytes(gs, k->out_size),
                  in, n, &sums, ntiles);
    if (!s) s = scan_level(ctx, q, k->sums, &sums, &sums, ntiles, total_buf);
    if (!s)
        s = k->tiles(ctx, q, PRIM_VARIANT, groups, gs, tiles_local, in, out, n, &sums, 1,
                     total_buf, ntiles);
    magnus_dbuf_free(ctx, &sums);
    return s;
}

static magnus_status scan(magnus_context ctx, magnus_queue_id q, const scan_kind *k,
                          magnus_dbuf *out, const magnus_dbuf *in, uint64_t n, uint64_t *total,
                          const char *what) {
    magnus_status s;
    if (total) *total = 0;
    if ((s = magnus_queue_check(ctx, q, what)) ||
        (s = check_buffer(in, n, k->in_size, what, "in")) ||
        (s = check_buffer(out, n, k->out_size, what, "out")))
        return s;
    if (k->in_size != k->out_size && n > 0 && in->mem == out->mem)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "%s: in and out must differ", what);
    if (n == 0) return MAGNUS_SUCCESS;
    magnus_dbuf total_buf;
    if ((s = magnus_dbuf_alloc(ctx, 8, &total_buf))) return s;
    s = scan_level(ctx, q, k, out, in, n, &total_buf);
    if (!s && total) {
        uint64_t value = 0;
        s = magnus_dbuf_read(ctx, q, &value, &total_buf, 0, k->out_size);
        *total = value; /* a 4-byte total lands in the low half (little-endian hosts) */
        if (k->out_size == 4) *total = (uint32_t)value;
    }
    magnus_dbuf_free(ctx, &total_buf);
    return s;
}

magnus_status magnus_prim_scan_u32(magnus_context ctx, magnus_queue_id q, magnus_dbuf *out,
                                   const magnus_dbuf *in, uint64_t n, uint64_t *total) {
    return scan(ctx, q, &scan_u32, out, in, n, total, "magnus_prim_scan_u32");
}

magnus_status magnus_prim_scan_u64(magnus_context ctx, magnus_queue_id q, magnus_dbuf *out,
                                   const magnus_dbuf *in, uint64_t n, uint64_t *total) {
    return scan(ctx, q, &scan_u64, out, in, n, total, "magnus_prim_scan_u64");
}

magnus_status magnus_prim_scan_u32_to_u64(magnus_context ctx, magnus_queue_id q, magnus_dbuf *out,
                                          const magnus_dbuf *in, uint64_t n, uint64_t *total) {
    return scan(ctx, q, &scan_u32_u64, out, in, n, total, "magnus_prim_scan_u32_to_u64");
}

/* ---- partition -------------------------------------------------------------------------- */

/* Both partitions: mode 0 reads flags, mode 1 compares row lengths from rowptr with tau. */
static magnus_status partition(magnus_context ctx, magnus_queue_id q, int mode,
                               const magnus_dbuf *source, int64_t tau, uint64_t n,
                               magnus_dbuf *above, magnus_dbuf *below, uint64_t *n_above,
                               uint64_t *n_below, const char *what) {
    magnus_status s;
    if (above) memset(above, 0, sizeof *above);
    if (below) memset(below, 0, sizeof *below);
    if (n_above) *n_above = 0;
    if (n_below) *n_below = 0;
    if ((s = magnus_queue_check(ctx, q, what))) return s;
    if (mode == 0 && (s = check_buffer(source, n, 4, what, "flags"))) return s;
    if (mode == 1 && (s = check_buffer(source, n + 1, 8, what, "rowptr"))) return s;
    if (n > ((uint64_t)1 << 32))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s: %llu elements; the index lists are 32-bit (at most 2^32)", what,
                            (unsigned long long)n);
    size_t gs;
    if ((s = group_size_or_error(ctx, (size_t)mg_prim_partition_bytes(1), what, &gs))) return s;
    const size_t local_bytes = (size_t)mg_prim_partition_bytes(gs);
    uint64_t ntiles = magnus_prim_tiles(n, gs);
    size_t groups = groups_for(ctx, ntiles);
    magnus_dbuf counts = {0}, list_above = {0}, list_below = {0};
    uint64_t count_above = 0;
    if (n > 0) {
        if ((s = magnus_dbuf_alloc(ctx, (size_t)ntiles * 8, &counts))) return s;
        /* the buffer the mode does not read: source stands in for it */
        s = magnus_k_prim_partition_count(ctx, q, PRIM_VARIANT, groups, gs, local_bytes, mode,
                                          source, source, tau, n, &counts, ntiles);
        if (!s) s = magnus_prim_scan_u64(ctx, q, &counts, &counts, ntiles, &count_above);
    }
    if (!s && above) s = magnus_dbuf_alloc(ctx, (size_t)count_above * 4, &list_above);
    if (!s && below) s = magnus_dbuf_alloc(ctx, (size_t)(n - count_above) * 4, &list_below);
    if (!s && n > 0) {
        /* An unwanted list is never written; any live buffer stands in for it. */
        s = magnus_k_prim_partition_scatter(ctx, q, PRIM_VARIANT, groups, gs, local_bytes, mode,
                                            source, source, tau, n, &counts,
                                            above ? &list_above : &counts,
                                            below ? &list_below : &counts, above != NULL,
                                            below != NULL, ntiles);
    }
    magnus_dbuf_free(ctx, &counts);
    if (s) {
        magnus_dbuf_free(ctx, &list_above);
        magnus_dbuf_free(ctx, &list_below);
        return s;
    }
    if (above) *above = list_above;
    if (below) *below = list_below;
    if (n_above) *n_above = count_above;
    if (n_below) *n_below = n - count_above;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_prim_partition_flags(magnus_context ctx, magnus_queue_id q,
                                          const magnus_dbuf *flags, uint64_t n,
                                          magnus_dbuf *idx_true, magnus_dbuf *idx_false,
                                          uint64_t *n_true, uint64_t *n_false) {
    return partition(ctx, q, 0, flags, 0, n, idx_true, idx_false, n_true, n_false,
                     "magnus_prim_partition_flags");
}

magnus_status magnus_prim_partition_threshold(magnus_context ctx, magnus_queue_id q,
                                              const magnus_dbuf *rowptr, uint64_t n, int64_t tau,
                                              magnus_dbuf *idx_above, magnus_dbuf *idx_below,
                                              uint64_t *n_above, uint64_t *n_below) {
    return partition(ctx, q, 1, rowptr, tau, n, idx_above, idx_below, n_above, n_below,
                     "magnus_prim_partition_threshold");
}

/* ---- histogram -------------------------------------------------------------------------- */

static magnus_status histogram(magnus_context ctx, magnus_queue_id q, magnus_dbuf *bins,
                               uint32_t nbins, const magnus_dbuf *keys, uint64_t n,
                               size_t count_size, const char *what) {
    magnus_status s;
    if ((s = magnus_queue_check(ctx, q, what)) || (s = check_buffer(keys, n, 4, what, "keys")) ||
        (s = check_buffer(bins, nbins, count_size, what, "bins")))
        return s;
    if (count_size == 8 && !ctx->device.atomic64)
        return magnus_error(MAGNUS_ERROR_FEATURE_UNSUPPORTED,
                            "%s: the device has no 64-bit atomics", what);
    if (nbins == 0) return MAGNUS_SUCCESS;
    uint64_t zero = 0;
    if ((s = magnus_dbuf_fill(ctx, q, bins, 0, &zero, count_size, (size_t)nbins * count_size)))
        return s;
    if (n == 0) return MAGNUS_SUCCESS;
    const bool wide = count_size == 8;
    size_t gs = magnus_prim_group_size(ctx, 0);
    size_t local_bytes = (size_t)mg_prim_histogram_bytes(nbins);
    if (local_bytes <= ctx->device.local_mem_bytes) {
        /* About 16 keys per work item, so a group's flush (nbins atomics) is amortised; and
         * enough groups that no group counts 2^31 keys into its 32-bit local bins. */
        uint64_t per_group = (uint64_t)gs * 16;
        size_t groups = groups_for(ctx, n / per_group + 1);
        uint64_t min_groups = (n >> 31) + 1;
        if (groups < min_groups) groups = (size_t)min_groups;
        magnus_k_prim_histogram_local_u32_fn *local =
            wide ? magnus_k_prim_histogram_local_u64 : magnus_k_prim_histogram_local_u32;
        return local(ctx, q, PRIM_VARIANT, groups, gs, local_bytes, keys, n, bins, nbins);
    }
    magnus_k_prim_histogram_global_u32_fn *global =
        wide ? magnus_k_prim_histogram_global_u64 : magnus_k_prim_histogram_global_u32;
    return global(ctx, q, PRIM_VARIANT, groups_for(ctx, n / gs + 1), gs, 0, keys, n, bins, nbins);
}

magnus_status magnus_prim_histogram_u32(magnus_context ctx, magnus_queue_id q, magnus_dbuf *bins,
                                        uint32_t nbins, const magnus_dbuf *keys, uint64_t n) {
    return histogram(ctx, q, bins, nbins, keys, n, 4, "magnus_prim_histogram_u32");
}

magnus_status magnus_prim_histogram_u64(magnus_context ctx, magnus_queue_id q, magnus_dbuf *bins,
                                        uint32_t nbins, const magnus_dbuf *keys, uint64_t n) {
    return histogram(ctx, q, bins, nbins, keys, n, 8, "magnus_prim_histogram_u64");
}

/* ---- fill and gather -------------------------------------------------------------------- */

/* The checks of a fill of n elements of `size` bytes from offset on; *gs is the work group
 * size of its launch, 0 when there is nothing to launch (n == 0 or an error). */
static magnus_status fill_check(magnus_context ctx, magnus_queue_id q, const magnus_dbuf *buf,
                                uint64_t offset, uint64_t n, size_t size, const char *what,
                                size_t *gs) {
    magnus_status s;
    uint64_t end;
    *gs = 0;
    if ((s = magnus_queue_check(ctx, q, what))) return s;
    if (__builtin_add_overflow(offset, n, &end))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "%s: offset + n overflows", what);
    if ((s = check_buffer(buf, n ? end : 0, size, what, "buf")) || n == 0) return s;
    *gs = magnus_prim_group_size(ctx, 0);
    return MAGNUS_SUCCESS;
}

/* The fills of 4- and 8-byte values: one check, one launch shape, the kernel of the width. */
static magnus_status fill(magnus_context ctx, magnus_queue_id q, magnus_dbuf *buf,
                          uint64_t offset, uint64_t n, size_t width, uint64_t value,
                          const char *what) {
    size_t gs;
    magnus_status s = fill_check(ctx, q, buf, offset, n, width, what, &gs);
    if (s || gs == 0) return s;
    const size_t groups = groups_for(ctx, n / gs + 1);
    return width == 4 ? magnus_k_prim_fill_u32(ctx, q, PRIM_VARIANT, groups, gs, 0, buf, offset,
                                               n, (uint32_t)value)
                      : magnus_k_prim_fill_u64(ctx, q, PRIM_VARIANT, groups, gs, 0, buf, offset,
                                               n, value);
}

magnus_status magnus_prim_fill_u32(magnus_context ctx, magnus_queue_id q, magnus_dbuf *buf,
                                   uint64_t offset, uint64_t n, uint32_t value) {
    return fill(ctx, q, buf, offset, n, 4, value, "magnus_prim_fill_u32");
}

magnus_status magnus_prim_fill_u64(magnus_context ctx, magnus_queue_id q, magnus_dbuf *buf,
                                   uint64_t offset, uint64_t n, uint64_t value) {
    return fill(ctx, q, buf, offset, n, 8, value, "magnus_prim_fill_u64");
}

magnus_status magnus_prim_long_segments(magnus_context ctx, magnus_queue_id q,
                                        const magnus_dbuf *ptr, uint64_t n, uint64_t threshold,
                                        magnus_long_segments *out) {
    const char *what = "magnus_prim_long_segments";
    size_t gs;
    memset(out, 0, sizeof *out);
    magnus_status s = fill_check(ctx, q, ptr, 0, n + 1, 8, what, &gs);
    if (s || n == 0) return s;
    if ((s = group_size_or_error(ctx, 16, what, &gs))) return s;
    /* few groups: the host adds one (count, length) pair per group */
    size_t groups = groups_for(ctx, n / gs + 1);
    if (groups > 256) groups = 256;
    uint64_t part[2 * 256];
    magnus_dbuf parts = {0};
    if ((s = magnus_dbuf_alloc(ctx, groups * 16, &parts))) return s;
    if (!(s = magnus_k_prim_long_segments(ctx, q, PRIM_VARIANT, groups, gs, gs * 16, ptr, n,
                                          threshold, &parts)))
        s = magnus_dbuf_read(ctx, q, part, &parts, 0, groups * 16);
    if (s) magnus_queue_finish(ctx, q); /* the kernel may still write parts */
    magnus_dbuf_free(ctx, &parts);
    if (s) return s;
    for (size_t g = 0; g < groups; g++) {
        out->count += part[2 * g];
        out->length += part[2 * g + 1];
    }
    return MAGNUS_SUCCESS;
}

static magnus_status gather(magnus_context ctx, magnus_queue_id q, size_t size, magnus_dbuf *out,
                            const magnus_dbuf *in, uint64_t in_count, const magnus_dbuf *idx,
                            uint64_t n, const char *what) {
    magnus_status s;
    if ((s = magnus_queue_check(ctx, q, what)) || (s = check_buffer(out, n, size, what, "out")) ||
        (s = check_buffer(idx, n, 4, what, "idx")) ||
        (s = check_buffer(in, in_count, size, what, "in")) || n == 0)
        return s;
    if (in->mem == out->mem)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "%s: out must not be in", what);
    /* A kernel needs a live buffer even when in_count == 0 (it is then never read). */
    const magnus_dbuf *source = in->mem ? in : idx;
    size_t gs = magnus_prim_group_size(ctx, 0);
    magnus_k_prim_gather_u32_fn *kernel =
        size == 8 ? magnus_k_prim_gather_u64 : magnus_k_prim_gather_u32;
    return kernel(ctx, q, PRIM_VARIANT, groups_for(ctx, n / gs + 1), gs, 0, out, source, in_count,
                  idx, n);
}

magnus_status magnus_prim_gather_u32(magnus_context ctx, magnus_queue_id q, magnus_dbuf *out,
                                     const magnus_dbuf *in, uint64_t in_count,
                                     const magnus_dbuf *idx, uint64_t n) {
    return gather(ctx, q, 4, out, in, in_count, idx, n, "magnus_prim_gather_u32");
}

magnus_status magnus_prim_gather_u64(magnus_context ctx, magnus_queue_id q, magnus_dbuf *out,
                                     const magnus_dbuf *in, uint64_t in_count,
                                     const magnus_dbuf *idx, uint64_t n) {
    return gather(ctx, q, 8, out, in, in_count, idx, n, "magnus_prim_gather_u64");
}

magnus_status magnus_prim_gather_values(magnus_context ctx, magnus_queue_id q,
                                        magnus_value_type type, magnus_dbuf *out,
                                        const magnus_dbuf *in, uint64_t in_count,
                                        const magnus_dbuf *idx, uint64_t n) {
    size_t size = magnus_value_size(type);
    if (size == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "magnus_prim_gather_values: type %d",
                            (int)type);
    return gather(ctx, q, size, out, in, in_count, idx, n, "magnus_prim_gather_values");
}

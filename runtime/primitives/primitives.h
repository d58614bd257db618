/*
 * Device-wide primitives on accounted device buffers (kernels/primitives.cl): exclusive scan,
 * flagged partition (stream compaction into two index lists), histogram, fill and gather.
 *
 * Common guarantees:
 *   - Element counts are 64-bit; every size from 0 up works (beyond 2^31 and 2^32 where the
 *     element types allow), limited only by device memory. n == 0 launches nothing.
 *   - Work is queued on `q` in order. A call returns before the device finishes unless it
 *     must bring a result to the host (a scan's total when asked for, a partition's counts):
 *     then the host waits for `q` (everything queued on it before the call, and the call's
 *     own work up to the read) and the call says "Waits" below. Fills, histograms, gathers
 *     and scans without a total never wait.
 *   - Buffers are used from element 0; a buffer too small for n elements is refused with
 *     MAGNUS_ERROR_INVALID_ARGUMENT (nothing is launched).
 *   - Temporary device memory goes through magnus_dbuf_alloc (it counts against the
 *     context's limit) and is released before the call returns.
 *   - Work groups never wait on each other (no decoupled look-back): scans are multi-pass
 *     (reduce tiles, scan the tile sums recursively, scan tiles with their carry).
 *   - Integer kernels come from the float32 module, so they run on devices without fp64.
 *   - Work group sizes shrink to fit the context's local-memory budget.
 */
#ifndef MAGNUS_PRIMITIVES_H
#define MAGNUS_PRIMITIVES_H

#include "device_runtime.h"
#include "shared/prim_layout.h"

/*
 * out[i] = in[0] + ... + in[i-1] (exclusive), out[0] = 0, in wrap-around arithmetic of the
 * output type. in and out may be the same buffer (an in-place scan). If total is non-NULL it
 * receives the sum of all n inputs. Waits when total is non-NULL (n > 0): it is read back
 * after the scan, so q is idle and `out` complete on return; with total NULL it only queues.
 * The usual CSR idiom: counts in rowptr[0..rows-1], rowptr[rows] = 0, scan rows+1 elements
 * in place.
 */
magnus_status magnus_prim_scan_u32(magnus_context ctx, magnus_queue_id q, magnus_dbuf *out,
                                   const magnus_dbuf *in, uint64_t n, uint64_t *total);
magnus_status magnus_prim_scan_u64(magnus_context ctx, magnus_queue_id q, magnus_dbuf *out,
                                   const magnus_dbuf *in, uint64_t n, uint64_t *total);
/* 32-bit inputs, 64-bit outputs and total: never wraps below 2^64. in and out must differ.
 * Waits as the scans above. */
magnus_status magnus_prim_scan_u32_to_u64(magnus_context ctx, magnus_queue_id q, magnus_dbuf *out,
                                          const magnus_dbuf *in, uint64_t n, uint64_t *total);

/*
 * Stable partition of 0..n-1 by a flag: *idx_true receives, in increasing order, the indices i
 * with flags[i] != 0 (uint32 flags), *idx_false the others, also in order; *n_true and *n_false
 * their counts. The lists are NEW buffers of exactly count * 4 bytes (uint32 indices; at
 * least one byte when empty) that the caller frees with magnus_dbuf_free. Pass NULL for a
 * list that is not wanted; NULL counts are not written. n is at most 2^32 (32-bit indices).
 * Waits (n > 0): the counts, which size the lists, are read back, so everything queued on q
 * before the call is complete on return; the scatter into the lists is queued after that
 * read and may still be running. On error nothing is allocated.
 */
magnus_status magnus_prim_partition_flags(magnus_context ctx, magnus_queue_id q,
                                          const magnus_dbuf *flags, uint64_t n,
                                          magnus_dbuf *idx_true, magnus_dbuf *idx_false,
                                          uint64_t *n_true, uint64_t *n_false);
/*
 * gMAGNUS's ThreshPartition: the same with the flag rowptr[i+1] - rowptr[i] > tau, from n+1
 * int64 row pointers (rows longer than tau are "above"). (Inputs come before the outputs in
 * both partitions, as in the paper's ThreshPartition(rowPtr, tau).) Waits as
 * magnus_prim_partition_flags.
 */
magnus_status magnus_prim_partition_threshold(magnus_context ctx, magnus_queue_id q,
                                              const magnus_dbuf *rowptr, uint64_t n, int64_t tau,
                                              magnus_dbuf *idx_above, magnus_dbuf *idx_below,
                                              uint64_t *n_above, uint64_t *n_below);

/*
 * bins[k] = number of i < n with keys[i] == k (uint32 keys), for k < nbins; keys >= nbins are
 * not counted. bins is overwritten. Uses a local-memory histogram per work group when nbins
 * fits the local budget, global atomics otherwise. The _u64 form (64-bit counts) needs
 * device_info.atomic64, else MAGNUS_ERROR_FEATURE_UNSUPPORTED.
 */
magnus_status magnus_prim_histogram_u32(magnus_context ctx, magnus_queue_id q, magnus_dbuf *bins,
                                        uint32_t nbins, const magnus_dbuf *keys, uint64_t n);
magnus_status magnus_prim_histogram_u64(magnus_context ctx, magnus_queue_id q, magnus_dbuf *bins,
                                        uint32_t nbins, const magnus_dbuf *keys, uint64_t n);

/* The segments i < n of the row pointer ptr (n + 1 uint64 offsets) longer than threshold
 * elements: how many, and their elements together. Waits for q (read back). */
typedef struct magnus_long_segments {
    uint64_t count, length;
} magnus_long_segments;
magnus_status magnus_prim_long_segments(magnus_context ctx, magnus_queue_id q,
                                        const magnus_dbuf *ptr, uint64_t n, uint64_t threshold,
                                        magnus_long_segments *out);

/* buf[offset + i] = value for i < n (offset and n in elements). */
magnus_status magnus_prim_fill_u32(magnus_context ctx, magnus_queue_id q, magnus_dbuf *buf,
                                   uint64_t offset, uint64_t n, uint32_t value);
magnus_status magnus_prim_fill_u64(magnus_context ctx, magnus_queue_id q, magnus_dbuf *buf,
                                   uint64_t offset, uint64_t n, uint64_t value);

/*
 * out[i] = in[idx[i]] for i < n (uint32 indices); an index >= in_count yields 0 rather than a
 * read outside `in`. out must not be in. The _values form gathers float or double values
 * (bit copies, so it works without fp64 arithmetic).
 */
magnus_status magnus_prim_gather_u32(magnus_context ctx, magnus_queue_id q, magnus_dbuf *out,
                                     const magnus_dbuf *in, uint64_t in_count,
                                     const magnus_dbuf *idx, uint64_t n);
magnus_status magnus_prim_gather_u64(magnus_context ctx, magnus_queue_id q, magnus_dbuf *out,
                                     const magnus_dbuf *in, uint64_t in_count,
                                     const magnus_dbuf *idx, uint64_t n);
magnus_status magnus_prim_gather_values(magnus_context ctx, magnus_queue_id q,
                                        magnus_value_type type, magnus_dbuf *out,
                                        const magnus_dbuf *in, uint64_t in_count,
                                        const magnus_dbuf *idx, uint64_t n);

/*
 * Launch geometry, exposed for tests. A tile is MAGNUS_PRIM_ITEMS (4) elements per work item
 * (MG_PRIM_ITEMS, which the kernels use: kernels/shared/prim_layout.h).
 * magnus_prim_group_size: the power-of-two work group size (at most 256) whose local memory,
 * local_bytes_per_item per work item, fits the context's budget; 0 if none does.
 * magnus_prim_set_max_groups: caps the groups of one launch (0 restores the default, 32 per
 * compute unit, 64..65535); kernels stride over the tiles beyond the cap, so tests can take
 * that path with small inputs. Process-wide; for tests.
 */
#define MAGNUS_PRIM_ITEMS MG_PRIM_ITEMS
size_t magnus_prim_group_size(const magnus_context_s *ctx, size_t local_bytes_per_item);
void magnus_prim_set_max_groups(size_t groups);
size_t magnus_prim_max_groups(const magnus_context_s *ctx);
/* Tiles for n elements with groups of group_size: ceil(n / (group_size * PRIM_ITEMS)). */
uint64_t magnus_prim_tiles(uint64_t n, size_t group_size);

#endif

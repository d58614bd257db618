/*
 * Device functions of the gMAGNUS kernels (kernels/gmagnus_*.cl): the segment search that
 * starts every statically partitioned work group, a work-group prefix sum in local memory,
 * and the bit operations of the dense accumulator. Only what OpenCL 1.2 guarantees (no
 * subgroup intrinsics, no popcount builtin in the dialect).
 */
#ifndef MAGNUS_LIB_GMAGNUS_DEVICE_CL
#define MAGNUS_LIB_GMAGNUS_DEVICE_CL

#include "magnus_dialect.h"

/* Elements an item loads before it uses any of them in the reordering kernels' loops. A
 * group of those kernels handles a few thousand elements, a dozen per item: one load at a
 * time would leave each item waiting a whole memory latency per element, with too few bytes
 * in flight to approach the bandwidth. Loading a batch first, into registers, puts them all
 * in flight at once. */
#define MG_GM_BATCH 4

/* The segment holding flattened element x: the largest s < n with off[s] <= x, for a
 * non-decreasing off[0..n] with off[0] = 0 <= x < off[n]. Empty segments before the answer
 * are skipped because the answer is the LAST s whose start is <= x. */
MG_DEVICE mg_u64 mg_gm_find_segment(MG_GLOBAL const mg_u64 *off, mg_u64 n, mg_u64 x) {
    mg_u64 lo = 0, hi = n;
    while (hi - lo > 1) {
        mg_u64 mid = lo + (hi - lo) / 2;
        if (off[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* n / d for d > 0, in 32-bit arithmetic when both fit (a 64-bit division is a long
 * emulated sequence on GPUs, a 32-bit one a few instructions). */
MG_DEVICE mg_u64 mg_gm_div_u64(mg_u64 n, mg_u64 d) {
    if (((n | d) >> 32) == 0) return (mg_u64)((mg_u32)n / (mg_u32)d);
    return n / d;
}

/* Hillis-Steele inclusive scan of one value per work item through `scratch` (lanes entries):
 * returns the item's inclusive prefix, and scratch[lanes - 1] holds the group's total. The
 * caller makes sure no item still reads scratch (a barrier before); the last step ends with
 * a barrier. One body for both widths (mg_gm_scratch_inclusive_scan_u32 / _u64) and the group
 * scans below. */
#define MG_GM_SCRATCH_INCLUSIVE_SCAN(T, SUFFIX)                                                  \
    MG_DEVICE T mg_gm_scratch_inclusive_scan_##SUFFIX(T v, MG_LOCAL T *scratch, mg_u32 lane,    \
                                                      mg_u32 lanes) {                            \
        scratch[lane] = v;                                                                       \
        mg_barrier();                                                                            \
        for (mg_u32 d = 1u; d < lanes; d <<= 1) {                                                \
            T w = lane >= d ? scratch[lane - d] : (T)0;                                          \
            mg_barrier();                                                                        \
            scratch[lane] += w;                                                                  \
            mg_barrier();                                                                        \
        }                                                                                        \
        return scratch[lane];                                                                    \
    }
MG_GM_SCRATCH_INCLUSIVE_SCAN(mg_u32, u32)
MG_GM_SCRATCH_INCLUSIVE_SCAN(mg_u64, u64)

/* Inclusive prefix sum in place of data[0..n) in local memory, by every work item of the
 * group (same n): each item scans a contiguous piece, the pieces' totals are scanned in
 * `scratch` (lanes entries, distinct from data). Starts and ends with a barrier. */
MG_DEVICE void mg_gm_scan_inclusive_u32_local(MG_LOCAL mg_u32 *data, mg_u32 n,
                                              MG_LOCAL mg_u32 *scratch, mg_u32 lane,
                                              mg_u32 lanes) {
    mg_barrier();
    mg_u32 piece = (n + lanes - 1u) / lanes;
    mg_u32 lo = MG_MIN(lane * piece, n);
    mg_u32 hi = MG_MIN(lo + piece, n);
    mg_u32 sum = 0u;
    for (mg_u32 i = lo; i < hi; i++) {
        sum += data[i];
        data[i] = sum;
    }
    mg_u32 before = mg_gm_scratch_inclusive_scan_u32(sum, scratch, lane, lanes) - sum;
    for (mg_u32 i = lo; i < hi; i++) data[i] += before;
    mg_barrier();
}

/* Sum over the group of one value per work item, via `scratch` (lanes entries). Every item
 * gets the total. Starts and ends with a barrier. */
MG_DEVICE mg_u32 mg_gm_group_sum_u32(mg_u32 v, MG_LOCAL mg_u32 *scratch, mg_u32 lane,
                                     mg_u32 lanes) {
    mg_barrier();
    mg_gm_scratch_inclusive_scan_u32(v, scratch, lane, lanes);
    mg_u32 total = scratch[lanes - 1u];
    mg_barrier();
    return total;
}

/* Exclusive prefix over the group of one value per work item, via `scratch` (lanes entries).
 * Starts and ends with a barrier. */
MG_DEVICE mg_u32 mg_gm_group_exclusive_scan_u32(mg_u32 v, MG_LOCAL mg_u32 *scratch,
                                                mg_u32 lane, mg_u32 lanes) {
    mg_barrier();
    mg_u32 before = mg_gm_scratch_inclusive_scan_u32(v, scratch, lane, lanes) - v;
    mg_barrier();
    return before;
}

/* Exclusive prefix over the group of one 64-bit value per work item, via `scratch` (lanes
 * entries); *total gets the group's sum. Starts and ends with a barrier. */
MG_DEVICE mg_u64 mg_gm_group_exclusive_scan_u64(mg_u64 v, MG_LOCAL mg_u64 *scratch, mg_u32 lane,
                                                mg_u32 lanes, mg_u64 *total) {
    mg_barrier();
    const mg_u64 before = mg_gm_scratch_inclusive_scan_u64(v, scratch, lane, lanes) - v;
    *total = scratch[lanes - 1u];
    mg_barrier();
    return before;
}

MG_DEVICE mg_u32 mg_gm_popcount(mg_u32 x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* Sets bit `bit` of a local bitmap: one atomic or (a compare-and-swap loop would retry
 * whenever another item sets a bit of the same word, which dense chunks do often). */
MG_DEVICE void mg_gm_set_bit_local(MG_LOCAL mg_u32 *words, mg_u32 bit) {
    mg_atomic_or_u32(&words[bit >> 5], 1u << (bit & 31u));
}

/* Index of the lowest set bit of x != 0 (the bits below it, counted). */
MG_DEVICE mg_u32 mg_gm_lowest_bit(mg_u32 x) { return mg_gm_popcount((x & (0u - x)) - 1u); }

#endif /* MAGNUS_LIB_GMAGNUS_DEVICE_CL */

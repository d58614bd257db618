/*
 * The A tiles of a dense row (kernels/hash_rows_dense.cl): a row's A entries are taken a tile
 * of wg at a time; each item loads one entry's B row start and length, a group scan of the
 * lengths gives every product of the tile a flat index, and the items stride over those
 * indices, so a tile's products are spread evenly over the group whatever its B rows' lengths.
 *
 * A dense row wider than local memory holds is done in column stripes [lo, hi): each B row
 * is then cut to the stripe by two binary searches over its (sorted) columns, so that every
 * B entry is read in one stripe only and the stripe's products are spread as evenly.
 */
#ifndef MAGNUS_LIB_HASH_DENSE_TILE_CL
#define MAGNUS_LIB_HASH_DENSE_TILE_CL

#include "lib/gmagnus_device.cl"
#include "magnus_dialect.h"

/* The tile entry holding flat product p: the first i >= e with scan[i] > p, for p below the
 * tile's total (scan[n - 1]) and no entry before e holding it. */
MG_DEVICE mg_u32 hash_dense_entry(MG_LOCAL const mg_u64 *scan, mg_u32 e, mg_u32 n, mg_u64 p) {
    if (p < scan[e]) return e;
    mg_u32 lo = e + 1u, hi = n - 1u;
    while (lo < hi) {
        const mg_u32 mid = lo + (hi - lo) / 2u;
        if (scan[mid] > p)
            hi = mid;
        else
            lo = mid + 1u;
    }
    return lo;
}

/* The first position in [b0, b1) of B_col whose column is >= col (b1 if none). */
MG_DEVICE mg_i64 hash_dense_first_at_least(MG_GLOBAL const mg_i32 *B_col, mg_i64 b0, mg_i64 b1,
                                           mg_u32 col) {
    while (b0 < b1) {
        const mg_i64 mid = b0 + (b1 - b0) / 2;
        if ((mg_u32)B_col[mid] < col)
            b0 = mid + 1;
        else
            b1 = mid;
    }
    return b0;
}

/* Loads the tile of n <= wg A entries from a0: B row starts into bstart, the inclusive scan
 * of the B row lengths into scan (entries past n count 0). With `cut`, each B row is first
 * cut to the columns [lo, hi). Returns the tile's products. The caller has put a barrier
 * after the last read of the previous tile; ends with a barrier. */
MG_DEVICE mg_u64 hash_dense_tile(MG_GLOBAL const mg_i32 *A_col, MG_GLOBAL const mg_i64 *B_rp,
                                 MG_GLOBAL const mg_i32 *B_col, mg_i64 a0, mg_u32 n, mg_u32 cut,
                                 mg_u32 lo, mg_u32 hi, MG_LOCAL mg_i64 *bstart,
                                 MG_LOCAL mg_u64 *scan, mg_u32 t, mg_u32 wg) {
    mg_u64 len = 0u;
    if (t < n) {
        const mg_i32 k = A_col[a0 + t];
        mg_i64 b0 = B_rp[k], b1 = B_rp[k + 1];
        if (cut) {
            b0 = hash_dense_first_at_least(B_col, b0, b1, lo);
            b1 = hash_dense_first_at_least(B_col, b0, b1, hi);
        }
        bstart[t] = b0;
        len = (mg_u64)(b1 - b0);
    }
    mg_gm_scratch_inclusive_scan_u64(len, scan, t, wg);
    return scan[wg - 1u];
}

/* Where the item's product p of the tile comes from in B (and *e its tile entry). */
MG_DEVICE mg_i64 hash_dense_b_index(MG_LOCAL const mg_i64 *bstart, MG_LOCAL const mg_u64 *scan,
                                    mg_u32 *e, mg_u32 n, mg_u64 p) {
    *e = hash_dense_entry(scan, *e, n, p);
    const mg_u64 before = *e > 0u ? scan[*e - 1u] : 0u;
    return bstart[*e] + (mg_i64)(p - before);
}

#endif /* MAGNUS_LIB_HASH_DENSE_TILE_CL */

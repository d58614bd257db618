/*
 * Dense rows (runtime/accumulate/hash_dense_rows.c): rows of C = A·B that no local hash table
 * holds, accumulated in an array over C's whole width in local memory, when that width fits.
 * One work group per row (grid-stride over the bin's rows); layout in kernels/shared/
 * hash_layout.h. Where the hash accumulator would give such a row a table in global memory
 * (probing there, then a sort of the row in global memory), the dense row reads A's and B's
 * entries once per phase and touches only local memory until it writes C in column order.
 *
 * A row's A entries are taken a tile of wg at a time: each item loads one entry's B row start
 * and length, a group scan of the lengths gives every product of the tile a flat index, and
 * the items stride over those indices, MG_GM_BATCH at a time (their loads in flight together),
 * so a tile's products are spread evenly over the group whatever its B rows' lengths (a row
 * whose few entries select one long B row, as in star-like and power-law inputs, keeps every
 * item busy). An item finds the entry of its next product by comparing with the entry of its
 * last one, and by a binary search over the tile's scan only when it has moved past it.
 *
 * Symbolic: an occupancy bitmap, popcount, group sum -> row_counts[row].
 * Numeric:  values and bitmap; a group prefix sum over the popcounts gives each set bit its
 *           rank, so the row comes out sorted by column; each item clears what it wrote out,
 *           so the arrays are cleared once per work group, not once per row.
 */
#include "lib/gmagnus_device.cl"
#include "magnus_dialect.h"
#include "shared/hash_layout.h"

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

/* Loads the tile of n <= wg A entries from a0: B row starts into bstart, the inclusive scan
 * of the B row lengths into scan (entries past n count 0). Returns the tile's products. The
 * caller has put a barrier after the last read of the previous tile; ends with a barrier. */
MG_DEVICE mg_u64 hash_dense_tile(MG_GLOBAL const mg_i32 *A_col, MG_GLOBAL const mg_i64 *B_rp,
                                 mg_i64 a0, mg_u32 n, MG_LOCAL mg_i64 *bstart,
                                 MG_LOCAL mg_u64 *scan, mg_u32 t, mg_u32 wg) {
    mg_u64 len = 0u;
    if (t < n) {
        const mg_i32 k = A_col[a0 + t];
        const mg_i64 b0 = B_rp[k];
        bstart[t] = b0;
        len = (mg_u64)(B_rp[k + 1] - b0);
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

MG_KERNEL void hash_rows_dense_symbolic(MG_GLOBAL const mg_i64 *A_rp, MG_GLOBAL const mg_i32 *A_col,
                                        MG_GLOBAL const mg_i64 *B_rp, MG_GLOBAL const mg_i32 *B_col,
                                        MG_GLOBAL const mg_u32 *bins, mg_i64 bins_offset,
                                        mg_i64 count, MG_GLOBAL mg_i64 *row_counts,
                                        mg_u32 width, MG_DYN_LOCAL_PARAM) {
    const mg_u32 t = mg_local_id(), wg = mg_local_size();
    const mg_u32 nwords = (mg_u32)mg_hash_dense_words(width);
    MG_LOCAL mg_u32 *bitmap = MG_LOCAL_CAST(mg_u32, mg_hash_dense_bitmap_at(0u, width, 0u));
    MG_LOCAL mg_i64 *bstart = MG_LOCAL_CAST(mg_i64, mg_hash_dense_bstart_at(0u, width, 0u));
    MG_LOCAL mg_u64 *scan = MG_LOCAL_CAST(mg_u64, mg_hash_dense_scan_at(0u, width, 0u, wg));
    for (mg_u32 w = t; w < nwords; w += wg) bitmap[w] = 0u;
    for (mg_i64 item = (mg_i64)mg_group_id(); item < count; item += (mg_i64)mg_num_groups()) {
        const mg_u32 row = bins[bins_offset + item];
        const mg_i64 a_end = A_rp[row + 1];
        for (mg_i64 a0 = A_rp[row]; a0 < a_end; a0 += wg) {
            const mg_u32 n = (mg_u32)MG_MIN((mg_i64)wg, a_end - a0);
            mg_barrier(); /* the previous tile's scan is read no more; the bitmap is clear */
            const mg_u64 total = hash_dense_tile(A_col, B_rp, a0, n, bstart, scan, t, wg);
            mg_u32 e = 0u;
            for (mg_u64 base = t; base < total; base += (mg_u64)MG_GM_BATCH * wg) {
                mg_i64 q[MG_GM_BATCH];
                MG_UNROLL
                for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                    const mg_u64 p = base + (mg_u64)j * wg;
                    q[j] = p < total ? hash_dense_b_index(bstart, scan, &e, n, p) : -1;
                }
                mg_i32 c[MG_GM_BATCH];
                MG_UNROLL
                for (mg_u32 j = 0; j < MG_GM_BATCH; j++) c[j] = q[j] >= 0 ? B_col[q[j]] : -1;
                MG_UNROLL
                for (mg_u32 j = 0; j < MG_GM_BATCH; j++)
                    if (c[j] >= 0) mg_gm_set_bit_local(bitmap, (mg_u32)c[j]);
            }
        }
        mg_barrier(); /* every bit of the row is set */
        mg_u32 mine = 0u;
        for (mg_u32 w = t; w < nwords; w += wg) {
            mine += mg_gm_popcount(bitmap[w]);
            bitmap[w] = 0u;
        }
        /* the scan's words serve as the sum's scratch (it starts with a barrier) */
        const mg_u32 found = mg_gm_group_sum_u32(mine, (MG_LOCAL mg_u32 *)scan, t, wg);
        if (t == 0) row_counts[row] = (mg_i64)found;
    }
}

MG_KERNEL void hash_rows_dense_numeric(MG_GLOBAL const mg_i64 *A_rp, MG_GLOBAL const mg_i32 *A_col,
                                       MG_GLOBAL const mg_val *A_val, MG_GLOBAL const mg_i64 *B_rp,
                                       MG_GLOBAL const mg_i32 *B_col, MG_GLOBAL const mg_val *B_val,
                                       MG_GLOBAL const mg_u32 *bins, mg_i64 bins_offset,
                                       mg_i64 count, MG_GLOBAL const mg_i64 *C_rp,
                                       MG_GLOBAL mg_i32 *C_col, MG_GLOBAL mg_val *C_val,
                                       mg_u32 width, MG_DYN_LOCAL_PARAM) {
    const mg_u32 t = mg_local_id(), wg = mg_local_size();
    const mg_u32 nwords = (mg_u32)mg_hash_dense_words(width);
    const mg_u64 vb = sizeof(mg_val);
    MG_LOCAL mg_val *acc = MG_LOCAL_CAST(mg_val, 0);
    MG_LOCAL mg_u32 *bitmap = MG_LOCAL_CAST(mg_u32, mg_hash_dense_bitmap_at(1u, width, vb));
    MG_LOCAL mg_i64 *bstart = MG_LOCAL_CAST(mg_i64, mg_hash_dense_bstart_at(1u, width, vb));
    MG_LOCAL mg_u64 *scan = MG_LOCAL_CAST(mg_u64, mg_hash_dense_scan_at(1u, width, vb, wg));
    MG_LOCAL mg_val *aval = MG_LOCAL_CAST(mg_val, mg_hash_dense_aval_at(1u, width, vb, wg));
    /* each item writes out a contiguous run of bitmap words, so ranks follow column order */
    const mg_u32 piece = (nwords + wg - 1u) / wg;
    const mg_u32 w_lo = MG_MIN(t * piece, nwords);
    const mg_u32 w_hi = MG_MIN(w_lo + piece, nwords);
    for (mg_u32 c = t; c < width; c += wg) acc[c] = (mg_val)0;
    for (mg_u32 w = t; w < nwords; w += wg) bitmap[w] = 0u;
    for (mg_i64 item = (mg_i64)mg_group_id(); item < count; item += (mg_i64)mg_num_groups()) {
        const mg_u32 row = bins[bins_offset + item];
        const mg_i64 a_end = A_rp[row + 1];
        for (mg_i64 a0 = A_rp[row]; a0 < a_end; a0 += wg) {
            const mg_u32 n = (mg_u32)MG_MIN((mg_i64)wg, a_end - a0);
            mg_barrier(); /* the previous tile is read no more; the arrays are clear */
            if (t < n) aval[t] = A_val[a0 + t];
            const mg_u64 total = hash_dense_tile(A_col, B_rp, a0, n, bstart, scan, t, wg);
            mg_u32 e = 0u;
            for (mg_u64 base = t; base < total; base += (mg_u64)MG_GM_BATCH * wg) {
                mg_i64 q[MG_GM_BATCH];
                mg_val av[MG_GM_BATCH];
                MG_UNROLL
                for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                    const mg_u64 p = base + (mg_u64)j * wg;
                    q[j] = -1;
                    av[j] = (mg_val)0;
                    if (p < total) {
                        q[j] = hash_dense_b_index(bstart, scan, &e, n, p);
                        av[j] = aval[e];
                    }
                }
                mg_i32 c[MG_GM_BATCH];
                mg_val v[MG_GM_BATCH];
                MG_UNROLL
                for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                    c[j] = q[j] >= 0 ? B_col[q[j]] : -1;
                    v[j] = q[j] >= 0 ? av[j] * B_val[q[j]] : (mg_val)0;
                }
                MG_UNROLL
                for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                    if (c[j] < 0) continue;
                    mg_atomic_add_val_local(&acc[c[j]], v[j]);
                    mg_gm_set_bit_local(bitmap, (mg_u32)c[j]);
                }
            }
        }
        mg_barrier(); /* every product of the row is in */
        mg_u32 mine = 0u;
        for (mg_u32 w = w_lo; w < w_hi; w++) mine += mg_gm_popcount(bitmap[w]);
        const mg_u32 rank =
            mg_gm_group_exclusive_scan_u32(mine, (MG_LOCAL mg_u32 *)scan, t, wg);
        const mg_i64 out = C_rp[row] + (mg_i64)rank;
        mg_i64 m = 0;
        for (mg_u32 w = w_lo; w < w_hi; w++) {
            /* one step per set bit, lowest first (column order), not one per bit */
            for (mg_u32 bits = bitmap[w]; bits != 0u; bits &= bits - 1u) {
                const mg_u32 c = (w << 5) + mg_gm_lowest_bit(bits);
                C_col[out + m] = (mg_i32)c;
                C_val[out + m] = acc[c];
                acc[c] = (mg_val)0;
                m++;
            }
            bitmap[w] = 0u;
        }
    }
}

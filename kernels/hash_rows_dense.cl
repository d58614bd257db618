/*
 * Dense rows (runtime/accumulate/dense/dense_rows.c): rows of C = A·B that no local hash table
 * holds, accumulated in an array over C's whole width in local memory, when that width fits.
 * One work group per row (grid-stride over the bin's rows); layout in kernels/shared/
 * hash_layout.h. Where the hash accumulator would give such a row a table in global memory
 * (probing there, then a sort of the row in global memory), the dense row reads A's and B's
 * entries once per phase and touches only local memory until it writes C in column order.
 *
 * A row's A entries are taken a tile of wg at a time (kernels/lib/hash_dense_tile.cl) and the
 * items stride over the tile's products, MG_GM_BATCH at a time (their loads in flight
 * together), so a tile's products are spread evenly over the group whatever its B rows'
 * lengths (a row whose few entries select one long B row, as in star-like and power-law
 * inputs, keeps every item busy). An item finds the entry of its next product by comparing
 * with the entry of its last one, and by a binary search over the tile's scan only when it
 * has moved past it.
 *
 * Stripes: where C (`cols` wide) is wider than the arrays (`width`), the row is done in
 * ceil(cols / width) column stripes, in column order, each a full pass over the row's A
 * entries with B rows cut to the stripe; the numeric phase writes each stripe after the
 * previous one's entries, so the row still comes out sorted. cols <= width: one stripe, no cut.
 *
 * Symbolic: an occupancy bitmap, popcount, group sum -> row_counts[row].
 * Numeric:  values and bitmap; a group prefix sum over the popcounts gives each set bit its
 *           rank, so the row comes out sorted by column; each item clears what it wrote out,
 *           so the arrays are cleared once per work group, not once per row.
 */
#include "lib/gmagnus_device.cl"
#include "lib/hash_dense_tile.cl"
#include "magnus_dialect.h"
#include "shared/hash_layout.h"

MG_KERNEL void hash_rows_dense_symbolic(MG_GLOBAL const mg_i64 *A_rp, MG_GLOBAL const mg_i32 *A_col,
                                        MG_GLOBAL const mg_i64 *B_rp, MG_GLOBAL const mg_i32 *B_col,
                                        MG_GLOBAL const mg_u32 *bins, mg_i64 bins_offset,
                                        mg_i64 count, MG_GLOBAL mg_i64 *row_counts,
                                        mg_u32 width, mg_u32 cols, MG_DYN_LOCAL_PARAM) {
    const mg_u32 t = mg_local_id(), wg = mg_local_size();
    const mg_u32 nwords = (mg_u32)mg_hash_dense_words(width);
    MG_LOCAL mg_u32 *bitmap = MG_LOCAL_CAST(mg_u32, mg_hash_dense_bitmap_at(0u, width, 0u));
    MG_LOCAL mg_i64 *bstart = MG_LOCAL_CAST(mg_i64, mg_hash_dense_bstart_at(0u, width, 0u));
    MG_LOCAL mg_u64 *scan = MG_LOCAL_CAST(mg_u64, mg_hash_dense_scan_at(0u, width, 0u, wg));
    for (mg_u32 w = t; w < nwords; w += wg) bitmap[w] = 0u;
    const mg_u32 cut = cols > width;
    for (mg_i64 item = (mg_i64)mg_group_id(); item < count; item += (mg_i64)mg_num_groups()) {
        const mg_u32 row = bins[bins_offset + item];
        const mg_i64 a_end = A_rp[row + 1];
        mg_i64 total_row = 0;
        for (mg_u32 lo = 0u; lo < cols; lo += width) {
            const mg_u32 hi = MG_MIN(cols - lo, width) + lo;
            for (mg_i64 a0 = A_rp[row]; a0 < a_end; a0 += wg) {
                const mg_u32 n = (mg_u32)MG_MIN((mg_i64)wg, a_end - a0);
                mg_barrier(); /* the previous tile's scan is read no more; the bitmap is clear */
                const mg_u64 total =
                    hash_dense_tile(A_col, B_rp, B_col, a0, n, cut, lo, hi, bstart, scan, t, wg);
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
                        if (c[j] >= 0) mg_gm_set_bit_local(bitmap, (mg_u32)c[j] - lo);
                }
            }
            mg_barrier(); /* every bit of the stripe is set */
            mg_u32 mine = 0u;
            for (mg_u32 w = t; w < nwords; w += wg) {
                mine += mg_gm_popcount(bitmap[w]);
                bitmap[w] = 0u;
            }
            /* the scan's words serve as the sum's scratch (it starts with a barrier) */
            total_row += (mg_i64)mg_gm_group_sum_u32(mine, (MG_LOCAL mg_u32 *)scan, t, wg);
        }
        if (t == 0) row_counts[row] = total_row;
    }
}

MG_KERNEL void hash_rows_dense_numeric(MG_GLOBAL const mg_i64 *A_rp, MG_GLOBAL const mg_i32 *A_col,
                                       MG_GLOBAL const mg_val *A_val, MG_GLOBAL const mg_i64 *B_rp,
                                       MG_GLOBAL const mg_i32 *B_col, MG_GLOBAL const mg_val *B_val,
                                       MG_GLOBAL const mg_u32 *bins, mg_i64 bins_offset,
                                       mg_i64 count, MG_GLOBAL const mg_i64 *C_rp,
                                       MG_GLOBAL mg_i32 *C_col, MG_GLOBAL mg_val *C_val,
                                       mg_u32 width, mg_u32 cols, MG_DYN_LOCAL_PARAM) {
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
    const mg_u32 cut = cols > width;
    for (mg_i64 item = (mg_i64)mg_group_id(); item < count; item += (mg_i64)mg_num_groups()) {
        const mg_u32 row = bins[bins_offset + item];
        const mg_i64 a_end = A_rp[row + 1];
        mg_i64 out = C_rp[row]; /* where the next stripe's entries go */
        for (mg_u32 lo = 0u; lo < cols; lo += width) {
            const mg_u32 hi = MG_MIN(cols - lo, width) + lo;
            for (mg_i64 a0 = A_rp[row]; a0 < a_end; a0 += wg) {
                const mg_u32 n = (mg_u32)MG_MIN((mg_i64)wg, a_end - a0);
                mg_barrier(); /* the previous tile is read no more; the arrays are clear */
                if (t < n) aval[t] = A_val[a0 + t];
                const mg_u64 total =
                    hash_dense_tile(A_col, B_rp, B_col, a0, n, cut, lo, hi, bstart, scan, t, wg);
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
                        c[j] = q[j] >= 0 ? B_col[q[j]] - (mg_i32)lo : -1;
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
            mg_barrier(); /* every product of the stripe is in */
            mg_u32 mine = 0u;
            for (mg_u32 w = w_lo; w < w_hi; w++) mine += mg_gm_popcount(bitmap[w]);
            mg_u64 stripe_total;
            const mg_u64 rank =
                mg_gm_group_exclusive_scan_u64(mine, scan, t, wg, &stripe_total);
            mg_i64 m = out + (mg_i64)rank;
            for (mg_u32 w = w_lo; w < w_hi; w++) {
                /* one step per set bit, lowest first (column order), not one per bit */
                for (mg_u32 bits = bitmap[w]; bits != 0u; bits &= bits - 1u) {
                    const mg_u32 c = (w << 5) + mg_gm_lowest_bit(bits);
                    C_col[m] = (mg_i32)(lo + c);
                    C_val[m] = acc[c];
                    acc[c] = (mg_val)0;
                    m++;
                }
                bitmap[w] = 0u;
            }
            out += (mg_i64)stripe_total;
        }
    }
}

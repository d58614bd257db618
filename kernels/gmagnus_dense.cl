/*
 * gMAGNUS dense accumulator (docs/algorithm.md §6) for the heavy chunks of the last
 * multisplit level: a chunk's columns lie in [0, width) with width <= the parameters'
 * dense_width, so its accumulator lives entirely in local memory. One work group per chunk
 * (grid-stride over the listed chunk ids).
 *
 * Symbolic: an occupancy bitmap (width bits), popcount, group sum -> counts[id].
 * Numeric:  values (width) + bitmap; a work-group prefix sum over the bitmap's popcounts
 *           gives each set bit its rank, so the chunk comes out sorted by column:
 *           C_col[offsets[id] + rank] = col + shifts[id], C_val[...] = value.
 * Local memory: numeric width*sizeof(mg_val) + width/8 + 4*group size (+ alignment), which
 * the parameters keep within the budget; symbolic only the bitmap and the scratch. Offsets
 * and sizes: kernels/shared/gmagnus_layout.h, which the host sizes the launches from.
 */
#include "magnus_dialect.h"
#include "lib/gmagnus_device.cl"
#include "shared/gmagnus_layout.h"

MG_KERNEL void gmagnus_dense_symbolic(mg_u64 count, MG_GLOBAL const mg_i32 *ids,
                                      mg_u64 ids_offset, MG_GLOBAL const mg_u64 *ptr,
                                      MG_GLOBAL const mg_i32 *col, mg_u32 width,
                                      MG_GLOBAL mg_i64 *counts, MG_DYN_LOCAL_PARAM) {
    const mg_u32 t = mg_local_id();
    const mg_u32 wg = mg_local_size();
    const mg_u32 nwords = mg_gm_dense_words(width);
    MG_LOCAL mg_u32 *bitmap = MG_LOCAL_CAST(mg_u32, 0);
    MG_LOCAL mg_u32 *scratch = MG_LOCAL_CAST(mg_u32, mg_gm_dense_symbolic_scratch_at(width));
    for (mg_u64 item = mg_group_id(); item < count; item += mg_num_groups()) {
        const mg_i32 id = ids[ids_offset + item];
        for (mg_u32 w = t; w < nwords; w += wg) bitmap[w] = 0u;
        mg_barrier();
        for (mg_u64 e = ptr[id] + t; e < ptr[id + 1]; e += wg)
            mg_gm_set_bit_local(bitmap, (mg_u32)col[e]);
        mg_barrier();
        mg_u32 mine = 0u;
        for (mg_u32 w = t; w < nwords; w += wg) mine += mg_gm_popcount(bitmap[w]);
        mg_u32 total = mg_gm_group_sum_u32(mine, scratch, t, wg);
        if (t == 0) counts[id] = (mg_i64)total;
    }
}

MG_KERNEL void gmagnus_dense_numeric(mg_u64 count, MG_GLOBAL const mg_i32 *ids,
                                     mg_u64 ids_offset, MG_GLOBAL const mg_u64 *ptr,
                                     MG_GLOBAL const mg_i32 *col, MG_GLOBAL const mg_val *val,
                                     mg_u32 width, MG_GLOBAL const mg_i64 *offsets,
                                     MG_GLOBAL const mg_i32 *shifts, MG_GLOBAL mg_i32 *c_col,
                                     MG_GLOBAL mg_val *c_val, MG_DYN_LOCAL_PARAM) {
    const mg_u32 t = mg_local_id();
    const mg_u32 wg = mg_local_size();
    const mg_u32 nwords = mg_gm_dense_words(width);
    MG_LOCAL mg_val *acc = MG_LOCAL_CAST(mg_val, 0);
    MG_LOCAL mg_u32 *bitmap =
        MG_LOCAL_CAST(mg_u32, mg_gm_dense_numeric_bitmap_at(width, sizeof(mg_val)));
    MG_LOCAL mg_u32 *scratch =
        MG_LOCAL_CAST(mg_u32, mg_gm_dense_numeric_scratch_at(width, sizeof(mg_val)));
    /* each item emits a contiguous run of bitmap words, so ranks follow column order */
    const mg_u32 piece = (nwords + wg - 1u) / wg;
    const mg_u32 w_lo = MG_MIN(t * piece, nwords);
    const mg_u32 w_hi = MG_MIN(w_lo + piece, nwords);
    for (mg_u64 item = mg_group_id(); item < count; item += mg_num_groups()) {
        const mg_i32 id = ids[ids_offset + item];
        for (mg_u32 c = t; c < width; c += wg) acc[c] = (mg_val)0;
        for (mg_u32 w = t; w < nwords; w += wg) bitmap[w] = 0u;
        mg_barrier();
        for (mg_u64 e = ptr[id] + t; e < ptr[id + 1]; e += wg) {
            mg_u32 c = (mg_u32)col[e];
            mg_atomic_add_val_local(&acc[c], val[e]);
            mg_gm_set_bit_local(bitmap, c);
        }
        mg_barrier();
        mg_u32 mine = 0u;
        for (mg_u32 w = w_lo; w < w_hi; w++) mine += mg_gm_popcount(bitmap[w]);
        mg_u32 rank = mg_gm_group_exclusive_scan_u32(mine, scratch, t, wg);
        const mg_i64 out = offsets[id] + (mg_i64)rank;
        const mg_i32 shift = shifts[id];
        mg_i64 n = 0;
        for (mg_u32 w = w_lo; w < w_hi; w++) {
            /* one step per set bit, lowest first (column order), not one per bit */
            for (mg_u32 bits = bitmap[w]; bits != 0u; bits &= bits - 1u) {
                mg_u32 c = (w << 5) + mg_gm_lowest_bit(bits);
                c_col[out + n] = (mg_i32)c + shift;
                c_val[out + n] = acc[c];
                n++;
            }
        }
        mg_barrier(); /* acc and bitmap are cleared for the next chunk */
    }
}

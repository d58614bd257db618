/*
 * gMAGNUS chunk bookkeeping: where every chunk of every multisplit level ends up in C.
 *
 * Level L splits each of its input rows r into n_L chunks; q = r * n_L + c is the chunk's
 * natural id, m its row in that level's output (heavy chunks first, then light ones;
 * perm[m] = q; the last level keeps natural order, has_perm = 0). The heavy chunks m < H of
 * level L are the input rows of level L+1.
 *
 * Chunks of a row partition its columns in order, so a chunk's entries in C start at its
 * parent's start plus the entries of the siblings before it:
 *   counts go up:   cnt_L[q] = own symbolic count (light / last level), or the sum of its
 *                   children (heavy), read from S_{L+1} = exclusive scan of cnt_{L+1};
 *   bases go down:  base_L[m] = base of the parent (level 0: C.row_ptr of the heavy row)
 *                   + S_L[q] - S_L[r * n_L];  shift_L[m] = parent's shift + c * width_L
 *                   (the first column of the chunk, added back to its local columns).
 */
#include "magnus_dialect.h"

#define MG_GM_STRIDE (mg_num_groups() * mg_local_size())

/* cursor[perm[m]] = ptr[m]: the multisplit writes natural chunk q at its laid-out row. */
MG_KERNEL void gmagnus_chunk_cursor(mg_u64 nchunks, MG_GLOBAL const mg_i32 *perm,
                                    MG_GLOBAL const mg_u64 *ptr, MG_GLOBAL mg_u64 *cursor,
                                    MG_DYN_LOCAL_PARAM) {
    for (mg_u64 m = mg_global_id(); m < nchunks; m += MG_GM_STRIDE) cursor[perm[m]] = ptr[m];
}

/* cnt_nat[q] for every laid-out chunk m (q = has_perm ? perm[m] : m): heavy chunks (m < H)
 * sum their n_next children, the others take their own count cnt_m[m]. */
MG_KERNEL void gmagnus_chunk_counts_up(mg_u64 nchunks, mg_u64 nheavy, mg_u32 has_perm,
                                       MG_GLOBAL const mg_i32 *perm,
                                       MG_GLOBAL const mg_i64 *cnt_m,
                                       MG_GLOBAL const mg_u64 *s_next, mg_u64 n_next,
                                       MG_GLOBAL mg_u64 *cnt_nat, MG_DYN_LOCAL_PARAM) {
    for (mg_u64 m = mg_global_id(); m < nchunks; m += MG_GM_STRIDE) {
        mg_u64 q = has_perm ? (mg_u64)perm[m] : m;
        cnt_nat[q] = m < nheavy ? s_next[(m + 1) * n_next] - s_next[m * n_next] : (mg_u64)cnt_m[m];
    }
}

/* Row counts of C's heavy rows: the sum of their level-0 chunks. */
MG_KERNEL void gmagnus_heavy_row_counts(mg_u64 nheavy, MG_GLOBAL const mg_i32 *xheavy,
                                        MG_GLOBAL const mg_u64 *s0, mg_u64 n0,
                                        MG_GLOBAL mg_i64 *c_counts, MG_DYN_LOCAL_PARAM) {
    for (mg_u64 h = mg_global_id(); h < nheavy; h += MG_GM_STRIDE)
        c_counts[xheavy[h]] = (mg_i64)(s0[(h + 1) * n0] - s0[h * n0]);
}

/* base[m], shift[m] of every laid-out chunk of one level (see the top of the file). */
MG_KERNEL void gmagnus_chunk_bases_down(mg_u64 nchunks, mg_u32 has_perm,
                                        MG_GLOBAL const mg_i32 *perm, MG_GLOBAL const mg_u64 *s,
                                        mg_u64 n, mg_i64 width, mg_u32 level0,
                                        MG_GLOBAL const mg_i32 *xheavy,
                                        MG_GLOBAL const mg_i64 *c_ptr,
                                        MG_GLOBAL const mg_i64 *parent_base,
                                        MG_GLOBAL const mg_i32 *parent_shift,
                                        MG_GLOBAL mg_i64 *base, MG_GLOBAL mg_i32 *shift,
                                        MG_DYN_LOCAL_PARAM) {
    for (mg_u64 m = mg_global_id(); m < nchunks; m += MG_GM_STRIDE) {
        mg_u64 q = has_perm ? (mg_u64)perm[m] : m;
        mg_u64 r = q / n, c = q % n;
        mg_i64 pb = level0 ? c_ptr[xheavy[r]] : parent_base[r];
        mg_i64 ps = level0 ? 0 : (mg_i64)parent_shift[r];
        base[m] = pb + (mg_i64)(s[q] - s[r * n]);
        shift[m] = (mg_i32)(ps + (mg_i64)c * width);
    }
}

/* out[i] = first + i: id lists for the accumulators. */
MG_KERNEL void gmagnus_iota(mg_u64 n, mg_i32 first, MG_GLOBAL mg_i32 *out, MG_DYN_LOCAL_PARAM) {
    for (mg_u64 i = mg_global_id(); i < n; i += MG_GM_STRIDE) out[i] = first + (mg_i32)i;
}

/*
 * gMAGNUS MaskedCsr2Csc (paper Alg. 3 line 7) as a counting transpose of A's heavy rows:
 * count column ids, scan (host: primitives), scatter. Entries whose B row is empty are
 * masked out, so every column of the CSC that has entries has a non-empty slice; together
 * with the compaction of slices this makes the CSC positions of consecutive slices
 * contiguous, which the outer product's local write offsets rely on.
 * Row ids stored in the CSC are the heavy rows' consecutive indices (xmap), i.e. rows of
 * C-hat.
 */
#include "magnus_dialect.h"

/* col_count[k] += entries of heavy rows in column k whose B row is non-empty.
 * One work group per heavy row (grid-stride), items over the row's entries. */
MG_KERNEL void gmagnus_csc_count(mg_u64 nheavy, MG_GLOBAL const mg_i32 *xheavy,
                                 MG_GLOBAL const mg_i64 *a_ptr, MG_GLOBAL const mg_i32 *a_col,
                                 MG_GLOBAL const mg_i64 *b_ptr, MG_GLOBAL mg_u64 *col_count,
                                 MG_DYN_LOCAL_PARAM) {
    for (mg_u64 h = mg_group_id(); h < nheavy; h += mg_num_groups()) {
        mg_i64 r = xheavy[h];
        for (mg_i64 p = a_ptr[r] + mg_local_id(); p < a_ptr[r + 1]; p += mg_local_size()) {
            mg_i32 k = a_col[p];
            if (b_ptr[k + 1] > b_ptr[k]) mg_atomic_add_u64(&col_count[k], 1);
        }
    }
}

/* slice_size[k] = col_count[k] * nnz(B[k,:]): the elements of outer-product slice k. */
MG_KERNEL void gmagnus_slice_sizes(mg_u64 ncols, MG_GLOBAL const mg_u64 *col_count,
                                   MG_GLOBAL const mg_i64 *b_ptr, MG_GLOBAL mg_u64 *slice_size,
                                   MG_DYN_LOCAL_PARAM) {
    for (mg_u64 k = mg_global_id(); k < ncols; k += mg_num_groups() * mg_local_size())
        slice_size[k] = col_count[k] * (mg_u64)(b_ptr[k + 1] - b_ptr[k]);
}

/* Scatter: entry p of heavy row xheavy[h] goes to csc position cursor[col]++ (cursor starts
 * as the scanned column counts). Order inside a column does not matter: C-hat is unordered
 * within rows. */
MG_KERNEL void gmagnus_csc_scatter(mg_u64 nheavy, MG_GLOBAL const mg_i32 *xheavy,
                                   MG_GLOBAL const mg_i64 *a_ptr, MG_GLOBAL const mg_i32 *a_col,
                                   MG_GLOBAL const mg_val *a_val, MG_GLOBAL const mg_i64 *b_ptr,
                                   MG_GLOBAL mg_u64 *cursor, MG_GLOBAL mg_u32 *csc_row,
                                   MG_GLOBAL mg_val *csc_val, MG_DYN_LOCAL_PARAM) {
    for (mg_u64 h = mg_group_id(); h < nheavy; h += mg_num_groups()) {
        mg_i64 r = xheavy[h];
        for (mg_i64 p = a_ptr[r] + mg_local_id(); p < a_ptr[r + 1]; p += mg_local_size()) {
            mg_i32 k = a_col[p];
            if (b_ptr[k + 1] > b_ptr[k]) {
                mg_u64 pos = mg_atomic_add_u64(&cursor[k], 1);
                csc_row[pos] = (mg_u32)h;
                csc_val[pos] = a_val[p];
            }
        }
    }
}

/* Compaction of the non-empty slices (listed in column order in slice_list):
 * slice_col[s] = column, slice_off[s] = start of slice s in the flattened space, and
 * slice_off[nslices] = the total. slice_full is the exclusive scan of slice_size over all
 * columns (ncols + 1 entries). */
MG_KERNEL void gmagnus_slice_gather(mg_u64 nslices, MG_GLOBAL const mg_i32 *slice_list,
                                    MG_GLOBAL const mg_u64 *slice_full,
                                    MG_GLOBAL mg_u64 *slice_off, MG_DYN_LOCAL_PARAM) {
    for (mg_u64 s = mg_global_id(); s < nslices; s += mg_num_groups() * mg_local_size()) {
        mg_i32 k = slice_list[s];
        slice_off[s] = slice_full[k];
        if (s + 1 == nslices) slice_off[nslices] = slice_full[k + 1];
    }
}

/*
 * gMAGNUS MaskedCsr2Csc (paper Alg. 3 line 7) as a counting transpose of A's heavy rows:
 * count column ids, scan (host: primitives), scatter. Entries whose B row is empty are
 * masked out, so every column of the CSC that has entries has a non-empty slice; together
 * with the compaction of slices this makes the CSC positions of consecutive slices
 * contiguous, which the outer product's walk relies on (a group's A entries are consecutive).
 * For each CSC entry the scatter stores, instead of its row, where its run of outer-product
 * elements starts in C-hat (csc_dest): entry (h, k) of heavy row h owns nnz(B[k,:]) elements
 * of C-hat's row h, after those of the row's earlier entries (CSR order). So the outer
 * product writes each element to a place known in advance, with no reservation.
 */
#include "magnus_dialect.h"
#include "lib/gmagnus_device.cl"

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

/* slice_rows[k] = col_count[k] * ceil(nnz(B[k,:]) / width): the rows of outer-product slice
 * k, each one A entry times a segment of at most `width` entries of B row k
 * (kernels/gmagnus_outer_product.cl). */
MG_KERNEL void gmagnus_slice_rows(mg_u64 ncols, mg_u32 width, MG_GLOBAL const mg_u64 *col_count,
                                  MG_GLOBAL const mg_i64 *b_ptr, MG_GLOBAL mg_u64 *slice_rows,
                                  MG_DYN_LOCAL_PARAM) {
    for (mg_u64 k = mg_global_id(); k < ncols; k += mg_num_groups() * mg_local_size()) {
        const mg_u64 lenb = (mg_u64)(b_ptr[k + 1] - b_ptr[k]);
        slice_rows[k] = col_count[k] * ((lenb + width - 1u) / width);
    }
}

/* Scatter: entry p of heavy row xheavy[h] goes to CSC position cursor[col]++ (cursor starts
 * as the scanned column counts; the order inside a column does not matter). Its run in
 * C-hat starts at chat_ptr[h] plus the B row lengths of row h's earlier entries: a group scan
 * of the lengths along the row, wg entries at a time, carried across pieces (masked entries
 * have length 0 and take no CSC place). Dynamic local memory: mg_u64[wg] for the scan. */
MG_KERNEL void gmagnus_csc_scatter(mg_u64 nheavy, MG_GLOBAL const mg_i32 *xheavy,
                                   MG_GLOBAL const mg_i64 *a_ptr, MG_GLOBAL const mg_i32 *a_col,
                                   MG_GLOBAL const mg_val *a_val, MG_GLOBAL const mg_i64 *b_ptr,
                                   MG_GLOBAL const mg_u64 *chat_ptr, MG_GLOBAL mg_u64 *cursor,
                                   MG_GLOBAL mg_u64 *csc_dest, MG_GLOBAL mg_val *csc_val,
                                   MG_DYN_LOCAL_PARAM) {
    MG_LOCAL mg_u64 *scratch = MG_LOCAL_CAST(mg_u64, 0);
    const mg_u32 t = mg_local_id();
    const mg_u32 wg = mg_local_size();
    for (mg_u64 h = mg_group_id(); h < nheavy; h += mg_num_groups()) {
        const mg_i64 r = xheavy[h];
        const mg_i64 end = a_ptr[r + 1];
        mg_u64 run = chat_ptr[h]; /* where the current piece's first run starts */
        for (mg_i64 base = a_ptr[r]; base < end; base += wg) {
            const mg_i64 p = base + (mg_i64)t;
            mg_i32 k = 0;
            mg_u64 len = 0;
            if (p < end) {
                k = a_col[p];
                len = (mg_u64)(b_ptr[k + 1] - b_ptr[k]);
            }
            mg_u64 piece = 0;
            const mg_u64 before = mg_gm_group_exclusive_scan_u64(len, scratch, t, wg, &piece);
            if (len > 0) {
                const mg_u64 pos = mg_atomic_add_u64(&cursor[k], 1);
                csc_dest[pos] = run + before;
                csc_val[pos] = a_val[p];
            }
            run += piece;
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

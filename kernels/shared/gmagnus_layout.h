/*
 * Local-memory layouts of the gMAGNUS kernels, shared by the kernels (they place their arrays
 * at these offsets) and the host (runtime/spgemm/gmagnus/: launch sizes, and the parameters
 * that must fit a group into the budget). Offsets and sizes in bytes; value_bytes is
 * sizeof(mg_val) on the device, the value type's size on the host.
 */
#ifndef MAGNUS_SHARED_GMAGNUS_LAYOUT_H
#define MAGNUS_SHARED_GMAGNUS_LAYOUT_H

#include "mg_shared.h"

/* Rows of C-hat one multisplit work group touches: the parameters keep a group's elements at
 * most tau + 2 while every row it reads has more than tau, so a group spans at most 2 rows. */
#define MG_GM_GROUP_ROWS 2

/*
 * gmagnus_histogram and gmagnus_multisplit (kernels/gmagnus_multisplit.cl), for nkeys =
 * mg_gm_ms_keys(nchunks, nsub) histogram keys, one per (local row, chunk, subgroup):
 *   hist            mg_u32[nkeys + 3] at 0 (key k counted at hist[k + 2], one more for the
 *                   total, so that one array serves counting, scan and permute)
 *   offsets_global  mg_u64[MG_GM_GROUP_ROWS * nchunks] at mg_gm_ms_global_at   (multisplit)
 *   col_buff        mg_i32[group_elems] at mg_gm_ms_cols_at                     (multisplit)
 *   val_buff        mg_val[group_elems] at mg_gm_ms_vals_at                     (multisplit)
 * each 8-byte aligned.
 */
MG_SHARED_FN mg_u64 mg_gm_ms_keys(mg_u64 nchunks, mg_u64 nsub) {
    return (mg_u64)MG_GM_GROUP_ROWS * nchunks * nsub;
}
MG_SHARED_FN mg_u64 mg_gm_ms_hist_entries(mg_u64 nkeys) { return nkeys + 3u; }
MG_SHARED_FN mg_u64 mg_gm_ms_global_at(mg_u64 nkeys) {
    return mg_align8(mg_gm_ms_hist_entries(nkeys) * 4u);
}
MG_SHARED_FN mg_u64 mg_gm_ms_cols_at(mg_u64 nkeys, mg_u64 nchunks) {
    return mg_gm_ms_global_at(nkeys) + (mg_u64)MG_GM_GROUP_ROWS * nchunks * 8u;
}
MG_SHARED_FN mg_u64 mg_gm_ms_vals_at(mg_u64 nkeys, mg_u64 nchunks, mg_u64 group_elems) {
    return mg_gm_ms_cols_at(nkeys, nchunks) + mg_align8(group_elems * 4u);
}
/* A multisplit launch's dynamic local memory. */
MG_SHARED_FN mg_u64 mg_gm_ms_bytes(mg_u64 nkeys, mg_u64 nchunks, mg_u64 group_elems,
                                   mg_u64 value_bytes) {
    return mg_gm_ms_vals_at(nkeys, nchunks, group_elems) + group_elems * value_bytes;
}
/* A histogram launch's: hist, plus 8 bytes the host has always asked for beyond it (the
 * kernel reads none of them). */
MG_SHARED_FN mg_u64 mg_gm_histogram_bytes(mg_u64 nkeys) {
    return mg_gm_ms_hist_entries(nkeys) * 4u + 8u;
}

/*
 * gmagnus_dense_symbolic and gmagnus_dense_numeric (kernels/gmagnus_dense.cl), for a chunk
 * width of `width` columns and groups of wg work items:
 *   acc      mg_val[width] at 0                                      (numeric only)
 *   bitmap   mg_u32[mg_gm_dense_words(width)]: symbolic at 0, numeric at
 *            mg_gm_dense_numeric_bitmap_at
 *   scratch  mg_u32[wg], the group scan's, after the bitmap
 * each 8-byte aligned.
 */
MG_SHARED_FN mg_u32 mg_gm_dense_words(mg_u32 width) { return (width + 31u) >> 5; }
MG_SHARED_FN mg_u64 mg_gm_dense_bitmap_bytes(mg_u64 width) {
    return mg_align8(((width + 31u) >> 5) * 4u);
}
MG_SHARED_FN mg_u64 mg_gm_dense_symbolic_scratch_at(mg_u64 width) {
    return mg_gm_dense_bitmap_bytes(width);
}
MG_SHARED_FN mg_u64 mg_gm_dense_symbolic_bytes(mg_u64 width, mg_u64 wg) {
    return mg_gm_dense_symbolic_scratch_at(width) + wg * 4u;
}
MG_SHARED_FN mg_u64 mg_gm_dense_numeric_bitmap_at(mg_u64 width, mg_u64 value_bytes) {
    return mg_align8(width * value_bytes);
}
MG_SHARED_FN mg_u64 mg_gm_dense_numeric_scratch_at(mg_u64 width, mg_u64 value_bytes) {
    return mg_gm_dense_numeric_bitmap_at(width, value_bytes) + mg_gm_dense_bitmap_bytes(width);
}
MG_SHARED_FN mg_u64 mg_gm_dense_numeric_bytes(mg_u64 width, mg_u64 wg, mg_u64 value_bytes) {
    return mg_gm_dense_numeric_scratch_at(width, value_bytes) + wg * 4u;
}

/* Work items of an outer-product group at most (the host takes the largest power of two up
 * to this and the device's limit), and the groups of that size the kernel asks CUDA to keep
 * resident per SM: 4 (60 registers in f32, 64 in f64, no spill; at 5 the f64 kernel spills).
 * The kernel is bound by its stores, not by residency (docs/performance.md, "The outer
 * product by rows"). */
#define MG_GM_OUTER_GROUP_MAX 256
#define MG_GM_OUTER_MIN_GROUPS 4
/* The outer product's rows (kernels/gmagnus_outer_product.cl): a team of MG_GM_OUTER_TEAM
 * work items (fewer where a group is smaller) writes a row of up to team * MG_GM_OUTER_SLOTS
 * elements, MG_GM_OUTER_SLOTS per item (plus one for a row that starts mid-line). 32 items
 * store a 128-byte line of column indices at once (a warp on NVIDIA's GPUs). Rows of 128
 * measured as fast as rows of 256 (and faster on rmat-s18-a4-b8, whose B rows are shorter)
 * with fewer registers, and they keep medium B rows' lanes busier. */
#define MG_GM_OUTER_TEAM 32
#define MG_GM_OUTER_SLOTS 4

/* gmagnus_csc_scatter (kernels/gmagnus_csr2csc.cl): mg_u64[wg] at 0, the scan of B row
 * lengths along a heavy row. (The outer product needs no dynamic local memory.) */
MG_SHARED_FN mg_u64 mg_gm_csc_scatter_bytes(mg_u64 wg) { return wg * 8u; }

#endif /* MAGNUS_SHARED_GMAGNUS_LAYOUT_H */

/*
 * Symbolic and numeric hash kernels for chunks: segments [seg_ptr[c], seg_ptr[c+1]) of an
 * intermediate matrix with 32-bit local columns (gMAGNUS's light chunks; runtime/
 * hash_accumulate.h, magnus_hash_chunks_*). Same layout of work as kernels/hash_rows.cl:
 * _local kernels give `lanes` work items and one local table to each chunk of a bin, _global
 * kernels one work group and a global table. A chunk's elements are flat, so its lanes
 * simply stride over them. lanes is a power of two (see kernels/hash_rows.cl), as are the
 * per-lane counting of the symbolic kernels and the compaction before the sort (`sort_net`)
 * of the numeric _local kernel.
 *
 * Numeric output of chunk c: out_offset[c] is its first position in C; its entry count is
 * out_nnz[c] (nnz_is_ptr == 0) or out_nnz[c+1] - out_nnz[c]; every column gets
 * (has_shift ? col_shift[c] : 0) + (shift_period > 0 ? (c % shift_period) * shift_step : 0).
 */
#include "lib/hash_accumulator.cl"
#include "magnus_dialect.h"
#include "shared/hash_layout.h"

MG_DEVICE mg_i64 hash_chunk_shift(MG_GLOBAL const mg_i32 *col_shift, mg_i32 has_shift,
                                  mg_i64 shift_period, mg_i64 shift_step, mg_u32 c) {
    mg_i64 s = has_shift ? (mg_i64)col_shift[c] : 0;
    if (shift_period > 0) s += ((mg_i64)c % shift_period) * shift_step;
    return s;
}

MG_DEVICE mg_i64 hash_chunk_nnz(MG_GLOBAL const mg_i64 *out_nnz, mg_i32 nnz_is_ptr, mg_u32 c) {
    return nnz_is_ptr ? out_nnz[(mg_u64)c + 1u] - out_nnz[c] : out_nnz[c];
}

MG_KERNEL void hash_chunks_symbolic_local(MG_GLOBAL const mg_i64 *seg_ptr,
                                          MG_GLOBAL const mg_i32 *seg_col,
                                          MG_GLOBAL const mg_u32 *bins, mg_i64 bins_offset,
                                          mg_i64 count, MG_GLOBAL mg_i64 *counts, mg_u32 table_size,
                                          mg_u32 lanes, MG_DYN_LOCAL_PARAM) {
    mg_u32 per_group = mg_local_size() / lanes;
    mg_u32 sub = mg_local_id() / lanes, lane = mg_local_id() & (lanes - 1u);
    mg_i64 item = (mg_i64)mg_group_id() * per_group + sub;
    const mg_hash_symbolic_table t =
        mg_hash_symbolic_local_begin(mg_dyn_local, per_group, sub, table_size, lane, lanes);
    if (item < count) {
        mg_u32 c = bins[bins_offset + item];
        const mg_i64 e_end = seg_ptr[c + 1];
        mg_u32 mine = 0;
        for (mg_i64 e = seg_ptr[c] + lane; e < e_end; e += lanes)
            mine += mg_hash_insert_local(t.keys, table_size - 1u, (mg_u32)seg_col[e]);
        if (mine != 0) mg_atomic_add_u32(&t.found[sub], mine);
    }
    mg_barrier();
    if (item < count && lane == 0) counts[bins[bins_offset + item]] = (mg_i64)t.found[sub];
}

MG_KERNEL void hash_chunks_symbolic_global(MG_GLOBAL const mg_i64 *seg_ptr,
                                           MG_GLOBAL const mg_i32 *seg_col,
                                           MG_GLOBAL const mg_u32 *bins, mg_i64 bins_offset,
                                           MG_GLOBAL mg_i64 *counts, MG_GLOBAL const mg_i64 *tables,
                                           mg_i64 table_index, MG_GLOBAL mg_u32 *table_keys,
                                           MG_DYN_LOCAL_PARAM) {
    MG_LOCAL_ARRAY(mg_u32, found, 1);
    mg_u32 lane = mg_local_id(), lanes = mg_local_size();
    mg_i64 item = (mg_i64)mg_group_id();
    mg_u32 c = bins[bins_offset + item];
    const mg_hash_symbolic_global_table t =
        mg_hash_symbolic_global_begin(tables, table_index + item, table_keys, found, lane, lanes);
    const mg_i64 e_end = seg_ptr[c + 1];
    mg_u32 mine = 0;
    for (mg_i64 e = seg_ptr[c] + lane; e < e_end; e += lanes)
        mine += mg_hash_insert_global(t.keys, t.size - 1u, (mg_u32)seg_col[e]);
    const mg_i64 n = mg_hash_symbolic_global_count(found, mine);
    if (lane == 0) counts[c] = n;
}

MG_KERNEL void
hash_chunks_numeric_local(MG_GLOBAL const mg_i64 *seg_ptr, MG_GLOBAL const mg_i32 *seg_col,
                          MG_GLOBAL const mg_val *seg_val, MG_GLOBAL const mg_u32 *bins,
                          mg_i64 bins_offset, mg_i64 count, MG_GLOBAL const mg_i64 *out_offset,
                          MG_GLOBAL const mg_i64 *out_nnz, mg_i32 nnz_is_ptr,
                          MG_GLOBAL const mg_i32 *col_shift, mg_i32 has_shift, mg_i64 shift_period,
                          mg_i64 shift_step, MG_GLOBAL mg_i32 *C_col, MG_GLOBAL mg_val *C_val,
                          mg_u32 table_size, mg_u32 lanes, mg_u32 sort_net,
                          MG_DYN_LOCAL_PARAM) {
    mg_u32 per_group = mg_local_size() / lanes;
    mg_u32 sub = mg_local_id() / lanes, lane = mg_local_id() & (lanes - 1u);
    mg_i64 item = (mg_i64)mg_group_id() * per_group + sub;
    const mg_hash_local_table t =
        mg_hash_numeric_local_begin(mg_dyn_local, per_group, sub, table_size, lane, lanes);
    mg_u32 c = 0;
    if (item < count) {
        c = bins[bins_offset + item];
        const mg_i64 e_end = seg_ptr[c + 1];
        for (mg_i64 e = seg_ptr[c] + lane; e < e_end; e += lanes)
            mg_hash_accumulate_local(t.keys, t.vals, table_size, (mg_u32)seg_col[e],
                                     seg_val[e]);
    }
    mg_hash_finish_local(t.keys, t.vals, table_size, t.entries, sort_net, lane, lanes);
    if (item < count)
        mg_hash_write_local(t.keys, t.vals, (mg_u32)hash_chunk_nnz(out_nnz, nnz_is_ptr, c), C_col,
                            C_val, out_offset[c],
                            hash_chunk_shift(col_shift, has_shift, shift_period, shift_step, c),
                            lane, lanes);
}

MG_KERNEL void hash_chunks_numeric_global(
    MG_GLOBAL const mg_i64 *seg_ptr, MG_GLOBAL const mg_i32 *seg_col,
    MG_GLOBAL const mg_val *seg_val, MG_GLOBAL const mg_u32 *bins, mg_i64 bins_offset,
    MG_GLOBAL const mg_i64 *out_offset, MG_GLOBAL const mg_i64 *out_nnz, mg_i32 nnz_is_ptr,
    MG_GLOBAL const mg_i32 *col_shift, mg_i32 has_shift, mg_i64 shift_period, mg_i64 shift_step,
    MG_GLOBAL mg_i32 *C_col, MG_GLOBAL mg_val *C_val, MG_GLOBAL const mg_i64 *tables,
    mg_i64 table_index, MG_GLOBAL mg_u32 *table_keys, MG_GLOBAL mg_val *table_vals,
    mg_u32 sort_block, MG_DYN_LOCAL_PARAM) {
    MG_LOCAL_ARRAY(mg_u32, cursor, 1);
    mg_u32 lane = mg_local_id(), lanes = mg_local_size();
    mg_i64 item = (mg_i64)mg_group_id();
    mg_u32 c = bins[bins_offset + item];
    const mg_hash_global_table t =
        mg_hash_numeric_global_begin(mg_dyn_local, tables, table_index + item, table_keys,
                                     table_vals, sort_block, cursor, lane, lanes);
    const mg_i64 e_end = seg_ptr[c + 1];
    for (mg_i64 e = seg_ptr[c] + lane; e < e_end; e += lanes)
        mg_hash_accumulate_global(t.keys, t.vals, t.size, (mg_u32)seg_col[e], seg_val[e]);
    /* compact into C (shifted: the shift is the same for the whole chunk, so order holds),
     * then sort there, as kernels/hash_rows.cl does */
    mg_hash_numeric_global_end(
        t, C_col, C_val, out_offset[c],
        hash_chunk_shift(col_shift, has_shift, shift_period, shift_step, c),
        (mg_u32)hash_chunk_nnz(out_nnz, nnz_is_ptr, c), cursor, sort_block, lane, lanes);
}

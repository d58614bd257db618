/*
 * Every kernel's name and parameters, declared once for the host (runtime/device/kernels.h
 * derives a typed launch wrapper from each entry) and checked against the kernel sources by
 * tests/test_kernel_signatures.c (same kernels, same parameters, kinds and names, in order).
 *
 * How to add a kernel:
 *   1. Write `MG_KERNEL void my_kernel(...)` in kernels/<file>.cl as usual (the last
 *      parameter is MG_DYN_LOCAL_PARAM, which the backend supplies: it is not declared here).
 *   2. Add `MG_KERNEL_SIG(my_kernel, (KIND, name), ...)` below, in the order of the kernel's
 *      parameters, with the kernel's own parameter names.
 *   3. Launch it from the host with the wrapper
 *        magnus_k_my_kernel(ctx, queue, variant, groups, group_size, local_bytes, args...)
 *      (runtime/device/kernels.h): a wrong argument count, or a buffer where a scalar
 *      belongs, no longer compiles.
 *   4. `ctest -R kernel_signatures` says what differs if the list and the source disagree.
 *
 * Kinds (the kernel's type -> the wrapper's parameter type):
 *   I32 U32 I64 U64     mg_i32 mg_u32 mg_i64 mg_u64  -> int32_t uint32_t int64_t uint64_t
 *   F32 F64             float double                 -> float double
 *   BUF_<T>             MG_GLOBAL [const] T *        -> const magnus_dbuf * (a whole buffer)
 *                       T: I32 U32 I64 U64 F32 F64, or VAL for mg_val (float or double by the
 *                       module's variant)
 * No kernel takes an mg_val scalar (its size would depend on the variant); a kernel that
 * needs one needs a VAL kind in runtime/device/kernels.h and in the test first.
 *
 * Format: this file has no include guard on purpose. The includer defines
 * MG_KERNEL_SIG(name, ...) and includes it, once per expansion (X-macro). Host C only: the
 * kernels never include it. Entries follow the kernel files in name order.
 */

/* ---- kernels/gmagnus_chunks.cl ---- */
MG_KERNEL_SIG(gmagnus_chunk_cursor, (U64, nchunks), (BUF_I32, perm), (BUF_U64, ptr),
              (BUF_U64, cursor))
MG_KERNEL_SIG(gmagnus_chunk_counts_up, (U64, nchunks), (U64, nheavy), (U32, has_perm),
              (BUF_I32, perm), (BUF_I64, cnt_m), (BUF_U64, s_next), (U64, n_next),
              (BUF_U64, cnt_nat))
MG_KERNEL_SIG(gmagnus_heavy_row_counts, (U64, nheavy), (BUF_I32, xheavy), (BUF_U64, s0),
              (U64, n0), (BUF_I64, c_counts))
MG_KERNEL_SIG(gmagnus_chunk_bases_down, (U64, nchunks), (U32, has_perm), (BUF_I32, perm),
              (BUF_U64, s), (U64, n), (I64, width), (U32, level0), (BUF_I32, xheavy),
              (BUF_I64, c_ptr), (BUF_I64, parent_base), (BUF_I32, parent_shift),
              (BUF_I64, base), (BUF_I32, shift))
MG_KERNEL_SIG(gmagnus_iota, (U64, n), (I32, first), (BUF_I32, out))

/* ---- kernels/gmagnus_csr2csc.cl ---- */
MG_KERNEL_SIG(gmagnus_csc_count, (U64, nheavy), (BUF_I32, xheavy), (BUF_I64, a_ptr),
              (BUF_I32, a_col), (BUF_I64, b_ptr), (BUF_U64, col_count))
MG_KERNEL_SIG(gmagnus_slice_rows, (U64, ncols), (U32, width), (BUF_U64, col_count),
              (BUF_I64, b_ptr), (BUF_U64, slice_rows))
MG_KERNEL_SIG(gmagnus_csc_scatter, (U64, nheavy), (BUF_I32, xheavy), (BUF_I64, a_ptr),
              (BUF_I32, a_col), (BUF_VAL, a_val), (BUF_I64, b_ptr), (BUF_U64, chat_ptr),
              (BUF_U64, cursor), (BUF_U64, csc_dest), (BUF_VAL, csc_val))
MG_KERNEL_SIG(gmagnus_slice_gather, (U64, nslices), (BUF_I32, slice_list),
              (BUF_U64, slice_full), (BUF_U64, slice_off))

/* ---- kernels/gmagnus_dense.cl ---- */
MG_KERNEL_SIG(gmagnus_dense_symbolic, (U64, count), (BUF_I32, ids), (U64, ids_offset),
              (BUF_U64, ptr), (BUF_I32, col), (U32, width), (BUF_I64, counts))
MG_KERNEL_SIG(gmagnus_dense_numeric, (U64, count), (BUF_I32, ids), (U64, ids_offset),
              (BUF_U64, ptr), (BUF_I32, col), (BUF_VAL, val), (U32, width),
              (BUF_I64, offsets), (BUF_I32, shifts), (BUF_I32, c_col), (BUF_VAL, c_val))

/* ---- kernels/gmagnus_multisplit.cl ---- */
MG_KERNEL_SIG(gmagnus_histogram, (U64, nrows), (U64, total), (U64, group_elems),
              (BUF_U64, row_ptr), (BUF_I32, col), (U64, col_off), (U32, nchunks), (U32, shift),
              (U32, nsub), (U32, sub_size), (BUF_U64, counts))
MG_KERNEL_SIG(gmagnus_batch_bounds, (U64, nrows), (BUF_U64, row_ptr), (U64, total), (U64, gap),
              (U64, nbatches), (BUF_U64, bounds))
MG_KERNEL_SIG(gmagnus_multisplit, (U64, nrows), (BUF_U64, bounds), (U32, batch),
              (U64, group_elems), (BUF_U64, row_ptr), (BUF_I32, in_col), (BUF_VAL, in_val),
              (U64, in_off), (U32, nchunks), (U32, shift), (U32, nsub), (U32, sub_size),
              (BUF_U64, cursor), (BUF_I32, out_col), (BUF_VAL, out_val))

/* ---- kernels/gmagnus_outer_product.cl ---- */
MG_KERNEL_SIG(gmagnus_outer_starts, (U64, nslices), (U64, team_rows), (BUF_U64, slice_off),
              (BUF_U64, starts))
MG_KERNEL_SIG(gmagnus_outer_product, (U64, nslices), (U64, team_rows), (U32, team),
              (BUF_U64, starts), (BUF_I32, slice_col), (BUF_U64, slice_off), (BUF_U64, csc_ptr),
              (BUF_U64, csc_dest), (BUF_VAL, csc_val), (BUF_I64, b_ptr), (BUF_I32, b_col),
              (BUF_VAL, b_val), (BUF_I32, chat_col), (BUF_VAL, chat_val), (U64, chat_off))

/* ---- kernels/hash_binning.cl ---- */
MG_KERNEL_SIG(hash_row_products, (BUF_I64, A_rp), (BUF_I32, A_col), (BUF_I64, B_rp),
              (BUF_U32, ids), (I64, ids_offset), (I32, has_ids), (I64, count),
              (BUF_I64, products))
MG_KERNEL_SIG(hash_bin_count, (BUF_U32, ids), (I64, ids_offset), (I32, has_ids), (I64, count),
              (BUF_I64, keys), (I32, key_is_ptr), (I64, key_cap), (BUF_I64, bounds),
              (U32, nbins), (BUF_U32, counts))
MG_KERNEL_SIG(hash_bin_fill, (BUF_U32, ids), (I64, ids_offset), (I32, has_ids), (I64, count),
              (BUF_I64, keys), (I32, key_is_ptr), (I64, key_cap), (BUF_I64, bounds),
              (U32, nbins), (BUF_U32, counts), (BUF_U32, bins_out))
MG_KERNEL_SIG(hash_gather_keys, (BUF_U32, bins), (I64, offset), (I64, count), (BUF_I64, keys),
              (I32, key_is_ptr), (I64, key_cap), (BUF_I64, out))

/* ---- kernels/hash_chunks.cl ---- */
MG_KERNEL_SIG(hash_chunks_symbolic_local, (BUF_I64, seg_ptr), (BUF_I32, seg_col),
              (BUF_U32, bins), (I64, bins_offset), (I64, count), (BUF_I64, counts),
              (U32, table_size), (U32, lanes))
MG_KERNEL_SIG(hash_chunks_symbolic_global, (BUF_I64, seg_ptr), (BUF_I32, seg_col),
              (BUF_U32, bins), (I64, bins_offset), (BUF_I64, counts), (BUF_I64, tables),
              (I64, table_index), (BUF_U32, table_keys))
MG_KERNEL_SIG(hash_chunks_numeric_local, (BUF_I64, seg_ptr), (BUF_I32, seg_col),
              (BUF_VAL, seg_val), (BUF_U32, bins), (I64, bins_offset), (I64, count),
              (BUF_I64, out_offset), (BUF_I64, out_nnz), (I32, nnz_is_ptr),
              (BUF_I32, col_shift), (I32, has_shift), (I64, shift_period), (I64, shift_step),
              (BUF_I32, C_col), (BUF_VAL, C_val), (U32, table_size), (U32, lanes),
              (U32, sort_net))
MG_KERNEL_SIG(hash_chunks_numeric_global, (BUF_I64, seg_ptr), (BUF_I32, seg_col),
              (BUF_VAL, seg_val), (BUF_U32, bins), (I64, bins_offset), (BUF_I64, out_offset),
              (BUF_I64, out_nnz), (I32, nnz_is_ptr), (BUF_I32, col_shift), (I32, has_shift),
              (I64, shift_period), (I64, shift_step), (BUF_I32, C_col), (BUF_VAL, C_val),
              (BUF_I64, tables), (I64, table_index), (BUF_U32, table_keys),
              (BUF_VAL, table_vals), (U32, sort_block))

/* ---- kernels/hash_rows.cl ---- */
MG_KERNEL_SIG(hash_rows_symbolic_local, (BUF_I64, A_rp), (BUF_I32, A_col), (BUF_I64, B_rp),
              (BUF_I32, B_col), (BUF_U32, bins), (I64, bins_offset), (I64, count),
              (BUF_I64, row_counts), (U32, table_size), (U32, lanes), (U32, team))
MG_KERNEL_SIG(hash_rows_overflow_sample, (BUF_I64, A_rp), (BUF_I32, A_col), (BUF_I64, B_rp),
              (BUF_I32, B_col), (BUF_U64, offsets), (I64, rows), (I64, numeric_cap),
              (I64, symbolic_cap), (U32, table_size), (BUF_U64, stats))
MG_KERNEL_SIG(hash_rows_symbolic_global, (BUF_I64, A_rp), (BUF_I32, A_col), (BUF_I64, B_rp),
              (BUF_I32, B_col), (BUF_U32, bins), (I64, bins_offset), (BUF_I64, row_counts),
              (BUF_I64, tables), (I64, table_index), (BUF_U32, table_keys), (U32, team))
MG_KERNEL_SIG(hash_rows_numeric_local, (BUF_I64, A_rp), (BUF_I32, A_col), (BUF_VAL, A_val),
              (BUF_I64, B_rp), (BUF_I32, B_col), (BUF_VAL, B_val), (BUF_U32, bins),
              (I64, bins_offset), (I64, count), (BUF_I64, C_rp), (BUF_I32, C_col),
              (BUF_VAL, C_val), (U32, table_size), (U32, lanes), (U32, team), (U32, sort_net))
MG_KERNEL_SIG(hash_rows_numeric_global, (BUF_I64, A_rp), (BUF_I32, A_col), (BUF_VAL, A_val),
              (BUF_I64, B_rp), (BUF_I32, B_col), (BUF_VAL, B_val), (BUF_U32, bins),
              (I64, bins_offset), (BUF_I64, C_rp), (BUF_I32, C_col), (BUF_VAL, C_val),
              (BUF_I64, tables), (I64, table_index), (BUF_U32, table_keys),
              (BUF_VAL, table_vals), (U32, team), (U32, sort_block))

/* ---- kernels/hash_rows_dense.cl ---- */
MG_KERNEL_SIG(hash_rows_dense_symbolic, (BUF_I64, A_rp), (BUF_I32, A_col), (BUF_I64, B_rp),
              (BUF_I32, B_col), (BUF_U32, bins), (I64, bins_offset), (I64, count),
              (BUF_I64, row_counts), (U32, width), (U32, cols))
MG_KERNEL_SIG(hash_rows_dense_numeric, (BUF_I64, A_rp), (BUF_I32, A_col), (BUF_VAL, A_val),
              (BUF_I64, B_rp), (BUF_I32, B_col), (BUF_VAL, B_val), (BUF_U32, bins),
              (I64, bins_offset), (I64, count), (BUF_I64, C_rp), (BUF_I32, C_col),
              (BUF_VAL, C_val), (U32, width), (U32, cols))

/* ---- kernels/primitives.cl (the _u32/_u64/_u32_u64 flavours come from macro templates) ---- */
MG_KERNEL_SIG(prim_scan_reduce_u32, (BUF_U32, in), (U64, n), (BUF_U32, sums), (U64, ntiles))
MG_KERNEL_SIG(prim_scan_tiles_u32, (BUF_U32, in), (BUF_U32, out), (U64, n), (BUF_U32, carries),
              (I32, use_carries), (BUF_U32, total), (U64, ntiles))
MG_KERNEL_SIG(prim_scan_reduce_u64, (BUF_U64, in), (U64, n), (BUF_U64, sums), (U64, ntiles))
MG_KERNEL_SIG(prim_scan_tiles_u64, (BUF_U64, in), (BUF_U64, out), (U64, n), (BUF_U64, carries),
              (I32, use_carries), (BUF_U64, total), (U64, ntiles))
MG_KERNEL_SIG(prim_scan_reduce_u32_u64, (BUF_U32, in), (U64, n), (BUF_U64, sums),
              (U64, ntiles))
MG_KERNEL_SIG(prim_scan_tiles_u32_u64, (BUF_U32, in), (BUF_U64, out), (U64, n),
              (BUF_U64, carries), (I32, use_carries), (BUF_U64, total), (U64, ntiles))
MG_KERNEL_SIG(prim_partition_count, (I32, mode), (BUF_U32, flags), (BUF_I64, rowptr),
              (I64, tau), (U64, n), (BUF_U64, counts), (U64, ntiles))
MG_KERNEL_SIG(prim_partition_scatter, (I32, mode), (BUF_U32, flags), (BUF_I64, rowptr),
              (I64, tau), (U64, n), (BUF_U64, offsets), (BUF_U32, above), (BUF_U32, below),
              (I32, write_above), (I32, write_below), (U64, ntiles))
MG_KERNEL_SIG(prim_histogram_local_u32, (BUF_U32, keys), (U64, n), (BUF_U32, bins),
              (U32, nbins))
MG_KERNEL_SIG(prim_histogram_global_u32, (BUF_U32, keys), (U64, n), (BUF_U32, bins),
              (U32, nbins))
MG_KERNEL_SIG(prim_histogram_local_u64, (BUF_U32, keys), (U64, n), (BUF_U64, bins),
              (U32, nbins))
MG_KERNEL_SIG(prim_histogram_global_u64, (BUF_U32, keys), (U64, n), (BUF_U64, bins),
              (U32, nbins))
MG_KERNEL_SIG(prim_fill_u32, (BUF_U32, p), (U64, offset), (U64, n), (U32, value))
MG_KERNEL_SIG(prim_fill_u64, (BUF_U64, p), (U64, offset), (U64, n), (U64, value))
MG_KERNEL_SIG(prim_gather_u32, (BUF_U32, out), (BUF_U32, in), (U64, in_count), (BUF_U32, idx),
              (U64, n))
MG_KERNEL_SIG(prim_gather_u64, (BUF_U64, out), (BUF_U64, in), (U64, in_count), (BUF_U32, idx),
              (U64, n))
MG_KERNEL_SIG(prim_long_segments, (BUF_U64, ptr), (U64, n), (U64, threshold),
              (BUF_U64, part))
MG_KERNEL_SIG(prim_scale_values, (BUF_VAL, v), (U64, n), (BUF_VAL, alpha))
MG_KERNEL_SIG(prim_shift_u64, (BUF_U64, out), (U64, out_at), (BUF_U64, in), (U64, in_at),
              (U64, n), (U64, add), (U64, sub))
MG_KERNEL_SIG(prim_csr_structure, (BUF_I64, row_ptr), (BUF_I32, col_idx), (I64, rows),
              (I64, cols), (I64, nnz), (U32, lanes), (U64, long_row), (BUF_U64, part))

/* ---- kernels/spgemm_c_bound.cl ---- */
MG_KERNEL_SIG(spgemm_row_nnz_floor, (I64, rows), (U32, scan), (BUF_I64, A_rp), (BUF_I32, A_col),
              (BUF_I64, B_rp), (BUF_U64, out))

/* ---- kernels/spgemm_plan.cl ---- */
MG_KERNEL_SIG(plan_entry_products, (U64, nnz_a), (BUF_I32, A_col), (BUF_I64, B_rp),
              (BUF_U64, out))
MG_KERNEL_SIG(plan_positions, (U64, total), (U64, span), (U64, nnz_a), (I64, rows),
              (BUF_I64, A_rp), (BUF_I32, A_col), (BUF_I64, B_rp), (BUF_I32, B_col),
              (BUF_U64, entry_off), (BUF_I64, C_rp), (BUF_I32, C_col), (BUF_U32, positions),
              (BUF_U32, missing), (U32, team))
MG_KERNEL_SIG(plan_numeric, (U64, total), (U64, span), (U64, nnz_a), (BUF_I32, A_col),
              (BUF_VAL, A_val), (BUF_I64, B_rp), (BUF_VAL, B_val), (BUF_U64, entry_off),
              (BUF_U32, positions), (BUF_VAL, C_val), (U32, team))

/* ---- kernels/spmv.cl ---- */
MG_KERNEL_SIG(spmv_scale, (U64, n), (BUF_VAL, y), (U64, beta_bits))
MG_KERNEL_SIG(spmv_csr_vector, (I64, rows), (BUF_I64, row_ptr), (BUF_I32, col), (BUF_VAL, val),
              (BUF_VAL, x), (BUF_VAL, y), (U64, alpha_bits), (U64, beta_bits), (U32, lanes))
MG_KERNEL_SIG(spmv_merge_starts, (I64, rows), (I64, nnz), (I64, per_group), (U64, ngroups),
              (BUF_I64, row_ptr), (BUF_I64, starts))
MG_KERNEL_SIG(spmv_merge, (I64, rows), (I64, nnz), (U32, per_item), (U64, ngroups),
              (BUF_I64, starts), (BUF_I64, row_ptr), (BUF_I32, col), (BUF_VAL, val),
              (BUF_VAL, x), (BUF_VAL, y), (U64, alpha_bits), (U64, beta_bits),
              (BUF_I32, seg_first), (BUF_I32, seg_last), (BUF_VAL, part_first),
              (BUF_VAL, part_last), (U32, nhot), (BUF_I32, hot_cols))
MG_KERNEL_SIG(spmv_combine, (U64, nseg), (BUF_I32, seg_first), (BUF_I32, seg_last),
              (BUF_VAL, part_first), (BUF_VAL, part_last), (BUF_VAL, y), (U64, alpha_bits),
              (U64, beta_bits), (I32, prescaled))
MG_KERNEL_SIG(spmv_coo_rows, (I64, rows), (BUF_I64, row_ptr), (BUF_I32, coo_row))
MG_KERNEL_SIG(spmv_coo, (I64, nnz), (I64, per_group), (U64, ngroups), (U32, per_item),
              (BUF_I32, coo_row), (BUF_I32, coo_col), (BUF_VAL, coo_val), (BUF_VAL, x),
              (BUF_VAL, y), (U64, alpha_bits), (BUF_I32, seg_first), (BUF_I32, seg_last),
              (BUF_VAL, part_first), (BUF_VAL, part_last))
MG_KERNEL_SIG(spmv_row_keys, (I64, rows), (BUF_I64, row_ptr), (U32, cap), (BUF_U32, keys))
MG_KERNEL_SIG(spmv_ell_fill, (I64, rows), (I64, width), (BUF_I64, row_ptr), (BUF_I32, col),
              (BUF_VAL, val), (BUF_I32, ell_col), (BUF_VAL, ell_val), (BUF_U64, coo_count))
MG_KERNEL_SIG(spmv_coo_fill, (I64, rows), (I64, width), (BUF_I64, row_ptr), (BUF_I32, col),
              (BUF_VAL, val), (BUF_U64, coo_ptr), (BUF_I32, coo_row), (BUF_I32, coo_col),
              (BUF_VAL, coo_val))
MG_KERNEL_SIG(spmv_ell, (I64, rows), (I64, width), (BUF_I32, ell_col), (BUF_VAL, ell_val),
              (BUF_VAL, x), (BUF_VAL, y), (U64, alpha_bits), (U64, beta_bits))
MG_KERNEL_SIG(spmv_sellp_widths, (I64, rows), (I64, slice), (I64, stride), (BUF_I64, row_ptr),
              (BUF_U64, slice_len))
MG_KERNEL_SIG(spmv_sellp_fill, (I64, rows), (I64, slice), (BUF_I64, row_ptr), (BUF_I32, col),
              (BUF_VAL, val), (BUF_U64, slice_ptr), (BUF_I32, s_col), (BUF_VAL, s_val))
MG_KERNEL_SIG(spmv_sellp, (I64, rows), (I64, slice), (BUF_U64, slice_ptr), (BUF_I32, s_col),
              (BUF_VAL, s_val), (BUF_VAL, x), (BUF_VAL, y), (U64, alpha_bits), (U64, beta_bits))

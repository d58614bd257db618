/*
 * gMAGNUS Histogram and Multisplit (paper Alg. 5; docs/algorithm.md §4): one level of
 * the hierarchical multisplit. The input is a CSR-like matrix (C-hat, or the heavy chunks of
 * the previous level) whose rows all have more than tau elements, with columns local to the
 * row's current range; each row is split into `nchunks` chunks of 2^shift columns. Output
 * chunk q = row * nchunks + chunk ("natural" id).
 *
 * Both kernels partition the flattened elements statically, `group_elems` per work group,
 * which the parameters keep <= tau + 2 so a group touches at most 2 rows (local row lr =
 * row - first row of the group, 0 or 1).
 *
 * Local memory (offsets and sizes: kernels/shared/gmagnus_layout.h, which the host sizes the
 * launches and the parameters from):
 *   hist           u32[K + 3], K = 2 * nchunks * nsub; key k = (lr*nchunks + chunk)*nsub + sub,
 *                  one histogram per subgroup (`sub_size` consecutive items) to cut contention;
 *                  counted at hist[k + 2] so one array serves counting, scan and permute
 *   offsets_global u64[2 * nchunks]: this group's reserved start in each output chunk
 *   col_buff       i32[group_elems] (first used as the scan's scratch)
 *   val_buff       mg_val[group_elems]
 */
#include "magnus_dialect.h"
#include "lib/gmagnus_device.cl"
#include "shared/gmagnus_layout.h"

/* Where a group's rows end, as local element indices (clamped to 32 bits): the group's
 * elements [0, split) belong to its first row, [split, split2) to the second, and the
 * parameters make split2 >= the group's size (at most MG_GM_GROUP_ROWS = 2 rows); elements at
 * or past split2 are never counted or written, whatever the input. One lookup per group
 * instead of a row-pointer walk per element (the kernels are instruction-bound). */
MG_DEVICE mg_u32 mg_gm_ms_row_end(MG_GLOBAL const mg_u64 *row_ptr, mg_u64 nrows, mg_u64 row,
                                  mg_u64 start) {
    if (row >= nrows) return 0xffffffffu;
    const mg_u64 rel = row_ptr[row + 1] - start;
    return rel > 0xffffffffu ? 0xffffffffu : (mg_u32)rel;
}

/* Counts each of the group's nlocal elements into its local histograms. Items take local
 * elements t, t + wg, ... in both kernels, so an element always lands in the same subgroup's
 * histogram; MG_GM_BATCH of an item's columns are loaded before any is counted. */
MG_DEVICE void mg_gm_ms_count(MG_LOCAL mg_u32 *hist, mg_u64 start, mg_u32 nlocal, mg_u32 split,
                              mg_u32 split2, MG_GLOBAL const mg_i32 *col, mg_u32 nchunks,
                              mg_u32 shift, mg_u32 nsub, mg_u32 sub_size) {
    const mg_u32 t = mg_local_id();
    const mg_u32 wg = mg_local_size();
    const mg_u32 sub = t / sub_size;
    for (mg_u32 base = t; base < nlocal; base += MG_GM_BATCH * wg) {
        mg_u32 c[MG_GM_BATCH];
        MG_UNROLL
        for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
            const mg_u32 li = base + j * wg;
            c[j] = li < nlocal ? (mg_u32)col[start + li] : 0u;
        }
        MG_UNROLL
        for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
            const mg_u32 li = base + j * wg;
            /* past the group, or past its second row (excluded by the parameters) */
            if (li >= nlocal || li >= split2) continue;
            const mg_u32 lr = li >= split ? 1u : 0u;
            mg_u32 key = (lr * nchunks + (c[j] >> shift)) * nsub + sub;
            mg_atomic_add_u32(&hist[key + 2u], 1u);
        }
    }
}

/* Row of the group's first element, broadcast through `slot`. */
MG_DEVICE mg_u64 mg_gm_ms_first_row(MG_LOCAL mg_u64 *slot, MG_GLOBAL const mg_u64 *row_ptr,
                                    mg_u64 nrows, mg_u64 start) {
    if (mg_local_id() == 0) *slot = mg_gm_find_segment(row_ptr, nrows, start);
    mg_barrier();
    return *slot;
}

/* counts[row * nchunks + chunk] += elements of that chunk (counts zeroed by the host). */
MG_KERNEL void gmagnus_histogram(mg_u64 nrows, mg_u64 total, mg_u64 group_elems,
                                 MG_GLOBAL const mg_u64 *row_ptr, MG_GLOBAL const mg_i32 *col,
                                 mg_u64 col_off, mg_u32 nchunks, mg_u32 shift, mg_u32 nsub,
                                 mg_u32 sub_size, MG_GLOBAL mg_u64 *counts, MG_DYN_LOCAL_PARAM) {
    MG_LOCAL mg_u32 *hist = MG_LOCAL_CAST(mg_u32, 0);
    MG_LOCAL_ARRAY(mg_u64, row0_slot, 1);
    const mg_u32 t = mg_local_id();
    const mg_u32 wg = mg_local_size();
    const mg_u32 nkeys = (mg_u32)mg_gm_ms_keys(nchunks, nsub);
    for (mg_u64 g = mg_group_id(); g * group_elems < total; g += mg_num_groups()) {
        const mg_u64 start = g * group_elems;
        const mg_u64 end = MG_MIN(start + group_elems, total);
        for (mg_u32 k = t; k < mg_gm_ms_hist_entries(nkeys); k += wg) hist[k] = 0u;
        const mg_u64 row0 = mg_gm_ms_first_row(row0_slot, row_ptr, nrows, start);
        const mg_u32 split = mg_gm_ms_row_end(row_ptr, nrows, row0, start);
        const mg_u32 split2 = mg_gm_ms_row_end(row_ptr, nrows, row0 + 1, start);
        mg_gm_ms_count(hist, start, (mg_u32)(end - start), split, split2, col + col_off,
                       nchunks, shift, nsub, sub_size);
        mg_barrier();
        /* one global atomic per (local row, chunk) pair, not per element */
        for (mg_u32 pair = t; pair < MG_GM_GROUP_ROWS * nchunks; pair += wg) {
            mg_u32 n = 0u;
            for (mg_u32 s = 0; s < nsub; s++) n += hist[pair * nsub + s + 2u];
            if (n) {
                mg_u64 row = row0 + pair / nchunks;
                mg_atomic_add_u64(&counts[row * nchunks + pair % nchunks], n);
            }
        }
        mg_barrier();
    }
}

/* Row-aligned batches for the in-place multisplit (below): bounds[0] = 0, and each next bound
 * the start of the row holding element (bound + gap), so every batch has at most gap
 * elements (the host checked that no row is longer: then that row starts after the bound,
 * and two batches together always pass more than gap elements, so 2 * ceil(total / gap) + 1
 * batches reach total); bounds[j] = total from there on, up to bounds[nbatches]. One work
 * item: at most a few dozen binary searches. Not in place the host asks for one batch with
 * gap = total: bounds = {0, total}. */
MG_KERNEL void gmagnus_batch_bounds(mg_u64 nrows, MG_GLOBAL const mg_u64 *row_ptr, mg_u64 total,
                                    mg_u64 gap, mg_u64 nbatches, MG_GLOBAL mg_u64 *bounds,
                                    MG_DYN_LOCAL_PARAM) {
    if (mg_global_id() != 0) return;
    mg_u64 e = 0;
    for (mg_u64 j = 0; j < nbatches; j++) {
        bounds[j] = e;
        if (total - e <= gap) e = total;
        else e = row_ptr[mg_gm_find_segment(row_ptr, nrows, e + gap)];
    }
    bounds[nbatches] = total;
}

/* Permutes the elements into their chunks: cursor[q] is the next free position of natural
 * chunk q in the output (the host lays chunks out heavy first); columns are written local to
 * the chunk (col & (2^shift - 1)). This launch takes input elements [bounds[batch],
 * bounds[batch + 1]), read at in_col/in_val[in_off + element].
 *
 * In place (in_off = gap > 0, in and out the same buffer of total + gap elements, launched once
 * per batch of gmagnus_batch_bounds in order): a batch's elements go to positions inside
 * its own rows, [b0, b1), while its input sits at [gap + b0, gap + b1), after them (b1 - b0 <=
 * gap), and later batches' input further on; what it overwrites is input of earlier batches,
 * already permuted by the launches before. So one C-hat plus the gap is held instead of two
 * C-hats. */
MG_KERNEL void gmagnus_multisplit(mg_u64 nrows, MG_GLOBAL const mg_u64 *bounds, mg_u32 batch,
                                  mg_u64 group_elems, MG_GLOBAL const mg_u64 *row_ptr,
                                  MG_GLOBAL const mg_i32 *in_col, MG_GLOBAL const mg_val *in_val,
                                  mg_u64 in_off, mg_u32 nchunks, mg_u32 shift, mg_u32 nsub,
                                  mg_u32 sub_size, MG_GLOBAL mg_u64 *cursor,
                                  MG_GLOBAL mg_i32 *out_col, MG_GLOBAL mg_val *out_val,
                                  MG_DYN_LOCAL_PARAM) {
    const mg_u32 t = mg_local_id();
    const mg_u32 wg = mg_local_size();
    const mg_u32 nkeys = (mg_u32)mg_gm_ms_keys(nchunks, nsub);
    MG_LOCAL mg_u32 *hist = MG_LOCAL_CAST(mg_u32, 0);
    MG_LOCAL mg_u64 *offsets_global = MG_LOCAL_CAST(mg_u64, mg_gm_ms_global_at(nkeys));
    MG_LOCAL mg_i32 *col_buff = MG_LOCAL_CAST(mg_i32, mg_gm_ms_cols_at(nkeys, nchunks));
    MG_LOCAL mg_val *val_buff =
        MG_LOCAL_CAST(mg_val, mg_gm_ms_vals_at(nkeys, nchunks, group_elems));
    MG_LOCAL_ARRAY(mg_u64, row0_slot, 1);
    const mg_u32 chunk_mask = (1u << shift) - 1u;
    const mg_u64 first = bounds[batch], total = bounds[batch + 1];
    in_col += in_off;
    in_val += in_off;

    for (mg_u64 g = mg_group_id(); first + g * group_elems < total; g += mg_num_groups()) {
        const mg_u64 start = first + g * group_elems;
        const mg_u64 end = MG_MIN(start + group_elems, total);
        const mg_u32 nlocal = (mg_u32)(end - start);
        for (mg_u32 k = t; k < mg_gm_ms_hist_entries(nkeys); k += wg) hist[k] = 0u;
        const mg_u64 row0 = mg_gm_ms_first_row(row0_slot, row_ptr, nrows, start);

        /* 1. local histograms */
        const mg_u32 split = mg_gm_ms_row_end(row_ptr, nrows, row0, start);
        const mg_u32 split2 = mg_gm_ms_row_end(row_ptr, nrows, row0 + 1, start);
        mg_gm_ms_count(hist, start, nlocal, split, split2, in_col, nchunks, shift, nsub,
                       sub_size);
        /* 3. local scan: afterwards hist[k + 1] = local start of key k (hist[0..1] = 0) */
        mg_gm_scan_inclusive_u32_local(hist + 2, nkeys, (MG_LOCAL mg_u32 *)col_buff, t, wg);
        /* 2. global reservation: one atomic per non-empty (local row, chunk) pair */
        for (mg_u32 pair = t; pair < MG_GM_GROUP_ROWS * nchunks; pair += wg) {
            mg_u32 n = hist[(pair + 1u) * nsub + 1u] - hist[pair * nsub + 1u];
            if (n) {
                mg_u64 row = row0 + pair / nchunks;
                offsets_global[pair] = mg_atomic_add_u64(&cursor[row * nchunks + pair % nchunks], n);
            }
        }
        mg_barrier();

        /* 4. local permute; afterwards hist[k] = local start of key k. A batch's columns and
         * values are loaded, then their places taken, then stored. */
        const mg_u32 sub = t / sub_size;
        for (mg_u32 base = t; base < nlocal; base += MG_GM_BATCH * wg) {
            mg_i32 c[MG_GM_BATCH];
            mg_val v[MG_GM_BATCH];
            mg_u32 pos[MG_GM_BATCH];
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                const mg_u32 li = base + j * wg;
                c[j] = li < nlocal ? in_col[start + li] : 0;
                v[j] = li < nlocal ? in_val[start + li] : (mg_val)0;
            }
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                const mg_u32 li = base + j * wg;
                pos[j] = ~0u;
                if (li >= nlocal || li >= split2) continue;
                const mg_u32 lr = li >= split ? 1u : 0u;
                mg_u32 key = (lr * nchunks + ((mg_u32)c[j] >> shift)) * nsub + sub;
                pos[j] = mg_atomic_add_u32(&hist[key + 1u], 1u);
            }
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                if (pos[j] == ~0u) continue;
                col_buff[pos[j]] = c[j];
                val_buff[pos[j]] = v[j];
            }
        }
        mg_barrier();

        /* 5. coalesced write: position pos belongs to pair (lr, chunk of its column) */
        const mg_u32 row1_start = hist[nchunks * nsub];
        for (mg_u32 pos = t; pos < nlocal; pos += wg) {
            mg_u32 c = (mg_u32)col_buff[pos];
            mg_u32 pair = (pos >= row1_start ? nchunks : 0u) + (c >> shift);
            mg_u64 dest = offsets_global[pair] + (pos - hist[pair * nsub]);
            out_col[dest] = (mg_i32)(c & chunk_mask);
            out_val[dest] = val_buff[pos];
        }
        mg_barrier();
    }
}

/*
 * SpMV, y = alpha*A*x + beta*y, in the formats of Anzt, Chow and Dongarra (TOPC 2020):
 * CSR with a group of lanes per row, CSR with the nonzeros split evenly among work groups,
 * COO, hybrid ELL + COO and SELL-P, plus the device conversions into them
 * (docs/algorithm.md §9 describes each; runtime/spmv/ launches them).
 *
 * Common rules:
 *   - alpha and beta come as the bits of an mg_val (kernels take no mg_val scalar):
 *     spmv_scalar() turns them back;
 *   - beta == 0 never reads y (y may hold NaN: BLAS's rule), see spmv_out();
 *   - rows that work groups share are never written by two of them: each group leaves its
 *     share of its first and last row in part_first/part_last with the rows in
 *     seg_first/seg_last (-1: none), and spmv_combine adds them up in group order, so the
 *     result does not depend on scheduling (no float atomics).
 */
#include "magnus_dialect.h"

MG_DEVICE mg_val spmv_scalar(mg_u64 bits) {
#ifdef MG_VALUE_F64
    return mg_as_double(bits);
#else
    return mg_as_float((mg_u32)bits);
#endif
}

/* alpha*t + beta*old, reading old only when beta != 0. */
MG_DEVICE void spmv_out(MG_GLOBAL mg_val *y, mg_i64 r, mg_val t, mg_val alpha, mg_val beta) {
    y[r] = beta == (mg_val)0 ? alpha * t : alpha * t + beta * y[r];
}

/* The largest r in [0, rows] with row_ptr[r] <= k: for k < nnz the row holding entry k. */
MG_DEVICE mg_i64 spmv_row_of(MG_GLOBAL const mg_i64 *row_ptr, mg_i64 rows, mg_i64 k) {
    mg_i64 lo = 0, hi = rows;
    while (lo < hi) {
        mg_i64 mid = lo + (hi - lo + 1) / 2;
        if (row_ptr[mid] <= k) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* y[i] = beta*y[i] (0 when beta == 0, y unread). */
MG_KERNEL void spmv_scale(mg_u64 n, MG_GLOBAL mg_val *y, mg_u64 beta_bits, MG_DYN_LOCAL_PARAM) {
    const mg_val beta = spmv_scalar(beta_bits);
    for (mg_u64 i = mg_global_id(); i < n; i += mg_num_groups() * mg_local_size())
        y[i] = beta == (mg_val)0 ? (mg_val)0 : beta * y[i];
}

/* CSR, `lanes` work items per row (a power of two dividing the group), group size / lanes
 * rows per group at a time, grid-stride; partial sums reduced in local memory (one mg_val
 * per work item). */
MG_KERNEL void spmv_csr_vector(mg_i64 rows, MG_GLOBAL const mg_i64 *row_ptr,
                               MG_GLOBAL const mg_i32 *col, MG_GLOBAL const mg_val *val,
                               MG_GLOBAL const mg_val *x, MG_GLOBAL mg_val *y, mg_u64 alpha_bits,
                               mg_u64 beta_bits, mg_u32 lanes, MG_DYN_LOCAL_PARAM) {
    MG_LOCAL mg_val *sums = MG_LOCAL_CAST(mg_val, 0);
    const mg_val alpha = spmv_scalar(alpha_bits), beta = spmv_scalar(beta_bits);
    const mg_u32 lid = mg_local_id(), lane = lid % lanes;
    const mg_i64 per_group = (mg_i64)(mg_local_size() / lanes);
    for (mg_i64 base = (mg_i64)mg_group_id() * per_group; base < rows;
         base += (mg_i64)mg_num_groups() * per_group) {
        const mg_i64 r = base + (mg_i64)(lid / lanes);
        mg_val s = 0;
        if (r < rows)
            for (mg_i64 k = row_ptr[r] + lane; k < row_ptr[r + 1]; k += lanes)
                s += val[k] * x[col[k]];
        sums[lid] = s;
        mg_barrier();
        for (mg_u32 w = lanes / 2; w > 0; w /= 2) {
            if (lane < w) sums[lid] += sums[lid + w];
            mg_barrier();
        }
        if (lane == 0 && r < rows) spmv_out(y, r, sums[lid], alpha, beta);
        mg_barrier();
    }
}

/*
 * CSR with balanced work: group g takes entries [g*per_group, min((g+1)*per_group, nnz)).
 * Its rows are r0 = the row of its first entry (0 for group 0, so leading empty rows are
 * covered) up to r1 = the row of the next group's first entry (rows for the last group).
 * Rows strictly between are whole in the group (empty ones included) and written here; r0's
 * and r1's shares go to part_first/part_last for spmv_combine. Lanes per row come from the
 * group's own mean row length, so a group of one long row reduces it with every item.
 */
MG_KERNEL void spmv_balanced(mg_i64 rows, mg_i64 nnz, mg_i64 per_group, mg_u64 ngroups,
                             MG_GLOBAL const mg_i64 *row_ptr, MG_GLOBAL const mg_i32 *col,
                             MG_GLOBAL const mg_val *val, MG_GLOBAL const mg_val *x,
                             MG_GLOBAL mg_val *y, mg_u64 alpha_bits, mg_u64 beta_bits,
                             MG_GLOBAL mg_i32 *seg_first, MG_GLOBAL mg_i32 *seg_last,
                             MG_GLOBAL mg_val *part_first, MG_GLOBAL mg_val *part_last,
                             MG_DYN_LOCAL_PARAM) {
    MG_LOCAL mg_val *sums = MG_LOCAL_CAST(mg_val, 0);
    MG_LOCAL_ARRAY(mg_i64, bounds, 2);
    const mg_val alpha = spmv_scalar(alpha_bits), beta = spmv_scalar(beta_bits);
    const mg_u32 lid = mg_local_id(), size = mg_local_size();
    for (mg_u64 g = mg_group_id(); g < ngroups; g += mg_num_groups()) {
        const mg_i64 b = (mg_i64)g * per_group, e = MG_MIN(b + per_group, nnz);
        if (lid == 0) {
            bounds[0] = g == 0 ? 0 : spmv_row_of(row_ptr, rows, b);
            bounds[1] = g + 1 == ngroups ? rows : spmv_row_of(row_ptr, rows, e);
        }
        mg_barrier();
        const mg_i64 r0 = bounds[0], r1 = bounds[1];
        const mg_i64 last = r1 < rows ? r1 : rows - 1;
        const mg_i64 mean = (e - b) / (last - r0 + 1);
        mg_u32 lanes = 1;
        while ((mg_i64)lanes * 2 <= mean && lanes * 2 <= size) lanes *= 2;
        const mg_u32 lane = lid % lanes;
        const mg_i64 per_batch = (mg_i64)(size / lanes);
        for (mg_i64 base = r0; base <= last; base += per_batch) {
            const mg_i64 r = base + (mg_i64)(lid / lanes);
            mg_val s = 0;
            if (r <= last) {
                const mg_i64 hi = MG_MIN(row_ptr[r + 1], e);
                for (mg_i64 k = MG_MAX(row_ptr[r], b) + lane; k < hi; k += lanes)
                    s += val[k] * x[col[k]];
            }
            sums[lid] = s;
            mg_barrier();
            for (mg_u32 w = lanes / 2; w > 0; w /= 2) {
                if (lane < w) sums[lid] += sums[lid + w];
                mg_barrier();
            }
            if (lane == 0 && r <= last) {
                if (r == r0) part_first[g] = sums[lid];
                else if (r == r1) part_last[g] = sums[lid];
                else spmv_out(y, r, sums[lid], alpha, beta);
            }
            mg_barrier();
        }
        if (lid == 0) {
            const int has_last = r1 < rows && r1 != r0;
            seg_first[g] = (mg_i32)r0;
            seg_last[g] = has_last ? (mg_i32)r1 : -1;
            if (!has_last) part_last[g] = 0;
        }
        mg_barrier();
    }
}

/* The shares of row r in segments j, j+1, ... that begin with r, up to the one where r ends. */
MG_DEVICE mg_val spmv_chain(mg_u64 j, mg_u64 nseg, mg_i32 r, MG_GLOBAL const mg_i32 *seg_first,
                            MG_GLOBAL const mg_i32 *seg_last, MG_GLOBAL const mg_val *part_first) {
    mg_val t = 0;
    for (; j < nseg && seg_first[j] == r; j++) {
        t += part_first[j];
        if (seg_last[j] >= 0) break;
    }
    return t;
}

/*
 * The rows that segments (work groups) share: segment s owns its last row (which begins in
 * it) and its first row when the previous segment does not touch it; the owner adds the
 * shares in segment order. prescaled: y already holds beta*y (COO), so y += alpha*t; else
 * y = alpha*t + beta*y.
 */
MG_KERNEL void spmv_combine(mg_u64 nseg, MG_GLOBAL const mg_i32 *seg_first,
                            MG_GLOBAL const mg_i32 *seg_last, MG_GLOBAL const mg_val *part_first,
                            MG_GLOBAL const mg_val *part_last, MG_GLOBAL mg_val *y,
                            mg_u64 alpha_bits, mg_u64 beta_bits, mg_i32 prescaled,
                            MG_DYN_LOCAL_PARAM) {
    const mg_val alpha = spmv_scalar(alpha_bits), beta = spmv_scalar(prescaled ? 0 : beta_bits);
    for (mg_u64 s = mg_global_id(); s < nseg; s += mg_num_groups() * mg_local_size()) {
        const mg_i32 f = seg_first[s], l = seg_last[s];
        const mg_i32 prev = s == 0 ? -1 : (seg_last[s - 1] >= 0 ? seg_last[s - 1] : seg_first[s - 1]);
        if (f >= 0 && prev != f) {
            mg_val t = part_first[s];
            if (l < 0) t += spmv_chain(s + 1, nseg, f, seg_first, seg_last, part_first);
            if (prescaled) y[f] += alpha * t;
            else spmv_out(y, f, t, alpha, beta);
        }
        if (l >= 0) {
            mg_val t = part_last[s] + spmv_chain(s + 1, nseg, l, seg_first, seg_last, part_first);
            if (prescaled) y[l] += alpha * t;
            else spmv_out(y, l, t, alpha, beta);
        }
    }
}

/* COO conversion: coo_row[k] = the row of entry k (a work group per row, grid-stride). */
MG_KERNEL void spmv_coo_rows(mg_i64 rows, MG_GLOBAL const mg_i64 *row_ptr,
                             MG_GLOBAL mg_i32 *coo_row, MG_DYN_LOCAL_PARAM) {
    for (mg_i64 r = (mg_i64)mg_group_id(); r < rows; r += (mg_i64)mg_num_groups())
        for (mg_i64 k = row_ptr[r] + mg_local_id(); k < row_ptr[r + 1]; k += mg_local_size())
            coo_row[k] = (mg_i32)r;
}

/* The shares, in items j, j+1, ... of this group, of row r that those items begin with. */
MG_DEVICE mg_val spmv_chain_local(mg_u32 j, mg_u32 size, mg_i32 r, MG_LOCAL const mg_i32 *frow,
                                  MG_LOCAL const mg_i32 *lrow, MG_LOCAL const mg_val *pf) {
    mg_val t = 0;
    for (; j < size && frow[j] == r; j++) {
        t += pf[j];
        if (lrow[j] >= 0) break;
    }
    return t;
}

/*
 * COO (rows sorted), y already scaled by beta: group g takes entries [g*per_group, ...),
 * each item per_item consecutive ones (per_group = group size * per_item), summed serially
 * by row. An item writes the rows that begin and end inside it; its first and last rows'
 * shares meet in local memory, where the owning item (as in spmv_combine) adds them; the
 * group's own first and last rows go to part_first/part_last for spmv_combine.
 * Local memory: 2 int32 and 2 mg_val per work item.
 */
MG_KERNEL void spmv_coo(mg_i64 nnz, mg_i64 per_group, mg_u64 ngroups, mg_u32 per_item,
                        MG_GLOBAL const mg_i32 *coo_row, MG_GLOBAL const mg_i32 *coo_col,
                        MG_GLOBAL const mg_val *coo_val, MG_GLOBAL const mg_val *x,
                        MG_GLOBAL mg_val *y, mg_u64 alpha_bits, MG_GLOBAL mg_i32 *seg_first,
                        MG_GLOBAL mg_i32 *seg_last, MG_GLOBAL mg_val *part_first,
                        MG_GLOBAL mg_val *part_last, MG_DYN_LOCAL_PARAM) {
    const mg_u32 lid = mg_local_id(), size = mg_local_size();
    MG_LOCAL mg_i32 *frow = MG_LOCAL_CAST(mg_i32, 0);
    MG_LOCAL mg_i32 *lrow = MG_LOCAL_CAST(mg_i32, (mg_u64)size * 4);
    MG_LOCAL mg_val *pf = MG_LOCAL_CAST(mg_val, (mg_u64)size * 8);
    MG_LOCAL mg_val *pl = MG_LOCAL_CAST(mg_val, (mg_u64)size * (8 + sizeof(mg_val)));
    const mg_val alpha = spmv_scalar(alpha_bits);
    for (mg_u64 g = mg_group_id(); g < ngroups; g += mg_num_groups()) {
        const mg_i64 b = (mg_i64)g * per_group, e = MG_MIN(b + per_group, nnz);
        const mg_i32 gf = coo_row[b], gl = coo_row[e - 1];
        const mg_i64 ib = b + (mg_i64)lid * per_item, ie = MG_MIN(ib + (mg_i64)per_item, e);
        mg_i32 fr = -1, lr = -1;
        mg_val sf = 0, sl = 0;
        if (ib < ie) {
            mg_i32 r = coo_row[ib];
            mg_val s = 0;
            fr = r;
            for (mg_i64 k = ib; k < ie; k++) {
                const mg_i32 rk = coo_row[k];
                if (rk != r) {
                    if (r == fr) sf = s;
                    else y[r] += alpha * s;
                    r = rk;
                    s = 0;
                }
                s += coo_val[k] * x[coo_col[k]];
            }
            if (r == fr) {
                sf = s;
            } else {
                lr = r;
                sl = s;
            }
        }
        frow[lid] = fr;
        lrow[lid] = lr;
        pf[lid] = sf;
        pl[lid] = sl;
        mg_barrier();
        for (int side = 0; side < 2 && ib < ie; side++) {
            const mg_i32 prev = lid == 0 ? -1 : (lrow[lid - 1] >= 0 ? lrow[lid - 1] : frow[lid - 1]);
            mg_i32 r;
            mg_val t;
            if (side == 0) {
                if (prev == fr) continue;
                r = fr;
                t = sf + (lr < 0 ? spmv_chain_local(lid + 1, size, fr, frow, lrow, pf) : 0);
            } else {
                if (lr < 0) continue;
                r = lr;
                t = sl + spmv_chain_local(lid + 1, size, lr, frow, lrow, pf);
            }
            if (r == gf) part_first[g] = t;
            else if (r == gl) part_last[g] = t;
            else y[r] += alpha * t;
        }
        if (lid == 0) {
            seg_first[g] = gf;
            seg_last[g] = gl != gf ? gl : -1;
            if (gl == gf) part_last[g] = 0;
        }
        mg_barrier();
    }
}

/* keys[r] = min(length of row r, cap): the row-length histogram's keys. */
MG_KERNEL void spmv_row_keys(mg_i64 rows, MG_GLOBAL const mg_i64 *row_ptr, mg_u32 cap,
                             MG_GLOBAL mg_u32 *keys, MG_DYN_LOCAL_PARAM) {
    for (mg_u64 r = mg_global_id(); r < (mg_u64)rows; r += mg_num_groups() * mg_local_size())
        keys[r] = (mg_u32)MG_MIN(row_ptr[r + 1] - row_ptr[r], (mg_i64)cap);
}

/* ELL part of the hybrid format, column-major (entry j of row r at j*rows + r; padding has
 * column -1), and coo_count[r] = the entries of row r beyond the width. */
MG_KERNEL void spmv_ell_fill(mg_i64 rows, mg_i64 width, MG_GLOBAL const mg_i64 *row_ptr,
                             MG_GLOBAL const mg_i32 *col, MG_GLOBAL const mg_val *val,
                             MG_GLOBAL mg_i32 *ell_col, MG_GLOBAL mg_val *ell_val,
                             MG_GLOBAL mg_u64 *coo_count, MG_DYN_LOCAL_PARAM) {
    for (mg_u64 r = mg_global_id(); r < (mg_u64)rows; r += mg_num_groups() * mg_local_size()) {
        const mg_i64 p = row_ptr[r], len = row_ptr[r + 1] - p;
        for (mg_i64 j = 0; j < width; j++) {
            const mg_u64 at = (mg_u64)j * (mg_u64)rows + r;
            ell_col[at] = j < len ? col[p + j] : -1;
            ell_val[at] = j < len ? val[p + j] : (mg_val)0;
        }
        coo_count[r] = len > width ? (mg_u64)(len - width) : 0;
    }
}

/* COO part of the hybrid format: row r's entries beyond the width, from coo_ptr[r] (the
 * scanned coo_count). A work group per row. */
MG_KERNEL void spmv_coo_fill(mg_i64 rows, mg_i64 width, MG_GLOBAL const mg_i64 *row_ptr,
                             MG_GLOBAL const mg_i32 *col, MG_GLOBAL const mg_val *val,
                             MG_GLOBAL const mg_u64 *coo_ptr, MG_GLOBAL mg_i32 *coo_row,
                             MG_GLOBAL mg_i32 *coo_col, MG_GLOBAL mg_val *coo_val,
                             MG_DYN_LOCAL_PARAM) {
    for (mg_i64 r = (mg_i64)mg_group_id(); r < rows; r += (mg_i64)mg_num_groups()) {
        const mg_i64 p = row_ptr[r] + width, q = (mg_i64)coo_ptr[r];
        for (mg_i64 k = p + mg_local_id(); k < row_ptr[r + 1]; k += mg_local_size()) {
            coo_row[q + k - p] = (mg_i32)r;
            coo_col[q + k - p] = col[k];
            coo_val[q + k - p] = val[k];
        }
    }
}

/* ELL product, a work item per row: y = alpha*(ELL part) + beta*y. */
MG_KERNEL void spmv_ell(mg_i64 rows, mg_i64 width, MG_GLOBAL const mg_i32 *ell_col,
                        MG_GLOBAL const mg_val *ell_val, MG_GLOBAL const mg_val *x,
                        MG_GLOBAL mg_val *y, mg_u64 alpha_bits, mg_u64 beta_bits,
                        MG_DYN_LOCAL_PARAM) {
    const mg_val alpha = spmv_scalar(alpha_bits), beta = spmv_scalar(beta_bits);
    for (mg_u64 r = mg_global_id(); r < (mg_u64)rows; r += mg_num_groups() * mg_local_size()) {
        mg_val s = 0;
        for (mg_i64 j = 0; j < width; j++) {
            const mg_u64 at = (mg_u64)j * (mg_u64)rows + r;
            const mg_i32 c = ell_col[at];
            if (c >= 0) s += ell_val[at] * x[c];
        }
        spmv_out(y, (mg_i64)r, s, alpha, beta);
    }
}

/* SELL-P slice sizes: slice_len[s] = slice * (longest row of slice s rounded up to a
 * multiple of stride). */
MG_KERNEL void spmv_sellp_widths(mg_i64 rows, mg_i64 slice, mg_i64 stride,
                                 MG_GLOBAL const mg_i64 *row_ptr, MG_GLOBAL mg_u64 *slice_len,
                                 MG_DYN_LOCAL_PARAM) {
    const mg_u64 nslices = (mg_u64)((rows + slice - 1) / slice);
    for (mg_u64 s = mg_global_id(); s < nslices; s += mg_num_groups() * mg_local_size()) {
        const mg_i64 first = (mg_i64)s * slice, end = MG_MIN(first + slice, rows);
        mg_i64 w = 0;
        for (mg_i64 r = first; r < end; r++) w = MG_MAX(w, row_ptr[r + 1] - row_ptr[r]);
        slice_len[s] = (mg_u64)(((w + stride - 1) / stride) * stride * slice);
    }
}

/* SELL-P fill: row r of slice s, entry j at slice_ptr[s] + j*slice + r % slice (padding:
 * column -1). A work item per row. */
MG_KERNEL void spmv_sellp_fill(mg_i64 rows, mg_i64 slice, MG_GLOBAL const mg_i64 *row_ptr,
                               MG_GLOBAL const mg_i32 *col, MG_GLOBAL const mg_val *val,
                               MG_GLOBAL const mg_u64 *slice_ptr, MG_GLOBAL mg_i32 *s_col,
                               MG_GLOBAL mg_val *s_val, MG_DYN_LOCAL_PARAM) {
    for (mg_u64 r = mg_global_id(); r < (mg_u64)rows; r += mg_num_groups() * mg_local_size()) {
        const mg_u64 s = r / (mg_u64)slice, in = r % (mg_u64)slice;
        const mg_u64 base = slice_ptr[s], width = (slice_ptr[s + 1] - base) / (mg_u64)slice;
        const mg_i64 p = row_ptr[r], len = row_ptr[r + 1] - p;
        for (mg_u64 j = 0; j < width; j++) {
            const mg_u64 at = base + j * (mg_u64)slice + in;
            s_col[at] = (mg_i64)j < len ? col[p + (mg_i64)j] : -1;
            s_val[at] = (mg_i64)j < len ? val[p + (mg_i64)j] : (mg_val)0;
        }
    }
}

/* SELL-P product, a work item per row (consecutive items read consecutive entries). */
MG_KERNEL void spmv_sellp(mg_i64 rows, mg_i64 slice, MG_GLOBAL const mg_u64 *slice_ptr,
                          MG_GLOBAL const mg_i32 *s_col, MG_GLOBAL const mg_val *s_val,
                          MG_GLOBAL const mg_val *x, MG_GLOBAL mg_val *y, mg_u64 alpha_bits,
                          mg_u64 beta_bits, MG_DYN_LOCAL_PARAM) {
    const mg_val alpha = spmv_scalar(alpha_bits), beta = spmv_scalar(beta_bits);
    for (mg_u64 r = mg_global_id(); r < (mg_u64)rows; r += mg_num_groups() * mg_local_size()) {
        const mg_u64 s = r / (mg_u64)slice, in = r % (mg_u64)slice;
        const mg_u64 base = slice_ptr[s], width = (slice_ptr[s + 1] - base) / (mg_u64)slice;
        mg_val t = 0;
        for (mg_u64 j = 0; j < width; j++) {
            const mg_u64 at = base + j * (mg_u64)slice + in;
            const mg_i32 c = s_col[at];
            if (c >= 0) t += s_val[at] * x[c];
        }
        spmv_out(y, (mg_i64)r, t, alpha, beta);
    }
}

/* count[0] += rows longer than threshold (AUTO's test; integer atomics, so exact). */
MG_KERNEL void spmv_long_rows(mg_i64 rows, MG_GLOBAL const mg_i64 *row_ptr, mg_i64 threshold,
                              MG_GLOBAL mg_u32 *count, MG_DYN_LOCAL_PARAM) {
    for (mg_u64 r = mg_global_id(); r < (mg_u64)rows; r += mg_num_groups() * mg_local_size())
        if (row_ptr[r + 1] - row_ptr[r] > threshold) mg_atomic_add_u32(&count[0], 1);
}

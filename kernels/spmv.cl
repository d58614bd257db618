/*
 * SpMV, y = alpha*A*x + beta*y, in the formats of Anzt, Chow and Dongarra (TOPC 2020):
 * CSR with a group of lanes per row, merge-path CSR (row ends and nonzeros split evenly among
 * work groups), COO, hybrid ELL + COO and SELL-P, plus the device conversions into them
 * (docs/algorithm.md §9 describes each; runtime/spmv/ launches them).
 *
 * Common rules:
 *   - alpha and beta come as the bits of an mg_val (kernels take no mg_val scalar):
 *     spmv_scalar() turns them back;
 *   - beta == 0 never reads y (y may hold NaN: BLAS's rule), see spmv_out();
 *   - rows that work groups share are never written by two of them: each group leaves its
 *     share of its first and last row in part_first/part_last with the rows in
 *     seg_first/seg_last (-1: none), and spmv_combine adds them up in group order, so the
 *     result does not depend on scheduling (no float atomics);
 *   - inside a group, spmv_merge and spmv_coo stage their share in local memory with
 *     coalesced loads, and combine the rows their work items share by a segmented scan in
 *     local memory (spmv_seg_scan), in a fixed order.
 */
#include "magnus_dialect.h"
#include "shared/spmv_layout.h"

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
 * CSR_BALANCED: merge-path CSR (the idea of Merrill and Garland, "Merge-based parallel sparse
 * matrix-vector multiplication", SC16). The merge of the row ends row_ptr[1..rows] with the
 * entry indices 0..nnz-1 (a row end r goes before entry k when row_ptr[r+1] <= k) has
 * rows + nnz items; group g takes items [g*W, (g+1)*W), W = group size * per_item, so every
 * group and every work item gets the same work whatever the row lengths (long rows, runs of
 * empty rows). The diagonal search of item d: the number i of row ends among the first d
 * items, the least i in [max(0, d - nnz), min(d, rows)] with row_ptr[i+1] > d - i - 1 (then the
 * entries are k = d - i).
 */

/* The row coordinate of diagonal d in the global merge. */
MG_DEVICE mg_i64 spmv_merge_search(MG_GLOBAL const mg_i64 *row_ptr, mg_i64 rows, mg_i64 nnz,
                                   mg_i64 d) {
    mg_i64 lo = MG_MAX(d - nnz, (mg_i64)0), hi = MG_MIN(d, rows);
    while (lo < hi) {
        const mg_i64 mid = lo + (hi - lo) / 2;
        if (row_ptr[mid + 1] <= d - mid - 1) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Plan conversion: starts[g] = the row coordinate where group g's items begin, g = 0..ngroups
 * (starts[ngroups] = rows). */
MG_KERNEL void spmv_merge_starts(mg_i64 rows, mg_i64 nnz, mg_i64 per_group, mg_u64 ngroups,
                                 MG_GLOBAL const mg_i64 *row_ptr, MG_GLOBAL mg_i64 *starts,
                                 MG_DYN_LOCAL_PARAM) {
    for (mg_u64 g = mg_global_id(); g <= ngroups; g += mg_num_groups() * mg_local_size())
        starts[g] = spmv_merge_search(row_ptr, rows, nnz, MG_MIN((mg_i64)g * per_group, rows + nnz));
}

/*
 * Inclusive segmented scan over the group of (v, f): an item with f set starts a segment.
 * sv and sf hold 2 * size values (ping-pong: one barrier a step); all items must call it.
 * Returns the offset (0 or size) of the half that holds the result, sv[off + lid].
 */
MG_DEVICE mg_u32 spmv_seg_scan(mg_u32 lid, mg_u32 size, mg_val v, mg_i32 f, MG_LOCAL mg_val *sv,
                               MG_LOCAL mg_i32 *sf) {
    mg_u32 src = 0;
    sv[lid] = v;
    sf[lid] = f;
    mg_barrier();
    for (mg_u32 off = 1; off < size; off *= 2) {
        if (lid >= off && !f) {
            v += sv[src + lid - off];
            f = sf[src + lid - off];
        }
        src = size - src;
        sv[src + lid] = v;
        sf[src + lid] = f;
        mg_barrier();
    }
    return src;
}

/*
 * The merge-path product. Group g's items run from (r0, k0) to (r1, k1) (row ends r0..r1-1,
 * entries k0..k1-1; r = starts[g], k = diagonal - r). The group first stages, with coalesced
 * loads (consecutive items, consecutive entries), the products val[k]*x[col[k]] of its entries
 * and its row ends as offsets from k0 in local memory; each work item then finds its own
 * per_item items by a diagonal search in local memory and consumes them in order: an entry is
 * added to a running sum, a row end finishes a row. Rows whose end and start are both in the
 * item are written at once (alpha*sum + beta*y). Each item's first row end gets the shares of
 * the items before it by a segmented scan of the items' carries (the sum after an item's last
 * row end, or its whole sum when it ends no row) in local memory, in a fixed order; the group's
 * first row r0 and its last row r1 (begun here, ended in a later group) go to part_first /
 * part_last for spmv_combine, seg_last = -1 when the group ends no row (r1 == r0) or r1 ==
 * rows. Local memory: mg_spmv_merge_bytes per work item (the staged items, then the scan's
 * two halves), then nhot values.
 *
 * Hot x (nhot > 0): the plan's nhot most gathered columns, hot_cols[s], are copied into local
 * memory once per work group, before its segments; their entries come with column -1 - s
 * (the plan's own column array), so that their gathers read local memory instead of a 32-byte
 * sector of L2 each (docs/performance.md, "SpMV: x's hot columns in local memory"). With
 * nhot = 0 every column is A's own and hot_cols is not read.
 */
MG_KERNEL void spmv_merge(mg_i64 rows, mg_i64 nnz, mg_u32 per_item, mg_u64 ngroups,
                          MG_GLOBAL const mg_i64 *starts, MG_GLOBAL const mg_i64 *row_ptr,
                          MG_GLOBAL const mg_i32 *col, MG_GLOBAL const mg_val *val,
                          MG_GLOBAL const mg_val *x, MG_GLOBAL mg_val *y, mg_u64 alpha_bits,
                          mg_u64 beta_bits, MG_GLOBAL mg_i32 *seg_first,
                          MG_GLOBAL mg_i32 *seg_last, MG_GLOBAL mg_val *part_first,
                          MG_GLOBAL mg_val *part_last, mg_u32 nhot,
                          MG_GLOBAL const mg_i32 *hot_cols, MG_DYN_LOCAL_PARAM) {
    const mg_u32 lid = mg_local_id(), size = mg_local_size();
    const mg_i64 per_group = (mg_i64)size * per_item;
    MG_LOCAL mg_val *hot_x =
        MG_LOCAL_CAST(mg_val, mg_spmv_hot_offset(size, per_item, sizeof(mg_val)));
    if (nhot > 0) { /* the same for the whole group: the barrier is reached by all or none */
        for (mg_u32 i = lid; i < nhot; i += size) hot_x[i] = x[hot_cols[i]];
        mg_barrier();
    }
    /* the scan's halves lie over the staged products, which the walk has finished with */
    MG_LOCAL mg_val *prod = MG_LOCAL_CAST(mg_val, 0);
    MG_LOCAL mg_i32 *ends = MG_LOCAL_CAST(mg_i32, (mg_u64)per_group * sizeof(mg_val));
    MG_LOCAL mg_val *scan_v = MG_LOCAL_CAST(mg_val, 0);
    MG_LOCAL mg_i32 *scan_f = MG_LOCAL_CAST(mg_i32, (mg_u64)size * 2 * sizeof(mg_val));
    const mg_val alpha = spmv_scalar(alpha_bits), beta = spmv_scalar(beta_bits);
    for (mg_u64 g = mg_group_id(); g < ngroups; g += mg_num_groups()) {
        const mg_i64 d0 = (mg_i64)g * per_group, d1 = MG_MIN(d0 + per_group, rows + nnz);
        const mg_i64 r0 = starts[g], r1 = starts[g + 1];
        const mg_i64 k0 = d0 - r0, k1 = d1 - r1;
        const mg_i32 nr = (mg_i32)(r1 - r0), nk = (mg_i32)(k1 - k0);
        /* MG_SPMV_STAGE_LOADS loads of each kind in flight per work item, not one (docs/performance.md) */
        for (mg_i32 b = 0; b < nk; b += (mg_i32)size * MG_SPMV_STAGE_LOADS) {
            mg_i32 c[MG_SPMV_STAGE_LOADS];
            mg_val v[MG_SPMV_STAGE_LOADS];
            MG_UNROLL
            for (mg_i32 j = 0; j < MG_SPMV_STAGE_LOADS; j++) {
                const mg_i32 i = b + (mg_i32)lid + j * (mg_i32)size;
                /* read once: the L1 keeps the gathers of x instead (docs/performance.md) */
                c[j] = i < nk ? mg_load_once(&col[k0 + i]) : 0;
                v[j] = i < nk ? mg_load_once(&val[k0 + i]) : (mg_val)0;
            }
            MG_UNROLL
            for (mg_i32 j = 0; j < MG_SPMV_STAGE_LOADS; j++) {
                const mg_i32 i = b + (mg_i32)lid + j * (mg_i32)size;
                if (i < nk) prod[i] = v[j] * (c[j] < 0 ? hot_x[-1 - c[j]] : x[c[j]]);
            }
        }
        for (mg_i32 i = (mg_i32)lid; i < nr; i += (mg_i32)size)
            ends[i] = (mg_i32)(mg_load_once(&row_ptr[r0 + 1 + i]) - k0);
        mg_barrier();
        /* this item's start: row ends ri, entries ki = dl - ri */
        const mg_i32 dl = (mg_i32)MG_MIN((mg_i64)lid * per_item, (mg_i64)(nr + nk));
        mg_i32 lo = MG_MAX(dl - nk, 0), hi = MG_MIN(dl, nr);
        while (lo < hi) {
            const mg_i32 mid = lo + (hi - lo) / 2;
            if (ends[mid] <= dl - mid - 1) lo = mid + 1;
            else hi = mid;
        }
        mg_i32 ri = lo, ki = dl - lo;
        const mg_i32 first_row = ri; /* relative to r0 */
        mg_i32 has_end = 0;
        mg_val head = 0, s = 0;
        for (mg_u32 t = 0; t < per_item; t++) {
            if (ri < nr && ends[ri] <= ki) {
                if (has_end) spmv_out(y, r0 + ri, s, alpha, beta);
                else head = s;
                has_end = 1;
                s = 0;
                ri++;
            } else if (ki < nk) {
                s += prod[ki];
                ki++;
            }
        }
        mg_barrier(); /* every walk done before the scan overwrites prod */
        const mg_u32 at = spmv_seg_scan(lid, size, s, has_end, scan_v, scan_f);
        if (has_end) {
            const mg_val t = head + (lid > 0 ? scan_v[at + lid - 1] : (mg_val)0);
            if (first_row == 0) part_first[g] = t;
            else spmv_out(y, r0 + first_row, t, alpha, beta);
        }
        if (lid == size - 1) {
            seg_first[g] = (mg_i32)r0;
            if (nr == 0) {
                part_first[g] = scan_v[at + lid];
                seg_last[g] = -1;
                part_last[g] = 0;
            } else {
                seg_last[g] = r1 < rows ? (mg_i32)r1 : -1;
                part_last[g] = r1 < rows ? scan_v[at + lid] : (mg_val)0;
            }
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

/*
 * COO (rows sorted), y already scaled by beta: group g takes entries [g*per_group, ...),
 * per_group = group size * per_item. The group first stages its entries' rows and products
 * coo_val[k]*x[coo_col[k]] in local memory with coalesced loads (consecutive work items,
 * consecutive entries); then each item walks its per_item consecutive entries in local memory
 * (per_item odd keeps the items' strided reads on different banks), summing by row. A row
 * ends where the row index changes (also between the last entry of the item before and this
 * item's first): the rows that begin and end inside the item are added to y at once; the
 * item's first row to end gets the shares of the items before it by the segmented scan of the
 * items' carries (what follows an item's last row end, or all of it when it ends no row), as
 * in spmv_merge. The group's first row (srow[0]) and last row go to part_first / part_last
 * for spmv_combine (seg_last = -1 when the group has one row).
 * Local memory: (per_item + 2) * (sizeof(mg_val) + 4) bytes per work item.
 */
MG_KERNEL void spmv_coo(mg_i64 nnz, mg_i64 per_group, mg_u64 ngroups, mg_u32 per_item,
                        MG_GLOBAL const mg_i32 *coo_row, MG_GLOBAL const mg_i32 *coo_col,
                        MG_GLOBAL const mg_val *coo_val, MG_GLOBAL const mg_val *x,
                        MG_GLOBAL mg_val *y, mg_u64 alpha_bits, MG_GLOBAL mg_i32 *seg_first,
                        MG_GLOBAL mg_i32 *seg_last, MG_GLOBAL mg_val *part_first,
                        MG_GLOBAL mg_val *part_last, MG_DYN_LOCAL_PARAM) {
    const mg_u32 lid = mg_local_id(), size = mg_local_size();
    const mg_u64 scan_bytes = (mg_u64)size * 2 * (sizeof(mg_val) + 4);
    MG_LOCAL mg_val *scan_v = MG_LOCAL_CAST(mg_val, 0);
    MG_LOCAL mg_i32 *scan_f = MG_LOCAL_CAST(mg_i32, (mg_u64)size * 2 * sizeof(mg_val));
    MG_LOCAL mg_val *prod = MG_LOCAL_CAST(mg_val, scan_bytes);
    MG_LOCAL mg_i32 *srow = MG_LOCAL_CAST(mg_i32, scan_bytes + (mg_u64)per_group * sizeof(mg_val));
    const mg_val alpha = spmv_scalar(alpha_bits);
    for (mg_u64 g = mg_group_id(); g < ngroups; g += mg_num_groups()) {
        const mg_i64 b = (mg_i64)g * per_group, e = MG_MIN(b + per_group, nnz);
        const mg_i32 n = (mg_i32)(e - b);
        for (mg_i32 i = (mg_i32)lid; i < n; i += (mg_i32)size) {
            srow[i] = coo_row[b + i];
            prod[i] = coo_val[b + i] * x[coo_col[b + i]];
        }
        mg_barrier();
        const mg_i32 gf = srow[0], gl = srow[n - 1];
        const mg_i32 ib = (mg_i32)MG_MIN((mg_i64)lid * per_item, (mg_i64)n);
        const mg_i32 ie = MG_MIN(ib + (mg_i32)per_item, n);
        mg_i32 cur = srow[ib > 0 ? ib - 1 : 0], first_row = -1, has_end = 0;
        mg_val head = 0, s = 0;
        for (mg_i32 k = ib; k < ie; k++) {
            const mg_i32 rk = srow[k];
            if (rk != cur) {
                if (has_end) y[cur] += alpha * s;
                else {
                    head = s;
                    first_row = cur;
                }
                has_end = 1;
                cur = rk;
                s = 0;
            }
            s += prod[k];
        }
        const mg_u32 at = spmv_seg_scan(lid, size, s, has_end, scan_v, scan_f);
        if (has_end) {
            const mg_val t = head + (lid > 0 ? scan_v[at + lid - 1] : (mg_val)0);
            if (first_row == gf) part_first[g] = t;
            else y[first_row] += alpha * t;
        }
        if (lid == size - 1) {
            seg_first[g] = gf;
            if (gl == gf) {
                part_first[g] = scan_v[at + lid];
                seg_last[g] = -1;
                part_last[g] = 0;
            } else {
                seg_last[g] = gl;
                part_last[g] = scan_v[at + lid];
            }
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


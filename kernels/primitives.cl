/*
 * Device-wide primitives: exclusive scan, flagged partition, histogram, fill, gather, and the
 * check and fingerprint of a CSR structure.
 * Host wrappers and their guarantees: runtime/primitives/primitives.h (those of the CSR
 * structure and of the value scaling: runtime/device/, whose device matrices use them).
 * Written in the magnus dialect (kernels/magnus_dialect.h); every kernel is 1-D, and work
 * groups never wait on each other.
 *
 * Tiles: scan and partition work on tiles of MG_PRIM_ITEMS * local_size consecutive elements
 * (kernels/shared/prim_layout.h: the tile size and every kernel's local-memory layout, which
 * the host sizes its launches from).
 * Kernels walk tiles grid-stride (tile = group, group + num_groups, ...), so a launch of any
 * number of groups covers any number of tiles, and every index is 64-bit. Work group sizes
 * are powers of two (the tree reductions below assume it); the host guarantees that.
 */
#include "magnus_dialect.h"
#include "shared/csr_structure.h"
#include "shared/prim_layout.h"

/*
 * Exclusive scan of one value per work item across the work group (Hillis-Steele in `part`,
 * local_size entries). Returns the sum of the values of lower local ids; afterwards
 * part[local_size - 1] holds the group's total until the caller's next barrier-separated write.
 */
#define PRIM_GROUP_SCAN(T, SUF)                                                                  \
    MG_DEVICE T prim_group_scan_##SUF(MG_LOCAL T *part, T value) {                               \
        mg_u32 lid = mg_local_id(), gs = mg_local_size();                                        \
        part[lid] = value;                                                                       \
        mg_barrier();                                                                            \
        for (mg_u32 off = 1; off < gs; off <<= 1) {                                              \
            T add = lid >= off ? part[lid - off] : (T)0;                                         \
            mg_barrier();                                                                        \
            part[lid] += add;                                                                    \
            mg_barrier();                                                                        \
        }                                                                                        \
        return part[lid] - value;                                                                \
    }
PRIM_GROUP_SCAN(mg_u32, u32)
PRIM_GROUP_SCAN(mg_u64, u64)

/*
 * Scan kernels for input type TIN and output type TOUT (sums and carries are TOUT, so a
 * u32 -> u64 scan never wraps). Local memory: TOUT[local_size] for reduce (part),
 * TOUT[MG_PRIM_ITEMS * local_size] (buf) then TOUT[local_size] (part) for scan.
 *
 * prim_scan_reduce_SUF: sums[t] = sum of tile t.
 * prim_scan_tiles_SUF:  out[i] = carry(t) + exclusive prefix of i within its tile, where
 *   carry(t) = carries[t] when use_carries is 1; 0 when it is 0 (only valid with one tile);
 *   when it is 2 (one work group, launched alone), the running total of the tiles before t,
 *   which the group carries from tile to tile (a short scan in one launch instead of three).
 *   The group that owns the last tile writes carry + tile total, the grand total, to total[0].
 *   in and out may be the same buffer: a tile is fully read before it is written.
 */
#define PRIM_SCAN_KERNELS(TIN, TOUT, SUF, GSUF)                                                  \
    MG_KERNEL void prim_scan_reduce_##SUF(MG_GLOBAL const TIN *in, mg_u64 n,                     \
                                          MG_GLOBAL TOUT *sums, mg_u64 ntiles,                   \
                                          MG_DYN_LOCAL_PARAM) {                                  \
        MG_LOCAL TOUT *part = MG_LOCAL_CAST(TOUT, 0);                                            \
        mg_u32 lid = mg_local_id(), gs = mg_local_size();                                        \
        mg_u64 tile = (mg_u64)gs * MG_PRIM_ITEMS;                                                \
        for (mg_u64 t = mg_group_id(); t < ntiles; t += mg_num_groups()) {                       \
            mg_u64 base = t * tile;                                                              \
            TOUT acc = 0;                                                                        \
            for (mg_u32 k = 0; k < MG_PRIM_ITEMS; k++) {                                         \
                mg_u64 i = base + (mg_u64)k * gs + lid;                                          \
                if (i < n) acc += (TOUT)in[i];                                                   \
            }                                                                                    \
            part[lid] = acc;                                                                     \
            mg_barrier();                                                                        \
            for (mg_u32 s = gs >> 1; s > 0; s >>= 1) {                                           \
                if (lid < s) part[lid] += part[lid + s];                                         \
                mg_barrier();                                                                    \
            }                                                                                    \
            if (lid == 0) sums[t] = part[0];                                                     \
            mg_barrier();                                                                        \
        }                                                                                        \
    }                                                                                            \
    MG_KERNEL void prim_scan_tiles_##SUF(MG_GLOBAL const TIN *in, MG_GLOBAL TOUT *out,           \
                                         mg_u64 n, MG_GLOBAL const TOUT *carries,                \
                                         mg_i32 use_carries, MG_GLOBAL TOUT *total,              \
                                         mg_u64 ntiles, MG_DYN_LOCAL_PARAM) {                    \
        mg_u32 lid = mg_local_id(), gs = mg_local_size();                                        \
        mg_u64 tile = (mg_u64)gs * MG_PRIM_ITEMS;                                                \
        MG_LOCAL TOUT *buf = MG_LOCAL_CAST(TOUT, 0);                                             \
        MG_LOCAL TOUT *part = MG_LOCAL_CAST(TOUT, mg_prim_tiles_part_at(gs, sizeof(TOUT)));      \
        TOUT carried = 0; /* use_carries 2: the tiles before t, the same in every work item */   \
        for (mg_u64 t = mg_group_id(); t < ntiles; t += mg_num_groups()) {                       \
            mg_u64 base = t * tile;                                                              \
            for (mg_u32 k = 0; k < MG_PRIM_ITEMS; k++) {                                         \
                mg_u64 i = base + (mg_u64)k * gs + lid;                                          \
                buf[k * gs + lid] = i < n ? (TOUT)in[i] : (TOUT)0;                               \
            }                                                                                    \
            mg_barrier();                                                                        \
            TOUT mine = 0;                                                                       \
            for (mg_u32 k = 0; k < MG_PRIM_ITEMS; k++) mine += buf[lid * MG_PRIM_ITEMS + k];     \
            TOUT carry = use_carries == 1 ? carries[t] : use_carries == 2 ? carried : (TOUT)0;   \
            TOUT run = carry + prim_group_scan_##GSUF(part, mine);                               \
            /* part[gs - 1]: the tile's total, until the barriers before the next tile's scan */ \
            carried = carry + part[gs - 1];                                                      \
            for (mg_u32 k = 0; k < MG_PRIM_ITEMS; k++) {                                         \
                TOUT x = buf[lid * MG_PRIM_ITEMS + k];                                           \
                buf[lid * MG_PRIM_ITEMS + k] = run;                                              \
                run += x;                                                                        \
            }                                                                                    \
            if (t == ntiles - 1 && lid == gs - 1) total[0] = run;                                \
            mg_barrier();                                                                        \
            for (mg_u32 k = 0; k < MG_PRIM_ITEMS; k++) {                                         \
                mg_u64 i = base + (mg_u64)k * gs + lid;                                          \
                if (i < n) out[i] = buf[k * gs + lid];                                           \
            }                                                                                    \
            mg_barrier();                                                                        \
        }                                                                                        \
    }
PRIM_SCAN_KERNELS(mg_u32, mg_u32, u32, u32)
PRIM_SCAN_KERNELS(mg_u64, mg_u64, u64, u64)
PRIM_SCAN_KERNELS(mg_u32, mg_u64, u32_u64, u64)

/*
 * Partition. The flag of element i is flags[i] != 0 (mode 0), or
 * rowptr[i+1] - rowptr[i] > tau (mode 1: a row longer than tau). The unused buffer argument
 * is never read.
 */
MG_DEVICE mg_u32 prim_flag(mg_i32 mode, MG_GLOBAL const mg_u32 *flags,
                           MG_GLOBAL const mg_i64 *rowptr, mg_i64 tau, mg_u64 i) {
    if (mode) return rowptr[i + 1] - rowptr[i] > tau ? 1u : 0u;
    return flags[i] != 0 ? 1u : 0u;
}

/* counts[t] = number of flagged elements in tile t. Local memory: mg_u32[local_size]. */
MG_KERNEL void prim_partition_count(mg_i32 mode, MG_GLOBAL const mg_u32 *flags,
                                    MG_GLOBAL const mg_i64 *rowptr, mg_i64 tau, mg_u64 n,
                                    MG_GLOBAL mg_u64 *counts, mg_u64 ntiles, MG_DYN_LOCAL_PARAM) {
    MG_LOCAL mg_u32 *part = MG_LOCAL_CAST(mg_u32, 0);
    mg_u32 lid = mg_local_id(), gs = mg_local_size();
    mg_u64 tile = (mg_u64)gs * MG_PRIM_ITEMS;
    for (mg_u64 t = mg_group_id(); t < ntiles; t += mg_num_groups()) {
        mg_u32 acc = 0;
        for (mg_u32 k = 0; k < MG_PRIM_ITEMS; k++) {
            mg_u64 i = t * tile + (mg_u64)k * gs + lid;
            if (i < n) acc += prim_flag(mode, flags, rowptr, tau, i);
        }
        part[lid] = acc;
        mg_barrier();
        for (mg_u32 s = gs >> 1; s > 0; s >>= 1) {
            if (lid < s) part[lid] += part[lid + s];
            mg_barrier();
        }
        if (lid == 0) counts[t] = part[0];
        mg_barrier();
    }
}

/*
 * Stable scatter: flagged element i goes to above[offsets[t] + its rank among the tile's
 * flagged elements], the others to below[(t * tile - offsets[t]) + their rank], where
 * offsets is the exclusive scan of prim_partition_count's counts. Element indices are 32-bit
 * (the host refuses n > 2^32). Work item lid owns elements lid*MG_PRIM_ITEMS .. +MG_PRIM_ITEMS-1 of
 * the tile, so ranks follow element order. Local memory: mg_u32[local_size].
 */
MG_KERNEL void prim_partition_scatter(mg_i32 mode, MG_GLOBAL const mg_u32 *flags,
                                      MG_GLOBAL const mg_i64 *rowptr, mg_i64 tau, mg_u64 n,
                                      MG_GLOBAL const mg_u64 *offsets, MG_GLOBAL mg_u32 *above,
                                      MG_GLOBAL mg_u32 *below, mg_i32 write_above,
                                      mg_i32 write_below, mg_u64 ntiles, MG_DYN_LOCAL_PARAM) {
    MG_LOCAL mg_u32 *part = MG_LOCAL_CAST(mg_u32, 0);
    mg_u32 lid = mg_local_id(), gs = mg_local_size();
    mg_u64 tile = (mg_u64)gs * MG_PRIM_ITEMS;
    for (mg_u64 t = mg_group_id(); t < ntiles; t += mg_num_groups()) {
        mg_u64 first = t * tile + (mg_u64)lid * MG_PRIM_ITEMS;
        mg_u32 mine = 0;
        for (mg_u32 k = 0; k < MG_PRIM_ITEMS; k++)
            if (first + k < n) mine += prim_flag(mode, flags, rowptr, tau, first + k);
        mg_u32 rank = prim_group_scan_u32(part, mine);
        mg_u64 above_at = offsets[t] + rank;
        mg_u64 below_at = t * tile - offsets[t] + (mg_u64)lid * MG_PRIM_ITEMS - rank;
        for (mg_u32 k = 0; k < MG_PRIM_ITEMS; k++) {
            mg_u64 i = first + k;
            if (i >= n) break;
            if (prim_flag(mode, flags, rowptr, tau, i)) {
                if (write_above) above[above_at] = (mg_u32)i;
                above_at++;
            } else {
                if (write_below) below[below_at] = (mg_u32)i;
                below_at++;
            }
        }
        mg_barrier();
    }
}

/*
 * Histogram: bins[k] += number of keys equal to k, for keys < nbins (others are ignored).
 * _local: one histogram per work group in local memory (mg_u32[nbins]), the group's keys
 * grid-strided, then one global atomic per nonzero bin. _global: atomics straight to global
 * memory, for histograms larger than local memory. The host zeroes bins first and keeps each
 * group's share of keys below 2^32 so local counts cannot wrap.
 */
#define PRIM_HISTOGRAM_KERNELS(TC, SUF, ATOMIC_ADD)                                              \
    MG_KERNEL void prim_histogram_local_##SUF(MG_GLOBAL const mg_u32 *keys, mg_u64 n,            \
                                              MG_GLOBAL TC *bins, mg_u32 nbins,                  \
                                              MG_DYN_LOCAL_PARAM) {                              \
        MG_LOCAL mg_u32 *hist = MG_LOCAL_CAST(mg_u32, 0);                                        \
        mg_u32 lid = mg_local_id(), gs = mg_local_size();                                        \
        for (mg_u32 b = lid; b < nbins; b += gs) hist[b] = 0;                                    \
        mg_barrier();                                                                            \
        mg_u64 stride = mg_num_groups() * gs;                                                    \
        for (mg_u64 i = mg_group_id() * gs + lid; i < n; i += stride) {                          \
            mg_u32 k = keys[i];                                                                  \
            if (k < nbins) mg_atomic_add_u32(&hist[k], 1u);                                      \
        }                                                                                        \
        mg_barrier();                                                                            \
        for (mg_u32 b = lid; b < nbins; b += gs)                                                 \
            if (hist[b]) ATOMIC_ADD(&bins[b], hist[b]);                                          \
    }                                                                                            \
    MG_KERNEL void prim_histogram_global_##SUF(MG_GLOBAL const mg_u32 *keys, mg_u64 n,           \
                                               MG_GLOBAL TC *bins, mg_u32 nbins,                 \
                                               MG_DYN_LOCAL_PARAM) {                             \
        mg_u64 stride = mg_num_groups() * mg_local_size();                                       \
        for (mg_u64 i = mg_global_id(); i < n; i += stride) {                                    \
            mg_u32 k = keys[i];                                                                  \
            if (k < nbins) ATOMIC_ADD(&bins[k], 1u);                                             \
        }                                                                                        \
    }
PRIM_HISTOGRAM_KERNELS(mg_u32, u32, mg_atomic_add_u32)
#if defined(MG_CUDA) || defined(cl_khr_int64_base_atomics)
PRIM_HISTOGRAM_KERNELS(mg_u64, u64, mg_atomic_add_u64)
#endif

/* p[offset + i] = value for i < n. */
#define PRIM_FILL_KERNEL(T, SUF)                                                                 \
    MG_KERNEL void prim_fill_##SUF(MG_GLOBAL T *p, mg_u64 offset, mg_u64 n, T value,             \
                                   MG_DYN_LOCAL_PARAM) {                                         \
        mg_u64 stride = mg_num_groups() * mg_local_size();                                       \
        for (mg_u64 i = mg_global_id(); i < n; i += stride) p[offset + i] = value;               \
    }
PRIM_FILL_KERNEL(mg_u32, u32)
PRIM_FILL_KERNEL(mg_u64, u64)

/* out[i] = in[idx[i]] for i < n; an index >= in_count gives 0 instead of reading outside. */
#define PRIM_GATHER_KERNEL(T, SUF)                                                               \
    MG_KERNEL void prim_gather_##SUF(MG_GLOBAL T *out, MG_GLOBAL const T *in, mg_u64 in_count,   \
                                     MG_GLOBAL const mg_u32 *idx, mg_u64 n,                      \
                                     MG_DYN_LOCAL_PARAM) {                                       \
        mg_u64 stride = mg_num_groups() * mg_local_size();                                       \
        for (mg_u64 i = mg_global_id(); i < n; i += stride) {                                    \
            mg_u64 j = idx[i];                                                                   \
            out[i] = j < in_count ? in[j] : (T)0;                                                \
        }                                                                                        \
    }
PRIM_GATHER_KERNEL(mg_u32, u32)
PRIM_GATHER_KERNEL(mg_u64, u64)

/* count[0] += the segments i < n of ptr (n + 1 offsets) longer than threshold elements
 * (integer atomics: exact). gMAGNUS asks it whether C-hat has a row too long for its
 * in-place multisplit batches (runtime/spgemm/gmagnus/gmagnus_setup.c), SpMV's AUTO whether A
 * has rows far above the mean (runtime/spmv/spmv_plan.c). */
/* Segments of ptr (n segments, n+1 offsets) longer than threshold: group g writes its count
 * of them to part[2g] and the sum of their lengths to part[2g+1]; the host adds the
 * num_groups pairs (runtime/primitives/primitives.c). Local memory: 2 mg_u64 per work item. */
MG_KERNEL void prim_long_segments(MG_GLOBAL const mg_u64 *ptr, mg_u64 n, mg_u64 threshold,
                                  MG_GLOBAL mg_u64 *part, MG_DYN_LOCAL_PARAM) {
    MG_LOCAL mg_u64 *cnt = MG_LOCAL_CAST(mg_u64, 0);
    mg_u32 lid = mg_local_id(), gs = mg_local_size();
    MG_LOCAL mg_u64 *len = cnt + gs;
    mg_u64 stride = mg_num_groups() * gs, c = 0, l = 0;
    for (mg_u64 i = mg_global_id(); i < n; i += stride) {
        mg_u64 d = ptr[i + 1] - ptr[i];
        if (d > threshold) {
            c += 1;
            l += d;
        }
    }
    cnt[lid] = c;
    len[lid] = l;
    mg_barrier();
    for (mg_u32 k = gs >> 1; k > 0; k >>= 1) {
        if (lid < k) {
            cnt[lid] += cnt[lid + k];
            len[lid] += len[lid + k];
        }
        mg_barrier();
    }
    if (lid == 0) {
        part[2 * (mg_u64)mg_group_id()] = cnt[0];
        part[2 * (mg_u64)mg_group_id() + 1] = len[0];
    }
}

/* v[i] *= alpha[0] for i < n, in the value type (alpha is one mg_val in a buffer, so the
 * kernel takes no mg_val scalar: kernels/kernel_signatures.h). C = alpha * A.B's scaling. */
MG_KERNEL void prim_scale_values(MG_GLOBAL mg_val *v, mg_u64 n, MG_GLOBAL const mg_val *alpha,
                                 MG_DYN_LOCAL_PARAM) {
    mg_u64 stride = mg_num_groups() * mg_local_size();
    mg_val a = alpha[0];
    for (mg_u64 i = mg_global_id(); i < n; i += stride) v[i] = v[i] * a;
}

/* out[out_at + i] = in[in_at + i] + add - sub for i < n (modulo 2^64): row pointers moved to
 * another base, for the row blocks of device matrices (runtime/device/device_csr_rows.c). */
MG_KERNEL void prim_shift_u64(MG_GLOBAL mg_u64 *out, mg_u64 out_at, MG_GLOBAL const mg_u64 *in,
                              mg_u64 in_at, mg_u64 n, mg_u64 add, mg_u64 sub, MG_DYN_LOCAL_PARAM) {
    mg_u64 stride = mg_num_groups() * mg_local_size();
    for (mg_u64 i = mg_global_id(); i < n; i += stride) out[out_at + i] = in[in_at + i] + add - sub;
}

/* The rules of entry p of a row whose entries start at b: MG_CSR_OK if it keeps them, else
 * the reason; adds the fingerprint's term of the pair (p, p + 1) to *sum when p is even. */
MG_DEVICE mg_u32 mg_csr_entry_rules(MG_GLOBAL const mg_i32 *col_idx, mg_i64 cols, mg_i64 nnz,
                                    mg_i64 b, mg_i64 p, mg_u64 *sum) {
    const mg_i32 c = col_idx[p];
    if ((p & 1) == 0) /* the pair p, p + 1, whichever row p + 1 is in */
        *sum += mg_fp_term(MG_FP_COL_PAIR, (mg_u64)p >> 1,
                           mg_fp_pair((mg_u32)c, p + 1 < nnz ? (mg_u32)col_idx[p + 1] : MG_FP_PAD));
    if (c < 0 || c >= cols) return MG_CSR_COLUMN;
    if (p > b) {
        const mg_i32 prev = col_idx[p - 1];
        return c == prev ? MG_CSR_DUPLICATE : c < prev ? MG_CSR_UNSORTED : MG_CSR_OK;
    }
    return MG_CSR_OK;
}

/*
 * One pass over a CSR structure (runtime/device/device_csr_structure.c): the rules of
 * magnus_csr_validate checked and the fingerprint's sum S computed (kernels/shared/
 * csr_structure.h: positions, reasons, the fingerprint's terms). Every rule of a row reads
 * only that row: its two pointers, its columns, each column with the one before it in the
 * row. Two parts:
 *   - teams of `lanes` work items (a power of two) take the rows grid-stride: each row's
 *     pointers, and the entries of the rows of at most long_row entries, lane-strided;
 *   - the longer rows (a power-law matrix's hubs, which one team would walk alone while the
 *     rest of the device waits) by whole groups: in steps of one row per work item (group g
 *     of G: rows g, g + G, ..., so that hubs numbered together spread over the groups), each
 *     group lists the long rows of its step in local memory, then all its items take each
 *     listed row's entries.
 * Each work item keeps the lowest (position, entry) it finds broken and stops looking past
 * it. A row whose pointers are broken is read no further, so no entry outside 0..nnz-1 is
 * read whatever row_ptr holds. Group g writes its lowest (position, entry) with the reason,
 * and its part of S, to part[4g ..] (MG_CSR_PART_*); the host takes the lowest of the groups'
 * and adds their sums. Local memory: mg_csr_structure_bytes(local size).
 */
MG_KERNEL void prim_csr_structure(MG_GLOBAL const mg_i64 *row_ptr, MG_GLOBAL const mg_i32 *col_idx,
                                  mg_i64 rows, mg_i64 cols, mg_i64 nnz, mg_u32 lanes,
                                  mg_u64 long_row, MG_GLOBAL mg_u64 *part, MG_DYN_LOCAL_PARAM) {
    const mg_u32 lid = mg_local_id(), gs = mg_local_size(), lane = lid % lanes;
    MG_LOCAL mg_u64 *l_at = MG_LOCAL_CAST(mg_u64, 0);
    MG_LOCAL mg_u64 *l_entry = l_at + gs;
    MG_LOCAL mg_u64 *l_reason = l_entry + gs;
    MG_LOCAL mg_u64 *l_sum = l_reason + gs;
    MG_LOCAL mg_u64 *l_long = l_sum + gs; /* the long rows of a step, then their count */
    MG_LOCAL mg_u32 *l_nlong = (MG_LOCAL mg_u32 *)(l_long + gs);
    mg_u64 at = MG_CSR_NONE, entry = 0, reason = MG_CSR_OK, sum = 0;
    if (mg_global_id() == 0) {
        const mg_i64 first = row_ptr[0];
        sum += mg_fp_term(MG_FP_ROW_PTR, 0, (mg_u64)first);
        if (first != 0) {
            at = 0;
            reason = MG_CSR_FIRST;
        }
    }
    const mg_u64 teams = mg_num_groups() * gs / lanes;
    for (mg_u64 r = mg_global_id() / lanes; r < (mg_u64)rows && at == MG_CSR_NONE; r += teams) {
        const mg_i64 b = row_ptr[r], e = row_ptr[r + 1];
        if (lane == 0) sum += mg_fp_term(MG_FP_ROW_PTR, r + 1, (mg_u64)e);
        if (e < b) {
            at = r + 1;
            reason = MG_CSR_NOT_MONOTONE;
        } else if (e > nnz) {
            at = r + 1;
            reason = MG_CSR_PAST_NNZ;
        } else if (b >= 0 && (mg_u64)(e - b) <= long_row) { /* b < 0: an earlier row broke */
            for (mg_i64 p = b + lane; p < e; p += lanes) {
                const mg_u32 why = mg_csr_entry_rules(col_idx, cols, nnz, b, p, &sum);
                if (why != MG_CSR_OK) {
                    at = r + 1;
                    entry = (mg_u64)p;
                    reason = why;
                    break;
                }
            }
        }
    }
    /* The long rows, a group each. Group g looks at rows g, g + G, g + 2G, ... (G groups): the
     * hub rows of R-MAT and of many graphs are numbered first, and rows dealt out in blocks of
     * consecutive ids gave them all to the first groups (0.43 ms of a 16 ms CuPy multiply on
     * R-MAT scale 18, one group walking its hubs one after the other). The loop's steps are
     * the same for every item of a group. */
    const mg_u64 G = mg_num_groups(), g = mg_group_id();
    for (mg_u64 j0 = 0; j0 * G + g < (mg_u64)rows; j0 += gs) {
        if (lid == 0) l_nlong[0] = 0;
        mg_barrier();
        const mg_u64 r = (j0 + lid) * G + g;
        if (r < (mg_u64)rows) {
            const mg_i64 b = row_ptr[r], e = row_ptr[r + 1];
            if (b >= 0 && e >= b && e <= nnz && (mg_u64)(e - b) > long_row)
                l_long[mg_atomic_add_u32(l_nlong, 1u)] = r;
        }
        mg_barrier();
        const mg_u32 nlong = l_nlong[0];
        for (mg_u32 i = 0; i < nlong; i++) {
            const mg_u64 lr = l_long[i];
            if (lr + 1 > at) continue; /* this item has a lower broken rule already */
            const mg_i64 b = row_ptr[lr], e = row_ptr[lr + 1];
            for (mg_i64 p = b + lid; p < e; p += gs) {
                const mg_u32 why = mg_csr_entry_rules(col_idx, cols, nnz, b, p, &sum);
                if (why != MG_CSR_OK) {
                    if (lr + 1 < at || (mg_u64)p < entry) {
                        at = lr + 1;
                        entry = (mg_u64)p;
                        reason = why;
                    }
                    break;
                }
            }
        }
        mg_barrier(); /* l_long and l_nlong are rewritten by the next step */
    }
    /* row_ptr[rows] comes after every row: any broken rule of a row is lower */
    if (mg_global_id() == 0 && at == MG_CSR_NONE && row_ptr[rows] != nnz) {
        at = (mg_u64)rows + 1;
        reason = MG_CSR_LAST;
    }
    l_at[lid] = at;
    l_entry[lid] = entry;
    l_reason[lid] = reason;
    l_sum[lid] = sum;
    mg_barrier();
    for (mg_u32 s = gs >> 1; s > 0; s >>= 1) {
        if (lid < s) {
            const mg_u32 o = lid + s;
            l_sum[lid] += l_sum[o];
            if (l_at[o] < l_at[lid] || (l_at[o] == l_at[lid] && l_entry[o] < l_entry[lid])) {
                l_at[lid] = l_at[o];
                l_entry[lid] = l_entry[o];
                l_reason[lid] = l_reason[o];
            }
        }
        mg_barrier();
    }
    if (lid == 0) {
        MG_GLOBAL mg_u64 *out = part + (mg_u64)MG_CSR_PART_WORDS * mg_group_id();
        out[MG_CSR_PART_AT] = l_at[0];
        out[MG_CSR_PART_ENTRY] = l_entry[0];
        out[MG_CSR_PART_REASON] = l_reason[0];
        out[MG_CSR_PART_SUM] = l_sum[0];
    }
}

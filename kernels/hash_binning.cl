/*
 * Setup and binning of the hash accumulator (runtime/accumulate/, OpSparse §5.1):
 * products per row, then items grouped by key into bins. An "item" is a row of A·B or a
 * chunk of an intermediate matrix; `ids` lists them (has_ids == 0: ids 0..count-1) and an
 * item's key is keys[id] (key_is_ptr == 0) or keys[id+1] - keys[id] (key_is_ptr != 0),
 * capped at key_cap when key_cap > 0 (a row of A·B cannot have more columns than B).
 * Bin b holds the keys in (bounds[b-1], bounds[b]]; the last bound is the largest int64.
 * All binning kernels run MG_HASH_BIN_GROUP work items per group, one item each (the constants
 * are shared with the host: kernels/shared/hash_layout.h).
 */
#include "magnus_dialect.h"
#include "shared/hash_layout.h"

MG_DEVICE mg_u32 hash_item_id(MG_GLOBAL const mg_u32 *ids, mg_i64 ids_offset, mg_i32 has_ids,
                              mg_i64 i) {
    return has_ids ? ids[ids_offset + i] : (mg_u32)i;
}

MG_DEVICE mg_i64 hash_item_key(MG_GLOBAL const mg_i64 *keys, mg_u32 id, mg_i32 key_is_ptr) {
    return key_is_ptr ? keys[(mg_u64)id + 1u] - keys[id] : keys[id];
}

MG_DEVICE mg_i64 hash_cap_key(mg_i64 key, mg_i64 key_cap) {
    return key_cap > 0 && key > key_cap ? key_cap : key;
}

MG_DEVICE mg_u32 hash_bin_of(MG_LOCAL const mg_i64 *bounds, mg_u32 nbins, mg_i64 key) {
    mg_u32 b = 0;
    while (b + 1u < nbins && key > bounds[b]) b++;
    return b;
}

/* The start of both passes below: the bins' bounds copied to local memory and their local
 * counts zeroed; returns this work item's position in the list (MG_HASH_BIN_GROUP items a
 * group). Every work item of the group calls it; ends with a barrier. */
MG_DEVICE mg_i64 hash_bin_pass_begin(MG_LOCAL mg_i64 *lbounds, MG_LOCAL mg_u32 *lcount,
                                     MG_GLOBAL const mg_i64 *bounds, mg_u32 nbins, mg_u32 lid) {
    if (lid < nbins) {
        lbounds[lid] = bounds[lid];
        lcount[lid] = 0;
    }
    mg_barrier();
    return (mg_i64)mg_group_id() * MG_HASH_BIN_GROUP + lid;
}

/* products[r] = sum over k in A[r,:] of nnz(B[k,:]) for each listed row r. A row of at most
 * MG_HASH_PRODUCTS_SHORT entries is summed by its own work item. Longer rows are summed by the
 * whole group together: their entries form one range, split into one contiguous piece per
 * lane (below). One item walking a hub row alone held the launch:
 * R-MAT's first row at scale 18 has about 7000 entries, 0.7 ms of serial loads on the H200
 * (docs/performance.md, "Products per row by whole groups"). */
MG_KERNEL void hash_row_products(MG_GLOBAL const mg_i64 *A_rp, MG_GLOBAL const mg_i32 *A_col,
                                 MG_GLOBAL const mg_i64 *B_rp, MG_GLOBAL const mg_u32 *ids,
                                 mg_i64 ids_offset, mg_i32 has_ids, mg_i64 count,
                                 MG_GLOBAL mg_i64 *products, MG_DYN_LOCAL_PARAM) {
    MG_LOCAL_ARRAY(mg_u32, long_row, MG_HASH_BIN_GROUP);   /* the group's long rows */
    MG_LOCAL_ARRAY(mg_i64, long_begin, MG_HASH_BIN_GROUP); /* their first entry in A */
    MG_LOCAL_ARRAY(mg_u64, long_end, MG_HASH_BIN_GROUP);   /* inclusive scan of their lengths */
    MG_LOCAL_ARRAY(mg_u64, long_sum, MG_HASH_BIN_GROUP);   /* their products */
    MG_LOCAL_ARRAY(mg_u32, long_count, 1);
    const mg_u32 lid = mg_local_id();
    if (lid == 0) long_count[0] = 0;
    long_sum[lid] = 0;
    mg_barrier();
    const mg_i64 i = (mg_i64)mg_group_id() * MG_HASH_BIN_GROUP + lid;
    if (i < count) {
        const mg_u32 row = hash_item_id(ids, ids_offset, has_ids, i);
        const mg_i64 a_begin = A_rp[row], a_end = A_rp[row + 1];
        if (a_end - a_begin <= MG_HASH_PRODUCTS_SHORT) {
            mg_i64 sum = 0;
            for (mg_i64 a = a_begin; a < a_end; a++) {
                mg_i32 k = A_col[a];
                sum += B_rp[k + 1] - B_rp[k];
            }
            products[row] = sum;
        } else {
            mg_u32 slot = mg_atomic_add_u32(&long_count[0], 1u);
            long_row[slot] = row;
            long_begin[slot] = a_begin;
            long_end[slot] = (mg_u64)(a_end - a_begin);
        }
    }
    mg_barrier();
    const mg_u32 n_long = long_count[0]; /* the same for every lane: the barriers below are uniform */
    if (n_long == 0) return;
    if (lid >= n_long) long_end[lid] = 0;
    mg_barrier();
    for (mg_u32 off = 1; off < MG_HASH_BIN_GROUP; off <<= 1) { /* inclusive scan (Hillis-Steele) */
        mg_u64 add = lid >= off ? long_end[lid - off] : 0;
        mg_barrier();
        long_end[lid] += add;
        mg_barrier();
    }
    /* Each lane takes one contiguous 1/256 of the long rows' entries and sums it row piece by
     * row piece, adding each piece's sum to its row's total. Within a piece the loop is the
     * short rows' (independent loads the compiler overlaps); a lane crosses at most a few row
     * ends, so the atomics are few. (Strided lanes with an atomic per entry, or a search per
     * entry, were slower: docs/performance.md, "Products per row by whole groups".) */
    const mg_u64 entries = long_end[n_long - 1];
    const mg_u64 per_lane = (entries + MG_HASH_BIN_GROUP - 1) / MG_HASH_BIN_GROUP;
    mg_u64 e = (mg_u64)lid * per_lane;
    const mg_u64 e_end = e + per_lane < entries ? e + per_lane : entries;
    mg_u32 j = 0; /* the long rows that end at or before e (at most n_long - 1) */
    for (mg_u32 step = MG_HASH_BIN_GROUP / 2; step > 0; step >>= 1)
        if (j + step < n_long && long_end[j + step - 1] <= e) j += step;
    while (e < e_end) {
        const mg_u64 row_first = j ? long_end[j - 1] : 0;
        const mg_u64 piece_end = long_end[j] < e_end ? long_end[j] : e_end;
        const mg_i64 a_first = long_begin[j] + (mg_i64)(e - row_first);
        const mg_i64 a_last = a_first + (mg_i64)(piece_end - e);
        mg_u64 sum = 0;
        for (mg_i64 a = a_first; a < a_last; a++) {
            mg_i32 k = A_col[a];
            sum += (mg_u64)(B_rp[k + 1] - B_rp[k]);
        }
        if (sum != 0) mg_atomic_add_u64(&long_sum[j], sum);
        e = piece_end;
        j++;
    }
    mg_barrier();
    if (lid < n_long) products[long_row[lid]] = (mg_i64)long_sum[lid];
}

/* Pass 1: bin sizes (counted in local memory, one global atomic per bin per group) and the
 * sum of the uncapped keys (a tree reduction, one 64-bit atomic per group), both into
 * `counts` (MG_HASH_COUNT_WORDS words, zeroed by the host: shared/hash_layout.h), so that the
 * host reads them back in one transfer. */
MG_KERNEL void hash_bin_count(MG_GLOBAL const mg_u32 *ids, mg_i64 ids_offset, mg_i32 has_ids,
                              mg_i64 count, MG_GLOBAL const mg_i64 *keys, mg_i32 key_is_ptr,
                              mg_i64 key_cap, MG_GLOBAL const mg_i64 *bounds, mg_u32 nbins,
                              MG_GLOBAL mg_u32 *counts, MG_DYN_LOCAL_PARAM) {
    MG_LOCAL_ARRAY(mg_i64, lbounds, MG_HASH_MAX_BINS);
    MG_LOCAL_ARRAY(mg_u32, lcount, MG_HASH_MAX_BINS);
    MG_LOCAL_ARRAY(mg_u64, lsum, MG_HASH_BIN_GROUP);
    mg_u32 lid = mg_local_id();
    mg_i64 i = hash_bin_pass_begin(lbounds, lcount, bounds, nbins, lid);
    mg_i64 key = 0;
    if (i < count) {
        key = hash_item_key(keys, hash_item_id(ids, ids_offset, has_ids, i), key_is_ptr);
        mg_atomic_add_u32(&lcount[hash_bin_of(lbounds, nbins, hash_cap_key(key, key_cap))], 1u);
    }
    lsum[lid] = (mg_u64)key;
    mg_barrier();
    for (mg_u32 s = MG_HASH_BIN_GROUP / 2; s > 0; s >>= 1) {
        if (lid < s) lsum[lid] += lsum[lid + s];
        mg_barrier();
    }
    if (lid < nbins && lcount[lid] != 0) mg_atomic_add_u32(&counts[lid], lcount[lid]);
    if (lid == 0 && lsum[0] != 0)
        mg_atomic_add_u64((MG_GLOBAL mg_u64 *)(counts + MG_HASH_KEY_SUM_WORD), lsum[0]);
}

/* Pass 2: bins_out[offset of bin b + cursor] = ids of bin b, where the offset of bin b is the
 * sum of the sizes of the bins before it (pass 1's counts; at most MG_HASH_MAX_BINS words,
 * summed by each group) and bin b's cursor (counts[MG_HASH_CURSOR_WORD + b], zeroed by the
 * host with the counts) is advanced by one global atomic per bin per group. The host never
 * writes the offsets: no wait between the passes but the read of the sizes it needs for the
 * launches. */
MG_KERNEL void hash_bin_fill(MG_GLOBAL const mg_u32 *ids, mg_i64 ids_offset, mg_i32 has_ids,
                             mg_i64 count, MG_GLOBAL const mg_i64 *keys, mg_i32 key_is_ptr,
                             mg_i64 key_cap, MG_GLOBAL const mg_i64 *bounds, mg_u32 nbins,
                             MG_GLOBAL mg_u32 *counts, MG_GLOBAL mg_u32 *bins_out,
                             MG_DYN_LOCAL_PARAM) {
    MG_GLOBAL mg_u32 *bin_cursor = counts + MG_HASH_CURSOR_WORD;
    MG_LOCAL_ARRAY(mg_i64, lbounds, MG_HASH_MAX_BINS);
    MG_LOCAL_ARRAY(mg_u32, lcount, MG_HASH_MAX_BINS);
    MG_LOCAL_ARRAY(mg_u32, lbase, MG_HASH_MAX_BINS);
    mg_u32 lid = mg_local_id();
    mg_i64 i = hash_bin_pass_begin(lbounds, lcount, bounds, nbins, lid);
    mg_u32 id = 0, bin = 0, rank = 0;
    if (i < count) {
        id = hash_item_id(ids, ids_offset, has_ids, i);
        bin =
            hash_bin_of(lbounds, nbins, hash_cap_key(hash_item_key(keys, id, key_is_ptr), key_cap));
        rank = mg_atomic_add_u32(&lcount[bin], 1u);
    }
    mg_barrier();
    if (lid < nbins && lcount[lid] != 0) {
        mg_u32 offset = 0;
        for (mg_u32 b = 0; b < lid; b++) offset += counts[b];
        lbase[lid] = offset + mg_atomic_add_u32(&bin_cursor[lid], lcount[lid]);
    }
    mg_barrier();
    if (i < count) bins_out[lbase[bin] + rank] = id;
}

/* out[i] = capped key of item bins[offset + i] (sizes the global tables on the host). */
MG_KERNEL void hash_gather_keys(MG_GLOBAL const mg_u32 *bins, mg_i64 offset, mg_i64 count,
                                MG_GLOBAL const mg_i64 *keys, mg_i32 key_is_ptr, mg_i64 key_cap,
                                MG_GLOBAL mg_i64 *out, MG_DYN_LOCAL_PARAM) {
    mg_i64 i = (mg_i64)mg_global_id();
    if (i >= count) return;
    out[i] = hash_cap_key(hash_item_key(keys, bins[offset + i], key_is_ptr), key_cap);
}

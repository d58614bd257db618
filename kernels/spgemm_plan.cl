/*
 * SpGEMM plans by product positions (runtime/spgemm/plan_positions.c). The products of A·B
 * are numbered in expansion order: A's entries in order, each followed by the entries of the
 * B row it selects; entry_off (nnz(A) + 1 uint64) is the exclusive scan of those B-row
 * lengths, so A entry a owns products entry_off[a] .. entry_off[a + 1] - 1. A plan keeps, for
 * every product, the index of C's entry it adds to (positions, uint32: the plan is made only
 * when nnz(C) < 2^32); executing it is one pass over the products with no hash table, no
 * sort and no symbolic phase.
 *
 * Both kernels map work alike: work group g owns the A entries whose products start in
 * [g·span, (g+1)·span) (two binary searches of entry_off), so every group has about span
 * products whatever the rows look like (a heavy row is spread over many groups; an entry
 * selecting a long B row stays in one). Inside a group, teams of `team` lanes (a power of
 * two, about the mean B row an entry selects) take entries in turn and stride over each
 * entry's B row: consecutive lanes read consecutive B entries and positions. Groups stride
 * by the number of groups over the ranges beyond the launch.
 */
#include "magnus_dialect.h"

/* The first a in [0, n] with off[a] >= p (off: n + 1 non-decreasing values). */
MG_DEVICE mg_u64 plan_lower_bound_u64(MG_GLOBAL const mg_u64 *off, mg_u64 n, mg_u64 p) {
    mg_u64 lo = 0, hi = n;
    while (lo < hi) {
        const mg_u64 mid = lo + (hi - lo) / 2u;
        if (off[mid] < p) lo = mid + 1u;
        else hi = mid;
    }
    return lo;
}

/* The row r of A holding entry a: the last r with A_rp[r] <= a (empty rows before it
 * included: their start equals the next row's). */
MG_DEVICE mg_i64 plan_row_of(MG_GLOBAL const mg_i64 *A_rp, mg_i64 rows, mg_i64 a) {
    mg_i64 lo = 0, hi = rows; /* A_rp[lo] <= a < A_rp[hi] */
    while (hi - lo > 1) {
        const mg_i64 mid = lo + (hi - lo) / 2;
        if (A_rp[mid] <= a) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The A entries of range g (those whose products start in [g·span, (g+1)·span)): found by
 * the group's first item into range[0..1], read by all after the barrier. Called by every
 * item of the group alike. */
MG_DEVICE void plan_range_entries(MG_LOCAL mg_u64 *range, MG_GLOBAL const mg_u64 *entry_off,
                                  mg_u64 nnz_a, mg_u64 g, mg_u64 span) {
    if (mg_local_id() == 0) {
        range[0] = plan_lower_bound_u64(entry_off, nnz_a, g * span);
        range[1] = plan_lower_bound_u64(entry_off, nnz_a, (g + 1u) * span);
    }
    mg_barrier();
}

/* out[a] = length of the B row A entry a selects, for a < nnz_a. */
MG_KERNEL void plan_entry_products(mg_u64 nnz_a, MG_GLOBAL const mg_i32 *A_col,
                                   MG_GLOBAL const mg_i64 *B_rp, MG_GLOBAL mg_u64 *out,
                                   MG_DYN_LOCAL_PARAM) {
    const mg_u64 stride = mg_num_groups() * mg_local_size();
    for (mg_u64 a = mg_global_id(); a < nnz_a; a += stride) {
        const mg_i32 k = A_col[a];
        out[a] = (mg_u64)(B_rp[k + 1] - B_rp[k]);
    }
}

/* positions[p] = the index in C of product p's column within its row of C (C's columns
 * sorted, as every magnus C is). A column that C's row does not hold (C not made from this
 * A and B) sets missing[0] and writes the row's start, so the host refuses the plan. */
MG_KERNEL void plan_positions(mg_u64 total, mg_u64 span, mg_u64 nnz_a, mg_i64 rows,
                              MG_GLOBAL const mg_i64 *A_rp, MG_GLOBAL const mg_i32 *A_col,
                              MG_GLOBAL const mg_i64 *B_rp, MG_GLOBAL const mg_i32 *B_col,
                              MG_GLOBAL const mg_u64 *entry_off, MG_GLOBAL const mg_i64 *C_rp,
                              MG_GLOBAL const mg_i32 *C_col, MG_GLOBAL mg_u32 *positions,
                              MG_GLOBAL mg_u32 *missing, mg_u32 team, MG_DYN_LOCAL_PARAM) {
    MG_LOCAL_ARRAY(mg_u64, range, 2);
    const mg_u32 t = mg_local_id(), teams = mg_local_size() / team, lane = t & (team - 1u);
    for (mg_u64 g = mg_group_id(); g * span < total; g += mg_num_groups()) {
        plan_range_entries(range, entry_off, nnz_a, g, span);
        const mg_u64 e1 = range[1];
        for (mg_u64 a = range[0] + t / team; a < e1; a += teams) {
            const mg_i32 k = A_col[a];
            const mg_i64 bs = B_rp[k], len = B_rp[k + 1] - bs;
            const mg_u64 base = entry_off[a];
            const mg_i64 r = plan_row_of(A_rp, rows, (mg_i64)a);
            const mg_i64 c0 = C_rp[r], c1 = C_rp[r + 1];
            for (mg_i64 b = lane; b < len; b += team) {
                const mg_i32 j = B_col[bs + b];
                mg_i64 lo = c0, hi = c1; /* the first C entry of the row with column >= j */
                while (lo < hi) {
                    const mg_i64 mid = lo + (hi - lo) / 2;
                    if (C_col[mid] < j) lo = mid + 1;
                    else hi = mid;
                }
                if (lo == c1 || C_col[lo] != j) {
                    mg_atomic_or_u32(missing, 1u);
                    lo = c0;
                }
                positions[base + (mg_u64)b] = (mg_u32)lo;
            }
        }
        mg_barrier(); /* range[] is rewritten by the next range */
    }
}

/* C_val[positions[p]] += A_val[a] * B_val[b] for every product p = (a, b); C_val zeroed
 * before. Float atomics: the order of the additions into one entry varies between runs, as
 * in the hash accumulator. */
MG_KERNEL void plan_numeric(mg_u64 total, mg_u64 span, mg_u64 nnz_a, MG_GLOBAL const mg_i32 *A_col,
                            MG_GLOBAL const mg_val *A_val, MG_GLOBAL const mg_i64 *B_rp,
                            MG_GLOBAL const mg_val *B_val, MG_GLOBAL const mg_u64 *entry_off,
                            MG_GLOBAL const mg_u32 *positions, MG_GLOBAL mg_val *C_val,
                            mg_u32 team, MG_DYN_LOCAL_PARAM) {
    MG_LOCAL_ARRAY(mg_u64, range, 2);
    const mg_u32 t = mg_local_id(), teams = mg_local_size() / team, lane = t & (team - 1u);
    for (mg_u64 g = mg_group_id(); g * span < total; g += mg_num_groups()) {
        plan_range_entries(range, entry_off, nnz_a, g, span);
        const mg_u64 e1 = range[1];
        for (mg_u64 a = range[0] + t / team; a < e1; a += teams) {
            const mg_i32 k = A_col[a];
            const mg_val av = A_val[a];
            const mg_i64 bs = B_rp[k], len = B_rp[k + 1] - bs;
            MG_GLOBAL const mg_u32 *pos = positions + entry_off[a];
            for (mg_i64 b = lane; b < len; b += team)
                mg_atomic_add_val_global(&C_val[pos[b]], av * B_val[bs + b]);
        }
        mg_barrier();
    }
}

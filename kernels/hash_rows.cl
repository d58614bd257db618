/*
 * Symbolic and numeric hash kernels for rows of C = A·B (runtime/accumulate/).
 *
 * _local kernels: a bin's rows, `lanes` work items per row and local_size / lanes rows per
 * work group (tiny rows share a group), each row with its own table of table_size slots in
 * dynamic local memory. _global kernels: one work group per row, its table in a global
 * scratch region at tables[2*(table_index+item)] (offset, size in slots).
 *
 * Inside a row, the lanes form teams of `team` lanes: team t takes A's entries t, t + teams,
 * ... and its lanes stride over the matching row of B, so long B rows use many lanes and
 * short ones do not leave most of them idle. `team` (about one lane per element of an
 * average B row) is widened per row while the row has fewer A entries than teams
 * (hash_row_team): a row of a few entries that select long B rows (R-MAT's heavy columns)
 * then keeps every lane busy instead of one team per entry. lanes and team are powers of two
 * (team <= lanes): remainders are masks, which also keeps LLVM from emitting the `freeze`
 * of a div/rem pair that llvm-spirv-14 cannot translate.
 *
 * Symbolic kernels count new columns per lane and add them once per lane at the end (one
 * local atomic per lane rather than per distinct column). Numeric _local kernels compact the
 * table before sorting it (lib/hash_accumulator.cl): `sort_net` is the sorting network's size,
 * a power of two >= every entry count of the bin; the compaction counter of each item follows
 * the group's tables in local memory.
 */
#include "lib/hash_accumulator.cl"
#include "magnus_dialect.h"
#include "shared/hash_layout.h"

/* Lanes per team for a row of a_len entries of A: `team`, doubled while more than a_len teams
 * would form (they would have no entry to take), at most all lanes. */
MG_DEVICE mg_u32 hash_row_team(mg_u32 team, mg_u32 lanes, mg_i64 a_len) {
    mg_u32 t = team;
    while (t < lanes && (mg_i64)(lanes / t) > a_len) t <<= 1u;
    return t;
}

MG_KERNEL void hash_rows_symbolic_local(MG_GLOBAL const mg_i64 *A_rp, MG_GLOBAL const mg_i32 *A_col,
                                        MG_GLOBAL const mg_i64 *B_rp, MG_GLOBAL const mg_i32 *B_col,
                                        MG_GLOBAL const mg_u32 *bins, mg_i64 bins_offset,
                                        mg_i64 count, MG_GLOBAL mg_i64 *row_counts,
                                        mg_u32 table_size, mg_u32 lanes, mg_u32 team,
                                        MG_DYN_LOCAL_PARAM) {
    mg_u32 per_group = mg_local_size() / lanes;
    mg_u32 sub = mg_local_id() / lanes, lane = mg_local_id() & (lanes - 1u);
    mg_i64 item = (mg_i64)mg_group_id() * per_group + sub;
    const mg_hash_symbolic_table t =
        mg_hash_symbolic_local_begin(mg_dyn_local, per_group, sub, table_size, lane, lanes);
    if (item < count) {
        mg_u32 row = bins[bins_offset + item];
        const mg_i64 a_begin = A_rp[row], a_end = A_rp[row + 1];
        const mg_u32 mine =
            mg_hash_insert_row_local(t.keys, table_size - 1u, A_col, B_rp, B_col, a_begin, a_end,
                                     hash_row_team(team, lanes, a_end - a_begin), lane, lanes);
        if (mine != 0) mg_atomic_add_u32(&t.found[sub], mine);
    }
    mg_barrier();
    if (item < count && lane == 0) row_counts[bins[bins_offset + item]] = (mg_i64)t.found[sub];
}

/* MAGNUS_ALGORITHM_AUTO's estimate of the products in rows whose entries overflow the hash
 * accumulator's numeric tables (runtime/spgemm/spgemm_choice.c), which a row's products cannot
 * tell: many products may merge into few entries (finite-element rows) or hardly at all.
 * Work group s of the launch's S takes the row holding product position (s + 1/2)·total/S
 * (offsets: the exclusive scan of the rows' products, rows + 1 entries; total =
 * offsets[rows]), so rows are drawn in proportion to their products. A row of more than
 * numeric_cap products but at most symbolic_cap (the choice counts longer rows apart) has its
 * distinct columns counted in a local table of the smallest power of two of slots, at most
 * table_size, that holds its products at 3/4; if they exceed numeric_cap, stats[1 + s] is 1
 * (the host zeroes stats). Group 0 writes total to stats[0]. The sum of stats[1 ..] over S
 * estimates those rows' share of the products.
 *
 * Latency, not bandwidth, is the cost: the row is found by a search of the whole group (each
 * round one load per lane, the range cut by the group size), and its lanes form teams of
 * about its own average B row (products / entries), not B's: a row of many entries whose B
 * rows are short would otherwise leave most of each team idle while it walks the entries one
 * after another (teams of B's average row took 0.23 ms per launch on R-MAT scale 18 against
 * 0.1 ms so; one team per entry, 0.1-0.13 ms against 0.03-0.06 on soc-Slashdot0902). */
MG_KERNEL void hash_rows_overflow_sample(MG_GLOBAL const mg_i64 *A_rp, MG_GLOBAL const mg_i32 *A_col,
                                         MG_GLOBAL const mg_i64 *B_rp, MG_GLOBAL const mg_i32 *B_col,
                                         MG_GLOBAL const mg_u64 *offsets, mg_i64 rows,
                                         mg_i64 numeric_cap, mg_i64 symbolic_cap,
                                         mg_u32 table_size, MG_GLOBAL mg_u64 *stats,
                                         MG_DYN_LOCAL_PARAM) {
    MG_LOCAL_ARRAY(mg_u32, last_below, 1);
    MG_LOCAL_ARRAY(mg_u32, found, 1);
    MG_LOCAL mg_u32 *keys = MG_LOCAL_CAST(mg_u32, 0);
    const mg_u32 lane = mg_local_id(), lanes = mg_local_size();
    const mg_u64 s = mg_group_id(), samples = mg_num_groups();
    const mg_u64 total = offsets[rows];
    if (s == 0 && lane == 0) stats[0] = total;
    if (total == 0 || rows <= 0) return;
    const mg_u64 step = total / samples, rest = total % samples;
    const mg_u64 pos = step * s + rest * s / samples + step / 2; /* < total */
    /* the row: the largest r < rows with offsets[r] <= pos; offsets[lo] <= pos < offsets[hi] */
    mg_i64 lo = 0, hi = rows;
    while (hi - lo > 1) { /* the same bounds in every lane: uniform */
        const mg_i64 stride = (hi - lo + lanes - 1) / lanes;
        const mg_i64 at = lo + (mg_i64)lane * stride;
        if (lane == 0) last_below[0] = 0;
        mg_barrier();
        if (lane > 0 && at < hi && offsets[at] <= pos) mg_atomic_max_u32(&last_below[0], lane);
        mg_barrier();
        const mg_i64 t = (mg_i64)last_below[0];
        mg_barrier();
        const mg_i64 next_hi = lo + (t + 1) * stride;
        lo += t * stride;
        if (next_hi < hi) hi = next_hi;
    }
    const mg_u32 row = (mg_u32)lo;
    const mg_i64 products = (mg_i64)(offsets[row + 1] - offsets[row]);
    if (products <= numeric_cap || products > symbolic_cap) return; /* the whole group */
    mg_u32 size = 4;
    while (size < table_size && (mg_i64)(size - size / 4u) < products) size <<= 1;
    if (lane == 0) found[0] = 0;
    mg_hash_clear_keys_local(keys, size, lane, lanes);
    mg_barrier();
    const mg_i64 a_begin = A_rp[row], a_end = A_rp[row + 1];
    const mg_i64 per_entry = a_end > a_begin ? products / (a_end - a_begin) : 1;
    mg_u32 team = 1;
    while (team < lanes && (mg_i64)(team * 2u) <= per_entry) team <<= 1;
    const mg_u32 mine =
        mg_hash_insert_row_local(keys, size - 1u, A_col, B_rp, B_col, a_begin, a_end,
                                 hash_row_team(team, lanes, a_end - a_begin), lane, lanes);
    if (mine != 0) mg_atomic_add_u32(&found[0], mine);
    mg_barrier();
    /* one word per drawn row, no atomic (the host adds them): the SPIR-V path (PoCL, Level
     * Zero) counted 256 per row with a 64-bit atomic here */
    if (lane == 0) stats[1 + s] = (mg_i64)found[0] > numeric_cap ? 1u : 0u;
}

MG_KERNEL void hash_rows_symbolic_global(
    MG_GLOBAL const mg_i64 *A_rp, MG_GLOBAL const mg_i32 *A_col, MG_GLOBAL const mg_i64 *B_rp,
    MG_GLOBAL const mg_i32 *B_col, MG_GLOBAL const mg_u32 *bins, mg_i64 bins_offset,
    MG_GLOBAL mg_i64 *row_counts, MG_GLOBAL const mg_i64 *tables, mg_i64 table_index,
    MG_GLOBAL mg_u32 *table_keys, mg_u32 team, MG_DYN_LOCAL_PARAM) {
    MG_LOCAL_ARRAY(mg_u32, found, 1);
    mg_u32 lane = mg_local_id(), lanes = mg_local_size();
    mg_i64 item = (mg_i64)mg_group_id();
    mg_u32 row = bins[bins_offset + item];
    const mg_hash_symbolic_global_table t =
        mg_hash_symbolic_global_begin(tables, table_index + item, table_keys, found, lane, lanes);
    const mg_i64 a_begin = A_rp[row], a_end = A_rp[row + 1];
    const mg_u32 mine =
        mg_hash_insert_row_global(t.keys, t.size - 1u, A_col, B_rp, B_col, a_begin, a_end,
                                  hash_row_team(team, lanes, a_end - a_begin), lane, lanes);
    const mg_i64 n = mg_hash_symbolic_global_count(found, mine);
    if (lane == 0) row_counts[row] = n;
}

MG_KERNEL void hash_rows_numeric_local(MG_GLOBAL const mg_i64 *A_rp, MG_GLOBAL const mg_i32 *A_col,
                                       MG_GLOBAL const mg_val *A_val, MG_GLOBAL const mg_i64 *B_rp,
                                       MG_GLOBAL const mg_i32 *B_col, MG_GLOBAL const mg_val *B_val,
                                       MG_GLOBAL const mg_u32 *bins, mg_i64 bins_offset,
                                       mg_i64 count, MG_GLOBAL const mg_i64 *C_rp,
                                       MG_GLOBAL mg_i32 *C_col, MG_GLOBAL mg_val *C_val,
                                       mg_u32 table_size, mg_u32 lanes, mg_u32 team,
                                       mg_u32 sort_net, MG_DYN_LOCAL_PARAM) {
    mg_u32 per_group = mg_local_size() / lanes;
    mg_u32 sub = mg_local_id() / lanes, lane = mg_local_id() & (lanes - 1u);
    mg_i64 item = (mg_i64)mg_group_id() * per_group + sub;
    const mg_hash_local_table t =
        mg_hash_numeric_local_begin(mg_dyn_local, per_group, sub, table_size, lane, lanes);
    mg_u32 row = 0;
    if (item < count) {
        row = bins[bins_offset + item];
        const mg_i64 a_begin = A_rp[row], a_end = A_rp[row + 1];
        mg_hash_accumulate_row_local(t.keys, t.vals, table_size, A_col, A_val, B_rp, B_col, B_val,
                                     a_begin, a_end, hash_row_team(team, lanes, a_end - a_begin),
                                     lane, lanes);
    }
    mg_hash_finish_local(t.keys, t.vals, table_size, t.entries, sort_net, lane, lanes);
    if (item < count)
        mg_hash_write_local(t.keys, t.vals, (mg_u32)(C_rp[row + 1] - C_rp[row]), C_col, C_val,
                            C_rp[row], 0, lane, lanes);
}

MG_KERNEL void hash_rows_numeric_global(MG_GLOBAL const mg_i64 *A_rp, MG_GLOBAL const mg_i32 *A_col,
                                        MG_GLOBAL const mg_val *A_val, MG_GLOBAL const mg_i64 *B_rp,
                                        MG_GLOBAL const mg_i32 *B_col,
                                        MG_GLOBAL const mg_val *B_val, MG_GLOBAL const mg_u32 *bins,
                                        mg_i64 bins_offset, MG_GLOBAL const mg_i64 *C_rp,
                                        MG_GLOBAL mg_i32 *C_col, MG_GLOBAL mg_val *C_val,
                                        MG_GLOBAL const mg_i64 *tables, mg_i64 table_index,
                                        MG_GLOBAL mg_u32 *table_keys, MG_GLOBAL mg_val *table_vals,
                                        mg_u32 team, mg_u32 sort_block, MG_DYN_LOCAL_PARAM) {
    MG_LOCAL_ARRAY(mg_u32, cursor, 1);
    mg_u32 lane = mg_local_id(), lanes = mg_local_size();
    mg_i64 item = (mg_i64)mg_group_id();
    mg_u32 row = bins[bins_offset + item];
    const mg_hash_global_table t =
        mg_hash_numeric_global_begin(mg_dyn_local, tables, table_index + item, table_keys,
                                     table_vals, sort_block, cursor, lane, lanes);
    const mg_i64 a_begin = A_rp[row], a_end = A_rp[row + 1];
    mg_hash_accumulate_row_global(t.keys, t.vals, t.size, A_col, A_val, B_rp, B_col, B_val,
                                  a_begin, a_end, hash_row_team(team, lanes, a_end - a_begin),
                                  lane, lanes);
    /* compact into the row of C, then sort it there */
    const mg_i64 out = C_rp[row];
    mg_hash_numeric_global_end(t, C_col, C_val, out, 0, (mg_u32)(C_rp[row + 1] - out), cursor,
                               sort_block, lane, lanes);
}

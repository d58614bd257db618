/*
 * The hash accumulator (OpSparse-style; docs/algorithm.md §6): device functions shared
 * by the hash SpGEMM kernels (kernels/hash_*.cl) and gMAGNUS's light rows and chunks.
 * Interface summary: runtime/accumulate/hash_accumulate.h, end of file.
 *
 * A table is an array of mg_u32 keys (column indices; MG_HASH_EMPTY marks a free slot) and,
 * for the numeric phase, a parallel array of values. Probing is linear from a multiplicative
 * hash; each probe step touches the table once, with a compare-and-swap whose returned old
 * key says whether the slot was free, already ours, or someone else's (OpSparse Alg. 4/5).
 * Symbolic tables are powers of two (mask instead of modulo); numeric tables may have any
 * size, so the largest bin can use the whole local-memory budget.
 *
 * Every function exists for tables in local memory (suffix _local, 32-bit sizes) and in
 * global memory (suffix _global, 64-bit sizes, used only for items too large for local
 * memory). They are generated from one template so the two cannot drift apart.
 */
#ifndef MAGNUS_LIB_HASH_ACCUMULATOR_CL
#define MAGNUS_LIB_HASH_ACCUMULATOR_CL

#include "magnus_dialect.h"
#include "shared/hash_layout.h"

#define MG_HASH_EMPTY 0xffffffffu
/* OpSparse's HASH_SCALE: odd, so consecutive columns land 107 slots apart. */
#define MG_HASH_SCALE 107u

/*
 * MG_HASH_TEMPLATE(SUFFIX, SPACE, IDX, ADD_VAL):
 *   SUFFIX   _local or _global
 *   SPACE    MG_LOCAL or MG_GLOBAL
 *   IDX      index type (mg_u32 for local tables, mg_u64 for global ones)
 *   ADD_VAL  the float atomic add for that address space
 */
#define MG_HASH_TEMPLATE(SUFFIX, SPACE, IDX, ADD_VAL)                                            \
    /* keys[*] = EMPTY */                                                                        \
    MG_DEVICE void mg_hash_clear_keys##SUFFIX(SPACE mg_u32 *keys, IDX size, mg_u32 lane,         \
                                              mg_u32 lanes) {                                    \
        for (IDX i = lane; i < size; i += lanes) keys[i] = MG_HASH_EMPTY;                        \
    }                                                                                            \
    /* keys[*] = EMPTY, vals[*] = 0 */                                                           \
    MG_DEVICE void mg_hash_clear##SUFFIX(SPACE mg_u32 *keys, SPACE mg_val *vals, IDX size,       \
                                         mg_u32 lane, mg_u32 lanes) {                            \
        for (IDX i = lane; i < size; i += lanes) {                                               \
            keys[i] = MG_HASH_EMPTY;                                                             \
            vals[i] = (mg_val)0;                                                                 \
        }                                                                                        \
    }                                                                                            \
    /* Symbolic insert into a power-of-two table (size = mask + 1, never full): 1 if `key`    \
     * was not there yet. */                                                                     \
    MG_DEVICE mg_u32 mg_hash_insert##SUFFIX(SPACE mg_u32 *keys, IDX mask, mg_u32 key) {          \
        IDX slot = ((IDX)key * MG_HASH_SCALE) & mask;                                            \
        for (;;) {                                                                               \
            mg_u32 old = mg_atomic_cas_u32(&keys[slot], MG_HASH_EMPTY, key);                     \
            if (old == MG_HASH_EMPTY) return 1u;                                                 \
            if (old == key) return 0u;                                                           \
            slot = (slot + 1u) & mask;                                                           \
        }                                                                                        \
    }                                                                                            \
    /* Symbolic inserts of the columns of row [a_begin, a_end) of A·B by `lanes` lanes in      \
     * teams of `team` (powers of two, team <= lanes): team t takes A's entries t,             \
     * t + lanes / team, ... and its lanes stride over the matching row of B. Returns the      \
     * columns this lane found first. */                                                        \
    MG_DEVICE mg_u32 mg_hash_insert_row##SUFFIX(                                                 \
        SPACE mg_u32 *keys, IDX mask, MG_GLOBAL const mg_i32 *A_col,                             \
        MG_GLOBAL const mg_i64 *B_rp, MG_GLOBAL const mg_i32 *B_col, mg_i64 a_begin,             \
        mg_i64 a_end, mg_u32 team, mg_u32 lane, mg_u32 lanes) {                                  \
        const mg_u32 teams = lanes / team;                                                       \
        mg_u32 mine = 0;                                                                         \
        for (mg_i64 a = a_begin + lane / team; a < a_end; a += teams) {                          \
            mg_i32 k = A_col[a];                                                                 \
            const mg_i64 b_end = B_rp[k + 1];                                                    \
            for (mg_i64 b = B_rp[k] + (lane & (team - 1u)); b < b_end; b += team)                \
                mine += mg_hash_insert##SUFFIX(keys, mask, (mg_u32)B_col[b]);                    \
        }                                                                                        \
        return mine;                                                                             \
    }                                                                                            \
    /* Numeric insert: adds v to key's value (table of any size with a free slot). */            \
    MG_DEVICE void mg_hash_accumulate##SUFFIX(SPACE mg_u32 *keys, SPACE mg_val *vals, IDX size,  \
                                              mg_u32 key, mg_val v) {                            \
        IDX slot = ((IDX)key * MG_HASH_SCALE) % size;                                            \
        for (;;) {                                                                               \
            mg_u32 old = mg_atomic_cas_u32(&keys[slot], MG_HASH_EMPTY, key);                     \
            if (old == MG_HASH_EMPTY || old == key) {                                            \
                ADD_VAL(&vals[slot], v);                                                         \
                return;                                                                          \
            }                                                                                    \
            slot = slot + 1u == size ? (IDX)0 : slot + 1u;                                       \
        }                                                                                        \
    }                                                                                            \
    /* Numeric inserts of row [a_begin, a_end) of A·B, the lanes split as in                     \
     * mg_hash_insert_row: adds A_val[a] * B_val[b] to column B_col[b]. */                       \
    MG_DEVICE void mg_hash_accumulate_row##SUFFIX(                                               \
        SPACE mg_u32 *keys, SPACE mg_val *vals, IDX size, MG_GLOBAL const mg_i32 *A_col,         \
        MG_GLOBAL const mg_val *A_val, MG_GLOBAL const mg_i64 *B_rp,                             \
        MG_GLOBAL const mg_i32 *B_col, MG_GLOBAL const mg_val *B_val, mg_i64 a_begin,            \
        mg_i64 a_end, mg_u32 team, mg_u32 lane, mg_u32 lanes) {                                  \
        const mg_u32 teams = lanes / team;                                                       \
        for (mg_i64 a = a_begin + lane / team; a < a_end; a += teams) {                          \
            mg_i32 k = A_col[a];                                                                 \
            mg_val av = A_val[a];                                                                \
            const mg_i64 b_end = B_rp[k + 1];                                                    \
            for (mg_i64 b = B_rp[k] + (lane & (team - 1u)); b < b_end; b += team)                \
                mg_hash_accumulate##SUFFIX(keys, vals, size, (mg_u32)B_col[b], av * B_val[b]);   \
        }                                                                                        \
    }                                                                                            \
    /* One compare-exchange of the bitonic network (minimum to the lower index). */              \
    MG_DEVICE void mg_hash_cmpx##SUFFIX(SPACE mg_u32 *keys, SPACE mg_val *vals, IDX lo,          \
                                        IDX hi) {                                                \
        mg_u32 klo = keys[lo], khi = keys[hi];                                                   \
        if (klo > khi) {                                                                         \
            mg_val vlo = vals[lo];                                                               \
            keys[lo] = khi;                                                                      \
            keys[hi] = klo;                                                                      \
            vals[lo] = vals[hi];                                                                 \
            vals[hi] = vlo;                                                                      \
        }                                                                                        \
    }                                                                                            \
    /* Bitonic sort of the whole table by key, ascending (EMPTY, the largest key, last).       \
     * Sorting network for the next power of two n >= size in which every comparator puts    \
     * the minimum at the lower index (the first step of each merge compares mirrored         \
     * positions); the virtual slots >= size hold +infinity and so never move, which lets us  \
     * skip every comparator that touches them. Contains barriers: all work items of the      \
     * group call it with the same size. Ends with a barrier. */                                 \
    MG_DEVICE void mg_hash_sort##SUFFIX(SPACE mg_u32 *keys, SPACE mg_val *vals, IDX size,        \
                                        mg_u32 lane, mg_u32 lanes) {                             \
        IDX n = 1;                                                                               \
        while (n < size) n <<= 1;                                                                \
        for (IDX k = 2; k <= n; k <<= 1) {                                                       \
            for (IDX j = k >> 1; j > 0; j >>= 1) {                                               \
                for (IDX i = lane; i < (n >> 1); i += lanes) {                                   \
                    IDX lo = ((i & ~(j - 1u)) << 1) | (i & (j - 1u));                            \
                    IDX hi = j == (k >> 1) ? (lo ^ (k - 1u)) : (lo + j);                         \
                    if (hi < size) mg_hash_cmpx##SUFFIX(keys, vals, lo, hi);                     \
                }                                                                                \
                mg_barrier();                                                                    \
            }                                                                                    \
        }                                                                                        \
    }

MG_HASH_TEMPLATE(_local, MG_LOCAL, mg_u32, mg_atomic_add_val_local)
MG_HASH_TEMPLATE(_global, MG_GLOBAL, mg_u64, mg_atomic_add_val_global)

/*
 * Numeric local tables are compacted before they are sorted: the table holds 2 to 4 slots per
 * entry (and the largest bin's table is not a power of two), so sorting only the entries,
 * moved to the front, takes a network of about half the size and less than half the steps.
 *
 * mg_hash_compact_local: moves the occupied entries of keys/vals[0, size) to the front, in no
 * particular order. Rounds of `lanes` slots: every lane reads its slot, the group waits, then
 * each occupied entry takes the next front position from *count (a local counter the caller
 * zeroes before the barrier that ends the inserts). A position taken in a round is below the
 * round's last slot (at most that many entries were seen), so its old content was read
 * already. Contains barriers: every work item of the group calls it with the same size and
 * lanes. Ends with a barrier, after which *count is the number of entries.
 */
MG_DEVICE void mg_hash_compact_local(MG_LOCAL mg_u32 *keys, MG_LOCAL mg_val *vals, mg_u32 size,
                                     MG_LOCAL mg_u32 *count, mg_u32 lane, mg_u32 lanes) {
    for (mg_u32 base = 0; base < size; base += lanes) {
        const mg_u32 t = base + lane;
        const mg_u32 key = t < size ? keys[t] : MG_HASH_EMPTY;
        const mg_val v = t < size ? vals[t] : (mg_val)0;
        mg_barrier();
        if (key != MG_HASH_EMPTY) {
            const mg_u32 p = mg_atomic_add_u32(count, 1u);
            keys[p] = key;
            vals[p] = v;
        }
        mg_barrier();
    }
}

/*
 * mg_hash_sort_prefix_local: bitonic sort of keys/vals[0, size) by key, ascending, with the
 * network of `net` entries, a power of two >= size that is the same for every work item of
 * the group (its items may have different sizes). As in mg_hash_sort_local, positions >= size
 * count as +infinity and never move, so comparators touching them are skipped; since a
 * comparator's low end grows with its index, each lane stops at the first one past size.
 * Contains barriers; ends with a barrier.
 */
MG_DEVICE void mg_hash_sort_prefix_local(MG_LOCAL mg_u32 *keys, MG_LOCAL mg_val *vals, mg_u32 net,
                                         mg_u32 size, mg_u32 lane, mg_u32 lanes) {
    for (mg_u32 k = 2; k <= net; k <<= 1) {
        for (mg_u32 j = k >> 1; j > 0; j >>= 1) {
            for (mg_u32 i = lane;; i += lanes) {
                const mg_u32 lo = ((i & ~(j - 1u)) << 1) | (i & (j - 1u));
                if (lo >= size) break;
                const mg_u32 hi = j == (k >> 1) ? (lo ^ (k - 1u)) : (lo + j);
                if (hi < size) mg_hash_cmpx_local(keys, vals, lo, hi);
            }
            mg_barrier();
        }
    }
}

/* The local-memory layouts of the bins' work groups (tables, counters, sort staging), which
 * the host sizes the launches from: kernels/shared/hash_layout.h. */

/* After a local numeric table's inserts: the group waits for them, the entries move to the
 * table's front (*entries counts them; zeroed before the inserts) and are sorted there with
 * the bin's network of `net` entries. Every work item of the group calls it. */
MG_DEVICE void mg_hash_finish_local(MG_LOCAL mg_u32 *keys, MG_LOCAL mg_val *vals,
                                    mg_u32 table_size, MG_LOCAL mg_u32 *entries, mg_u32 net,
                                    mg_u32 lane, mg_u32 lanes) {
    mg_barrier();
    mg_hash_compact_local(keys, vals, table_size, entries, lane, lanes);
    mg_hash_sort_prefix_local(keys, vals, net, entries[0], lane, lanes);
}

/* Writes the first n entries of a sorted local table: out_col[out_offset + e] = key + shift.
 * (Global tables are compacted into C first and sorted there: mg_hash_compact_global.) */
MG_DEVICE void mg_hash_write_local(MG_LOCAL mg_u32 *keys, MG_LOCAL mg_val *vals, mg_u32 n,
                                   MG_GLOBAL mg_i32 *out_col, MG_GLOBAL mg_val *out_val,
                                   mg_i64 out_offset, mg_i64 col_shift, mg_u32 lane,
                                   mg_u32 lanes) {
    for (mg_u32 e = lane; e < n; e += lanes) {
        out_col[out_offset + (mg_i64)e] = (mg_i32)((mg_i64)keys[e] + col_shift);
        out_val[out_offset + (mg_i64)e] = vals[e];
    }
}

/*
 * Items too large for local memory (global tables only).
 *
 * mg_hash_compact_global: moves the table's entries, in slot order, to out_col/out_val from
 * out_offset on (at most `limit` of them), adding col_shift; *cursor (local, zeroed before
 * the barrier that ends the inserts) counts them. Ends with a barrier.
 */
MG_DEVICE void mg_hash_compact_global(MG_GLOBAL mg_u32 *keys, MG_GLOBAL mg_val *vals, mg_u64 size,
                                      MG_GLOBAL mg_i32 *out_col, MG_GLOBAL mg_val *out_val,
                                      mg_i64 out_offset, mg_i64 col_shift, mg_u32 limit,
                                      MG_LOCAL mg_u32 *cursor, mg_u32 lane, mg_u32 lanes) {
    for (mg_u64 t = lane; t < size; t += lanes) {
        mg_u32 key = keys[t];
        if (key != MG_HASH_EMPTY) {
            mg_u32 p = mg_atomic_add_u32(cursor, 1u);
            if (p < limit) {
                out_col[out_offset + (mg_i64)p] = (mg_i32)((mg_i64)key + col_shift);
                out_val[out_offset + (mg_i64)p] = vals[t];
            }
        }
    }
    mg_barrier();
}

/* Steps j = j_first, j_first/2, ..., 1 of bitonic stage k on every block of `block` entries
 * of keys/vals[0, size), each block staged through lkeys/lvals; the step j == k/2 mirrors
 * (it needs k <= block). Entries past size are loaded as +infinity and not stored back. */
MG_DEVICE void mg_hash_sort_blocks_global(MG_GLOBAL mg_u32 *keys, MG_GLOBAL mg_val *vals,
                                          mg_u64 size, MG_LOCAL mg_u32 *lkeys,
                                          MG_LOCAL mg_val *lvals, mg_u32 block, mg_u32 k_first,
                                          mg_u32 k_last, mg_u32 j_first, mg_u32 lane,
                                          mg_u32 lanes) {
    for (mg_u64 base = 0; base < size; base += block) {
        for (mg_u32 t = lane; t < block; t += lanes) {
            mg_u64 g = base + t;
            lkeys[t] = g < size ? keys[g] : MG_HASH_EMPTY;
            lvals[t] = g < size ? vals[g] : (mg_val)0;
        }
        mg_barrier();
        for (mg_u32 k = k_first; k <= k_last && k != 0; k <<= 1) {
            for (mg_u32 j = j_first ? j_first : (k >> 1); j > 0; j >>= 1) {
                for (mg_u32 i = lane; i < (block >> 1); i += lanes) {
                    mg_u32 lo = ((i & ~(j - 1u)) << 1) | (i & (j - 1u));
                    mg_u32 hi = j == (k >> 1) ? (lo ^ (k - 1u)) : (lo + j);
                    mg_hash_cmpx_local(lkeys, lvals, lo, hi);
                }
                mg_barrier();
            }
        }
        for (mg_u32 t = lane; t < block; t += lanes) {
            mg_u64 g = base + t;
            if (g < size) {
                keys[g] = lkeys[t];
                vals[g] = lvals[t];
            }
        }
        mg_barrier();
    }
}

/*
 * mg_hash_sort_staged_global: the bitonic sort of mg_hash_sort_global for keys/vals[0, size)
 * in global memory, with only the merge steps wider than `block` (a power of two, the entries
 * lkeys/lvals hold) done in global memory; the rest runs block by block in local memory (the
 * shared-memory bitonic sort). About log2(n/block)^2/2 + log2(n/block) + 1 passes over global
 * memory instead of log2(n)^2/2. Barriers as mg_hash_sort_global.
 */
MG_DEVICE void mg_hash_sort_staged_global(MG_GLOBAL mg_u32 *keys, MG_GLOBAL mg_val *vals,
                                          mg_u64 size, MG_LOCAL mg_u32 *lkeys,
                                          MG_LOCAL mg_val *lvals, mg_u32 block, mg_u32 lane,
                                          mg_u32 lanes) {
    mg_u64 n = 1;
    while (n < size) n <<= 1;
    if ((mg_u64)block > n) block = (mg_u32)n;
    if (block < 2) { /* no local staging (tiny budgets): every step in global memory */
        mg_hash_sort_global(keys, vals, size, lane, lanes);
        return;
    }
    /* stages 2 .. block entirely inside blocks */
    mg_hash_sort_blocks_global(keys, vals, size, lkeys, lvals, block, 2u, block, 0u, lane, lanes);
    for (mg_u64 k = (mg_u64)block << 1; k <= n; k <<= 1) {
        for (mg_u64 j = k >> 1; j >= (mg_u64)block; j >>= 1) {
            for (mg_u64 i = lane; i < (n >> 1); i += lanes) {
                mg_u64 lo = ((i & ~(j - 1u)) << 1) | (i & (j - 1u));
                mg_u64 hi = j == (k >> 1) ? (lo ^ (k - 1u)) : (lo + j);
                if (hi < size) mg_hash_cmpx_global(keys, vals, lo, hi);
            }
            mg_barrier();
        }
        /* steps block/2 .. 1 of stage k: inside blocks, never mirrored */
        mg_hash_sort_blocks_global(keys, vals, size, lkeys, lvals, block, (mg_u32)k, (mg_u32)k,
                                   block >> 1, lane, lanes);
    }
}

/*
 * The kernels' tables (kernels/hash_rows.cl, kernels/hash_chunks.cl), set up the same way for
 * rows and chunks: `dyn` is the kernel's mg_dyn_local, laid out as
 * kernels/shared/hash_layout.h says.
 */
typedef struct {
    MG_LOCAL mg_u32 *keys;
    MG_LOCAL mg_u32 *found; /* the group's column counts, one a sub-group */
} mg_hash_symbolic_table;

/* Sub-group `sub` (of per_group)'s symbolic local table of table_size slots, cleared, and
 * found[sub] zeroed. Every work item of the group calls it; ends with a barrier. */
MG_DEVICE mg_hash_symbolic_table mg_hash_symbolic_local_begin(MG_LOCAL mg_u64 *dyn,
                                                              mg_u32 per_group, mg_u32 sub,
                                                              mg_u32 table_size, mg_u32 lane,
                                                              mg_u32 lanes) {
    MG_LOCAL char *base = (MG_LOCAL char *)dyn;
    mg_hash_symbolic_table t;
    t.keys = (MG_LOCAL mg_u32 *)(base + mg_hash_symbolic_keys_at(sub, table_size));
    t.found = (MG_LOCAL mg_u32 *)(base + mg_hash_symbolic_counter_at(per_group, 0, table_size));
    mg_hash_clear_keys_local(t.keys, table_size, lane, lanes);
    if (lane == 0) t.found[sub] = 0;
    mg_barrier();
    return t;
}

/* The group's symbolic global table (tables[2*at], tables[2*at+1]: its offset in table_keys
 * and its size), cleared, and found[0] zeroed; every work item calls it; ends with a barrier.
 * The count of its distinct keys: mg_hash_symbolic_global_count after the inserts. */
typedef struct {
    MG_GLOBAL mg_u32 *keys;
    mg_u64 size;
} mg_hash_symbolic_global_table;

MG_DEVICE mg_hash_symbolic_global_table mg_hash_symbolic_global_begin(
    MG_GLOBAL const mg_i64 *tables, mg_i64 at, MG_GLOBAL mg_u32 *table_keys,
    MG_LOCAL mg_u32 *found, mg_u32 lane, mg_u32 lanes) {
    mg_hash_symbolic_global_table t;
    t.size = (mg_u64)tables[2 * at + 1];
    t.keys = table_keys + tables[2 * at];
    mg_hash_clear_keys_global(t.keys, t.size, lane, lanes);
    if (lane == 0) found[0] = 0;
    mg_barrier();
    return t;
}

/* After the inserts (mine: this work item's new keys): the group's count, in every item. */
MG_DEVICE mg_i64 mg_hash_symbolic_global_count(MG_LOCAL mg_u32 *found, mg_u32 mine) {
    if (mine != 0) mg_atomic_add_u32(&found[0], mine);
    mg_barrier();
    return (mg_i64)found[0];
}

typedef struct {
    MG_LOCAL mg_u32 *keys;
    MG_LOCAL mg_val *vals;
    MG_LOCAL mg_u32 *entries; /* the entry counter of mg_hash_finish_local */
} mg_hash_local_table;

/* Sub-group `sub` (of per_group)'s local table of table_size slots, cleared, its counter
 * zeroed. Every work item of the group calls it; ends with a barrier. */
MG_DEVICE mg_hash_local_table mg_hash_numeric_local_begin(MG_LOCAL mg_u64 *dyn, mg_u32 per_group,
                                                          mg_u32 sub, mg_u32 table_size,
                                                          mg_u32 lane, mg_u32 lanes) {
    MG_LOCAL char *base = (MG_LOCAL char *)dyn;
    const mg_u64 vb = sizeof(mg_val);
    mg_hash_local_table t;
    t.vals = (MG_LOCAL mg_val *)(base + mg_hash_numeric_vals_at(sub, table_size, vb));
    t.keys = (MG_LOCAL mg_u32 *)(base + mg_hash_numeric_keys_at(per_group, sub, table_size, vb));
    t.entries =
        (MG_LOCAL mg_u32 *)(base + mg_hash_numeric_counter_at(per_group, sub, table_size, vb));
    mg_hash_clear_local(t.keys, t.vals, table_size, lane, lanes);
    if (lane == 0) t.entries[0] = 0;
    mg_barrier();
    return t;
}

typedef struct {
    MG_GLOBAL mg_u32 *keys;
    MG_GLOBAL mg_val *vals;
    mg_u64 size;
    MG_LOCAL mg_u32 *lkeys; /* the sort's local staging: values first (8-byte aligned), */
    MG_LOCAL mg_val *lvals; /* then keys */
} mg_hash_global_table;

/* Item `at`'s global table (offset tables[2 at] into table_keys/table_vals, tables[2 at + 1]
 * slots), cleared, and *cursor zeroed for mg_hash_numeric_global_end. Every work item of the
 * group calls it; ends with a barrier. */
MG_DEVICE mg_hash_global_table mg_hash_numeric_global_begin(
    MG_LOCAL mg_u64 *dyn, MG_GLOBAL const mg_i64 *tables, mg_i64 at, MG_GLOBAL mg_u32 *table_keys,
    MG_GLOBAL mg_val *table_vals, mg_u32 sort_block, MG_LOCAL mg_u32 *cursor, mg_u32 lane,
    mg_u32 lanes) {
    MG_LOCAL char *base = (MG_LOCAL char *)dyn;
    const mg_i64 offset = tables[2 * at];
    mg_hash_global_table t;
    t.size = (mg_u64)tables[2 * at + 1];
    t.keys = table_keys + offset;
    t.vals = table_vals + offset;
    t.lvals = (MG_LOCAL mg_val *)base;
    t.lkeys = (MG_LOCAL mg_u32 *)(base + mg_hash_sort_keys_at(sort_block, sizeof(mg_val)));
    mg_hash_clear_global(t.keys, t.vals, t.size, lane, lanes);
    if (lane == 0) cursor[0] = 0;
    mg_barrier();
    return t;
}

/* After the inserts: the group waits, the table's nnz entries move to out_col/out_val[out, out
 * + nnz) (columns + col_shift) and are sorted there (half the slots of the table). */
MG_DEVICE void mg_hash_numeric_global_end(mg_hash_global_table t, MG_GLOBAL mg_i32 *out_col,
                                          MG_GLOBAL mg_val *out_val, mg_i64 out,
                                          mg_i64 col_shift, mg_u32 nnz, MG_LOCAL mg_u32 *cursor,
                                          mg_u32 sort_block, mg_u32 lane, mg_u32 lanes) {
    mg_barrier();
    mg_hash_compact_global(t.keys, t.vals, t.size, out_col, out_val, out, col_shift, nnz, cursor,
                           lane, lanes);
    mg_hash_sort_staged_global((MG_GLOBAL mg_u32 *)(out_col + out), out_val + out, nnz, t.lkeys,
                               t.lvals, sort_block, lane, lanes);
}

#endif /* MAGNUS_LIB_HASH_ACCUMULATOR_CL */

/*
 * Constants and local-memory layouts of the hash accumulator's kernels (kernels/hash_binning.cl,
 * hash_rows.cl, hash_chunks.cl), shared with its host side (runtime/accumulate/), which plans
 * the bins and sizes every launch from them. Offsets and sizes in bytes; value_bytes is
 * sizeof(mg_val) on the device, the value type's size on the host.
 */
#ifndef MAGNUS_SHARED_HASH_LAYOUT_H
#define MAGNUS_SHARED_HASH_LAYOUT_H

#include "mg_shared.h"

/* Work items of every binning kernel's group (one item each): the kernels' static local
 * arrays are this long. */
#define MG_HASH_BIN_GROUP 256
/* hash_row_products: rows of at most this many entries of A are summed by one work item,
 * longer ones by the whole group. */
#define MG_HASH_PRODUCTS_SHORT 64
/* Bins at most: the binning kernels keep the bounds and counts in static local arrays. */
#define MG_HASH_MAX_BINS 32
/* hash_bin_count's result, read back by the host in one transfer: the bin sizes (mg_u32 words
 * 0 .. MG_HASH_MAX_BINS-1), then the sum of the uncapped keys (an mg_u64 at word
 * MG_HASH_KEY_SUM_WORD, 8-byte aligned). */
#define MG_HASH_KEY_SUM_WORD MG_HASH_MAX_BINS
#define MG_HASH_COUNT_WORDS (MG_HASH_MAX_BINS + 2)
/* hash_bin_fill's cursor per bin follows in the same buffer (words MG_HASH_CURSOR_WORD ..
 * + MG_HASH_MAX_BINS - 1), so that one fill zeroes both: through NVIDIA's OpenCL a fill costs
 * the host 6-8 us (docs/performance.md). */
#define MG_HASH_CURSOR_WORD MG_HASH_COUNT_WORDS
#define MG_HASH_BIN_WORDS (MG_HASH_CURSOR_WORD + MG_HASH_MAX_BINS)

/* A table slot's key (an mg_u32 column) and each item's counter beside its table (mg_u32:
 * symbolic, the distinct columns found; numeric, the compaction's entry count). */
#define MG_HASH_KEY_BYTES 4
#define MG_HASH_COUNTER_BYTES 4

/* Bytes of one slot of a table: its key, and its value when numeric. */
MG_SHARED_FN mg_u64 mg_hash_slot_bytes(mg_u32 numeric, mg_u64 value_bytes) {
    return numeric ? MG_HASH_KEY_BYTES + value_bytes : MG_HASH_KEY_BYTES;
}

/*
 * A _local bin kernel's work group holds per_group items, item `sub` with a table of
 * table_size slots:
 *   symbolic  keys of every item (item sub's at mg_hash_symbolic_keys_at), then the counters
 *   numeric   values of every item first (so their offsets stay multiples of 8 for double),
 *             then keys, then the counters
 * mg_hash_*_bytes is the whole group's dynamic local memory.
 */
MG_SHARED_FN mg_u64 mg_hash_symbolic_keys_at(mg_u64 sub, mg_u64 table_size) {
    return sub * table_size * MG_HASH_KEY_BYTES;
}
MG_SHARED_FN mg_u64 mg_hash_symbolic_counter_at(mg_u64 per_group, mg_u64 sub, mg_u64 table_size) {
    return per_group * table_size * MG_HASH_KEY_BYTES + sub * MG_HASH_COUNTER_BYTES;
}
MG_SHARED_FN mg_u64 mg_hash_symbolic_bytes(mg_u64 per_group, mg_u64 table_size) {
    return mg_hash_symbolic_counter_at(per_group, per_group, table_size);
}
MG_SHARED_FN mg_u64 mg_hash_numeric_vals_at(mg_u64 sub, mg_u64 table_size, mg_u64 value_bytes) {
    return sub * table_size * value_bytes;
}
MG_SHARED_FN mg_u64 mg_hash_numeric_keys_at(mg_u64 per_group, mg_u64 sub, mg_u64 table_size,
                                            mg_u64 value_bytes) {
    return per_group * table_size * value_bytes + sub * table_size * MG_HASH_KEY_BYTES;
}
MG_SHARED_FN mg_u64 mg_hash_numeric_counter_at(mg_u64 per_group, mg_u64 sub, mg_u64 table_size,
                                               mg_u64 value_bytes) {
    return per_group * table_size * (value_bytes + MG_HASH_KEY_BYTES) +
           sub * MG_HASH_COUNTER_BYTES;
}
MG_SHARED_FN mg_u64 mg_hash_numeric_bytes(mg_u64 per_group, mg_u64 table_size,
                                          mg_u64 value_bytes) {
    return mg_hash_numeric_counter_at(per_group, per_group, table_size, value_bytes);
}

/* The numeric _global kernels stage blocks of sort_block entries of their sort through local
 * memory: values at 0, then keys. */
MG_SHARED_FN mg_u64 mg_hash_sort_keys_at(mg_u64 sort_block, mg_u64 value_bytes) {
    return sort_block * value_bytes;
}
MG_SHARED_FN mg_u64 mg_hash_sort_bytes(mg_u64 sort_block, mg_u64 value_bytes) {
    return mg_hash_sort_keys_at(sort_block, value_bytes) + sort_block * MG_HASH_KEY_BYTES;
}

/*
 * Dense rows (kernels/hash_rows_dense.cl): a row of C accumulated over C's whole width in a
 * work group of wg items. A_entries of the row are taken wg at a time (a tile):
 *   acc      mg_val[width] at 0                                   (numeric only)
 *   bitmap   mg_u32[mg_hash_dense_words(width)] at mg_hash_dense_bitmap_at
 *   bstart   mg_i64[wg]: where each tile entry's B row starts
 *   scan     mg_u64[wg]: the inclusive scan of the tile entries' B row lengths (the
 *            products before and up to each entry), also the group scans' scratch
 *   aval     mg_val[wg]: the tile entries' A values                   (numeric only)
 * each 8-byte aligned. mg_hash_dense_bytes is the group's dynamic local memory.
 */
MG_SHARED_FN mg_u64 mg_hash_dense_words(mg_u64 width) { return (width + 31u) >> 5; }
MG_SHARED_FN mg_u64 mg_hash_dense_bitmap_at(mg_u32 numeric, mg_u64 width, mg_u64 value_bytes) {
    return numeric ? mg_align8(width * value_bytes) : 0u;
}
MG_SHARED_FN mg_u64 mg_hash_dense_bstart_at(mg_u32 numeric, mg_u64 width, mg_u64 value_bytes) {
    return mg_hash_dense_bitmap_at(numeric, width, value_bytes) +
           mg_align8(mg_hash_dense_words(width) * 4u);
}
MG_SHARED_FN mg_u64 mg_hash_dense_scan_at(mg_u32 numeric, mg_u64 width, mg_u64 value_bytes,
                                          mg_u64 wg) {
    return mg_hash_dense_bstart_at(numeric, width, value_bytes) + wg * 8u;
}
MG_SHARED_FN mg_u64 mg_hash_dense_aval_at(mg_u32 numeric, mg_u64 width, mg_u64 value_bytes,
                                          mg_u64 wg) {
    return mg_hash_dense_scan_at(numeric, width, value_bytes, wg) + wg * 8u;
}
MG_SHARED_FN mg_u64 mg_hash_dense_bytes(mg_u32 numeric, mg_u64 width, mg_u64 value_bytes,
                                        mg_u64 wg) {
    return mg_hash_dense_aval_at(numeric, width, value_bytes, wg) +
           (numeric ? mg_align8(wg * value_bytes) : 0u);
}

#endif /* MAGNUS_SHARED_HASH_LAYOUT_H */

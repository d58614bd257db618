/*
 * The hash accumulator (OpSparse-style, docs/algorithm.md §6) as reusable host
 * functions: the binned symbolic and numeric phases over any set of "items", where an item is
 *   (a) a row i of C = A·B (its products are A[i,k]·B[k,:]), or
 *   (b) a chunk: a segment of an intermediate matrix (64-bit segment pointers, 32-bit local
 *       columns, values), accumulated into one sorted piece of C.
 * The hash algorithm (runtime/spgemm/hash/hash_spgemm.c) runs (a) on every row; gMAGNUS runs (a) on its
 * light rows and (b) on its light chunks.
 *
 * How a phase runs (every function below):
 *   1. binning: each item gets a key (its products, or its nnz), capped by the columns it can
 *      hold; a counting kernel (bin counts in local memory, one global atomic per bin per work
 *      group) and a fill kernel group the item ids by bin; the host reads the bin sizes.
 *   2. per bin, one launch: one work group per item (or several items per group for tiny
 *      bins), hash table in local memory, sized from ctx->device.local_mem_bytes (the budget
 *      in effect, MAGNUS_LOCAL_MEM_BYTES included), T/8 work items per table of T slots up
 *      to 256 (1024 through CUDA; the context's hash_group_max overrides). Largest bins are
 *      launched first.
 *      Symbolic: power-of-two table of column keys, load <= 3/4 of the key, multiplicative
 *      hash, linear probing, one compare-and-swap per probe step; counts distinct columns.
 *      Numeric: table of (column, value) with at least 2 slots per entry; the entries are
 *      compacted to the table's front, sorted there by a bitonic network of the bin's largest
 *      entry count (not the table's size) and written coalesced.
 *   3. items whose key exceeds what local memory holds get a global-memory table each, in one
 *      scratch region processed in batches; numeric entries are compacted into C and sorted
 *      there (the only global accumulation in magnus; gMAGNUS
 *      never sends such items here: its light rows and chunks have at most tau products,
 *      which magnus_hash_local_capacity() checks). Rows of a C narrow enough for dense rows
 *      (magnus_hash_dense_row_columns) take those instead, and in the numeric phase so do the
 *      rows of more entries than its width / MAGNUS_DENSE_ROW_SHARE (dense/dense_rows.h).
 *   4. the function frees its scratch and returns with the bins' kernels queued (freed device
 *      memory is reused only once every queue has been waited for: device_pool.c).
 *
 * Synchronisation: the phases (the *_sync functions) wait on the host once: each reads the bin
 * sizes back (and, with global-table items, their keys) on cfg->main, which waits for
 * everything queued there before the call. At the end cfg->main waits (on the device) for
 * cfg->heavy and cfg->light, and the call returns without waiting: the outputs are complete
 * for work queued on cfg->main afterwards, or on a queue made to depend on it
 * (magnus_queue_depend), and for the host after a wait for cfg->main. After an error the call
 * waits for every queue of the context. A caller that wants device work to overlap a phase
 * queues it on another queue first (gMAGNUS: heavy work on HEAVY, then the light rows' phase
 * on LIGHT), since the phase's read of its bin sizes blocks the host.
 * magnus_hash_rows_products only queues its kernel.
 *
 * Id lists: device buffers of uint32 item ids (row ids for (a), chunk ids for (b)); `ids`
 * NULL means the ids 0 .. count-1. `ids_offset` is the element index of the first id used.
 * Every output is written at the item's id, so a caller may pass a subset of rows or chunks.
 * Work goes to the queues in `cfg` (or `q`); the caller orders it against other queues with
 * magnus_queue_depend(). Kernel variant: A/B's value type for (a), seg->type for (b).
 * Errors: the usual statuses (OUT_OF_DEVICE_MEMORY, KERNEL_LAUNCH, ...); on error outputs are
 * unspecified and nothing leaks.
 */
#ifndef MAGNUS_HASH_ACCUMULATE_H
#define MAGNUS_HASH_ACCUMULATE_H

#include "accumulate_knobs.h"
#include "device_runtime.h"

/* What the accumulator did: added (+=) into *stats by each call when stats is non-NULL. */
typedef struct magnus_hash_stats {
    int64_t items;                /* items processed (all bins, empty ones included) */
    int64_t items_global;         /* items that needed a global-memory table */
    int64_t items_dense;          /* rows accumulated as dense rows instead (see
                                     magnus_hash_dense_row_columns) */
    int64_t dense_stripes;        /* the most column stripes a dense row took (1: C fit) */
    int64_t global_batches;       /* launches of a global-table kernel */
    uint64_t global_table_bytes;  /* largest global scratch region allocated */
    int64_t key_total;            /* sum of the uncapped keys: products (symbolic), nnz
                                     (numeric) */
    int64_t launches;             /* kernels launched, binning included */
    int64_t bins_merged;          /* non-empty local bins run in a larger bin's launch
                                     (MAGNUS_HASH_MERGE_GROUPS, hash_launch.c) */
} magnus_hash_stats;

/* Queues and knobs of one call. */
typedef struct magnus_hash_config {
    /* Queues: binning runs on `main`; the global-table items and the largest local bin on
     * `heavy`, the other bins on `light` (they overlap); `main` then waits for both. Set all
     * three to one queue to keep the phase on it (gMAGNUS: MAGNUS_QUEUE_LIGHT). A NULL cfg
     * means magnus_hash_config_init(&cfg, MAGNUS_QUEUE_MAIN). */
    magnus_queue_id main, heavy, light;
    uint64_t global_scratch_bytes; /* most bytes of global tables at once (0: default, the
                                      largest single table is always allowed) */
} magnus_hash_config;
/* All three queues = q, default scratch. */
void magnus_hash_config_init(magnus_hash_config *cfg, magnus_queue_id q);

/*
 * The largest key a work group's local memory takes, for a context and value type:
 * *symbolic_products: items with at most this many products (or, for rows, min(products,
 * B.cols)) are counted in local memory; *numeric_nnz: items with at most this many entries
 * are accumulated and sorted in local memory. Either output may be NULL. Both are at least
 * local_mem_bytes / (2 * (4 + value bytes)) (gMAGNUS's tau) whenever that is >= 1.
 */
void magnus_hash_local_capacity(const magnus_context_s *ctx, magnus_value_type type,
                                int64_t *symbolic_products, int64_t *numeric_nnz);
/* The same within the budget alone (without the context's wide bins, hash_wide_bins). */
void magnus_hash_budget_capacity(const magnus_context_s *ctx, magnus_value_type type,
                                 int64_t *symbolic_products, int64_t *numeric_nnz);

/*
 * Dense rows (an accumulator module the hash accumulator uses, runtime/accumulate/dense/;
 * ARCHITECTURE.md): the widest C, in columns, whose rows a work group of this accumulator can
 * accumulate in an array over the whole width in the local memory the context allows them
 * (the device's unless a budget was set; 0 with MAGNUS_DENSE_ROWS=0). Rows of A·B with B.cols
 * up to this that no local hash table holds (symbolic and numeric alike) are accumulated so
 * instead of in global-memory tables; 0: none are.
 */
int64_t magnus_hash_dense_row_columns(const magnus_context_s *ctx, magnus_value_type type);
/* The column stripes a dense row of a C `cols` wide is done in: 1 where C fits
 * (magnus_hash_dense_row_columns), ceil(cols / that) where that is at most the context's
 * MAGNUS_DENSE_STRIPES, else 0 (no dense rows for this C). */
int64_t magnus_hash_dense_row_stripes(const magnus_context_s *ctx, magnus_value_type type,
                                      int64_t cols);
/* Whether C, `cols` wide, fits few enough column stripes of a dense row that AUTO runs the
 * hash algorithm outright: one stripe, or at most MAGNUS_AUTO_STRIPES (default 0: one). */
bool magnus_hash_dense_rows_decide(const magnus_context_s *ctx, magnus_value_type type,
                                   int64_t cols);
/* The local bytes a dense row's group may take (for the report): the dense rows' knob where
 * any C takes dense rows (magnus_hash_dense_row_columns > 0), else 0. */
uint64_t magnus_hash_dense_rows_local_bytes(const magnus_context_s *ctx, magnus_value_type type);

/* Where an item with binning key `key` (symbolic: products, capped by the columns it can
 * hold; numeric: entries) is accumulated, for tests and tuning: the slots of its local table,
 * the work items it gets, the items per work group, and the dynamic local bytes of its bin's
 * launch; all 0 when it needs a global table (or key <= 0). The context's hash_group_max
 * (magnus_context_options; MAGNUS_HASH_GROUP_MAX when the context was created) applies. */
typedef struct magnus_hash_bin_shape {
    uint32_t table, lanes, per_group;
    uint64_t local_bytes;
} magnus_hash_bin_shape;
magnus_status magnus_hash_bin_shape_of(magnus_hash_bin_shape *out, const magnus_context_s *ctx,
                                       magnus_value_type type, int numeric, int64_t key);

/* ---- (a) rows of C = A·B --------------------------------------------------------------- */

/*
 * Products per row: products[r] = sum over k in A[r,:] of nnz(B[k,:]), written at index r of
 * the int64 buffer `products` (at least max id + 1 entries) for each listed row r. With every
 * row listed and `products` = C.row_ptr this is the OpSparse setup step. Queued on q; does
 * not wait.
 */
magnus_status magnus_hash_rows_products(magnus_context ctx, magnus_queue_id q,
                                        const struct magnus_device_csr_s *A,
                                        const struct magnus_device_csr_s *B,
                                        const magnus_dbuf *ids, int64_t ids_offset, int64_t count,
                                        magnus_dbuf *products, magnus_hash_stats *stats);

/*
 * MAGNUS_ALGORITHM_AUTO's sample (kernels/hash_rows.cl, hash_rows_overflow_sample): `samples`
 * rows drawn in proportion to their products from `offsets` (the exclusive scan of A·B's
 * products per row, A->rows + 1 uint64 entries). stats (samples + 1 uint64, zeroed here)
 * receives the products' total, then for each drawn row 1 if it has (numeric_cap,
 * symbolic_cap] products and more than numeric_cap distinct columns, else 0. Queued on q; does
 * not wait.
 */
magnus_status magnus_hash_rows_overflow_sample(magnus_context ctx, magnus_queue_id q,
                                               const struct magnus_device_csr_s *A,
                                               const struct magnus_device_csr_s *B,
                                               const magnus_dbuf *offsets, uint32_t samples,
                                               int64_t numeric_cap, int64_t symbolic_cap,
                                               magnus_dbuf *stats);

/*
 * Symbolic phase for listed rows: reads products[r] (from magnus_hash_rows_products) and
 * overwrites it with nnz(C[r,:]), the number of distinct columns. `row_counts` may be
 * C.row_ptr (rows+1 int64): an exclusive scan of it then gives C's row pointers. Waits for
 * the queues of cfg (see "Synchronisation").
 */
magnus_status magnus_hash_rows_symbolic_sync(magnus_context ctx, const magnus_hash_config *cfg,
                                             const struct magnus_device_csr_s *A,
                                             const struct magnus_device_csr_s *B,
                                             const magnus_dbuf *ids, int64_t ids_offset,
                                             int64_t count, magnus_dbuf *row_counts,
                                             magnus_hash_stats *stats);

/*
 * Numeric phase for listed rows: C_col/C_val[C_row_ptr[r] .. C_row_ptr[r+1]) get row r of
 * A·B sorted by column. C_row_ptr is int64 with A.rows+1 entries (final, scanned); the row's
 * nnz must be the symbolic count. C_val holds A's value type. Waits for the queues of cfg
 * (see "Synchronisation").
 */
magnus_status magnus_hash_rows_numeric_sync(magnus_context ctx, const magnus_hash_config *cfg,
                                            const struct magnus_device_csr_s *A,
                                            const struct magnus_device_csr_s *B,
                                            const magnus_dbuf *ids, int64_t ids_offset,
                                            int64_t count, const magnus_dbuf *C_row_ptr,
                                            magnus_dbuf *C_col, magnus_dbuf *C_val,
                                            magnus_hash_stats *stats);

/*
 * The same numeric phase over every row of A in two steps, for a caller that allocates C
 * between them and needs nnz(C) to do so: _bin counts and fills the rows' bins and reads their
 * sizes (the phase's host wait), and *nnz gets nnz(C) from that same read (the bins' key
 * sum), so no read of C_row_ptr's total is needed. *job holds the bins until _launch(job,
 * C_col, C_val) queues every bin as magnus_hash_rows_numeric_sync does and frees them (*job
 * NULL after it, on success or error); _free(job) frees them unlaunched. After an error, either
 * step has drained the queues. stats (NULL: none) must outlive *job.
 */
typedef struct magnus_hash_rows_numeric_s *magnus_hash_rows_numeric;
magnus_status magnus_hash_rows_numeric_bin(magnus_hash_rows_numeric *job, int64_t *nnz,
                                           magnus_context ctx, const magnus_hash_config *cfg,
                                           const struct magnus_device_csr_s *A,
                                           const struct magnus_device_csr_s *B,
                                           const magnus_dbuf *C_row_ptr, magnus_hash_stats *stats);
magnus_status magnus_hash_rows_numeric_launch(magnus_hash_rows_numeric *job, magnus_dbuf *C_col,
                                              magnus_dbuf *C_val);
void magnus_hash_rows_numeric_free(magnus_hash_rows_numeric *job);

/* ---- (b) chunks: segments of an intermediate matrix ------------------------------------ */

typedef struct magnus_hash_segments {
    const magnus_dbuf *ptr; /* int64: chunk c owns elements [ptr[c], ptr[c+1]) */
    const magnus_dbuf *col; /* int32 local column of each element, 0 <= col < col_range */
    const magnus_dbuf *val; /* value of each element (type below); unused by symbolic */
    int64_t col_range;      /* bound on local columns (chunk width); 0: unknown. Caps the
                               symbolic key like B.cols caps a row's */
    magnus_value_type type;
} magnus_hash_segments;

/* Symbolic phase for listed chunks: counts[c] (int64, written at index c) = number of
 * distinct local columns of chunk c. Waits for the queues of cfg (see "Synchronisation"). */
magnus_status magnus_hash_chunks_symbolic_sync(magnus_context ctx, const magnus_hash_config *cfg,
                                               const magnus_hash_segments *seg,
                                               const magnus_dbuf *ids, int64_t ids_offset,
                                               int64_t count, magnus_dbuf *counts,
                                               magnus_hash_stats *stats);

/* Where the numeric phase writes each chunk. Entry e (0-based, in column order) of chunk c
 * goes to C_col[offset[c] + e] = local column + shift(c), C_val[offset[c] + e], where
 *   shift(c) = (col_shift ? col_shift[c] : 0) + (shift_period > 0 ? (c % shift_period) *
 *              shift_step : 0)
 * (gMAGNUS: chunk j of a heavy row starts at column j * chunk width, so shift_period =
 * chunks per row and shift_step = chunk width when chunks of a row have consecutive ids). */
typedef struct magnus_hash_chunk_output {
    const magnus_dbuf *offset;    /* int64 per chunk id: position in C_col / C_val */
    const magnus_dbuf *nnz;       /* int64 per chunk id: entries of the chunk (its symbolic
                                     count); NULL: offset[c+1] - offset[c] */
    const magnus_dbuf *col_shift; /* int32 per chunk id, or NULL */
    int64_t shift_period, shift_step;
    magnus_dbuf *C_col;           /* int32 */
    magnus_dbuf *C_val;           /* seg->type */
} magnus_hash_chunk_output;

/* Numeric phase for listed chunks: accumulates each chunk's duplicates, sorts by column and
 * writes as described above. Waits for the queues of cfg (see "Synchronisation"). */
magnus_status magnus_hash_chunks_numeric_sync(magnus_context ctx, const magnus_hash_config *cfg,
                                              const magnus_hash_segments *seg,
                                              const magnus_dbuf *ids, int64_t ids_offset,
                                              int64_t count, const magnus_hash_chunk_output *out,
                                              magnus_hash_stats *stats);

/* ---- the hash algorithm ----------------------------------------------------------------- */

/*
 * MAGNUS_ALGORITHM_HASH with its knobs (runtime/spgemm/hash/hash_spgemm.c; magnus_hash_spgemm passes
 * NULLs): config NULL means binning on MAIN, heavy bins on HEAVY, the rest on LIGHT and the
 * default scratch bound. Each phase's stats are stored when the pointer is non-NULL, so tests
 * can see that the global-table path ran. Report fields it fills: times of setup, symbolic
 * (with the scan), alloc and numeric; tau (the symbolic local capacity, in products);
 * rows_heavy (rows that needed a global table in either phase); rows_total, products_total,
 * nnz_c, local_mem_bytes and peak_device_bytes (peak since the call started, inputs
 * included).
 */
magnus_status magnus_hash_spgemm_ex(magnus_device_csr *C, magnus_context ctx,
                                    const struct magnus_device_csr_s *A,
                                    const struct magnus_device_csr_s *B, magnus_report *report,
                                    const magnus_hash_config *config,
                                    magnus_hash_stats *symbolic_stats,
                                    magnus_hash_stats *numeric_stats);

/*
 * Device functions (kernels/lib/hash_accumulator.cl), for kernels that need the accumulator
 * inside their own loops. Tables are arrays of mg_u32 keys (MG_HASH_EMPTY = unused) and, for
 * numeric, mg_val values; every function exists for local (_local, mg_u32 sizes) and global
 * (_global, mg_u64 sizes) tables. `lane`/`lanes`: this work item's index among the work items
 * sharing the table.
 *   mg_hash_clear_keys_X(keys, size, lane, lanes)              keys[*] = MG_HASH_EMPTY
 *   mg_hash_clear_X(keys, vals, size, lane, lanes)             and vals[*] = 0
 *   mg_hash_insert_X(keys, mask, key) -> 1 if new, else 0      symbolic; size = mask + 1
 *   mg_hash_accumulate_X(keys, vals, size, key, v)             numeric; any size >= 2*entries
 *   mg_hash_sort_X(keys, vals, size, lane, lanes)              bitonic sort of the whole table
 *        by key (empties last); contains barriers: every work item of the group calls it with
 *        the same size, after a barrier that ends the inserts; it ends with a barrier
 *   mg_hash_compact_local(keys, vals, size, count, lane, lanes) moves a local table's entries
 *        to its front (any order), *count (zeroed before the inserts' last barrier) ends as
 *        their number; barriers as mg_hash_sort_X
 *   mg_hash_sort_prefix_local(keys, vals, net, size, lane, lanes) bitonic sort of the first
 *        size entries with a network of net (a power of two >= size, the same for the whole
 *        group; sizes may differ between the group's items); barriers as mg_hash_sort_X
 *   mg_hash_write_local(keys, vals, n, out_col, out_val, out_offset, col_shift, lane, lanes)
 *        writes the first n (sorted) entries: out_col[out_offset+e] = keys[e] + col_shift
 *   mg_hash_compact_global(keys, vals, size, out_col, out_val, out_offset, col_shift, limit,
 *        cursor, lane, lanes)   moves a global table's entries (unsorted) to the output
 *   mg_hash_sort_staged_global(keys, vals, n, lkeys, lvals, block, lane, lanes)   sorts n
 *        entries in global memory (e.g. the compacted output, keys cast to mg_u32), staging
 *        blocks of `block` entries through local memory
 * The caller puts a barrier between clear and inserts, and between inserts and sort/count.
 */

#endif

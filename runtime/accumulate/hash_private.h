/*
 * What the files of the binned hash accumulator share (runtime/accumulate/): the bin
 * constants (those the kernels also use, and the kernels' local-memory layouts, come from
 * kernels/shared/hash_layout.h), the plan of one phase, the phase and launch descriptions the
 * kernels' arguments come from, and the steps a phase is made of. Private to
 * runtime/accumulate/; the interface the algorithms use is hash_accumulate.h.
 *
 *   hash_plan.c        bin shapes and work-group sizes from the local-memory budget
 *   hash_binning.c     the count and fill kernels, the bin sizes read back
 *   hash_launch.c      the launch of a bin kernel, the local-table launches
 *   hash_global.c      the global-table bin: scratch sizing, batches
 *   hash_phase.c       one phase: binning, global bin (or dense rows), local bins, wait
 *   hash_dense.c       the dense rows (dense/dense_rows.h) where C is narrow enough: whether
 *                      they take the global bin, the numeric cut, their launch
 *   hash_accumulate.c  the entry points: checks, then one phase over rows or chunks
 */
#ifndef MAGNUS_HASH_PRIVATE_H
#define MAGNUS_HASH_PRIVATE_H

#include "dense_rows.h"
#include "hash_accumulate.h"
#include "shared/hash_layout.h"

/* The binning kernels' group size and the most bins, as kernels/hash_binning.cl has them. */
#define HASH_BIN_GROUP MG_HASH_BIN_GROUP
#define HASH_MAX_BINS MG_HASH_MAX_BINS
/* Smallest local table; smaller rows share a work group with others. */
#define HASH_MIN_TABLE 32
/* Work items per group: tiny-row groups, the cap on any group, the global-table kernels.
 * The cap is the widest group the backend vouches for before a kernel is built
 * (magnus_device_info.wide_group_size: 1024 through CUDA, whose hash kernels use at most 32
 * registers per work item on sm_90, so the largest tables, one work group per SM, keep 1024
 * work items resident; 256 through OpenCL and Level Zero, where a kernel's own limit can be
 * below the device's: NVIDIA's OpenCL refused the numeric kernel at 512), and each phase keeps
 * it within its local kernel's own limit (the backend's kernel_limits; hash_phase.c). The
 * context's hash_group_max (the option or MAGNUS_HASH_GROUP_MAX, read once when the context
 * is created: a power of two, 8 .. the device's work-group limit) overrides it, for tuning
 * and tests (docs/performance.md, "Numeric phase"). */
#define HASH_SMALL_GROUP 256
#define HASH_MAX_GROUP 256
#define HASH_GLOBAL_GROUP 256
/* Bytes of the budget left unused: NVIDIA's OpenCL refuses a launch whose dynamic local
 * memory reaches CL_DEVICE_LOCAL_MEM_SIZE (49152 fails, 49144 runs on an H200). */
#define HASH_LOCAL_RESERVE 16
/* Default bound on the global tables held at once (more rows run in several batches, each
 * waiting for its slowest row): a quarter of the device memory not in use, at least this. */
#define HASH_DEFAULT_SCRATCH ((uint64_t)256 << 20)
/* Largest block of a global item's sort staged in local memory. */
#define HASH_SORT_BLOCK 8192

/* One bin: the items with key in (previous max_key, max_key]. */
typedef struct hash_bin {
    int64_t max_key;
    uint32_t table;     /* slots of each item's local table; 0 for the empty and global bins */
    uint32_t lanes;     /* work items per item */
    uint32_t per_group; /* items per work group */
} hash_bin;

/* Local bytes per item beside its table: the symbolic count or the numeric compaction
 * counter (kernels/hash_rows.cl, hash_chunks.cl). */
#define HASH_ITEM_EXTRA MG_HASH_COUNTER_BYTES

/* bin[0]: keys <= 0 (nothing to do, unless empty items must still be written), bins
 * 1 .. nbins-2: local tables of growing size, bin[nbins-1]: global tables (dense rows where
 * they apply: magnus_hash_dense_rows_apply). */
typedef struct hash_plan {
    int nbins;
    hash_bin bin[HASH_MAX_BINS];
    uint32_t group_cap; /* largest work group used */
} hash_plan;

typedef enum hash_source { HASH_SOURCE_ROWS, HASH_SOURCE_CHUNKS } hash_source;

/* Everything one phase needs; the kernels' arguments come from here. */
typedef struct hash_phase {
    magnus_context ctx;
    magnus_hash_config cfg;
    magnus_kernel_variant variant;
    size_t value_bytes;
    int numeric;
    hash_source source;
    const char *what; /* for error messages */
    /* items */
    const magnus_dbuf *ids;
    int64_t ids_offset, count;
    /* binning key of an item */
    const magnus_dbuf *keys;
    int key_is_ptr;
    int64_t key_cap;
    int empty_items_need_work; /* chunks symbolic: empty chunks still get a count of 0 */
    /* rows */
    const struct magnus_device_csr_s *A, *B;
    uint32_t team;
    magnus_dbuf *row_counts;
    const magnus_dbuf *C_rp;
    magnus_dbuf *C_col, *C_val;
    /* chunks */
    const magnus_hash_segments *seg;
    const magnus_hash_chunk_output *out;
    magnus_dbuf *chunk_counts;
} hash_phase;

/* Where one launch of a bin (or a batch of the global bin) finds its items and tables. */
typedef struct hash_launch {
    const magnus_dbuf *bins;
    int64_t bins_offset, count;
    int global;
    uint32_t table_size, lanes; /* local */
    uint32_t sort_net;          /* local numeric: sorting network size, >= the bin's entries */
    const magnus_dbuf *tables;  /* global: (offset, size) pairs */
    int64_t table_index;
    magnus_dbuf *table_keys, *table_vals;
    uint32_t sort_block;        /* global numeric: entries sorted at a time in local memory */
} hash_launch;

static inline uint64_t pow2_floor(uint64_t x) {
    uint64_t p = 1;
    while (p <= x / 2) p <<= 1;
    return x == 0 ? 0 : p;
}

static inline uint64_t pow2_ceil(uint64_t x) {
    uint64_t p = 1;
    while (p < x) p <<= 1;
    return p;
}

/* Bytes of one slot of an item's table: its key, and its value when numeric. */
static inline uint64_t hash_slot_bytes(int numeric, size_t value_bytes) {
    return mg_hash_slot_bytes(numeric != 0, value_bytes);
}

/* Dynamic local bytes of a _local bin kernel's group of per_group tables of `table` slots,
 * as the kernels lay them out. */
static inline uint64_t hash_local_bytes(int numeric, uint64_t per_group, uint64_t table,
                                        size_t value_bytes) {
    return numeric ? mg_hash_numeric_bytes(per_group, table, value_bytes)
                   : mg_hash_symbolic_bytes(per_group, table);
}

/* Device buffers of one phase, freed together. */
typedef struct hash_work {
    magnus_dbuf counts, bins, gkeys, tables, tkeys, tvals; /* counts: the fill's cursors too */
} hash_work;

/* ---- the steps of a phase (each file's comments say more) ---- */

/* hash_plan.c: the largest work group of the bin kernels (see HASH_MAX_GROUP), within the
 * device's; the context's hash_group_max (MAGNUS_HASH_GROUP_MAX) overrides. */
uint32_t magnus_hash_group_cap(const magnus_context_s *ctx);
/* hash_plan.c: the bins for one phase, with work groups of at most group_cap items;
 * nbins == 2 (empty + global) when local memory holds no table. */
void magnus_hash_plan_build(hash_plan *p, const magnus_context_s *ctx, int numeric,
                            size_t value_bytes, uint32_t group_cap);
/* hash_plan.c: dynamic local bytes of a launch of bin b (kernels/hash_rows.cl,
 * hash_chunks.cl). */
uint64_t magnus_hash_bin_local_bytes(const hash_bin *b, int numeric, size_t value_bytes);
/* hash_plan.c: slots of the global table of an item with (capped) key `key`. */
uint64_t magnus_hash_global_slots(int numeric, int64_t key);

/* hash_launch.c: launches the bin kernel of `ph` (rows or chunks, symbolic or numeric, l's
 * local or global tables) on queue q. */
magnus_status magnus_hash_launch_bin(const hash_phase *ph, const hash_launch *l,
                                     magnus_queue_id q, size_t groups, size_t group_size,
                                     size_t local_bytes);
/* hash_launch.c: the launches magnus_hash_run_local makes for these bin sizes (smaller bins
 * merged into larger ones up to the merge limit). */
int magnus_hash_local_launches(const hash_phase *ph, const hash_plan *plan,
                               const uint32_t *sizes, const int64_t *offsets);
/* hash_launch.c: one launch per non-empty local bin, largest first, with the smaller bins
 * merged into it as magnus_hash_local_launches counts; the first launch on first_queue, the
 * others on other_queue. Does not wait. */
magnus_status magnus_hash_run_local(const hash_phase *ph, const hash_plan *plan,
                                    const hash_work *w, const uint32_t *sizes,
                                    const int64_t *offsets, magnus_queue_id first_queue,
                                    magnus_queue_id other_queue, magnus_hash_stats *st);

/* hash_binning.c: frees every buffer of w (queued work may still use them: device_pool.c). */
void magnus_hash_work_free(magnus_context ctx, hash_work *w);
/* hash_binning.c: bins the items: sizes[] (nbins) and offsets[] (nbins + 1) on the host, the
 * grouped ids in w->bins. Reads the bin sizes back (one transfer), so it waits for the main
 * queue once; nothing else in it waits (the bounds are the context's constant tables). */
magnus_status magnus_hash_bin_items(const hash_phase *ph, const hash_plan *p, hash_work *w,
                                    uint32_t *sizes, int64_t *offsets, magnus_hash_stats *st);

/* hash_global.c: the global bin (`count` items from bins_offset of w->bins): one table per
 * item in a scratch region, as few batches as the scratch bound allows, on the heavy queue.
 * Reads the items' keys back, so it waits for the main queue. */
magnus_status magnus_hash_run_global(const hash_phase *ph, hash_work *w, int64_t bins_offset,
                                     int64_t count, magnus_hash_stats *st);

/* hash_dense.c: whether the phase's global bin is taken by dense rows instead (rows of a C
 * that dense rows take, magnus_hash_dense_row_stripes), and that bin's launch, on the heavy
 * queue. */
bool magnus_hash_dense_rows_apply(const hash_phase *ph);
/* hash_dense.c: with dense rows applying, ends the numeric phase's local bins at the dense
 * rows' cut (magnus_dense_rows_numeric_cut), so that the last bin's dense rows take the rows
 * of more entries too. */
void magnus_hash_dense_rows_cut(hash_plan *p, const hash_phase *ph);
magnus_status magnus_hash_run_dense_rows(const hash_phase *ph, hash_work *w, int64_t bins_offset,
                                         int64_t count, magnus_hash_stats *st);

/* A phase's binned items between its two steps (hash_phase.c). */
typedef struct hash_binned {
    hash_plan plan;
    hash_work w;
    uint32_t sizes[HASH_MAX_BINS];
    int64_t offsets[HASH_MAX_BINS + 1];
    bool dense;  /* the global bin is taken by dense rows */
    bool binned; /* the items are binned and w holds them (false: none, or freed) */
} hash_binned;

/* hash_phase.c: a phase in two steps. _bin plans the bins, counts and fills them and reads
 * their sizes (the phase's one host wait, which also gives st->key_total, the sum of the
 * items' keys: nnz(C) in a numeric phase over every row); _launch launches the global bin (or
 * dense rows) and every local bin and frees the bins, leaving the kernels queued. After an
 * error either step drains the queues and frees the bins; _free frees them for a caller that
 * stops between the steps. */
magnus_status magnus_hash_phase_bin(const hash_phase *ph, hash_binned *b, magnus_hash_stats *st);
magnus_status magnus_hash_phase_launch(const hash_phase *ph, hash_binned *b,
                                       magnus_hash_stats *st);
void magnus_hash_binned_free(magnus_context ctx, hash_binned *b);
/* hash_phase.c: one phase, from binning to its outputs (_bin then _launch); waits for the main
 * queue (after an error, for every queue) before it frees its buffers and returns. */
magnus_status magnus_hash_run_phase_sync(const hash_phase *ph, magnus_hash_stats *stats);

#endif

/*
 * Dense rows, an accumulator module the hash accumulator uses (runtime/accumulate/, its
 * global bin): a row of C = A·B accumulated by one work group in an array over C's whole
 * width (values and an occupancy bitmap, kernels/hash_rows_dense.cl) in local memory, for the
 * rows that no local hash table holds (and, in the numeric phase, rows long for C's width),
 * instead of a table each in global memory. The hash accumulator decides which rows come here
 * and when (binning, queues); this module decides whether a C fits, in how many column
 * stripes, and how the rows are launched. The algorithms and AUTO do not see this folder: they
 * ask the hash accumulator (hash_accumulate.h, magnus_hash_dense_row_columns).
 *
 * Local memory: the context's dense_rows_local_bytes (dense_rows_knobs.h), the device's own
 * unless the caller set a budget (so MAGNUS_LOCAL_MEM_BYTES still bounds every launch), since
 * on GPUs whose budget default is below the device (48 KiB of the H200's 227) the device's is
 * what makes C's of 10^4 columns fit.
 *
 * Stripes: where C is wider than that, up to the context's dense_row_stripes
 * (MAGNUS_DENSE_STRIPES), a row is done in S = ceil(W / D) column stripes of ceil(W / S)
 * columns, one pass over its A entries each (the kernels cut every B row to the stripe by
 * binary searches); so a device of little local memory (OpenCL's 48 KiB on the H200) keeps the
 * path that its local memory-rich sibling takes.
 *
 * `group` below: the work items of a group, the hash accumulator's widest
 * (magnus_hash_group_cap); the width is sized for it.
 */
#ifndef MAGNUS_DENSE_ROWS_H
#define MAGNUS_DENSE_ROWS_H

#include "dense_rows_knobs.h"

/* Bytes of local memory a dense row leaves unused: NVIDIA's OpenCL refuses a launch whose
 * dynamic local memory reaches CL_DEVICE_LOCAL_MEM_SIZE (as the hash tables' reserve,
 * hash_private.h). */
#define MAGNUS_DENSE_LOCAL_RESERVE 16
/* Work groups per compute unit at most (one wave, each group taking rows in turn; two keep a
 * unit busy while the other group waits at a barrier, and GPUs hold no more groups of 1024
 * items per unit). */
#define MAGNUS_DENSE_GROUPS_PER_UNIT 2
/* Dense rows in the numeric phase: never for rows of this many entries or fewer (a whole
 * group's fixed costs for a row that a small table sorts quickly: bcsstk16's ~210). */
#define MAGNUS_DENSE_MIN_ENTRIES 512

/* The widest C, in columns, whose rows a group of `group` items accumulates over the whole
 * width in the local memory the context allows dense rows; 0: none (MAGNUS_DENSE_ROWS=0). */
int64_t magnus_dense_row_columns(const magnus_context_s *ctx, magnus_value_type type,
                                 uint32_t group);
/* The column stripes a dense row of a C `cols` wide is done in: 1 where C fits, ceil(cols /
 * that) where that is at most the context's dense_row_stripes, else 0 (no dense rows). */
int64_t magnus_dense_row_stripes(const magnus_context_s *ctx, magnus_value_type type,
                                 int64_t cols, uint32_t group);
/* In the numeric phase, the entries past which a row is a dense row even where a local table
 * would hold it: C's width / the context's dense_row_share, at least
 * MAGNUS_DENSE_MIN_ENTRIES, where C fits one dense row (not in stripes: there a dense row costs
 * a pass over its A entries per stripe); 0: no such cut. Their local tables would be large
 * (one row per group, hundreds of lanes) and sorted, where the dense row writes its entries
 * in column order. The symbolic phase keeps its tables up to their capacity: counting keys
 * needs no sort, and a dense row's fixed costs lost to them on rows of 2,000-4,000 products
 * (EX5, bcsstk16: docs/performance.md, "Dense rows"). */
int64_t magnus_dense_rows_numeric_cut(const magnus_context_s *ctx, magnus_value_type type,
                                      int64_t cols, uint32_t group);

/* One launch: the listed rows of A·B, symbolic (row_counts[r] = nnz of row r) or numeric
 * (row r written sorted at C_row_ptr[r] of C_col / C_val). */
typedef struct magnus_dense_rows_launch {
    magnus_queue_id queue;            /* where the rows run */
    magnus_queue_id after;            /* queue waited for first (none when it is `queue`) */
    magnus_kernel_variant variant;
    size_t value_bytes;
    int numeric;
    uint32_t group;
    const struct magnus_device_csr_s *A, *B;
    const magnus_dbuf *rows;          /* uint32 row ids */
    int64_t rows_offset, count;
    magnus_dbuf *row_counts;          /* symbolic */
    const magnus_dbuf *C_row_ptr;     /* numeric */
    magnus_dbuf *C_col, *C_val;       /* numeric */
} magnus_dense_rows_launch;
/* Queues the launch (one kernel, count > 0) and returns the stripes it took in *stripes.
 * MAGNUS_ERROR_INTERNAL when C takes no dense rows (magnus_dense_row_stripes 0). */
magnus_status magnus_dense_rows_run(int64_t *stripes, magnus_context ctx,
                                    const magnus_dense_rows_launch *l);

#endif

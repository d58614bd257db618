/*
 * The state of one gMAGNUS multiply (runtime/gmagnus_*.c), shared by its phases:
 *   gmagnus_setup.c       products per row, heavy/light partition          (main queue)
 *   gmagnus_outer.c       masked CSR->CSC of A's heavy rows, outer product  (heavy queue)
 *   gmagnus_levels.c      hierarchical multisplit: histogram + multisplit   (heavy queue)
 *   gmagnus_chunks.c      symbolic and numeric of the chunks: hash for light chunks, dense
 *                         for the last level's heavy chunks; counts up, offsets down
 *   gmagnus_spgemm.c      the flow of the paper's Algorithm 3, C, the report
 *
 * Stages. Stage L is the output of multisplit level L: R = rows_in * nchunks chunks laid
 * out with the `heavy` chunks first (they are stage L+1's input rows) and the others after
 * them (accumulated at this stage). The last stage keeps natural order (chunk q = row *
 * nchunks + c) and has heavy = 0; its chunks with more than tau elements go to the dense
 * accumulator, the others to the hash accumulator. Without multisplit levels (C narrow
 * enough for one dense accumulator) stage 0 is C-hat itself, one chunk per heavy row.
 */
#ifndef MAGNUS_GMAGNUS_INTERNAL_H
#define MAGNUS_GMAGNUS_INTERNAL_H

#include "device_runtime.h"
#include "gmagnus_knobs.h"
#include "gmagnus_params.h"
#include "spgemm_algorithm.h"

#define MAGNUS_GM_TIMERS (4 + 2 * MAGNUS_MAX_LEVELS)

typedef struct magnus_gm_stage {
    int64_t rows_in;  /* input rows: heavy rows of A (stage 0) or heavy chunks of L-1 */
    int64_t nchunks;  /* chunks per input row */
    int64_t width;    /* columns per chunk */
    int64_t count;    /* chunks: rows_in * nchunks */
    int64_t heavy;    /* chunks laid out first and split again by the next stage */
    int has_perm;     /* perm holds laid-out row -> natural id (else identity) */
    int buffer;       /* which of the two C-hat buffers holds this stage's elements */
    magnus_dbuf ptr;  /* u64 count+1: laid-out row pointers into that buffer */
    int owns_ptr;     /* 0 when ptr aliases C-hat's row pointer (no multisplit) */
    magnus_dbuf perm; /* u32 count */
    /* accumulation */
    magnus_dbuf hash_ids;  /* u32 ids of the chunks for the hash accumulator */
    int64_t hash_offset, hash_count;
    magnus_dbuf dense_ids; /* u32 ids for the dense accumulator (last stage only) */
    int64_t dense_count;
    magnus_dbuf cnt;   /* i64 count: symbolic count of each accumulated chunk (laid out) */
    magnus_dbuf scan;  /* u64 count+1: exclusive scan of the counts in natural order */
    magnus_dbuf base;  /* i64 count: position of the chunk's first entry in C */
    magnus_dbuf shift; /* i32 count: column of the chunk's local column 0 */
} magnus_gm_stage;

typedef struct magnus_gm {
    magnus_context ctx;
    const struct magnus_device_csr_s *A, *B;
    const magnus_row_products *counted; /* AUTO's count and scan, else NULL: setup makes them */
    struct magnus_device_csr_s *C; /* row_ptr: products, then counts, then row pointers */
    magnus_gmagnus_params p;
    magnus_kernel_variant variant;
    size_t value_bytes;
    /* setup */
    magnus_dbuf heavy_rows, light_rows; /* u32 row ids */
    int64_t nheavy, nlight;
    int64_t heavy_row_products; /* rows with more products are heavy (gmagnus_rows.c) */
    const char *heavy_row_rule; /* why that threshold (static text) */
    int64_t light_rows_global;  /* light rows in global hash tables (symbolic + numeric) */
    int64_t light_rows_dense;   /* light rows accumulated as dense rows (the larger phase) */
    int64_t light_dense_stripes; /* the most column stripes one of them took */
    int64_t products_total, products_heavy;
    /* C-hat and the double buffer of the multisplit levels */
    magnus_dbuf chat_ptr;      /* u64 nheavy+1 */
    magnus_dbuf col[2], val[2];
    int64_t chat_nnz;
    /* In-place multisplit (gmagnus_levels.c) when > 0: buffer 1 alone holds gap + chat_nnz
     * elements, C-hat after the gap and level 0's output from the start; buffer 0 unused. */
    uint64_t gap;
    /* stages */
    int nstages;               /* stages built (multisplit levels run, or 1 without levels) */
    int levels_run;            /* multisplit levels run */
    magnus_gm_stage stage[MAGNUS_MAX_LEVELS];
    magnus_dbuf iota;          /* u32 0, 1, 2, ... (id lists of laid-out ranges) */
    int64_t iota_count;
    /* timing: device events on the heavy queue, host clocks for the rest */
    magnus_timer timers[MAGNUS_GM_TIMERS];
    double host_alloc_ms;
} magnus_gm;

/* Timer slots. */
enum {
    MAGNUS_GM_T_SETUP = 0,
    MAGNUS_GM_T_CSR2CSC = 1,
    MAGNUS_GM_T_OUTER = 2,
    MAGNUS_GM_T_HISTOGRAM = 4,                              /* + level */
    MAGNUS_GM_T_MULTISPLIT = 4 + MAGNUS_MAX_LEVELS          /* + level */
};

/* One gMAGNUS multiply, whole (gmagnus_spgemm.c); the table's run cuts it into row blocks
 * first when C-hat would pass the batch budget (gmagnus_batches.c). `counted` as in
 * spgemm_algorithm.h. */
magnus_status magnus_gmagnus_spgemm(magnus_device_csr *C, magnus_context ctx,
                                    const struct magnus_device_csr_s *A,
                                    const struct magnus_device_csr_s *B,
                                    magnus_spgemm_section *report,
                                    const magnus_row_products *counted);
/* gMAGNUS's parameters on ctx (its budget and knobs) for C of c_cols columns: the
 * parameters' own errors ("gMAGNUS parameters: ...") when the budget cannot hold them. */
magnus_status magnus_gmagnus_context_params(magnus_gmagnus_params *p, magnus_context ctx,
                                           int64_t c_cols, magnus_value_type type);

/* Accounted allocation whose host time counts as time_alloc_ms. */
magnus_status magnus_gm_alloc(magnus_gm *g, size_t bytes, magnus_dbuf *out);

/* After an error: waits for every queue (so buffers can be freed) keeping the error's
 * message; returns s. */
magnus_status magnus_gm_drain(magnus_gm *g, magnus_status s);

/* g->heavy_row_products and g->heavy_row_rule (gmagnus_rows.c): tau, or the context's knob. */
void magnus_gm_choose_heavy_rows(magnus_gm *g);

/* Phases (see the file comments). Where each waits on the host, which fixes the flow's
 * order (gmagnus_spgemm.c): */
/* Main queue; waits for it (the host needs the heavy and light counts): returns idle. */
magnus_status magnus_gm_setup_sync(magnus_gm *g);
/* Heavy queue; waits for it twice during the CSC (the CSC's size, the number of non-empty
 * slices), then queues the outer product and returns without waiting for it. */
magnus_status magnus_gm_outer_product(magnus_gm *g);
/* Heavy queue; waits for it at every level (the previous stage's size read back, the
 * heavy/light partition); returns with the last level's multisplit queued. */
magnus_status magnus_gm_levels(magnus_gm *g);
/* Heavy queue; waits for it (the last stage's dense/hash partition, the hash calls);
 * returns with the counts-up kernels queued. */
magnus_status magnus_gm_chunks_symbolic(magnus_gm *g);
/* Numeric in two calls: the first queues the chunk positions and the dense kernel (no host
 * wait), the second runs the hash accumulator on the light chunks and waits for the heavy
 * queue: returns with it idle. */
magnus_status magnus_gm_chunks_numeric_dense(magnus_gm *g);
magnus_status magnus_gm_chunks_numeric_sync(magnus_gm *g);
/* An id list 0 .. n-1 in g->iota (grown as needed). */
magnus_status magnus_gm_iota(magnus_gm *g, magnus_queue_id q, int64_t n);
/* Frees everything the state holds (after the queues are idle). Buffers that queued work may
 * still read when their phase ends go to magnus_dbuf_free_deferred instead, which the
 * context frees at its next idle point (magnus_context_finish at the end of the multiply,
 * magnus_gm_drain after an error). */
void magnus_gm_release(magnus_gm *g);

/* Kernel launch helper: groups of `group` items covering `items` (capped; kernels stride). */
size_t magnus_gm_groups(int64_t items, size_t group);

#endif

/*
 * The SpGEMM algorithms behind magnus_spgemm_device(): each takes validated device matrices
 * of one value type (A.cols == B.rows already checked), builds C on the same context, and
 * fills the report fields it knows. runtime/spgemm/spgemm.c does validation, transfers, the total
 * time and the dispatch; the algorithms never touch host CSR matrices.
 */
#ifndef MAGNUS_SPGEMM_ALGORITHMS_H
#define MAGNUS_SPGEMM_ALGORITHMS_H

#include "device_runtime.h"

/* A·B's products per row as MAGNUS_ALGORITHM_AUTO's choice counted them: products (rows+1
 * int64, the last 0) and, when gMAGNUS was chosen, offsets (their exclusive scan, rows+1) and
 * total (their sum); offsets is empty otherwise. */
typedef struct magnus_row_products {
    magnus_dbuf products, offsets;
    uint64_t total;
} magnus_row_products;
void magnus_row_products_free(magnus_context ctx, magnus_row_products *rp);
/* Queues on q the count of A·B's products per row and their scan into rp's two new buffers
 * (rp->total is left 0: offsets[rows] holds it once q has run). On error rp may hold buffers:
 * free it. */
magnus_status magnus_row_products_queue(magnus_row_products *rp, magnus_context ctx,
                                        magnus_queue_id q, const struct magnus_device_csr_s *A,
                                        const struct magnus_device_csr_s *B);

/* Where a multiply tells its progress: opt's callback (none when opt or it is NULL) with
 * fractions from `from` (the multiply starts) to `to` (it ends); NULL: nowhere. */
typedef struct magnus_spgemm_progress {
    const magnus_spgemm_options *opt;
    double from, to;
} magnus_spgemm_progress;
/* Calls the callback with `fraction` and `what`; MAGNUS_ERROR_CANCELLED, naming `what`, when
 * it returns 0. */
magnus_status magnus_spgemm_progress_call(const magnus_spgemm_options *opt, double fraction,
                                          const char *what);

/* `counted`, when not NULL: what the choice counted, which the algorithm takes instead of
 * counting and scanning again. */
/* OpSparse-style binned hash Gustavson (runtime/spgemm/hash/hash_spgemm.c). */
magnus_status magnus_hash_spgemm(magnus_device_csr *C, magnus_context ctx,
                                 const struct magnus_device_csr_s *A,
                                 const struct magnus_device_csr_s *B, magnus_report *report,
                                 const magnus_row_products *counted);
/* gMAGNUS (runtime/spgemm/gmagnus/gmagnus_spgemm.c). */
magnus_status magnus_gmagnus_spgemm(magnus_device_csr *C, magnus_context ctx,
                                    const struct magnus_device_csr_s *A,
                                    const struct magnus_device_csr_s *B, magnus_report *report,
                                    const magnus_row_products *counted);

/* gMAGNUS's parameters on ctx (its budget and knobs) for C of c_cols columns: the
 * parameters' own errors ("gMAGNUS parameters: ...") when the budget cannot hold them. */
magnus_status magnus_gmagnus_context_params(magnus_gmagnus_params *p, magnus_context ctx,
                                           int64_t c_cols, magnus_value_type type);
/* gMAGNUS, in row blocks when C-hat would pass ctx->chat_batch_bytes
 * (runtime/spgemm/spgemm_batches.c); `counted` may be NULL (it then counts the products per
 * row itself, once, and hands the count on). In blocks it tells `progress` before each block
 * ("multiply: row block I of K"); a callback that returns 0 stops it with
 * MAGNUS_ERROR_CANCELLED, nothing held. */
magnus_status magnus_gmagnus_spgemm_batched(magnus_device_csr *C, magnus_context ctx,
                                            const struct magnus_device_csr_s *A,
                                            const struct magnus_device_csr_s *B,
                                            magnus_report *report,
                                            const magnus_row_products *counted,
                                            const magnus_spgemm_progress *progress);

/* MAGNUS_ALGORITHM_AUTO's choice for A·B (runtime/spgemm/spgemm_choice.c): *out is MAGNUS
 * or HASH; *counted what it counted, for that algorithm (the caller frees it with
 * magnus_row_products_free); fills the report's auto_* fields, algorithm_reason and
 * time_choice_ms. Waits for the main queue; on error *counted is empty. */
magnus_status magnus_spgemm_choose(magnus_algorithm *out, magnus_row_products *counted,
                                   magnus_context ctx, const struct magnus_device_csr_s *A,
                                   const struct magnus_device_csr_s *B, magnus_report *report);

/* MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY, naming C and the bytes it needs at least against those
 * the device can still give, when a lower bound on C's size cannot fit beside what is in use
 * (runtime/spgemm/spgemm_c_bound.c); checked before any phase, so such a product fails at
 * once. A pass over A on the device only when a bound from the shapes alone does not fit.
 * Returns with the queues as they were (idle after its own work). */
magnus_status magnus_spgemm_c_fits(magnus_context ctx, const struct magnus_device_csr_s *A,
                                   const struct magnus_device_csr_s *B);

/* The algorithm of opt (NULL: defaults; AUTO asks spgemm_choice.c) on checked operands, then
 * the alpha scaling: what magnus_spgemm_device runs after its checks (runtime/spgemm/spgemm.c).
 * Fills the report's algorithm fields; returns with every queue idle. */
magnus_status magnus_spgemm_dispatch(magnus_device_csr *C, magnus_context ctx,
                                     const struct magnus_device_csr_s *A,
                                     const struct magnus_device_csr_s *B,
                                     const magnus_spgemm_options *opt, magnus_report *rep,
                                     const magnus_spgemm_progress *progress);

/* The phases of a plan (runtime/spgemm/spgemm_plan.c), by the hash algorithm's accumulator:
 * symbolic: C's row pointers (rows+1 int64, a new buffer the caller frees) and nnz;
 * numeric: C (a new matrix, or `into`, which has C's shape, type and nnz) gets a copy of
 * those row pointers, its columns and values from A and B; on failure `into` is left as is
 * but its contents are undefined.
 * Both wait for the context before returning. */
magnus_status magnus_hash_spgemm_symbolic(magnus_dbuf *row_ptr, int64_t *nnz, magnus_context ctx,
                                          const struct magnus_device_csr_s *A,
                                          const struct magnus_device_csr_s *B,
                                          magnus_report *report);
magnus_status magnus_hash_spgemm_numeric(magnus_device_csr *C, magnus_context ctx,
                                         const struct magnus_device_csr_s *A,
                                         const struct magnus_device_csr_s *B,
                                         const magnus_dbuf *row_ptr, int64_t nnz,
                                         struct magnus_device_csr_s *into,
                                         magnus_report *report);

#endif

/*
 * The SpGEMM algorithms' interface: what an algorithm (runtime/spgemm/hash,
 * runtime/spgemm/gmagnus, the next one) offers the dispatcher (runtime/spgemm) and what it may
 * use from it. Each algorithm fills one table, magnus_spgemm_algorithm, in its own folder, the
 * way a backend fills its backend.h table; the dispatcher chooses among the tables and never
 * names an algorithm's functions. This layer sits below the dispatcher and beside nothing: an
 * algorithm sees it, not the dispatcher nor another algorithm (runtime/layers.txt).
 *
 * An algorithm takes validated device matrices of one value type (A.cols == B.rows already
 * checked), builds C on the same context, and fills its sections of the report
 * (spgemm_section.h: RUN, and GMAGNUS for gMAGNUS), never the report itself. The dispatcher
 * does validation, transfers, the total time and the choice, writes those fields (DISPATCH,
 * AUTO) and copies the sections in; the algorithms never touch host CSR matrices.
 */
#ifndef MAGNUS_SPGEMM_ALGORITHM_H
#define MAGNUS_SPGEMM_ALGORITHM_H

#include "device_runtime.h"
#include "spgemm_section.h"

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

/* One algorithm, filled by that algorithm alone. */
typedef struct magnus_spgemm_algorithm {
    magnus_algorithm id; /* the public enum value that asks for it */
    const char *name;    /* its name in code and traces ("hash", "gmagnus") */
    const char *mark;    /* the trace mark its multiply starts with */
    /* C = A·B. `counted`, when not NULL: what the choice counted, which the algorithm takes
     * instead of counting and scanning again. `progress` may be NULL. Returns with every
     * queue idle. */
    magnus_status (*run)(magnus_device_csr *C, magnus_context ctx,
                         const struct magnus_device_csr_s *A,
                         const struct magnus_device_csr_s *B, magnus_spgemm_section *section,
                         const magnus_row_products *counted,
                         const magnus_spgemm_progress *progress);
    /* A plan's phases (runtime/spgemm/spgemm_plan.c), NULL when the algorithm has none:
     * symbolic: C's row pointers (rows+1 int64, a new buffer the caller frees) and nnz;
     * numeric: C (a new matrix, or `into`, which has C's shape, type and nnz) gets a copy of
     * those row pointers, its columns and values from A and B; on failure `into` is left as
     * is but its contents are undefined. Both wait for the context before returning. */
    magnus_status (*symbolic)(magnus_dbuf *row_ptr, int64_t *nnz, magnus_context ctx,
                              const struct magnus_device_csr_s *A,
                              const struct magnus_device_csr_s *B,
                              magnus_spgemm_section *section);
    magnus_status (*numeric)(magnus_device_csr *C, magnus_context ctx,
                             const struct magnus_device_csr_s *A,
                             const struct magnus_device_csr_s *B, const magnus_dbuf *row_ptr,
                             int64_t nnz, struct magnus_device_csr_s *into,
                             magnus_spgemm_section *section);
} magnus_spgemm_algorithm;

/* A plan's numeric phase (an algorithm's, or the plan's own by positions) computes into the
 * caller's `into` or a new matrix: magnus_spgemm_numeric_target sets *dC to `into`, else to a
 * new rows x cols matrix of nnz entries (C's row pointers not yet written); after the phase,
 * magnus_spgemm_numeric_done gives dC to *C (when C is not NULL) if s is MAGNUS_SUCCESS, else
 * drains the queues (keeping s's message) and destroys a new dC. Both return s. */
magnus_status magnus_spgemm_numeric_target(magnus_device_csr *dC,
                                           struct magnus_device_csr_s *into, magnus_context ctx,
                                           int64_t rows, int64_t cols, magnus_value_type type,
                                           int64_t nnz);
magnus_status magnus_spgemm_numeric_done(magnus_device_csr *C, magnus_device_csr *dC,
                                         const struct magnus_device_csr_s *into,
                                         magnus_context ctx, magnus_status s);

/* The tables, each defined in its algorithm's folder. */
extern const magnus_spgemm_algorithm magnus_spgemm_algorithm_hash;    /* hash/ */
extern const magnus_spgemm_algorithm magnus_spgemm_algorithm_gmagnus; /* gmagnus/ */

#endif

/*
 * SpMV on a device: y = alpha*A*x + beta*y.
 * Part of the public API: include <magnus/magnus.h>, which includes every part; the conventions
 * (outputs first, magnus_X_free, magnus_last_error, thread safety) are stated there.
 */
#ifndef MAGNUS_SPMV_H
#define MAGNUS_SPMV_H

#include "magnus_spgemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------
 * SpMV on a device: y = alpha*A*x + beta*y (docs/algorithm.md §9; Anzt, Chow and Dongarra,
 * "Load-balancing sparse matrix vector product kernels on GPUs", TOPC 2020)
 * ------------------------------------------------------------------------------------------ */
/* A dense vector in device memory of a context, float32 or float64. Freed before its
 * context. */
typedef struct magnus_device_vector_s *magnus_device_vector;
/* New vector of `length` (0 .. INT32_MAX) values of `type` copied from host (length values
 * of that type; may be NULL only when length is 0). */
MAGNUS_API magnus_status magnus_device_vector_upload(magnus_device_vector *out, magnus_context ctx,
                                                     magnus_value_type type, int64_t length,
                                                     const void *host);
/* New vector of `length` zeros. */
MAGNUS_API magnus_status magnus_device_vector_zeros(magnus_device_vector *out, magnus_context ctx,
                                                    magnus_value_type type, int64_t length);
/* Copies the vector into host (room for `length` values of its type; length must be the
 * vector's: MAGNUS_ERROR_DIMENSION_MISMATCH otherwise). Waits for the device. */
MAGNUS_API magnus_status magnus_device_vector_download(void *host, int64_t length,
                                                       const magnus_device_vector v);
/* Length and value type (either output may be NULL). */
MAGNUS_API magnus_status magnus_device_vector_info(int64_t *length, magnus_value_type *type,
                                                   const magnus_device_vector v);
MAGNUS_API magnus_status magnus_device_vector_free(magnus_device_vector *v);

typedef enum magnus_spmv_format {
    MAGNUS_SPMV_AUTO = 0,         /* chosen from the row lengths (magnus_spmv_options) */
    MAGNUS_SPMV_CSR = 1,          /* the CSR as it is: lanes per row from the mean row length */
    MAGNUS_SPMV_CSR_BALANCED = 2, /* merge-path CSR: row ends + nonzeros split evenly */
    MAGNUS_SPMV_COO = 3,          /* row indices made on the device, nonzeros split evenly */
    MAGNUS_SPMV_HYBRID = 4,       /* ELL of a width from the row lengths + COO for the rest */
    MAGNUS_SPMV_SELL_P = 5        /* sliced ELL, slice widths padded to a stride */
} magnus_spmv_format;
/* "auto", "csr", "csr-balanced", "coo", "hybrid", "sellp"; "?" for another value. A constant
 * query: it leaves magnus_last_error() as it was. */
MAGNUS_API const char *magnus_spmv_format_name(magnus_spmv_format format);

typedef struct magnus_spmv_options {
    magnus_spmv_format format;
    /* AUTO's rule (from H200 measurements; docs/algorithm.md §9): CSR_BALANCED when the
     * longest row is more than max(64, 8 x the mean row length) (one group of lanes would work
     * far longer than the others); otherwise HYBRID for a plan (magnus_spmv_plan_create: its
     * conversion pays off over repeated products) and CSR for a one-shot magnus_spmv. */
    int64_t sellp_slice;        /* SELL-P rows per slice, 1..1024; 0: 32 */
    int64_t sellp_stride;       /* SELL-P slice widths are multiples of it, 1..1024; 0: 4 */
    int64_t hybrid_width;       /* ELL width of HYBRID, 0..1024; -1 (the default): the rule
                                   of docs/algorithm.md §9 (the width at least a third of
                                   the rows reach, after Bell and Garland) */
} magnus_spmv_options;
MAGNUS_API magnus_status magnus_spmv_options_init(magnus_spmv_options *opt);

/* Filled by the SpMV calls. Times in ms, measured with device events. */
typedef struct magnus_spmv_report {
    magnus_spmv_format format;  /* the format that ran (AUTO resolved) */
    double conversion_ms;       /* analysis (AUTO, HYBRID's width) and conversion on the
                                   device; 0 for a plan already converted */
    double product_ms;          /* the product alone */
    uint64_t floor_bytes;       /* the least traffic of any SpMV of this A: A's CSR (row
                                   pointers, columns, values), x, y written, and y read when
                                   beta != 0; GB/s = floor_bytes / product time */
    uint64_t format_bytes;      /* device bytes of the converted matrix (0 for CSR formats) */
    int64_t lanes;              /* CSR: work items per row */
    int64_t ell_width;          /* HYBRID: ELL width; SELL_P: the widest slice */
    int64_t coo_entries;        /* HYBRID: entries in its COO part; COO: nnz */
    int64_t groups;             /* CSR_BALANCED / COO: work-group segments of the split */
    int64_t hot_columns;        /* CSR_BALANCED: x's columns copied into each work group's
                                   local memory (MAGNUS_SPMV_HOT_BYTES; 0: none) */
    double hot_share;           /* ... and the share of A's entries they serve */
    const char *format_reason;  /* why that format ran (static text: "requested by the
                                   options", or AUTO's rule and statistics) */
    int64_t long_rows;          /* AUTO: rows longer than long_row_threshold, which made the
                                   choice csr-balanced (0 when AUTO did not count them) */
    int64_t long_row_threshold; /* AUTO: max(64, 8 x the mean row length) */
} magnus_spmv_report;

/* A converted matrix for repeated products: made once, used by magnus_spmv_plan_execute.
 * It refers to A, which must outlive it (and not change). */
typedef struct magnus_spmv_plan_s *magnus_spmv_plan;
MAGNUS_API magnus_status magnus_spmv_plan_create(magnus_spmv_plan *out, magnus_context ctx,
                                                 const magnus_device_csr A,
                                                 const magnus_spmv_options *opt,
                                                 magnus_spmv_report *report);
/* y = alpha*A*x + beta*y with the plan's matrix. x has A.cols values, y A.rows, both of A's
 * value type (else MAGNUS_ERROR_UNSUPPORTED_TYPE; lengths: MAGNUS_ERROR_DIMENSION_MISMATCH).
 * beta == 0 does not read y (NaN in y does not reach the result); alpha == 0 does not read A
 * or x. x and y must be different vectors. Values are summed in the value type. report may be
 * NULL. */
MAGNUS_API magnus_status magnus_spmv_plan_execute(magnus_spmv_plan plan, magnus_device_vector y,
                                                  double alpha, const magnus_device_vector x,
                                                  double beta, magnus_spmv_report *report);
MAGNUS_API magnus_status magnus_spmv_plan_free(magnus_spmv_plan *plan);
/* One product: plan, execute, free (the report has both times). */
MAGNUS_API magnus_status magnus_spmv(magnus_context ctx, magnus_device_vector y, double alpha,
                                     const magnus_device_csr A, const magnus_device_vector x,
                                     double beta, const magnus_spmv_options *opt,
                                     magnus_spmv_report *report);
/* The same from the host: A validated and uploaded, x (A.cols values) and y (A.rows values,
 * overwritten with the result; read only when beta != 0) of A's value type. */
MAGNUS_API magnus_status magnus_spmv_host(void *y, magnus_context ctx, double alpha,
                                          const magnus_csr_s *A, const void *x, double beta,
                                          const magnus_spmv_options *opt,
                                          magnus_spmv_report *report);

#ifdef __cplusplus
}
#endif
#endif /* MAGNUS_SPMV_H */

/*
 * SpGEMM on a device and SpGEMM plans (symbolic once, numeric many).
 * Part of the public API: include <magnus/magnus.h>, which includes every part; the conventions
 * (outputs first, magnus_X_free, magnus_last_error, thread safety) are stated there.
 */
#ifndef MAGNUS_SPGEMM_H
#define MAGNUS_SPGEMM_H

#include "magnus_device.h"
#include "magnus_report_fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------
 * SpGEMM on a device
 * ------------------------------------------------------------------------------------------ */
typedef enum magnus_algorithm {
    MAGNUS_ALGORITHM_GMAGNUS = 0, /* gMAGNUS: light rows hashed, heavy rows expanded,
                                     reordered by column range and accumulated densely in
                                     local memory */
    MAGNUS_ALGORITHM_HASH = 1,   /* OpSparse-style binned hash Gustavson; rows too large for
                                    local memory use a global-memory table */
    MAGNUS_ALGORITHM_AUTO = 2,   /* the default: one of the two per product, by the rule of
                                    docs/performance.md "The method per input" (measured on the
                                    H200): the hash algorithm when the rows its local tables
                                    cannot hold carry less than
                                    MAGNUS_AUTO_HASH_MAX_LONG_SHARE of the products: the share
                                    of rows of more products than its symbolic tables hold
                                    (auto_long_row_products) plus MAGNUS_AUTO_OVERFLOW_WEIGHT
                                    times that of rows of fewer products but more entries than
                                    its numeric tables hold (auto_numeric_row_nnz; estimated
                                    from MAGNUS_AUTO_OVERFLOW_SAMPLES rows drawn by products),
                                    else gMAGNUS. The report says which ran and why. */
    MAGNUS_ALGORITHM_MAGNUS = MAGNUS_ALGORITHM_GMAGNUS /* gMAGNUS's former name, the same
                                    value, kept for existing callers (issue 35) */
} magnus_algorithm;
/* AUTO's threshold (a fraction of the products) */
#define MAGNUS_AUTO_HASH_MAX_LONG_SHARE 0.25
/* AUTO's sample of rows for the overflow share (its standard error at a share of 0.25 is
 * about 0.02) */
#define MAGNUS_AUTO_OVERFLOW_SAMPLES 512
/* AUTO's weight of the overflow share: such rows merge at most 3 products per entry (at most
 * auto_long_row_products products, more than a third as many entries), the inputs gMAGNUS
 * expands cheaply, while the hash algorithm fills them in global tables */
#define MAGNUS_AUTO_OVERFLOW_WEIGHT 2
/* "auto", "gmagnus" or "hash" (static text; NULL for another value). Inputs that name an
 * algorithm (the CLI's --algorithm, bench systems, Python) also take "magnus", gMAGNUS's
 * former name. */
MAGNUS_API const char *magnus_algorithm_name(magnus_algorithm algorithm);

typedef struct magnus_spgemm_options {
    magnus_algorithm algorithm;  /* MAGNUS_ALGORITHM_AUTO from magnus_spgemm_options_init (and
                                    for NULL options); MAGNUS or HASH forces one, for studies */
    magnus_progress_fn progress; /* may be NULL. Told "upload", "multiply", "download", "done"
                                    (magnus_spgemm; the device entry point "multiply" and
                                    "done"), and "multiply: row block I of K" before each of
                                    gMAGNUS's row blocks (chat_batch_bytes); returning 0
                                    stops the work with MAGNUS_ERROR_CANCELLED */
    void *progress_user;
    double alpha;                /* C = alpha * A.B (1 from magnus_spgemm_options_init; NULL
                                    options mean 1): C's values, computed in the value type, are
                                    multiplied by alpha rounded to that type (alpha = 0 keeps
                                    C's structure, with zeros). Must be finite, else
                                    MAGNUS_ERROR_INVALID_ARGUMENT. */
} magnus_spgemm_options;
MAGNUS_API magnus_status magnus_spgemm_options_init(magnus_spgemm_options *opt);

#define MAGNUS_MAX_LEVELS 8
/* Filled by every multiply: where the time went and what the parameters were. Times in ms.
 * Its fields, their types and meanings are listed once in magnus_report_fields.h
 * (MAGNUS_REPORT_FIELDS): algorithm, algorithm_requested, algorithm_reason, the AUTO choice's
 * auto_* and time_choice_ms, the phase times time_*_ms, gMAGNUS's parameters (tau,
 * heavy_row_products, levels, chunks_*), the sizes (rows_*, products_*, nnz_c) and the
 * memory (chat_bytes, peak_device_bytes, reserved_device_bytes, ...). */
typedef struct magnus_report {
    MAGNUS_REPORT_FIELDS(MAGNUS_REPORT_MEMBER)
} magnus_report;

/*
 * C = A·B on the context's device. A and B are validated (magnus_csr_validate) and must have
 * the same value type; C gets it too. report and opt may be NULL; without a report the phases
 * are not timed on the device (each device timer costs the host two recorded events, through
 * NVIDIA's OpenCL 11-16 us each: docs/vendors.md). *C is an output only (see
 * the conventions at the top): set to NULL first, then to a new matrix; a matrix *C held
 * before is neither read nor freed, so `magnus_spgemm(&C, ...)` in a loop must free C between
 * calls. On failure *C is NULL. A product whose C cannot fit the device's memory (or the
 * context's device_memory_limit) beside what is in use fails before any phase runs, with
 * MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY naming C and the bytes it needs at least: a lower bound,
 * each row of C holding every column of the B rows its A row selects, so a product that fits
 * is never refused (magnus_spgemm_device and magnus_spgemm_plan_create alike).
 */
MAGNUS_API magnus_status magnus_spgemm(magnus_csr *C, magnus_context ctx, const magnus_csr_s *A,
                                       const magnus_csr_s *B, const magnus_spgemm_options *opt,
                                       magnus_report *report);

/* Device-resident matrices: upload once, multiply many times, download when asked. */
typedef struct magnus_device_csr_s *magnus_device_csr;
MAGNUS_API magnus_status magnus_device_csr_upload(magnus_device_csr *out, magnus_context ctx,
                                                  const magnus_csr_s *A);
/* A new host matrix with dA's contents. Its arrays are fresh memory: from 16 MiB on, up to 8
 * threads (MAGNUS_HOST_THREADS) fault in their pages before the copy, which otherwise takes
 * each page fault in turn (5x faster for 650 MB on the H200's host). */
MAGNUS_API magnus_status magnus_device_csr_download(magnus_csr *out, const magnus_device_csr dA);
MAGNUS_API magnus_status magnus_device_csr_free(magnus_device_csr *dA);
/* Shape and nnz of a device matrix (any output may be NULL). */
MAGNUS_API magnus_status magnus_device_csr_shape(int64_t *rows, int64_t *cols, int64_t *nnz,
                                                 const magnus_device_csr dA);
MAGNUS_API magnus_status magnus_spgemm_device(magnus_device_csr *C, magnus_context ctx,
                                              const magnus_device_csr A, const magnus_device_csr B,
                                              const magnus_spgemm_options *opt,
                                              magnus_report *report);

/* ------------------------------------------------------------------------------------------
 * SpGEMM plans: symbolic once, numeric many (C = alpha·A·B for A and B of one structure and
 * changing values)
 * ------------------------------------------------------------------------------------------ */
typedef struct magnus_spgemm_plan_s *magnus_spgemm_plan;

/*
 * A plan for C = alpha·A·B made from device matrices A and B of the context (they may be the
 * same matrix). It keeps the operands' shapes, value type and structure fingerprints,
 * opt->alpha (opt may be NULL: alpha 1), C's structure and what its numeric phase needs. A and
 * B are not kept: they may be freed after. Two kinds (magnus_spgemm_plan_info.positions says
 * which was made; the reports' algorithm_reason says why):
 *   - product positions (the default): create runs a whole multiply with opt->algorithm (AUTO,
 *     the default, picks one) and keeps C's row pointers and columns and, for every product
 *     a_ik·b_kj of A·B, the index of C's entry it adds to: about 4 bytes per product, 8 per
 *     entry of A and 4 per entry of C (its columns). An execution zeroes C's values and adds each product
 *     into its entry: one pass over the products, no symbolic work. The additions into one
 *     entry are float atomics, so their order (and the last bits of a sum) may vary between
 *     executions. The reports name the algorithm that made the structure.
 *   - hash numeric phase: create runs the hash algorithm's symbolic phase (or keeps the
 *     multiply's row pointers) and keeps C's row pointers only (rows+1 int64); an execution
 *     runs the hash algorithm's numeric phase (the reports say MAGNUS_ALGORITHM_HASH). Made
 *     when the environment sets MAGNUS_PLAN_POSITIONS=0, when nnz(C) reaches 2^32 (positions
 *     are 32-bit) or when the positions find no device memory (the context's limit included).
 * opt->progress is not called. Errors as magnus_spgemm_device. A plan must be freed before its
 * context; one thread at a time.
 *
 * The structure check: a 64-bit fingerprint of rows, cols, nnz, row_ptr and col_idx (not the
 * values), computed on the host when the matrix is uploaded with magnus_device_csr_upload, on
 * the device by magnus_device_csr_wrap, else (a matrix made on the device, e.g. an earlier C)
 * once on the device.
 * Equal structures always pass; a different structure is refused but for a chance of about
 * 2^-64 that its fingerprint collides.
 */
MAGNUS_API magnus_status magnus_spgemm_plan_create(magnus_spgemm_plan *plan, magnus_context ctx,
                                                   const magnus_device_csr A,
                                                   const magnus_device_csr B,
                                                   const magnus_spgemm_options *opt);
/*
 * C = alpha·A·B by the numeric phase only, for A and B with the structures the plan was made
 * for and any values (other matrices than the plan's, e.g. uploaded anew). *C is a new device
 * matrix (an output only, as in magnus_spgemm). Refused: shapes other than the plan's
 * (MAGNUS_ERROR_DIMENSION_MISMATCH), another value type (MAGNUS_ERROR_UNSUPPORTED_TYPE),
 * another nnz or structure (MAGNUS_ERROR_INVALID_ARGUMENT, the detail naming the operand),
 * matrices of another context (MAGNUS_ERROR_INVALID_HANDLE). report may be NULL; it gets the
 * numeric phase's times, nnz_c and the peak device memory (the plan's buffers included).
 */
MAGNUS_API magnus_status magnus_spgemm_plan_execute(magnus_device_csr *C,
                                                    const magnus_spgemm_plan plan,
                                                    const magnus_device_csr A,
                                                    const magnus_device_csr B,
                                                    magnus_report *report);
/* The same into an existing device matrix C of the plan's shape, value type and nnz (e.g.
 * the C of an earlier execution, or one wrapped over the caller's buffers with
 * magnus_device_csr_wrap, which then receive the product: zero-copy output; a wrap validates
 * the buffers' structure, so they must hold a valid one first, e.g. an earlier C's), whose
 * row pointers, columns and values are overwritten; nothing is allocated for C. Refused as above, and: C of another shape
 * (MAGNUS_ERROR_DIMENSION_MISMATCH), type (MAGNUS_ERROR_UNSUPPORTED_TYPE) or nnz, or C one of
 * the operands (MAGNUS_ERROR_INVALID_ARGUMENT). After a failure C's contents are undefined. */
MAGNUS_API magnus_status magnus_spgemm_plan_execute_into(magnus_device_csr C,
                                                         const magnus_spgemm_plan plan,
                                                         const magnus_device_csr A,
                                                         const magnus_device_csr B,
                                                         magnus_report *report);
/* Overwrites the values of device matrix dA with nnz values of `type` from host memory (nnz
 * and type must be dA's: MAGNUS_ERROR_INVALID_ARGUMENT / MAGNUS_ERROR_UNSUPPORTED_TYPE; values
 * may be NULL only when nnz is 0). The structure, and so its fingerprint, stays: the way to
 * feed a plan new values without uploading the structure again. Blocking. */
MAGNUS_API magnus_status magnus_device_csr_write_values(magnus_device_csr dA, const void *values,
                                                        int64_t nnz, magnus_value_type type);
/* What a plan holds. */
typedef struct magnus_spgemm_plan_info {
    int64_t rows, cols, nnz;     /* C's shape and entries */
    magnus_value_type type;
    magnus_algorithm algorithm;  /* what made C's structure (HASH for the hash kind) */
    double alpha;
    uint64_t device_bytes;       /* device memory the plan holds between executions */
    magnus_report symbolic;      /* create's report (its multiply or symbolic phase, peak) */
    uint64_t positions;          /* products whose positions the plan keeps; 0: hash kind */
} magnus_spgemm_plan_info;
MAGNUS_API magnus_status magnus_spgemm_plan_info_get(magnus_spgemm_plan_info *out,
                                                     const magnus_spgemm_plan plan);
/* Frees the plan's device memory and the plan; NULL or *plan == NULL is a no-op. */
MAGNUS_API magnus_status magnus_spgemm_plan_free(magnus_spgemm_plan *plan);

#ifdef __cplusplus
}
#endif
#endif /* MAGNUS_SPGEMM_H */

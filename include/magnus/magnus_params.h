/*
 * The parameters a multiply chooses for a device: gMAGNUS's and the hash accumulator's.
 * Part of the public API: include <magnus/magnus.h>, which includes every part; the conventions
 * (outputs first, magnus_X_free, magnus_last_error, thread safety) are stated there.
 */
#ifndef MAGNUS_PARAMS_H
#define MAGNUS_PARAMS_H

#include "magnus_spgemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------
 * gMAGNUS parameters (paper's §III-D, Tables V and VI): what a multiply chooses for a device
 * and an input, without multiplying. The budget per work group is the device's local_mem_bytes
 * as given: pass magnus_context_device() for the budget a multiply on that context uses (by
 * default min(device, 48 KiB)); a probed device's local_mem_bytes is its whole local memory.
 * ------------------------------------------------------------------------------------------ */
typedef struct magnus_gmagnus_params {
    uint64_t local_mem_bytes;    /* sLM: local memory budget of one work group */
    size_t value_bytes;          /* 4 (float32) or 8 (float64) */
    int64_t c_cols;              /* C.m: columns of C */
    int64_t tau;                 /* rows and chunks with more products are heavy */
    int64_t ndense_numeric;      /* columns a dense accumulator holds: sLM / (sval + 1/8) */
    int64_t dense_width;         /* columns of the last level's chunks (a power of two) */
    int64_t chunks_required;     /* chunks per heavy row after the last level (power of 2) */
    int64_t chunks_max;          /* most chunks one multisplit pass can make (power of 2) */
    int levels;                  /* multisplit levels (0: heavy rows need no split) */
    int64_t chunks_per_level[MAGNUS_MAX_LEVELS]; /* product over levels = chunks_required */
    int64_t chunk_width[MAGNUS_MAX_LEVELS];      /* columns per chunk after level i */
    int column_bits, dense_bits; /* ceil(log2 C.m), log2 dense_width */
    int64_t outer_group_elems;   /* flattened elements per outer-product work group */
    int64_t multisplit_group_elems[MAGNUS_MAX_LEVELS]; /* per histogram/multisplit group */
    int group_rows;              /* rows of C-hat one multisplit group touches (2) */
    int multisplit_group_size, subgroup_size, subgroups; /* subgroups: local histograms */
    int outer_group_size, dense_group_size;
    /* The last level's chunks with more elements than this go to the dense accumulator, the
     * others to the hash accumulator: by default min(tau, dense_width / 16) (the paper's rule
     * is tau, only heavy chunks dense; a sixteenth of the dense width ran 8-21 % faster on the
     * H200, docs/performance.md, "Dense threshold from the chunk width"), else the context's
     * dense_min_elements or MAGNUS_DENSE_MIN_ELEMENTS (an integer >= 1; values above tau mean
     * tau), a tuning knob. */
    int64_t dense_min_elements;
} magnus_gmagnus_params;

/* The parameters for `device` (its local_mem_bytes is the budget) and C with c_cols columns,
 * with MAGNUS_DENSE_MIN_ELEMENTS (read now) applied as a multiply applies a context's
 * dense_min_elements (which the context read from it at creation unless its options set it).
 * MAGNUS_ERROR_INVALID_ARGUMENT when the budget is too small for gMAGNUS or
 * MAGNUS_DENSE_MIN_ELEMENTS is not an integer >= 1. */
MAGNUS_API magnus_status magnus_gmagnus_params_compute(magnus_gmagnus_params *out,
                                                       const magnus_device_info *device,
                                                       int64_t c_cols, magnus_value_type type);

/* The parameters plus the heavy/light split of A·B (the columns of the paper's Table V). */
typedef struct magnus_gmagnus_plan {
    magnus_gmagnus_params params;
    int64_t rows, rows_heavy;         /* rows of A (= of C), rows with more than tau products */
    int64_t products, products_heavy; /* intermediate products, those of heavy rows */
    uint64_t chat_bytes;              /* C-hat: heavy products x (column + value) + row ptr
                                         (0 without heavy rows) */
} magnus_gmagnus_plan;
/* Computed on the host from A and B (validated, same value type, A.cols == B.rows). */
MAGNUS_API magnus_status magnus_gmagnus_plan_compute(magnus_gmagnus_plan *out,
                                                     const magnus_device_info *device,
                                                     const magnus_csr_s *A, const magnus_csr_s *B);

/* ------------------------------------------------------------------------------------------
 * The hash accumulator's parameters (docs/algorithm.md): how the local memory of a work group
 * is cut into hash tables, for the hash algorithm's rows and gMAGNUS's light rows and chunks,
 * without a context, so for a device that is only described (`magnus params --describe`).
 * ------------------------------------------------------------------------------------------ */
typedef struct magnus_hash_params {
    uint64_t local_mem_bytes;        /* the budget per work group a context would use */
    uint64_t device_local_mem_bytes; /* the device's own local memory per work group */
    uint32_t group_max;              /* most work items sharing one table */
    int wide_bins;                   /* items past the budget get local tables up to the
                                        device's local memory (MAGNUS_HASH_WIDE_BINS=1) */
    int symbolic_bins, numeric_bins; /* local table sizes, one bin each */
    uint32_t symbolic_table_max, numeric_table_max; /* slots of the largest local table */
    int64_t symbolic_products;       /* most products of a row (or chunk) counted in a local
                                        table; more: a global-memory table */
    int64_t numeric_entries;         /* most entries of a row (or chunk) summed in a local
                                        table; more: a global-memory table */
    int64_t dense_row_columns;       /* rows of a C at most this wide that no local table
                                        holds are accumulated in a local dense array (0: none) */
} magnus_hash_params;
/* The parameters a context on `device` (as probed or described: its local_mem_bytes is the
 * device's whole local memory) with options `opt` (NULL: defaults; the environment applies as
 * at context creation) would use for values of `type`. MAGNUS_ERROR_INVALID_ARGUMENT for a
 * budget above the device's or a bad knob, MAGNUS_ERROR_UNSUPPORTED_TYPE for a bad type. */
MAGNUS_API magnus_status magnus_hash_params_compute(magnus_hash_params *out,
                                                    const magnus_device_info *device,
                                                    const magnus_context_options *opt,
                                                    magnus_value_type type);

#ifdef __cplusplus
}
#endif
#endif /* MAGNUS_PARAMS_H */

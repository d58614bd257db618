/*
 * SpMV's internal state (runtime/spmv/): device vectors, plans (the converted matrix and the
 * launch shape of its product). spmv_vector.c: vectors; spmv_plan.c: analysis and the
 * conversions; spmv.c: the products and the public entry points. docs/algorithm.md §9.
 */
#ifndef MAGNUS_SPMV_INTERNAL_H
#define MAGNUS_SPMV_INTERNAL_H

#include "device_runtime.h"
#include "shared/spmv_layout.h"

#define MAGNUS_MAGIC_DEVICE_VECTOR 0x6d61676e64766563ULL /* "magndvec" */
#define MAGNUS_MAGIC_SPMV_PLAN 0x6d61676e73706d76ULL     /* "magnspmv" */

struct magnus_device_vector_s {
    uint64_t magic;
    magnus_context ctx;
    magnus_value_type type;
    int64_t length;
    magnus_dbuf buf;
};

/* Defaults and bounds of the options (magnus.h). */
#define MAGNUS_SPMV_SELLP_SLICE 32
#define MAGNUS_SPMV_SELLP_STRIDE 4
#define MAGNUS_SPMV_WIDTH_CAP 1024   /* HYBRID's widest ELL part, the histogram's last bin */
#define MAGNUS_SPMV_GROUP_MAX 256    /* work items per group, at most */
/* CSR_BALANCED: merge items (row ends + entries) per work item, f64 and f32: the fastest
 * measured on the H200 (f64 of 2-7, f32 of 5-13; docs/performance.md, "SpMV on power-law
 * rows"): 15 and 26 KiB of local memory per group of 256 */
#define MAGNUS_SPMV_MERGE_ITEMS_F64 5
#define MAGNUS_SPMV_MERGE_ITEMS_F32 13
#define MAGNUS_SPMV_COO_ITEMS 7   /* COO: entries each work item sums serially */
#define MAGNUS_SPMV_ITEMS_MAX 63  /* the most per work item that MAGNUS_SPMV_*_ITEMS may ask */
/* bytes of local memory per group, at most: the budget a context uses by default (CUDA's 48 KiB) */
#define MAGNUS_SPMV_LOCAL_CAP MAGNUS_DEFAULT_LOCAL_MEM_BUDGET

struct magnus_spmv_plan_s {
    uint64_t magic;
    magnus_context ctx;
    const struct magnus_device_csr_s *A;
    magnus_spmv_format format;
    bool reused;           /* a plan for many products: AUTO may choose a converting format */
    magnus_kernel_variant variant;
    size_t value_bytes;
    size_t group;          /* work items per group of the product kernels */
    uint32_t lanes;        /* CSR */
    int64_t per_group;     /* COO (and HYBRID's COO part): entries per group; CSR_BALANCED:
                              merge items (row ends + entries) per group */
    uint64_t ngroups;      /* segments of that split */
    uint32_t per_item;     /* CSR_BALANCED, COO: per work item */
    int64_t width;         /* HYBRID: ELL width */
    int64_t coo_nnz;       /* COO / HYBRID: COO entries */
    int64_t slice, stride, max_width; /* SELL-P */
    magnus_dbuf coo_row, coo_col, coo_val; /* COO uses A's columns and values */
    magnus_dbuf ell_col, ell_val;
    magnus_dbuf slice_ptr, s_col, s_val;
    magnus_dbuf seg_first, seg_last, part_first, part_last;
    magnus_dbuf merge_starts; /* CSR_BALANCED: row coordinate of each group's start, ngroups + 1 */
    /* CSR_BALANCED's hot x (spmv_hot.c; none unless MAGNUS_SPMV_HOT_BYTES asks): nhot columns
     * copied into each group's local memory, the plan's column array (hot entries -1 - slot),
     * and how many groups the product launches (each copies them once) */
    uint32_t nhot;
    magnus_dbuf hot_cols, hot_col_idx;
    size_t hot_groups;
    double hot_share; /* the share of A's entries in the hot columns */
    uint64_t format_bytes;
    double conversion_ms;
    const char *format_reason;  /* why the format (static text; the report's) */
    int64_t long_rows;          /* AUTO: rows longer than long_row_threshold (0: not counted) */
    int64_t long_row_threshold;
};

magnus_status magnus_device_vector_check(const struct magnus_device_vector_s *v, magnus_context ctx,
                                         const char *name);
/* The analysis and conversion into opt's format (queue MAIN, timed into plan->conversion_ms). */
magnus_status magnus_spmv_plan_build(struct magnus_spmv_plan_s *plan, const magnus_spmv_options *opt);
/* Frees the plan's buffers (not the handle). */
void magnus_spmv_plan_release(struct magnus_spmv_plan_s *plan);
/* Groups for `work` items of `group` each, capped for grid-stride kernels. */
size_t magnus_spmv_groups(const magnus_context_s *ctx, uint64_t work, size_t group);
/* The group size of kernel `kernel` with local_per_item bytes of local memory per item: the
 * largest power of two up to MAGNUS_SPMV_GROUP_MAX that the kernel, device and budget allow. */
magnus_status magnus_spmv_group_size(size_t *out, magnus_context ctx, magnus_kernel_variant variant,
                                     magnus_kernel_id kernel, size_t local_per_item);
/* MAGNUS_SPMV_CARVEOUT (-1 or unset: the driver's choice, the default; 0..100), read when a
 * plan is made, like SpMV's other knobs: the share of the on-chip memory that local memory
 * and the L1 cache split which SpMV's product kernels prefer as local memory, in percent of
 * the most a compute unit can have (0: the largest cache), asked of each before the plan's
 * first product (magnus_kernel_local_share; CUDA's preferred shared-memory carveout, Level
 * Zero's large-data or large-SLM cache configuration below or above 50, nothing on OpenCL).
 * The kernels keep what was asked for the rest of the context's life. An experiment for
 * more L1 hits on the gathers of x (docs/performance.md, "SpMV on power-law rows"): the
 * driver default stays until measured. MAGNUS_ERROR_INVALID_ARGUMENT, naming the variable,
 * for anything else. */
magnus_status magnus_spmv_carveout_knob(int *local_share);
/* Local memory per work item of the plan's staged product kernel (spmv_merge, spmv_coo). */
size_t magnus_spmv_item_bytes(const struct magnus_spmv_plan_s *p);
/* The plan's buffers come from the context's accounted memory; format_bytes counts them. */
magnus_status magnus_spmv_plan_alloc(struct magnus_spmv_plan_s *p, size_t bytes, magnus_dbuf *out);
/* CSR_BALANCED's hot x, after its layout (group, per_item, ngroups) is set: reads
 * MAGNUS_SPMV_HOT_BYTES (a size; unset or 0: none, the default: slower past 32K on the H100)
 * and, when asked, picks the columns most entries gather (at least two each), as many as
 * those bytes hold beside the group's staging within the context's launch limit (spmv_hot.c). */
magnus_status magnus_spmv_build_hot(struct magnus_spmv_plan_s *p);
/* spmv_merge's local memory for the plan: the staging, and its hot x. */
size_t magnus_spmv_merge_local(const struct magnus_spmv_plan_s *p);

#endif

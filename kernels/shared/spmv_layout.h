/*
 * SpMV's local-memory layouts, which kernels/spmv.cl places and runtime/spmv/ sizes
 * (docs/algorithm.md §9).
 */
#ifndef MAGNUS_SHARED_SPMV_LAYOUT_H
#define MAGNUS_SHARED_SPMV_LAYOUT_H

#include "mg_shared.h"

/* spmv_merge stages its products this many loads of each kind at a time per work item (an
 * unrolled loop over registers), so that its loads are in flight together, not one by one. */
#define MG_SPMV_STAGE_LOADS 8

/* Local bytes per work item of spmv_coo: per_item staged products and row indices, and the
 * two halves of the carries' scan (a value and a flag each). */
MG_SHARED_FN mg_u64 mg_spmv_staged_bytes(mg_u32 per_item, mg_u64 value_bytes) {
    return ((mg_u64)per_item + 2) * (value_bytes + 4);
}

/* Local bytes per work item of spmv_merge: per_item staged products and row ends, over which
 * the scan's two halves are laid once the walk is done (so at least two items' worth). */
MG_SHARED_FN mg_u64 mg_spmv_merge_bytes(mg_u32 per_item, mg_u64 value_bytes) {
    return (mg_u64)(per_item > 2u ? per_item : 2u) * (value_bytes + 4);
}

/* spmv_merge's copy of x's hot columns (a plan's "hot x": the columns most entries gather,
 * MAGNUS_SPMV_HOT_BYTES) lies after the group's staging, at this offset (a multiple of 8). */
MG_SHARED_FN mg_u64 mg_spmv_hot_offset(mg_u64 group, mg_u32 per_item, mg_u64 value_bytes) {
    return (group * mg_spmv_merge_bytes(per_item, value_bytes) + 7u) / 8u * 8u;
}

#endif /* MAGNUS_SHARED_SPMV_LAYOUT_H */

/*
 * The device primitives' tile size and local-memory layouts (kernels/primitives.cl), shared
 * with their host side (runtime/primitives/primitives.c), which sizes every launch from them.
 * Sizes are in bytes; gs is the work group size, out_size the bytes of a scan's output
 * element (4 or 8).
 */
#ifndef MAGNUS_SHARED_PRIM_LAYOUT_H
#define MAGNUS_SHARED_PRIM_LAYOUT_H

#include "mg_shared.h"

/* Elements per work item in a tile: a tile is MG_PRIM_ITEMS * local_size elements. */
#define MG_PRIM_ITEMS 4

/* prim_scan_reduce_*: part, one output element per work item. */
MG_SHARED_FN mg_u64 mg_prim_reduce_bytes(mg_u64 gs, mg_u64 out_size) { return gs * out_size; }

/* prim_scan_tiles_*: buf, the tile (MG_PRIM_ITEMS * gs output elements) at 0, then part, one
 * output element per work item. */
MG_SHARED_FN mg_u64 mg_prim_tiles_part_at(mg_u64 gs, mg_u64 out_size) {
    return (mg_u64)MG_PRIM_ITEMS * gs * out_size;
}
MG_SHARED_FN mg_u64 mg_prim_tiles_bytes(mg_u64 gs, mg_u64 out_size) {
    return mg_prim_tiles_part_at(gs, out_size) + gs * out_size;
}

/* prim_partition_count and _scatter: part, one mg_u32 per work item. */
MG_SHARED_FN mg_u64 mg_prim_partition_bytes(mg_u64 gs) { return gs * 4u; }

/* prim_histogram_local_*: hist, one mg_u32 per bin. */
MG_SHARED_FN mg_u64 mg_prim_histogram_bytes(mg_u64 nbins) { return nbins * 4u; }

#endif /* MAGNUS_SHARED_PRIM_LAYOUT_H */

/*
 * The hash accumulator's knobs: its wide bins, which both algorithms and AUTO's choice meet
 * through the accumulator (the dense rows it uses have their own, dense/dense_rows_knobs.h).
 * Parsed once at context creation by magnus_knobs_accumulate (accumulate_knobs.c, listed in
 * runtime/device/device_runtime.h) into the context's slot for them, and read back here.
 */
#ifndef MAGNUS_ACCUMULATE_KNOBS_H
#define MAGNUS_ACCUMULATE_KNOBS_H

#include "device_runtime.h"

typedef struct magnus_accumulate_knobs {
    bool hash_wide_bins; /* hash bins past the budget, up to the device's local memory, for
                            items the budget cannot hold (MAGNUS_HASH_WIDE_BINS=1 on a device
                            with more) */
    uint32_t hash_merge_groups; /* a launch of local bins takes in the smaller bins below it
                                   while it stays within this many work groups (0: never;
                                   unset: the device's compute units) */
    bool hash_side_queues; /* the hash algorithm runs a phase's bins on the heavy and light
                              queues beside main (true, the default), or every launch on main
                              with no ordering between queues (MAGNUS_HASH_SIDE_QUEUES=0) */
} magnus_accumulate_knobs;
_Static_assert(sizeof(magnus_accumulate_knobs) <= MAGNUS_KNOB_BYTES,
               "the accumulator's knobs must fit the context's slot");

/* ctx's accumulator knobs, as magnus_context_create read them; _edit: to change them on a
 * live context (the tests' way to vary a knob without a context, and its kernels, per
 * value). */
static inline const magnus_accumulate_knobs *
magnus_accumulate_knobs_of(const struct magnus_context_s *ctx) {
    return (const magnus_accumulate_knobs *)(const void *)ctx->knobs[MAGNUS_KNOBS_ACCUMULATE]
        .bytes;
}
static inline magnus_accumulate_knobs *magnus_accumulate_knobs_edit(struct magnus_context_s *ctx) {
    return (magnus_accumulate_knobs *)(void *)ctx->knobs[MAGNUS_KNOBS_ACCUMULATE].bytes;
}

/* What the reader parses, validated (MAGNUS_ERROR_INVALID_ARGUMENT naming the variable for a
 * value out of range): MAGNUS_HASH_WIDE_BINS (1: bins past the budget up to the device's local
 * memory, for items the budget cannot hold; 0 or unset: none, such items take global tables or
 * dense rows; measured mixed, docs/performance.md "The method per row"),
 * MAGNUS_HASH_MERGE_GROUPS (the work groups up to which a launch of local bins takes in the
 * smaller bins below it, 1 to 2^31 - 1; unset: the device's compute units, measured in
 * docs/performance.md "Fewer launches for the smallest bins"; 0: every non-empty bin its own
 * launch), MAGNUS_HASH_SIDE_QUEUES (1 or unset: a phase's bins run on the heavy and light
 * queues beside main; 0: on main alone, no queue ordered after another: each order is a
 * recorded event, through OpenCL a marker and a flush of 11-16 us of host time, measured in
 * docs/performance.md "One fill a binning, and one queue for the hash algorithm"). The dense
 * rows' own knobs are theirs (dense/dense_rows_knobs.h). */

#endif

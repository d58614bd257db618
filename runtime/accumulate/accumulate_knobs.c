/*
 * The hash accumulator's knobs (accumulate_knobs.h): read once by magnus_context_create
 * through magnus_knobs_accumulate, so a multiply does not look at the environment.
 */
#include <string.h>

#include "accumulate_knobs.h"

static magnus_status read_knobs(void *slot, uint64_t *launch_local,
                                const struct magnus_context_s *c,
                                const magnus_context_options *opt) {
    (void)opt;
    uint64_t wide = 0, side = 1;
    /* unset: the device's compute units, so a merged launch stays within one wave of work
     * groups (measured on the H100: docs/performance.md, "Fewer launches for the smallest
     * bins"); 0: every bin its own launch */
    uint64_t merge = c->device.compute_units > 0 ? (uint64_t)c->device.compute_units : 1;
    magnus_status s;
    if ((s = magnus_env_uint("MAGNUS_HASH_WIDE_BINS", 1, 1, true, &wide)) ||
        (s = magnus_env_uint("MAGNUS_HASH_MERGE_GROUPS", 1, INT32_MAX, true, &merge)) ||
        (s = magnus_env_uint("MAGNUS_HASH_SIDE_QUEUES", 1, 1, true, &side)))
        return s;
    magnus_accumulate_knobs k;
    memset(&k, 0, sizeof k);
    k.hash_merge_groups = (uint32_t)merge;
    k.hash_side_queues = side == 1;
    const uint64_t budget = c->device.local_mem_bytes, device = c->device_local_mem_bytes;
    k.hash_wide_bins = wide == 1 && device > budget;
    *launch_local = k.hash_wide_bins ? device : budget;
    memcpy(slot, &k, sizeof k);
    return MAGNUS_SUCCESS;
}

const magnus_knob_reader magnus_knobs_accumulate = {
    .algorithm = "the hash accumulator",
    .read = read_knobs,
};

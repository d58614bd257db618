/*
 * The dense rows' knobs (dense_rows_knobs.h): read once by magnus_context_create through
 * magnus_knobs_dense_rows, so a multiply does not look at the environment.
 */
#include <string.h>

#include "dense_rows_knobs.h"

static magnus_status read_knobs(void *slot, uint64_t *launch_local,
                                const struct magnus_context_s *c,
                                const magnus_context_options *opt) {
    uint64_t dense = 1, share = MAGNUS_DENSE_ROW_SHARE_DEFAULT,
             stripes = MAGNUS_DENSE_STRIPES_DEFAULT, items = MAGNUS_DENSE_ROW_ITEMS_DEFAULT,
             auto_stripes = 0;
    magnus_status s;
    if ((s = magnus_env_uint("MAGNUS_DENSE_ROWS", 1, 1, true, &dense)) ||
        (s = magnus_env_uint("MAGNUS_DENSE_ROW_SHARE", 1, 1u << 20, true, &share)) ||
        (s = magnus_env_uint("MAGNUS_DENSE_STRIPES", 1, MAGNUS_DENSE_STRIPES_MAX, true,
                             &stripes)) ||
        (s = magnus_env_uint("MAGNUS_DENSE_ROW_ITEMS", 1, MAGNUS_DENSE_ROW_ITEMS_MAX, true,
                             &items)) ||
        (s = magnus_env_uint("MAGNUS_AUTO_STRIPES", 1, MAGNUS_DENSE_STRIPES_MAX, true,
                             &auto_stripes)))
        return s;
    magnus_dense_rows_knobs k;
    memset(&k, 0, sizeof k);
    /* dense rows may use the device's local memory unless the caller set a budget (the
     * option or MAGNUS_LOCAL_MEM_BYTES, which the context has read and checked already) */
    uint64_t budget_set = 0;
    if ((s = magnus_knob_size(opt->local_mem_bytes, "MAGNUS_LOCAL_MEM_BYTES", &budget_set)))
        return s;
    k.dense_rows_local_bytes =
        !dense ? 0 : budget_set ? c->device.local_mem_bytes : c->device_local_mem_bytes;
    k.dense_row_share = (uint32_t)share;
    k.dense_row_stripes = (uint32_t)stripes;
    k.dense_row_items = (uint32_t)items;
    k.auto_stripes = (uint32_t)auto_stripes;
    *launch_local = k.dense_rows_local_bytes;
    memcpy(slot, &k, sizeof k);
    return MAGNUS_SUCCESS;
}

const magnus_knob_reader magnus_knobs_dense_rows = {
    .algorithm = "the dense rows",
    .read = read_knobs,
};

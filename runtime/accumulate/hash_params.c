/*
 * The hash accumulator's parameters for a device without a context (magnus.h,
 * magnus_hash_params_compute): a zeroed context holding only the settings a created one would
 * take from the device, the options and the environment (magnus_context_settings), and the
 * plan the phases would build from it (hash_plan.c). Nothing here touches a backend.
 */
#include "hash_private.h"

#include <string.h>

/* Local bins of one phase (the plan's first bin is empty rows, its last the global tables). */
static void phase_shape(const magnus_context_s *ctx, int numeric, size_t value_bytes, int *bins,
                        uint32_t *table_max, int64_t *max_key) {
    hash_plan p;
    magnus_hash_plan_build(&p, ctx, numeric, value_bytes, magnus_hash_group_cap(ctx));
    *bins = p.nbins - 2;
    *table_max = *bins > 0 ? p.bin[p.nbins - 2].table : 0;
    *max_key = *bins > 0 ? p.bin[p.nbins - 2].max_key : 0;
}

magnus_status magnus_hash_params_compute(magnus_hash_params *out,
                                         const magnus_device_info *device,
                                         const magnus_context_options *opt,
                                         magnus_value_type type) {
    magnus_error_clear();
    if (!out || !device)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_hash_params_compute: NULL argument");
    memset(out, 0, sizeof *out);
    const size_t vb = magnus_value_size(type);
    if (vb == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "magnus_hash_params_compute: type %d",
                            (int)type);
    magnus_context_options defaults;
    magnus_context_options_init(&defaults);
    magnus_context_s c;
    memset(&c, 0, sizeof c);
    magnus_status s = magnus_context_settings(&c, device, opt ? opt : &defaults);
    if (s) return s;
    out->local_mem_bytes = c.device.local_mem_bytes;
    out->device_local_mem_bytes = c.device_local_mem_bytes;
    out->group_max = magnus_hash_group_cap(&c);
    out->wide_bins = magnus_accumulate_knobs_of(&c)->hash_wide_bins;
    phase_shape(&c, 0, vb, &out->symbolic_bins, &out->symbolic_table_max,
                &out->symbolic_products);
    phase_shape(&c, 1, vb, &out->numeric_bins, &out->numeric_table_max, &out->numeric_entries);
    out->dense_row_columns = magnus_hash_dense_row_columns(&c, type);
    return MAGNUS_SUCCESS;
}

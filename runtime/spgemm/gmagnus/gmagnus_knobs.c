/*
 * gMAGNUS's knobs (gmagnus_knobs.h): read once by magnus_context_create through
 * magnus_knobs_gmagnus, so a multiply does not look at the environment.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gmagnus_knobs.h"

magnus_status magnus_knob_multisplit_group(uint64_t option, uint64_t device_limit,
                                           uint32_t *out) {
    return magnus_knob_pow2(option, "multisplit_group", "MAGNUS_MULTISPLIT_GROUP", device_limit,
                            out);
}

magnus_status magnus_knob_dense_min_elements(int64_t option, int64_t *out) {
    *out = 0;
    if (option < 0)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "dense_min_elements=%lld: expected an integer >= 1 (chunks with more "
                            "elements are accumulated densely), or 0 for the default",
                            (long long)option);
    if (option) {
        *out = option;
        return MAGNUS_SUCCESS;
    }
    const char *env = getenv("MAGNUS_DENSE_MIN_ELEMENTS");
    if (!env || !*env) return MAGNUS_SUCCESS;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(env, &end, 10);
    if (*end != 0 || errno != 0 || v < 1)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "MAGNUS_DENSE_MIN_ELEMENTS=%s: expected an integer >= 1 (chunks with "
                            "more elements are accumulated densely)", env);
    *out = (int64_t)v;
    return MAGNUS_SUCCESS;
}

static magnus_status read_knobs(void *slot, uint64_t *launch_local,
                                const struct magnus_context_s *c,
                                const magnus_context_options *opt) {
    (void)launch_local; /* gMAGNUS's launches keep to the budget */
    magnus_gmagnus_knobs k;
    memset(&k, 0, sizeof k);
    uint64_t divisor = MAGNUS_CHAT_GAP_DEFAULT, min_bytes = MAGNUS_CHAT_GAP_MIN_BYTES_DEFAULT;
    const uint64_t work_group_limit =
        c->device.max_work_group_size ? c->device.max_work_group_size : 256;
    magnus_status s;
    if ((s = magnus_knob_size(opt->chat_batch_bytes, "MAGNUS_CHAT_BATCH_BYTES",
                              &k.chat_batch_bytes)) ||
        (s = magnus_knob_multisplit_group(opt->multisplit_group, work_group_limit,
                                          &k.multisplit_group)) ||
        (s = magnus_knob_dense_min_elements(opt->dense_min_elements, &k.dense_min_elements)) ||
        (s = magnus_env_uint("MAGNUS_CHAT_GAP", 2, 1024, true, &divisor)) ||
        (s = magnus_env_uint("MAGNUS_CHAT_GAP_MIN_BYTES", 0, UINT64_MAX, false, &min_bytes)) ||
        (s = magnus_env_uint("MAGNUS_HEAVY_ROW_PRODUCTS", 1, (uint64_t)INT64_MAX, true,
                             &k.heavy_row_products)))
        return s;
    if (k.chat_batch_bytes == 0) {
        const uint64_t memory = c->memory_limit ? c->memory_limit : c->device.global_mem_bytes;
        k.chat_batch_bytes = memory / MAGNUS_CHAT_BATCH_FRACTION;
        if (k.chat_batch_bytes == 0) k.chat_batch_bytes = 1;
    }
    k.chat_gap_divisor = (uint32_t)divisor;
    k.chat_gap_min_bytes = min_bytes;
    memcpy(slot, &k, sizeof k);
    return MAGNUS_SUCCESS;
}

const magnus_knob_reader magnus_knobs_gmagnus = {
    .algorithm = "gMAGNUS",
    .read = read_knobs,
};

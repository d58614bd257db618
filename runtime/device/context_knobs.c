/*
 * The tuning knobs of a context (magnus_context_options.hash_group_max, multisplit_group
 * and dense_min_elements): the option when nonzero, else the environment variable, validated.
 * magnus_context_create reads them once, so a multiply does not look at the environment;
 * magnus_gmagnus_params_compute, which has no context, reads MAGNUS_DENSE_MIN_ELEMENTS here
 * too, so both apply the variable alike.
 */
#include <errno.h>
#include <stdlib.h>

#include "device_runtime.h"


static bool power_of_two_in(uint64_t v, uint64_t device_limit) {
    return v >= 8 && v <= device_limit && (v & (v - 1)) == 0;
}

/* A power of two from 8 to device_limit: the option when nonzero, else the variable. */
static magnus_status pow2_knob(uint64_t option, const char *option_name, const char *variable,
                               uint64_t device_limit, uint32_t *out) {
    *out = 0;
    if (option) {
        if (!power_of_two_in(option, device_limit))
            return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                                "%s=%llu: expected a power of two from 8 to %llu "
                                "(the device's work-group limit)",
                                option_name, (unsigned long long)option,
                                (unsigned long long)device_limit);
        *out = (uint32_t)option;
        return MAGNUS_SUCCESS;
    }
    const char *env = getenv(variable);
    if (!env || !*env) return MAGNUS_SUCCESS;
    char *end = NULL;
    unsigned long long v = strtoull(env, &end, 10);
    if (*end != 0 || !power_of_two_in(v, device_limit))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s=%s: expected a power of two from 8 to %llu "
                            "(the device's work-group limit)",
                            variable, env, (unsigned long long)device_limit);
    *out = (uint32_t)v;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_knob_hash_group_max(uint64_t option, uint64_t device_limit, uint32_t *out) {
    return pow2_knob(option, "hash_group_max", "MAGNUS_HASH_GROUP_MAX", device_limit, out);
}

magnus_status magnus_knob_multisplit_group(uint64_t option, uint64_t device_limit,
                                               uint32_t *out) {
    return pow2_knob(option, "multisplit_group", "MAGNUS_MULTISPLIT_GROUP", device_limit,
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

magnus_status magnus_env_uint(const char *variable, uint64_t lo, uint64_t hi, bool zero_ok,
                              uint64_t *out) {
    const char *env = getenv(variable);
    if (!env || !*env) return MAGNUS_SUCCESS;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(env, &end, 10);
    if (*end != 0 || errno != 0 || *env == '-' || (!(zero_ok && v == 0) && (v < lo || v > hi)))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "%s=%s: expected an integer %sfrom "
                            "%llu to %llu", variable, env, zero_ok ? "(0: off) or " : "",
                            (unsigned long long)lo, (unsigned long long)hi);
    *out = v;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_knob_chat_gap(uint32_t *divisor, uint64_t *min_bytes) {
    uint64_t d = MAGNUS_CHAT_GAP_DEFAULT, m = MAGNUS_CHAT_GAP_MIN_BYTES_DEFAULT;
    magnus_status s;
    if ((s = magnus_env_uint("MAGNUS_CHAT_GAP", 2, 1024, true, &d)) ||
        (s = magnus_env_uint("MAGNUS_CHAT_GAP_MIN_BYTES", 0, UINT64_MAX, false, &m)))
        return s;
    *divisor = (uint32_t)d;
    *min_bytes = m;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_knob_heavy_rows(uint64_t *row_products, bool *wide_bins) {
    uint64_t rows = 0, wide = 0;
    magnus_status s;
    if ((s = magnus_env_uint("MAGNUS_HEAVY_ROW_PRODUCTS", 1, (uint64_t)INT64_MAX, true, &rows)) ||
        (s = magnus_env_uint("MAGNUS_HASH_WIDE_BINS", 1, 1, true, &wide)))
        return s;
    *row_products = rows;
    *wide_bins = wide == 1;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_knob_dense_rows(uint32_t *on, uint32_t *share) {
    uint64_t v = 1, d = MAGNUS_DENSE_ROW_SHARE_DEFAULT;
    magnus_status s;
    if ((s = magnus_env_uint("MAGNUS_DENSE_ROWS", 1, 1, true, &v)) ||
        (s = magnus_env_uint("MAGNUS_DENSE_ROW_SHARE", 1, 1u << 20, true, &d)))
        return s;
    *on = (uint32_t)v;
    *share = (uint32_t)d;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_knob_urgent_light(uint32_t *urgent) {
    uint64_t v = 1;
    magnus_status s = magnus_env_uint("MAGNUS_URGENT_LIGHT", 1, 1, true, &v);
    *urgent = (uint32_t)v;
    return s;
}

magnus_status magnus_knob_spmv_carveout(int *local_share) {
    *local_share = -1;
    const char *env = getenv("MAGNUS_SPMV_CARVEOUT");
    if (!env || !*env) return MAGNUS_SUCCESS;
    char *end = NULL;
    errno = 0;
    long v = strtol(env, &end, 10);
    const bool signed_digits = (*env >= '0' && *env <= '9') || *env == '-'; /* no blanks, no + */
    if (!signed_digits || *end != 0 || errno != 0 || v < -1 || v > 100)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "MAGNUS_SPMV_CARVEOUT=%s: expected a percent of local memory from 0 "
                            "(the largest cache) to 100, or -1 (the driver's choice)", env);
    *local_share = (int)v;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_knob_preload(uint32_t *preload, bool backend_default) {
    uint64_t v = backend_default ? 1 : 0;
    magnus_status s = magnus_env_uint("MAGNUS_PRELOAD_KERNELS", 1, 1, true, &v);
    *preload = (uint32_t)v;
    return s;
}

/*
 * The tuning knobs of a context that are no one algorithm's (hash_group_max, the queues, the
 * kernels' preload, the primitives' short scans) and the parsers the others' readers share:
 * the option when nonzero, else the environment variable, validated. magnus_context_create
 * reads them once, so a multiply does not look at the environment. The hash accumulator's
 * knobs (wide bins, merged bins) are in runtime/accumulate/accumulate_knobs.c, the dense rows'
 * in runtime/accumulate/dense/dense_rows_knobs.c, gMAGNUS's in
 * runtime/spgemm/gmagnus/gmagnus_knobs.c.
 */
#include <errno.h>
#include <stdlib.h>

#include "byte_size.h"
#include "device_runtime.h"


static bool power_of_two_in(uint64_t v, uint64_t device_limit) {
    return v >= 8 && v <= device_limit && (v & (v - 1)) == 0;
}

magnus_status magnus_knob_pow2(uint64_t option, const char *option_name, const char *variable,
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
    return magnus_knob_pow2(option, "hash_group_max", "MAGNUS_HASH_GROUP_MAX", device_limit, out);
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

magnus_status magnus_knob_size(uint64_t option, const char *variable, uint64_t *out) {
    *out = option;
    const char *env = getenv(variable);
    if (option || !env || !*env) return MAGNUS_SUCCESS;
    if (magnus_parse_bytes(out, env))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s=%s: expected a size in bytes such as 65536, 48K, 512M or 2G",
                            variable, env);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_knob_urgent_light(uint32_t *urgent) {
    uint64_t v = 1;
    magnus_status s = magnus_env_uint("MAGNUS_URGENT_LIGHT", 1, 1, true, &v);
    *urgent = (uint32_t)v;
    return s;
}

magnus_status magnus_knob_scan_one_group(uint32_t *tiles) {
    uint64_t v = 0;
    magnus_status s = magnus_env_uint("MAGNUS_SCAN_ONE_GROUP_TILES", 1, 65536, true, &v);
    *tiles = (uint32_t)v;
    return s;
}

magnus_status magnus_knob_preload(uint32_t *preload, bool backend_default) {
    uint64_t v = backend_default ? 1 : 0;
    magnus_status s = magnus_env_uint("MAGNUS_PRELOAD_KERNELS", 1, 1, true, &v);
    *preload = (uint32_t)v;
    return s;
}

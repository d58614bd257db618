/* The host memory limit (host_limit.h). */
#include "host_limit.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "byte_size.h"
#include "internal.h"

magnus_status magnus_host_memory_limit(uint64_t *out) {
    *out = 0;
    const char *env = getenv("MAGNUS_HOST_MEMORY_LIMIT");
    if (env && *env) {
        if (magnus_parse_bytes(out, env))
            return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                                "MAGNUS_HOST_MEMORY_LIMIT=%s: expected a size in bytes such as "
                                "8G or 512M",
                                env);
        return MAGNUS_SUCCESS;
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0) *out = (uint64_t)pages * (uint64_t)page / 2;
    return MAGNUS_SUCCESS;
}

/* "16.0 GiB", "512.0 MiB", "1234 bytes". */
static void human(char *buf, size_t n, uint64_t bytes) {
    const char *unit[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    if (bytes < 1024) {
        snprintf(buf, n, "%llu bytes", (unsigned long long)bytes);
        return;
    }
    double v = (double)bytes / 1024;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    snprintf(buf, n, "%.1f %s", v, unit[u]);
}

magnus_status magnus_host_memory_check(uint64_t bytes, const char *what) {
    magnus_error_clear();
    if (!what) what = "an allocation";
    uint64_t limit;
    magnus_status s = magnus_host_memory_limit(&limit);
    if (s || !limit || bytes <= limit) return s;
    char need[32], have[32];
    human(need, sizeof need, bytes);
    human(have, sizeof have, limit);
    const char *env = getenv("MAGNUS_HOST_MEMORY_LIMIT");
    return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                        "%s needs %s of host memory, above the limit of %s (%s; "
                        "MAGNUS_HOST_MEMORY_LIMIT sets it)",
                        what, need, have,
                        env && *env ? "MAGNUS_HOST_MEMORY_LIMIT" : "half the machine's memory");
}

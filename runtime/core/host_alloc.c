/* Host allocation with a failure-injection hook, so out-of-host-memory paths can be tested. */
#include <stdatomic.h>
#include <stdlib.h>

#include "internal.h"

static _Atomic int64_t allocations_left = -1; /* < 0: never fail */
static _Atomic size_t largest_allowed = 0;     /* 0: no limit */

void magnus_host_alloc_fail_after(int64_t n) { atomic_store(&allocations_left, n); }

void magnus_host_alloc_limit(size_t max_bytes) { atomic_store(&largest_allowed, max_bytes); }

static bool allocation_allowed(size_t bytes) {
    size_t limit = atomic_load(&largest_allowed);
    if (limit != 0 && bytes > limit) return false;
    int64_t left = atomic_load(&allocations_left);
    while (left >= 0) {
        if (left == 0) return false;
        if (atomic_compare_exchange_weak(&allocations_left, &left, left - 1)) return true;
    }
    return true;
}

void *magnus_host_malloc(size_t bytes) {
    if (!allocation_allowed(bytes)) return NULL;
    return malloc(bytes ? bytes : 1);
}

void *magnus_host_calloc(size_t count, size_t size) {
    size_t bytes;
    if (!magnus_mul_size(count, size, &bytes)) return NULL;
    if (!allocation_allowed(bytes)) return NULL;
    if (count == 0 || size == 0) return calloc(1, 1);
    return calloc(count, size);
}

void *magnus_host_realloc(void *p, size_t bytes) {
    if (!allocation_allowed(bytes)) return NULL;
    return realloc(p, bytes ? bytes : 1);
}

void magnus_host_free(void *p) { free(p); }

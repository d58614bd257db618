/* Host allocation with a failure-injection hook, so out-of-host-memory paths can be tested. */
#include <stdatomic.h>
#include <stdlib.h>

#include "internal.h"

static _Atomic int64_t allocations_left = -1; /* < 0: never fail */

void magnus_host_alloc_fail_after(int64_t n) { atomic_store(&allocations_left, n); }

static bool allocation_allowed(void) {
    int64_t left = atomic_load(&allocations_left);
    while (left >= 0) {
        if (left == 0) return false;
        if (atomic_compare_exchange_weak(&allocations_left, &left, left - 1)) return true;
    }
    return true;
}

void *magnus_host_malloc(size_t bytes) {
    if (!allocation_allowed()) return NULL;
    return malloc(bytes ? bytes : 1);
}

void *magnus_host_calloc(size_t count, size_t size) {
    if (!allocation_allowed()) return NULL;
    if (count == 0 || size == 0) return calloc(1, 1);
    return calloc(count, size);
}

void *magnus_host_realloc(void *p, size_t bytes) {
    if (!allocation_allowed()) return NULL;
    return realloc(p, bytes ? bytes : 1);
}

void magnus_host_free(void *p) { free(p); }

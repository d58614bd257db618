/*
 * The fake driver's USM allocations: host memory (the OpenCL device's fine-grained SVM, so
 * kernels can use the same pointers) registered here, so every copy, fill, timestamp write
 * and kernel pointer argument can be checked against the allocation it touches, and a free
 * of memory that queued commands still use is caught. Also the simulated device clock.
 */
#include <stdlib.h>
#include <string.h>

#include "fake_ze.h"

typedef struct allocation {
    char *base;
    void *raw; /* what fake_ze_cl_free takes */
    size_t size;
    bool device;
    ze_context_handle_t context;
} allocation;

static allocation *allocations;
static size_t nallocations, allocations_capacity;
static uint64_t device_bytes; /* in use by device allocations */
static uint64_t device_clock; /* ticks */

void fake_ze_clock_reset(uint64_t start) { device_clock = start; }
void fake_ze_clock_advance(uint64_t ticks) { device_clock += ticks; }
uint64_t fake_ze_clock_now(void) { return device_clock; }

uint64_t fake_ze_timestamp_now(void) {
    uint32_t bits = fake_ze_config_get()->timestamp_bits;
    uint64_t mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    return device_clock & mask;
}

/* The allocation holding `p`, or NULL for memory the fake did not allocate. */
static allocation *find_allocation(const void *p) {
    const char *c = p;
    for (size_t i = 0; i < nallocations; i++)
        if (c >= allocations[i].base && c < allocations[i].base + allocations[i].size)
            return &allocations[i];
    return NULL;
}

bool fake_ze_is_allocated(const void *p) {
    return find_allocation(p) != NULL;
}

/* Bytes [p, p + size) stay inside the allocation that holds p (if any); `usm_only` also
 * refuses memory the fake did not allocate. */
ze_result_t fake_ze_check_range(const void *p, size_t size, bool usm_only) {
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    const allocation *a = find_allocation(p);
    if (!a) return usm_only ? ZE_RESULT_ERROR_INVALID_ARGUMENT : ZE_RESULT_SUCCESS;
    if (size > (size_t)(a->base + a->size - (const char *)p)) return ZE_RESULT_ERROR_INVALID_SIZE;
    return ZE_RESULT_SUCCESS;
}

static bool relaxed_limits(const void *next) {
    for (const ze_base_desc_t *d = next; d; d = d->pNext) {
        if (d->stype == ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC) {
            const ze_relaxed_allocation_limits_exp_desc_t *r = (const void *)d;
            return (r->flags & ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE) != 0;
        }
    }
    return false;
}

static ze_result_t allocate(ze_context_handle_t context, size_t size, size_t alignment,
                            bool device, void **out) {
    if (!fake_ze_context_ok(context)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    if (alignment == 0) alignment = 64;
    if (alignment & (alignment - 1)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
    if (alignment < sizeof(void *)) alignment = sizeof(void *);
    if (device && size > fake_ze_config_get()->global_mem_bytes - device_bytes)
        return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    if (nallocations == allocations_capacity) {
        size_t cap = allocations_capacity ? 2 * allocations_capacity : 64;
        allocation *grown = realloc(allocations, cap * sizeof *grown);
        if (!grown) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        allocations = grown;
        allocations_capacity = cap;
    }
    void *raw = NULL;
    char *base = fake_ze_cl_alloc(size, alignment, &raw);
    if (!base) return device ? ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY : ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    memset(base, 0xa5, size); /* fresh device memory is not zero */
    allocations[nallocations++] = (allocation){base, raw, size, device, context};
    if (device) device_bytes += size;
    fake_ze_object_created();
    *out = base;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeMemAllocDevice(ze_context_handle_t context,
                                             const ze_device_mem_alloc_desc_t *desc, size_t size,
                                             size_t alignment, ze_device_handle_t device, void **ptr) {
    if (!fake_ze_device_ok(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (size > fake_ze_config_get()->max_alloc_bytes && !relaxed_limits(desc->pNext))
        return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    return allocate(context, size, alignment, true, ptr);
}

ze_result_t ZE_APICALL fake_zeMemAllocHost(ze_context_handle_t context,
                                           const ze_host_mem_alloc_desc_t *desc, size_t size,
                                           size_t alignment, void **ptr) {
    if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    return allocate(context, size, alignment, false, ptr);
}

ze_result_t ZE_APICALL fake_zeMemFree(ze_context_handle_t context, void *ptr) {
    if (!fake_ze_context_ok(context)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    for (size_t i = 0; i < nallocations; i++) {
        if (allocations[i].base != ptr || allocations[i].context != context) continue;
        /* zeMemFree does not wait for the device: freeing memory that queued commands will
         * still touch is the caller's bug. */
        if (fake_ze_memory_in_use(allocations[i].base, allocations[i].size)) {
            fake_ze_misuse("zeMemFree(%p) while queued commands still use it", ptr);
            return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
        }
        if (allocations[i].device) device_bytes -= allocations[i].size;
        fake_ze_cl_free(allocations[i].raw);
        allocations[i] = allocations[--nallocations];
        fake_ze_object_destroyed();
        return ZE_RESULT_SUCCESS;
    }
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

/*
 * The fake driver's contexts, event pools and events, and the count of live objects that
 * lets a test check its user destroyed everything it created.
 */
#include <stdlib.h>

#include "fake_ze.h"

static long live_objects;

void fake_ze_object_created(void) { live_objects++; }
void fake_ze_object_destroyed(void) { live_objects--; }
long fake_ze_live_objects(void) { return live_objects; }

bool fake_ze_context_ok(ze_context_handle_t context) {
    return context && context->magic == FAKE_ZE_MAGIC_CONTEXT;
}

bool fake_ze_event_ok(ze_event_handle_t event) {
    return event && event->magic == FAKE_ZE_MAGIC_EVENT;
}

ze_result_t ZE_APICALL fake_zeContextCreate(ze_driver_handle_t driver, const ze_context_desc_t *desc,
                                            ze_context_handle_t *out) {
    if (!fake_ze_driver_ok(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    ze_context_handle_t context = calloc(1, sizeof *context);
    if (!context) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    context->magic = FAKE_ZE_MAGIC_CONTEXT;
    fake_ze_object_created();
    *out = context;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeContextDestroy(ze_context_handle_t context) {
    if (!fake_ze_context_ok(context)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    context->magic = 0;
    free(context);
    fake_ze_object_destroyed();
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeEventPoolCreate(ze_context_handle_t context,
                                              const ze_event_pool_desc_t *desc, uint32_t ndevices,
                                              ze_device_handle_t *devices,
                                              ze_event_pool_handle_t *out) {
    if (!fake_ze_context_ok(context)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out || (ndevices > 0 && !devices)) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
    for (uint32_t i = 0; i < ndevices; i++)
        if (!fake_ze_device_ok(devices[i])) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    ze_event_pool_handle_t pool = calloc(1, sizeof *pool);
    if (!pool) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    pool->magic = FAKE_ZE_MAGIC_POOL;
    pool->count = desc->count;
    pool->kernel_timestamps = (desc->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP) != 0;
    fake_ze_object_created();
    *out = pool;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeEventPoolDestroy(ze_event_pool_handle_t pool) {
    if (!pool || pool->magic != FAKE_ZE_MAGIC_POOL) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    /* The spec forbids destroying a pool whose events are still alive. */
    if (pool->live_events) {
        fake_ze_misuse("zeEventPoolDestroy with %u live events", pool->live_events);
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    }
    pool->magic = 0;
    free(pool);
    fake_ze_object_destroyed();
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeEventCreate(ze_event_pool_handle_t pool, const ze_event_desc_t *desc,
                                          ze_event_handle_t *out) {
    if (!pool || pool->magic != FAKE_ZE_MAGIC_POOL) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->index >= pool->count) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    ze_event_handle_t event = calloc(1, sizeof *event);
    if (!event) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    event->magic = FAKE_ZE_MAGIC_EVENT;
    event->pool = pool;
    pool->live_events++;
    fake_ze_object_created();
    *out = event;
    return ZE_RESULT_SUCCESS;
}

/* An event that `api` may change: a valid handle no queued command still signals or waits on
 * (the spec forbids it; a misuse here). */
static ze_result_t event_idle_check(ze_event_handle_t event, const char *api) {
    if (!fake_ze_event_ok(event)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (fake_ze_event_in_use(event)) {
        fake_ze_misuse("%s while queued commands still signal or wait on it", api);
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    }
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeEventDestroy(ze_event_handle_t event) {
    const ze_result_t checked = event_idle_check(event, "zeEventDestroy");
    if (checked != ZE_RESULT_SUCCESS) return checked;
    event->pool->live_events--;
    event->magic = 0;
    free(event);
    fake_ze_object_destroyed();
    return ZE_RESULT_SUCCESS;
}

/* The device runs whatever can run; an event still unsignalled then never will be (a real
 * device would hang), so waiting reports ZE_RESULT_NOT_READY at once whatever the timeout. */
ze_result_t ZE_APICALL fake_zeEventHostSynchronize(ze_event_handle_t event, uint64_t timeout) {
    (void)timeout;
    if (!fake_ze_event_ok(event)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    fake_ze_run_pending();
    return event->signalled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL fake_zeEventQueryStatus(ze_event_handle_t event) {
    if (!fake_ze_event_ok(event)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    fake_ze_run_pending();
    return event->signalled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL fake_zeEventHostSignal(ze_event_handle_t event) {
    if (!fake_ze_event_ok(event)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    event->signalled = true;
    event->start = event->end = fake_ze_clock_now();
    return ZE_RESULT_SUCCESS;
}

/* The device clock before and after the command that signalled the event, masked to the
 * kernelTimestampValidBits the device reports (32). */
ze_result_t ZE_APICALL fake_zeEventQueryKernelTimestamp(ze_event_handle_t event,
                                                        ze_kernel_timestamp_result_t *result) {
    if (!fake_ze_event_ok(event)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!result) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!event->pool->kernel_timestamps) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    fake_ze_run_pending();
    if (!event->signalled) return ZE_RESULT_NOT_READY;
    const uint64_t mask = UINT32_MAX;
    result->global.kernelStart = result->context.kernelStart = event->start & mask;
    result->global.kernelEnd = result->context.kernelEnd = event->end & mask;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeEventHostReset(ze_event_handle_t event) {
    const ze_result_t checked = event_idle_check(event, "zeEventHostReset");
    if (checked != ZE_RESULT_SUCCESS) return checked;
    event->signalled = false;
    return ZE_RESULT_SUCCESS;
}

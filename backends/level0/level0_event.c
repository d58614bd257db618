/*
 * Level Zero events: a recorded event is a global-timestamp write into host memory that
 * signals a host-visible event when the queue reaches it. Other queues wait on the event;
 * the host waits on it and reads the timestamp.
 */
#ifdef MAGNUS_HAVE_LEVEL0_HEADERS

#include "level0_internal.h"

/* Destroys an event at once: only for one the device cannot reach (never submitted, or
 * retired and reclaimed). */
static void event_free(magnus_bevent *event) {
    level0_single_event_destroy(event->pool, event->event);
    if (event->timestamp) magnus_ze.zeMemFree(event->ctx->context, event->timestamp);
    magnus_host_free(event);
}

void level0_event_destroy(magnus_bevent *event) {
    if (!event) return;
    magnus_bctx *ctx = event->ctx;
    /* A queue may still have to signal this event or wait on it: remember how far each queue
     * had got, and destroy the event once all of them are finished past that point. */
    for (int i = 0; i < LEVEL0_MAX_QUEUES; i++)
        event->needs[i] = ctx->queues[i] ? ctx->queues[i]->appended : 0;
    event->next_retired = ctx->retired;
    ctx->retired = event;
    level0_events_reclaim(ctx, false);
}

void level0_events_reclaim(magnus_bctx *ctx, bool all) {
    magnus_bevent **link = &ctx->retired;
    while (*link) {
        magnus_bevent *e = *link;
        bool reachable = false;
        for (int i = 0; i < LEVEL0_MAX_QUEUES && !all && !reachable; i++)
            reachable = e->needs[i] > 0 && ctx->queues[i] && ctx->queues[i]->finished < e->needs[i];
        if (reachable) {
            link = &e->next_retired;
        } else {
            *link = e->next_retired;
            event_free(e);
        }
    }
}

magnus_status level0_event_record(magnus_bqueue *q, magnus_bevent **out) {
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: event output is NULL");
    *out = NULL;
    if (!q) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: event_record without a queue");
    magnus_bevent *ev = magnus_host_calloc(1, sizeof *ev);
    if (!ev) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "level0: no host memory for an event");
    ev->ctx = q->ctx;
    magnus_status s = level0_single_event_create(q->ctx, &ev->pool, &ev->event);
    if (s) {
        event_free(ev);
        return s;
    }
    /* The device writes the stamp, so it lives in host USM, 8-byte aligned as required. */
    ze_host_mem_alloc_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, .flags = 0};
    void *stamp = NULL;
    ze_result_t r = magnus_ze.zeMemAllocHost(q->ctx->context, &desc, sizeof(uint64_t),
                                             sizeof(uint64_t), &stamp);
    if (r || !stamp) {
        event_free(ev);
        return magnus_ze_error(MAGNUS_ERROR_DEVICE, r ? r : ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
                               "zeMemAllocHost(timestamp)");
    }
    ev->timestamp = stamp;
    *ev->timestamp = 0;
    /* The barrier after the previous command has already ordered it before this write. */
    r = magnus_ze.zeCommandListAppendWriteGlobalTimestamp(q->list, ev->timestamp, ev->event, 0, NULL);
    if (r) {
        event_free(ev);
        return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeCommandListAppendWriteGlobalTimestamp");
    }
    level0_queue_appended(q);
    s = level0_queue_order(q, "timestamp");
    if (s) {
        level0_event_destroy(ev); /* the write is queued: retire, do not free */
        return s;
    }
    *out = ev;
    return MAGNUS_SUCCESS;
}

magnus_status level0_queue_wait_event(magnus_bqueue *q, magnus_bevent *event) {
    if (!q || !event)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: queue_wait_event needs a queue and an event");
    ze_event_handle_t handle = event->event;
    ze_result_t r = magnus_ze.zeCommandListAppendWaitOnEvents(q->list, 1, &handle);
    if (r) return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeCommandListAppendWaitOnEvents");
    level0_queue_appended(q);
    return MAGNUS_SUCCESS;
}

magnus_status level0_event_synchronize(magnus_bevent *event) {
    if (!event) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: event_synchronize without an event");
    ze_result_t r = magnus_ze.zeEventHostSynchronize(event->event, UINT64_MAX);
    if (r) return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeEventHostSynchronize");
    return MAGNUS_SUCCESS;
}

magnus_status level0_event_elapsed_ms(magnus_bevent *start, magnus_bevent *end, double *ms) {
    if (!start || !end || !ms)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: event_elapsed_ms needs two events and an output");
    magnus_status s = level0_event_synchronize(start);
    if (!s) s = level0_event_synchronize(end);
    if (s) return s;
    const level0_device *dev = start->ctx->dev;
    /* Masking the difference handles a counter that wrapped between the two stamps. */
    uint64_t ticks = (*end->timestamp - *start->timestamp) & dev->timestamp_mask;
    *ms = (double)ticks * dev->ns_per_tick * 1e-6;
    return MAGNUS_SUCCESS;
}

#endif /* MAGNUS_HAVE_LEVEL0_HEADERS */

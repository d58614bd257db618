/*
 * Level Zero contexts and queues. A queue is an immediate command list kept in order by a
 * barrier after every command, finished through its own host-visible event (see the design
 * notes in level0_internal.h).
 */
#ifdef MAGNUS_HAVE_LEVEL0_HEADERS

#include "level0_internal.h"

/* The first command queue group that runs compute work (ordinal 0 on every Intel GPU). */
static magnus_status find_compute_ordinal(const level0_device *dev, uint32_t *ordinal) {
    uint32_t ngroups = 0;
    ze_result_t r = magnus_ze.zeDeviceGetCommandQueueGroupProperties(dev->device, &ngroups, NULL);
    if (r)
        return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeDeviceGetCommandQueueGroupProperties");
    if (ngroups == 0)
        return magnus_error(MAGNUS_ERROR_DEVICE, "level0: %s has no command queue group",
                            dev->info.name);
    ze_command_queue_group_properties_t *groups = magnus_host_calloc(ngroups, sizeof *groups);
    if (!groups)
        return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                            "level0: no host memory for %u queue groups", ngroups);
    for (uint32_t i = 0; i < ngroups; i++)
        groups[i].stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
    r = magnus_ze.zeDeviceGetCommandQueueGroupProperties(dev->device, &ngroups, groups);
    bool found = false;
    for (uint32_t i = 0; !r && !found && i < ngroups; i++) {
        found = (groups[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) != 0;
        if (found) *ordinal = i;
    }
    magnus_status s = MAGNUS_SUCCESS;
    if (r)
        s = magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeDeviceGetCommandQueueGroupProperties");
    else if (!found)
        s = magnus_error(MAGNUS_ERROR_DEVICE, "level0: %s has no compute queue group",
                         dev->info.name);
    magnus_host_free(groups);
    return s;
}

magnus_status level0_context_create(int index, magnus_bctx **out) {
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: context output is NULL");
    *out = NULL;
    if (index < 0 || index >= level0_device_count)
        return magnus_error(MAGNUS_ERROR_NO_DEVICE, "level0: no device %d (%d found)", index,
                            level0_device_count);
    const level0_device *dev = &level0_devices[index];
    magnus_bctx *ctx = magnus_host_calloc(1, sizeof *ctx);
    if (!ctx) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "level0: no host memory for a context");
    ctx->dev = dev;
    magnus_status s = find_compute_ordinal(dev, &ctx->compute_ordinal);
    if (s) {
        magnus_host_free(ctx);
        return s;
    }
    ze_context_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ze_result_t r = magnus_ze.zeContextCreate(dev->driver, &desc, &ctx->context);
    if (r) {
        magnus_host_free(ctx);
        return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeContextCreate");
    }
    *out = ctx;
    return MAGNUS_SUCCESS;
}

void level0_context_destroy(magnus_bctx *ctx) {
    if (!ctx) return;
    /* The runtime destroys every queue first, so nothing can reach a retired event now. */
    level0_events_reclaim(ctx, true);
    if (ctx->context) magnus_ze.zeContextDestroy(ctx->context);
    magnus_host_free(ctx);
}

magnus_status level0_single_event_create(magnus_bctx *ctx, ze_event_pool_handle_t *pool,
                                         ze_event_handle_t *event) {
    *pool = NULL;
    *event = NULL;
    ze_event_pool_desc_t pool_desc = {.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
                                      .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
                                      .count = 1};
    ze_device_handle_t device = ctx->dev->device;
    ze_result_t r = magnus_ze.zeEventPoolCreate(ctx->context, &pool_desc, 1, &device, pool);
    if (r) {
        *pool = NULL;
        return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeEventPoolCreate");
    }
    /* Host scope on both sides: the host waits on these events and then reads what the device
     * wrote (timestamps, copies into host memory). */
    ze_event_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
                            .index = 0,
                            .signal = ZE_EVENT_SCOPE_FLAG_HOST,
                            .wait = ZE_EVENT_SCOPE_FLAG_HOST};
    r = magnus_ze.zeEventCreate(*pool, &desc, event);
    if (r) {
        magnus_ze.zeEventPoolDestroy(*pool);
        *pool = NULL;
        *event = NULL;
        return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeEventCreate");
    }
    return MAGNUS_SUCCESS;
}

void level0_single_event_destroy(ze_event_pool_handle_t pool, ze_event_handle_t event) {
    if (event) magnus_ze.zeEventDestroy(event);
    if (pool) magnus_ze.zeEventPoolDestroy(pool);
}

magnus_status level0_queue_create(magnus_bctx *ctx, int urgent, magnus_bqueue **out) {
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: queue output is NULL");
    *out = NULL;
    if (!ctx) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: queue_create without a context");
    int slot = 0;
    while (slot < LEVEL0_MAX_QUEUES && ctx->queues[slot]) slot++;
    if (slot == LEVEL0_MAX_QUEUES)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "level0: a context holds at most %d queues", LEVEL0_MAX_QUEUES);
    magnus_bqueue *q = magnus_host_calloc(1, sizeof *q);
    if (!q) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "level0: no host memory for a queue");
    q->ctx = ctx;
    q->slot = slot;
    ze_command_queue_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    .ordinal = ctx->compute_ordinal,
                                    .index = 0,
                                    .flags = 0,
                                    .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    .priority = urgent ? ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH
                                                       : ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_result_t r = magnus_ze.zeCommandListCreateImmediate(ctx->context, ctx->dev->device, &desc,
                                                           &q->list);
    if (r) {
        magnus_host_free(q);
        return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeCommandListCreateImmediate");
    }
    magnus_status s = level0_single_event_create(ctx, &q->pool, &q->idle);
    if (s) {
        magnus_ze.zeCommandListDestroy(q->list);
        magnus_host_free(q);
        return s;
    }
    ctx->queues[slot] = q;
    *out = q;
    return MAGNUS_SUCCESS;
}

void level0_queue_destroy(magnus_bqueue *q) {
    if (!q) return;
    /* Destroying a list with work in flight is undefined; drain it first (errors here have
     * nowhere to go: the caller is tearing down). */
    (void)level0_queue_finish(q);
    magnus_bctx *ctx = q->ctx;
    ctx->queues[q->slot] = NULL;
    /* This queue no longer holds any retired event back; a later queue may take its slot. */
    for (magnus_bevent *e = ctx->retired; e; e = e->next_retired) e->needs[q->slot] = 0;
    level0_single_event_destroy(q->pool, q->idle);
    if (q->list) magnus_ze.zeCommandListDestroy(q->list);
    magnus_host_free(q);
    level0_events_reclaim(ctx, false);
}

void level0_queue_appended(magnus_bqueue *q) {
    q->appended++;
}

magnus_status level0_queue_order(magnus_bqueue *q, const char *what) {
    ze_result_t r = magnus_ze.zeCommandListAppendBarrier(q->list, NULL, 0, NULL);
    if (r) return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeCommandListAppendBarrier after %s", what);
    level0_queue_appended(q);
    return MAGNUS_SUCCESS;
}

magnus_status level0_queue_finish(magnus_bqueue *q) {
    if (!q) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: queue_finish without a queue");
    uint64_t upto = q->appended;
    ze_result_t r = magnus_ze.zeCommandListAppendBarrier(q->list, q->idle, 0, NULL);
    if (r) return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeCommandListAppendBarrier (finish)");
    r = magnus_ze.zeEventHostSynchronize(q->idle, UINT64_MAX);
    if (r) return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeEventHostSynchronize (finish)");
    r = magnus_ze.zeEventHostReset(q->idle);
    if (r) return magnus_ze_error(MAGNUS_ERROR_DEVICE, r, "zeEventHostReset (finish)");
    q->finished = upto;
    level0_events_reclaim(q->ctx, false);
    return MAGNUS_SUCCESS;
}

magnus_status level0_context_drain(magnus_bctx *ctx) {
    magnus_status first = MAGNUS_SUCCESS;
    for (int i = 0; i < LEVEL0_MAX_QUEUES; i++) {
        if (!ctx->queues[i]) continue;
        magnus_status s = level0_queue_finish(ctx->queues[i]);
        if (s && !first) first = s;
    }
    return first;
}

#endif /* MAGNUS_HAVE_LEVEL0_HEADERS */

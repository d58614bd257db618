/* Queues of a context: waiting, ordering across queues, and timing device work. */
#include <string.h>

#include "backend.h"
#include "device_runtime.h"

magnus_status magnus_queue_check(magnus_context ctx, magnus_queue_id q, const char *what) {
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    if ((int)q < 0 || q >= MAGNUS_QUEUE_COUNT)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "%s: no queue %d", what, (int)q);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_queue_finish(magnus_context ctx, magnus_queue_id q) {
    magnus_status s = magnus_queue_check(ctx, q, "magnus_queue_finish");
    if (s) return s;
    const double t = MAGNUS_TRACE_START(ctx);
    s = ctx->ops->queue_finish(ctx->queues[q]);
    magnus_trace_event(ctx, "wait",
                       q == MAGNUS_QUEUE_HEAVY ? "heavy" : q == MAGNUS_QUEUE_LIGHT ? "light" : "main",
                       t, 0);
    return s;
}

magnus_status magnus_context_finish(magnus_context ctx) {
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    const double t = MAGNUS_TRACE_START(ctx);
    for (int q = 0; q < MAGNUS_QUEUE_COUNT && !s; q++) s = ctx->ops->queue_finish(ctx->queues[q]);
    magnus_trace_event(ctx, "wait", "all", t, 0);
    /* idle: nothing queued can read a deferred buffer or a cached block any more */
    if (!s) s = magnus_context_release_deferred(ctx);
    if (!s) magnus_pool_idle(ctx);
    return s;
}

magnus_status magnus_context_finish_after_error(magnus_context ctx, magnus_status s) {
    /* the queues' own errors would overwrite the detail message of the one that matters */
    char saved[512];
    strncpy(saved, magnus_last_error(), sizeof saved - 1);
    saved[sizeof saved - 1] = 0;
    (void)magnus_context_finish(ctx);
    /* what the waits left deferred goes too (the caller frees its own buffers now as well) */
    (void)magnus_context_release_deferred(ctx);
    return magnus_error(s, "%s", saved);
}

/* Queues a and b wait for what `signaller` has so far, through one recorded event; a waiter
 * that is the signaller (queues are in order) or repeats the other waits not at all. `what`
 * names the caller in errors; the trace's "order" line gives the host's time for the event
 * and the waits (through OpenCL a marker, a flush and a barrier per waiter). */
static magnus_status queues_wait_for(magnus_context ctx, magnus_queue_id signaller,
                                     magnus_queue_id a, magnus_queue_id b, const char *what) {
    magnus_status s;
    if ((s = magnus_queue_check(ctx, a, what)) || (s = magnus_queue_check(ctx, b, what)) ||
        (s = magnus_queue_check(ctx, signaller, what)))
        return s;
    const bool wait_a = a != signaller, wait_b = b != signaller && b != a;
    if (!wait_a && !wait_b) return MAGNUS_SUCCESS;
    magnus_bevent *event;
    const double t = MAGNUS_TRACE_START(ctx);
    if ((s = ctx->ops->event_record(ctx->queues[signaller], &event))) return s;
    if (wait_a) s = ctx->ops->queue_wait_event(ctx->queues[a], event);
    if (!s && wait_b) s = ctx->ops->queue_wait_event(ctx->queues[b], event);
    ctx->ops->event_destroy(event);
    magnus_trace_event(ctx, "order", strrchr(what, '_') + 1, t, /* "fork", "depend" */
                       (uint64_t)wait_a + (uint64_t)wait_b);
    return s;
}

magnus_status magnus_queue_depend(magnus_context ctx, magnus_queue_id waiter,
                                  magnus_queue_id signaller) {
    return queues_wait_for(ctx, signaller, waiter, waiter, "magnus_queue_depend");
}

magnus_status magnus_queue_fork(magnus_context ctx, magnus_queue_id signaller, magnus_queue_id a,
                                magnus_queue_id b) {
    return queues_wait_for(ctx, signaller, a, b, "magnus_queue_fork");
}

magnus_status magnus_timer_start(magnus_context ctx, magnus_queue_id q, magnus_timer *t) {
    magnus_status s = magnus_queue_check(ctx, q, "magnus_timer_start");
    if (s) return s;
    if (!t) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_timer_start: timer is NULL");
    t->start = t->end = NULL;
    if (t->off) return MAGNUS_SUCCESS;
    const double at = MAGNUS_TRACE_START(ctx);
    s = ctx->ops->event_record(ctx->queues[q], &t->start);
    magnus_trace_event(ctx, "timer", "start", at, 0);
    return s;
}

magnus_status magnus_timer_stop(magnus_context ctx, magnus_queue_id q, magnus_timer *t) {
    magnus_status s = magnus_queue_check(ctx, q, "magnus_timer_stop");
    if (s) return s;
    if (t && t->off) return MAGNUS_SUCCESS;
    if (!t || !t->start)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "magnus_timer_stop: timer not started");
    if (t->end) ctx->ops->event_destroy(t->end);
    t->end = NULL;
    const double at = MAGNUS_TRACE_START(ctx);
    s = ctx->ops->event_record(ctx->queues[q], &t->end);
    magnus_trace_event(ctx, "timer", "stop", at, 0);
    return s;
}

void magnus_timer_discard(magnus_context ctx, magnus_timer *t) {
    if (!t || magnus_context_check(ctx)) return;
    if (t->start) ctx->ops->event_destroy(t->start);
    if (t->end) ctx->ops->event_destroy(t->end);
    t->start = t->end = NULL;
}

magnus_status magnus_timer_elapsed_ms(magnus_context ctx, magnus_timer *t, double *ms) {
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    if (!t || !ms) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_timer_elapsed_ms: NULL");
    *ms = 0;
    if (t->off) return MAGNUS_SUCCESS;
    if (!t->start || !t->end)
        s = magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                         "magnus_timer_elapsed_ms: timer not started and stopped");
    if (!s) s = ctx->ops->event_synchronize(t->end);
    if (!s) s = ctx->ops->event_elapsed_ms(t->start, t->end, ms);
    if (t->start) ctx->ops->event_destroy(t->start);
    if (t->end) ctx->ops->event_destroy(t->end);
    t->start = t->end = NULL;
    return s;
}

/* CUDA events: points in a stream, with timestamps, for ordering across streams and timing. */
#ifdef MAGNUS_HAVE_CUDA_H

#include "cuda_internal.h"

magnus_status magnus_cuda_event_record(magnus_bqueue *q, magnus_bevent **out) {
    *out = NULL;
    magnus_status s = magnus_cuda_make_current(q->ctx);
    if (s) return s;
    magnus_bevent *e = magnus_host_calloc(1, sizeof *e);
    if (!e) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "CUDA event handle");
    e->ctx = q->ctx;
    /* CU_EVENT_DEFAULT keeps timing on (CU_EVENT_DISABLE_TIMING would forbid elapsed_ms). */
    if ((s = magnus_cuda_check(magnus_cuda.EventCreate(&e->event, CU_EVENT_DEFAULT),
                               MAGNUS_ERROR_DEVICE, "cuEventCreate on CUDA device %d",
                               q->ctx->index))) {
        magnus_host_free(e);
        return s;
    }
    if ((s = magnus_cuda_check(magnus_cuda.EventRecord(e->event, q->stream), MAGNUS_ERROR_DEVICE,
                               "cuEventRecord on CUDA device %d", q->ctx->index))) {
        magnus_cuda.EventDestroy(e->event);
        magnus_host_free(e);
        return s;
    }
    *out = e;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cuda_queue_wait_event(magnus_bqueue *q, magnus_bevent *e) {
    magnus_status s = magnus_cuda_make_current(q->ctx);
    if (s) return s;
    /* Device-side wait: the host does not block. */
    return magnus_cuda_check(magnus_cuda.StreamWaitEvent(q->stream, e->event, 0),
                             MAGNUS_ERROR_DEVICE, "cuStreamWaitEvent on CUDA device %d",
                             q->ctx->index);
}

magnus_status magnus_cuda_event_synchronize(magnus_bevent *e) {
    magnus_status s = magnus_cuda_make_current(e->ctx);
    if (s) return s;
    return magnus_cuda_check(magnus_cuda.EventSynchronize(e->event), MAGNUS_ERROR_DEVICE,
                             "cuEventSynchronize on CUDA device %d", e->ctx->index);
}

magnus_status magnus_cuda_event_elapsed_ms(magnus_bevent *start, magnus_bevent *end, double *ms) {
    *ms = 0;
    /* cuEventElapsedTime answers CUDA_ERROR_NOT_READY until both events have completed. */
    magnus_status s;
    if ((s = magnus_cuda_event_synchronize(start)) || (s = magnus_cuda_event_synchronize(end)))
        return s;
    float elapsed = 0;
    if ((s = magnus_cuda_check(magnus_cuda.EventElapsedTime(&elapsed, start->event, end->event),
                               MAGNUS_ERROR_DEVICE, "cuEventElapsedTime on CUDA device %d",
                               end->ctx->index)))
        return s;
    *ms = elapsed;
    return MAGNUS_SUCCESS;
}

void magnus_cuda_event_destroy(magnus_bevent *e) {
    if (!e) return;
    if (magnus_cuda_make_current(e->ctx) == MAGNUS_SUCCESS) magnus_cuda.EventDestroy(e->event);
    magnus_host_free(e);
}

#endif /* MAGNUS_HAVE_CUDA_H */

/*
 * The fake driver's command queues and fences. Executing closed regular lists copies their
 * recorded commands onto the queue's scheduled stream (so a list may run many times and be
 * reset once the device is done with it), followed by the fence's signal when one is given.
 * Synchronising a queue or a fence runs what can run; work that still cannot (waiting on an
 * event nobody will signal) would hang a real device, so the fake answers ZE_RESULT_NOT_READY
 * at once, whatever the timeout.
 */
#include <stdlib.h>
#include <string.h>

#include "fake_ze.h"

static bool queue_ok(ze_command_queue_handle_t queue) {
    return queue && queue->magic == FAKE_ZE_MAGIC_QUEUE;
}

bool fake_ze_fence_ok(ze_fence_handle_t fence) {
    return fence && fence->magic == FAKE_ZE_MAGIC_FENCE;
}

ze_result_t ZE_APICALL fake_zeCommandQueueCreate(ze_context_handle_t context,
                                                 ze_device_handle_t device,
                                                 const ze_command_queue_desc_t *desc,
                                                 ze_command_queue_handle_t *out) {
    if (!fake_ze_context_ok(context) || !fake_ze_device_ok(device))
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->ordinal != 0 || desc->index != 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    ze_command_queue_handle_t q = calloc(1, sizeof *q);
    if (!q) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    q->magic = FAKE_ZE_MAGIC_QUEUE;
    q->context = context;
    q->synchronous = desc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    fake_ze_stream_schedule(&q->stream);
    fake_ze_object_created();
    *out = q;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeCommandQueueDestroy(ze_command_queue_handle_t queue) {
    if (!queue_ok(queue)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    fake_ze_run_pending();
    if (queue->stream.head) {
        fake_ze_misuse("zeCommandQueueDestroy with commands still queued");
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    }
    fake_ze_stream_unschedule(&queue->stream);
    queue->magic = 0;
    free(queue);
    fake_ze_object_destroyed();
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeCommandQueueExecuteCommandLists(ze_command_queue_handle_t queue,
                                                              uint32_t nlists,
                                                              ze_command_list_handle_t *lists,
                                                              ze_fence_handle_t fence) {
    if (!queue_ok(queue)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (nlists == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
    if (!lists) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (fence && (!fake_ze_fence_ok(fence) || fence->queue != queue))
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    for (uint32_t i = 0; i < nlists; i++) {
        if (!lists[i] || lists[i]->magic != FAKE_ZE_MAGIC_LIST) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
        if (lists[i]->immediate) return ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE;
        if (!lists[i]->closed) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    /* Copy everything first, so running out of memory leaves the queue as it was. */
    command *head = NULL, **tail = &head;
    bool ok = true;
    for (uint32_t i = 0; i < nlists && ok; i++)
        for (const command *c = lists[i]->stream.head; c && ok; c = c->next) {
            command *copy = fake_ze_command_clone(c);
            ok = copy != NULL;
            if (!ok) break;
            copy->source = lists[i];
            *tail = copy;
            tail = &copy->next;
        }
    if (ok && fence) {
        command *c = calloc(1, sizeof *c);
        ok = c != NULL;
        if (ok) {
            c->kind = CMD_FENCE;
            c->fence = fence;
            *tail = c;
            tail = &c->next;
        }
    }
    if (!ok) {
        while (head) {
            command *next = head->next;
            fake_ze_command_free(head);
            head = next;
        }
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    if (head) {
        fake_ze_stream *s = &queue->stream;
        if (s->tail) s->tail->next = head;
        else s->head = head;
        command *last = head;
        while (last->next) last = last->next;
        s->tail = last;
    }
    if (queue->synchronous) fake_ze_run_pending();
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeCommandQueueSynchronize(ze_command_queue_handle_t queue,
                                                      uint64_t timeout) {
    (void)timeout;
    if (!queue_ok(queue)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    fake_ze_run_pending();
    return queue->stream.head ? ZE_RESULT_NOT_READY : ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeFenceCreate(ze_command_queue_handle_t queue,
                                          const ze_fence_desc_t *desc, ze_fence_handle_t *out) {
    if (!queue_ok(queue)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    ze_fence_handle_t f = calloc(1, sizeof *f);
    if (!f) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    f->magic = FAKE_ZE_MAGIC_FENCE;
    f->queue = queue;
    f->signalled = (desc->flags & ZE_FENCE_FLAG_SIGNALED) != 0;
    fake_ze_object_created();
    *out = f;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeFenceDestroy(ze_fence_handle_t fence) {
    if (!fake_ze_fence_ok(fence)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (fake_ze_fence_in_use(fence)) {
        fake_ze_misuse("zeFenceDestroy while a queue will still signal it");
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    }
    fence->magic = 0;
    free(fence);
    fake_ze_object_destroyed();
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeFenceHostSynchronize(ze_fence_handle_t fence, uint64_t timeout) {
    (void)timeout;
    if (!fake_ze_fence_ok(fence)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    fake_ze_run_pending();
    return fence->signalled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL fake_zeFenceQueryStatus(ze_fence_handle_t fence) {
    return fake_zeFenceHostSynchronize(fence, 0);
}

ze_result_t ZE_APICALL fake_zeFenceReset(ze_fence_handle_t fence) {
    if (!fake_ze_fence_ok(fence)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (fake_ze_fence_in_use(fence)) {
        fake_ze_misuse("zeFenceReset while a queue will still signal it");
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    }
    fence->signalled = false;
    return ZE_RESULT_SUCCESS;
}

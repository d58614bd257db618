/*
 * The fake driver's command lists and appending to them.
 *
 * An immediate list's commands go straight to the device's queue of work (its scheduled
 * stream, run by fake_ze_run.c when the host looks); a synchronous immediate list runs them
 * before returning. A regular list only records: zeCommandListClose ends the recording and
 * zeCommandQueueExecuteCommandLists (fake_ze_queue.c) copies the recording onto a queue, so
 * one list may be executed many times. Every append checks its handles and arguments the way
 * the specification says a driver may, and copies what a driver copies at append time (a fill
 * pattern, a launch's arguments).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_ze.h"

static bool list_ok(ze_command_list_handle_t list) {
    return list && list->magic == FAKE_ZE_MAGIC_LIST;
}

/* Both creators check the handles, then the pointers (DESC: the descriptor given), then what
 * the descriptor asks for (QUEUE_OK: a queue the fake has), and make the list. */
static ze_result_t list_create(ze_context_handle_t context, ze_device_handle_t device,
                               const void *desc, bool queue_ok, bool immediate, bool synchronous,
                               ze_command_list_handle_t *out) {
    if (!fake_ze_context_ok(context) || !fake_ze_device_ok(device))
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!queue_ok) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    ze_command_list_handle_t list = calloc(1, sizeof *list);
    if (!list) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    list->magic = FAKE_ZE_MAGIC_LIST;
    list->context = context;
    list->immediate = immediate;
    list->synchronous = synchronous;
    if (immediate) fake_ze_stream_schedule(&list->stream);
    fake_ze_object_created();
    *out = list;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeCommandListCreateImmediate(ze_context_handle_t context,
                                                         ze_device_handle_t device,
                                                         const ze_command_queue_desc_t *desc,
                                                         ze_command_list_handle_t *out) {
    return list_create(context, device, desc, desc && desc->ordinal == 0 && desc->index == 0,
                       true, desc && desc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, out);
}

ze_result_t ZE_APICALL fake_zeCommandListCreate(ze_context_handle_t context,
                                                ze_device_handle_t device,
                                                const ze_command_list_desc_t *desc,
                                                ze_command_list_handle_t *out) {
    return list_create(context, device, desc, desc && desc->commandQueueGroupOrdinal == 0, false,
                       false, out);
}

static void free_commands(fake_ze_stream *stream) {
    while (stream->head) {
        command *c = stream->head;
        stream->head = c->next;
        fake_ze_command_free(c);
    }
    stream->tail = NULL;
}

ze_result_t ZE_APICALL fake_zeCommandListDestroy(ze_command_list_handle_t list) {
    if (!list_ok(list)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    fake_ze_run_pending();
    if (list->immediate && list->stream.head) {
        fake_ze_misuse("zeCommandListDestroy with commands still queued");
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    }
    if (!list->immediate && fake_ze_list_in_use(list)) {
        fake_ze_misuse("zeCommandListDestroy of a regular list a command queue still executes");
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    }
    if (list->immediate) fake_ze_stream_unschedule(&list->stream);
    free_commands(&list->stream);
    list->magic = 0;
    free(list);
    fake_ze_object_destroyed();
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeCommandListClose(ze_command_list_handle_t list) {
    if (!list_ok(list)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (list->immediate) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    list->closed = true;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeCommandListReset(ze_command_list_handle_t list) {
    if (!list_ok(list)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    fake_ze_run_pending();
    if (list->immediate ? list->stream.head != NULL : fake_ze_list_in_use(list)) {
        fake_ze_misuse("zeCommandListReset while the device still runs the list's commands");
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    }
    if (!list->immediate) free_commands(&list->stream);
    list->closed = false;
    return ZE_RESULT_SUCCESS;
}

/* ---- appending ----------------------------------------------------------------------------- */

ze_result_t fake_ze_append(ze_command_list_handle_t list, command *proto, uint32_t nwait,
                           ze_event_handle_t *wait) {
    ze_result_t r = ZE_RESULT_SUCCESS;
    if (!list_ok(list)) r = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    else if (!list->immediate && list->closed) r = ZE_RESULT_ERROR_INVALID_ARGUMENT;
    else if (proto->signal && !fake_ze_event_ok(proto->signal)) r = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    else if (nwait > 0 && !wait) r = ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    for (uint32_t i = 0; !r && i < nwait; i++)
        if (!fake_ze_event_ok(wait[i])) r = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    command *c = r ? NULL : malloc(sizeof *c);
    if (!r && !c) r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (r) {
        fake_ze_launch_free(&proto->launch);
        return r;
    }
    *c = *proto;
    c->next = NULL;
    c->nwait = nwait;
    c->wait = NULL;
    if (nwait > 0) {
        c->wait = malloc(nwait * sizeof *c->wait);
        if (!c->wait) {
            fake_ze_command_free(c);
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        memcpy(c->wait, wait, nwait * sizeof *c->wait);
    }
    fake_ze_stream *s = &list->stream;
    if (s->tail) s->tail->next = c;
    else s->head = c;
    s->tail = c;
    if (list->synchronous) fake_ze_run_pending();
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeCommandListAppendBarrier(ze_command_list_handle_t list,
                                                       ze_event_handle_t signal, uint32_t nwait,
                                                       ze_event_handle_t *wait) {
    command c = {.kind = CMD_BARRIER, .signal = signal};
    return fake_ze_append(list, &c, nwait, wait);
}

ze_result_t ZE_APICALL fake_zeCommandListAppendWaitOnEvents(ze_command_list_handle_t list,
                                                            uint32_t nevents,
                                                            ze_event_handle_t *events) {
    command c = {.kind = CMD_WAIT};
    return fake_ze_append(list, &c, nevents, events);
}

ze_result_t ZE_APICALL fake_zeCommandListAppendSignalEvent(ze_command_list_handle_t list,
                                                           ze_event_handle_t event) {
    if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    command c = {.kind = CMD_BARRIER, .signal = event};
    return fake_ze_append(list, &c, 0, NULL);
}

ze_result_t ZE_APICALL fake_zeCommandListAppendEventReset(ze_command_list_handle_t list,
                                                          ze_event_handle_t event) {
    if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    command c = {.kind = CMD_EVENT_RESET, .signal = event};
    return fake_ze_append(list, &c, 0, NULL);
}

ze_result_t ZE_APICALL fake_zeCommandListAppendMemoryCopy(ze_command_list_handle_t list, void *dst,
                                                          const void *src, size_t size,
                                                          ze_event_handle_t signal, uint32_t nwait,
                                                          ze_event_handle_t *wait) {
    ze_result_t r = fake_ze_check_range(dst, size, false);
    if (!r) r = fake_ze_check_range(src, size, false);
    if (r) return r;
    const char *d = dst, *s = src;
    if (size && d < s + size && s < d + size) return ZE_RESULT_ERROR_OVERLAPPING_REGIONS;
    command c = {.kind = CMD_COPY, .dst = dst, .src = src, .size = size, .signal = signal};
    return fake_ze_append(list, &c, nwait, wait);
}

ze_result_t ZE_APICALL fake_zeCommandListAppendMemoryFill(ze_command_list_handle_t list, void *ptr,
                                                          const void *pattern, size_t pattern_size,
                                                          size_t size, ze_event_handle_t signal,
                                                          uint32_t nwait, ze_event_handle_t *wait) {
    if (!pattern) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (pattern_size == 0 || (pattern_size & (pattern_size - 1)) || pattern_size > 128)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    if (size % pattern_size) return ZE_RESULT_ERROR_INVALID_SIZE;
    ze_result_t r = fake_ze_check_range(ptr, size, true);
    if (r) return r;
    command c = {.kind = CMD_FILL, .dst = ptr, .size = size, .pattern_size = pattern_size,
                 .signal = signal};
    memcpy(c.pattern, pattern, pattern_size);
    return fake_ze_append(list, &c, nwait, wait);
}

ze_result_t ZE_APICALL fake_zeCommandListAppendWriteGlobalTimestamp(ze_command_list_handle_t list,
                                                                    uint64_t *dst,
                                                                    ze_event_handle_t signal,
                                                                    uint32_t nwait,
                                                                    ze_event_handle_t *wait) {
    ze_result_t r = fake_ze_check_range(dst, sizeof *dst, true);
    if (r) return r;
    if ((uintptr_t)dst % sizeof *dst) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
    command c = {.kind = CMD_TIMESTAMP, .dst = dst, .signal = signal};
    return fake_ze_append(list, &c, nwait, wait);
}

ze_result_t ZE_APICALL fake_zeCommandListAppendLaunchKernel(ze_command_list_handle_t list,
                                                            ze_kernel_handle_t kernel,
                                                            const ze_group_count_t *count,
                                                            ze_event_handle_t signal,
                                                            uint32_t nwait, ze_event_handle_t *wait) {
    if (!list_ok(list)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    command c = {.kind = CMD_KERNEL, .signal = signal};
    ze_result_t r = fake_ze_launch_capture(&c.launch, kernel, count);
    if (r) return r;
    return fake_ze_append(list, &c, nwait, wait);
}

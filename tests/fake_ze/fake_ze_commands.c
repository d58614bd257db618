/*
 * The fake driver's immediate command lists and their simulated device.
 *
 * Appending a command checks it and queues it; the "device" runs queued commands only when
 * the host looks (zeEventHostSynchronize, zeEventQueryStatus), each list in order, a command
 * waiting until its wait events are signalled. Work therefore really is pending while the
 * host goes on, as on a GPU, and the fake can catch what a GPU would punish silently:
 * destroying an event or freeing memory that queued commands still use, resetting an event
 * a command will signal, destroying a list with work in flight (see fake_ze_misuses()).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_ze.h"

typedef enum command_kind { CMD_BARRIER, CMD_WAIT, CMD_COPY, CMD_FILL, CMD_TIMESTAMP } command_kind;

typedef struct command {
    command_kind kind;
    void *dst;
    const void *src;
    size_t size;
    unsigned char pattern[128]; /* fill pattern, copied at append as real drivers do */
    size_t pattern_size;
    ze_event_handle_t signal;
    uint32_t nwait;
    ze_event_handle_t *wait;
    struct command *next;
} command;

/* Every live list, for the scheduler and the in-use checks. */
static ze_command_list_handle_t lists;
static long misuses;

long fake_ze_misuses(void) { return misuses; }

void fake_ze_misuse(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fake_ze: MISUSE: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    misuses++;
}

static bool list_ok(ze_command_list_handle_t list) {
    return list && list->magic == FAKE_ZE_MAGIC_LIST;
}

ze_result_t ZE_APICALL fake_zeCommandListCreateImmediate(ze_context_handle_t context,
                                                         ze_device_handle_t device,
                                                         const ze_command_queue_desc_t *desc,
                                                         ze_command_list_handle_t *out) {
    if (!fake_ze_context_ok(context) || !fake_ze_device_ok(device))
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->ordinal != 0 || desc->index != 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    ze_command_list_handle_t list = calloc(1, sizeof *list);
    if (!list) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    list->magic = FAKE_ZE_MAGIC_LIST;
    list->context = context;
    list->next = lists;
    lists = list;
    fake_ze_object_created();
    *out = list;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeCommandListDestroy(ze_command_list_handle_t list) {
    if (!list_ok(list)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    fake_ze_run_pending();
    if (list->head) {
        fake_ze_misuse("zeCommandListDestroy with commands still queued");
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    }
    for (ze_command_list_handle_t *link = &lists; *link; link = &(*link)->next)
        if (*link == list) {
            *link = list->next;
            break;
        }
    list->magic = 0;
    free(list);
    fake_ze_object_destroyed();
    return ZE_RESULT_SUCCESS;
}

/* ---- the device -------------------------------------------------------------------------- */

static bool ready(const command *c) {
    for (uint32_t i = 0; i < c->nwait; i++)
        if (!fake_ze_event_ok(c->wait[i]) || !c->wait[i]->signalled) return false;
    return true;
}

static void execute(const command *c) {
    switch (c->kind) {
    case CMD_BARRIER:
    case CMD_WAIT: break;
    case CMD_COPY:
        if (fake_ze_check_range(c->dst, c->size, false) || fake_ze_check_range(c->src, c->size, false))
            fake_ze_misuse("a queued copy of %zu bytes ran on freed memory", c->size);
        else
            memcpy(c->dst, c->src, c->size);
        fake_ze_clock_advance(c->size);
        break;
    case CMD_FILL:
        if (fake_ze_check_range(c->dst, c->size, true))
            fake_ze_misuse("a queued fill of %zu bytes ran on freed memory", c->size);
        else
            for (size_t at = 0; at < c->size; at += c->pattern_size)
                memcpy((char *)c->dst + at, c->pattern, c->pattern_size);
        fake_ze_clock_advance(c->size);
        break;
    case CMD_TIMESTAMP:
        if (fake_ze_check_range(c->dst, sizeof(uint64_t), true))
            fake_ze_misuse("a queued timestamp write ran on freed memory");
        else
            *(uint64_t *)c->dst = fake_ze_timestamp_now();
        break;
    }
    if (c->signal) {
        if (fake_ze_event_ok(c->signal)) c->signal->signalled = true;
        else fake_ze_misuse("a queued command signalled a destroyed event");
    }
}

void fake_ze_run_pending(void) {
    bool progress = true;
    while (progress) {
        progress = false;
        for (ze_command_list_handle_t l = lists; l; l = l->next) {
            while (l->head && ready(l->head)) {
                command *c = l->head;
                l->head = c->next;
                if (!l->head) l->tail = NULL;
                execute(c);
                free(c->wait);
                free(c);
                progress = true;
            }
        }
    }
}

bool fake_ze_event_in_use(ze_event_handle_t event) {
    for (ze_command_list_handle_t l = lists; l; l = l->next)
        for (const command *c = l->head; c; c = c->next) {
            if (c->signal == event) return true;
            for (uint32_t i = 0; i < c->nwait; i++)
                if (c->wait[i] == event) return true;
        }
    return false;
}

static bool overlaps(const void *p, size_t n, const char *base, size_t size) {
    const char *c = p;
    return p && n && c < base + size && base < c + n;
}

bool fake_ze_memory_in_use(const char *base, size_t size) {
    for (ze_command_list_handle_t l = lists; l; l = l->next)
        for (const command *c = l->head; c; c = c->next) {
            size_t n = c->kind == CMD_TIMESTAMP ? sizeof(uint64_t) : c->size;
            if (overlaps(c->dst, n, base, size) || overlaps(c->src, n, base, size)) return true;
        }
    return false;
}

/* ---- appending ----------------------------------------------------------------------------- */

/* Checks the handles of a command and queues it (taking a copy of the wait list). */
static ze_result_t enqueue(ze_command_list_handle_t list, command *proto, uint32_t nwait,
                           ze_event_handle_t *wait) {
    if (!list_ok(list)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (proto->signal && !fake_ze_event_ok(proto->signal)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (nwait > 0 && !wait) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    for (uint32_t i = 0; i < nwait; i++)
        if (!fake_ze_event_ok(wait[i])) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    command *c = malloc(sizeof *c);
    if (!c) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    *c = *proto;
    c->next = NULL;
    c->nwait = nwait;
    c->wait = NULL;
    if (nwait > 0) {
        c->wait = malloc(nwait * sizeof *c->wait);
        if (!c->wait) {
            free(c);
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        memcpy(c->wait, wait, nwait * sizeof *c->wait);
    }
    if (list->tail) list->tail->next = c;
    else list->head = c;
    list->tail = c;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeCommandListAppendBarrier(ze_command_list_handle_t list,
                                                       ze_event_handle_t signal, uint32_t nwait,
                                                       ze_event_handle_t *wait) {
    command c = {.kind = CMD_BARRIER, .signal = signal};
    return enqueue(list, &c, nwait, wait);
}

ze_result_t ZE_APICALL fake_zeCommandListAppendWaitOnEvents(ze_command_list_handle_t list,
                                                            uint32_t nevents,
                                                            ze_event_handle_t *events) {
    command c = {.kind = CMD_WAIT};
    return enqueue(list, &c, nevents, events);
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
    return enqueue(list, &c, nwait, wait);
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
    return enqueue(list, &c, nwait, wait);
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
    return enqueue(list, &c, nwait, wait);
}

/*
 * The fake driver's simulated device. Queued work (the scheduled streams: immediate lists and
 * command queues) runs only when the host looks (zeEventHostSynchronize, zeEventQueryStatus,
 * zeFenceHostSynchronize, zeCommandQueueSynchronize, ...), each stream in order, a command
 * waiting until its wait events are signalled. Work therefore really is pending while the
 * host goes on, as on a GPU, and the fake can catch what a GPU would punish silently:
 * destroying an event, kernel or list that queued commands still use, freeing memory they
 * still touch, resetting an event a command will signal (fake_ze_misuses()).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_ze.h"

static fake_ze_stream *streams; /* every scheduled stream */
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
    if (fake_ze_config_get()->strict) {
        fprintf(stderr, "fake_ze: FAKE_ZE_STRICT=1: aborting at the first misuse\n");
        abort();
    }
}

void fake_ze_stream_schedule(fake_ze_stream *stream) {
    stream->scheduled = true;
    stream->next = streams;
    streams = stream;
}

void fake_ze_stream_unschedule(fake_ze_stream *stream) {
    for (fake_ze_stream **link = &streams; *link; link = &(*link)->next)
        if (*link == stream) {
            *link = stream->next;
            break;
        }
    stream->scheduled = false;
}

void fake_ze_command_free(command *c) {
    if (!c) return;
    if (c->kind == CMD_KERNEL) fake_ze_launch_free(&c->launch);
    free(c->wait);
    free(c);
}

command *fake_ze_command_clone(const command *in) {
    command *c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = *in;
    c->next = NULL;
    c->wait = NULL;
    memset(&c->launch, 0, sizeof c->launch);
    if (in->nwait) {
        c->wait = malloc(in->nwait * sizeof *c->wait);
        if (!c->wait) {
            free(c);
            return NULL;
        }
        memcpy(c->wait, in->wait, in->nwait * sizeof *c->wait);
    }
    if (in->kind == CMD_KERNEL && !fake_ze_launch_copy(&c->launch, &in->launch)) {
        free(c->wait);
        free(c);
        return NULL;
    }
    return c;
}

/* ---- running -------------------------------------------------------------------------------- */

static bool ready(const command *c) {
    for (uint32_t i = 0; i < c->nwait; i++)
        if (!fake_ze_event_ok(c->wait[i]) || !c->wait[i]->signalled) return false;
    return true;
}

static void execute(const command *c) {
    uint64_t start = fake_ze_clock_now();
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
    case CMD_EVENT_RESET:
        if (fake_ze_event_ok(c->signal)) c->signal->signalled = false;
        else fake_ze_misuse("a queued event reset found the event destroyed");
        return; /* its event is reset, not signalled */
    case CMD_KERNEL: fake_ze_launch_run(&c->launch); break;
    case CMD_FENCE:
        if (fake_ze_fence_ok(c->fence)) c->fence->signalled = true;
        else fake_ze_misuse("a queued fence signal found the fence destroyed");
        break;
    }
    if (c->signal) {
        if (fake_ze_event_ok(c->signal)) {
            c->signal->signalled = true;
            c->signal->start = start;
            c->signal->end = fake_ze_clock_now();
        } else {
            fake_ze_misuse("a queued command signalled a destroyed event");
        }
    }
}

void fake_ze_run_pending(void) {
    bool progress = true;
    while (progress) {
        progress = false;
        for (fake_ze_stream *s = streams; s; s = s->next) {
            while (s->head && ready(s->head)) {
                command *c = s->head;
                s->head = c->next;
                if (!s->head) s->tail = NULL;
                execute(c);
                fake_ze_command_free(c);
                progress = true;
            }
        }
    }
}

/* ---- what queued work still uses ------------------------------------------------------------ */

#define EACH_QUEUED(c)                                                                           \
    for (fake_ze_stream *s_ = streams; s_; s_ = s_->next)                                       \
        for (const command *c = s_->head; c; c = c->next)

bool fake_ze_event_in_use(ze_event_handle_t event) {
    EACH_QUEUED(c) {
        if (c->signal == event) return true;
        for (uint32_t i = 0; i < c->nwait; i++)
            if (c->wait[i] == event) return true;
    }
    return false;
}

bool fake_ze_fence_in_use(ze_fence_handle_t fence) {
    EACH_QUEUED(c) if (c->kind == CMD_FENCE && c->fence == fence) return true;
    return false;
}

bool fake_ze_kernel_in_use(ze_kernel_handle_t kernel) {
    EACH_QUEUED(c) if (c->kind == CMD_KERNEL && c->launch.kernel == kernel) return true;
    return false;
}

bool fake_ze_list_in_use(ze_command_list_handle_t list) {
    EACH_QUEUED(c) if (c->source == list) return true;
    return false;
}

static bool overlaps(const void *p, size_t n, const char *base, size_t size) {
    const char *c = p;
    return p && n && c < base + size && base < c + n;
}

bool fake_ze_memory_in_use(const char *base, size_t size) {
    EACH_QUEUED(c) {
        if (c->kind == CMD_KERNEL) {
            /* A kernel may touch anything reachable from its pointer arguments; an argument
             * inside the allocation is enough to call the allocation in use. */
            const fake_ze_launch *l = &c->launch;
            for (uint32_t i = 0; i < l->nargs; i++)
                if (l->args[i].kind == FAKE_ZE_PARAM_GLOBAL &&
                    overlaps(l->args[i].pointer, 1, base, size))
                    return true;
            continue;
        }
        size_t n = c->kind == CMD_TIMESTAMP ? sizeof(uint64_t) : c->size;
        if (overlaps(c->dst, n, base, size) || overlaps(c->src, n, base, size)) return true;
    }
    return false;
}

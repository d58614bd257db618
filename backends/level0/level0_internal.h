/*
 * Shared state of the Level Zero backend: the device list built by load() and the structs
 * behind the opaque backend handles. Private to backends/level0/.
 *
 * Design (the simplest one that keeps runtime/backend/backend.h's rules):
 *   - A queue is one IMMEDIATE command list (asynchronous mode) on the device's first compute
 *     queue group: commands start as they are appended, with no command-queue/fence
 *     bookkeeping. Level Zero only orders the START of commands in a list, so every appended
 *     command is followed by a barrier; that makes the list in order, as backend.h requires.
 *   - Synchronisation is by events, not fences (fences belong to command queues, which
 *     immediate lists do not expose): each queue owns one host-visible "idle" event; finishing
 *     the queue appends a barrier that signals it, waits on the host and resets it.
 *   - A recorded event is a host-visible event signalled by
 *     zeCommandListAppendWriteGlobalTimestamp, which writes the device's global timestamp into
 *     a small host allocation when the queue reaches it; elapsed time is the difference of two
 *     such stamps (masked to timestampValidBits) times timerResolution (nanoseconds per tick,
 *     as queried with ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES).
 *   - Host<->device copies pass the caller's pageable pointer straight to
 *     zeCommandListAppendMemoryCopy and block until the queue is idle (Intel's driver stages
 *     such pointers itself).
 *   - Level Zero objects must not be destroyed while the device may still use them, but the
 *     runtime destroys an event right after making another queue wait on it and frees buffers
 *     as CUDA and OpenCL allow. So event_destroy only RETIRES an event: it remembers how many
 *     commands each queue of the context had appended, and the event is destroyed once every
 *     one of those queues has been finished past that point (checked at each queue_finish,
 *     and at the latest when the context goes). mem_free finishes the context's queues before
 *     zeMemFree, which is what cudaFree does too.
 */
#ifndef MAGNUS_LEVEL0_INTERNAL_H
#define MAGNUS_LEVEL0_INTERNAL_H

#include "backend.h"
#include "backend_functions.h"
#include "internal.h"

/* zeInit and the device list (level0_device.c). Built without level_zero/ze_api.h, load()
 * always fails and says why, and these two are all the backend has. */
magnus_status level0_load(void);
void level0_unload(void);

#ifdef MAGNUS_HAVE_LEVEL0_HEADERS

#include "level0_loader.h"

/* One usable device found by load(). */
typedef struct level0_device {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    magnus_device_info info;
    double ns_per_tick;        /* timerResolution */
    uint64_t timestamp_mask;   /* (1 << timestampValidBits) - 1 */
    uint64_t max_alloc_bytes;  /* maxMemAllocSize: beyond it, allocations ask for relaxed limits */
    uint32_t max_group_count;  /* maxGroupCountX */
} level0_device;

/* The devices of every driver, in driver order then device order; filled by load(). */
extern level0_device *level0_devices;
extern int level0_device_count;

/* Queues a context tracks, for retiring events and draining before frees. */
#define LEVEL0_MAX_QUEUES 16

struct magnus_bctx {
    const level0_device *dev;
    ze_context_handle_t context;
    uint32_t compute_ordinal;                   /* command queue group used for every queue */
    magnus_bqueue *queues[LEVEL0_MAX_QUEUES];   /* live queues by slot; NULL: free slot */
    magnus_bevent *retired;                     /* destroyed by the runtime, maybe still in use */
};

struct magnus_bqueue {
    magnus_bctx *ctx;
    int slot;                      /* index in ctx->queues */
    ze_command_list_handle_t list; /* immediate */
    ze_event_pool_handle_t pool;
    ze_event_handle_t idle;        /* signalled by queue_finish's barrier */
    uint64_t appended;             /* commands appended so far */
    uint64_t finished;             /* of those, how many are known complete */
};

struct magnus_bmem {
    void *ptr; /* device USM pointer: kernels receive it by value */
    size_t bytes;
};

struct magnus_bmodule {
    magnus_bctx *ctx;
    ze_module_handle_t module;
};

struct magnus_bkernel {
    ze_kernel_handle_t kernel;
    uint32_t group_size; /* last zeKernelSetGroupSize, 0 before the first */
};

struct magnus_bevent {
    magnus_bctx *ctx;
    ze_event_pool_handle_t pool;
    ze_event_handle_t event;
    uint64_t *timestamp;                  /* host USM; written by the device */
    uint64_t needs[LEVEL0_MAX_QUEUES];    /* once retired: queue slot -> commands to finish */
    magnus_bevent *next_retired;
};

/* Devices (level0_device.c) */
magnus_status level0_device_count_get(int *count);
magnus_status level0_device_info(int index, magnus_device_info *info);

/* Queues (level0_context.c) */
/* Appends the barrier that keeps the immediate list in order; `what` names the command. Every
 * appended command goes through it (or level0_queue_appended), so q->appended counts them. */
magnus_status level0_queue_order(magnus_bqueue *q, const char *what);
void level0_queue_appended(magnus_bqueue *q);
/* Finishes every queue of the context (before zeMemFree); returns the first failure. */
magnus_status level0_context_drain(magnus_bctx *ctx);

/* Events (level0_event.c) */
/* Destroys the retired events no queue can still reach (all: every one, at context end). */
void level0_events_reclaim(magnus_bctx *ctx, bool all);

/* A host-visible event pool of one event (used by queues and recorded events). */
magnus_status level0_single_event_create(magnus_bctx *ctx, ze_event_pool_handle_t *pool,
                                         ze_event_handle_t *event);
void level0_single_event_destroy(ze_event_pool_handle_t pool, ze_event_handle_t event);

/* The ops table's functions (runtime/backend/backend_functions.h), by file: level0_context.c
 * contexts and queues, level0_memory.c memory, level0_module.c modules, kernels and launches,
 * level0_event.c events (event_destroy retires the event). */
MAGNUS_BACKEND_DECLARE_FUNCTIONS(level0);

#endif /* MAGNUS_HAVE_LEVEL0_HEADERS */

#endif

/*
 * The backend-agnostic device runtime used by the scheduler (runtime/spgemm_*.c) and the
 * primitives: contexts with several queues, accounted device buffers, kernel lookup and
 * launch by name. Internal; built on runtime/backend/backend.h.
 */
#ifndef MAGNUS_DEVICE_RUNTIME_H
#define MAGNUS_DEVICE_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "device_handles.h"
#include "internal.h"
#include "kernel_ids.h"

#define MAGNUS_MAGIC_CONTEXT 0x6d61676e63747831ULL /* "magnctx1" */

/*
 * The local-memory budget per work group a context uses when neither its options nor
 * MAGNUS_LOCAL_MEM_BYTES set one: min(the device's local memory, this). The budget is a tuning
 * choice (docs/algorithm.md §5), not a device property: a work group that takes all of an SM's
 * shared memory leaves one or two groups per SM. Measured on the H200 through CUDA
 * (docs/performance.md): 48 KiB beat the device's whole 227 KiB on 5 of 6 inputs (geomean
 * against cuSPARSE 0.94x vs 0.80x; rmat-s18-a4-b8 47.3 vs 66.4 ms, soc-Slashdot0902 13.9 vs
 * 17.0 ms; only vsp_befref_fxm_2_4_air02 was faster with 227 KiB, 6.8 vs 8.6 ms), and the
 * gMAGNUS paper ran the H200 with 48 KiB (its Table VI reproduces with it). Any budget up to
 * the device's can still be asked for.
 */
#define MAGNUS_DEFAULT_LOCAL_MEM_BUDGET ((uint64_t)48 * 1024)

/* Queues of a context: heavy and light work run on their own queues so they overlap. */
typedef enum magnus_queue_id {
    MAGNUS_QUEUE_MAIN = 0,
    MAGNUS_QUEUE_HEAVY = 1,
    MAGNUS_QUEUE_LIGHT = 2,
    MAGNUS_QUEUE_COUNT = 3
} magnus_queue_id;

/* An accounted device buffer. A zero-byte buffer is valid and has mem == NULL only if the
 * backend cannot allocate 0 bytes; the runtime always allocates at least 1 byte. */
typedef struct magnus_dbuf {
    magnus_bmem *mem;
    size_t bytes;
} magnus_dbuf;


/* A small read-only table uploaded once per context (runtime/device/context_constants.c). */
#define MAGNUS_MAX_CONSTANTS 32
#define MAGNUS_CONSTANT_MAX_BYTES 512
typedef struct magnus_context_constant_s {
    magnus_dbuf buf;
    size_t bytes;
    unsigned char data[MAGNUS_CONSTANT_MAX_BYTES]; /* the host copy it is matched by */
} magnus_context_constant_s;

/* A device block the context holds for reuse (runtime/device/device_pool.c). */
typedef struct magnus_pool_block {
    magnus_bmem *mem;
    size_t bytes;
} magnus_pool_block;
/* Blocks up to this size ("small") are always cached when freed. Larger ones (C-hat, C) are
 * cached only when the backend's allocator keeps nothing of its own (device_pool.c). */
#define MAGNUS_POOL_MAX_BLOCK ((size_t)64 << 20)
/* Most bytes, and blocks, of small blocks kept ready when the context goes idle (the oldest
 * beyond go back; the block cap keeps each lookup, a scan of the list, cheap). */
#define MAGNUS_POOL_CACHE_BYTES ((uint64_t)512 << 20)
#define MAGNUS_POOL_CACHE_BLOCKS 1024
/* Large blocks kept ready: at most a quarter of the device's memory (of the context's memory
 * limit, when it has one), in at most this many blocks. */
#define MAGNUS_POOL_LARGE_SHARE 4
#define MAGNUS_POOL_LARGE_BLOCKS 16

/* An algorithm's knobs (runtime/spgemm/<algorithm>/, or an accumulator's): the options and environment variables
 * only it reads, kept in a slot of the context that the context holds without knowing what is
 * in it. The way backend.h lists the backends' tables, this list names each algorithm's
 * reader; the algorithm defines it in its own folder, with the struct it stores, which must
 * fit MAGNUS_KNOB_BYTES. magnus_context_settings calls every reader once. */
#define MAGNUS_KNOB_BYTES 64
typedef union magnus_knob_slot {
    max_align_t align;
    unsigned char bytes[MAGNUS_KNOB_BYTES];
} magnus_knob_slot;
typedef enum magnus_knobs_id {
    MAGNUS_KNOBS_ACCUMULATE,
    MAGNUS_KNOBS_GMAGNUS,
    MAGNUS_KNOBS_DENSE_ROWS,
    MAGNUS_KNOBS_COUNT
} magnus_knobs_id;
struct magnus_context_s;
typedef struct magnus_knob_reader {
    const char *algorithm;
    /* Fills `knobs` (a zeroed slot) from `opt` and the environment; c's device (with the
     * budget), device_local_mem_bytes and memory_limit are set. *launch_local (0 on entry):
     * the most local bytes its launches may ask, when more than the budget.
     * MAGNUS_ERROR_INVALID_ARGUMENT, naming the option or the variable, for a bad value. */
    magnus_status (*read)(void *knobs, uint64_t *launch_local, const struct magnus_context_s *c,
                          const magnus_context_options *opt);
} magnus_knob_reader;
extern const magnus_knob_reader magnus_knobs_accumulate; /* runtime/accumulate */
extern const magnus_knob_reader magnus_knobs_gmagnus;    /* runtime/spgemm/gmagnus */
extern const magnus_knob_reader magnus_knobs_dense_rows; /* runtime/accumulate/dense */

struct magnus_context_s {
    uint64_t magic;
    const magnus_backend_ops *ops;
    magnus_device_info device;        /* local_mem_bytes is the budget in effect: the option,
                                         MAGNUS_LOCAL_MEM_BYTES, or magnus_default_local_budget */
    uint64_t device_local_mem_bytes;  /* what the device itself offers */
    magnus_bctx *bctx;
    magnus_bqueue *queues[MAGNUS_QUEUE_COUNT];
    magnus_bmodule *modules[MAGNUS_VARIANT_COUNT]; /* loaded lazily */
    struct {
        magnus_bkernel *kernel;       /* NULL until the kernel's first use */
        magnus_kernel_limits limits;  /* asked once, before the kernel's first launch */
        int local_share;              /* the split of local memory and cache last asked for
                                         (magnus_kernel_local_share); -1: never asked (set
                                         when the kernel is loaded) */
    } kernels[MAGNUS_VARIANT_COUNT][MAGNUS_KERNEL_COUNT]; /* by variant and id */
    uint64_t memory_limit;            /* 0: none */
    uint64_t memory_in_use;
    uint64_t memory_peak;
    uint64_t memory_reserved_peak;    /* most the backend's allocator held (ops->mem_reserved),
                                         since the last magnus_context_reset_peak */
    /* Tuning knobs, read once by magnus_context_create (magnus_knob_*); the algorithms'
     * own ones are in knobs[], below: */
    uint32_t hash_group_max;          /* most work items per hash table; 0: the backend's
                                         default (runtime/accumulate/hash_private.h) */
    uint32_t preload_kernels;         /* 1: every kernel loaded at creation (magnus_knob_preload) */
    uint32_t scan_one_group_tiles;    /* a scan of at most this many tiles runs in one work group,
                                         one launch (magnus_knob_scan_one_group) */
    double kernel_load_ms;            /* host time spent loading modules and kernels so far */
    /* Each algorithm's knobs (and the hash accumulator's), read once with the others by its
     * magnus_knob_reader and held here without the context knowing their layout (the
     * owner's own header does). */
    magnus_knob_slot knobs[MAGNUS_KNOBS_COUNT];
    uint64_t launch_local_limit;      /* the most local bytes a launch may ask: the budget, or
                                         more where a knob reader asks (the hash
                                         accumulator's wide bins and dense rows) */
    magnus_build_notice build_notice; /* the options' build_progress, told by module_load */
    /* Buffers freed at the next idle point (magnus_dbuf_free_deferred); their bytes are
     * still in memory_in_use. */
    magnus_dbuf *deferred;
    size_t ndeferred, deferred_capacity;
    uint64_t deferred_bytes;
    /* Freed blocks kept for reuse (runtime/device/device_pool.c): pending until every queue
     * has been waited for, then ready. memory_pooled = their bytes (held, not in use). */
    magnus_pool_block *pool_ready, *pool_pending;
    size_t pool_nready, pool_ready_capacity, pool_npending, pool_pending_capacity;
    uint64_t pool_ready_bytes;
    uint64_t memory_pooled;
    /* Tables kernels read, uploaded once (magnus_context_constant); not in memory_in_use */
    magnus_context_constant_s constants[MAGNUS_MAX_CONSTANTS];
    int nconstants;
    /* MAGNUS_TRACE's timeline (runtime/device/trace.c); NULL: off */
    FILE *trace;
    int trace_owned;
    double trace_t0;
    /* MAGNUS_TRACE_DEVICE's launch times on the device (trace.c); NULL: off */
    struct magnus_trace_device_s *trace_device;
};

/* The host clock of the report's times and the trace, in milliseconds (monotonic; only
 * differences count). */
static inline double magnus_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/*
 * The host timeline of MAGNUS_TRACE (runtime/device/trace.c): opened by magnus_context_create,
 * closed by magnus_context_free; magnus_trace_mark restarts the clock (each multiply);
 * magnus_trace_event writes one event that began at start_ms (magnus_now_ms) and ends now.
 * MAGNUS_TRACE_START gives the start time only when tracing, so that untraced calls read no
 * clock.
 */
void magnus_trace_open(magnus_context ctx);
void magnus_trace_close(magnus_context ctx);
void magnus_trace_mark(magnus_context ctx, const char *what);
void magnus_trace_event(magnus_context ctx, const char *kind, const char *what, double start_ms,
                        uint64_t bytes);
/* With MAGNUS_TRACE_DEVICE=1 as well: an event before and after each launch on its queue
 * (launch.c calls the pair), written as "dtrace" lines when the queues are idle
 * (magnus_trace_device_flush: the end of each multiply, the next mark, the context's end).
 * Off, both cost one branch. */
magnus_bevent *magnus_trace_device_before(magnus_context ctx, magnus_queue_id q);
void magnus_trace_device_after(magnus_context ctx, magnus_queue_id q, const char *name,
                               size_t groups, magnus_bevent *before);
void magnus_trace_device_flush(magnus_context ctx);
#define MAGNUS_TRACE_START(ctx) ((ctx)->trace ? magnus_now_ms() : 0.0)

/* NULL -> MAGNUS_ERROR_NULL_POINTER, freed or foreign -> MAGNUS_ERROR_INVALID_HANDLE. */
magnus_status magnus_context_check(const magnus_context_s *ctx);
/* The ops of the backend `kind`, loading its vendor library if needed (runtime/device/device.c). */
magnus_status magnus_backend_get(magnus_backend_kind kind, const magnus_backend_ops **ops);
/* Index of the best of `count` devices (of backend `backend` only, unless 0): GPUs before CPUs,
 * then the lower backend_rank (position in MAGNUS_BACKENDS), then the larger local memory,
 * then the earlier entry; -1 when none qualifies. */
long magnus_device_pick_best(const magnus_device_info *devices, const int *backend_rank,
                             size_t count, int backend);
/* Device specs (runtime/device/device_spec.c, whose top gives the grammar): the index into
 * devices[0..count) of the device `spec` names, backend_rank as for magnus_device_pick_best
 * (NULL: all 0). MAGNUS_ERROR_INVALID_ARGUMENT for a malformed spec, MAGNUS_ERROR_NO_DEVICE
 * when none or several differently named devices match; the detail lists the devices. Lists
 * are read up to MAGNUS_SPEC_MAX_DEVICES entries. */
#define MAGNUS_SPEC_MAX_DEVICES 64
magnus_status magnus_device_spec_match(long *index, const magnus_device_info *devices,
                                       const int *backend_rank, size_t count, const char *spec);
/* The budget a context on a device with `device_local_mem_bytes` of local memory per work group
 * uses by default: min(device, MAGNUS_DEFAULT_LOCAL_MEM_BUDGET). */
uint64_t magnus_default_local_budget(uint64_t device_local_mem_bytes);
/* The settings a context on `info` (as probed: local_mem_bytes is the device's own) takes from
 * `opt` and the environment, written into *c without touching the backend: device (with the
 * budget), device_local_mem_bytes and the knobs (runtime/device/context.c). A zeroed context
 * so filled, never created, serves parameter computations for a device only described. */
magnus_status magnus_context_settings(magnus_context_s *c, const magnus_device_info *info,
                                      const magnus_context_options *opt);

/* A context's tuning knobs (runtime/device/context_knobs.c): the option when nonzero, else
 * the environment variable (MAGNUS_HASH_GROUP_MAX) when set, else 0 (the default).
 * MAGNUS_ERROR_INVALID_ARGUMENT, naming the option or the variable, when the value is not a
 * power of two from 8 to device_limit. */
magnus_status magnus_knob_hash_group_max(uint64_t option, uint64_t device_limit, uint32_t *out);
/* The same rule for any such knob: option_name and variable name it in the message. */
magnus_status magnus_knob_pow2(uint64_t option, const char *option_name, const char *variable,
                               uint64_t device_limit, uint32_t *out);
/* A size in bytes: the option if nonzero, else the environment variable if set (65536, 48K,
 * 512M, 2G), else 0; MAGNUS_ERROR_INVALID_ARGUMENT naming the variable otherwise. */
magnus_status magnus_knob_size(uint64_t option, const char *variable, uint64_t *out);

/* An unsigned integer environment variable in [lo, hi] (or exactly 0 when zero_ok): *out
 * unchanged when it is unset or empty; MAGNUS_ERROR_INVALID_ARGUMENT naming it otherwise. */
magnus_status magnus_env_uint(const char *variable, uint64_t lo, uint64_t hi, bool zero_ok,
                              uint64_t *out);

/* MAGNUS_PRELOAD_KERNELS (0 or 1; default: the backend's preload_kernels, true for CUDA's
 * prebuilt modules): whether magnus_context_create loads every kernel of the float32 module
 * (and of the float64 one on fp64 devices) up front, so that the first multiply does not
 * (runtime/device/launch.c). */
magnus_status magnus_knob_preload(uint32_t *preload, bool backend_default);
/* MAGNUS_URGENT_LIGHT (0 or 1, default 1): whether the light queue is created urgent
 * (backend.h queue_create), so that the light rows' short kernels, and the binning whose
 * read the host waits for, start between the blocks of a heavy grid queued before them
 * instead of after its last block (docs/performance.md, "The light queue first"). */
magnus_status magnus_knob_urgent_light(uint32_t *urgent);
/* MAGNUS_SCAN_ONE_GROUP_TILES (0 to 65536; 0 or unset: one tile, the default): the most tiles
 * a device scan runs in one work group that walks them in order, one launch instead of three
 * (reduce, scan of the sums, tiles), for short scans where the launches cost more than the
 * walk. Off because 8 measured slower through NVIDIA's OpenCL and no faster through CUDA on
 * the H100 (docs/performance.md, "Short scans in one launch"). */
magnus_status magnus_knob_scan_one_group(uint32_t *tiles);
/* Looks up (loads, on first use) every kernel of `variant`'s module into ctx's cache. */
magnus_status magnus_context_preload(magnus_context ctx, magnus_kernel_variant variant);

/* Device memory, accounted against the context's limit (MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY,
 * with the sizes in the message, when it would be exceeded or the device refuses). */
magnus_status magnus_dbuf_alloc(magnus_context ctx, size_t bytes, magnus_dbuf *out);
void magnus_dbuf_free(magnus_context ctx, magnus_dbuf *buf); /* NULL mem: no-op; clears *buf */

/*
 * Deferred freeing (runtime/device/deferred_free.c), for a buffer that work queued on any
 * queue may still read: *buf moves to the context (cleared; NULL mem: no-op) and is freed at
 * the next point where the context is known idle:
 *   - magnus_context_finish, once every queue has finished without error;
 *   - magnus_context_finish_after_error, after its waits (whatever they report);
 *   - magnus_context_release_deferred, which the caller may use only when no queued work
 *     reads a deferred buffer (it has waited for every queue that used one);
 *   - magnus_context_free, after it has waited for the queues.
 * Never waits, and never fails: the list grows as needed (without host memory for it the
 * buffer is freed at once, which the backends make safe, backend.h). Accounting: a deferred
 * buffer's bytes still count in memory_in_use (and so against the memory limit) until it is
 * freed, since the device memory is still held; ctx->deferred_bytes says how many of them are
 * deferred.
 */
void magnus_dbuf_free_deferred(magnus_context ctx, magnus_dbuf *buf);
/* Frees every deferred buffer now (see above for when that is allowed). */
magnus_status magnus_context_release_deferred(magnus_context ctx);
/*
 * A device buffer holding `bytes` (1 to MAGNUS_CONSTANT_MAX_BYTES) equal to data, for kernels
 * to read only (runtime/device/context_constants.c): the first call with these bytes uploads
 * them (a write on queue MAIN, which waits), later calls return the same buffer without any
 * device work. *out stays valid until the context is freed, or until a call finds the table
 * full (it then waits for every queue and starts afresh): use it for the launches of one
 * phase, and ask again in the next. Not counted in memory_in_use.
 */
magnus_status magnus_context_constant(const magnus_dbuf **out, magnus_context ctx,
                                      const void *data, size_t bytes);
/* Frees the tables (context_release, and a full table, after the queues are idle). */
void magnus_context_constants_free(magnus_context ctx);
/* Host to device and back. Both wait: they return when the bytes have been copied, after
 * everything queued on q before them (so a read sees the queue's earlier work). */
magnus_status magnus_dbuf_write(magnus_context ctx, magnus_queue_id q, magnus_dbuf *dst,
                                size_t dst_offset, const void *src, size_t bytes);
magnus_status magnus_dbuf_read(magnus_context ctx, magnus_queue_id q, void *dst,
                               const magnus_dbuf *src, size_t src_offset, size_t bytes);
/* Device to device, queued on q (no wait). */
magnus_status magnus_dbuf_copy(magnus_context ctx, magnus_queue_id q, magnus_dbuf *dst,
                               size_t dst_offset, const magnus_dbuf *src, size_t src_offset,
                               size_t bytes);
/* Queued on q (no wait). */
magnus_status magnus_dbuf_fill(magnus_context ctx, magnus_queue_id q, magnus_dbuf *dst,
                               size_t offset, const void *pattern, size_t pattern_bytes,
                               size_t bytes);
/* Resets the peak counter to what is held now (per-multiply peak reports). The peak counts
 * what the context holds from the device: buffers in use and cached blocks. */
void magnus_context_reset_peak(magnus_context ctx);
/* What the backend's allocator holds for the context now (ops->mem_reserved; 0 when it keeps
 * nothing of its own or the query fails). */
uint64_t magnus_context_reserved_bytes(const magnus_context_s *ctx);

/*
 * The block cache behind magnus_dbuf_alloc and magnus_dbuf_free (runtime/device/device_pool.c).
 *   magnus_pool_take         a ready block of exactly `bytes`, or NULL; a large request that
 *                            finds none gives the ready large blocks back first
 *   magnus_pool_put          caches a freed block of `bytes` as pending (0: not cacheable, or
 *                            no host memory for the list: the caller frees it)
 *   magnus_pool_idle         pending -> ready, then the small and the large ready blocks
 *                            trimmed to their caps; only when no queued work can read a
 *                            pending block (every queue waited for: magnus_context_finish)
 *   magnus_pool_evict_ready  frees every ready block (under memory pressure)
 *   magnus_pool_release      frees everything (context teardown, queues idle)
 */
magnus_bmem *magnus_pool_take(magnus_context ctx, size_t bytes);
int magnus_pool_put(magnus_context ctx, magnus_bmem *mem, size_t bytes);
void magnus_pool_idle(magnus_context ctx);
void magnus_pool_evict_ready(magnus_context ctx);
void magnus_pool_release(magnus_context ctx);

/* Kernel arguments. */
static inline magnus_karg magnus_arg_mem(const magnus_dbuf *b) {
    magnus_karg a = {.kind = MAGNUS_KARG_MEM, .size = 0};
    a.u.mem = b->mem;
    return a;
}
/* magnus_arg_i32(v) ... magnus_arg_f64(v): a scalar passed by value, 4 or 8 bytes */
#define MAGNUS_ARG_VALUE(name, type, bytes)                                                        \
    static inline magnus_karg magnus_arg_##name(type v) {                                          \
        magnus_karg a = {.kind = MAGNUS_KARG_VALUE, .size = bytes};                                \
        a.u.name = v;                                                                              \
        return a;                                                                                  \
    }
MAGNUS_ARG_VALUE(i32, int32_t, 4)
MAGNUS_ARG_VALUE(u32, uint32_t, 4)
MAGNUS_ARG_VALUE(i64, int64_t, 8)
MAGNUS_ARG_VALUE(u64, uint64_t, 8)
MAGNUS_ARG_VALUE(f32, float, 4)
MAGNUS_ARG_VALUE(f64, double, 8)
#undef MAGNUS_ARG_VALUE

/*
 * Launches kernel `kernel` (kernel_ids.h) of the given variant on queue q: `groups` work groups
 * of `group_size` items, `local_bytes` of dynamic local memory. groups == 0 is a no-op.
 * The kernel's module is loaded on first use; the kernel is cached by id.
 */
magnus_status magnus_launch(magnus_context ctx, magnus_queue_id q, magnus_kernel_variant variant,
                            magnus_kernel_id kernel, size_t groups, size_t group_size,
                            size_t local_bytes, int nargs, const magnus_karg *args);

/*
 * What kernel `kernel` of `variant` allows on the context's device (magnus_kernel_limits in
 * core/device_handles.h): its largest work group and its own local memory, so a caller can
 * size a launch from the kernel rather than from what it knows of a vendor. Loads the module
 * and the kernel like a launch would; a kernel the module lacks is MAGNUS_ERROR_KERNEL_BUILD.
 */
magnus_status magnus_kernel_limits_get(magnus_kernel_limits *out, magnus_context ctx,
                                       magnus_kernel_variant variant, magnus_kernel_id kernel);

/*
 * Asks that kernel `kernel` of `variant` run with local_percent (-1: the driver's choice,
 * 0..100) of the most local memory its compute unit can have, the rest its L1 cache
 * (backend.h, kernel_local_share: a hint, results never change; OpenCL ignores it). Loads the
 * kernel like a launch would; asks the backend only when the value differs from the last one
 * asked for this kernel in the context (kept beside its cache entry; none at first: -1), so
 * a repeated call costs an array read.
 */
magnus_status magnus_kernel_local_share(magnus_context ctx, magnus_kernel_variant variant,
                                        magnus_kernel_id kernel, int local_percent);

/* Builds or loads the kernel module of `variant` now rather than at its first launch (to
 * report MAGNUS_ERROR_KERNEL_BUILD or FEATURE_UNSUPPORTED early, or to keep build time out
 * of a timed region). */
magnus_status magnus_context_load_module(magnus_context ctx, magnus_kernel_variant variant);

/* A live context and one of its queues; errors name `what` (the caller). */
magnus_status magnus_queue_check(magnus_context ctx, magnus_queue_id q, const char *what);
/* Waits for all work on one queue / on every queue; magnus_context_finish then frees the
 * deferred buffers (magnus_dbuf_free_deferred) if every wait succeeded. */
magnus_status magnus_queue_finish(magnus_context ctx, magnus_queue_id q);
magnus_status magnus_context_finish(magnus_context ctx);
/* After error `s`: waits for every queue (queued work may still use buffers about to be
 * freed), frees the deferred buffers and returns s with its detail message, whatever the
 * waits report. */
magnus_status magnus_context_finish_after_error(magnus_context ctx, magnus_status s);
/* Makes queue `waiter` wait for everything submitted so far to queue `signaller`. */
magnus_status magnus_queue_depend(magnus_context ctx, magnus_queue_id waiter,
                                  magnus_queue_id signaller);
/* Makes queues a and b both wait for everything submitted so far to `signaller`, through one
 * recorded event (through OpenCL an event is a marker and a flush: one, not two). A waiter
 * that is the signaller, or the same as the other, waits once or not at all. */
magnus_status magnus_queue_fork(magnus_context ctx, magnus_queue_id signaller, magnus_queue_id a,
                                magnus_queue_id b);

/* Host-side timing of device work: two recorded points in a queue. off: start and stop
 * record nothing and the elapsed time is 0, for a phase whose time nobody asked for (each
 * recorded event costs the host 2-5 us through CUDA, 11-16 us through NVIDIA's OpenCL:
 * docs/vendors.md). */
typedef struct magnus_timer {
    magnus_bevent *start, *end;
    bool off;
} magnus_timer;
magnus_status magnus_timer_start(magnus_context ctx, magnus_queue_id q, magnus_timer *t);
magnus_status magnus_timer_stop(magnus_context ctx, magnus_queue_id q, magnus_timer *t);
/* Waits for the end event; returns the elapsed milliseconds and destroys both events. */
magnus_status magnus_timer_elapsed_ms(magnus_context ctx, magnus_timer *t, double *ms);
/* Destroys whatever events t holds, without waiting (an error path: the caller has waited for
 * the queues first); t is empty afterwards. */
void magnus_timer_discard(magnus_context ctx, magnus_timer *t);

/* ---- device-resident CSR (the public magnus_device_csr handle) ---- */
#define MAGNUS_MAGIC_DEVICE_CSR 0x6d61676e64637372ULL /* "magndcsr" */
struct magnus_device_csr_s {
    uint64_t magic;
    magnus_context ctx;
    int64_t rows, cols, nnz;
    magnus_value_type type;
    magnus_dbuf row_ptr; /* int64, rows+1 */
    magnus_dbuf col_idx; /* int32, nnz */
    magnus_dbuf values;  /* float or double, nnz */
    /* magnus_device_csr_fingerprint's value, once known (set at the public upload from the
     * host arrays and by a wrap's check on the device, else computed on the device on first
     * use) */
    uint64_t fingerprint;
    int fingerprint_known;
    /* magnus_device_csr_wrap: which arrays are the caller's (bit 0 row_ptr, 1 col_idx,
     * 2 values), dropped with ops->mem_unwrap instead of freed; not counted as in use */
    unsigned borrowed;
};

static inline magnus_kernel_variant magnus_variant_of(magnus_value_type t) {
    return t == MAGNUS_FLOAT64 ? MAGNUS_VARIANT_F64 : MAGNUS_VARIANT_F32;
}

#endif

/*
 * Devices and contexts, and the device's copy bandwidth (`magnus bench`).
 * Part of the public API: include <magnus/magnus.h>, which includes every part; the conventions
 * (outputs first, magnus_X_free, magnus_last_error, thread safety) are stated there.
 */
#ifndef MAGNUS_DEVICE_H
#define MAGNUS_DEVICE_H

#include "magnus_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------
 * Devices and contexts
 * ------------------------------------------------------------------------------------------ */
typedef enum magnus_backend_kind {
    MAGNUS_BACKEND_CUDA = 1,   /* CUDA Driver API (libcuda.so.1), kernels as fatbin/PTX */
    MAGNUS_BACKEND_LEVEL0 = 2, /* oneAPI Level Zero (libze_loader.so.1), kernels as SPIR-V */
    MAGNUS_BACKEND_OPENCL = 3  /* any OpenCL 1.2+ device (libOpenCL.so.1), kernels as OpenCL C */
} magnus_backend_kind;

/* "cuda", "level0", "opencl" (the names MAGNUS_BACKENDS uses); "unknown" otherwise. */
MAGNUS_API const char *magnus_backend_name(magnus_backend_kind kind);

typedef struct magnus_device_info {
    magnus_backend_kind backend;
    int index;                   /* index within its backend */
    char name[256];
    char vendor[128];
    char driver_version[128];
    uint64_t global_mem_bytes;
    uint64_t local_mem_bytes;    /* local (shared) memory one work group can use: CUDA's
                                    opt-in maximum per block, OpenCL's CL_DEVICE_LOCAL_MEM_SIZE,
                                    Level Zero's maxSharedLocalMemory */
    int compute_units;
    int subgroup_sizes[8];
    int num_subgroup_sizes;
    uint64_t max_work_group_size;
    int fp64;                    /* double precision arithmetic */
    int atomic64;                /* 64-bit integer atomics on global and local memory */
    int is_cpu;                  /* a CPU device (PoCL): the last choice for "best" */
    uint64_t max_alloc_bytes;    /* largest single buffer the device allows (OpenCL's
                                    CL_DEVICE_MAX_MEM_ALLOC_SIZE); 0: global_mem_bytes */
    uint64_t wide_group_size;    /* the widest work group the backend vouches for, before a
                                    kernel is built, for kernels of few registers: 1024 through
                                    CUDA (an SM holds 1024 threads of up to 64 registers), 256
                                    through OpenCL and Level Zero (a kernel's own limit is known
                                    only once it is built); 0: 256. Launches stay within each
                                    kernel's own limit too (magnus_kernel_limits_get) */
} magnus_device_info;

/*
 * Lists every device of every backend whose vendor library loads, in backend order
 * (MAGNUS_BACKENDS, a comma-separated list of backend names, selects and orders them;
 * default "cuda,level0,opencl"). Writes at most `capacity` entries to `devices` (which may be
 * NULL when capacity is 0) and the total number found to *count. A backend that is missing or
 * broken is skipped; magnus_probe_diagnostics() says why. Finding no device is not an error.
 */
MAGNUS_API magnus_status magnus_device_probe(magnus_device_info *devices, size_t capacity,
                                             size_t *count);
/* One line per backend tried: loaded with N devices, or why it was skipped. Valid until the
 * next probe. */
MAGNUS_API const char *magnus_probe_diagnostics(void);
/*
 * Device specs: how MAGNUS_DEVICE, magnus_device_find and magnus_device_match (and the tool's
 * --device) name a device. Words are case-insensitive; blanks around them are ignored.
 *   N              the N-th device of the probe list ("0")
 *   gpu | cpu      the best device of that type (a "GPU" is any device that is not a CPU)
 *   BACKEND        the best device of that backend: cuda, level0 or opencl
 *   BACKEND:N      device N in that backend's own numbering ("opencl:1")
 *   BACKEND:gpu    the best device of that backend and type ("opencl:cpu")
 *   BACKEND:TEXT   a device of that backend whose name or vendor contains TEXT ("opencl:nvidia")
 *   TEXT           the same over every backend ("h200", "pthread")
 * Indices follow the vendor's enumeration, which can change between environments (OpenCL's ICD
 * order); a name or a type is stable. Where several devices match, the best of them is used
 * (as for the default device: GPUs before CPUs, then backend order, then the largest local
 * memory) provided they share one device name; matches of different names are ambiguous.
 * Errors: MAGNUS_ERROR_INVALID_ARGUMENT for a malformed spec ("", "gpu:0": a word before ':'
 * must be a backend, "opencl:" with nothing after it); MAGNUS_ERROR_NO_DEVICE when nothing
 * matches or the match is ambiguous, the detail listing the devices (`magnus probe` shows the
 * specs each device answers to).
 */
/*
 * The device to use: MAGNUS_DEVICE if set (a device spec, above; its errors are prefixed
 * "MAGNUS_DEVICE: "), else the best device (GPUs before CPUs, then backend order, then the
 * largest local memory). MAGNUS_ERROR_NO_DEVICE if none.
 */
MAGNUS_API magnus_status magnus_device_select(magnus_device_info *out);
/* Probes and gives the device `spec` names, ignoring MAGNUS_DEVICE (a program's own choice,
 * e.g. from its command line). A malformed spec fails before anything is probed. */
MAGNUS_API magnus_status magnus_device_find(magnus_device_info *out, const char *spec);
/* The same over a given list without probing: *index is the position in devices[0..count)
 * of the device `spec` names (backend order is the order in which backends first appear in
 * the list, as a probe lists them). With count 0 it checks only the spec's syntax:
 * MAGNUS_ERROR_INVALID_ARGUMENT if malformed, else MAGNUS_ERROR_NO_DEVICE. */
MAGNUS_API magnus_status magnus_device_match(size_t *index, const magnus_device_info *devices,
                                             size_t count, const char *spec);

typedef struct magnus_context_s magnus_context_s, *magnus_context;

typedef struct magnus_context_options {
    uint64_t local_mem_bytes;     /* budget per work group, up to the device's local memory
                                     (its probed local_mem_bytes asks for all of it); 0:
                                     MAGNUS_LOCAL_MEM_BYTES if set, else min(device, 48 KiB),
                                     a measured tuning choice (more, smaller work groups per
                                     SM ran faster on the H200; docs/performance.md). A budget
                                     set here or in MAGNUS_LOCAL_MEM_BYTES bounds every launch;
                                     with neither, the hash accumulator's dense rows may use
                                     the device's whole local memory (MAGNUS_DENSE_ROWS=0: off) */
    uint64_t device_memory_limit; /* 0: none; else refuse allocations beyond it
                                     (MAGNUS_DEVICE_MEMORY_LIMIT overrides when this is 0) */
    /* Tuning knobs, for measurements (docs/performance.md). magnus_context_create reads the
     * environment variable once, when the option is 0; multiplies on the context use the
     * value then in effect. A bad value (option or variable) fails the creation with
     * MAGNUS_ERROR_INVALID_ARGUMENT. */
    uint64_t hash_group_max;      /* most work items per hash table: a power of two from 8 to
                                     the device's work-group limit; 0: MAGNUS_HASH_GROUP_MAX if
                                     set, else 256 (1024 through CUDA) */
    int64_t dense_min_elements;   /* gMAGNUS: the last level's chunks with more elements go to
                                     the dense accumulator (>= 1; values above tau mean tau);
                                     0: MAGNUS_DENSE_MIN_ELEMENTS if set, else
                                     min(tau, dense width / 16) */
    uint64_t multisplit_group;    /* gMAGNUS: work items of a histogram / multisplit group, a
                                     power of two from 8 to the device's limit (fewer where
                                     tau is smaller; 1024 is the paper's); 0:
                                     MAGNUS_MULTISPLIT_GROUP if set, else 256 (measured
                                     faster on the H200, docs/performance.md) */
    /* Told when the context must compile kernels rather than load them (a cold PoCL cache
     * takes tens of seconds): build_progress(user, 0, what) before the build starts and
     * (user, 1, what) after it, `what` naming the kernels, the device and where the result
     * is cached ("building the float32 kernels for pthread-... (first use; cached in
     * /home/u/.cache/magnus)"; "not cached" when the cache cannot keep it). Before those, a
     * warning when the kernel cache cannot be written (MAGNUS_CACHE_DIR naming a file or a
     * read-only place): build_progress(user, -1, warning), `warning` naming the directory and
     * the system's reason; the build goes on. Not called for kernels loaded from a cache or
     * a prebuilt binary (CUDA's embedded cubins). NULL: nothing is told; the return value is
     * ignored. */
    magnus_progress_fn build_progress;
    void *build_progress_user;
    /* gMAGNUS: the most bytes of C-hat (the heavy rows' expanded products) one batch may
     * hold. A product whose products would take more (products x (4 + value bytes), an upper
     * bound of C-hat) is multiplied in that many row blocks of about equal products, whose
     * results are stacked into C: the peak is then one block's C-hat plus C, and while they
     * are stacked 1.5 times C (float32; 1.67 in float64), instead of the whole C-hat plus C
     * (docs/performance.md, "Heavy rows in batches"). The report's `batches` says how many
     * ran.
     * 0: MAGNUS_CHAT_BATCH_BYTES if set (a size: 512M, 16G, ...), else an eighth of the
     * device's memory (of device_memory_limit when one is set). */
    uint64_t chat_batch_bytes;
} magnus_context_options;

MAGNUS_API magnus_status magnus_context_options_init(magnus_context_options *opt);
/* A context on `device` (NULL: magnus_device_select()); opt may be NULL for defaults. */
MAGNUS_API magnus_status magnus_context_create(magnus_context *ctx, const magnus_device_info *device,
                                               const magnus_context_options *opt);
MAGNUS_API magnus_status magnus_context_free(magnus_context *ctx);
/* Gives back to the device the memory the context keeps between multiplies for reuse (freed
 * blocks of up to 64 MiB; larger ones, up to a quarter of the device's memory, on backends
 * whose allocator keeps nothing itself; through CUDA the stream-ordered pool's mapped memory), e.g.
 * before other code in the process needs the device's memory. Waits for the context's
 * queued work. The kept memory counts in every report's peak and against the context's
 * memory limit, and is given back by itself when an allocation would fail without it. */
MAGNUS_API magnus_status magnus_context_trim(magnus_context ctx);
/* The device the context runs on, with local_mem_bytes set to the budget in effect (the
 * probe's magnus_device_info has the device's maximum). */
MAGNUS_API magnus_status magnus_context_device(magnus_device_info *out, const magnus_context_s *ctx);

/* ------------------------------------------------------------------------------------------
 * Benchmark support (`magnus bench`)
 * ------------------------------------------------------------------------------------------ */
/*
 * Device-to-device copy bandwidth of the context's device in GB/s (10^9 bytes per second),
 * counting bytes read plus bytes written: two buffers of `bytes` (rounded down to whole 8-byte
 * words; at least 4096) are filled, one copy warms up, then `repetitions` (1..1000) copies are
 * timed with device events and the median is used. The measure of a kernel's "speed of
 * light": its minimum traffic divided by this rate. Needs 2 x bytes of device memory
 * (MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY otherwise); waits for the device before returning.
 */
MAGNUS_API magnus_status magnus_device_copy_bandwidth(double *gb_per_s, magnus_context ctx,
                                                      uint64_t bytes, int repetitions);

#ifdef __cplusplus
}
#endif
#endif /* MAGNUS_DEVICE_H */

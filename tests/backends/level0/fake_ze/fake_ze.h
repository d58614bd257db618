/*
 * A fake Level Zero driver for tests: a shared library that the real loader
 * (libze_loader.so.1) loads in place of Intel's driver when ZE_ENABLE_ALT_DRIVERS names it.
 * It reports GPUs whose properties come from environment variables, so a test can make the
 * machine look like, say, a Data Center GPU Max (PVC) and check what magnus probes:
 *
 *   FAKE_ZE_DEVICE_NAME     device name                      (default "Fake Level Zero GPU")
 *   FAKE_ZE_DEVICE_COUNT    devices of the driver, 1..4      (default 1)
 *   FAKE_ZE_LOCAL_MEM       maxSharedLocalMemory, bytes      (default 65536)
 *   FAKE_ZE_GLOBAL_MEM      device memory, bytes             (default 1 GiB)
 *   FAKE_ZE_COMPUTE_UNITS   Xe-cores (slices x sub-slices)   (default 8)
 *   FAKE_ZE_SUBGROUPS       subgroup sizes, e.g. "16,32"     (default "8,16,32")
 *   FAKE_ZE_FP64, FAKE_ZE_ATOMIC64   0 or 1                  (default 1)
 *   FAKE_ZE_MAX_ALLOC       maxMemAllocSize, bytes; larger allocations need the relaxed-
 *                           limits descriptor            (default min(global, 4 GiB - 4 KiB))
 *   FAKE_ZE_TIMER_NS        timerResolution, ns per tick     (default 1)
 *   FAKE_ZE_TIMESTAMP_BITS  timestampValidBits, 1..64        (default 64)
 *   FAKE_ZE_CLOCK_START     the device clock at zeInit, ticks (default 0)
 *   FAKE_ZE_FAIL_AT         init | driverget | deviceget | properties | build | none
 *                           makes that step fail (init: ZE_RESULT_ERROR_UNINITIALIZED, build:
 *                           zeModuleCreate's ZE_RESULT_ERROR_MODULE_BUILD_FAILURE with a log,
 *                           the others: ZE_RESULT_ERROR_DEVICE_LOST)
 *   FAKE_ZE_LLVM_SPIRV      the SPIR-V translator           (default: llvm-spirv-14 found at build)
 *   FAKE_ZE_CACHE_DIR       where translated modules are kept ("off": nowhere; default
 *                           $XDG_CACHE_HOME/magnus-fake-ze or ~/.cache/magnus-fake-ze)
 *   FAKE_ZE_STRICT          1: abort at the first misuse (so any test fails), 0: report and
 *                           count only                  (default 0)
 * The environment is read once, at the driver's zeInit.
 *
 * Execution model: device memory is host memory, allocated as the OpenCL device's fine-grained
 * shared virtual memory. Kernels really run: zeModuleCreate translates the SPIR-V to SPIR 1.2
 * bitcode (fake_ze_translate.c) and builds it with PoCL (fake_ze_opencl.c); a small SPIR-V
 * reader (fake_ze_spirv.c) tells each kernel's pointer, local-memory and value parameters
 * apart, so arguments set the Level Zero way (all by value) reach OpenCL the OpenCL way.
 * Immediate command lists and command queues (fed by closed regular lists) hold appended
 * commands until the host looks (event or fence synchronisation or query, queue
 * synchronisation), then run them in order, so the fake catches objects destroyed or memory
 * freed while queued work still uses them (fake_ze_misuses()). A launch captures its
 * arguments and group size when appended, as Level Zero specifies. Limits a real device
 * enforces are enforced: group sizes against maxTotalGroupSize, a launch's local memory
 * (static arrays plus local arguments) against FAKE_ZE_LOCAL_MEM. The device clock is
 * simulated: it advances one tick per byte copied or filled and one per work item launched,
 * and by nothing else, so timestamps, and the times derived from them, are exact.
 * What the fake cannot tell: speed, and anything that depends on Intel's compiler or
 * hardware (subgroup behaviour, memory model corner cases, register pressure).
 * Limits of the fake itself: one thread at a time (its state is global, as magnus's backend
 * uses it); a single allocation is limited by the OpenCL device's CL_DEVICE_MAX_MEM_ALLOC_SIZE
 * (PoCL: a share of host memory) whatever FAKE_ZE_GLOBAL_MEM says; kernel arguments of more
 * than 64 bytes and specialization constants are refused.
 *
 * Layout (one job per file):
 *   gen_tables.cmake      generates the exported <prefix>Get<Name>ProcAddrTable getters
 *   fake_ze_tables.c      fills the tables the fake implements (fake_ze_fill_<prefix>_<Name>)
 *   fake_ze_device.c      configuration, zeInit, drivers, devices and their properties
 *   fake_ze_context.c     contexts, event pools, events, live-object accounting
 *   fake_ze_memory.c      USM allocations, the device clock
 *   fake_ze_commands.c    command lists (immediate and regular) and appending to them
 *   fake_ze_queue.c       command queues and fences
 *   fake_ze_run.c         the simulated device: runs queued commands, in-use checks
 *   fake_ze_module.c      modules and build logs
 *   fake_ze_kernel.c      kernels, arguments, launches and running them on OpenCL
 *   fake_ze_spirv.c       the SPIR-V reader (entry points and parameter kinds)
 *   fake_ze_translate.c   SPIR-V to SPIR 1.2 bitcode with llvm-spirv, cached
 *   fake_ze_opencl.c      the OpenCL (PoCL) device: SVM memory, program builds
 */
#ifndef FAKE_ZE_H
#define FAKE_ZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <CL/cl.h>
#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#define FAKE_ZE_MAX_DEVICES 4

typedef enum fake_ze_fail_at {
    FAKE_ZE_FAIL_NONE = 0,
    FAKE_ZE_FAIL_INIT,
    FAKE_ZE_FAIL_DRIVERGET,
    FAKE_ZE_FAIL_DEVICEGET,
    FAKE_ZE_FAIL_PROPERTIES,
    FAKE_ZE_FAIL_BUILD
} fake_ze_fail_at;

typedef struct fake_ze_config {
    char device_name[ZE_MAX_DEVICE_NAME];
    uint32_t device_count;
    uint32_t local_mem_bytes;
    uint64_t global_mem_bytes;
    uint32_t compute_units;
    uint32_t subgroup_sizes[ZE_SUBGROUPSIZE_COUNT];
    uint32_t num_subgroup_sizes;
    bool fp64, atomic64;
    uint64_t max_alloc_bytes;
    uint64_t timer_ns;
    uint32_t timestamp_bits;
    uint64_t clock_start;
    fake_ze_fail_at fail_at;
    bool strict;
} fake_ze_config;

/* The largest group the fake's devices take (maxTotalGroupSize, as on Intel GPUs). */
#define FAKE_ZE_MAX_GROUP_SIZE 1024

/* Handles are the fake's own structs; the magic catches foreign or stale handles. */
#define FAKE_ZE_MAGIC_DRIVER 0x66616b657a656472ULL /* "fakezedr" */
#define FAKE_ZE_MAGIC_DEVICE 0x66616b657a656476ULL /* "fakezedv" */
struct _ze_driver_handle_t {
    uint64_t magic;
};
struct _ze_device_handle_t {
    uint64_t magic;
    uint32_t index;
};

/* The configuration read from the environment at zeInit (defaults before). */
const fake_ze_config *fake_ze_config_get(void);
/* Whether `driver` / `device` is one of the fake's handles. */
bool fake_ze_driver_ok(ze_driver_handle_t driver);
bool fake_ze_device_ok(ze_device_handle_t device);

/* ---- SPIR-V (fake_ze_spirv.c) ------------------------------------------------------------ */

typedef enum fake_ze_param_kind {
    FAKE_ZE_PARAM_VALUE = 1, /* passed by value; size known for scalars and vectors, else 0 */
    FAKE_ZE_PARAM_GLOBAL,    /* a CrossWorkgroup (or UniformConstant) pointer: a device address */
    FAKE_ZE_PARAM_LOCAL      /* a Workgroup pointer: local memory of the size set at launch */
} fake_ze_param_kind;
typedef struct fake_ze_param {
    fake_ze_param_kind kind;
    uint32_t size;
} fake_ze_param;
typedef struct fake_ze_entry {
    char *name;
    uint32_t nparams;
    fake_ze_param *params;
    uint64_t static_local_bytes; /* the Workgroup variables its call graph uses */
} fake_ze_entry;
typedef struct fake_ze_spirv_info {
    uint32_t version; /* the header's version word */
    uint32_t nentries;
    fake_ze_entry *entries;
} fake_ze_spirv_info;
/* Reads the kernels of a SPIR-V module; false, with the reason in `why`, for a module it cannot
 * read. */
bool fake_ze_spirv_read(fake_ze_spirv_info *out, const void *module, size_t bytes, char *why,
                        size_t why_size);
void fake_ze_spirv_free(fake_ze_spirv_info *info);
const fake_ze_entry *fake_ze_spirv_find(const fake_ze_spirv_info *info, const char *name);

/* ---- translation and OpenCL (fake_ze_translate.c, fake_ze_opencl.c) ----------------------- */

/* SPIR 1.2 bitcode for a SPIR-V module (malloc'd; *cached when it came from the cache, which
 * is not read unless read_cache), or NULL with the reason in `log`. */
unsigned char *fake_ze_translate(const void *spirv, size_t size, bool read_cache,
                                 size_t *out_size, bool *cached, char *log, size_t log_size);
/* Whether the OpenCL device is usable (set up on the first call); *why says why not. */
bool fake_ze_cl_ready(const char **why);
cl_device_id fake_ze_cl_device(void);
cl_context fake_ze_cl_context(void);
cl_command_queue fake_ze_cl_queue(void);
/* Device memory: fine-grained SVM aligned to `alignment` (a power of two); *raw is what
 * fake_ze_cl_free takes. Plain host memory when OpenCL is not usable. */
void *fake_ze_cl_alloc(size_t size, size_t alignment, void **raw);
void fake_ze_cl_free(void *raw);
/* Builds SPIR 1.2 bitcode; NULL with the build log in `log` on failure. */
cl_program fake_ze_cl_build(const unsigned char *bitcode, size_t size, const char *options,
                            char *log, size_t log_size);

/* ---- objects (fake_ze_context.c and the files that create them) --------------------------- */

/* Every live object is counted, so a test can check that its user destroyed everything:
 * fake_ze_live_objects() is exported for dlsym. */
#define FAKE_ZE_MAGIC_CONTEXT 0x66616b657a656378ULL /* "fakezecx" */
#define FAKE_ZE_MAGIC_LIST 0x66616b657a65636cULL    /* "fakezecl" */
#define FAKE_ZE_MAGIC_QUEUE 0x66616b657a656371ULL   /* "fakezecq" */
#define FAKE_ZE_MAGIC_FENCE 0x66616b657a656663ULL   /* "fakezefc" */
#define FAKE_ZE_MAGIC_POOL 0x66616b657a656570ULL    /* "fakezeep" */
#define FAKE_ZE_MAGIC_EVENT 0x66616b657a656576ULL   /* "fakezeev" */
#define FAKE_ZE_MAGIC_MODULE 0x66616b657a656d6fULL  /* "fakezemo" */
#define FAKE_ZE_MAGIC_KERNEL 0x66616b657a656b6eULL  /* "fakezekn" */
#define FAKE_ZE_MAGIC_LOG 0x66616b657a65626cULL     /* "fakezebl" */
struct _ze_context_handle_t {
    uint64_t magic;
};

/* A chain of commands: the work queued on an immediate list or a command queue ("scheduled":
 * the device runs it), or what a regular list has recorded (never run in place; executing
 * the list copies it onto a queue). */
struct command;
typedef struct fake_ze_stream {
    struct command *head, *tail;
    bool scheduled;
    struct fake_ze_stream *next; /* every scheduled stream */
} fake_ze_stream;

struct _ze_command_list_handle_t {
    uint64_t magic;
    ze_context_handle_t context;
    bool immediate;
    bool synchronous; /* immediate, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS: runs before returning */
    bool closed;      /* regular: zeCommandListClose called since the last reset */
    fake_ze_stream stream;
};
struct _ze_command_queue_handle_t {
    uint64_t magic;
    ze_context_handle_t context;
    bool synchronous;
    fake_ze_stream stream;
};
struct _ze_fence_handle_t {
    uint64_t magic;
    ze_command_queue_handle_t queue;
    bool signalled;
};
struct _ze_event_pool_handle_t {
    uint64_t magic;
    uint32_t count;
    uint32_t live_events;
    bool kernel_timestamps; /* ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP */
};
struct _ze_event_handle_t {
    uint64_t magic;
    ze_event_pool_handle_t pool;
    bool signalled;
    uint64_t start, end; /* device clock around the command that signalled it */
};

/* A module: the SPIR-V's kernels and their OpenCL program. */
struct _ze_module_handle_t {
    uint64_t magic;
    ze_context_handle_t context;
    fake_ze_spirv_info info;
    cl_program program;
    uint32_t live_kernels;
};
/* One kernel argument as set, captured by each launch. */
typedef struct fake_ze_arg {
    fake_ze_param_kind kind;
    bool set;
    size_t size;           /* value bytes, or local memory bytes */
    unsigned char value[64];
    void *pointer;         /* GLOBAL: the device address (may be NULL) */
} fake_ze_arg;
struct _ze_kernel_handle_t {
    uint64_t magic;
    ze_module_handle_t module;
    const fake_ze_entry *entry;
    cl_kernel kernel;
    uint64_t static_local_bytes; /* the kernel's own local arrays */
    uint32_t group[3];           /* 0: zeKernelSetGroupSize not called */
    ze_cache_config_flags_t cache_flags; /* zeKernelSetCacheConfig's (a hint: nothing else) */
    fake_ze_arg *args;           /* entry->nparams */
    uint32_t nargs;
    uint32_t launches;           /* captured launches still referring to it */
    bool destroyed;              /* zeKernelDestroy called; freed with its last launch */
};
/* What a launch captured when appended (fake_ze_kernel.c). */
typedef struct fake_ze_launch {
    ze_kernel_handle_t kernel;
    uint32_t group[3], count[3];
    uint32_t nargs;
    fake_ze_arg *args;
} fake_ze_launch;

struct _ze_module_build_log_handle_t {
    uint64_t magic;
    char text[4096];
};
void fake_ze_object_created(void);
void fake_ze_object_destroyed(void);
__attribute__((visibility("default"))) long fake_ze_live_objects(void);
bool fake_ze_context_ok(ze_context_handle_t context);
bool fake_ze_event_ok(ze_event_handle_t event);
bool fake_ze_fence_ok(ze_fence_handle_t fence);

/* Misuse a real device would punish silently: reported on stderr and counted;
 * fake_ze_misuses() is exported for dlsym (fake_ze_run.c). */
void fake_ze_misuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
__attribute__((visibility("default"))) long fake_ze_misuses(void);

/* ---- commands (fake_ze_commands.c, fake_ze_run.c) ------------------------------------------ */

typedef enum command_kind {
    CMD_BARRIER,
    CMD_WAIT,
    CMD_COPY,
    CMD_FILL,
    CMD_TIMESTAMP,
    CMD_EVENT_RESET,
    CMD_KERNEL,
    CMD_FENCE
} command_kind;

typedef struct command {
    command_kind kind;
    void *dst;
    const void *src;
    size_t size;
    unsigned char pattern[128]; /* fill pattern, copied at append as real drivers do */
    size_t pattern_size;
    ze_event_handle_t signal;   /* also the event CMD_EVENT_RESET resets */
    ze_fence_handle_t fence;    /* CMD_FENCE */
    fake_ze_launch launch;      /* CMD_KERNEL */
    ze_command_list_handle_t source; /* the regular list a queue's copy came from */
    uint32_t nwait;
    ze_event_handle_t *wait;
    struct command *next;
} command;

/* Checks the handles of a command and appends it (taking copies of the wait list and, for a
 * launch, of its arguments; on failure the launch's arguments are freed). */
ze_result_t fake_ze_append(ze_command_list_handle_t list, command *proto, uint32_t nwait,
                           ze_event_handle_t *wait);
/* A deep copy of a command (wait list and launch arguments), NULL without memory. */
command *fake_ze_command_clone(const command *c);
void fake_ze_command_free(command *c);
/* Puts a stream on the device's list (scheduled) or takes it off. */
void fake_ze_stream_schedule(fake_ze_stream *stream);
void fake_ze_stream_unschedule(fake_ze_stream *stream);
/* Runs every queued command that can run. */
void fake_ze_run_pending(void);
/* Whether a queued command uses the object / touches [base, base + size). */
bool fake_ze_event_in_use(ze_event_handle_t event);
bool fake_ze_fence_in_use(ze_fence_handle_t fence);
bool fake_ze_kernel_in_use(ze_kernel_handle_t kernel);
bool fake_ze_list_in_use(ze_command_list_handle_t list);
bool fake_ze_memory_in_use(const char *base, size_t size);

/* Launches (fake_ze_kernel.c): capture at append, run at execution, free. */
ze_result_t fake_ze_launch_capture(fake_ze_launch *out, ze_kernel_handle_t kernel,
                                   const ze_group_count_t *count);
void fake_ze_launch_run(const fake_ze_launch *launch);
bool fake_ze_launch_copy(fake_ze_launch *out, const fake_ze_launch *in);
void fake_ze_launch_free(fake_ze_launch *launch);

/* USM checks and the simulated device clock (fake_ze_memory.c). */
ze_result_t fake_ze_check_range(const void *p, size_t size, bool usm_only);
/* Whether p is inside a live allocation. */
bool fake_ze_is_allocated(const void *p);
void fake_ze_clock_reset(uint64_t start);
void fake_ze_clock_advance(uint64_t ticks);
uint64_t fake_ze_timestamp_now(void); /* the clock masked to FAKE_ZE_TIMESTAMP_BITS */
uint64_t fake_ze_clock_now(void);     /* unmasked */

/* Common checks of every table getter: a table to fill and an API version the fake's tables
 * (compiled from these headers) are not larger than. */
ze_result_t fake_ze_table_check(ze_api_version_t version, const void *table);

/* ---- the implemented entry points ----------------------------------------------------------
 * Named fake_* so nothing here interposes on the loader's own exported ze* symbols. */
ze_result_t ZE_APICALL fake_zeInit(ze_init_flags_t flags);
ze_result_t ZE_APICALL fake_zeDriverGet(uint32_t *count, ze_driver_handle_t *drivers);
ze_result_t ZE_APICALL fake_zeDriverGetApiVersion(ze_driver_handle_t driver, ze_api_version_t *version);
ze_result_t ZE_APICALL fake_zeDriverGetProperties(ze_driver_handle_t driver,
                                                  ze_driver_properties_t *props);
ze_result_t ZE_APICALL fake_zeDeviceGet(ze_driver_handle_t driver, uint32_t *count,
                                        ze_device_handle_t *devices);
ze_result_t ZE_APICALL fake_zeDeviceGetProperties(ze_device_handle_t device,
                                                  ze_device_properties_t *props);
ze_result_t ZE_APICALL fake_zeDeviceGetComputeProperties(ze_device_handle_t device,
                                                         ze_device_compute_properties_t *props);
ze_result_t ZE_APICALL fake_zeDeviceGetModuleProperties(ze_device_handle_t device,
                                                        ze_device_module_properties_t *props);
ze_result_t ZE_APICALL fake_zeDeviceGetMemoryProperties(ze_device_handle_t device, uint32_t *count,
                                                        ze_device_memory_properties_t *props);
ze_result_t ZE_APICALL fake_zeDeviceGetCommandQueueGroupProperties(
    ze_device_handle_t device, uint32_t *count, ze_command_queue_group_properties_t *props);
ze_result_t ZE_APICALL fake_zeDeviceGetGlobalTimestamps(ze_device_handle_t device,
                                                        uint64_t *host, uint64_t *device_ts);

ze_result_t ZE_APICALL fake_zeContextCreate(ze_driver_handle_t driver, const ze_context_desc_t *desc,
                                            ze_context_handle_t *context);
ze_result_t ZE_APICALL fake_zeContextDestroy(ze_context_handle_t context);
ze_result_t ZE_APICALL fake_zeEventPoolCreate(ze_context_handle_t context,
                                              const ze_event_pool_desc_t *desc, uint32_t ndevices,
                                              ze_device_handle_t *devices,
                                              ze_event_pool_handle_t *pool);
ze_result_t ZE_APICALL fake_zeEventPoolDestroy(ze_event_pool_handle_t pool);
ze_result_t ZE_APICALL fake_zeEventCreate(ze_event_pool_handle_t pool, const ze_event_desc_t *desc,
                                          ze_event_handle_t *event);
ze_result_t ZE_APICALL fake_zeEventDestroy(ze_event_handle_t event);
ze_result_t ZE_APICALL fake_zeEventHostSynchronize(ze_event_handle_t event, uint64_t timeout);
ze_result_t ZE_APICALL fake_zeEventHostSignal(ze_event_handle_t event);
ze_result_t ZE_APICALL fake_zeEventHostReset(ze_event_handle_t event);
ze_result_t ZE_APICALL fake_zeEventQueryStatus(ze_event_handle_t event);
ze_result_t ZE_APICALL fake_zeEventQueryKernelTimestamp(ze_event_handle_t event,
                                                        ze_kernel_timestamp_result_t *result);

ze_result_t ZE_APICALL fake_zeMemAllocDevice(ze_context_handle_t context,
                                             const ze_device_mem_alloc_desc_t *desc, size_t size,
                                             size_t alignment, ze_device_handle_t device, void **ptr);
ze_result_t ZE_APICALL fake_zeMemAllocHost(ze_context_handle_t context,
                                           const ze_host_mem_alloc_desc_t *desc, size_t size,
                                           size_t alignment, void **ptr);
ze_result_t ZE_APICALL fake_zeMemFree(ze_context_handle_t context, void *ptr);

ze_result_t ZE_APICALL fake_zeCommandListCreate(ze_context_handle_t context,
                                                ze_device_handle_t device,
                                                const ze_command_list_desc_t *desc,
                                                ze_command_list_handle_t *list);
ze_result_t ZE_APICALL fake_zeCommandListCreateImmediate(ze_context_handle_t context,
                                                         ze_device_handle_t device,
                                                         const ze_command_queue_desc_t *desc,
                                                         ze_command_list_handle_t *list);
ze_result_t ZE_APICALL fake_zeCommandListDestroy(ze_command_list_handle_t list);
ze_result_t ZE_APICALL fake_zeCommandListClose(ze_command_list_handle_t list);
ze_result_t ZE_APICALL fake_zeCommandListReset(ze_command_list_handle_t list);
ze_result_t ZE_APICALL fake_zeCommandListAppendBarrier(ze_command_list_handle_t list,
                                                       ze_event_handle_t signal, uint32_t nwait,
                                                       ze_event_handle_t *wait);
ze_result_t ZE_APICALL fake_zeCommandListAppendMemoryCopy(ze_command_list_handle_t list, void *dst,
                                                          const void *src, size_t size,
                                                          ze_event_handle_t signal, uint32_t nwait,
                                                          ze_event_handle_t *wait);
ze_result_t ZE_APICALL fake_zeCommandListAppendMemoryFill(ze_command_list_handle_t list, void *ptr,
                                                          const void *pattern, size_t pattern_size,
                                                          size_t size, ze_event_handle_t signal,
                                                          uint32_t nwait, ze_event_handle_t *wait);
ze_result_t ZE_APICALL fake_zeCommandListAppendWaitOnEvents(ze_command_list_handle_t list,
                                                            uint32_t nevents,
                                                            ze_event_handle_t *events);
ze_result_t ZE_APICALL fake_zeCommandListAppendSignalEvent(ze_command_list_handle_t list,
                                                           ze_event_handle_t event);
ze_result_t ZE_APICALL fake_zeCommandListAppendEventReset(ze_command_list_handle_t list,
                                                          ze_event_handle_t event);
ze_result_t ZE_APICALL fake_zeCommandListAppendWriteGlobalTimestamp(ze_command_list_handle_t list,
                                                                    uint64_t *dst,
                                                                    ze_event_handle_t signal,
                                                                    uint32_t nwait,
                                                                    ze_event_handle_t *wait);
ze_result_t ZE_APICALL fake_zeCommandListAppendLaunchKernel(ze_command_list_handle_t list,
                                                            ze_kernel_handle_t kernel,
                                                            const ze_group_count_t *count,
                                                            ze_event_handle_t signal,
                                                            uint32_t nwait, ze_event_handle_t *wait);

ze_result_t ZE_APICALL fake_zeCommandQueueCreate(ze_context_handle_t context,
                                                 ze_device_handle_t device,
                                                 const ze_command_queue_desc_t *desc,
                                                 ze_command_queue_handle_t *queue);
ze_result_t ZE_APICALL fake_zeCommandQueueDestroy(ze_command_queue_handle_t queue);
ze_result_t ZE_APICALL fake_zeCommandQueueExecuteCommandLists(ze_command_queue_handle_t queue,
                                                              uint32_t nlists,
                                                              ze_command_list_handle_t *lists,
                                                              ze_fence_handle_t fence);
ze_result_t ZE_APICALL fake_zeCommandQueueSynchronize(ze_command_queue_handle_t queue,
                                                      uint64_t timeout);
ze_result_t ZE_APICALL fake_zeFenceCreate(ze_command_queue_handle_t queue,
                                          const ze_fence_desc_t *desc, ze_fence_handle_t *fence);
ze_result_t ZE_APICALL fake_zeFenceDestroy(ze_fence_handle_t fence);
ze_result_t ZE_APICALL fake_zeFenceHostSynchronize(ze_fence_handle_t fence, uint64_t timeout);
ze_result_t ZE_APICALL fake_zeFenceQueryStatus(ze_fence_handle_t fence);
ze_result_t ZE_APICALL fake_zeFenceReset(ze_fence_handle_t fence);

ze_result_t ZE_APICALL fake_zeModuleCreate(ze_context_handle_t context, ze_device_handle_t device,
                                           const ze_module_desc_t *desc, ze_module_handle_t *module,
                                           ze_module_build_log_handle_t *log);
ze_result_t ZE_APICALL fake_zeModuleDestroy(ze_module_handle_t module);
ze_result_t ZE_APICALL fake_zeModuleGetKernelNames(ze_module_handle_t module, uint32_t *count,
                                                   const char **names);
ze_result_t ZE_APICALL fake_zeModuleBuildLogDestroy(ze_module_build_log_handle_t log);
ze_result_t ZE_APICALL fake_zeModuleBuildLogGetString(ze_module_build_log_handle_t log,
                                                      size_t *size, char *text);

ze_result_t ZE_APICALL fake_zeKernelCreate(ze_module_handle_t module, const ze_kernel_desc_t *desc,
                                           ze_kernel_handle_t *kernel);
ze_result_t ZE_APICALL fake_zeKernelDestroy(ze_kernel_handle_t kernel);
ze_result_t ZE_APICALL fake_zeKernelSetGroupSize(ze_kernel_handle_t kernel, uint32_t x, uint32_t y,
                                                 uint32_t z);
ze_result_t ZE_APICALL fake_zeKernelSetArgumentValue(ze_kernel_handle_t kernel, uint32_t index,
                                                     size_t size, const void *value);
ze_result_t ZE_APICALL fake_zeKernelGetProperties(ze_kernel_handle_t kernel,
                                                  ze_kernel_properties_t *props);
ze_result_t ZE_APICALL fake_zeKernelSetCacheConfig(ze_kernel_handle_t kernel,
                                                   ze_cache_config_flags_t flags);
ze_result_t ZE_APICALL fake_zeKernelGetName(ze_kernel_handle_t kernel, size_t *size, char *name);

#endif

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
 *   FAKE_ZE_FAIL_AT         init | driverget | deviceget | properties | none
 *                           makes that step fail (init: ZE_RESULT_ERROR_UNINITIALIZED, the
 *                           others: ZE_RESULT_ERROR_DEVICE_LOST)
 * The environment is read once, at the driver's zeInit.
 *
 * Execution model: device memory is host memory. Command lists are immediate; appended
 * commands stay queued until the host looks (event synchronisation or query), then run in
 * order, so the fake catches objects destroyed or memory freed while queued work still uses
 * them (fake_ze_misuses()). The device clock is simulated: it advances by one tick per byte
 * copied or filled and by nothing else, so timestamps, and the times derived from them, are
 * exact. Kernels are not run yet (zeModuleCreate checks the SPIR-V and reports a build
 * failure with a log); forwarding them to PoCL is the natural next step.
 *
 * Layout (one job per file):
 *   gen_tables.cmake      generates the exported <prefix>Get<Name>ProcAddrTable getters
 *   fake_ze_tables.c      fills the tables the fake implements (fake_ze_fill_<prefix>_<Name>)
 *   fake_ze_device.c      configuration, zeInit, drivers, devices and their properties
 *   fake_ze_context.c     contexts, event pools, events, live-object accounting
 *   fake_ze_memory.c      USM allocations, the device clock
 *   fake_ze_commands.c    immediate command lists and the simulated device that runs them
 *   fake_ze_module.c      modules and build logs
 */
#ifndef FAKE_ZE_H
#define FAKE_ZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#define FAKE_ZE_MAX_DEVICES 4

typedef enum fake_ze_fail_at {
    FAKE_ZE_FAIL_NONE = 0,
    FAKE_ZE_FAIL_INIT,
    FAKE_ZE_FAIL_DRIVERGET,
    FAKE_ZE_FAIL_DEVICEGET,
    FAKE_ZE_FAIL_PROPERTIES
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
} fake_ze_config;

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

/* Objects of the fake (fake_ze_context.c). Every live one is counted, so a test can check that
 * its user destroyed everything: fake_ze_live_objects() is exported for dlsym. */
#define FAKE_ZE_MAGIC_CONTEXT 0x66616b657a656378ULL /* "fakezecx" */
#define FAKE_ZE_MAGIC_LIST 0x66616b657a65636cULL    /* "fakezecl" */
#define FAKE_ZE_MAGIC_POOL 0x66616b657a656570ULL    /* "fakezeep" */
#define FAKE_ZE_MAGIC_EVENT 0x66616b657a656576ULL   /* "fakezeev" */
#define FAKE_ZE_MAGIC_MODULE 0x66616b657a656d6fULL  /* "fakezemo" */
#define FAKE_ZE_MAGIC_LOG 0x66616b657a65626cULL     /* "fakezebl" */
struct _ze_context_handle_t {
    uint64_t magic;
};
struct command;
struct _ze_command_list_handle_t {
    uint64_t magic;
    ze_context_handle_t context;
    struct command *head, *tail;            /* queued, not yet run */
    struct _ze_command_list_handle_t *next; /* every live list */
};
struct _ze_event_pool_handle_t {
    uint64_t magic;
    uint32_t count;
    uint32_t live_events;
};
struct _ze_event_handle_t {
    uint64_t magic;
    ze_event_pool_handle_t pool;
    bool signalled;
};
struct _ze_module_handle_t {
    uint64_t magic;
};
struct _ze_module_build_log_handle_t {
    uint64_t magic;
    char text[256];
};
void fake_ze_object_created(void);
void fake_ze_object_destroyed(void);
__attribute__((visibility("default"))) long fake_ze_live_objects(void);
bool fake_ze_context_ok(ze_context_handle_t context);
bool fake_ze_event_ok(ze_event_handle_t event);

/* Misuse a real device would punish silently (fake_ze_commands.c): reported on stderr and
 * counted; fake_ze_misuses() is exported for dlsym. */
void fake_ze_misuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
__attribute__((visibility("default"))) long fake_ze_misuses(void);
/* Runs every queued command that can run (fake_ze_commands.c). */
void fake_ze_run_pending(void);
/* Whether a queued command signals or waits on `event` / touches [base, base + size). */
bool fake_ze_event_in_use(ze_event_handle_t event);
bool fake_ze_memory_in_use(const char *base, size_t size);

/* USM checks and the simulated device clock (fake_ze_memory.c). The clock starts at
 * FAKE_ZE_CLOCK_START and advances one tick per byte copied or filled. */
ze_result_t fake_ze_check_range(const void *p, size_t size, bool usm_only);
void fake_ze_clock_reset(uint64_t start);
void fake_ze_clock_advance(uint64_t ticks);
uint64_t fake_ze_timestamp_now(void); /* the clock masked to FAKE_ZE_TIMESTAMP_BITS */

/* Common checks of every table getter: a table to fill and an API version the fake's tables
 * (compiled from these headers) are not larger than. */
ze_result_t fake_ze_table_check(ze_api_version_t version, const void *table);

/* The implemented entry points (fake_ze_device.c), named fake_* so nothing here interposes
 * on the loader's own exported ze* symbols. */
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
ze_result_t ZE_APICALL fake_zeEventHostReset(ze_event_handle_t event);
ze_result_t ZE_APICALL fake_zeEventQueryStatus(ze_event_handle_t event);

ze_result_t ZE_APICALL fake_zeMemAllocDevice(ze_context_handle_t context,
                                             const ze_device_mem_alloc_desc_t *desc, size_t size,
                                             size_t alignment, ze_device_handle_t device, void **ptr);
ze_result_t ZE_APICALL fake_zeMemAllocHost(ze_context_handle_t context,
                                           const ze_host_mem_alloc_desc_t *desc, size_t size,
                                           size_t alignment, void **ptr);
ze_result_t ZE_APICALL fake_zeMemFree(ze_context_handle_t context, void *ptr);
ze_result_t ZE_APICALL fake_zeCommandListCreateImmediate(ze_context_handle_t context,
                                                         ze_device_handle_t device,
                                                         const ze_command_queue_desc_t *desc,
                                                         ze_command_list_handle_t *list);
ze_result_t ZE_APICALL fake_zeCommandListDestroy(ze_command_list_handle_t list);
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
ze_result_t ZE_APICALL fake_zeCommandListAppendWriteGlobalTimestamp(ze_command_list_handle_t list,
                                                                    uint64_t *dst,
                                                                    ze_event_handle_t signal,
                                                                    uint32_t nwait,
                                                                    ze_event_handle_t *wait);

ze_result_t ZE_APICALL fake_zeModuleCreate(ze_context_handle_t context, ze_device_handle_t device,
                                           const ze_module_desc_t *desc, ze_module_handle_t *module,
                                           ze_module_build_log_handle_t *log);
ze_result_t ZE_APICALL fake_zeModuleDestroy(ze_module_handle_t module);
ze_result_t ZE_APICALL fake_zeModuleBuildLogDestroy(ze_module_build_log_handle_t log);
ze_result_t ZE_APICALL fake_zeModuleBuildLogGetString(ze_module_build_log_handle_t log,
                                                      size_t *size, char *text);

#endif

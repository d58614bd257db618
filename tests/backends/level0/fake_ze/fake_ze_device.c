/*
 * The fake driver's configuration (environment), initialisation, driver and device handles,
 * and device properties. See fake_ze.h for the variables.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "fake_ze.h"

static fake_ze_config config;
static bool initialised;
static struct _ze_driver_handle_t the_driver = {FAKE_ZE_MAGIC_DRIVER};
static struct _ze_device_handle_t the_devices[FAKE_ZE_MAX_DEVICES];

/* The value of `name` when it is a whole number in [min, max], else `fallback`. */
static uint64_t env_u64(const char *name, uint64_t fallback, uint64_t min, uint64_t max) {
    const char *text = getenv(name);
    if (!text || !*text) return fallback;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || *end || v < min || v > max) {
        fprintf(stderr, "fake_ze: ignoring %s=%s (expected %llu..%llu)\n", name, text,
                (unsigned long long)min, (unsigned long long)max);
        return fallback;
    }
    return v;
}

static void parse_subgroups(const char *text) {
    uint32_t n = 0;
    const char *p = text;
    while (*p && n < ZE_SUBGROUPSIZE_COUNT) {
        char *end = NULL;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v == 0 || v > 1024) break;
        config.subgroup_sizes[n++] = (uint32_t)v;
        p = end;
        if (*p == ',') p++;
        else break;
    }
    if (n > 0) config.num_subgroup_sizes = n;
    else fprintf(stderr, "fake_ze: ignoring FAKE_ZE_SUBGROUPS=%s\n", text);
}

static fake_ze_fail_at parse_fail_at(const char *text) {
    if (!text || !*text || strcmp(text, "none") == 0) return FAKE_ZE_FAIL_NONE;
    if (strcmp(text, "init") == 0) return FAKE_ZE_FAIL_INIT;
    if (strcmp(text, "driverget") == 0) return FAKE_ZE_FAIL_DRIVERGET;
    if (strcmp(text, "deviceget") == 0) return FAKE_ZE_FAIL_DEVICEGET;
    if (strcmp(text, "properties") == 0) return FAKE_ZE_FAIL_PROPERTIES;
    if (strcmp(text, "build") == 0) return FAKE_ZE_FAIL_BUILD;
    fprintf(stderr, "fake_ze: ignoring FAKE_ZE_FAIL_AT=%s\n", text);
    return FAKE_ZE_FAIL_NONE;
}

static void read_config(void) {
    memset(&config, 0, sizeof config);
    const char *name = getenv("FAKE_ZE_DEVICE_NAME");
    snprintf(config.device_name, sizeof config.device_name, "%s",
             name && *name ? name : "Fake Level Zero GPU");
    config.device_count = (uint32_t)env_u64("FAKE_ZE_DEVICE_COUNT", 1, 1, FAKE_ZE_MAX_DEVICES);
    config.local_mem_bytes = (uint32_t)env_u64("FAKE_ZE_LOCAL_MEM", 65536, 1, UINT32_MAX);
    config.global_mem_bytes = env_u64("FAKE_ZE_GLOBAL_MEM", UINT64_C(1) << 30, 1, UINT64_MAX);
    config.compute_units = (uint32_t)env_u64("FAKE_ZE_COMPUTE_UNITS", 8, 1, 1u << 20);
    config.subgroup_sizes[0] = 8;
    config.subgroup_sizes[1] = 16;
    config.subgroup_sizes[2] = 32;
    config.num_subgroup_sizes = 3;
    const char *sub = getenv("FAKE_ZE_SUBGROUPS");
    if (sub && *sub) parse_subgroups(sub);
    config.fp64 = env_u64("FAKE_ZE_FP64", 1, 0, 1) != 0;
    config.atomic64 = env_u64("FAKE_ZE_ATOMIC64", 1, 0, 1) != 0;
    uint64_t default_max_alloc = (UINT64_C(4) << 30) - 4096;
    if (default_max_alloc > config.global_mem_bytes) default_max_alloc = config.global_mem_bytes;
    config.max_alloc_bytes = env_u64("FAKE_ZE_MAX_ALLOC", default_max_alloc, 1, UINT64_MAX);
    config.timer_ns = env_u64("FAKE_ZE_TIMER_NS", 1, 1, UINT64_C(1) << 32);
    config.timestamp_bits = (uint32_t)env_u64("FAKE_ZE_TIMESTAMP_BITS", 64, 1, 64);
    config.clock_start = env_u64("FAKE_ZE_CLOCK_START", 0, 0, UINT64_MAX);
    config.fail_at = parse_fail_at(getenv("FAKE_ZE_FAIL_AT"));
    config.strict = env_u64("FAKE_ZE_STRICT", 0, 0, 1) != 0;
    for (uint32_t i = 0; i < FAKE_ZE_MAX_DEVICES; i++) {
        the_devices[i].magic = FAKE_ZE_MAGIC_DEVICE;
        the_devices[i].index = i;
    }
}

const fake_ze_config *fake_ze_config_get(void) {
    return &config;
}

/* Only a GPU driver: a caller asking for VPUs alone does not get this one. */
ze_result_t ZE_APICALL fake_zeInit(ze_init_flags_t flags) {
    if (flags & ~(ze_init_flags_t)(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY))
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (!initialised) read_config();
    if (config.fail_at == FAKE_ZE_FAIL_INIT) return ZE_RESULT_ERROR_UNINITIALIZED;
    if (flags != 0 && !(flags & ZE_INIT_FLAG_GPU_ONLY)) return ZE_RESULT_ERROR_UNINITIALIZED;
    if (!initialised) fake_ze_clock_reset(config.clock_start);
    initialised = true;
    return ZE_RESULT_SUCCESS;
}

/* The usual "count, then fill up to count" protocol of every ze*Get. */
static ze_result_t list_handles(uint32_t *count, void **out, void *const *handles, uint32_t n) {
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (*count == 0 || !out) {
        *count = n;
        return ZE_RESULT_SUCCESS;
    }
    if (*count > n) *count = n;
    for (uint32_t i = 0; i < *count; i++) out[i] = handles[i];
    return ZE_RESULT_SUCCESS;
}

bool fake_ze_driver_ok(ze_driver_handle_t driver) {
    return driver == &the_driver && driver->magic == FAKE_ZE_MAGIC_DRIVER;
}

bool fake_ze_device_ok(ze_device_handle_t device) {
    return device && device->magic == FAKE_ZE_MAGIC_DEVICE && device->index < config.device_count &&
           device == &the_devices[device->index];
}

ze_result_t ZE_APICALL fake_zeDriverGet(uint32_t *count, ze_driver_handle_t *drivers) {
    if (!initialised) return ZE_RESULT_ERROR_UNINITIALIZED;
    if (config.fail_at == FAKE_ZE_FAIL_DRIVERGET) return ZE_RESULT_ERROR_DEVICE_LOST;
    void *handle = &the_driver;
    return list_handles(count, (void **)drivers, &handle, 1);
}

ze_result_t ZE_APICALL fake_zeDriverGetApiVersion(ze_driver_handle_t driver, ze_api_version_t *version) {
    if (!fake_ze_driver_ok(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!version) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    *version = ZE_API_VERSION_CURRENT;
    return ZE_RESULT_SUCCESS;
}

/* Version 1.3.26918, packed the way Intel's driver packs it (8.8.16 bits). */
#define FAKE_ZE_DRIVER_VERSION ((1u << 24) | (3u << 16) | 26918u)

ze_result_t ZE_APICALL fake_zeDriverGetProperties(ze_driver_handle_t driver,
                                                  ze_driver_properties_t *props) {
    if (!fake_ze_driver_ok(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!props) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    memset(props->uuid.id, 0, sizeof props->uuid.id);
    memcpy(props->uuid.id, "fake_ze", 7);
    props->driverVersion = FAKE_ZE_DRIVER_VERSION;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeDeviceGet(ze_driver_handle_t driver, uint32_t *count,
                                        ze_device_handle_t *devices) {
    if (!fake_ze_driver_ok(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (config.fail_at == FAKE_ZE_FAIL_DEVICEGET) return ZE_RESULT_ERROR_DEVICE_LOST;
    void *handles[FAKE_ZE_MAX_DEVICES];
    for (uint32_t i = 0; i < config.device_count; i++) handles[i] = &the_devices[i];
    return list_handles(count, (void **)devices, handles, config.device_count);
}

/* What every property query checks first: the device handle, the output (out: the properties
 * or the count), then the injected failure FAKE_ZE_FAIL_PROPERTIES. */
static ze_result_t properties_check(ze_device_handle_t device, const void *out) {
    if (!fake_ze_device_ok(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (config.fail_at == FAKE_ZE_FAIL_PROPERTIES) return ZE_RESULT_ERROR_DEVICE_LOST;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeDeviceGetProperties(ze_device_handle_t device,
                                                  ze_device_properties_t *props) {
    const ze_result_t checked = properties_check(device, props);
    if (checked != ZE_RESULT_SUCCESS) return checked;
    /* Keep the caller's stype/pNext, fill everything after them. */
    ze_structure_type_t stype = props->stype;
    void *next = props->pNext;
    memset(props, 0, sizeof *props);
    props->stype = stype;
    props->pNext = next;
    props->type = ZE_DEVICE_TYPE_GPU;
    props->vendorId = 0x8086;
    props->deviceId = 0x0bd5; /* a PVC id; nothing depends on it */
    props->coreClockRate = 1600;
    props->maxMemAllocSize = config.max_alloc_bytes;
    props->maxHardwareContexts = 64;
    props->numThreadsPerEU = 8;
    props->physicalEUSimdWidth = 16;
    props->numEUsPerSubslice = 8;
    /* Split the Xe-cores over slices as real parts do, so a consumer that multiplies the wrong
     * fields (e.g. includes EUs) sees a different number. */
    uint32_t slices = config.compute_units % 2 == 0 ? 2 : 1;
    props->numSlices = slices;
    props->numSubslicesPerSlice = config.compute_units / slices;
    /* ns per tick for the 1.0 structure, ticks per second for DEVICE_PROPERTIES_1_2 */
    props->timerResolution = stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES
                                 ? config.timer_ns
                                 : UINT64_C(1000000000) / config.timer_ns;
    props->timestampValidBits = config.timestamp_bits;
    props->kernelTimestampValidBits = 32;
    memcpy(props->uuid.id, &device->index, sizeof device->index);
    snprintf(props->name, sizeof props->name, "%s", config.device_name);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeDeviceGetComputeProperties(ze_device_handle_t device,
                                                         ze_device_compute_properties_t *props) {
    const ze_result_t checked = properties_check(device, props);
    if (checked != ZE_RESULT_SUCCESS) return checked;
    props->maxTotalGroupSize = FAKE_ZE_MAX_GROUP_SIZE;
    props->maxGroupSizeX = FAKE_ZE_MAX_GROUP_SIZE;
    props->maxGroupSizeY = FAKE_ZE_MAX_GROUP_SIZE;
    props->maxGroupSizeZ = FAKE_ZE_MAX_GROUP_SIZE;
    props->maxGroupCountX = UINT32_MAX;
    props->maxGroupCountY = UINT32_MAX;
    props->maxGroupCountZ = UINT32_MAX;
    props->maxSharedLocalMemory = config.local_mem_bytes;
    props->numSubGroupSizes = config.num_subgroup_sizes;
    memset(props->subGroupSizes, 0, sizeof props->subGroupSizes);
    memcpy(props->subGroupSizes, config.subgroup_sizes,
           config.num_subgroup_sizes * sizeof config.subgroup_sizes[0]);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeDeviceGetModuleProperties(ze_device_handle_t device,
                                                        ze_device_module_properties_t *props) {
    const ze_result_t checked = properties_check(device, props);
    if (checked != ZE_RESULT_SUCCESS) return checked;
    props->spirvVersionSupported = ZE_MAKE_VERSION(1, 2);
    props->flags = (config.fp64 ? ZE_DEVICE_MODULE_FLAG_FP64 : 0) |
                   (config.atomic64 ? ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS : 0);
    props->fp16flags = 0;
    props->fp32flags = ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST | ZE_DEVICE_FP_FLAG_INF_NAN |
                       ZE_DEVICE_FP_FLAG_FMA;
    props->fp64flags = config.fp64 ? props->fp32flags : 0;
    props->maxArgumentsSize = 2048;
    props->printfBufferSize = 4u << 20;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeDeviceGetMemoryProperties(ze_device_handle_t device, uint32_t *count,
                                                        ze_device_memory_properties_t *props) {
    const ze_result_t checked = properties_check(device, count);
    if (checked != ZE_RESULT_SUCCESS) return checked;
    if (*count == 0 || !props) {
        *count = 1;
        return ZE_RESULT_SUCCESS;
    }
    *count = 1;
    props[0].flags = 0;
    props[0].maxClockRate = 3200;
    props[0].maxBusWidth = 8192;
    props[0].totalSize = config.global_mem_bytes;
    snprintf(props[0].name, sizeof props[0].name, "HBM");
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeDeviceGetCommandQueueGroupProperties(
    ze_device_handle_t device, uint32_t *count, ze_command_queue_group_properties_t *props) {
    if (!fake_ze_device_ok(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (*count == 0 || !props) {
        *count = 1;
        return ZE_RESULT_SUCCESS;
    }
    *count = 1;
    props[0].flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
                     ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
    props[0].maxMemoryFillPatternSize = 128;
    props[0].numQueues = 1;
    return ZE_RESULT_SUCCESS;
}

/* The host's monotonic clock in ns and the simulated device clock (masked like timestamps). */
ze_result_t ZE_APICALL fake_zeDeviceGetGlobalTimestamps(ze_device_handle_t device, uint64_t *host,
                                                        uint64_t *device_ts) {
    if (!fake_ze_device_ok(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!host || !device_ts) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    *host = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
    fake_ze_run_pending();
    *device_ts = fake_ze_timestamp_now();
    return ZE_RESULT_SUCCESS;
}

/*
 * Level Zero devices: load() initialises the loader for GPUs and builds the device list with
 * every property the runtime asks for, so probing is one pass and device_info() cannot fail
 * later. A driver or device whose queries fail is skipped; when nothing usable remains, load()
 * fails with the first problem seen, which probe diagnostics then report.
 */
#include "level0_internal.h"

#ifdef MAGNUS_HAVE_LEVEL0_HEADERS

#include <limits.h>
#include <stdio.h>
#include <string.h>

level0_device *level0_devices;
int level0_device_count;
static bool level0_loaded;

/* Keeps the first failure's detail message for the final report. */
static void remember_problem(char *first, size_t size) {
    if (!first[0]) snprintf(first, size, "%s", magnus_last_error());
}

static void format_driver_version(char *out, size_t size, uint32_t v) {
    /* Intel packs major.minor.build as 8.8.16 bits (what `sycl-ls` prints as well). */
    snprintf(out, size, "%u.%u.%u", v >> 24, (v >> 16) & 0xffu, v & 0xffffu);
}

/* Fills `out` for one device. Returns success and sets *is_gpu; errors name the ze call. */
static magnus_status describe_device(ze_driver_handle_t driver, const char *driver_version,
                                     ze_device_handle_t device, level0_device *out,
                                     bool *is_gpu) {
    ze_device_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ze_result_t r = magnus_ze.zeDeviceGetProperties(device, &props);
    if (r) return magnus_ze_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, r, "zeDeviceGetProperties");
    /* ZE_INIT_FLAG_GPU_ONLY asks drivers for GPUs only; the check guards against a driver
     * that ignores the flag (a VPU cannot run the kernels). */
    *is_gpu = props.type == ZE_DEVICE_TYPE_GPU;
    if (!*is_gpu) return MAGNUS_SUCCESS;

    ze_device_compute_properties_t compute = {.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    r = magnus_ze.zeDeviceGetComputeProperties(device, &compute);
    if (r)
        return magnus_ze_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, r, "zeDeviceGetComputeProperties");
    ze_device_module_properties_t module = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
    r = magnus_ze.zeDeviceGetModuleProperties(device, &module);
    if (r)
        return magnus_ze_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, r, "zeDeviceGetModuleProperties");

    /* Global memory: the sum over the device's memory ordinals (one per HBM stack or tile). */
    uint32_t nmem = 0;
    r = magnus_ze.zeDeviceGetMemoryProperties(device, &nmem, NULL);
    if (r)
        return magnus_ze_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, r, "zeDeviceGetMemoryProperties");
    uint64_t global_bytes = 0;
    if (nmem > 0) {
        ze_device_memory_properties_t *mem = magnus_host_calloc(nmem, sizeof *mem);
        if (!mem)
            return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                                "level0: no host memory for %u memory properties", nmem);
        for (uint32_t i = 0; i < nmem; i++) mem[i].stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
        r = magnus_ze.zeDeviceGetMemoryProperties(device, &nmem, mem);
        for (uint32_t i = 0; !r && i < nmem; i++) global_bytes += mem[i].totalSize;
        magnus_host_free(mem);
        if (r)
            return magnus_ze_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, r,
                                   "zeDeviceGetMemoryProperties");
    }

    memset(out, 0, sizeof *out);
    out->driver = driver;
    out->device = device;
    magnus_device_info *info = &out->info;
    info->backend = MAGNUS_BACKEND_LEVEL0;
    snprintf(info->name, sizeof info->name, "%.*s", (int)sizeof props.name, props.name);
    if (props.vendorId == 0x8086)
        snprintf(info->vendor, sizeof info->vendor, "Intel");
    else
        snprintf(info->vendor, sizeof info->vendor, "PCI vendor 0x%04x", props.vendorId);
    snprintf(info->driver_version, sizeof info->driver_version, "%s", driver_version);
    info->global_mem_bytes = global_bytes;
    info->local_mem_bytes = compute.maxSharedLocalMemory;
    /* Compute units = Xe-cores (sub-slices) = numSlices * numSubslicesPerSlice: a work group
     * runs inside one sub-slice and shares its local memory, so the sub-slice is what a CUDA
     * SM is to the scheduler. Counting EUs (x numEUsPerSubslice, Intel OpenCL's
     * CL_DEVICE_MAX_COMPUTE_UNITS) would overstate concurrent work groups 8-16 times. */
    uint64_t cores = (uint64_t)props.numSlices * props.numSubslicesPerSlice;
    info->compute_units = cores == 0 ? 1 : cores > INT_MAX ? INT_MAX : (int)cores;
    uint32_t nsub = compute.numSubGroupSizes;
    if (nsub > ZE_SUBGROUPSIZE_COUNT) nsub = ZE_SUBGROUPSIZE_COUNT;
    if (nsub > sizeof info->subgroup_sizes / sizeof info->subgroup_sizes[0])
        nsub = sizeof info->subgroup_sizes / sizeof info->subgroup_sizes[0];
    for (uint32_t i = 0; i < nsub; i++) info->subgroup_sizes[i] = (int)compute.subGroupSizes[i];
    info->num_subgroup_sizes = (int)nsub;
    info->max_work_group_size = compute.maxTotalGroupSize;
    info->wide_group_size = 256; /* a kernel's own limit is known only once it is built */
    info->fp64 = (module.flags & ZE_DEVICE_MODULE_FLAG_FP64) != 0;
    info->atomic64 = (module.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS) != 0;
    info->is_cpu = 0;
    /* Allocations beyond maxMemAllocSize opt in to relaxed limits (level0_mem_alloc), so one
     * buffer may use all of the device memory. */
    info->max_alloc_bytes = global_bytes;

    out->ns_per_tick = props.timerResolution > 0 ? (double)props.timerResolution : 1.0;
    out->timestamp_mask = props.timestampValidBits == 0 || props.timestampValidBits >= 64
                              ? UINT64_MAX
                              : (UINT64_C(1) << props.timestampValidBits) - 1;
    out->max_alloc_bytes = props.maxMemAllocSize;
    out->max_group_count = compute.maxGroupCountX ? compute.maxGroupCountX : UINT32_MAX;
    return MAGNUS_SUCCESS;
}

/* Appends the GPUs of one driver to the list; problems go to `first_problem`. */
static magnus_status add_driver_devices(ze_driver_handle_t driver, int *capacity,
                                        char *first_problem, size_t problem_size) {
    ze_driver_properties_t dprops = {.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
    ze_result_t r = magnus_ze.zeDriverGetProperties(driver, &dprops);
    if (r) {
        magnus_ze_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, r, "zeDriverGetProperties");
        remember_problem(first_problem, problem_size);
        return MAGNUS_SUCCESS;
    }
    char version[64];
    format_driver_version(version, sizeof version, dprops.driverVersion);

    uint32_t ndev = 0;
    r = magnus_ze.zeDeviceGet(driver, &ndev, NULL);
    if (r) {
        magnus_ze_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, r, "zeDeviceGet");
        remember_problem(first_problem, problem_size);
        return MAGNUS_SUCCESS;
    }
    if (ndev == 0) return MAGNUS_SUCCESS;
    ze_device_handle_t *devices = magnus_host_calloc(ndev, sizeof *devices);
    if (!devices)
        return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                            "level0: no host memory for %u device handles", ndev);
    magnus_status s = MAGNUS_SUCCESS;
    r = magnus_ze.zeDeviceGet(driver, &ndev, devices);
    if (r) {
        magnus_ze_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, r, "zeDeviceGet");
        remember_problem(first_problem, problem_size);
        ndev = 0;
    }
    for (uint32_t i = 0; i < ndev && !s; i++) {
        level0_device dev;
        bool is_gpu = false;
        s = describe_device(driver, version, devices[i], &dev, &is_gpu);
        if (s == MAGNUS_ERROR_BACKEND_UNAVAILABLE) { /* this device only */
            remember_problem(first_problem, problem_size);
            s = MAGNUS_SUCCESS;
            continue;
        }
        if (s || !is_gpu) continue;
        if (level0_device_count == *capacity) {
            int grown = *capacity ? 2 * *capacity : 4;
            level0_device *list = magnus_host_realloc(level0_devices, (size_t)grown * sizeof *list);
            if (!list) {
                s = magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                                 "level0: no host memory for the device list");
                break;
            }
            level0_devices = list;
            *capacity = grown;
        }
        dev.info.index = level0_device_count;
        level0_devices[level0_device_count++] = dev;
    }
    magnus_host_free(devices);
    return s;
}

static magnus_status enumerate(void) {
    char first_problem[512] = "";
    uint32_t ndrivers = 0;
    ze_result_t r = magnus_ze.zeDriverGet(&ndrivers, NULL);
    if (r) return magnus_ze_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, r, "zeDriverGet");
    if (ndrivers == 0)
        return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, "level0: zeDriverGet found no driver");
    ze_driver_handle_t *drivers = magnus_host_calloc(ndrivers, sizeof *drivers);
    if (!drivers)
        return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                            "level0: no host memory for %u driver handles", ndrivers);
    magnus_status s = MAGNUS_SUCCESS;
    r = magnus_ze.zeDriverGet(&ndrivers, drivers);
    if (r) s = magnus_ze_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, r, "zeDriverGet");
    int capacity = 0;
    for (uint32_t i = 0; i < ndrivers && !s; i++)
        s = add_driver_devices(drivers[i], &capacity, first_problem, sizeof first_problem);
    magnus_host_free(drivers);
    if (s) return s;
    if (level0_device_count == 0) {
        if (first_problem[0])
            return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, "%s", first_problem);
        return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE,
                            "level0: %u driver(s) but no GPU device", ndrivers);
    }
    return MAGNUS_SUCCESS;
}

magnus_status level0_load(void) {
    if (level0_loaded) return MAGNUS_SUCCESS;
    magnus_status s = magnus_ze_load();
    if (s) return s;
    ze_result_t r = magnus_ze.zeInit(ZE_INIT_FLAG_GPU_ONLY);
    if (r) {
        const char *name = magnus_ze_result_name(r);
        magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE,
                     "level0: zeInit(ZE_INIT_FLAG_GPU_ONLY) failed: %s%s", name ? name : "?",
                     r == ZE_RESULT_ERROR_UNINITIALIZED
                         ? " (no Level Zero GPU driver installed, or none found a GPU)"
                         : "");
        magnus_ze_unload();
        return MAGNUS_ERROR_BACKEND_UNAVAILABLE;
    }
    s = enumerate();
    if (s) {
        level0_unload();
        magnus_ze_unload();
        return s;
    }
    level0_loaded = true;
    return MAGNUS_SUCCESS;
}

void level0_unload(void) {
    magnus_host_free(level0_devices);
    level0_devices = NULL;
    level0_device_count = 0;
    if (level0_loaded) magnus_ze_unload();
    level0_loaded = false;
}

magnus_status level0_device_count_get(int *count) {
    if (!count) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: device count is NULL");
    *count = level0_loaded ? level0_device_count : 0;
    return MAGNUS_SUCCESS;
}

magnus_status level0_device_info(int index, magnus_device_info *info) {
    if (!info) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "level0: device info is NULL");
    if (!level0_loaded || index < 0 || index >= level0_device_count)
        return magnus_error(MAGNUS_ERROR_NO_DEVICE, "level0: no device %d (%d found)", index,
                            level0_loaded ? level0_device_count : 0);
    *info = level0_devices[index].info;
    return MAGNUS_SUCCESS;
}

#else /* built without level_zero/ze_api.h: the backend exists but never loads */

magnus_status level0_load(void) {
    return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE,
                        "level0: libmagnus was built without the Level Zero headers "
                        "(level_zero/ze_api.h, package libze-dev)");
}

void level0_unload(void) {}

#endif /* MAGNUS_HAVE_LEVEL0_HEADERS */

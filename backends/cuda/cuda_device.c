/* CUDA devices: the count and the magnus_device_info of each. */
#ifdef MAGNUS_HAVE_CUDA_H

#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"

void magnus_cuda_format_version(int version, char *buf, size_t size) {
    snprintf(buf, size, "%d.%d", version / 1000, (version % 1000) / 10);
}

magnus_status magnus_cuda_device_count(int *count) {
    *count = 0;
    int n = 0;
    magnus_status s = magnus_cuda_check(magnus_cuda.DeviceGetCount(&n),
                                        MAGNUS_ERROR_BACKEND_UNAVAILABLE, "%s: cuDeviceGetCount",
                                        magnus_cuda_library_path());
    if (s) return s;
    *count = n;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cuda_device_get(int index, CUdevice *device) {
    return magnus_cuda_check(magnus_cuda.DeviceGet(device, index), MAGNUS_ERROR_NO_DEVICE,
                             "cuDeviceGet(%d)", index);
}

magnus_status magnus_cuda_device_attribute(CUdevice device, int index,
                                          CUdevice_attribute which, const char *name,
                                          int *value) {
    return magnus_cuda_check(magnus_cuda.DeviceGetAttribute(value, which, device),
                             MAGNUS_ERROR_DEVICE, "cuDeviceGetAttribute(%s) on CUDA device %d",
                             name, index);
}

magnus_status magnus_cuda_device_info(int index, magnus_device_info *info) {
    memset(info, 0, sizeof *info);
    CUdevice device;
    magnus_status s = magnus_cuda_device_get(index, &device);
    if (s) return s;
    info->backend = MAGNUS_BACKEND_CUDA;
    info->index = index;
    if ((s = magnus_cuda_check(magnus_cuda.DeviceGetName(info->name, (int)sizeof info->name,
                                                          device),
                               MAGNUS_ERROR_DEVICE, "cuDeviceGetName(%d)", index)))
        return s;
    info->name[sizeof info->name - 1] = '\0';
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
    magnus_cuda_format_version(magnus_cuda.driver_version, info->driver_version,
                               sizeof info->driver_version);

    size_t total = 0;
    if ((s = magnus_cuda_check(magnus_cuda.DeviceTotalMem(&total, device), MAGNUS_ERROR_DEVICE,
                               "cuDeviceTotalMem(%d)", index)))
        return s;
    info->global_mem_bytes = total;

    int shared_optin = 0, sms = 0, warp = 0, max_threads = 0;
    if ((s = magnus_cuda_device_attribute(device, index,
                                          CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                          "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", &shared_optin)) ||
        (s = magnus_cuda_device_attribute(device, index, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                          "MULTIPROCESSOR_COUNT", &sms)) ||
        (s = magnus_cuda_device_attribute(device, index, CU_DEVICE_ATTRIBUTE_WARP_SIZE,
                                          "WARP_SIZE", &warp)) ||
        (s = magnus_cuda_device_attribute(device, index, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                          "MAX_THREADS_PER_BLOCK", &max_threads)))
        return s;
    /* The opt-in maximum (227 KiB on Hopper), reachable because launch() raises
     * CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES for launches above 48 KiB. */
    info->local_mem_bytes = (uint64_t)(shared_optin > 0 ? shared_optin : 0);
    info->compute_units = sms;
    info->subgroup_sizes[0] = warp;
    info->num_subgroup_sizes = 1;
    info->max_work_group_size = (uint64_t)(max_threads > 0 ? max_threads : 0);
    /* nvcc -Xptxas -v: every hash kernel uses at most 32 registers per thread on sm_90, so
     * 1024 threads fit an SM's 64K registers (docs/performance.md, "Numeric phase") */
    info->wide_group_size = info->max_work_group_size < 1024 ? info->max_work_group_size : 1024;
    /* Every device the embedded kernels can run on (sm_60 and newer: atomicAdd on double)
     * has native fp64 and 64-bit atomics on global and shared memory. */
    info->fp64 = 1;
    info->atomic64 = 1;
    info->is_cpu = 0;
    return MAGNUS_SUCCESS;
}

#endif /* MAGNUS_HAVE_CUDA_H */

/*
 * OpenCL device enumeration and the magnus_device_info of each device.
 *
 * Subgroup size: OpenCL 1.2 has no subgroups, and the kernels never rely on one (the dialect's
 * "subgroups" are ranges of local ids). The value only sizes per-subgroup histograms, so it
 * should match the hardware's SIMD width. It comes from, in order: NVIDIA's warp size
 * (cl_nv_device_attribute_query), AMD's wavefront width (cl_amd_device_attribute_query),
 * Intel's list of sub-group sizes (cl_intel_required_subgroup_size), OpenCL 3.0's
 * CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (PoCL answers 8 on x86), else 32. Querying
 * CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE would need a built kernel, which costs seconds
 * on CPU implementations, too much for a probe.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "opencl_internal.h"

#define MAGNUS_CL_MAX_DEVICES 64

static struct {
    cl_platform_id platform;
    cl_device_id device;
} devices[MAGNUS_CL_MAX_DEVICES];
static int ndevices;
/* The list is rewritten by every probe while contexts may be created on other threads. */
static pthread_mutex_t devices_lock = PTHREAD_MUTEX_INITIALIZER;

/* A device parameter of any length as a new host string (magnus_host_free it); errors name
 * `call`, an allocation failure `what`. */
static magnus_status device_text(cl_device_id device, cl_device_info param, const char *call,
                                 const char *what, char **out) {
    size_t size = 0;
    *out = NULL;
    cl_int err = magnus_cl.GetDeviceInfo(device, param, 0, NULL, &size);
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, call);
    char *text = magnus_host_malloc(size + 1);
    if (!text) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "%s", what);
    err = magnus_cl.GetDeviceInfo(device, param, size, text, NULL);
    if (err != CL_SUCCESS) {
        magnus_host_free(text);
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, call);
    }
    text[size] = '\0';
    *out = text;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_device_string(cl_device_id device, cl_device_info param, char *buf,
                                      size_t capacity) {
    char *text;
    buf[0] = '\0';
    magnus_status s = device_text(device, param, "clGetDeviceInfo", "OpenCL device string", &text);
    if (s) return s;
    snprintf(buf, capacity, "%s", text);
    magnus_host_free(text);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_platform_string(cl_platform_id platform, cl_platform_info param,
                                        char *buf, size_t capacity) {
    size_t size = 0;
    buf[0] = '\0';
    cl_int err = magnus_cl.GetPlatformInfo(platform, param, 0, NULL, &size);
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clGetPlatformInfo");
    char *text = magnus_host_malloc(size + 1);
    if (!text) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "OpenCL platform string");
    err = magnus_cl.GetPlatformInfo(platform, param, size, text, NULL);
    text[size] = '\0';
    if (err == CL_SUCCESS) snprintf(buf, capacity, "%s", text);
    magnus_host_free(text);
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clGetPlatformInfo");
    return MAGNUS_SUCCESS;
}

bool magnus_cl_extension_listed(const char *list, const char *extension) {
    size_t len = strlen(extension);
    for (const char *p = strstr(list, extension); p; p = strstr(p + 1, extension)) {
        bool starts = p == list || p[-1] == ' ';
        bool ends = p[len] == '\0' || p[len] == ' ';
        if (starts && ends) return true;
    }
    return false;
}

magnus_status magnus_cl_device_extensions(cl_device_id device, char **list) {
    return device_text(device, CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS", "OpenCL extension list",
                       list);
}

/* "OpenCL C 1.2 ..." or "OpenCL 1.2 ..." -> 120; 0 when unreadable. */
static int version_number(const char *text) {
    int major = 0, minor = 0;
    const char *p = strstr(text, "OpenCL");
    if (!p) return 0;
    p += 6;
    if (strncmp(p, " C", 2) == 0) p += 2;
    if (sscanf(p, " %d.%d", &major, &minor) != 2) return 0;
    return major * 100 + minor * 10;
}

/* Usable: available, with a compiler, OpenCL 1.2 or later. Fails only for host memory. */
static magnus_status device_usable(cl_device_id device, const char **why) {
    cl_bool available = CL_FALSE, compiler = CL_FALSE;
    char version[256];
    *why = "its parameters cannot be read";
    if (magnus_cl.GetDeviceInfo(device, CL_DEVICE_AVAILABLE, sizeof available, &available, NULL) ||
        magnus_cl.GetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler,
                                NULL))
        return MAGNUS_SUCCESS;
    magnus_status s = magnus_cl_device_string(device, CL_DEVICE_VERSION, version, sizeof version);
    if (s == MAGNUS_ERROR_OUT_OF_HOST_MEMORY) return s;
    *why = s                               ? "its version cannot be read"
         : !available                      ? "not available (CL_DEVICE_AVAILABLE false: in use "
                                             "by another process in an exclusive compute mode?)"
         : !compiler                       ? "no OpenCL C compiler"
         : version_number(version) < 120   ? "older than OpenCL 1.2"
                                           : NULL;
    return MAGNUS_SUCCESS;
}

static magnus_status enumerate(int *count);

magnus_status magnus_cl_device_count(int *count) {
    pthread_mutex_lock(&devices_lock);
    magnus_status s = enumerate(count);
    pthread_mutex_unlock(&devices_lock);
    return s;
}

/* Fills the list; caller holds devices_lock. */
static magnus_status enumerate(int *count) {
    char skipped[400] = "";
    *count = 0;
    ndevices = 0;
    cl_uint nplatforms = 0;
    cl_int err = magnus_cl.GetPlatformIDs(0, NULL, &nplatforms);
    /* The ICD loader reports "no platform" as an error; for magnus it is zero devices. */
    if (err == -1001 || (err == CL_SUCCESS && nplatforms == 0)) return MAGNUS_SUCCESS;
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clGetPlatformIDs");
    cl_platform_id platforms[16];
    if (nplatforms > 16) nplatforms = 16;
    err = magnus_cl.GetPlatformIDs(nplatforms, platforms, NULL);
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clGetPlatformIDs");
    for (cl_uint p = 0; p < nplatforms; p++) {
        cl_device_id ids[MAGNUS_CL_MAX_DEVICES];
        cl_uint n = 0;
        err = magnus_cl.GetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAGNUS_CL_MAX_DEVICES, ids, &n);
        if (err == CL_DEVICE_NOT_FOUND) continue;
        if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clGetDeviceIDs");
        if (n > MAGNUS_CL_MAX_DEVICES) n = MAGNUS_CL_MAX_DEVICES;
        for (cl_uint d = 0; d < n && ndevices < MAGNUS_CL_MAX_DEVICES; d++) {
            const char *why;
            magnus_status s = device_usable(ids[d], &why);
            if (s) return s;
            if (why) {
                char name[128];
                if (magnus_cl_device_string(ids[d], CL_DEVICE_NAME, name, sizeof name) ==
                    MAGNUS_ERROR_OUT_OF_HOST_MEMORY)
                    return MAGNUS_ERROR_OUT_OF_HOST_MEMORY;
                size_t used = strlen(skipped);
                snprintf(skipped + used, sizeof skipped - used, "%sskipped %s: %s",
                         used ? "; " : "", name, why);
                continue;
            }
            devices[ndevices].platform = platforms[p];
            devices[ndevices].device = ids[d];
            ndevices++;
        }
    }
    *count = ndevices;
    if (skipped[0]) magnus_error(MAGNUS_SUCCESS, "%s", skipped); /* a note for the probe */
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_device_ids(int index, cl_platform_id *platform, cl_device_id *device) {
    int count = 0; /* enumerate's output; ndevices is read only under the lock */
    magnus_status s = MAGNUS_SUCCESS;
    pthread_mutex_lock(&devices_lock);
    if (ndevices == 0) s = enumerate(&count);
    if (!s && (index < 0 || index >= ndevices))
        s = magnus_error(MAGNUS_ERROR_NO_DEVICE, "OpenCL has no device %d (%d found)", index,
                         ndevices);
    if (!s) {
        *platform = devices[index].platform;
        *device = devices[index].device;
    }
    pthread_mutex_unlock(&devices_lock);
    return s;
}

/* One scalar parameter, or a magnus status naming it. */
#define QUERY(param, var)                                                                        \
    do {                                                                                         \
        cl_int e_ = magnus_cl.GetDeviceInfo(device, param, sizeof(var), &(var), NULL);           \
        if (e_ != CL_SUCCESS) return magnus_cl_fail(e_, MAGNUS_ERROR_DEVICE, "clGetDeviceInfo(" #param ")"); \
    } while (0)

static void subgroup_sizes(cl_device_id device, const char *ext, magnus_device_info *info) {
    cl_uint width = 0;
    info->num_subgroup_sizes = 0;
    if (magnus_cl_extension_listed(ext, "cl_nv_device_attribute_query") &&
        magnus_cl.GetDeviceInfo(device, MAGNUS_CL_DEVICE_WARP_SIZE_NV, sizeof width, &width, NULL) ==
            CL_SUCCESS && width > 0) {
        info->subgroup_sizes[info->num_subgroup_sizes++] = (int)width;
        return;
    }
    if (strstr(info->vendor, "NVIDIA")) {
        info->subgroup_sizes[info->num_subgroup_sizes++] = 32;
        return;
    }
    if (magnus_cl_extension_listed(ext, "cl_amd_device_attribute_query") &&
        magnus_cl.GetDeviceInfo(device, MAGNUS_CL_DEVICE_WAVEFRONT_WIDTH_AMD, sizeof width, &width,
                                NULL) == CL_SUCCESS && width > 0) {
        info->subgroup_sizes[info->num_subgroup_sizes++] = (int)width;
        return;
    }
    if (magnus_cl_extension_listed(ext, "cl_intel_required_subgroup_size")) {
        size_t sizes[8], bytes = 0;
        if (magnus_cl.GetDeviceInfo(device, MAGNUS_CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes,
                                    sizes, &bytes) == CL_SUCCESS) {
            for (size_t i = 0; i < bytes / sizeof sizes[0] && i < 8; i++)
                info->subgroup_sizes[info->num_subgroup_sizes++] = (int)sizes[i];
            if (info->num_subgroup_sizes > 0) return;
        }
    }
    size_t multiple = 0;
    if (magnus_cl.GetDeviceInfo(device, MAGNUS_CL_DEVICE_PREFERRED_WG_MULTIPLE, sizeof multiple,
                                &multiple, NULL) == CL_SUCCESS && multiple > 0 && multiple <= 1024) {
        info->subgroup_sizes[info->num_subgroup_sizes++] = (int)multiple;
        return;
    }
    info->subgroup_sizes[info->num_subgroup_sizes++] = 32;
}

magnus_status magnus_cl_device_info(int index, magnus_device_info *info) {
    cl_platform_id platform = NULL;
    cl_device_id device = NULL;
    magnus_status s = magnus_cl_device_ids(index, &platform, &device);
    if (s) return s;
    memset(info, 0, sizeof *info);
    info->backend = MAGNUS_BACKEND_OPENCL;
    info->index = index;
    if ((s = magnus_cl_device_string(device, CL_DEVICE_NAME, info->name, sizeof info->name)) ||
        (s = magnus_cl_device_string(device, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor)) ||
        (s = magnus_cl_device_string(device, CL_DRIVER_VERSION, info->driver_version,
                                     sizeof info->driver_version)))
        return s;
    cl_ulong global_mem = 0, local_mem = 0, max_alloc = 0;
    cl_uint units = 0;
    size_t max_wg = 0;
    cl_device_type type = 0;
    cl_device_fp_config fp64_config = 0;
    QUERY(CL_DEVICE_GLOBAL_MEM_SIZE, global_mem);
    QUERY(CL_DEVICE_LOCAL_MEM_SIZE, local_mem);
    QUERY(CL_DEVICE_MAX_MEM_ALLOC_SIZE, max_alloc);
    QUERY(CL_DEVICE_MAX_COMPUTE_UNITS, units);
    QUERY(CL_DEVICE_MAX_WORK_GROUP_SIZE, max_wg);
    QUERY(CL_DEVICE_TYPE, type);
    /* Not an error when absent: OpenCL 1.2 devices without fp64 may refuse the query. */
    if (magnus_cl.GetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64_config,
                                &fp64_config, NULL) != CL_SUCCESS)
        fp64_config = 0;
    info->global_mem_bytes = global_mem;
    info->local_mem_bytes = local_mem;
    info->max_alloc_bytes = max_alloc;
    info->compute_units = (int)units;
    info->max_work_group_size = max_wg;
    /* a kernel's own limit (registers) is known only once it is built: NVIDIA's OpenCL refused
     * the numeric hash kernel at 512 work items with CL_OUT_OF_RESOURCES */
    info->wide_group_size = 256;
    char *ext;
    if ((s = magnus_cl_device_extensions(device, &ext))) return s;
    info->fp64 = fp64_config != 0 || magnus_cl_extension_listed(ext, "cl_khr_fp64");
    info->atomic64 = magnus_cl_extension_listed(ext, "cl_khr_int64_base_atomics") &&
                     magnus_cl_extension_listed(ext, "cl_khr_int64_extended_atomics");
    info->is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    subgroup_sizes(device, ext, info);
    magnus_host_free(ext);
    return MAGNUS_SUCCESS;
}

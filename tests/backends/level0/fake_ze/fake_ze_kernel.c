/*
 * The fake driver's kernels: arguments set the Level Zero way (every one by value; a global
 * pointer as its address, local memory as a size with a NULL value), captured by each launch
 * when it is appended, and handed to OpenCL the OpenCL way when the device runs the launch
 * (clSetKernelArgSVMPointer, clSetKernelArg(size, NULL), clSetKernelArg). Which parameter is
 * which comes from the SPIR-V (fake_ze_spirv.c), not from OpenCL, so a kernel whose SPIR-V
 * says otherwise than the caller assumes fails here as it would on Intel's driver.
 *
 * Checked as a driver checks (error results): argument indices and sizes, group sizes
 * against maxTotalGroupSize, a launch's local memory (the kernel's own arrays plus its local
 * arguments) against the device's maxSharedLocalMemory. Reported as misuse (what a GPU would
 * run anyway, with garbage): a launch with an argument or the group size never set, a launch
 * whose pointer argument is outside every live allocation when it runs, a kernel destroyed
 * under queued launches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_ze.h"

static bool kernel_ok(ze_kernel_handle_t kernel) {
    return kernel && kernel->magic == FAKE_ZE_MAGIC_KERNEL && !kernel->destroyed;
}

ze_result_t ZE_APICALL fake_zeKernelCreate(ze_module_handle_t module, const ze_kernel_desc_t *desc,
                                           ze_kernel_handle_t *out) {
    if (!module || module->magic != FAKE_ZE_MAGIC_MODULE) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out || !desc->pKernelName) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    *out = NULL;
    const fake_ze_entry *entry = fake_ze_spirv_find(&module->info, desc->pKernelName);
    if (!entry) return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
    ze_kernel_handle_t k = calloc(1, sizeof *k);
    fake_ze_arg *args = calloc(entry->nparams ? entry->nparams : 1, sizeof *args);
    if (!k || !args) {
        free(k);
        free(args);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    cl_int err;
    k->kernel = clCreateKernel(module->program, entry->name, &err);
    cl_uint cl_args = 0;
    if (k->kernel)
        clGetKernelInfo(k->kernel, CL_KERNEL_NUM_ARGS, sizeof cl_args, &cl_args, NULL);
    if (!k->kernel || cl_args != entry->nparams) {
        fprintf(stderr, "fake_ze: kernel %s: clCreateKernel %d, %u OpenCL arguments for %u SPIR-V "
                "parameters\n", entry->name, err, cl_args, entry->nparams);
        if (k->kernel) clReleaseKernel(k->kernel);
        free(k);
        free(args);
        return ZE_RESULT_ERROR_UNKNOWN;
    }
    /* From the SPIR-V: PoCL's CL_KERNEL_LOCAL_MEM_SIZE counts every kernel's arrays. */
    k->static_local_bytes = entry->static_local_bytes;
    for (uint32_t i = 0; i < entry->nparams; i++) args[i].kind = entry->params[i].kind;
    k->magic = FAKE_ZE_MAGIC_KERNEL;
    k->module = module;
    k->entry = entry;
    k->args = args;
    k->nargs = entry->nparams;
    module->live_kernels++;
    fake_ze_object_created();
    *out = k;
    return ZE_RESULT_SUCCESS;
}

static void kernel_free(ze_kernel_handle_t k) {
    k->magic = 0;
    free(k->args);
    free(k);
}

ze_result_t ZE_APICALL fake_zeKernelDestroy(ze_kernel_handle_t kernel) {
    if (!kernel_ok(kernel)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    fake_ze_run_pending();
    if (fake_ze_kernel_in_use(kernel)) {
        fake_ze_misuse("zeKernelDestroy(%s) while queued launches still use it", kernel->entry->name);
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    }
    clReleaseKernel(kernel->kernel);
    kernel->kernel = NULL;
    kernel->destroyed = true;
    kernel->module->live_kernels--;
    fake_ze_object_destroyed();
    /* Launches recorded in regular lists keep the struct (not the kernel) until they go. */
    if (kernel->launches == 0) kernel_free(kernel);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeKernelSetGroupSize(ze_kernel_handle_t kernel, uint32_t x, uint32_t y,
                                                 uint32_t z) {
    if (!kernel_ok(kernel)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (x == 0 || y == 0 || z == 0 || (uint64_t)x * y * z > FAKE_ZE_MAX_GROUP_SIZE)
        return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    kernel->group[0] = x;
    kernel->group[1] = y;
    kernel->group[2] = z;
    return ZE_RESULT_SUCCESS;
}

/* Checked like a driver checks the flags; the split itself changes nothing on PoCL. */
ze_result_t ZE_APICALL fake_zeKernelSetCacheConfig(ze_kernel_handle_t kernel,
                                                   ze_cache_config_flags_t flags) {
    if (!kernel_ok(kernel)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (flags & ~(ze_cache_config_flags_t)(ZE_CACHE_CONFIG_FLAG_LARGE_SLM |
                                           ZE_CACHE_CONFIG_FLAG_LARGE_DATA))
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    kernel->cache_flags = flags;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeKernelSetArgumentValue(ze_kernel_handle_t kernel, uint32_t index,
                                                     size_t size, const void *value) {
    if (!kernel_ok(kernel)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (index >= kernel->nargs) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
    const fake_ze_param *param = &kernel->entry->params[index];
    fake_ze_arg *arg = &kernel->args[index];
    switch (param->kind) {
    case FAKE_ZE_PARAM_GLOBAL:
        if (size != sizeof(void *)) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
        arg->pointer = NULL; /* a NULL value is a NULL pointer */
        if (value) memcpy(&arg->pointer, value, sizeof arg->pointer);
        break;
    case FAKE_ZE_PARAM_LOCAL:
        if (size == 0) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
        if (value) return ZE_RESULT_ERROR_INVALID_ARGUMENT; /* local memory has no value */
        break;
    case FAKE_ZE_PARAM_VALUE:
        if ((param->size && size != param->size) || size == 0 || size > sizeof arg->value)
            return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
        if (!value) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
        memcpy(arg->value, value, size);
        break;
    }
    arg->size = size;
    arg->set = true;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeKernelGetProperties(ze_kernel_handle_t kernel,
                                                  ze_kernel_properties_t *props) {
    if (!kernel_ok(kernel)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!props) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    ze_structure_type_t stype = props->stype;
    void *next = props->pNext;
    memset(props, 0, sizeof *props);
    props->stype = stype;
    props->pNext = next;
    props->numKernelArgs = kernel->nargs;
    props->localMemSize = (uint32_t)kernel->static_local_bytes;
    props->maxSubgroupSize = 32;
    props->maxNumSubgroups = FAKE_ZE_MAX_GROUP_SIZE / 8;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeKernelGetName(ze_kernel_handle_t kernel, size_t *size, char *name) {
    if (!kernel_ok(kernel)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!size) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    size_t need = strlen(kernel->entry->name) + 1;
    if (!name) {
        *size = need;
        return ZE_RESULT_SUCCESS;
    }
    if (*size < need) return ZE_RESULT_ERROR_INVALID_SIZE;
    memcpy(name, kernel->entry->name, need);
    return ZE_RESULT_SUCCESS;
}

/* ---- launches ------------------------------------------------------------------------------- */

ze_result_t fake_ze_launch_capture(fake_ze_launch *out, ze_kernel_handle_t kernel,
                                   const ze_group_count_t *count) {
    memset(out, 0, sizeof *out);
    if (!kernel_ok(kernel)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    const char *name = kernel->entry->name;
    if (kernel->group[0] == 0) {
        fake_ze_misuse("launch of %s before zeKernelSetGroupSize", name);
        return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    }
    uint64_t local = kernel->static_local_bytes;
    for (uint32_t i = 0; i < kernel->nargs; i++) {
        if (!kernel->args[i].set) {
            fake_ze_misuse("launch of %s with argument %u never set", name, i);
            return ZE_RESULT_ERROR_INVALID_ARGUMENT;
        }
        if (kernel->args[i].kind == FAKE_ZE_PARAM_LOCAL) local += kernel->args[i].size;
    }
    uint64_t limit = fake_ze_config_get()->local_mem_bytes;
    if (local > limit) {
        fprintf(stderr, "fake_ze: launch of %s needs %llu bytes of local memory (%llu its own), "
                "the device has %llu\n", name, (unsigned long long)local,
                (unsigned long long)kernel->static_local_bytes, (unsigned long long)limit);
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    /* A test set-up error, not the caller's: the fake describes more local memory than the
     * OpenCL device running its kernels has (PoCL would fail an assertion inside the launch). */
    cl_ulong host_local = 0;
    if (clGetDeviceInfo(fake_ze_cl_device(), CL_DEVICE_LOCAL_MEM_SIZE, sizeof host_local,
                        &host_local, NULL) == CL_SUCCESS && local > host_local) {
        fprintf(stderr, "fake_ze: launch of %s needs %llu bytes of local memory, which "
                "FAKE_ZE_LOCAL_MEM allows, but the OpenCL device that runs the fake's kernels has "
                "%llu (PoCL: give it more with HWLOC_SYNTHETIC, as tests/shapes.cmake does)\n",
                name, (unsigned long long)local, (unsigned long long)host_local);
        abort();
    }
    out->args = malloc((kernel->nargs ? kernel->nargs : 1) * sizeof *out->args);
    if (!out->args) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    memcpy(out->args, kernel->args, kernel->nargs * sizeof *out->args);
    out->kernel = kernel;
    out->nargs = kernel->nargs;
    memcpy(out->group, kernel->group, sizeof out->group);
    out->count[0] = count->groupCountX;
    out->count[1] = count->groupCountY;
    out->count[2] = count->groupCountZ;
    kernel->launches++;
    return ZE_RESULT_SUCCESS;
}

bool fake_ze_launch_copy(fake_ze_launch *out, const fake_ze_launch *in) {
    *out = *in;
    out->args = malloc((in->nargs ? in->nargs : 1) * sizeof *out->args);
    if (!out->args) {
        memset(out, 0, sizeof *out);
        return false;
    }
    memcpy(out->args, in->args, in->nargs * sizeof *out->args);
    in->kernel->launches++;
    return true;
}

void fake_ze_launch_free(fake_ze_launch *launch) {
    if (!launch->kernel) return;
    ze_kernel_handle_t k = launch->kernel;
    free(launch->args);
    memset(launch, 0, sizeof *launch);
    if (--k->launches == 0 && k->destroyed) kernel_free(k);
}

void fake_ze_launch_run(const fake_ze_launch *l) {
    ze_kernel_handle_t k = l->kernel;
    if (k->destroyed) {
        fake_ze_misuse("a command list launched a destroyed kernel");
        return;
    }
    const char *name = k->entry->name;
    cl_int err = CL_SUCCESS;
    for (uint32_t i = 0; i < l->nargs && err == CL_SUCCESS; i++) {
        const fake_ze_arg *a = &l->args[i];
        switch (a->kind) {
        case FAKE_ZE_PARAM_GLOBAL:
            if (a->pointer && !fake_ze_is_allocated(a->pointer)) {
                fake_ze_misuse("%s ran with argument %u = %p outside every live allocation", name,
                               i, a->pointer);
                return;
            }
            err = clSetKernelArgSVMPointer(k->kernel, i, a->pointer);
            break;
        case FAKE_ZE_PARAM_LOCAL: err = clSetKernelArg(k->kernel, i, a->size, NULL); break;
        case FAKE_ZE_PARAM_VALUE: err = clSetKernelArg(k->kernel, i, a->size, a->value); break;
        }
        if (err != CL_SUCCESS) {
            fake_ze_misuse("%s: OpenCL refused argument %u (%zu bytes): %d", name, i, a->size, err);
            return;
        }
    }
    size_t global[3], local[3];
    uint64_t items = 1;
    for (int d = 0; d < 3; d++) {
        local[d] = l->group[d];
        global[d] = (size_t)l->count[d] * l->group[d];
        items *= global[d];
    }
    if (items == 0) return; /* no groups: nothing runs */
    /* As few dimensions as the launch needs: a 1-D launch is PoCL's most common (and cached)
     * specialisation, the one the OpenCL backend's launches of the same kernels use. */
    cl_uint dims = 3;
    while (dims > 1 && global[dims - 1] == 1 && local[dims - 1] == 1) dims--;
    err = clEnqueueNDRangeKernel(fake_ze_cl_queue(), k->kernel, dims, NULL, global, local, 0, NULL,
                                 NULL);
    if (err == CL_SUCCESS) err = clFinish(fake_ze_cl_queue());
    if (err != CL_SUCCESS) {
        fake_ze_misuse("%s: OpenCL could not run %llu groups of %u: %d", name,
                       (unsigned long long)l->count[0] * l->count[1] * l->count[2],
                       l->group[0] * l->group[1] * l->group[2], err);
        return;
    }
    fake_ze_clock_advance(items);
}

/*
 * The fake driver's modules: zeModuleCreate checks the SPIR-V as a driver does (format, magic
 * number, version at most the 1.2 the device reports, build options), reads its kernels
 * (fake_ze_spirv.c), translates it to SPIR 1.2 bitcode (fake_ze_translate.c) and builds that
 * on the OpenCL device (fake_ze_opencl.c). Every failure is ZE_RESULT_ERROR_MODULE_BUILD_FAILURE
 * with a build log that says which step failed and why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_ze.h"

#define SPIRV_MAGIC_NUMBER 0x07230203u

static ze_result_t make_log(ze_module_build_log_handle_t *out, const char *text) {
    if (!out) return ZE_RESULT_SUCCESS;
    ze_module_build_log_handle_t log = calloc(1, sizeof *log);
    if (!log) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    log->magic = FAKE_ZE_MAGIC_LOG;
    snprintf(log->text, sizeof log->text, "%s", text);
    fake_ze_object_created();
    *out = log;
    return ZE_RESULT_SUCCESS;
}

/* The OpenCL options for the zeModuleCreate flags: Intel's -ze-* options mean nothing to
 * OpenCL and are dropped, -cl-* options pass through, anything else fails the build. */
static bool build_options(const char *flags, char *out, size_t size, char *log, size_t log_size) {
    snprintf(out, size, "-x spir -spir-std=1.2");
    if (!flags) return true;
    const char *p = flags;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        size_t n = strcspn(p, " \t");
        if (n >= 4 && strncmp(p, "-ze-", 4) == 0) {
            /* stateless addressing and the like: IGC's business */
        } else if (n >= 4 && strncmp(p, "-cl-", 4) == 0) {
            size_t used = strlen(out);
            if (used + n + 2 > size) {
                snprintf(log, log_size, "fake_ze: build flags too long: %s", flags);
                return false;
            }
            snprintf(out + used, size - used, " %.*s", (int)n, p);
        } else {
            snprintf(log, log_size, "fake_ze: unknown build option \"%.*s\" in \"%s\"", (int)n, p,
                     flags);
            return false;
        }
        p += n;
    }
    return true;
}

/* Builds the module; false with the reason in `log`. */
static bool build(ze_module_handle_t module, const ze_module_desc_t *desc, char *log,
                  size_t log_size) {
    if (fake_ze_config_get()->fail_at == FAKE_ZE_FAIL_BUILD) {
        snprintf(log, log_size, "fake_ze: FAKE_ZE_FAIL_AT=build: this build fails on purpose");
        return false;
    }
    if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV) {
        snprintf(log, log_size, "fake_ze: only SPIR-V modules are supported (format %d)",
                 (int)desc->format);
        return false;
    }
    if (desc->pConstants && desc->pConstants->numConstants > 0) {
        snprintf(log, log_size, "fake_ze: specialization constants are not supported");
        return false;
    }
    /* The header first, as a driver does: magic number, then a version it accepts. */
    uint32_t header[2] = {0, 0};
    if (desc->inputSize >= sizeof header) memcpy(header, desc->pInputModule, sizeof header);
    uint32_t v = header[1], major = (v >> 16) & 0xff, minor = (v >> 8) & 0xff;
    if (header[0] == SPIRV_MAGIC_NUMBER && v > 0x00010200u) {
        snprintf(log, log_size, "fake_ze: SPIR-V %u.%u is newer than the 1.2 supported", major, minor);
        return false;
    }
    char why[256] = "";
    if (!fake_ze_spirv_read(&module->info, desc->pInputModule, desc->inputSize, why, sizeof why)) {
        snprintf(log, log_size, "fake_ze: input of %zu bytes is not a SPIR-V module the fake can "
                 "read: %s", desc->inputSize, why);
        return false;
    }
    char options[1024];
    if (!build_options(desc->pBuildFlags, options, sizeof options, log, log_size)) return false;
    /* A cached translation that does not build (a stale or damaged cache) is redone once. */
    bool cached = false;
    for (int attempt = 0; attempt < 2 && !module->program; attempt++) {
        size_t size = 0;
        unsigned char *bitcode = fake_ze_translate(desc->pInputModule, desc->inputSize,
                                                   attempt == 0, &size, &cached, log, log_size);
        if (!bitcode) return false;
        module->program = fake_ze_cl_build(bitcode, size, options, log, log_size);
        free(bitcode);
        if (!module->program && !cached) return false;
    }
    if (!module->program) return false;
    char device[128] = "?";
    clGetDeviceInfo(fake_ze_cl_device(), CL_DEVICE_NAME, sizeof device, device, NULL);
    device[sizeof device - 1] = '\0';
    snprintf(log, log_size,
             "fake_ze: SPIR-V %u.%u module of %zu bytes, %u kernels, built as SPIR 1.2 (%s) on "
             "OpenCL device %s", major, minor, desc->inputSize, module->info.nentries,
             cached ? "translation cached" : "translated", device);
    return true;
}

ze_result_t ZE_APICALL fake_zeModuleCreate(ze_context_handle_t context, ze_device_handle_t device,
                                           const ze_module_desc_t *desc, ze_module_handle_t *out,
                                           ze_module_build_log_handle_t *log) {
    if (!fake_ze_context_ok(context) || !fake_ze_device_ok(device))
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out || !desc->pInputModule) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (log) *log = NULL;
    *out = NULL;
    ze_module_handle_t module = calloc(1, sizeof *module);
    if (!module) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    module->magic = FAKE_ZE_MAGIC_MODULE;
    module->context = context;
    char text[4096];
    bool built = build(module, desc, text, sizeof text);
    ze_result_t r = make_log(log, text);
    if (!built || r) {
        if (module->program) clReleaseProgram(module->program);
        fake_ze_spirv_free(&module->info);
        free(module);
        return r ? r : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    fake_ze_object_created();
    *out = module;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeModuleDestroy(ze_module_handle_t module) {
    if (!module || module->magic != FAKE_ZE_MAGIC_MODULE) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (module->live_kernels) {
        fake_ze_misuse("zeModuleDestroy with %u kernels not destroyed", module->live_kernels);
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    }
    module->magic = 0;
    clReleaseProgram(module->program);
    fake_ze_spirv_free(&module->info);
    free(module);
    fake_ze_object_destroyed();
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeModuleGetKernelNames(ze_module_handle_t module, uint32_t *count,
                                                   const char **names) {
    if (!module || module->magic != FAKE_ZE_MAGIC_MODULE) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    uint32_t n = module->info.nentries;
    if (*count == 0 || !names) {
        *count = n;
        return ZE_RESULT_SUCCESS;
    }
    if (*count > n) *count = n;
    for (uint32_t i = 0; i < *count; i++) names[i] = module->info.entries[i].name;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fake_zeModuleBuildLogDestroy(ze_module_build_log_handle_t log) {
    if (!log || log->magic != FAKE_ZE_MAGIC_LOG) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    log->magic = 0;
    free(log);
    fake_ze_object_destroyed();
    return ZE_RESULT_SUCCESS;
}

/* The usual protocol: size (with the terminator) when text is NULL, else the text. */
ze_result_t ZE_APICALL fake_zeModuleBuildLogGetString(ze_module_build_log_handle_t log,
                                                      size_t *size, char *text) {
    if (!log || log->magic != FAKE_ZE_MAGIC_LOG) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!size) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    size_t need = strlen(log->text) + 1;
    if (!text) {
        *size = need;
        return ZE_RESULT_SUCCESS;
    }
    if (*size < need) return ZE_RESULT_ERROR_INVALID_SIZE;
    memcpy(text, log->text, need);
    return ZE_RESULT_SUCCESS;
}

/*
 * The fake driver's modules: zeModuleCreate checks that it was given a SPIR-V module the
 * device accepts (magic number, version at most 1.2), then reports a build failure with a log
 * that says so, because the fake does not run kernels yet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_ze.h"

#define SPIRV_MAGIC 0x07230203u

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

ze_result_t ZE_APICALL fake_zeModuleCreate(ze_context_handle_t context, ze_device_handle_t device,
                                           const ze_module_desc_t *desc, ze_module_handle_t *module,
                                           ze_module_build_log_handle_t *log) {
    if (!fake_ze_context_ok(context) || !fake_ze_device_ok(device))
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !module || !desc->pInputModule) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (log) *log = NULL;
    *module = NULL;
    char text[256];
    uint32_t header[5];
    if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV || desc->inputSize < sizeof header ||
        desc->inputSize % 4) {
        snprintf(text, sizeof text, "fake_ze: input of %zu bytes is not a SPIR-V module",
                 desc->inputSize);
    } else {
        memcpy(header, desc->pInputModule, sizeof header);
        uint32_t major = (header[1] >> 16) & 0xff, minor = (header[1] >> 8) & 0xff;
        if (header[0] != SPIRV_MAGIC)
            snprintf(text, sizeof text, "fake_ze: bad SPIR-V magic number 0x%08x", header[0]);
        else if (header[1] > 0x00010200u)
            snprintf(text, sizeof text, "fake_ze: SPIR-V %u.%u is newer than the 1.2 supported",
                     major, minor);
        else
            snprintf(text, sizeof text,
                     "fake_ze: SPIR-V %u.%u module of %zu bytes accepted, but this fake driver "
                     "does not run kernels yet", major, minor, desc->inputSize);
    }
    ze_result_t r = make_log(log, text);
    return r ? r : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
}

ze_result_t ZE_APICALL fake_zeModuleDestroy(ze_module_handle_t module) {
    if (!module || module->magic != FAKE_ZE_MAGIC_MODULE) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    module->magic = 0;
    free(module);
    fake_ze_object_destroyed();
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

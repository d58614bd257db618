/* Status strings, the thread-local detail message, and the library version. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define MAGNUS_STR2(x) #x
#define MAGNUS_STR(x) MAGNUS_STR2(x)

static _Thread_local char detail[1024];

const char *magnus_version(void) {
    return MAGNUS_STR(MAGNUS_VERSION_MAJOR) "." MAGNUS_STR(MAGNUS_VERSION_MINOR) "." MAGNUS_STR(
        MAGNUS_VERSION_PATCH);
}

magnus_status magnus_version_numbers(int *major, int *minor, int *patch) {
    if (major) *major = MAGNUS_VERSION_MAJOR;
    if (minor) *minor = MAGNUS_VERSION_MINOR;
    if (patch) *patch = MAGNUS_VERSION_PATCH;
    return MAGNUS_SUCCESS;
}

const char *magnus_status_string(magnus_status s) {
    switch (s) {
    case MAGNUS_SUCCESS: return "success";
    case MAGNUS_ERROR_NULL_POINTER: return "NULL pointer argument";
    case MAGNUS_ERROR_INVALID_HANDLE: return "invalid handle";
    case MAGNUS_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case MAGNUS_ERROR_DIMENSION_MISMATCH: return "dimension mismatch";
    case MAGNUS_ERROR_UNSUPPORTED_TYPE: return "unsupported value type";
    case MAGNUS_ERROR_SIZE_OVERFLOW: return "size overflows 64 bits";
    case MAGNUS_ERROR_CANCELLED: return "cancelled by the progress callback";
    case MAGNUS_ERROR_ROWPTR_INVALID: return "invalid CSR: row_ptr[0] or row_ptr[rows] wrong";
    case MAGNUS_ERROR_ROWPTR_NOT_MONOTONE: return "invalid CSR: row pointers not monotone";
    case MAGNUS_ERROR_COLUMN_OUT_OF_RANGE: return "invalid CSR: column out of range";
    case MAGNUS_ERROR_COLUMNS_UNSORTED: return "invalid CSR: columns not sorted";
    case MAGNUS_ERROR_DUPLICATE_COLUMN: return "invalid CSR: duplicate column";
    case MAGNUS_ERROR_FILE_OPEN: return "cannot open file";
    case MAGNUS_ERROR_FILE_READ: return "file read error";
    case MAGNUS_ERROR_FILE_WRITE: return "file write error";
    case MAGNUS_ERROR_MM_BANNER: return "Matrix Market: bad banner";
    case MAGNUS_ERROR_MM_UNSUPPORTED: return "Matrix Market: unsupported format";
    case MAGNUS_ERROR_MM_SIZE_LINE: return "Matrix Market: bad size line";
    case MAGNUS_ERROR_MM_ENTRY_COUNT: return "Matrix Market: wrong entry count";
    case MAGNUS_ERROR_MM_INDEX_RANGE: return "Matrix Market: index out of range";
    case MAGNUS_ERROR_MM_NUMBER: return "Matrix Market: malformed number";
    case MAGNUS_ERROR_MM_TRUNCATED: return "Matrix Market: truncated file";
    case MAGNUS_ERROR_OUT_OF_HOST_MEMORY: return "out of host memory";
    case MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY: return "out of device memory";
    case MAGNUS_ERROR_PROBLEM_TOO_LARGE: return "problem too large for the device";
    case MAGNUS_ERROR_NO_DEVICE: return "no usable device";
    case MAGNUS_ERROR_BACKEND_UNAVAILABLE: return "backend unavailable";
    case MAGNUS_ERROR_DEVICE: return "device error";
    case MAGNUS_ERROR_KERNEL_BUILD: return "kernel build failed";
    case MAGNUS_ERROR_KERNEL_LAUNCH: return "kernel launch failed";
    case MAGNUS_ERROR_FEATURE_UNSUPPORTED: return "device feature unsupported";
    case MAGNUS_ERROR_MISMATCH: return "matrices differ";
    case MAGNUS_ERROR_INTERNAL: return "internal error";
    }
    return "unknown status";
}

const char *magnus_last_error(void) { return detail; }

void magnus_error_clear(void) { detail[0] = '\0'; }

magnus_status magnus_error(magnus_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return status;
}

void magnus_error_prefix(const char *fmt, ...) {
    char old[sizeof detail];
    memcpy(old, detail, sizeof old);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof detail) snprintf(detail + n, sizeof detail - (size_t)n, "%s", old);
}

/* Device vectors: a length, a value type and one accounted buffer of the context. */
#include <string.h>

#include "spmv_internal.h"

magnus_status magnus_device_vector_check(const struct magnus_device_vector_s *v, magnus_context ctx,
                                         const char *name) {
    if (!v) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "device vector %s is NULL", name);
    if (v->magic != MAGNUS_MAGIC_DEVICE_VECTOR)
        return magnus_error(MAGNUS_ERROR_INVALID_HANDLE,
                            "device vector %s is not a live magnus_device_vector (freed or never "
                            "created)", name);
    if (ctx && v->ctx != ctx)
        return magnus_error(MAGNUS_ERROR_INVALID_HANDLE, "device vector %s belongs to another context",
                            name);
    return MAGNUS_SUCCESS;
}

static magnus_status vector_new(magnus_device_vector *out, magnus_context ctx,
                                magnus_value_type type, int64_t length, const char *what) {
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "%s: out is NULL", what);
    *out = NULL;
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    if (magnus_value_size(type) == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "%s: value type %d", what, (int)type);
    if (length < 0 || length > INT32_MAX)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s: length %lld is outside 0..2147483647", what, (long long)length);
    if (type == MAGNUS_FLOAT64 && !ctx->device.fp64)
        return magnus_error(MAGNUS_ERROR_FEATURE_UNSUPPORTED, "%s: the device %s has no float64",
                            what, ctx->device.name);
    struct magnus_device_vector_s *v = magnus_host_calloc(1, sizeof *v);
    if (!v) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "%s: handle", what);
    v->ctx = ctx;
    v->type = type;
    v->length = length;
    if ((s = magnus_dbuf_alloc(ctx, (size_t)length * magnus_value_size(type), &v->buf))) {
        magnus_host_free(v);
        return s;
    }
    v->magic = MAGNUS_MAGIC_DEVICE_VECTOR;
    *out = v;
    return MAGNUS_SUCCESS;
}

static void vector_destroy(magnus_device_vector *v) {
    magnus_dbuf_free((*v)->ctx, &(*v)->buf);
    (*v)->magic = MAGNUS_MAGIC_FREED;
    magnus_host_free(*v);
    *v = NULL;
}

magnus_status magnus_device_vector_upload(magnus_device_vector *out, magnus_context ctx,
                                          magnus_value_type type, int64_t length,
                                          const void *host) {
    magnus_error_clear();
    if (out) *out = NULL;
    if (!host && length > 0)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_device_vector_upload: host is NULL");
    magnus_device_vector v;
    magnus_status s = vector_new(&v, ctx, type, length, "magnus_device_vector_upload");
    if (s) return s;
    if (length > 0 &&
        (s = magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &v->buf, 0, host, v->buf.bytes))) {
        vector_destroy(&v);
        return s;
    }
    *out = v;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_device_vector_zeros(magnus_device_vector *out, magnus_context ctx,
                                         magnus_value_type type, int64_t length) {
    magnus_error_clear();
    if (out) *out = NULL;
    magnus_device_vector v;
    magnus_status s = vector_new(&v, ctx, type, length, "magnus_device_vector_zeros");
    if (s) return s;
    const uint32_t zero = 0;
    if (length > 0 && (s = magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &v->buf, 0, &zero, sizeof zero,
                                            v->buf.bytes))) {
        magnus_context_finish_after_error(ctx, s);
        vector_destroy(&v);
        return s;
    }
    *out = v;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_device_vector_download(void *host, int64_t length,
                                            const magnus_device_vector v) {
    magnus_error_clear();
    magnus_status s = magnus_device_vector_check(v, NULL, "v");
    if (s) return s;
    if (!host && length > 0)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_device_vector_download: host is NULL");
    if (length != v->length)
        return magnus_error(MAGNUS_ERROR_DIMENSION_MISMATCH,
                            "magnus_device_vector_download: room for %lld values, the vector has %lld",
                            (long long)length, (long long)v->length);
    if ((s = magnus_context_check(v->ctx))) return s;
    if (length == 0) return MAGNUS_SUCCESS;
    return magnus_dbuf_read(v->ctx, MAGNUS_QUEUE_MAIN, host, &v->buf, 0, v->buf.bytes);
}

magnus_status magnus_device_vector_info(int64_t *length, magnus_value_type *type,
                                        const magnus_device_vector v) {
    magnus_error_clear();
    magnus_status s = magnus_device_vector_check(v, NULL, "v");
    if (s) return s;
    if (length) *length = v->length;
    if (type) *type = v->type;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_device_vector_free(magnus_device_vector *v) {
    if (!v || !*v) return MAGNUS_SUCCESS;
    magnus_status s = magnus_device_vector_check(*v, NULL, "v");
    if (s) return s;
    vector_destroy(v);
    return MAGNUS_SUCCESS;
}

/*
 * The words the device runtime and the backends share: opaque handles that each backend
 * defines, the two value variants every kernel is built in, and one kernel argument. In core/
 * because both layers above it use them; the backend table itself (runtime/backend/backend.h)
 * is visible to the device runtime and the backends only.
 */
#ifndef MAGNUS_DEVICE_HANDLES_H
#define MAGNUS_DEVICE_HANDLES_H

#include <stdint.h>

#include "magnus/magnus.h"

typedef struct magnus_bctx magnus_bctx;       /* a context on one device */
typedef struct magnus_bqueue magnus_bqueue;   /* an in-order queue / stream / command list */
typedef struct magnus_bmem magnus_bmem;       /* a device buffer */
typedef struct magnus_bmodule magnus_bmodule; /* the loaded kernel module of one variant */
typedef struct magnus_bkernel magnus_bkernel; /* one kernel of a module */
typedef struct magnus_bevent magnus_bevent;   /* a point in a queue, with a timestamp */

/* The kernels are built once per value type: every kernel exists in both variants. */
typedef enum magnus_kernel_variant {
    MAGNUS_VARIANT_F32 = 0,
    MAGNUS_VARIANT_F64 = 1,
    MAGNUS_VARIANT_COUNT = 2
} magnus_kernel_variant;

/* One kernel argument: a device buffer, or a scalar value of 4 or 8 bytes. */
typedef enum magnus_karg_kind { MAGNUS_KARG_MEM = 1, MAGNUS_KARG_VALUE = 2 } magnus_karg_kind;
typedef struct magnus_karg {
    magnus_karg_kind kind;
    uint32_t size; /* bytes of value (4 or 8); unused for MEM */
    union {
        magnus_bmem *mem;
        int32_t i32;
        int64_t i64;
        uint32_t u32;
        uint64_t u64;
        float f32;
        double f64;
    } u;
} magnus_karg;

/* What one kernel allows on the device it was built for, from the backend (the op
 * kernel_limits), queried before the kernel's first launch. */
typedef struct magnus_kernel_limits {
    /* The largest work group the kernel can be launched with (never above the device's
     * max_work_group_size; below it where the kernel's registers or other resources limit it). */
    uint64_t max_group_size;
    /* Local memory the kernel declares itself (MG_LOCAL_ARRAYs, the implementation's own), in
     * bytes: a launch's dynamic local memory comes on top of it. */
    uint64_t static_local_bytes;
} magnus_kernel_limits;

/* The backend's table of operations (runtime/backend/backend.h): opaque above the device
 * runtime, so no algorithm can call a backend directly. */
typedef struct magnus_backend_ops magnus_backend_ops;

/* Whom module_load tells before and after it compiles kernels (not when it loads a cached or
 * prebuilt binary): fn(user, 0, what), then fn(user, 1, what). fn may be NULL. */
typedef struct magnus_build_notice {
    magnus_progress_fn fn;
    void *user;
} magnus_build_notice;

static inline void magnus_build_notify(const magnus_build_notice *notice, double fraction,
                                       const char *what) {
    if (notice && notice->fn) (void)notice->fn(notice->user, fraction, what);
}

#endif

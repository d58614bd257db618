/*
 * Per-kernel limits (part of test_probe: test_probe.c): the real kernels' group sizes and
 * local memory within the device's, kept across launches, and bad arguments. Skipped without
 * a device.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "backend.h"
#include "device_runtime.h"
#include "probe_test_util.h"
#include "status_test_util.h"

/* ---- per-kernel limits ------------------------------------------------------------------ */

Test(kernel_limits, real_kernels_within_the_device) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    /* prim_fill_u32 declares no local memory; hash_bin_count declares 32 i64 bounds, 32 u32
     * counts and a u64 per item of its group (kernels/hash_binning.cl). */
    static const magnus_kernel_id kernels[] = {MAGNUS_KERNEL_prim_fill_u32,
                                              MAGNUS_KERNEL_hash_bin_count};
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) {
        magnus_kernel_limits limits = {0, 0};
        const char *name = magnus_kernel_name(kernels[i]);
        ASSERT_OK(magnus_kernel_limits_get(&limits, ctx, MAGNUS_VARIANT_F32, kernels[i]));
        cr_log_info("%s on %s: groups up to %llu, %llu bytes of its own local memory", name,
                    d.name, (unsigned long long)limits.max_group_size,
                    (unsigned long long)limits.static_local_bytes);
        cr_assert_gt(limits.max_group_size, 0u, "%s", name);
        cr_assert_leq(limits.max_group_size, d.max_work_group_size, "%s", name);
        cr_assert_leq(limits.static_local_bytes, d.local_mem_bytes, "%s", name);
    }
    magnus_kernel_limits bins;
    ASSERT_OK(magnus_kernel_limits_get(&bins, ctx, MAGNUS_VARIANT_F32, kernels[1]));
    cr_assert_geq(bins.static_local_bytes, 32u * 8 + 32u * 4, "%llu",
                  (unsigned long long)bins.static_local_bytes);
    /* asked before the first launch and kept: a launch with dynamic local memory (which
     * OpenCL would count in CL_KERNEL_LOCAL_MEM_SIZE) leaves the limits as they were */
    magnus_kernel_limits before, after;
    ASSERT_OK(magnus_kernel_limits_get(&before, ctx, MAGNUS_VARIANT_F32, kernels[0]));
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 64, &b));
    magnus_karg args[] = {magnus_arg_mem(&b), magnus_arg_u64(0), magnus_arg_u64(16),
                          magnus_arg_u32(7)};
    ASSERT_OK(magnus_launch(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, kernels[0], 1, 32, 1024, 4,
                            args));
    ASSERT_OK(magnus_context_finish(ctx));
    ASSERT_OK(magnus_kernel_limits_get(&after, ctx, MAGNUS_VARIANT_F32, kernels[0]));
    cr_assert_eq(after.max_group_size, before.max_group_size);
    cr_assert_eq(after.static_local_bytes, before.static_local_bytes);
    magnus_dbuf_free(ctx, &b);
    ASSERT_OK(magnus_context_free(&ctx));
}

Test(kernel_limits, unknown_kernel_and_bad_arguments) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    magnus_kernel_limits limits;
    /* an id no kernel has (kernel_ids.h ends at MAGNUS_KERNEL_COUNT) */
    const magnus_kernel_id fill = MAGNUS_KERNEL_prim_fill_u32;
    cr_assert_eq(magnus_kernel_limits_get(&limits, ctx, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_COUNT),
                 MAGNUS_ERROR_INVALID_ARGUMENT, "%s", magnus_last_error());
    cr_assert(strstr(magnus_last_error(), "no kernel has id"), "%s", magnus_last_error());
    cr_assert_eq(magnus_kernel_limits_get(&limits, ctx, MAGNUS_VARIANT_F32, (magnus_kernel_id)-1),
                 MAGNUS_ERROR_INVALID_ARGUMENT, "%s", magnus_last_error());
    cr_assert_null(magnus_kernel_name(MAGNUS_KERNEL_COUNT));
    cr_assert_str_eq(magnus_kernel_name(fill), "prim_fill_u32");
    cr_assert_eq(magnus_kernel_limits_get(NULL, ctx, MAGNUS_VARIANT_F32, fill),
                 MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_kernel_limits_get(&limits, ctx, MAGNUS_VARIANT_COUNT, fill),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_kernel_limits_get(&limits, NULL, MAGNUS_VARIANT_F32, fill),
                 MAGNUS_ERROR_NULL_POINTER);
    ASSERT_OK(magnus_context_free(&ctx));
}

/* A kernel the module lacks (a backend built from other kernel sources than the host's
 * kernel_signatures.h) is MAGNUS_ERROR_KERNEL_BUILD naming it: the backend's own lookup, which
 * no id can reach, asked directly. */
Test(kernel_limits, kernel_missing_from_the_module) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    magnus_kernel_limits limits; /* loads the module */
    ASSERT_OK(magnus_kernel_limits_get(&limits, ctx, MAGNUS_VARIANT_F32,
                                       MAGNUS_KERNEL_prim_fill_u32));
    magnus_bkernel *kernel = NULL;
    cr_assert_eq(ctx->ops->kernel_get(ctx->modules[MAGNUS_VARIANT_F32], "no_such_kernel", &kernel),
                 MAGNUS_ERROR_KERNEL_BUILD, "%s", magnus_last_error());
    cr_assert(strstr(magnus_last_error(), "no_such_kernel"), "%s", magnus_last_error());
    ASSERT_OK(magnus_context_free(&ctx));
}

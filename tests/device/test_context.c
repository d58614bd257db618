/*
 * Contexts and their options (local-memory budget, device-memory limit), buffer accounting
 * and launch argument checks (part of test_probe: test_probe.c). Each test runs in its own
 * process and may set environment variables freely; those that need a device skip without.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_size.h"
#include "device_runtime.h"
#include "probe_test_util.h"
#include "status_test_util.h"

/* ---- contexts --------------------------------------------------------------------------- */

Test(context, byte_sizes) {
    struct {
        const char *text;
        uint64_t bytes;
    } good[] = {{"0", 0},           {"4096", 4096},           {"48K", 48 << 10},
                {"48KiB", 48 << 10}, {"48kb", 48 << 10},       {"512M", 512ull << 20},
                {" 2G ", 2ull << 30}, {"1T", 1ull << 40},       {"100B", 100},
                {"16777215T", 16777215ull << 40}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t b = 1;
        cr_assert_eq(magnus_parse_bytes(&b, good[i].text), MAGNUS_SUCCESS, "%s", good[i].text);
        cr_assert_eq(b, good[i].bytes, "%s", good[i].text);
    }
    const char *bad[] = {"", "K", "-1", "2X", "1.5G", "2GG", "16777216T", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t b;
        cr_assert_eq(magnus_parse_bytes(&b, bad[i]), MAGNUS_ERROR_INVALID_ARGUMENT, "%s", bad[i]);
    }
}

Test(context, memory_limit_enforced_and_accounted) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 1 << 20);
    magnus_dbuf a, b, c;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 600 << 10, &a));
    cr_assert_eq(ctx->memory_in_use, 600u << 10);
    cr_assert_eq(magnus_dbuf_alloc(ctx, 500 << 10, &b), MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY);
    cr_assert_null(b.mem);
    cr_assert(strstr(magnus_last_error(), "512000 bytes requested, 614400 in use, limit 1048576"),
              "%s", magnus_last_error());
    ASSERT_OK(magnus_dbuf_alloc(ctx, 0, &c)); /* empty buffers are valid and count nothing */
    cr_assert_not_null(c.mem);
    ASSERT_OK(magnus_dbuf_alloc(ctx, (1 << 20) - (600 << 10), &b)); /* exactly up to the limit */
    cr_assert_eq(ctx->memory_in_use, 1u << 20);
    cr_assert_eq(ctx->memory_peak, 1u << 20);
    magnus_dbuf_free(ctx, &a);
    magnus_dbuf_free(ctx, &b);
    magnus_dbuf_free(ctx, &c);
    magnus_dbuf_free(ctx, &c); /* freed buffers are cleared: a second free is a no-op */
    cr_assert_null(a.mem);
    cr_assert_eq(ctx->memory_in_use, 0u);
    cr_assert_eq(ctx->memory_peak, 1u << 20);
    /* the freed blocks stay cached (device_pool.c), held, so the peak starts from them */
    cr_assert_eq(ctx->memory_pooled, 1u << 20);
    magnus_context_reset_peak(ctx);
    cr_assert_eq(ctx->memory_peak, 1u << 20);
    ASSERT_OK(magnus_context_free(&ctx));
    cr_assert_null(ctx);
}

Test(context, memory_limit_from_environment) {
    magnus_device_info d = need_device();
    setenv("MAGNUS_DEVICE_MEMORY_LIMIT", "2M", 1);
    magnus_context ctx = new_context(&d, 0, 0);
    cr_assert_eq(ctx->memory_limit, 2u << 20);
    magnus_dbuf a;
    cr_assert_eq(magnus_dbuf_alloc(ctx, (2 << 20) + 1, &a), MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY);
    ASSERT_OK(magnus_context_free(&ctx));
    ctx = new_context(&d, 0, 12345); /* the option wins */
    cr_assert_eq(ctx->memory_limit, 12345u);
    ASSERT_OK(magnus_context_free(&ctx));
    setenv("MAGNUS_DEVICE_MEMORY_LIMIT", "2X", 1);
    cr_assert_eq(magnus_context_create(&ctx, &d, NULL), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(magnus_last_error(), "MAGNUS_DEVICE_MEMORY_LIMIT=2X"), "%s",
              magnus_last_error());
    cr_assert_null(ctx);
}

Test(context, buffer_beyond_the_largest_allocation) {
    magnus_device_info d = need_device();
    if (d.max_alloc_bytes >= SIZE_MAX / 2) cr_skip_test("no representable size beyond the limit");
    magnus_context ctx = new_context(&d, 0, 0);
    magnus_dbuf a;
    cr_assert_eq(magnus_dbuf_alloc(ctx, (size_t)d.max_alloc_bytes + 1, &a),
                 MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY, "%s", magnus_last_error());
    cr_assert_null(a.mem);
    cr_assert_eq(ctx->memory_in_use, 0u);
    ASSERT_OK(magnus_context_free(&ctx));
}

Test(context, local_memory_budget) {
    magnus_device_info d = need_device();
    if (d.local_mem_bytes < 16384u)
        cr_skip_test("%llu bytes of local memory: the budgets below need 16 KiB",
                     (unsigned long long)d.local_mem_bytes);
    magnus_context ctx = new_context(&d, 4096, 0);
    magnus_device_info got;
    ASSERT_OK(magnus_context_device(&got, ctx));
    cr_assert_eq(got.local_mem_bytes, 4096u);
    cr_assert_eq(ctx->device_local_mem_bytes, d.local_mem_bytes);
    cr_assert_str_eq(got.name, d.name);
    /* a launch may not exceed the budget (checked before any kernel is loaded) */
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 64, &b));
    magnus_karg args[] = {magnus_arg_mem(&b), magnus_arg_u64(0), magnus_arg_u64(16),
                          magnus_arg_u32(0)};
    cr_assert_eq(magnus_launch(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32,
                               MAGNUS_KERNEL_prim_fill_u32, 1, 32, 4097, 4, args),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(magnus_last_error(), "budget of 4096"), "%s", magnus_last_error());
    magnus_dbuf_free(ctx, &b);
    ASSERT_OK(magnus_context_free(&ctx));

    setenv("MAGNUS_LOCAL_MEM_BYTES", "8K", 1);
    ctx = new_context(&d, 0, 0);
    cr_assert_eq(ctx->device.local_mem_bytes, 8192u);
    ASSERT_OK(magnus_context_free(&ctx));
    ctx = new_context(&d, 2048, 0); /* the option wins */
    cr_assert_eq(ctx->device.local_mem_bytes, 2048u);
    ASSERT_OK(magnus_context_free(&ctx));
    unsetenv("MAGNUS_LOCAL_MEM_BYTES");

    /* no budget: min(device, 48 KiB); the device's whole local memory when asked for, through
     * the option or the environment, also above 48 KiB */
    ctx = new_context(&d, 0, 0);
    uint64_t by_default = d.local_mem_bytes < MAGNUS_DEFAULT_LOCAL_MEM_BUDGET
                              ? d.local_mem_bytes
                              : MAGNUS_DEFAULT_LOCAL_MEM_BUDGET;
    cr_assert_eq(ctx->device.local_mem_bytes, by_default, "default budget %llu on a device of %llu",
                 (unsigned long long)ctx->device.local_mem_bytes,
                 (unsigned long long)d.local_mem_bytes);
    cr_assert_eq(ctx->device_local_mem_bytes, d.local_mem_bytes);
    ASSERT_OK(magnus_context_free(&ctx));
    ctx = new_context(&d, d.local_mem_bytes, 0);
    cr_assert_eq(ctx->device.local_mem_bytes, d.local_mem_bytes);
    ASSERT_OK(magnus_context_free(&ctx));
    char whole[32];
    snprintf(whole, sizeof whole, "%llu", (unsigned long long)d.local_mem_bytes);
    setenv("MAGNUS_LOCAL_MEM_BYTES", whole, 1);
    ctx = new_context(&d, 0, 0);
    cr_assert_eq(ctx->device.local_mem_bytes, d.local_mem_bytes);
    ASSERT_OK(magnus_context_free(&ctx));
    unsetenv("MAGNUS_LOCAL_MEM_BYTES");

    magnus_context_options opt;
    ASSERT_OK(magnus_context_options_init(&opt));
    opt.local_mem_bytes = d.local_mem_bytes + 1;
    cr_assert_eq(magnus_context_create(&ctx, &d, &opt), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_null(ctx);
}

Test(context, launch_and_buffer_errors) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 64, &b));
    magnus_karg args[] = {magnus_arg_mem(&b)};
    const magnus_kernel_id fill = MAGNUS_KERNEL_prim_fill_u32;
    /* an id no kernel has (kernel_ids.h ends at MAGNUS_KERNEL_COUNT) */
    cr_assert_eq(magnus_launch(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_COUNT, 1,
                               32, 0, 1, args),
                 MAGNUS_ERROR_INVALID_ARGUMENT, "%s", magnus_last_error());
    cr_assert(strstr(magnus_last_error(), "no kernel has id"), "%s", magnus_last_error());
    ASSERT_OK(magnus_launch(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, fill, 0, 32, 0, 1,
                            args)); /* zero groups: nothing to do */
    cr_assert_eq(magnus_launch(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, fill, 1,
                               (size_t)d.max_work_group_size + 1, 0, 1, args),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    magnus_dbuf unallocated = {0};
    magnus_karg bad[] = {magnus_arg_mem(&unallocated)};
    cr_assert_eq(magnus_launch(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, fill, 1, 32, 0, 1, bad),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    char host[64] = {0};
    cr_assert_eq(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &b, 1, host, 64),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, host, &b, 65, 0),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_dbuf_copy(ctx, MAGNUS_QUEUE_MAIN, &b, 8, &b, 0, 57),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &b, 0, host, 3, 63),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &b, 4, host, 8, 8),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_dbuf_write(ctx, (magnus_queue_id)3, &b, 0, host, 8),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    /* and the valid forms round-trip */
    for (int i = 0; i < 64; i++) host[i] = (char)i;
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_HEAVY, &b, 0, host, 32));
    uint32_t pattern = 0x01020304;
    ASSERT_OK(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_HEAVY, &b, 32, &pattern, 4, 32));
    ASSERT_OK(magnus_dbuf_copy(ctx, MAGNUS_QUEUE_HEAVY, &b, 48, &b, 8, 8));
    char back[64];
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_HEAVY, back, &b, 0, 64));
    cr_assert_arr_eq(back, host, 32);
    cr_assert_arr_eq(back + 48, host + 8, 8);
    cr_assert_arr_eq(back + 32, &pattern, 4);
    cr_assert_arr_eq(back + 56, &pattern, 4);
    magnus_dbuf_free(ctx, &b);
    ASSERT_OK(magnus_context_free(&ctx));
}

Test(context, host_allocation_failures_leave_nothing) {
    magnus_device_info d = need_device();
    magnus_status s;
    int64_t k = 0;
    do {
        magnus_host_alloc_fail_after(k++);
        magnus_context ctx;
        s = magnus_context_create(&ctx, &d, NULL);
        if (s) cr_assert_null(ctx);
        magnus_host_alloc_fail_after(-1);
        if (!s) ASSERT_OK(magnus_context_free(&ctx));
    } while (s != MAGNUS_SUCCESS && k < 1000);
    cr_assert_eq(s, MAGNUS_SUCCESS);
}

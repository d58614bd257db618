/*
 * Device probing, backend selection (MAGNUS_BACKENDS, MAGNUS_DEVICE, a broken vendor library),
 * contexts and their options (local-memory budget, device-memory limit), buffer accounting,
 * launch argument checks, and the on-disk kernel cache. Criterion runs each test in its own
 * process, so a test may set environment variables freely. Tests that need a device skip
 * when the probe finds none.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byte_size.h"
#include "device_runtime.h"
#include "kernel_cache.h"
#include "status_test_util.h"

/* The first device of the probe, or skip the test. */
static magnus_device_info need_device(void) {
    magnus_device_info d;
    magnus_status s = magnus_device_select(&d);
    if (s == MAGNUS_ERROR_NO_DEVICE) cr_skip_test("no device: %s", magnus_probe_diagnostics());
    ASSERT_OK(s);
    return d;
}

static magnus_context new_context(const magnus_device_info *d, uint64_t local, uint64_t limit) {
    magnus_context_options opt;
    ASSERT_OK(magnus_context_options_init(&opt));
    opt.local_mem_bytes = local;
    opt.device_memory_limit = limit;
    magnus_context ctx;
    ASSERT_OK(magnus_context_create(&ctx, d, &opt));
    return ctx;
}

/* ---- probe ------------------------------------------------------------------------------ */

Test(probe, consistent_device_list) {
    size_t count = 99;
    ASSERT_OK(magnus_device_probe(NULL, 0, &count));
    magnus_device_info list[64];
    size_t again = 0;
    ASSERT_OK(magnus_device_probe(list, 64, &again));
    cr_assert_eq(again, count);
    const char *diag = magnus_probe_diagnostics();
    cr_assert(strstr(diag, "cuda:") && strstr(diag, "level0:") && strstr(diag, "opencl:"),
              "one line per backend expected:\n%s", diag);
    int next_index[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < count && i < 64; i++) {
        const magnus_device_info *d = &list[i];
        const char *b = magnus_backend_name(d->backend);
        cr_assert(strcmp(b, "unknown") != 0, "device %zu: backend %d", i, (int)d->backend);
        cr_assert_eq(d->index, next_index[d->backend]++, "%s indices run 0, 1, ...", b);
        cr_assert(d->name[0], "device %zu has a name", i);
        cr_assert_gt(d->global_mem_bytes, 0u);
        cr_assert_gt(d->local_mem_bytes, 0u);
        cr_assert_gt(d->max_alloc_bytes, 0u);
        cr_assert_leq(d->max_alloc_bytes, d->global_mem_bytes);
        cr_assert_gt(d->compute_units, 0);
        cr_assert_gt(d->max_work_group_size, 0u);
        cr_assert(d->num_subgroup_sizes >= 1 && d->num_subgroup_sizes <= 8);
        for (int k = 0; k < d->num_subgroup_sizes; k++) cr_assert_gt(d->subgroup_sizes[k], 0);
    }
    cr_assert_str_eq(magnus_backend_name(MAGNUS_BACKEND_OPENCL), "opencl");
    cr_assert_str_eq(magnus_backend_name(MAGNUS_BACKEND_CUDA), "cuda");
    cr_assert_str_eq(magnus_backend_name(MAGNUS_BACKEND_LEVEL0), "level0");
    cr_assert_str_eq(magnus_backend_name((magnus_backend_kind)42), "unknown");
}

Test(probe, null_arguments) {
    magnus_device_info d;
    cr_assert_eq(magnus_device_probe(NULL, 0, NULL), MAGNUS_ERROR_NULL_POINTER);
    size_t count;
    cr_assert_eq(magnus_device_probe(NULL, 1, &count), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_device_select(NULL), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_context_create(NULL, NULL, NULL), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_context_device(&d, NULL), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_context_options_init(NULL), MAGNUS_ERROR_NULL_POINTER);
    ASSERT_OK(magnus_context_free(NULL));
    magnus_context none = NULL;
    ASSERT_OK(magnus_context_free(&none));
    /* something that is not a context */
    magnus_context_s fake;
    memset(&fake, 0, sizeof fake);
    cr_assert_eq(magnus_context_device(&d, &fake), MAGNUS_ERROR_INVALID_HANDLE);
    magnus_context p = &fake;
    cr_assert_eq(magnus_context_free(&p), MAGNUS_ERROR_INVALID_HANDLE);
}

Test(probe, backends_variable_selects_and_orders) {
    setenv("MAGNUS_BACKENDS", "opencl", 1);
    magnus_device_info list[64];
    size_t count;
    ASSERT_OK(magnus_device_probe(list, 64, &count));
    for (size_t i = 0; i < count && i < 64; i++)
        cr_assert_eq(list[i].backend, MAGNUS_BACKEND_OPENCL);
    const char *diag = magnus_probe_diagnostics();
    cr_assert(strstr(diag, "cuda: skipped") && strstr(diag, "level0: skipped"), "%s", diag);
    cr_assert(strstr(diag, "opencl: ") && !strstr(diag, "opencl: skipped"), "%s", diag);

    setenv("MAGNUS_BACKENDS", " bogus , opencl,opencl", 1);
    size_t again;
    ASSERT_OK(magnus_device_probe(NULL, 0, &again));
    cr_assert_eq(again, count);
    cr_assert(strstr(magnus_probe_diagnostics(), "unknown backend \"bogus\""), "%s",
              magnus_probe_diagnostics());
}

Test(probe, missing_opencl_library_is_a_diagnostic) {
    setenv("MAGNUS_BACKENDS", "opencl", 1);
    setenv("MAGNUS_OPENCL_LIBRARY", "/nonexistent.so", 1);
    size_t count = 99;
    ASSERT_OK(magnus_device_probe(NULL, 0, &count));
    cr_assert_eq(count, 0u);
    cr_assert(strstr(magnus_probe_diagnostics(), "opencl: unavailable") &&
                  strstr(magnus_probe_diagnostics(), "/nonexistent.so"),
              "%s", magnus_probe_diagnostics());
    magnus_device_info d;
    cr_assert_eq(magnus_device_select(&d), MAGNUS_ERROR_NO_DEVICE);
    magnus_context ctx;
    cr_assert_eq(magnus_context_create(&ctx, NULL, NULL), MAGNUS_ERROR_NO_DEVICE);
    cr_assert_null(ctx);
}

Test(probe, library_without_opencl_symbols) {
    setenv("MAGNUS_BACKENDS", "opencl", 1);
    setenv("MAGNUS_OPENCL_LIBRARY", "libz.so.1", 1);
    size_t count = 99;
    ASSERT_OK(magnus_device_probe(NULL, 0, &count));
    cr_assert_eq(count, 0u);
    cr_assert(strstr(magnus_probe_diagnostics(), "libz.so.1 lacks the OpenCL 1.2 entry point"),
              "%s", magnus_probe_diagnostics());
}

Test(probe, device_variable) {
    setenv("MAGNUS_BACKENDS", "opencl", 1);
    magnus_device_info first = need_device();
    cr_assert_eq(first.backend, MAGNUS_BACKEND_OPENCL);
    magnus_device_info d;
    const char *same[] = {"opencl:0", " opencl : 0 ", "0"};
    for (size_t i = 0; i < 3; i++) {
        setenv("MAGNUS_DEVICE", same[i], 1);
        ASSERT_OK(magnus_device_select(&d));
        cr_assert(d.backend == MAGNUS_BACKEND_OPENCL && d.index == 0, "MAGNUS_DEVICE=%s", same[i]);
    }
    /* a backend alone: its best device (a GPU before PoCL) */
    magnus_device_info list[16];
    int rank[16] = {0};
    size_t count;
    ASSERT_OK(magnus_device_probe(list, 16, &count));
    long best = magnus_device_pick_best(list, rank, count < 16 ? count : 16, 0);
    setenv("MAGNUS_DEVICE", "opencl", 1);
    ASSERT_OK(magnus_device_select(&d));
    cr_assert(d.backend == MAGNUS_BACKEND_OPENCL && d.index == list[best].index,
              "MAGNUS_DEVICE=opencl gave opencl:%d, expected opencl:%d", d.index,
              list[best].index);
    const char *absent[] = {"opencl:99", "99", "cuda:0", "level0"};
    for (size_t i = 0; i < 4; i++) {
        setenv("MAGNUS_DEVICE", absent[i], 1);
        cr_assert_eq(magnus_device_select(&d), MAGNUS_ERROR_NO_DEVICE, "MAGNUS_DEVICE=%s",
                     absent[i]);
        cr_assert(strstr(magnus_last_error(), absent[i]), "%s", magnus_last_error());
    }
    const char *malformed[] = {"opencl:", "opencl:x", "1x", "gpu", "opencl:-1", "opencl 0"};
    for (size_t i = 0; i < 6; i++) {
        setenv("MAGNUS_DEVICE", malformed[i], 1);
        cr_assert_eq(magnus_device_select(&d), MAGNUS_ERROR_INVALID_ARGUMENT,
                     "MAGNUS_DEVICE=%s", malformed[i]);
    }
}

Test(probe, best_device_order) {
    magnus_device_info d[5];
    memset(d, 0, sizeof d);
    int rank[5] = {2, 1, 1, 0, 0};
    d[0] = (magnus_device_info){.backend = MAGNUS_BACKEND_OPENCL, .is_cpu = 1, .local_mem_bytes = 1 << 20};
    d[1] = (magnus_device_info){.backend = MAGNUS_BACKEND_LEVEL0, .local_mem_bytes = 64 << 10};
    d[2] = (magnus_device_info){.backend = MAGNUS_BACKEND_LEVEL0, .local_mem_bytes = 128 << 10};
    d[3] = (magnus_device_info){.backend = MAGNUS_BACKEND_CUDA, .is_cpu = 1, .local_mem_bytes = 1 << 30};
    d[4] = (magnus_device_info){.backend = MAGNUS_BACKEND_CUDA, .local_mem_bytes = 48 << 10};
    cr_assert_eq(magnus_device_pick_best(d, rank, 5, 0), 4, "a GPU of the first backend");
    cr_assert_eq(magnus_device_pick_best(d, rank, 4, 0), 2, "then the larger local memory");
    cr_assert_eq(magnus_device_pick_best(d, rank, 1, 0), 0, "a CPU when nothing else");
    cr_assert_eq(magnus_device_pick_best(d, rank, 5, MAGNUS_BACKEND_OPENCL), 0);
    cr_assert_eq(magnus_device_pick_best(d, rank, 4, MAGNUS_BACKEND_CUDA), 3);
    cr_assert_eq(magnus_device_pick_best(d, rank, 0, 0), -1);
    d[2].local_mem_bytes = d[1].local_mem_bytes;
    cr_assert_eq(magnus_device_pick_best(d, rank, 4, 0), 1, "ties keep probe order");
}

Test(probe, host_allocation_failures_leave_nothing) {
    /* every host allocation of the probe may fail: each failure is reported (no device
     * silently dropped), none leaks */
    size_t expected;
    ASSERT_OK(magnus_device_probe(NULL, 0, &expected));
    magnus_status s;
    size_t count = 0;
    int64_t k = 0;
    do {
        magnus_host_alloc_fail_after(k++);
        s = magnus_device_probe(NULL, 0, &count);
        magnus_host_alloc_fail_after(-1);
        cr_assert(s == MAGNUS_SUCCESS || s == MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "%d", s);
    } while (s != MAGNUS_SUCCESS && k < 1000);
    cr_assert_eq(s, MAGNUS_SUCCESS);
    cr_assert_eq(count, expected);
    if (expected > 0) cr_assert_gt(k, 1, "some allocation failed on the way");
}

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
    magnus_context_reset_peak(ctx);
    cr_assert_eq(ctx->memory_peak, 0u);
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
    cr_assert_eq(magnus_launch(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, "prim_fill_u32", 1, 32,
                               4097, 4, args),
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
    uint64_t by_default = d.local_mem_bytes < 49152 ? d.local_mem_bytes : 49152;
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
    cr_assert_eq(magnus_launch(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, "no_such_kernel", 1, 32,
                               0, 1, args),
                 MAGNUS_ERROR_KERNEL_BUILD, "%s", magnus_last_error());
    cr_assert(strstr(magnus_last_error(), "no_such_kernel"), "%s", magnus_last_error());
    ASSERT_OK(magnus_launch(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, "no_such_kernel", 0, 32,
                            0, 1, args)); /* zero groups: nothing to do */
    cr_assert_eq(magnus_launch(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, "prim_fill_u32", 1,
                               (size_t)d.max_work_group_size + 1, 0, 1, args),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    magnus_dbuf unallocated = {0};
    magnus_karg bad[] = {magnus_arg_mem(&unallocated)};
    cr_assert_eq(magnus_launch(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, "prim_fill_u32", 1, 32,
                               0, 1, bad),
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

/* ---- per-kernel limits ------------------------------------------------------------------ */

Test(kernel_limits, real_kernels_within_the_device) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    /* prim_fill_u32 declares no local memory; hash_bin_count declares 32 i64 bounds, 32 u32
     * counts and a u64 per item of its group (kernels/hash_binning.cl). */
    static const char *const names[] = {"prim_fill_u32", "hash_bin_count"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        magnus_kernel_limits limits = {0, 0};
        ASSERT_OK(magnus_kernel_limits_get(&limits, ctx, MAGNUS_VARIANT_F32, names[i]));
        cr_log_info("%s on %s: groups up to %llu, %llu bytes of its own local memory", names[i],
                    d.name, (unsigned long long)limits.max_group_size,
                    (unsigned long long)limits.static_local_bytes);
        cr_assert_gt(limits.max_group_size, 0u, "%s", names[i]);
        cr_assert_leq(limits.max_group_size, d.max_work_group_size, "%s", names[i]);
        cr_assert_leq(limits.static_local_bytes, d.local_mem_bytes, "%s", names[i]);
    }
    magnus_kernel_limits bins;
    ASSERT_OK(magnus_kernel_limits_get(&bins, ctx, MAGNUS_VARIANT_F32, "hash_bin_count"));
    cr_assert_geq(bins.static_local_bytes, 32u * 8 + 32u * 4, "%llu",
                  (unsigned long long)bins.static_local_bytes);
    /* asked before the first launch and kept: a launch with dynamic local memory (which
     * OpenCL would count in CL_KERNEL_LOCAL_MEM_SIZE) leaves the limits as they were */
    magnus_kernel_limits before, after;
    ASSERT_OK(magnus_kernel_limits_get(&before, ctx, MAGNUS_VARIANT_F32, "prim_fill_u32"));
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 64, &b));
    magnus_karg args[] = {magnus_arg_mem(&b), magnus_arg_u64(0), magnus_arg_u64(16),
                          magnus_arg_u32(7)};
    ASSERT_OK(magnus_launch(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, "prim_fill_u32", 1, 32,
                            1024, 4, args));
    ASSERT_OK(magnus_context_finish(ctx));
    ASSERT_OK(magnus_kernel_limits_get(&after, ctx, MAGNUS_VARIANT_F32, "prim_fill_u32"));
    cr_assert_eq(after.max_group_size, before.max_group_size);
    cr_assert_eq(after.static_local_bytes, before.static_local_bytes);
    magnus_dbuf_free(ctx, &b);
    ASSERT_OK(magnus_context_free(&ctx));
}

Test(kernel_limits, unknown_kernel_and_bad_arguments) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    magnus_kernel_limits limits;
    cr_assert_eq(magnus_kernel_limits_get(&limits, ctx, MAGNUS_VARIANT_F32, "no_such_kernel"),
                 MAGNUS_ERROR_KERNEL_BUILD, "%s", magnus_last_error());
    cr_assert(strstr(magnus_last_error(), "no_such_kernel"), "%s", magnus_last_error());
    cr_assert_eq(magnus_kernel_limits_get(NULL, ctx, MAGNUS_VARIANT_F32, "prim_fill_u32"),
                 MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_kernel_limits_get(&limits, ctx, MAGNUS_VARIANT_F32, NULL),
                 MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_kernel_limits_get(&limits, ctx, MAGNUS_VARIANT_COUNT, "prim_fill_u32"),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_kernel_limits_get(&limits, NULL, MAGNUS_VARIANT_F32, "prim_fill_u32"),
                 MAGNUS_ERROR_NULL_POINTER);
    ASSERT_OK(magnus_context_free(&ctx));
}

/* ---- deferred freeing ------------------------------------------------------------------- */

/* A buffer of `bytes` with a fill queued on HEAVY (work that reads and writes it). */
static magnus_dbuf busy_buffer(magnus_context ctx, size_t bytes) {
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, bytes, &b));
    uint32_t pattern = 0x5a5a5a5a;
    ASSERT_OK(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_HEAVY, &b, 0, &pattern, 4, bytes & ~(size_t)3));
    return b;
}

Test(context, deferred_buffers_counted_until_finish) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 8192);
    magnus_dbuf a = busy_buffer(ctx, 6000), b;
    magnus_dbuf_free_deferred(ctx, &a);
    cr_assert_null(a.mem);
    cr_assert_eq(a.bytes, 0u);
    magnus_dbuf_free_deferred(ctx, &a); /* cleared: a no-op */
    magnus_dbuf_free_deferred(ctx, NULL);
    cr_assert_eq(ctx->ndeferred, 1u);
    /* still held, so still in use and against the limit */
    cr_assert_eq(ctx->memory_in_use, 6000u);
    cr_assert_eq(ctx->deferred_bytes, 6000u);
    cr_assert_eq(magnus_dbuf_alloc(ctx, 4000, &b), MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY);
    /* a queue's finish is not the context's */
    ASSERT_OK(magnus_queue_finish(ctx, MAGNUS_QUEUE_HEAVY));
    cr_assert_eq(ctx->memory_in_use, 6000u);
    ASSERT_OK(magnus_context_finish(ctx));
    cr_assert_eq(ctx->ndeferred, 0u);
    cr_assert_eq(ctx->deferred_bytes, 0u);
    cr_assert_eq(ctx->memory_in_use, 0u);
    cr_assert_eq(ctx->memory_peak, 6000u);
    ASSERT_OK(magnus_dbuf_alloc(ctx, 4000, &b));
    /* after an error the drain frees them too */
    magnus_dbuf_free_deferred(ctx, &b);
    cr_assert_eq(ctx->memory_in_use, 4000u);
    magnus_error(MAGNUS_ERROR_INTERNAL, "the error that matters");
    cr_assert_eq(magnus_context_finish_after_error(ctx, MAGNUS_ERROR_INTERNAL),
                 MAGNUS_ERROR_INTERNAL);
    cr_assert_str_eq(magnus_last_error(), "the error that matters");
    cr_assert_eq(ctx->ndeferred, 0u);
    cr_assert_eq(ctx->memory_in_use, 0u);
    /* without host memory to grow the list, the buffer is freed at once (nothing leaks) */
    cr_assert_gt(ctx->deferred_capacity, 0u);
    while (ctx->ndeferred < ctx->deferred_capacity) {
        a = busy_buffer(ctx, 64);
        magnus_dbuf_free_deferred(ctx, &a);
    }
    const size_t full = ctx->ndeferred;
    const uint64_t held = ctx->memory_in_use;
    a = busy_buffer(ctx, 64);
    magnus_host_alloc_fail_after(0);
    magnus_dbuf_free_deferred(ctx, &a);
    magnus_host_alloc_fail_after(-1);
    cr_assert_null(a.mem);
    cr_assert_eq(ctx->ndeferred, full);
    cr_assert_eq(ctx->memory_in_use, held);
    ASSERT_OK(magnus_context_finish(ctx));
    cr_assert_eq(ctx->memory_in_use, 0u);
    ASSERT_OK(magnus_context_free(&ctx));
}

Test(context, many_deferred_buffers_without_a_finish) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    enum { N = 100 };
    uint64_t total = 0;
    for (int i = 0; i < N; i++) {
        magnus_dbuf b = busy_buffer(ctx, 64 + 4 * (size_t)i);
        total += b.bytes;
        magnus_dbuf_free_deferred(ctx, &b);
        /* none is freed (nor waited for) until the context is idle */
        cr_assert_eq(ctx->ndeferred, (size_t)i + 1);
        cr_assert_eq(ctx->memory_in_use, total);
    }
    cr_assert_eq(ctx->deferred_bytes, total);
    /* the caller has waited for the only queue that used them */
    ASSERT_OK(magnus_queue_finish(ctx, MAGNUS_QUEUE_HEAVY));
    ASSERT_OK(magnus_context_release_deferred(ctx));
    cr_assert_eq(ctx->ndeferred, 0u);
    cr_assert_eq(ctx->memory_in_use, 0u);
    /* the list is reused */
    magnus_dbuf b = busy_buffer(ctx, 128);
    magnus_dbuf_free_deferred(ctx, &b);
    cr_assert_eq(ctx->ndeferred, 1u);
    ASSERT_OK(magnus_context_finish(ctx));
    cr_assert_eq(ctx->memory_in_use, 0u);
    cr_assert_eq(magnus_context_release_deferred(NULL), MAGNUS_ERROR_NULL_POINTER);
    ASSERT_OK(magnus_context_free(&ctx));
}

/* magnus_context_free waits and frees what is still deferred (the ASan build checks that no
 * host memory leaks; the backend's context goes with its buffers). */
Test(context, free_with_deferred_buffers) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    for (int i = 0; i < 40; i++) {
        magnus_dbuf b = busy_buffer(ctx, 256);
        magnus_dbuf_free_deferred(ctx, &b);
    }
    cr_assert_eq(ctx->ndeferred, 40u);
    cr_assert_eq(ctx->memory_in_use, 40u * 256);
    ASSERT_OK(magnus_context_free(&ctx));
    cr_assert_null(ctx);
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

/* ---- kernel cache ----------------------------------------------------------------------- */

static char cache_dir[256];

static void use_temporary_cache(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(cache_dir, sizeof cache_dir, "%s/magnus-cache-test-%ld", tmp && *tmp ? tmp : "/tmp",
             (long)getpid());
    char nested[300];
    snprintf(nested, sizeof nested, "%s/a/b", cache_dir); /* created on first store */
    setenv("MAGNUS_CACHE_DIR", nested, 1);
    unsetenv("MAGNUS_NO_CACHE");
}

static int count_files(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void remove_tree(void) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
    cr_assert_eq(system(cmd), 0);
}

Test(kernel_cache, store_load_and_corruption) {
    use_temporary_cache();
    magnus_cache_key k1, k2;
    magnus_cache_key_init(&k1);
    magnus_cache_key_add_string(&k1, "ab");
    magnus_cache_key_add_string(&k1, "c");
    magnus_cache_key_init(&k2);
    magnus_cache_key_add_string(&k2, "a");
    magnus_cache_key_add_string(&k2, "bc");
    cr_assert(k1.h[0] != k2.h[0] || k1.h[1] != k2.h[1], "separators keep keys apart");
    const char payload[] = "a built program";
    void *data;
    size_t bytes;
    cr_assert(!magnus_kernel_cache_load("t", &k1, &data, &bytes), "empty cache");
    magnus_kernel_cache_store("t", &k1, payload, sizeof payload);
    cr_assert(magnus_kernel_cache_load("t", &k1, &data, &bytes));
    cr_assert_eq(bytes, sizeof payload);
    cr_assert_arr_eq(data, payload, sizeof payload);
    magnus_host_free(data);
    cr_assert(!magnus_kernel_cache_load("t", &k2, &data, &bytes), "other key");
    cr_assert(!magnus_kernel_cache_load("u", &k1, &data, &bytes), "other kind");

    /* flip one payload byte, then truncate: both read as misses */
    char dir[300], path[600];
    snprintf(dir, sizeof dir, "%s/a/b", cache_dir);
    cr_assert_eq(count_files(dir), 1, "one entry, no temporary left behind");
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d)) && e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    closedir(d);
    FILE *f = fopen(path, "r+b");
    fseek(f, -3, SEEK_END);
    fputc('X', f);
    fclose(f);
    cr_assert(!magnus_kernel_cache_load("t", &k1, &data, &bytes), "corrupt payload");
    magnus_kernel_cache_store("t", &k1, payload, sizeof payload); /* rewritten */
    cr_assert(magnus_kernel_cache_load("t", &k1, &data, &bytes));
    magnus_host_free(data);
    cr_assert_eq(truncate(path, 20), 0);
    cr_assert(!magnus_kernel_cache_load("t", &k1, &data, &bytes), "truncated entry");
    remove_tree();
}

Test(kernel_cache, keeps_recent_entries_per_kind) {
    use_temporary_cache();
    char dir[300];
    snprintf(dir, sizeof dir, "%s/a/b", cache_dir);
    magnus_cache_key other;
    magnus_cache_key_init(&other);
    magnus_kernel_cache_store("t-x", &other, "y", 1);
    for (int i = 0; i < 12; i++) {
        magnus_cache_key k;
        magnus_cache_key_init(&k);
        magnus_cache_key_add(&k, &i, sizeof i);
        magnus_kernel_cache_store("t", &k, "x", 1);
    }
    cr_assert_eq(count_files(dir), 8 + 1, "8 entries of kind t, and the t-x entry");
    void *data;
    size_t bytes;
    cr_assert(magnus_kernel_cache_load("t-x", &other, &data, &bytes));
    magnus_host_free(data);
    remove_tree();
}

Test(kernel_cache, disabled_and_default_directories) {
    char dir[4096];
    setenv("MAGNUS_CACHE_DIR", "off", 1);
    cr_assert(!magnus_kernel_cache_dir(dir, sizeof dir));
    unsetenv("MAGNUS_CACHE_DIR");
    setenv("MAGNUS_NO_CACHE", "1", 1);
    cr_assert(!magnus_kernel_cache_dir(dir, sizeof dir));
    setenv("MAGNUS_NO_CACHE", "0", 1);
    setenv("XDG_CACHE_HOME", "/x/cache", 1);
    cr_assert(magnus_kernel_cache_dir(dir, sizeof dir));
    cr_assert_str_eq(dir, "/x/cache/magnus");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/y", 1);
    cr_assert(magnus_kernel_cache_dir(dir, sizeof dir));
    cr_assert_str_eq(dir, "/home/y/.cache/magnus");
    unsetenv("HOME");
    cr_assert(!magnus_kernel_cache_dir(dir, sizeof dir));
    /* disabled: storing does nothing, loading misses */
    use_temporary_cache();
    setenv("MAGNUS_NO_CACHE", "1", 1);
    magnus_cache_key k;
    magnus_cache_key_init(&k);
    magnus_kernel_cache_store("t", &k, "x", 1);
    cr_assert_eq(count_files(cache_dir), -1, "no directory created");
}

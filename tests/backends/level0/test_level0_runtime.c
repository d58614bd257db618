/*
 * The Level Zero backend's contexts, queues, memory, events, modules and kernel launches,
 * driven through the device runtime on the fake driver (tests/backends/level0/fake_ze) behind the real Level
 * Zero loader. The fake keeps device memory in host memory and checks every access against
 * its allocation, leaves appended work pending until the host waits (so it catches an event
 * destroyed or memory freed while queued work still uses it: "misuses"), runs the SPIR-V
 * kernels on PoCL, simulates a device clock (one tick per byte moved) so timings are exact,
 * and counts its live objects so the test sees that everything created is destroyed.
 * Expected values come from host-side models of the same operations.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "device_runtime.h"
#include "kernels.h"

/* ---- helpers ----------------------------------------------------------------------------- */

static long (*fake_live_objects)(void);
static long (*fake_misuses)(void);

/* The level0 device of the fake, after configuring it; skips outside ctest. */
static magnus_device_info fake_device(void) {
    const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
    if (!alt || access(alt, R_OK) != 0)
        cr_skip_test("ZE_ENABLE_ALT_DRIVERS does not name the fake driver (run under ctest)");
    setenv("MAGNUS_BACKENDS", "level0", 1);
    magnus_device_info dev;
    magnus_status s = magnus_device_select(&dev);
    cr_assert_eq(s, MAGNUS_SUCCESS, "%s; probe: %s", magnus_last_error(), magnus_probe_diagnostics());
    cr_assert_eq(dev.backend, MAGNUS_BACKEND_LEVEL0);
    /* The loader has loaded the fake by now; find its object counter. */
    void *fake = dlopen(alt, RTLD_NOW | RTLD_NOLOAD);
    cr_assert_not_null(fake, "the fake driver is not loaded: %s", dlerror());
    void *sym = dlsym(fake, "fake_ze_live_objects");
    cr_assert_not_null(sym);
    memcpy(&fake_live_objects, &sym, sizeof sym);
    sym = dlsym(fake, "fake_ze_misuses");
    cr_assert_not_null(sym);
    memcpy(&fake_misuses, &sym, sizeof sym);
    dlclose(fake); /* drops only this extra reference */
    return dev;
}

static magnus_context make_context(const magnus_device_info *dev) {
    magnus_context ctx = NULL;
    magnus_status s = magnus_context_create(&ctx, dev, NULL);
    cr_assert_eq(s, MAGNUS_SUCCESS, "magnus_context_create: %s", magnus_last_error());
    return ctx;
}

/* A context on the fake driver's device. */
static magnus_context fake_context(void) {
    magnus_device_info dev = fake_device();
    return make_context(&dev);
}

static void free_context(magnus_context *ctx) {
    cr_assert_eq(magnus_context_free(ctx), MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_eq(fake_live_objects(), 0, "%ld Level Zero objects outlive the context",
                 fake_live_objects());
    cr_assert_eq(fake_misuses(), 0, "the fake driver saw %ld misuses (see stderr)", fake_misuses());
}

static void fill_bytes(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)((i * 131u + seed * 7u + (i >> 8)) & 0xff);
}

/* ---- memory -------------------------------------------------------------------------------- */

Test(level0_runtime, write_read_at_offsets_round_trips) {
    magnus_context ctx = fake_context();
    const size_t n = (1u << 20) + 3;
    unsigned char *in = malloc(n), *out = malloc(n);
    cr_assert(in && out);
    fill_bytes(in, n, 1);
    magnus_dbuf buf;
    cr_assert_eq(magnus_dbuf_alloc(ctx, n + 16, &buf), MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_eq(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &buf, 5, in, n), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    memset(out, 0, n);
    cr_assert_eq(magnus_dbuf_read(ctx, MAGNUS_QUEUE_LIGHT, out, &buf, 5, n), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    cr_assert_eq(memcmp(in, out, n), 0);
    /* a read from the middle sees the same bytes */
    cr_assert_eq(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, out, &buf, 5 + 1000, 77), MAGNUS_SUCCESS);
    cr_assert_eq(memcmp(in + 1000, out, 77), 0);
    magnus_dbuf_free(ctx, &buf);
    free(in);
    free(out);
    free_context(&ctx);
}

Test(level0_runtime, fills_and_copies_match_a_host_model) {
    magnus_context ctx = fake_context();
    enum { N = 4096 };
    unsigned char model_a[N], model_b[N], got[N];
    fill_bytes(model_a, N, 2);
    fill_bytes(model_b, N, 3);
    magnus_dbuf a, b;
    cr_assert_eq(magnus_dbuf_alloc(ctx, N, &a), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_dbuf_alloc(ctx, N, &b), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &a, 0, model_a, N), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &b, 0, model_b, N), MAGNUS_SUCCESS);

    /* fills of every pattern size at assorted offsets, then a copy between the buffers */
    const uint8_t p1 = 0x3c;
    const uint16_t p2 = 0xbeef;
    const uint32_t p4 = 0x01020304u;
    const uint64_t p8 = 0x1122334455667788ull;
    cr_assert_eq(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &a, 3, &p1, 1, 11), MAGNUS_SUCCESS,
                 "%s", magnus_last_error());
    cr_assert_eq(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &a, 100, &p2, 2, 40), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &a, 256, &p4, 4, 1024), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &a, 2048, &p8, 8, 800), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_dbuf_copy(ctx, MAGNUS_QUEUE_MAIN, &b, 1000, &a, 90, 2500), MAGNUS_SUCCESS,
                 "%s", magnus_last_error());
    for (size_t i = 0; i < 11; i++) memcpy(model_a + 3 + i, &p1, 1);
    for (size_t i = 0; i < 40; i += 2) memcpy(model_a + 100 + i, &p2, 2);
    for (size_t i = 0; i < 1024; i += 4) memcpy(model_a + 256 + i, &p4, 4);
    for (size_t i = 0; i < 800; i += 8) memcpy(model_a + 2048 + i, &p8, 8);
    memcpy(model_b + 1000, model_a + 90, 2500);

    cr_assert_eq(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, got, &a, 0, N), MAGNUS_SUCCESS);
    cr_assert_eq(memcmp(got, model_a, N), 0, "buffer a differs from the model");
    cr_assert_eq(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, got, &b, 0, N), MAGNUS_SUCCESS);
    cr_assert_eq(memcmp(got, model_b, N), 0, "buffer b differs from the model");
    magnus_dbuf_free(ctx, &a);
    magnus_dbuf_free(ctx, &b);
    free_context(&ctx);
}

Test(level0_runtime, device_out_of_memory_is_reported_as_such) {
    setenv("FAKE_ZE_GLOBAL_MEM", "1048576", 1); /* 1 MiB */
    magnus_device_info dev = fake_device();
    cr_assert_eq(dev.global_mem_bytes, 1048576);
    magnus_context ctx = make_context(&dev);
    magnus_dbuf small, big;
    cr_assert_eq(magnus_dbuf_alloc(ctx, 700000, &small), MAGNUS_SUCCESS, "%s", magnus_last_error());
    magnus_status s = magnus_dbuf_alloc(ctx, 700000, &big); /* only 348576 bytes left */
    cr_assert_eq(s, MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY, "status %d: %s", s, magnus_last_error());
    cr_assert(strstr(magnus_last_error(), "zeMemAllocDevice"), "%s", magnus_last_error());
    cr_assert(strstr(magnus_last_error(), "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"), "%s",
              magnus_last_error());
    cr_assert_null(big.mem);
    magnus_dbuf_free(ctx, &small);
    cr_assert_eq(magnus_dbuf_alloc(ctx, 700000, &big), MAGNUS_SUCCESS, "freed memory is not reusable");
    magnus_dbuf_free(ctx, &big);
    free_context(&ctx);
}

/* maxMemAllocSize is 64 KiB here: a 1 MiB buffer exists only if the backend asks for relaxed
 * allocation limits, as it must on Intel GPUs for buffers over 4 GiB. */
Test(level0_runtime, buffers_beyond_max_alloc_size_use_relaxed_limits) {
    setenv("FAKE_ZE_GLOBAL_MEM", "16777216", 1);
    setenv("FAKE_ZE_MAX_ALLOC", "65536", 1);
    magnus_device_info dev = fake_device();
    cr_assert_eq(dev.max_alloc_bytes, 16777216, "one buffer may use all device memory");
    magnus_context ctx = make_context(&dev);
    const size_t n = 1 << 20;
    unsigned char *in = malloc(n), *out = malloc(n);
    cr_assert(in && out);
    fill_bytes(in, n, 4);
    magnus_dbuf buf;
    cr_assert_eq(magnus_dbuf_alloc(ctx, n, &buf), MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_eq(magnus_dbuf_write(ctx, MAGNUS_QUEUE_HEAVY, &buf, 0, in, n), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_dbuf_read(ctx, MAGNUS_QUEUE_HEAVY, out, &buf, 0, n), MAGNUS_SUCCESS);
    cr_assert_eq(memcmp(in, out, n), 0);
    magnus_dbuf_free(ctx, &buf);
    free(in);
    free(out);
    free_context(&ctx);
}

/* ---- events and timing --------------------------------------------------------------------- */

/* 2 ns per tick and 10 valid timestamp bits: copying 1000 bytes takes 1000 ticks = 2 us, and
 * the device counter (starting at 1000) wraps past 1023 in between, which the backend's
 * masking must undo. */
Test(level0_runtime, timer_converts_ticks_and_survives_counter_wrap) {
    setenv("FAKE_ZE_TIMER_NS", "2", 1);
    setenv("FAKE_ZE_TIMESTAMP_BITS", "10", 1);
    setenv("FAKE_ZE_CLOCK_START", "1000", 1);
    magnus_context ctx = fake_context();
    magnus_dbuf a, b;
    cr_assert_eq(magnus_dbuf_alloc(ctx, 1000, &a), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_dbuf_alloc(ctx, 1000, &b), MAGNUS_SUCCESS);
    magnus_timer t = {0};
    cr_assert_eq(magnus_timer_start(ctx, MAGNUS_QUEUE_HEAVY, &t), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    cr_assert_eq(magnus_dbuf_copy(ctx, MAGNUS_QUEUE_HEAVY, &b, 0, &a, 0, 1000), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_timer_stop(ctx, MAGNUS_QUEUE_HEAVY, &t), MAGNUS_SUCCESS);
    double ms = -1;
    cr_assert_eq(magnus_timer_elapsed_ms(ctx, &t, &ms), MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert(fabs(ms - 0.002) < 1e-12, "elapsed %.12f ms, expected 0.002", ms);
    magnus_dbuf_free(ctx, &a);
    magnus_dbuf_free(ctx, &b);
    free_context(&ctx);
}

/* Cross-queue dependencies destroy their event at once; the backend must keep it until both
 * queues are past it, and then really destroy it (no growth over many dependencies). */
Test(level0_runtime, queue_dependencies_release_their_events) {
    magnus_context ctx = fake_context();
    magnus_dbuf buf;
    uint32_t value = 0;
    cr_assert_eq(magnus_dbuf_alloc(ctx, 4096, &buf), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_context_finish(ctx), MAGNUS_SUCCESS);
    long before = fake_live_objects();
    for (uint32_t i = 1; i <= 100; i++) {
        cr_assert_eq(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_HEAVY, &buf, 0, &i, 4, 4096), MAGNUS_SUCCESS);
        cr_assert_eq(magnus_queue_depend(ctx, MAGNUS_QUEUE_LIGHT, MAGNUS_QUEUE_HEAVY),
                     MAGNUS_SUCCESS, "%s", magnus_last_error());
        cr_assert_eq(magnus_queue_depend(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_QUEUE_LIGHT),
                     MAGNUS_SUCCESS, "%s", magnus_last_error());
    }
    cr_assert_eq(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, &value, &buf, 4092, 4), MAGNUS_SUCCESS);
    cr_assert_eq(value, 100);
    cr_assert_eq(fake_misuses(), 0, "an event was destroyed while queued work used it");
    cr_assert_eq(magnus_context_finish(ctx), MAGNUS_SUCCESS);
    cr_assert_eq(fake_live_objects(), before, "%ld objects before, %ld after 200 dependencies",
                 before, fake_live_objects());
    magnus_dbuf_free(ctx, &buf);
    free_context(&ctx);
}

/* Freeing a buffer that queued work still reads must wait for that work (zeMemFree does not). */
Test(level0_runtime, freeing_a_buffer_in_use_waits_for_the_queues) {
    magnus_context ctx = fake_context();
    enum { N = 8192 };
    unsigned char in[N], out[N];
    fill_bytes(in, N, 5);
    magnus_dbuf a, b;
    cr_assert_eq(magnus_dbuf_alloc(ctx, N, &a), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_dbuf_alloc(ctx, N, &b), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &a, 0, in, N), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_dbuf_copy(ctx, MAGNUS_QUEUE_HEAVY, &b, 0, &a, 0, N), MAGNUS_SUCCESS);
    magnus_dbuf_free(ctx, &a); /* the copy is still queued on HEAVY */
    cr_assert_eq(fake_misuses(), 0, "a buffer was freed under queued work");
    cr_assert_eq(magnus_dbuf_read(ctx, MAGNUS_QUEUE_HEAVY, out, &b, 0, N), MAGNUS_SUCCESS);
    cr_assert_eq(memcmp(in, out, N), 0);
    magnus_dbuf_free(ctx, &b);
    free_context(&ctx);
}

/* ---- modules and kernels ------------------------------------------------------------------- */

/* Skips the calling test when this build has no SPIR-V kernels (the launch says so). */
static void skip_without_spirv(magnus_status s, magnus_context *ctx, magnus_dbuf *buf) {
    if (s == MAGNUS_ERROR_KERNEL_BUILD && strstr(magnus_last_error(), "built without SPIR-V")) {
        magnus_dbuf_free(*ctx, buf);
        free_context(ctx);
        cr_skip_test("this build has no SPIR-V kernels");
    }
}

/* A module the driver refuses to build: the error carries the driver's build log. */
Test(level0_runtime, module_build_failure_carries_the_build_log) {
    setenv("FAKE_ZE_FAIL_AT", "build", 1);
    magnus_context ctx = fake_context();
    magnus_dbuf buf;
    cr_assert_eq(magnus_dbuf_alloc(ctx, 64, &buf), MAGNUS_SUCCESS);
    magnus_status s = magnus_k_prim_fill_u32(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, 1, 64, 0,
                                             &buf, 0, 16, 7);
    skip_without_spirv(s, &ctx, &buf);
    cr_assert_eq(s, MAGNUS_ERROR_KERNEL_BUILD, "status %d: %s", s, magnus_last_error());
    const char *msg = magnus_last_error();
    cr_assert(strstr(msg, "zeModuleCreate"), "%s", msg);
    cr_assert(strstr(msg, "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE"), "%s", msg);
    cr_assert(strstr(msg, "FAKE_ZE_FAIL_AT=build"), "the fake's log is missing: %s", msg);
    magnus_dbuf_free(ctx, &buf);
    free_context(&ctx);
}

/* The SPIR-V really runs: prim_fill_u32 (p[offset + i] = value for i < n) writes exactly its
 * range on two queues, after a fill the host model also knows. */
Test(level0_runtime, kernels_run_through_level_zero) {
    magnus_context ctx = fake_context();
    enum { N = 5000 };
    uint32_t model[N], got[N];
    magnus_dbuf buf;
    cr_assert_eq(magnus_dbuf_alloc(ctx, sizeof model, &buf), MAGNUS_SUCCESS);
    const uint32_t background = 0x5a5a5a5au;
    cr_assert_eq(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &buf, 0, &background, 4, sizeof model),
                 MAGNUS_SUCCESS);
    magnus_status s = magnus_k_prim_fill_u32(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, 2, 64, 0,
                                             &buf, 3, 1000, 11);
    skip_without_spirv(s, &ctx, &buf);
    cr_assert_eq(s, MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_eq(magnus_queue_depend(ctx, MAGNUS_QUEUE_HEAVY, MAGNUS_QUEUE_MAIN), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_k_prim_fill_u32(ctx, MAGNUS_QUEUE_HEAVY, MAGNUS_VARIANT_F32, 7, 128, 512,
                                        &buf, 2000, 2999, 22),
                 MAGNUS_SUCCESS, "%s", magnus_last_error());
    for (size_t i = 0; i < N; i++) model[i] = background;
    for (size_t i = 3; i < 1003; i++) model[i] = 11;
    for (size_t i = 2000; i < 4999; i++) model[i] = 22;
    cr_assert_eq(magnus_dbuf_read(ctx, MAGNUS_QUEUE_HEAVY, got, &buf, 0, sizeof got), MAGNUS_SUCCESS);
    for (size_t i = 0; i < N; i++)
        cr_assert_eq(got[i], model[i], "element %zu: %u, expected %u", i, got[i], model[i]);
    magnus_dbuf_free(ctx, &buf);
    free_context(&ctx);
}

/* A launch whose local memory (the kernel's own arrays plus its local argument) exceeds the
 * device's is refused by the driver, as Intel's is; the same launch within the limit runs.
 * hash_bin_count declares 2432 bytes of local arrays (kernels/hash_binning.cl). */
Test(level0_runtime, launches_beyond_local_memory_are_refused) {
    setenv("FAKE_ZE_LOCAL_MEM", "4096", 1);
    magnus_context ctx = fake_context();
    magnus_dbuf buf;
    cr_assert_eq(magnus_dbuf_alloc(ctx, 4096, &buf), MAGNUS_SUCCESS);
    const uint32_t zero = 0;
    cr_assert_eq(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &buf, 0, &zero, 4, 4096), MAGNUS_SUCCESS);
    /* hash_bin_count with zero items, every buffer the same zeroed one; only the local memory
     * matters here. Arguments: ids, ids_offset, has_ids, count, keys, key_is_ptr, key_cap,
     * bounds, nbins, counts. */
    magnus_status s = magnus_k_hash_bin_count(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, 1, 256,
                                              2048, &buf, 0, 0, 0, &buf, 1, 0, &buf, 1, &buf);
    skip_without_spirv(s, &ctx, &buf);
    cr_assert_eq(s, MAGNUS_ERROR_KERNEL_LAUNCH, "status %d: %s", s, magnus_last_error());
    cr_assert(strstr(magnus_last_error(), "zeCommandListAppendLaunchKernel"), "%s",
              magnus_last_error());
    cr_assert_eq(magnus_k_hash_bin_count(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F32, 1, 256, 1024,
                                         &buf, 0, 0, 0, &buf, 1, 0, &buf, 1, &buf),
                 MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_eq(magnus_context_finish(ctx), MAGNUS_SUCCESS, "%s", magnus_last_error());
    magnus_dbuf_free(ctx, &buf);
    free_context(&ctx);
}

/* A kernel's limits come from zeKernelGetProperties: its own local memory as the driver
 * counts it (the fake: from the SPIR-V, 2432 bytes for hash_bin_count, none for
 * prim_fill_u32), its largest group no more than the device's maxTotalGroupSize. */
Test(level0_runtime, kernel_limits_from_the_driver) {
    magnus_device_info dev = fake_device();
    magnus_context ctx = make_context(&dev);
    magnus_kernel_limits fill, bins;
    magnus_status s =
        magnus_kernel_limits_get(&fill, ctx, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_prim_fill_u32);
    magnus_dbuf none = {0};
    skip_without_spirv(s, &ctx, &none);
    cr_assert_eq(s, MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_eq(
        magnus_kernel_limits_get(&bins, ctx, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_hash_bin_count),
        MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_eq(fill.static_local_bytes, 0u);
    cr_assert_eq(bins.static_local_bytes, 2432u);
    cr_assert_gt(fill.max_group_size, 0u);
    cr_assert_leq(fill.max_group_size, dev.max_work_group_size);
    cr_assert_leq(bins.max_group_size, dev.max_work_group_size);
    /* a kernel the module lacks: the backend's own lookup (no id reaches it) */
    magnus_bkernel *missing = NULL;
    cr_assert_eq(ctx->ops->kernel_get(ctx->modules[MAGNUS_VARIANT_F32], "no_such_kernel", &missing),
                 MAGNUS_ERROR_KERNEL_BUILD, "%s", magnus_last_error());
    cr_assert(strstr(magnus_last_error(), "no_such_kernel"), "%s", magnus_last_error());
    free_context(&ctx);
}

Test(level0_runtime, float64_kernels_need_fp64) {
    setenv("FAKE_ZE_FP64", "0", 1);
    magnus_device_info dev = fake_device();
    cr_assert_eq(dev.fp64, 0);
    magnus_context ctx = make_context(&dev);
    magnus_dbuf buf;
    cr_assert_eq(magnus_dbuf_alloc(ctx, 64, &buf), MAGNUS_SUCCESS);
    magnus_status s = magnus_k_prim_fill_u64(ctx, MAGNUS_QUEUE_MAIN, MAGNUS_VARIANT_F64, 1, 64, 0,
                                             &buf, 0, 8, 1);
    if (s == MAGNUS_ERROR_KERNEL_BUILD && strstr(magnus_last_error(), "built without SPIR-V")) {
        magnus_dbuf_free(ctx, &buf);
        free_context(&ctx);
        cr_skip_test("this build has no SPIR-V kernels");
    }
    cr_assert_eq(s, MAGNUS_ERROR_FEATURE_UNSUPPORTED, "status %d: %s", s, magnus_last_error());
    cr_assert(strstr(magnus_last_error(), "fp64"), "%s", magnus_last_error());
    magnus_dbuf_free(ctx, &buf);
    free_context(&ctx);
}

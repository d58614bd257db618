/*
 * Device probing and backend selection (MAGNUS_BACKENDS, MAGNUS_DEVICE, a broken vendor
 * library). Criterion runs each test in its own process, so a test may set environment
 * variables freely. Tests that need a device skip when the probe finds none.
 *
 * One executable (test_probe) of the device runtime's tests, a file per job: this one (the
 * probe), test_context.c (contexts and their options: local-memory budget, device-memory
 * limit; buffer accounting, launch argument checks), test_deferred_free.c (deferred freeing),
 * test_kernel_limits.c (per-kernel limits), test_kernel_cache.c (the on-disk kernel cache);
 * their shared helpers are in probe_test_util.h.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "device_runtime.h"
#include "probe_test_util.h"
#include "status_test_util.h"

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

/* Probes OpenCL alone through `library`, which yields no device (and no error: only a
 * diagnostic says why). */
static void probe_opencl_through(const char *library) {
    setenv("MAGNUS_BACKENDS", "opencl", 1);
    setenv("MAGNUS_OPENCL_LIBRARY", library, 1);
    size_t count = 99;
    ASSERT_OK(magnus_device_probe(NULL, 0, &count));
    cr_assert_eq(count, 0u, "%s gave %zu devices", library, count);
}

Test(probe, missing_opencl_library_is_a_diagnostic) {
    probe_opencl_through("/nonexistent.so");
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
    probe_opencl_through("libz.so.1");
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

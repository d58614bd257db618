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
#include <ctype.h>
#include <stdio.h>
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
    /* the device's own name, any part of it, in any case, names it too */
    char part[8];
    snprintf(part, sizeof part, "%.5s", first.name);
    for (char *c = part; *c; c++)
        *c = (char)(islower((unsigned char)*c) ? toupper((unsigned char)*c) : tolower((unsigned char)*c));
    const char *by_name[] = {first.name, part};
    for (size_t i = 0; i < 2; i++) {
        setenv("MAGNUS_DEVICE", by_name[i], 1);
        ASSERT_OK(magnus_device_select(&d));
        cr_assert_str_eq(d.name, first.name, "MAGNUS_DEVICE=%s", by_name[i]);
        cr_assert_str_empty(magnus_last_error());
    }
    const char *absent[] = {"opencl:99", "99", "cuda:0", "level0", "opencl:x-no-such-name",
                            "no-such-device-name"};
    for (size_t i = 0; i < 6; i++) {
        setenv("MAGNUS_DEVICE", absent[i], 1);
        cr_assert_eq(magnus_device_select(&d), MAGNUS_ERROR_NO_DEVICE, "MAGNUS_DEVICE=%s",
                     absent[i]);
        /* the spec, the variable it came from and the devices there are */
        cr_assert(strstr(magnus_last_error(), absent[i]), "%s", magnus_last_error());
        cr_assert(strstr(magnus_last_error(), "MAGNUS_DEVICE: "), "%s", magnus_last_error());
        cr_assert(strstr(magnus_last_error(), first.name), "%s", magnus_last_error());
    }
    const char *malformed[] = {"opencl:", "gpu:0", "", "  ", "vulkan:1"};
    for (size_t i = 0; i < 5; i++) {
        setenv("MAGNUS_DEVICE", malformed[i], 1);
        magnus_status want = malformed[i][0] ? MAGNUS_ERROR_INVALID_ARGUMENT : MAGNUS_SUCCESS;
        cr_assert_eq(magnus_device_select(&d), want, "MAGNUS_DEVICE='%s'", malformed[i]);
    }
    unsetenv("MAGNUS_DEVICE");
    /* magnus_device_find: the same grammar, not the variable */
    setenv("MAGNUS_DEVICE", "no-such-device-name", 1);
    ASSERT_OK(magnus_device_find(&d, "opencl:0"));
    cr_assert(d.backend == MAGNUS_BACKEND_OPENCL && d.index == 0);
    cr_assert_str_empty(magnus_last_error());
    cr_assert_eq(magnus_device_find(&d, "opencl:99"), MAGNUS_ERROR_NO_DEVICE);
    cr_assert(!strstr(magnus_last_error(), "MAGNUS_DEVICE"), "%s", magnus_last_error());
    cr_assert_eq(magnus_device_find(&d, "gpu:0"), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_device_find(NULL, "0"), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_device_find(&d, NULL), MAGNUS_ERROR_NULL_POINTER);
    unsetenv("MAGNUS_DEVICE");
}

/* The spec grammar over a made-up list: no device needed. */
static magnus_device_info fake(magnus_backend_kind backend, int index, const char *name,
                               const char *vendor, int is_cpu, uint64_t local) {
    magnus_device_info d;
    memset(&d, 0, sizeof d);
    d.backend = backend;
    d.index = index;
    snprintf(d.name, sizeof d.name, "%s", name);
    snprintf(d.vendor, sizeof d.vendor, "%s", vendor);
    d.is_cpu = is_cpu;
    d.local_mem_bytes = local;
    return d;
}

Test(probe, device_spec_grammar) {
    magnus_device_info list[] = {
        fake(MAGNUS_BACKEND_CUDA, 0, "NVIDIA H200", "NVIDIA Corporation", 0, 227 << 10),
        fake(MAGNUS_BACKEND_CUDA, 1, "NVIDIA H200", "NVIDIA Corporation", 0, 227 << 10),
        fake(MAGNUS_BACKEND_LEVEL0, 0, "Intel(R) Data Center GPU Max 1550", "Intel", 0, 128 << 10),
        fake(MAGNUS_BACKEND_OPENCL, 0, "pthread-cpu", "AuthenticAMD", 1, 4 << 20),
        fake(MAGNUS_BACKEND_OPENCL, 1, "NVIDIA H200", "NVIDIA Corporation", 0, 48 << 10),
    };
    size_t n = sizeof list / sizeof list[0];
    struct {
        const char *spec;
        size_t want;
    } good[] = {
        {"0", 0}, {"4", 4}, {"gpu", 0}, {"GPU", 0}, {"cpu", 3}, {"cuda", 0}, {"cuda:1", 1},
        {" cuda : 1 ", 1}, {"level0", 2}, {"opencl", 4}, {"opencl:0", 3}, {"opencl:1", 4},
        {"opencl:cpu", 3}, {"opencl:gpu", 4}, {"opencl:nvidia", 4}, {"opencl:NVIDIA H200", 4},
        {"opencl:pthread", 3}, {"pthread", 3}, {"amd", 3}, {"h200", 0}, {"nvidia", 0},
        {"intel", 2}, {"max 1550", 2}, {"level0:gpu", 2}, {"cuda:h200", 0},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        size_t at = 99;
        magnus_status s = magnus_device_match(&at, list, n, good[i].spec);
        cr_expect(s == MAGNUS_SUCCESS && at == good[i].want, "'%s': status %d, device %zu, want %zu (%s)",
                  good[i].spec, s, at, good[i].want, magnus_last_error());
        cr_expect_str_empty(magnus_last_error(), "'%s' left a message", good[i].spec);
    }
    /* nothing, or several names: NO_DEVICE, the detail listing the devices */
    const char *none[] = {"5", "cuda:2", "cuda:cpu", "level0:cpu", "vulkan", "radeon", "opencl:intel"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        size_t at;
        cr_expect_eq(magnus_device_match(&at, list, n, none[i]), MAGNUS_ERROR_NO_DEVICE, "'%s'",
                     none[i]);
        cr_expect(strstr(magnus_last_error(), "no device matches") &&
                      strstr(magnus_last_error(), "level0:0 \"Intel(R) Data Center GPU Max 1550\""),
                  "'%s': %s", none[i], magnus_last_error());
    }
    size_t at;
    /* "a" is in the NVIDIA, Intel and AMD names: ambiguous, the matches listed */
    cr_expect_eq(magnus_device_match(&at, list, n, "a"), MAGNUS_ERROR_NO_DEVICE);
    cr_expect(strstr(magnus_last_error(), "ambiguous") && strstr(magnus_last_error(), "cuda:0") &&
                  strstr(magnus_last_error(), "opencl:0"),
              "%s", magnus_last_error());
    /* malformed: INVALID_ARGUMENT, also with no list (a syntax check) */
    const char *bad[] = {"", " ", "gpu:0", "opencl:", "nvidia:h200", ":0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(magnus_device_match(&at, list, n, bad[i]), MAGNUS_ERROR_INVALID_ARGUMENT,
                     "'%s'", bad[i]);
        cr_expect_str_not_empty(magnus_last_error());
        cr_expect_eq(magnus_device_match(&at, NULL, 0, bad[i]), MAGNUS_ERROR_INVALID_ARGUMENT,
                     "'%s' without a list", bad[i]);
    }
    cr_expect_eq(magnus_device_match(&at, NULL, 0, "opencl:1"), MAGNUS_ERROR_NO_DEVICE);
    cr_expect_eq(magnus_device_match(&at, list, n, NULL), MAGNUS_ERROR_NULL_POINTER);
    cr_expect_eq(magnus_device_match(NULL, list, n, "0"), MAGNUS_ERROR_NULL_POINTER);
    cr_expect_eq(magnus_device_match(&at, NULL, 3, "0"), MAGNUS_ERROR_NULL_POINTER);
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

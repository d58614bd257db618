/*
 * Level Zero device probing through the real Level Zero loader and the fake driver
 * (tests/backends/level0/fake_ze, named by ZE_ENABLE_ALT_DRIVERS in the ctest environment): the device magnus
 * lists carries exactly the properties the fake was told to report; every failing step of the
 * driver, and a missing loader, make probe skip level0 with a diagnostic while the OpenCL
 * devices are still listed.
 *
 * Criterion runs each test in a fresh process, which matters: the loader reads its
 * environment and runs zeInit once per process.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "magnus/magnus.h"

#define MAX_DEVICES 32

typedef struct probe_result {
    magnus_device_info devices[MAX_DEVICES];
    size_t count;
    char diagnostics[4096];
} probe_result;

static void require_fake_driver(void) {
    const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
    if (!alt || access(alt, R_OK) != 0)
        cr_skip_test("ZE_ENABLE_ALT_DRIVERS does not name the fake driver (run under ctest)");
}

static void probe(probe_result *r, const char *backends) {
    cr_assert_eq(setenv("MAGNUS_BACKENDS", backends, 1), 0);
    memset(r, 0, sizeof *r);
    magnus_status s = magnus_device_probe(r->devices, MAX_DEVICES, &r->count);
    cr_assert_eq(s, MAGNUS_SUCCESS, "probe failed: %s", magnus_last_error());
    cr_assert_leq(r->count, (size_t)MAX_DEVICES);
    snprintf(r->diagnostics, sizeof r->diagnostics, "%s", magnus_probe_diagnostics());
    fprintf(stderr, "---- probe (MAGNUS_BACKENDS=%s): %zu device(s)\n%s\n", backends, r->count,
            r->diagnostics);
}

static size_t count_backend(const probe_result *r, magnus_backend_kind kind) {
    size_t n = 0;
    for (size_t i = 0; i < r->count; i++) n += r->devices[i].backend == kind;
    return n;
}

static const magnus_device_info *level0_device(const probe_result *r, int index) {
    for (size_t i = 0; i < r->count; i++)
        if (r->devices[i].backend == MAGNUS_BACKEND_LEVEL0 && r->devices[i].index == index)
            return &r->devices[i];
    return NULL;
}

/* What the fake was configured to report. */
typedef struct {
    const char *name;
    uint64_t local_mem_bytes, global_mem_bytes;
    int compute_units, num_subgroup_sizes, subgroup_sizes[8], fp64, atomic64;
} expected_device;

static void expect_device(const magnus_device_info *d, int index, const expected_device *want) {
    cr_assert_str_eq(d->name, want->name, "device %d", index);
    cr_assert_eq(d->local_mem_bytes, want->local_mem_bytes, "device %d", index);
    cr_assert_eq(d->global_mem_bytes, want->global_mem_bytes, "device %d", index);
    cr_assert_eq(d->compute_units, want->compute_units, "device %d", index);
    cr_assert_eq(d->num_subgroup_sizes, want->num_subgroup_sizes, "device %d", index);
    for (int k = 0; k < want->num_subgroup_sizes; k++)
        cr_assert_eq(d->subgroup_sizes[k], want->subgroup_sizes[k], "device %d, sub-group size %d",
                     index, k);
    cr_assert_eq(d->fp64, want->fp64, "device %d", index);
    cr_assert_eq(d->atomic64, want->atomic64, "device %d", index);
}

/* ---- a PVC-like device ---------------------------------------------------------------- */

Test(level0_probe, pvc_like_device_has_exactly_the_configured_properties) {
    require_fake_driver();
    setenv("FAKE_ZE_DEVICE_NAME", "Intel(R) Data Center GPU Max 1550 (fake)", 1);
    setenv("FAKE_ZE_LOCAL_MEM", "131072", 1);            /* 128 KiB SLM */
    setenv("FAKE_ZE_SUBGROUPS", "16,32", 1);
    setenv("FAKE_ZE_COMPUTE_UNITS", "64", 1);            /* Xe-cores */
    setenv("FAKE_ZE_GLOBAL_MEM", "68719476736", 1);      /* 64 GiB */
    setenv("FAKE_ZE_FAIL_AT", "none", 1);
    probe_result r;
    probe(&r, "level0");
    cr_assert_eq(count_backend(&r, MAGNUS_BACKEND_LEVEL0), 1, "diagnostics: %s", r.diagnostics);
    cr_assert_eq(r.count, 1);
    const magnus_device_info *d = level0_device(&r, 0);
    cr_assert_not_null(d);
    expect_device(d, 0,
                  &(expected_device){"Intel(R) Data Center GPU Max 1550 (fake)", 131072,
                                     68719476736ULL, 64, 2, {16, 32}, 1, 1});
    cr_assert_str_eq(d->vendor, "Intel");
    cr_assert_str_eq(d->driver_version, "1.3.26918");
    cr_assert_eq(d->max_work_group_size, 1024);
    cr_assert_eq(d->is_cpu, 0);
    cr_assert(strstr(r.diagnostics, "level0: loaded, 1 device"), "%s", r.diagnostics);
}

/* A second, different configuration: the values come from the fake, not from defaults. */
Test(level0_probe, two_small_devices_without_fp64) {
    require_fake_driver();
    setenv("FAKE_ZE_DEVICE_NAME", "Small Fake GPU", 1);
    setenv("FAKE_ZE_DEVICE_COUNT", "2", 1);
    setenv("FAKE_ZE_LOCAL_MEM", "65536", 1);
    setenv("FAKE_ZE_SUBGROUPS", "8,16,32", 1);
    setenv("FAKE_ZE_COMPUTE_UNITS", "7", 1);             /* odd: one slice of 7 */
    setenv("FAKE_ZE_GLOBAL_MEM", "2147483648", 1);
    setenv("FAKE_ZE_FP64", "0", 1);
    setenv("FAKE_ZE_ATOMIC64", "0", 1);
    setenv("FAKE_ZE_FAIL_AT", "none", 1);
    probe_result r;
    probe(&r, "level0");
    cr_assert_eq(count_backend(&r, MAGNUS_BACKEND_LEVEL0), 2, "diagnostics: %s", r.diagnostics);
    for (int i = 0; i < 2; i++) {
        const magnus_device_info *d = level0_device(&r, i);
        cr_assert_not_null(d, "device %d missing", i);
        expect_device(d, i,
                      &(expected_device){"Small Fake GPU", 65536, 2147483648ULL, 7, 3,
                                         {8, 16, 32}, 0, 0});
    }
}

/* ---- failures: level0 skipped with a diagnostic, OpenCL unaffected --------------------- */

/* Probes OpenCL alone, then level0 + OpenCL with the fake failing at `step`; level0 must list
 * nothing and say why (naming `call` and `result`), OpenCL must list what it listed alone. */
static void check_failure_skips_level0(const char *step, const char *call, const char *result) {
    require_fake_driver();
    setenv("FAKE_ZE_FAIL_AT", step, 1);
    probe_result alone, both;
    probe(&alone, "opencl");
    size_t opencl_alone = count_backend(&alone, MAGNUS_BACKEND_OPENCL);
    /* what OpenCL lists alone is the reference (no ICD file or device count assumed) */
    if (opencl_alone == 0) cr_log_info("OpenCL lists no device here: only level0's part checked");
    probe(&both, "level0,opencl");
    cr_assert_eq(count_backend(&both, MAGNUS_BACKEND_LEVEL0), 0, "%s", both.diagnostics);
    cr_assert_eq(count_backend(&both, MAGNUS_BACKEND_OPENCL), opencl_alone, "%s", both.diagnostics);
    cr_assert_eq(both.count, opencl_alone);
    cr_assert(strstr(both.diagnostics, "level0: unavailable"), "%s", both.diagnostics);
    cr_assert(strstr(both.diagnostics, call), "no \"%s\" in: %s", call, both.diagnostics);
    cr_assert(strstr(both.diagnostics, result), "no \"%s\" in: %s", result, both.diagnostics);
}

Test(level0_probe, failing_init_skips_level0) {
    check_failure_skips_level0("init", "zeInit(ZE_INIT_FLAG_GPU_ONLY) failed",
                               "ZE_RESULT_ERROR_UNINITIALIZED");
}

Test(level0_probe, failing_driver_get_skips_level0) {
    check_failure_skips_level0("driverget", "zeDriverGet failed", "ZE_RESULT_ERROR_DEVICE_LOST");
}

Test(level0_probe, failing_device_get_skips_level0) {
    check_failure_skips_level0("deviceget", "zeDeviceGet failed", "ZE_RESULT_ERROR_DEVICE_LOST");
}

Test(level0_probe, failing_device_properties_skips_level0) {
    check_failure_skips_level0("properties", "zeDeviceGetProperties failed",
                               "ZE_RESULT_ERROR_DEVICE_LOST");
}

/* ---- no loader at all ------------------------------------------------------------------- */

Test(level0_probe, missing_loader_is_a_clean_skip) {
    probe_result alone, r;
    probe(&alone, "opencl");
    size_t opencl_alone = count_backend(&alone, MAGNUS_BACKEND_OPENCL);
    setenv("MAGNUS_LEVEL0_LIBRARY", "/nonexistent/libze_loader.so.1", 1);
    probe(&r, "level0,opencl");
    cr_assert_eq(count_backend(&r, MAGNUS_BACKEND_LEVEL0), 0);
    cr_assert(strstr(r.diagnostics, "level0: unavailable"), "%s", r.diagnostics);
    cr_assert(strstr(r.diagnostics, "cannot load /nonexistent/libze_loader.so.1"), "%s",
              r.diagnostics);
    cr_assert_eq(count_backend(&r, MAGNUS_BACKEND_OPENCL), opencl_alone, "%s", r.diagnostics);
}

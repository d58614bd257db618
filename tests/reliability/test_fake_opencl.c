/*
 * A broken OpenCL stack: tests/backends/opencl/fake_opencl forwards to the real ICD loader (PoCL on CI) but
 * fails the entry point FAKE_OPENCL_FAIL names. Whatever step fails:
 *   - probing: the OpenCL backend is skipped with a diagnostic naming the call, the probe
 *     itself succeeds, the other backends are still listed, and the next probe with a healthy
 *     stack finds the device again;
 *   - context creation: its own status and message, no context, nothing held;
 *   - a multiply: an error status naming the call, no output, every device buffer released,
 *     and the same context multiplies correctly once the stack is healthy again.
 * Skipped (77) when no real OpenCL device exists. The executable runs with
 * MAGNUS_OPENCL_LIBRARY pointing at the fake (tests/reliability/reliability.cmake).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_runtime.h"

static void healthy(void) { setenv("FAKE_OPENCL_FAIL", "none", 1); }

static void fail_at(const char *spec) { setenv("FAKE_OPENCL_FAIL", spec, 1); }

/* The number of OpenCL devices a healthy stack shows (skips the test when there are none). */
static size_t healthy_opencl_devices(void) {
    healthy();
    size_t count = 0;
    cr_assert_eq(magnus_device_probe(NULL, 0, &count), MAGNUS_SUCCESS, "%s", magnus_last_error());
    if (count == 0) cr_skip_test("no OpenCL device: %s", magnus_probe_diagnostics());
    return count;
}

/* The diagnostics line of one backend ("opencl: ..."), or "" if absent. */
static const char *diag_line(const char *backend, char *buf, size_t size) {
    const char *d = magnus_probe_diagnostics();
    size_t len = strlen(backend);
    for (const char *p = d; *p;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > len && strncmp(p, backend, len) == 0 && p[len] == ':') {
            snprintf(buf, size, "%.*s", (int)n, p);
            return buf;
        }
        p += n + (end ? 1 : 0);
    }
    buf[0] = '\0';
    return buf;
}

Test(fake_opencl, probe_skips_a_broken_stack_and_keeps_the_others) {
    size_t baseline = healthy_opencl_devices();
    /* each step of listing devices; "@N" lets N calls through first */
    static const char *const steps[] = {
        "clGetPlatformIDs",  "clGetPlatformIDs@1", "clGetDeviceIDs", "clGetDeviceInfo",
        "clGetDeviceInfo@1", "clGetDeviceInfo@4",  "clGetDeviceInfo@12"};
    for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
        fail_at(steps[k]);
        size_t count = 99;
        magnus_status s = magnus_device_probe(NULL, 0, &count);
        cr_assert_eq(s, MAGNUS_SUCCESS, "%s: a broken backend must not fail the probe: %s",
                     steps[k], magnus_last_error());
        cr_expect_eq(count, 0, "%s: %zu devices listed from a broken stack", steps[k], count);
        char line[512], other[512];
        diag_line("opencl", line, sizeof line);
        char call[64];
        snprintf(call, sizeof call, "%.*s", (int)strcspn(steps[k], "@"), steps[k]);
        if (strcmp(call, "clGetDeviceInfo") == 0) {
            /* a device whose parameters cannot be read is skipped with a reason (naming the
             * call, except for the first queries: "its parameters cannot be read") */
            cr_expect(strstr(line, "skipped") != NULL &&
                          (strstr(line, "cannot be read") != NULL || strstr(line, call) != NULL),
                      "%s: the diagnostic does not say the device was skipped: '%s'", steps[k],
                      line);
        } else {
            cr_expect(strstr(line, call) != NULL,
                      "%s: the diagnostic does not name the call: '%s'", steps[k], line);
            cr_expect(strstr(line, "CL_OUT_OF_RESOURCES") != NULL,
                      "%s: the diagnostic does not give the error: '%s'", steps[k], line);
        }
        /* the other backends were still tried */
        cr_expect_neq(diag_line("cuda", other, sizeof other)[0], '\0', "%s: no cuda line in:\n%s",
                      steps[k], magnus_probe_diagnostics());
        magnus_device_info d;
        cr_expect_eq(magnus_device_select(&d), MAGNUS_ERROR_NO_DEVICE, "%s", steps[k]);
        cr_expect_neq(magnus_last_error()[0], '\0');
    }
    /* "no platform" from the ICD loader is no device, not a failure */
    fail_at("clGetPlatformIDs");
    setenv("FAKE_OPENCL_ERROR", "-1001", 1);
    size_t count = 99;
    cr_assert_eq(magnus_device_probe(NULL, 0, &count), MAGNUS_SUCCESS);
    cr_expect_eq(count, 0);
    char line[512];
    cr_expect(strstr(diag_line("opencl", line, sizeof line), "loaded, 0 devices") != NULL, "'%s'",
              line);
    unsetenv("FAKE_OPENCL_ERROR");
    /* healthy again: the device is back */
    healthy();
    cr_assert_eq(magnus_device_probe(NULL, 0, &count), MAGNUS_SUCCESS);
    cr_expect_eq(count, baseline, "after recovery: %s", magnus_probe_diagnostics());
}

Test(fake_opencl, context_creation_steps) {
    healthy_opencl_devices();
    magnus_device_info dev;
    cr_assert_eq(magnus_device_select(&dev), MAGNUS_SUCCESS);
    /* the context's own queue, then MAGNUS_QUEUE_COUNT queues: fail each in turn */
    static const char *const steps[] = {"clCreateContext",        "clCreateCommandQueue",
                                        "clCreateCommandQueue@1", "clCreateCommandQueue@2",
                                        "clCreateCommandQueue@3", "clGetDeviceInfo"};
    for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
        fail_at(steps[k]);
        magnus_context ctx = (magnus_context)(uintptr_t)0x1;
        magnus_status s = magnus_context_create(&ctx, &dev, NULL);
        healthy();
        cr_expect_neq(s, MAGNUS_SUCCESS, "%s: context created anyway", steps[k]);
        cr_expect_null(ctx, "%s: context left", steps[k]);
        char call[64];
        snprintf(call, sizeof call, "%.*s", (int)strcspn(steps[k], "@"), steps[k]);
        cr_expect(strstr(magnus_last_error(), call) != NULL || s == MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                  "%s: status %d, message '%s' does not name the call", steps[k], s,
                  magnus_last_error());
        if (s == MAGNUS_SUCCESS) magnus_context_free(&ctx);
    }
    magnus_context ctx = NULL;
    cr_assert_eq(magnus_context_create(&ctx, &dev, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    magnus_context_free(&ctx);
}

static bool expected_failure_of_limits(magnus_status s) {
    return s == MAGNUS_ERROR_DEVICE || s == MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY;
}

/* The per-kernel limits: each of the two queries fails in turn, the message names the call
 * and the OpenCL error, nothing is cached, and the same context answers once healthy. */
Test(fake_opencl, kernel_limits_steps) {
    healthy_opencl_devices();
    static const char *const steps[] = {"clGetKernelWorkGroupInfo", "clGetKernelWorkGroupInfo@1"};
    static const char *const params[] = {"CL_KERNEL_WORK_GROUP_SIZE", "CL_KERNEL_LOCAL_MEM_SIZE"};
    for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
        /* a fresh context each time: a kernel's limits are asked once, when it is first used */
        magnus_context ctx = NULL;
        cr_assert_eq(magnus_context_create(&ctx, NULL, NULL), MAGNUS_SUCCESS, "%s",
                     magnus_last_error());
        fail_at(steps[k]);
        magnus_kernel_limits limits = {0, 0};
        magnus_status s =
            magnus_kernel_limits_get(&limits, ctx, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_prim_fill_u32);
        healthy();
        cr_expect(expected_failure_of_limits(s), "%s: status %d (%s): %s", steps[k], s,
                  magnus_status_string(s), magnus_last_error());
        cr_expect(strstr(magnus_last_error(), "clGetKernelWorkGroupInfo") != NULL &&
                      strstr(magnus_last_error(), params[k]) != NULL,
                  "%s: the message does not name the call: '%s'", steps[k], magnus_last_error());
        cr_expect(strstr(magnus_last_error(), "CL_OUT_OF_RESOURCES") != NULL,
                  "%s: the message does not give the error: '%s'", steps[k], magnus_last_error());
        cr_expect(strstr(magnus_last_error(), "prim_fill_u32") != NULL,
                  "%s: the message does not name the kernel: '%s'", steps[k], magnus_last_error());
        cr_assert_eq(magnus_kernel_limits_get(&limits, ctx, MAGNUS_VARIANT_F32,
                                              MAGNUS_KERNEL_prim_fill_u32),
                     MAGNUS_SUCCESS, "after %s: %s", steps[k], magnus_last_error());
        cr_expect_gt(limits.max_group_size, 0u, "after %s", steps[k]);
        magnus_context_free(&ctx);
    }
}

static magnus_csr matrix(int64_t rows, int64_t cols, double per_row, uint64_t seed) {
    magnus_csr A = NULL;
    cr_assert_eq(magnus_gen_uniform(&A, rows, cols, per_row, seed, MAGNUS_FLOAT32), 0);
    return A;
}

static bool expected_failure(magnus_status s) {
    return s == MAGNUS_ERROR_DEVICE || s == MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY ||
           s == MAGNUS_ERROR_KERNEL_BUILD || s == MAGNUS_ERROR_KERNEL_LAUNCH;
}

/* Each step of a multiply fails once in turn; the context survives every one. */
static void multiply_steps(magnus_algorithm algorithm) {
    healthy_opencl_devices();
    magnus_context ctx = NULL;
    magnus_context_options o;
    magnus_context_options_init(&o);
    o.local_mem_bytes = 8192; /* heavy rows: gMAGNUS's full path */
    cr_assert_eq(magnus_context_create(&ctx, NULL, &o), MAGNUS_SUCCESS, "%s", magnus_last_error());
    magnus_csr A = matrix(40, 300, 6, 3), B = matrix(300, 2000, 40, 4), R = NULL, M = NULL;
    cr_assert_eq(magnus_reference_spgemm(&R, &M, A, B), MAGNUS_SUCCESS);
    magnus_spgemm_options opt;
    magnus_spgemm_options_init(&opt);
    opt.algorithm = algorithm;
    const uint64_t before = ctx->memory_in_use;
    static const char *const steps[] = {
        "clCreateBuffer",          "clCreateBuffer@3",       "clCreateBuffer@9",
        "clEnqueueWriteBuffer",    "clEnqueueWriteBuffer@2", "clEnqueueFillBuffer",
        "clCreateProgramWithSource", "clCreateProgramWithBinary", "clBuildProgram",
        "clCreateKernel",          "clCreateKernel@3",       "clSetKernelArg@5",
        "clEnqueueNDRangeKernel",  "clEnqueueNDRangeKernel@4", "clEnqueueReadBuffer",
        "clEnqueueReadBuffer@2",   "clFinish@2",             "clEnqueueCopyBuffer"};
    int failed = 0;
    for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
        /* a fresh module each time, so that program creation and build are reached */
        magnus_context_free(&ctx);
        cr_assert_eq(magnus_context_create(&ctx, NULL, &o), MAGNUS_SUCCESS);
        fail_at(steps[k]);
        magnus_csr C = (magnus_csr)(uintptr_t)0x1;
        magnus_status s = magnus_spgemm(&C, ctx, A, B, &opt, NULL);
        healthy();
        if (s == MAGNUS_SUCCESS) { /* this step is not on this path (e.g. the cached binary) */
            cr_expect_eq(magnus_csr_compare(NULL, C, R, M, 0), MAGNUS_SUCCESS, "%s: %s", steps[k],
                         magnus_last_error());
            magnus_csr_free(&C);
        } else {
            failed++;
            cr_expect(expected_failure(s), "%s: status %d (%s): %s", steps[k], s,
                      magnus_status_string(s), magnus_last_error());
            cr_expect_null(C, "%s: output left", steps[k]);
            cr_expect_neq(magnus_last_error()[0], '\0', "%s: no message", steps[k]);
        }
        cr_expect_eq(ctx->memory_in_use, before, "%s: %llu device bytes still held", steps[k],
                     (unsigned long long)(ctx->memory_in_use - before));
        /* the same context, healthy again, multiplies correctly */
        magnus_csr D = NULL;
        cr_assert_eq(magnus_spgemm(&D, ctx, A, B, &opt, NULL), MAGNUS_SUCCESS,
                     "after %s: %s", steps[k], magnus_last_error());
        cr_expect_eq(magnus_csr_compare(NULL, D, R, M, 0), MAGNUS_SUCCESS, "after %s: %s",
                     steps[k], magnus_last_error());
        magnus_csr_free(&D);
    }
    cr_log_info("algorithm %d: %d of %zu injected OpenCL failures reached the multiply",
                (int)algorithm, failed, sizeof steps / sizeof *steps);
    cr_expect_geq(failed, 8, "only %d injected failures were on the multiply's path", failed);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&R);
    magnus_csr_free(&M);
    magnus_context_free(&ctx);
}

Test(fake_opencl, multiply_steps_gmagnus, .timeout = 600) { multiply_steps(MAGNUS_ALGORITHM_MAGNUS); }
Test(fake_opencl, multiply_steps_hash, .timeout = 600) { multiply_steps(MAGNUS_ALGORITHM_HASH); }

/* One float32 multiply through a fresh context with MAGNUS_OPENCL_PTX=`mode` ("" for
 * unset); its status, the product checked against the reference where it succeeds. */
static magnus_status multiply_with_ptx_atomics(const char *mode) {
    if (*mode) setenv("MAGNUS_OPENCL_PTX", mode, 1);
    else unsetenv("MAGNUS_OPENCL_PTX");
    magnus_context ctx = NULL;
    cr_assert_eq(magnus_context_create(&ctx, NULL, NULL), MAGNUS_SUCCESS, "%s", magnus_last_error());
    magnus_csr A = matrix(30, 200, 5, 5), B = matrix(200, 300, 8, 6), R = NULL, M = NULL, C = NULL;
    cr_assert_eq(magnus_reference_spgemm(&R, &M, A, B), MAGNUS_SUCCESS);
    magnus_status s = magnus_spgemm(&C, ctx, A, B, NULL, NULL);
    if (s == MAGNUS_SUCCESS)
        cr_expect_eq(magnus_csr_compare(NULL, C, R, M, 0), MAGNUS_SUCCESS, "mode '%s': %s", mode,
                     magnus_last_error());
    else
        cr_expect_null(C, "mode '%s': output left", mode);
    magnus_csr_free(&C);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&R);
    magnus_csr_free(&M);
    magnus_context_free(&ctx);
    unsetenv("MAGNUS_OPENCL_PTX");
    return s;
}

/* Inline PTX (MG_PTX, opencl_module.c): a device that reports a PTX target
 * (FAKE_OPENCL_PTX_CC) but whose compiler refuses the PTX gets the kernels built again without
 * it by default; MAGNUS_OPENCL_PTX=1 makes that refusal an error naming the option; 0 never
 * asks; a device that reports no PTX target refuses 1 (one that does multiplies correctly);
 * other values, and build options longer than the library holds, are refused. */
Test(fake_opencl, ptx_float_atomics_fall_back, .timeout = 600) {
    healthy_opencl_devices();
    /* Builds made while the fake reports what the device does not are kept out of the cache,
     * where a real process on the same device would find them. */
    setenv("MAGNUS_CACHE_DIR", "off", 1);
    /* The device's own report: NVIDIA's OpenCL reports a PTX target and its compiler takes
     * the PTX (the product is then checked against the reference); PoCL reports none, so 1
     * is refused by name. */
    magnus_status s = multiply_with_ptx_atomics("1");
    if (s != MAGNUS_SUCCESS) {
        cr_expect_eq(s, MAGNUS_ERROR_FEATURE_UNSUPPORTED, "1 without the report: %s",
                     magnus_last_error());
        cr_expect(strstr(magnus_last_error(), "MAGNUS_OPENCL_PTX=1"), "%s",
                  magnus_last_error());
    }
    setenv("FAKE_OPENCL_PTX_CC", "9", 1);
    cr_expect_eq(multiply_with_ptx_atomics(""), MAGNUS_SUCCESS, "auto: %s", magnus_last_error());
    s = multiply_with_ptx_atomics("1");
    cr_expect_eq(s, MAGNUS_ERROR_KERNEL_BUILD, "1: status %d: %s", s, magnus_last_error());
    cr_expect(strstr(magnus_last_error(), "-DMG_PTX"), "%s", magnus_last_error());
    cr_expect_eq(multiply_with_ptx_atomics("0"), MAGNUS_SUCCESS, "0: %s", magnus_last_error());
    cr_expect_eq(multiply_with_ptx_atomics("yes"), MAGNUS_ERROR_INVALID_ARGUMENT, "%s",
                 magnus_last_error());
    char huge[600];
    memset(huge, 'x', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    setenv("MAGNUS_OPENCL_OPTIONS", huge, 1);
    cr_expect_eq(multiply_with_ptx_atomics(""), MAGNUS_ERROR_INVALID_ARGUMENT, "%s",
                 magnus_last_error());
    cr_expect(strstr(magnus_last_error(), "MAGNUS_OPENCL_OPTIONS"), "%s", magnus_last_error());
    unsetenv("MAGNUS_OPENCL_OPTIONS");
    setenv("FAKE_OPENCL_PTX_CC", "5", 1); /* before sm_60: no atom.add.f64, so not asked */
    cr_expect_eq(multiply_with_ptx_atomics("1"), MAGNUS_ERROR_FEATURE_UNSUPPORTED, "%s",
                 magnus_last_error());
    unsetenv("FAKE_OPENCL_PTX_CC");
    unsetenv("MAGNUS_CACHE_DIR");
}

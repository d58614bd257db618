/*
 * The CUDA backend's loader against fake drivers (tests/backends/cuda/fake_cuda/fake_cuda.c): every way
 * loading can fail skips the backend with a diagnostic naming the library and the failing
 * symbol or call, a working driver with no GPU gives 0 devices, and entry points are
 * requested at the pinned API version (12000, or the driver's own when older).
 * Runs through the public library only (MAGNUS_BACKENDS=cuda, MAGNUS_CUDA_LIBRARY=fake).
 */
#define _GNU_SOURCE /* setenv, RTLD_NOLOAD */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "magnus/magnus.h"

/* The "cuda: ..." line of the last probe's diagnostics. */
static const char *cuda_line(void) {
    static char line[1024];
    const char *d = magnus_probe_diagnostics();
    const char *p = strstr(d, "cuda:");
    cr_assert(p, "no cuda line in the diagnostics:\n%s", d);
    size_t n = strcspn(p, "\n");
    if (n >= sizeof line) n = sizeof line - 1;
    memcpy(line, p, n);
    line[n] = '\0';
    return line;
}

/* Probes the cuda backend alone with `library` as libcuda; returns the device count. */
static size_t probe_with(const char *library, const char *fail_at) {
    setenv("MAGNUS_BACKENDS", "cuda", 1);
    setenv("MAGNUS_CUDA_LIBRARY", library, 1);
    if (fail_at)
        setenv("FAKE_CUDA_FAIL_AT", fail_at, 1);
    else
        unsetenv("FAKE_CUDA_FAIL_AT");
    magnus_device_info devices[4];
    size_t count = 99;
    cr_assert_eq(magnus_device_probe(devices, 4, &count), MAGNUS_SUCCESS,
                 "a failing backend must not fail the probe: %s", magnus_last_error());
    return count;
}

static void expect_contains(const char *line, const char *part) {
    cr_expect(strstr(line, part) != NULL, "expected \"%s\" in \"%s\"", part, line);
}

/* Asks the fake (already loaded by libmagnus; same path, same instance) at which version the
 * loader requested `symbol`. */
static int requested_version(const char *library, const char *symbol) {
    void *h = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
    cr_assert(h, "the fake driver %s is not loaded", library);
    int (*query)(const char *);
    void *sym = dlsym(h, "fake_cuda_requested_version");
    cr_assert(sym);
    memcpy(&query, &sym, sizeof sym);
    int v = query(symbol);
    dlclose(h);
    return v;
}

Test(cuda_loader, missing_library_is_a_clean_skip) {
    const char *path = "/nonexistent/magnus-test/libcuda.so.1";
    cr_expect_eq(probe_with(path, NULL), 0);
    const char *line = cuda_line();
    expect_contains(line, "unavailable");
    expect_contains(line, path);
}

Test(cuda_loader, library_without_cugetprocaddress_is_skipped) {
    cr_expect_eq(probe_with(FAKE_CUDA_NOGETPROC_LIB, NULL), 0);
    const char *line = cuda_line();
    expect_contains(line, "unavailable");
    expect_contains(line, FAKE_CUDA_NOGETPROC_LIB);
    expect_contains(line, "cuGetProcAddress_v2");
}

Test(cuda_loader, missing_entry_point_names_symbol_and_leaves_nothing_loaded) {
    cr_expect_eq(probe_with(FAKE_CUDA_LIB, "getproc"), 0);
    const char *line = cuda_line();
    expect_contains(line, "unavailable");
    expect_contains(line, FAKE_CUDA_LIB);
    expect_contains(line, "\"cuMemAlloc\"");
    expect_contains(line, "symbol not found");
    /* Failed before cuInit: the library is closed again, not left mapped. */
    void *h = dlopen(FAKE_CUDA_LIB, RTLD_NOW | RTLD_NOLOAD);
    cr_expect_null(h, "the fake driver is still loaded after a failed load");
    if (h) dlclose(h);
}

Test(cuda_loader, cuinit_failure_reports_the_driver_error) {
    cr_expect_eq(probe_with(FAKE_CUDA_LIB, "init"), 0);
    const char *line = cuda_line();
    expect_contains(line, "unavailable");
    expect_contains(line, "cuInit");
    expect_contains(line, "CUDA_ERROR_NO_DEVICE");
    expect_contains(line, "no CUDA-capable device is detected");
}

Test(cuda_loader, device_count_failure_is_reported) {
    cr_expect_eq(probe_with(FAKE_CUDA_LIB, "devicecount"), 0);
    const char *line = cuda_line();
    expect_contains(line, "cuDeviceGetCount");
    expect_contains(line, "CUDA_ERROR_UNKNOWN");
}

Test(cuda_loader, working_driver_without_gpu_has_zero_devices) {
    cr_expect_eq(probe_with(FAKE_CUDA_LIB, "none"), 0);
    const char *line = cuda_line();
    cr_expect_null(strstr(line, "unavailable"), "%s", line);
    cr_expect_null(strstr(line, "failed"), "%s", line);
    expect_contains(line, "0 devices");
    magnus_device_info d;
    cr_expect_eq(magnus_device_select(&d), MAGNUS_ERROR_NO_DEVICE);
}

Test(cuda_loader, entry_points_are_pinned_to_cuda_12_0) {
    probe_with(FAKE_CUDA_LIB, NULL);
    /* The driver's version first, at the oldest version cuGetProcAddress knows. */
    cr_expect_eq(requested_version(FAKE_CUDA_LIB, "cuDriverGetVersion"), 11030);
    const char *pinned[] = {"cuInit",          "cuMemAlloc",         "cuMemFree",
                            "cuLaunchKernel",  "cuEventElapsedTime", "cuMemcpyHtoDAsync",
                            "cuDeviceTotalMem", "cuDevicePrimaryCtxRelease"};
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++)
        cr_expect_eq(requested_version(FAKE_CUDA_LIB, pinned[i]), 12000, "%s", pinned[i]);
}

Test(cuda_loader, older_driver_is_asked_at_its_own_version) {
    /* An 11.8 driver: only the original cuGetProcAddress, which refuses versions above 11080. */
    cr_expect_eq(probe_with(FAKE_CUDA_V1_LIB, NULL), 0);
    const char *line = cuda_line();
    expect_contains(line, "0 devices");
    cr_expect_eq(requested_version(FAKE_CUDA_V1_LIB, "cuMemAlloc"), 11080);
    cr_expect_eq(requested_version(FAKE_CUDA_V1_LIB, "cuLaunchKernel"), 11080);
}

Test(cuda_loader, a_failed_load_is_retried_at_the_next_probe) {
    probe_with(FAKE_CUDA_LIB, "getproc");
    expect_contains(cuda_line(), "unavailable");
    probe_with(FAKE_CUDA_LIB, "init");
    expect_contains(cuda_line(), "cuInit");
    probe_with(FAKE_CUDA_LIB, "none");
    expect_contains(cuda_line(), "0 devices");
}

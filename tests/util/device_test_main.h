/*
 * The main() of a device test executable, shared by every backend's device tests.
 *
 * Use: include this header in exactly ONE source file of the test executable (it defines
 * main), then write ordinary Criterion tests that call magnus_test_context(); the other source
 * files of the same executable include device_test_util.h (the helpers below, without main):
 *
 *     #include "device_test_main.h"
 *     Test(scan, small) {
 *         magnus_context ctx = magnus_test_context();
 *         ...
 *     }
 *
 * and register the executable once per backend in a tests/<component>.cmake file:
 *
 *     magnus_add_test(primitives_opencl SOURCES test_primitives.c ENV MAGNUS_BACKENDS=opencl)
 *
 * What main() does, before Criterion runs anything:
 *   1. magnus_device_select() under the test's environment (MAGNUS_BACKENDS picks the
 *      backend, MAGNUS_DEVICE a device). If it finds no device it prints why (the probe
 *      diagnostics) and exits 77, which ctest reports as "skipped" (magnus_add_test sets
 *      SKIP_RETURN_CODE 77), or 1 when MAGNUS_REQUIRE_DEVICE lists the entry's backend (CI:
 *      require_test_util.h). Any other failure (say, a malformed MAGNUS_DEVICE) exits 1.
 *   2. It creates a context and loads the float32 kernel module once, in a subprocess (so the
 *      parent never holds the device: a GPU in an exclusive compute mode admits one process
 *      at a time, and the tests run in other processes): a device that cannot run the kernels
 *      (MAGNUS_ERROR_FEATURE_UNSUPPORTED: say MAGNUS_OPENCL_PROGRAM=spir on an OpenCL without
 *      cl_khr_spir) skips with 77 (1 when required, as above); a build failure exits 1 with
 *      the build log, rather than failing every test alike.
 *   3. It prints the device the tests will use, then hands over to Criterion.
 *
 * Criterion runs every test in a fresh process that does not run main(), so the "shared"
 * context is per test process: magnus_test_context() creates it on first use (on the device
 * magnus_device_select() chooses, with default options) and frees it when the process exits.
 * Its local-memory budget is the default, min(device, 48 KiB) (or MAGNUS_LOCAL_MEM_BYTES);
 * magnus_test_whole_budget_context() is the same device with all of its local memory per
 * work group, for tests of what large budgets do. A test that needs other options (a memory
 * limit, another budget) creates its own. If a context cannot be created the test fails with
 * the library's message.
 *
 * Also here (from device_test_util.h): magnus_test_seed() for reproducible random inputs
 * (MAGNUS_TEST_SEED overrides the fixed default; print the seed in failure messages),
 * magnus_test_require_fp64() and magnus_test_large() (MAGNUS_TEST_LARGE=1 enables tests that
 * need many GiB), magnus_test_budget_context(), magnus_test_budget_for_levels() and
 * magnus_test_rmat().
 */
#ifndef MAGNUS_DEVICE_TEST_MAIN_H
#define MAGNUS_DEVICE_TEST_MAIN_H

#include <criterion/criterion.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "device_runtime.h"
#include "device_test_util.h"
#include "require_test_util.h"

extern char **environ;

#define MAGNUS_TEST_PRECHECK_VARIABLE "MAGNUS_DEVICE_TEST_PRECHECK"

/* The subprocess of step 2: 0 when the kernels load, 77 when the device cannot run them. */
static int magnus_test_precheck(const magnus_device_info *device) {
    magnus_context ctx = NULL;
    magnus_status s = magnus_context_create(&ctx, device, NULL);
    if (!s) s = magnus_context_load_module(ctx, MAGNUS_VARIANT_F32);
    magnus_context_free(&ctx);
    if (s == MAGNUS_ERROR_FEATURE_UNSUPPORTED) {
        printf("SKIP: %s:%d %s cannot run the kernels: %s\n", magnus_backend_name(device->backend),
               device->index, device->name, magnus_last_error());
        return 77;
    }
    if (s) {
        fprintf(stderr, "device test: kernels on %s: %s: %s\n", device->name,
                magnus_status_string(s), magnus_last_error());
        return 1;
    }
    return 0;
}

/* The exit status of a test set that found no device it can use: 77 (skipped), or 1 when
 * MAGNUS_REQUIRE_DEVICE requires one for this entry's backend. */
static int magnus_test_no_device_status(void) {
    if (!magnus_test_device_required()) return 77;
    fprintf(stderr, "FAIL: MAGNUS_REQUIRE_DEVICE=%s requires a device for %s: this entry may "
            "not skip\n", getenv("MAGNUS_REQUIRE_DEVICE"), magnus_test_entry_backend());
    return 1;
}

/* Runs this executable again as the precheck subprocess; its exit status, or 1. */
static int magnus_test_spawn_precheck(char *argv0) {
    char *args[] = {argv0, NULL};
    pid_t pid;
    setenv(MAGNUS_TEST_PRECHECK_VARIABLE, "1", 1);
    int err = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, args, environ);
    unsetenv(MAGNUS_TEST_PRECHECK_VARIABLE);
    int status = 0;
    if (err != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
        fprintf(stderr, "device test: the kernel check subprocess failed (%s)\n",
                err ? strerror(err) : "abnormal exit");
        return 1;
    }
    return WEXITSTATUS(status);
}

/* Default visibility: Criterion's workers find main by its symbol (the build hides symbols by
 * default), and run the test instead of main; hidden, main would run again in every worker. */
__attribute__((visibility("default"))) int main(int argc, char **argv) {
    magnus_device_info device;
    magnus_status s = magnus_device_select(&device);
    const char *backends = getenv("MAGNUS_BACKENDS");
    if (s == MAGNUS_ERROR_NO_DEVICE) {
        printf("SKIP: no device for MAGNUS_BACKENDS=%s%s%s: %s\nprobe:\n%s\n",
               backends ? backends : "(unset)", getenv("MAGNUS_DEVICE") ? " MAGNUS_DEVICE=" : "",
               getenv("MAGNUS_DEVICE") ? getenv("MAGNUS_DEVICE") : "", magnus_last_error(),
               magnus_probe_diagnostics());
        fflush(stdout);
        return magnus_test_no_device_status();
    }
    if (s) {
        fprintf(stderr, "device test: magnus_device_select: %s: %s\n", magnus_status_string(s),
                magnus_last_error());
        return 1;
    }
    if (getenv(MAGNUS_TEST_PRECHECK_VARIABLE)) return magnus_test_precheck(&device);
    fflush(stdout);
    int precheck = magnus_test_spawn_precheck(argv[0]);
    if (precheck == 77) return magnus_test_no_device_status();
    if (precheck) return precheck;
    /* the device's shape too: a log then says which sizes the tests derived theirs from */
    printf("device tests on %s:%d %s (%s, driver %s): %llu bytes of local memory, %d compute "
           "units, work groups up to %llu, subgroups of %d, %llu bytes of global memory\n",
           magnus_backend_name(device.backend), device.index, device.name, device.vendor,
           device.driver_version, (unsigned long long)device.local_mem_bytes,
           device.compute_units, (unsigned long long)device.max_work_group_size,
           device.subgroup_sizes[0], (unsigned long long)device.global_mem_bytes);
    fflush(stdout);
    struct criterion_test_set *tests = criterion_initialize();
    int result = 0;
    if (criterion_handle_args(argc, argv, true)) result = !criterion_run_all_tests(tests);
    criterion_finalize(tests);
    return result;
}

#endif

/*
 * Sanitizer defaults compiled into every test of a MAGNUS_SANITIZE build (magnus_add_test adds
 * this file), so a leak fails the test however the test is started (ctest, by hand, CI).
 *
 * Why abort_on_error: Criterion runs each test in a worker process and takes the test's
 * verdict from the worker's messages, not from its exit status. LeakSanitizer checks at exit,
 * after the verdict, and by default only exits with status 23, which Criterion ignores: a
 * leaking test passed. With abort_on_error=1 LeakSanitizer aborts instead; Criterion sees the
 * worker die after the test ("crashed during its setup or teardown"), warns and exits 1, so
 * ctest fails the test. (tests/CMakeLists.txt records how this was checked.)
 *
 * allocator_may_return_null=1: a request for more memory than exists returns NULL, as malloc
 * does, so the library's out-of-memory paths can be tested with impossible sizes (ASan
 * would otherwise stop the test at the request).
 *
 * intercept_tls_get_addr=0: GCC up to 13 (Debian 12 has 12) and LLVM up to 16 take a dynamic TLS
 * block whose start lies 16 bytes into a page for one with a pre-2.25 glibc header and read the
 * two words before it as its address and length. Where a malloc'd block lands there by chance
 * (PoCL and LLVM are dlopen'd and use dynamic TLS), LeakSanitizer's stop-the-world tracer dies at
 * exit ("Tracer caught signal 11") after the test passed: a rare, load-dependent failure with no
 * leak behind it (CI, 2026-12-01, test_fake_opencl). The cost: pointers held only in dynamic TLS
 * are not roots, so such a block would be reported as a leak, never hidden.
 *
 * ASAN_OPTIONS / UBSAN_OPTIONS in the environment still override single keys.
 */
#if defined(__GNUC__)
#define MAGNUS_TEST_EXPORT __attribute__((visibility("default"), used))
#else
#define MAGNUS_TEST_EXPORT
#endif

const char *__asan_default_options(void);
const char *__ubsan_default_options(void);
const char *__lsan_default_suppressions(void);

MAGNUS_TEST_EXPORT const char *__asan_default_options(void) {
    return "detect_leaks=1:abort_on_error=1:allocator_may_return_null=1:intercept_tls_get_addr=0";
}

MAGNUS_TEST_EXPORT const char *__ubsan_default_options(void) {
    return "print_stacktrace=1:halt_on_error=1";
}

/*
 * Leaks inside the OpenCL stack are not ours: PoCL keeps what LLVM allocates while it compiles
 * kernels (seen with a cold PoCL kernel cache: ~2 MB in ~4000 blocks per process). A report is
 * suppressed when a frame of its allocation stack lies in one of these libraries; magnus's own
 * allocations never pass through them.
 */
MAGNUS_TEST_EXPORT const char *__lsan_default_suppressions(void) {
    return "leak:libpocl.so\n"
           "leak:libpocl-devices-\n"
           "leak:libLLVM-\n"
           "leak:libclang-cpp.so\n"
           "leak:libOpenCL.so\n";
}

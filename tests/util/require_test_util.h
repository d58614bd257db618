/*
 * CI's switches that turn a test's "skipped" into "failed" (.ci/run sets both; a developer's
 * machine without them skips as before, docs/testing.md):
 *
 *   MAGNUS_REQUIRE_DEVICE=LIST   entry backends (opencl, opencl_spir, level0_fake, ...: the
 *                                suffixes of magnus_add_device_test's entries) that must find a
 *                                device. Each entry names its own in MAGNUS_TEST_ENTRY_BACKEND
 *                                (entries of magnus_add_test name theirs by MAGNUS_BACKENDS).
 *                                Without it a broken PoCL made every device test skip and the
 *                                suite pass.
 *   MAGNUS_REQUIRE_SHARED_MATRICES=1   the shared matrices (MAGNUS_SHARED_MATRICES, beside the
 *                                checkout) must be there; a test that reads them fails when
 *                                they are missing.
 *
 * magnus_test_no_device(fmt, ...) and magnus_test_no_shared(fmt, ...) skip the calling test
 * with the message, or fail it with the message when the switch requires what is missing.
 */
#ifndef MAGNUS_TESTS_UTIL_REQUIRE_TEST_UTIL_H
#define MAGNUS_TESTS_UTIL_REQUIRE_TEST_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether `name` is one of the comma- or space-separated words of `list`. */
static inline bool magnus_test_listed(const char *list, const char *name) {
    if (!list || !name || !*name) return false;
    const size_t n = strlen(name);
    for (const char *p = list; *p;) {
        p += strspn(p, ", ");
        const size_t len = strcspn(p, ", ");
        if (len == n && strncmp(p, name, n) == 0) return true;
        p += len;
    }
    return false;
}

/* The backend this ctest entry tests: its MAGNUS_TEST_ENTRY_BACKEND, else MAGNUS_BACKENDS. */
static inline const char *magnus_test_entry_backend(void) {
    const char *e = getenv("MAGNUS_TEST_ENTRY_BACKEND");
    return e && *e ? e : getenv("MAGNUS_BACKENDS");
}

static inline bool magnus_test_device_required(void) {
    return magnus_test_listed(getenv("MAGNUS_REQUIRE_DEVICE"), magnus_test_entry_backend());
}

static inline bool magnus_test_shared_required(void) {
    const char *e = getenv("MAGNUS_REQUIRE_SHARED_MATRICES");
    return e && *e && strcmp(e, "0") != 0;
}

#define MAGNUS_TEST_SKIP_UNLESS_REQUIRED(required, why, ...)                                     \
    do {                                                                                         \
        if (required) {                                                                          \
            fprintf(stderr, "%s: this test may not skip\n", why);                                \
            cr_assert_fail(__VA_ARGS__);                                                         \
        }                                                                                        \
        cr_skip_test(__VA_ARGS__);                                                               \
    } while (0)

#define magnus_test_no_device(...)                                                               \
    MAGNUS_TEST_SKIP_UNLESS_REQUIRED(magnus_test_device_required(),                              \
                                     "MAGNUS_REQUIRE_DEVICE lists this entry's backend",         \
                                     __VA_ARGS__)

#define magnus_test_no_shared(...)                                                               \
    MAGNUS_TEST_SKIP_UNLESS_REQUIRED(magnus_test_shared_required(),                              \
                                     "MAGNUS_REQUIRE_SHARED_MATRICES=1", __VA_ARGS__)

#endif

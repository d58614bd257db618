/*
 * context_or_skip(): the device context of the reliability tests. They run in every build and
 * have no device test main, so each device test skips itself where no device exists; one
 * definition for the files that each had their own.
 */
#ifndef MAGNUS_TESTS_RELIABILITY_CONTEXT_TEST_UTIL_H
#define MAGNUS_TESTS_RELIABILITY_CONTEXT_TEST_UTIL_H

#include <criterion/criterion.h>

#include "magnus/magnus.h"
#include "require_test_util.h"

/* A context on the best device whose work groups get local_mem bytes of local memory (0: the
 * default); skips the calling test when there is no device (fails it where CI requires one:
 * MAGNUS_REQUIRE_DEVICE, require_test_util.h). */
static inline magnus_context context_or_skip(uint64_t local_mem) {
    magnus_context ctx = NULL;
    magnus_context_options o;
    magnus_context_options_init(&o);
    o.local_mem_bytes = local_mem;
    magnus_status s = magnus_context_create(&ctx, NULL, &o);
    if (s == MAGNUS_ERROR_NO_DEVICE)
        magnus_test_no_device("no device: %s", magnus_probe_diagnostics());
    cr_assert_eq(s, MAGNUS_SUCCESS, "context: %s", magnus_last_error());
    return ctx;
}

#endif

/*
 * ASSERT_OK(call): the test files' one check that a magnus call succeeded, and
 * ASSERT_STATUS(call, status) that it returned `status`. On failure they name the call, its
 * status and the library's detail message (magnus_last_error), so that every test reports a
 * failing call the same way and no test file defines its own copy.
 */
#ifndef MAGNUS_TESTS_STATUS_TEST_UTIL_H
#define MAGNUS_TESTS_STATUS_TEST_UTIL_H

#include <criterion/criterion.h>

#include "magnus/magnus.h"

#define ASSERT_OK(call)                                                                          \
    do {                                                                                         \
        magnus_status assert_ok_s_ = (call);                                                     \
        cr_assert_eq(assert_ok_s_, MAGNUS_SUCCESS, "%s: %s (%s)", #call,                         \
                     magnus_status_string(assert_ok_s_), magnus_last_error());                   \
    } while (0)

#define ASSERT_STATUS(call, status)                                                              \
    do {                                                                                         \
        magnus_status assert_status_s_ = (call);                                                 \
        cr_assert_eq(assert_status_s_, (status), "%s returned %s (%s), expected %s", #call,      \
                     magnus_status_string(assert_status_s_), magnus_last_error(),                \
                     magnus_status_string(status));                                              \
    } while (0)

#endif

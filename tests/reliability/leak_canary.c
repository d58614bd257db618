/*
 * Leak canary: proves that a leak fails a test in the sanitizer build.
 *
 * Run plainly it leaks nothing and passes. With MAGNUS_LEAK_CANARY=1 one test drops a block
 * from the library's allocator; tests/reliability/expect_leak_failure.cmake runs it that way
 * and requires the run to fail with LeakSanitizer's report (ctest test
 * leak_canary_detected, registered only with MAGNUS_SANITIZE=ON).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void *volatile dropped; /* volatile: the store is not optimised away */

Test(leak_canary, drops_a_block_when_asked) {
    void *p = magnus_host_malloc(4242);
    cr_assert_not_null(p);
    memset(p, 1, 4242);
    const char *ask = getenv("MAGNUS_LEAK_CANARY");
    if (ask && strcmp(ask, "1") == 0) {
        dropped = p;
        dropped = NULL; /* the only pointer is gone: a definite leak */
    } else {
        magnus_host_free(p);
    }
}

/*
 * The host memory one structure may take (runtime/core/host_limit.c): checked before an
 * allocation whose size a caller's numbers imply (a Matrix Market header's sizes, a CSR's
 * rows and entries), so a file that declares 2^31 rows fails at once with the sizes and the
 * knob in the message instead of allocating 16 GiB. The limit is MAGNUS_HOST_MEMORY_LIMIT
 * (a size such as 8G) when set, else half of the machine's physical memory.
 */
#ifndef MAGNUS_HOST_LIMIT_H
#define MAGNUS_HOST_LIMIT_H

#include <stdint.h>

#include "magnus/magnus.h"

/* The limit in bytes; 0 when the machine does not say and the variable is unset (no limit).
 * MAGNUS_ERROR_INVALID_ARGUMENT, naming the variable, when it is not a size. */
magnus_status magnus_host_memory_limit(uint64_t *out);

/* magnus_host_memory_check(bytes, what), the check against it, is public (magnus.h): the
 * library's allocations and a caller's arrays sized by a matrix meet the same limit. */

#endif

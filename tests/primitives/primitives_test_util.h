/*
 * What the primitives' tests share (test_primitives.c, test_primitives_more.c): host and
 * device buffers, the sizes every primitive sees, the seed.
 */
#ifndef MAGNUS_PRIMITIVES_TEST_UTIL_H
#define MAGNUS_PRIMITIVES_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "device_test_util.h"
#include "primitives.h"
#include "prng.h"
#include "status_test_util.h"

#define Q MAGNUS_QUEUE_MAIN
#define SEED magnus_test_seed(20240611)

static inline void *xmalloc(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    cr_assert_not_null(p, "host allocation of %zu bytes", bytes);
    return p;
}

/* Device buffer holding a copy of host data. */
static inline magnus_dbuf upload(magnus_context ctx, const void *data, size_t bytes) {
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, bytes, &b));
    ASSERT_OK(magnus_dbuf_write(ctx, Q, &b, 0, data, bytes));
    return b;
}

static inline void *download(magnus_context ctx, const magnus_dbuf *b, size_t bytes) {
    void *h = xmalloc(bytes);
    ASSERT_OK(magnus_dbuf_read(ctx, Q, h, b, 0, bytes));
    return h;
}

/* The sizes every primitive sees: empty, one, around a work group and a tile, several
 * levels of tile sums. */
static inline size_t sizes(magnus_context ctx, size_t bytes_per_item, uint64_t out[16]) {
    uint64_t gs = magnus_prim_group_size(ctx, bytes_per_item);
    uint64_t tile = gs * MAGNUS_PRIM_ITEMS;
    uint64_t list[] = {0, 1, 2, gs - 1, gs, gs + 1, tile - 1, tile, tile + 1, 3 * tile + 5,
                       12345, 1000000, 3000007};
    size_t n = sizeof list / sizeof list[0];
    memcpy(out, list, sizeof list);
    return n;
}

#endif /* MAGNUS_PRIMITIVES_TEST_UTIL_H */

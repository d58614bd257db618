#include "device_test_main.h"
#include "primitives.h"

Test(fill, small) {
    magnus_context ctx = magnus_test_context();
    magnus_dbuf b;
    cr_assert_eq(magnus_dbuf_alloc(ctx, 100 * 4, &b), 0, "%s", magnus_last_error());
    cr_assert_eq(magnus_prim_fill_u32(ctx, MAGNUS_QUEUE_MAIN, &b, 0, 100, 7), 0, "%s", magnus_last_error());
    uint32_t h[100];
    cr_assert_eq(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, h, &b, 0, sizeof h), 0);
    for (int i = 0; i < 100; i++) cr_assert_eq(h[i], 7u);
    magnus_dbuf_free(ctx, &b);
}

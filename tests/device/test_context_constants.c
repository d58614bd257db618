/*
 * Constant tables of a context (part of test_probe: test_probe.c; runtime/device/
 * context_constants.c): the same bytes give the same buffer and are uploaded once, other bytes
 * another buffer with those bytes, a full table starts afresh and still answers right, the
 * tables are outside the context's accounting, and bad arguments are refused. Skipped without
 * a device.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "device_runtime.h"
#include "probe_test_util.h"
#include "status_test_util.h"

/* The table's bytes as the device holds them. */
static void expect_table(magnus_context ctx, const magnus_dbuf *buf, const int64_t *want,
                         size_t n) {
    int64_t got[64];
    cr_assert_leq(n, 64u);
    cr_assert_eq(buf->bytes, n * sizeof *want);
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, got, buf, 0, n * sizeof *want));
    cr_assert_eq(memcmp(got, want, n * sizeof *want), 0, "the device's copy of the table");
}

Test(context, constant_tables_uploaded_once) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    const uint64_t in_use = ctx->memory_in_use;
    int64_t a[32], b[32];
    for (int i = 0; i < 32; i++) {
        a[i] = i * 1000003LL;
        b[i] = a[i];
    }
    b[31] += 1; /* one byte apart: another table */
    const magnus_dbuf *ta = NULL, *ta2 = NULL, *tb = NULL, *tshort = NULL;
    ASSERT_OK(magnus_context_constant(&ta, ctx, a, sizeof a));
    ASSERT_OK(magnus_context_constant(&ta2, ctx, a, sizeof a));
    ASSERT_OK(magnus_context_constant(&tb, ctx, b, sizeof b));
    ASSERT_OK(magnus_context_constant(&tshort, ctx, a, 16 * sizeof a[0])); /* a prefix: another */
    cr_assert_eq(ta, ta2, "the same bytes, the same buffer");
    cr_assert_neq(ta, tb);
    cr_assert_neq(ta, tshort);
    cr_assert_eq(ctx->nconstants, 3);
    expect_table(ctx, ta, a, 32);
    expect_table(ctx, tb, b, 32);
    expect_table(ctx, tshort, a, 16);
    cr_assert_eq(ctx->memory_in_use, in_use, "constant tables are not counted");
    ASSERT_OK(magnus_context_free(&ctx));
}

Test(context, constant_table_full_starts_afresh) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    int64_t t[4] = {0, 1, 2, 3};
    const magnus_dbuf *buf = NULL;
    for (int i = 0; i < MAGNUS_MAX_CONSTANTS + 5; i++) {
        t[0] = i;
        ASSERT_OK(magnus_context_constant(&buf, ctx, t, sizeof t));
        expect_table(ctx, buf, t, 4);
        cr_assert_leq(ctx->nconstants, MAGNUS_MAX_CONSTANTS);
    }
    cr_assert_eq(ctx->nconstants, 5, "the table started afresh once");
    ASSERT_OK(magnus_context_free(&ctx));
}

Test(context, constant_table_bad_arguments) {
    magnus_device_info d = need_device();
    magnus_context ctx = new_context(&d, 0, 0);
    unsigned char big[MAGNUS_CONSTANT_MAX_BYTES + 1] = {0};
    const magnus_dbuf *buf = NULL;
    cr_assert_eq(magnus_context_constant(NULL, ctx, big, 8), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_context_constant(&buf, ctx, NULL, 8), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_context_constant(&buf, ctx, big, 0), MAGNUS_ERROR_INTERNAL);
    cr_assert_eq(magnus_context_constant(&buf, ctx, big, sizeof big), MAGNUS_ERROR_INTERNAL);
    cr_assert_null(buf);
    cr_assert_eq(magnus_context_constant(&buf, NULL, big, 8), MAGNUS_ERROR_NULL_POINTER);
    ASSERT_OK(magnus_context_free(&ctx));
}

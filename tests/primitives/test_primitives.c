/*
 * Device primitives (runtime/primitives/primitives.h) against host computations, on whichever backend
 * the environment selects (tests/device/device.cmake registers this file once per backend).
 * Inputs are random from a fixed seed (MAGNUS_TEST_SEED overrides); every failure message
 * names the seed, the size and the first wrong element.
 */
#include <stdarg.h>
#include <string.h>

#include "device_test_main.h"
#include "primitives.h"
#include "prng.h"
#include "status_test_util.h"

#define Q MAGNUS_QUEUE_MAIN
#define SEED magnus_test_seed(20240611)

static void *xmalloc(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    cr_assert_not_null(p, "host allocation of %zu bytes", bytes);
    return p;
}

/* Device buffer holding a copy of host data. */
static magnus_dbuf upload(magnus_context ctx, const void *data, size_t bytes) {
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, bytes, &b));
    ASSERT_OK(magnus_dbuf_write(ctx, Q, &b, 0, data, bytes));
    return b;
}

static void *download(magnus_context ctx, const magnus_dbuf *b, size_t bytes) {
    void *h = xmalloc(bytes);
    ASSERT_OK(magnus_dbuf_read(ctx, Q, h, b, 0, bytes));
    return h;
}

/* The sizes every primitive sees: empty, one, around a work group and a tile, several
 * levels of tile sums. */
static size_t sizes(magnus_context ctx, size_t bytes_per_item, uint64_t out[16]) {
    uint64_t gs = magnus_prim_group_size(ctx, bytes_per_item);
    uint64_t tile = gs * MAGNUS_PRIM_ITEMS;
    uint64_t list[] = {0, 1, 2, gs - 1, gs, gs + 1, tile - 1, tile, tile + 1, 3 * tile + 5,
                       12345, 1000000, 3000007};
    size_t n = sizeof list / sizeof list[0];
    memcpy(out, list, sizeof list);
    return n;
}

/* ---- scan ------------------------------------------------------------------------------- */

typedef enum { SCAN_U32, SCAN_U64, SCAN_U32_U64 } scan_flavour;

/* Random inputs of the flavour: u32 anything (wraps), u64 up to 2^40 (sums pass 2^32 early). */
static void check_scan(magnus_context ctx, scan_flavour f, uint64_t n, int in_place,
                       uint64_t seed) {
    size_t in_size = f == SCAN_U64 ? 8 : 4, out_size = f == SCAN_U32 ? 4 : 8;
    magnus_prng g;
    magnus_prng_seed(&g, seed ^ n);
    void *in = xmalloc(n * in_size);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = magnus_prng_next(&g);
        if (in_size == 4) ((uint32_t *)in)[i] = (uint32_t)r;
        else ((uint64_t *)in)[i] = r >> 24;
    }
    magnus_dbuf din = upload(ctx, in, n * in_size), dout = din;
    if (!in_place) ASSERT_OK(magnus_dbuf_alloc(ctx, n * out_size, &dout));
    uint64_t used_before = ctx->memory_in_use, total = 12345;
    magnus_status s = f == SCAN_U32   ? magnus_prim_scan_u32(ctx, Q, &dout, &din, n, &total)
                    : f == SCAN_U64   ? magnus_prim_scan_u64(ctx, Q, &dout, &din, n, &total)
                                      : magnus_prim_scan_u32_to_u64(ctx, Q, &dout, &din, n, &total);
    cr_assert_eq(s, MAGNUS_SUCCESS, "scan n=%llu: %s", (unsigned long long)n, magnus_last_error());
    cr_assert_eq(ctx->memory_in_use, used_before, "scan left temporaries allocated");
    void *out = download(ctx, &dout, n * out_size);
    uint64_t run = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t got = out_size == 4 ? ((uint32_t *)out)[i] : ((uint64_t *)out)[i];
        uint64_t want = out_size == 4 ? (uint32_t)run : run;
        if (got != want)
            cr_assert_fail("scan flavour %d n=%llu seed=%llu: out[%llu] = %llu, expected %llu", f,
                           (unsigned long long)n, (unsigned long long)seed,
                           (unsigned long long)i, (unsigned long long)got,
                           (unsigned long long)want);
        run += in_size == 4 ? ((uint32_t *)in)[i] : ((uint64_t *)in)[i];
    }
    if (out_size == 4) run = (uint32_t)run;
    cr_assert_eq(total, run, "scan flavour %d n=%llu seed=%llu: total %llu, expected %llu", f,
                 (unsigned long long)n, (unsigned long long)seed, (unsigned long long)total,
                 (unsigned long long)run);
    free(in);
    free(out);
    if (!in_place) magnus_dbuf_free(ctx, &dout);
    magnus_dbuf_free(ctx, &din);
}

Test(scan, u32_all_sizes) {
    magnus_context ctx = magnus_test_context();
    uint64_t n[16];
    size_t count = sizes(ctx, 20, n);
    for (size_t i = 0; i < count; i++) check_scan(ctx, SCAN_U32, n[i], 0, SEED);
}

Test(scan, u64_all_sizes_large_addends) {
    magnus_context ctx = magnus_test_context();
    uint64_t n[16];
    size_t count = sizes(ctx, 40, n);
    for (size_t i = 0; i < count; i++) check_scan(ctx, SCAN_U64, n[i], 0, SEED);
}

Test(scan, u32_to_u64_all_sizes) {
    magnus_context ctx = magnus_test_context();
    uint64_t n[16];
    size_t count = sizes(ctx, 40, n);
    for (size_t i = 0; i < count; i++) check_scan(ctx, SCAN_U32_U64, n[i], 0, SEED);
}

Test(scan, in_place) {
    magnus_context ctx = magnus_test_context();
    uint64_t n[] = {1, 1000, 1000000};
    for (size_t i = 0; i < 3; i++) {
        check_scan(ctx, SCAN_U32, n[i], 1, SEED + 1);
        check_scan(ctx, SCAN_U64, n[i], 1, SEED + 2);
    }
}

/* Few groups striding over many tiles: the path launches take once tiles outnumber the
 * group cap (at 2^31 elements and beyond on real devices). */
Test(scan, groups_stride_over_tiles) {
    magnus_context ctx = magnus_test_context();
    size_t caps[] = {1, 3, 7};
    for (size_t i = 0; i < 3; i++) {
        magnus_prim_set_max_groups(caps[i]);
        check_scan(ctx, SCAN_U64, 300007, 0, SEED + 3);
        check_scan(ctx, SCAN_U32, 70001, 1, SEED + 4);
    }
    magnus_prim_set_max_groups(0);
}

/* A tiny local-memory budget: small work groups, so 10^6 elements take four levels. */
Test(scan, small_local_budget_many_levels) {
    magnus_context base = magnus_test_context();
    magnus_context_options opt;
    ASSERT_OK(magnus_context_options_init(&opt));
    opt.local_mem_bytes = 1024;
    magnus_context ctx;
    ASSERT_OK(magnus_context_create(&ctx, &base->device, &opt));
    cr_assert_eq(magnus_prim_group_size(ctx, 40), 16);
    check_scan(ctx, SCAN_U64, 1000003, 0, SEED + 5);
    check_scan(ctx, SCAN_U32_U64, 100003, 0, SEED + 6);
    ASSERT_OK(magnus_context_free(&ctx));
}

/* The CSR idiom: row counts plus a trailing 0, scanned in place, give the row pointers. */
Test(scan, csr_row_pointers_past_2_32) {
    magnus_context ctx = magnus_test_context();
    enum { ROWS = 5000 };
    static uint64_t counts[ROWS + 1];
    for (int i = 0; i < ROWS; i++) counts[i] = ((uint64_t)3 << 30) + (uint64_t)i; /* > 2^31 */
    counts[ROWS] = 0;
    magnus_dbuf d = upload(ctx, counts, sizeof counts);
    uint64_t total;
    ASSERT_OK(magnus_prim_scan_u64(ctx, Q, &d, &d, ROWS + 1, &total));
    uint64_t *ptr = download(ctx, &d, sizeof counts);
    uint64_t run = 0;
    for (int i = 0; i <= ROWS; i++) {
        cr_assert_eq(ptr[i], run, "rowptr[%d]", i);
        run += counts[i];
    }
    cr_assert_eq(total, run);
    cr_assert_gt(total, (uint64_t)1 << 42);
    free(ptr);
    magnus_dbuf_free(ctx, &d);
}

Test(scan, total_optional_and_errors) {
    magnus_context ctx = magnus_test_context();
    uint32_t ones[100];
    for (int i = 0; i < 100; i++) ones[i] = 1;
    magnus_dbuf in = upload(ctx, ones, sizeof ones), out;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 100 * 8, &out));
    ASSERT_OK(magnus_prim_scan_u32_to_u64(ctx, Q, &out, &in, 100, NULL));
    uint64_t last;
    ASSERT_OK(magnus_dbuf_read(ctx, Q, &last, &out, 99 * 8, 8));
    cr_assert_eq(last, 99u);
    uint64_t total = 7;
    cr_assert_eq(magnus_prim_scan_u32(ctx, Q, &out, &in, 101, &total), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(magnus_last_error(), "in holds 400 bytes"), "%s", magnus_last_error());
    cr_assert_eq(total, 0u);
    cr_assert_eq(magnus_prim_scan_u64(ctx, Q, &out, &in, 100, NULL), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_prim_scan_u32_to_u64(ctx, Q, &in, &in, 10, NULL),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_prim_scan_u32(ctx, (magnus_queue_id)7, &out, &in, 10, NULL),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_prim_scan_u32(NULL, Q, &out, &in, 10, NULL), MAGNUS_ERROR_NULL_POINTER);
    ASSERT_OK(magnus_prim_scan_u32(ctx, Q, &out, &in, 0, &total));
    cr_assert_eq(total, 0u);
    magnus_dbuf_free(ctx, &in);
    magnus_dbuf_free(ctx, &out);
    cr_assert_eq(ctx->memory_in_use, 0u);
}

/* ---- partition -------------------------------------------------------------------------- */

/* Compares the device lists with a host partition of the flags, then frees the lists (both
 * partition tests end so). The failure messages start with what_format's text. */
__attribute__((format(printf, 8, 9))) static void
check_lists_then_free(magnus_context ctx, const uint8_t *flag, uint64_t n, magnus_dbuf *above,
                      magnus_dbuf *below, uint64_t n_above, uint64_t n_below,
                      const char *what_format, ...) {
    char what[128];
    va_list ap;
    va_start(ap, what_format);
    vsnprintf(what, sizeof what, what_format, ap);
    va_end(ap);
    uint64_t want_above = 0;
    for (uint64_t i = 0; i < n; i++) want_above += flag[i];
    cr_assert_eq(n_above, want_above, "%s n=%llu: %llu above, expected %llu", what,
                 (unsigned long long)n, (unsigned long long)n_above,
                 (unsigned long long)want_above);
    cr_assert_eq(n_below, n - want_above, "%s n=%llu: below count", what, (unsigned long long)n);
    cr_assert_geq(above->bytes, n_above * 4);
    cr_assert_geq(below->bytes, n_below * 4);
    uint32_t *a = download(ctx, above, n_above * 4), *b = download(ctx, below, n_below * 4);
    uint64_t ia = 0, ib = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (flag[i]) {
            if (a[ia] != i)
                cr_assert_fail("%s n=%llu: above[%llu] = %u, expected %llu", what,
                               (unsigned long long)n, (unsigned long long)ia, a[ia],
                               (unsigned long long)i);
            ia++;
        } else {
            if (b[ib] != i)
                cr_assert_fail("%s n=%llu: below[%llu] = %u, expected %llu", what,
                               (unsigned long long)n, (unsigned long long)ib, b[ib],
                               (unsigned long long)i);
            ib++;
        }
    }
    free(a);
    free(b);
    magnus_dbuf_free(ctx, above);
    magnus_dbuf_free(ctx, below);
}

static void check_partition_flags(magnus_context ctx, uint64_t n, double density, uint64_t seed) {
    magnus_prng g;
    magnus_prng_seed(&g, seed ^ n);
    uint32_t *flags = xmalloc(n * 4);
    uint8_t *flag = xmalloc(n);
    for (uint64_t i = 0; i < n; i++) {
        flag[i] = magnus_prng_unit(&g) < density;
        flags[i] = flag[i] ? (uint32_t)(magnus_prng_next(&g) | 1) : 0; /* any nonzero counts */
    }
    magnus_dbuf d = upload(ctx, flags, n * 4), above, below;
    uint64_t used = ctx->memory_in_use, na, nb;
    ASSERT_OK(magnus_prim_partition_flags(ctx, Q, &d, n, &above, &below, &na, &nb));
    cr_assert_eq(ctx->memory_in_use, used + above.bytes + below.bytes);
    check_lists_then_free(ctx, flag, n, &above, &below, na, nb,
                          "partition_flags density %.2f seed %llu", density,
                          (unsigned long long)seed);
    magnus_dbuf_free(ctx, &d);
    free(flags);
    free(flag);
}

Test(partition, flags_all_sizes_and_densities) {
    magnus_context ctx = magnus_test_context();
    uint64_t n[16];
    size_t count = sizes(ctx, 4, n);
    double densities[] = {0.0, 0.01, 0.5, 1.0};
    for (size_t i = 0; i < count; i++)
        for (size_t d = 0; d < 4; d++)
            if (n[i] <= 1000000 || d == 2) check_partition_flags(ctx, n[i], densities[d], SEED);
}

Test(partition, flags_groups_stride_over_tiles) {
    magnus_context ctx = magnus_test_context();
    magnus_prim_set_max_groups(3);
    check_partition_flags(ctx, 200003, 0.3, SEED + 7);
    magnus_prim_set_max_groups(0);
}

/* gMAGNUS's ThreshPartition: rows longer than tau, lengths drawn around tau, some huge. */
static void check_threshold(magnus_context ctx, uint64_t n, int64_t tau, uint64_t seed) {
    magnus_prng g;
    magnus_prng_seed(&g, seed ^ n);
    int64_t *rowptr = xmalloc((n + 1) * 8);
    uint8_t *flag = xmalloc(n);
    rowptr[0] = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = magnus_prng_below(&g, 100);
        int64_t len = r < 2 ? ((int64_t)1 << 33) + (int64_t)r   /* past 2^32 products */
                    : r < 10 ? 0
                    : (tau > 0 ? (int64_t)magnus_prng_below(&g, 2 * (uint64_t)tau + 2) : (int64_t)r);
        rowptr[i + 1] = rowptr[i] + len;
        flag[i] = len > tau;
    }
    magnus_dbuf d = upload(ctx, rowptr, (n + 1) * 8), above, below;
    uint64_t na, nb;
    ASSERT_OK(magnus_prim_partition_threshold(ctx, Q, &d, n, tau, &above, &below, &na, &nb));
    check_lists_then_free(ctx, flag, n, &above, &below, na, nb,
                          "partition_threshold tau %lld seed %llu", (long long)tau,
                          (unsigned long long)seed);
    magnus_dbuf_free(ctx, &d);
    free(rowptr);
    free(flag);
}

Test(partition, threshold_rows) {
    magnus_context ctx = magnus_test_context();
    uint64_t n[16];
    size_t count = sizes(ctx, 4, n);
    for (size_t i = 0; i < count; i++) check_threshold(ctx, n[i], 1000, SEED);
    check_threshold(ctx, 10007, 0, SEED + 8);   /* every nonempty row */
    check_threshold(ctx, 10007, -1, SEED + 9);  /* every row */
    check_threshold(ctx, 10007, (int64_t)1 << 40, SEED + 10); /* no row */
}

Test(partition, one_list_only_and_errors) {
    magnus_context ctx = magnus_test_context();
    int64_t rowptr[] = {0, 5, 5, 20, 21};
    magnus_dbuf d = upload(ctx, rowptr, sizeof rowptr), above, below;
    uint64_t na = 9, nb = 9;
    ASSERT_OK(magnus_prim_partition_threshold(ctx, Q, &d, 4, 4, &above, NULL, &na, &nb));
    cr_assert_eq(na, 2u);
    cr_assert_eq(nb, 2u);
    uint32_t got[2];
    ASSERT_OK(magnus_dbuf_read(ctx, Q, got, &above, 0, sizeof got));
    cr_assert(got[0] == 0 && got[1] == 2, "above = {%u, %u}", got[0], got[1]);
    magnus_dbuf_free(ctx, &above);
    ASSERT_OK(magnus_prim_partition_threshold(ctx, Q, &d, 4, 4, NULL, &below, NULL, NULL));
    ASSERT_OK(magnus_dbuf_read(ctx, Q, got, &below, 0, sizeof got));
    cr_assert(got[0] == 1 && got[1] == 3, "below = {%u, %u}", got[0], got[1]);
    magnus_dbuf_free(ctx, &below);
    /* n + 1 row pointers are needed */
    cr_assert_eq(magnus_prim_partition_threshold(ctx, Q, &d, 5, 4, &above, &below, NULL, NULL),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_null(above.mem);
    /* empty input: valid empty lists */
    ASSERT_OK(magnus_prim_partition_flags(ctx, Q, &d, 0, &above, &below, &na, &nb));
    cr_assert(na == 0 && nb == 0 && above.mem && below.mem);
    magnus_dbuf_free(ctx, &above);
    magnus_dbuf_free(ctx, &below);
    magnus_dbuf_free(ctx, &d);
    cr_assert_eq(ctx->memory_in_use, 0u);
}

/* ---- histogram -------------------------------------------------------------------------- */

static void check_histogram(magnus_context ctx, int wide, uint64_t n, uint32_t nbins,
                            uint64_t seed) {
    magnus_prng g;
    magnus_prng_seed(&g, seed ^ n ^ nbins);
    uint32_t *keys = xmalloc(n * 4);
    uint64_t *want = calloc(nbins ? nbins : 1, 8);
    for (uint64_t i = 0; i < n; i++) {
        /* skewed: half the keys in the first 8 bins (contention); 1 in 16 out of range */
        uint64_t r = magnus_prng_below(&g, 16);
        keys[i] = r == 0 ? nbins + (uint32_t)magnus_prng_below(&g, 1000)
                : r < 8 ? (uint32_t)magnus_prng_below(&g, nbins < 8 ? nbins : 8)
                        : (uint32_t)magnus_prng_below(&g, nbins);
        if (keys[i] < nbins) want[keys[i]]++;
    }
    size_t csize = wide ? 8 : 4;
    magnus_dbuf dk = upload(ctx, keys, n * 4), db;
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)nbins * csize, &db));
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &db, 0, (uint64_t)nbins * csize / 4, 0xdeadbeef));
    if (wide) ASSERT_OK(magnus_prim_histogram_u64(ctx, Q, &db, nbins, &dk, n));
    else ASSERT_OK(magnus_prim_histogram_u32(ctx, Q, &db, nbins, &dk, n));
    void *got = download(ctx, &db, (size_t)nbins * csize);
    for (uint32_t b = 0; b < nbins; b++) {
        uint64_t v = wide ? ((uint64_t *)got)[b] : ((uint32_t *)got)[b];
        if (v != want[b])
            cr_assert_fail("histogram %s n=%llu nbins=%u seed=%llu: bin %u = %llu, expected %llu",
                           wide ? "u64" : "u32", (unsigned long long)n, nbins,
                           (unsigned long long)seed, b, (unsigned long long)v,
                           (unsigned long long)want[b]);
    }
    free(got);
    free(keys);
    free(want);
    magnus_dbuf_free(ctx, &dk);
    magnus_dbuf_free(ctx, &db);
}

Test(histogram, local_bins) {
    magnus_context ctx = magnus_test_context();
    uint64_t n[] = {0, 1, 255, 4097, 1000003};
    uint32_t bins[] = {1, 7, 1000, 4096};
    for (size_t i = 0; i < 5; i++)
        for (size_t b = 0; b < 4; b++) check_histogram(ctx, 0, n[i], bins[b], SEED);
    if (ctx->device.atomic64) check_histogram(ctx, 1, 1000003, 1000, SEED + 1);
}

/* More bins than the local budget holds: the global-atomics kernel. */
Test(histogram, bins_beyond_local_memory) {
    magnus_context base = magnus_test_context();
    magnus_context_options opt;
    ASSERT_OK(magnus_context_options_init(&opt));
    opt.local_mem_bytes = 2048; /* 512 bins fit */
    magnus_context ctx;
    ASSERT_OK(magnus_context_create(&ctx, &base->device, &opt));
    check_histogram(ctx, 0, 100003, 512, SEED + 2);   /* local, exactly full */
    check_histogram(ctx, 0, 100003, 513, SEED + 3);   /* global */
    check_histogram(ctx, 0, 300007, 70000, SEED + 4); /* global, sparse */
    if (ctx->device.atomic64) check_histogram(ctx, 1, 100003, 5000, SEED + 5);
    ASSERT_OK(magnus_context_free(&ctx));
}

/* ---- fill and gather -------------------------------------------------------------------- */

Test(fill, u32_u64_offsets) {
    magnus_context ctx = magnus_test_context();
    enum { N = 300007 };
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)N * 8, &b));
    ASSERT_OK(magnus_prim_fill_u64(ctx, Q, &b, 0, N, 0x0123456789abcdefULL));
    ASSERT_OK(magnus_prim_fill_u64(ctx, Q, &b, 1000, 5, (uint64_t)1 << 40));
    ASSERT_OK(magnus_prim_fill_u64(ctx, Q, &b, N - 1, 1, 42));
    ASSERT_OK(magnus_prim_fill_u64(ctx, Q, &b, N, 0, 42)); /* empty at the end: fine */
    uint64_t *h = download(ctx, &b, (size_t)N * 8);
    for (uint64_t i = 0; i < N; i++) {
        uint64_t want = i == N - 1 ? 42 : (i >= 1000 && i < 1005) ? (uint64_t)1 << 40
                                                                 : 0x0123456789abcdefULL;
        if (h[i] != want) cr_assert_fail("fill_u64 [%llu] = %llx", (unsigned long long)i,
                                         (unsigned long long)h[i]);
    }
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &b, 3, 2 * N - 3, 0xfeedf00d));
    uint32_t *w = download(ctx, &b, (size_t)N * 8);
    for (uint64_t i = 3; i < 2 * (uint64_t)N; i++)
        if (w[i] != 0xfeedf00d) cr_assert_fail("fill_u32 [%llu]", (unsigned long long)i);
    cr_assert_eq(magnus_prim_fill_u32(ctx, Q, &b, 4, 2 * N - 3, 0), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_prim_fill_u64(ctx, Q, &b, UINT64_MAX, 2, 0),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    free(h);
    free(w);
    magnus_dbuf_free(ctx, &b);
}

/* Long segments of a random row pointer (lengths up to 2^33: 64-bit sums), against a host
 * count, for several group counts (the host adds the groups' pairs). */
static void check_long_segments(magnus_context ctx, uint64_t n, uint64_t threshold,
                                uint64_t seed) {
    uint64_t *ptr = xmalloc((n + 1) * 8), count = 0, length = 0;
    magnus_prng r;
    magnus_prng_seed(&r, seed);
    ptr[0] = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = magnus_prng_next(&r), d = x % 4 == 0 ? (x >> 8) % ((uint64_t)1 << 33)
                                                          : (x >> 8) % (2 * threshold + 2);
        ptr[i + 1] = ptr[i] + d;
        if (d > threshold) {
            count++;
            length += d;
        }
    }
    magnus_dbuf b = upload(ctx, ptr, (n + 1) * 8);
    magnus_long_segments got;
    ASSERT_OK(magnus_prim_long_segments(ctx, Q, &b, n, threshold, &got));
    cr_assert(got.count == count && got.length == length,
              "long segments of %llu (threshold %llu, seed %llu): %llu / %llu, host %llu / %llu",
              (unsigned long long)n, (unsigned long long)threshold, (unsigned long long)seed,
              (unsigned long long)got.count, (unsigned long long)got.length,
              (unsigned long long)count, (unsigned long long)length);
    magnus_dbuf_free(ctx, &b);
    free(ptr);
}

Test(long_segments, counts_and_lengths) {
    magnus_context ctx = magnus_test_context();
    uint64_t ns[] = {0, 1, 255, 4097, 300007};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        check_long_segments(ctx, ns[i], 0, SEED + i);
        check_long_segments(ctx, ns[i], 6144, SEED + 10 + i);
    }
    size_t caps[] = {1, 3};
    for (size_t i = 0; i < 2; i++) {
        magnus_prim_set_max_groups(caps[i]);
        check_long_segments(ctx, 100003, 100, SEED + 20 + i);
    }
    magnus_prim_set_max_groups(0);
    magnus_dbuf small;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 16, &small));
    magnus_long_segments got;
    cr_assert_eq(magnus_prim_long_segments(ctx, Q, &small, 2, 0, &got),
                 MAGNUS_ERROR_INVALID_ARGUMENT); /* 3 offsets do not fit 16 bytes */
    magnus_dbuf_free(ctx, &small);
}

static void check_gather(magnus_context ctx, size_t size, int values, uint64_t n,
                         uint64_t in_count, uint64_t seed) {
    magnus_prng g;
    magnus_prng_seed(&g, seed ^ n);
    unsigned char *in = xmalloc(in_count * size);
    uint32_t *idx = xmalloc(n * 4);
    for (uint64_t i = 0; i < in_count * size; i++) in[i] = (unsigned char)magnus_prng_next(&g);
    for (uint64_t i = 0; i < n; i++) /* 1 in 64 out of range */
        idx[i] = (uint32_t)magnus_prng_below(&g, in_count + in_count / 64 + 1);
    magnus_dbuf din = upload(ctx, in, in_count * size), didx = upload(ctx, idx, n * 4), dout;
    ASSERT_OK(magnus_dbuf_alloc(ctx, n * size, &dout));
    if (values)
        ASSERT_OK(magnus_prim_gather_values(ctx, Q, size == 8 ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32,
                                            &dout, &din, in_count, &didx, n));
    else if (size == 8) ASSERT_OK(magnus_prim_gather_u64(ctx, Q, &dout, &din, in_count, &didx, n));
    else ASSERT_OK(magnus_prim_gather_u32(ctx, Q, &dout, &din, in_count, &didx, n));
    unsigned char *out = download(ctx, &dout, n * size);
    unsigned char zero[8] = {0};
    for (uint64_t i = 0; i < n; i++) {
        const void *want = idx[i] < in_count ? in + (size_t)idx[i] * size : zero;
        if (memcmp(out + i * size, want, size) != 0)
            cr_assert_fail("gather size %zu n=%llu seed=%llu: out[%llu] wrong (idx %u of %llu)",
                           size, (unsigned long long)n, (unsigned long long)seed,
                           (unsigned long long)i, idx[i], (unsigned long long)in_count);
    }
    free(in);
    free(idx);
    free(out);
    magnus_dbuf_free(ctx, &din);
    magnus_dbuf_free(ctx, &didx);
    magnus_dbuf_free(ctx, &dout);
}

Test(gather, u32_u64_values) {
    magnus_context ctx = magnus_test_context();
    uint64_t n[] = {0, 1, 257, 100003};
    for (size_t i = 0; i < 4; i++) {
        check_gather(ctx, 4, 0, n[i], 5000, SEED);
        check_gather(ctx, 8, 0, n[i], 5000, SEED);
        check_gather(ctx, 4, 1, n[i], 77, SEED + 1);
        check_gather(ctx, 8, 1, n[i], 77, SEED + 1);
    }
    check_gather(ctx, 8, 0, 1000, 0, SEED + 2); /* empty source: all zeros */
    magnus_dbuf a;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 64, &a));
    cr_assert_eq(magnus_prim_gather_values(ctx, Q, (magnus_value_type)9, &a, &a, 1, &a, 1),
                 MAGNUS_ERROR_UNSUPPORTED_TYPE);
    cr_assert_eq(magnus_prim_gather_u32(ctx, Q, &a, &a, 4, &a, 4), MAGNUS_ERROR_INVALID_ARGUMENT);
    magnus_dbuf_free(ctx, &a);
}

/* ---- queues ----------------------------------------------------------------------------- */

/* Work on HEAVY, then LIGHT reads it after magnus_queue_depend; timers around it. */
Test(queues, depend_and_timer) {
    magnus_context ctx = magnus_test_context();
    enum { N = 1 << 20 };
    magnus_dbuf b;
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)N * 8, &b));
    magnus_timer t;
    ASSERT_OK(magnus_timer_start(ctx, MAGNUS_QUEUE_HEAVY, &t));
    ASSERT_OK(magnus_prim_fill_u64(ctx, MAGNUS_QUEUE_HEAVY, &b, 0, N, 3));
    ASSERT_OK(magnus_prim_scan_u64(ctx, MAGNUS_QUEUE_HEAVY, &b, &b, N, NULL));
    ASSERT_OK(magnus_timer_stop(ctx, MAGNUS_QUEUE_HEAVY, &t));
    ASSERT_OK(magnus_queue_depend(ctx, MAGNUS_QUEUE_LIGHT, MAGNUS_QUEUE_HEAVY));
    uint64_t last;
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_LIGHT, &last, &b, (size_t)(N - 1) * 8, 8));
    cr_assert_eq(last, 3ull * (N - 1));
    double ms = -1;
    ASSERT_OK(magnus_timer_elapsed_ms(ctx, &t, &ms));
    cr_assert_geq(ms, 0.0);
    cr_assert_null(t.start);
    ASSERT_OK(magnus_context_finish(ctx));
    magnus_dbuf_free(ctx, &b);
}

/* ---- beyond 2^31 elements (MAGNUS_TEST_LARGE=1; about 16 GiB of device memory) ----------- */

/* Checks v[i] == i * step at the ends and around the 2^31 and 2^32 element boundaries. */
static void check_ramp(magnus_context ctx, const magnus_dbuf *b, size_t size, uint64_t n,
                       uint64_t step) {
    uint64_t probes[] = {0, 1, 1000, ((uint64_t)1 << 31) - 1, (uint64_t)1 << 31,
                         ((uint64_t)1 << 31) + 1, ((uint64_t)1 << 32) - 1, (uint64_t)1 << 32,
                         n - 2, n - 1};
    for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++) {
        if (probes[p] >= n) continue;
        uint64_t v = 0;
        ASSERT_OK(magnus_dbuf_read(ctx, Q, &v, b, (size_t)(probes[p] * size), size));
        uint64_t want = probes[p] * step;
        if (size == 4) want = (uint32_t)want;
        cr_assert_eq(v, want, "element %llu of %llu: %llu, expected %llu",
                     (unsigned long long)probes[p], (unsigned long long)n, (unsigned long long)v,
                     (unsigned long long)want);
    }
}

Test(large, past_2_31_elements) {
    if (!magnus_test_large()) cr_skip_test("set MAGNUS_TEST_LARGE=1 (needs ~16 GiB of device memory)");
    magnus_context ctx = magnus_test_context();
    const uint64_t n = ((uint64_t)1 << 31) + 1000;
    /* buffers of 16 GiB + 40 bytes and one of (2^32 + 5) x 4 + the partition's output */
    if (ctx->device.max_alloc_bytes < n * 8 || ctx->device.global_mem_bytes < n * 8 + (n / 2))
        cr_skip_test("the device holds %llu bytes (largest buffer %llu): this test needs 16 GiB "
                     "in one buffer", (unsigned long long)ctx->device.global_mem_bytes,
                     (unsigned long long)ctx->device.max_alloc_bytes);
    magnus_dbuf b;
    /* 64-bit scan of ones, in place: out[i] = i */
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)n * 8, &b));
    ASSERT_OK(magnus_prim_fill_u64(ctx, Q, &b, 0, n, 1));
    uint64_t total;
    ASSERT_OK(magnus_prim_scan_u64(ctx, Q, &b, &b, n, &total));
    cr_assert_eq(total, n);
    check_ramp(ctx, &b, 8, n, 1);
    magnus_dbuf_free(ctx, &b);
    /* 32-bit scan of threes (wraps past 2^32) and the partition of 2^32 + 5 flags */
    const uint64_t m = ((uint64_t)1 << 32) + 5;
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)m * 4, &b));
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &b, 0, m, 3));
    ASSERT_OK(magnus_prim_scan_u32(ctx, Q, &b, &b, m, &total));
    cr_assert_eq(total, (uint32_t)(3 * m));
    check_ramp(ctx, &b, 4, m, 3);
    /* partition of 2^32 flags (the most 32-bit indices allow), two of them set */
    const uint64_t p = (uint64_t)1 << 32;
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &b, 0, m, 0));
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &b, ((uint64_t)1 << 31) + 7, 1, 1));
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &b, p - 1, 1, 1));
    ASSERT_OK(magnus_prim_fill_u32(ctx, Q, &b, p, 1, 1)); /* outside the partitioned range */
    magnus_dbuf above;
    uint64_t na, nb;
    ASSERT_OK(magnus_prim_partition_flags(ctx, Q, &b, p, &above, NULL, &na, &nb));
    cr_assert_eq(na, 2u);
    cr_assert_eq(nb, p - 2);
    uint32_t got[2];
    ASSERT_OK(magnus_dbuf_read(ctx, Q, got, &above, 0, 8));
    cr_assert_eq(got[0], ((uint32_t)1 << 31) + 7);
    cr_assert_eq(got[1], UINT32_MAX);
    cr_assert_eq(magnus_prim_partition_flags(ctx, Q, &b, p + 1, &above, NULL, &na, &nb),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    magnus_dbuf_free(ctx, &above);
    magnus_dbuf_free(ctx, &b);
}

/* ---- kernel modules --------------------------------------------------------------------- */

/* The float64 module builds where the device has fp64 and is refused cleanly elsewhere. */
Test(modules, float64_builds_or_is_refused) {
    magnus_context ctx = magnus_test_context();
    magnus_status s = magnus_context_load_module(ctx, MAGNUS_VARIANT_F64);
    if (ctx->device.fp64) {
        cr_assert_eq(s, MAGNUS_SUCCESS, "%s", magnus_last_error());
        cr_assert_not_null(ctx->modules[MAGNUS_VARIANT_F64]);
    } else {
        cr_assert_eq(s, MAGNUS_ERROR_FEATURE_UNSUPPORTED, "%s", magnus_last_error());
    }
    cr_assert_eq(magnus_context_load_module(ctx, (magnus_kernel_variant)2),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
}

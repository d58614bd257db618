/*
 * Device primitives (runtime/primitives/primitives.h) against host computations, on whichever backend
 * the environment selects (tests/device/device.cmake registers this file once per backend):
 * scan, partition and histogram here; fill, gather, queues, large sizes and kernel modules in
 * test_primitives_more.c.
 * Inputs are random from a fixed seed (MAGNUS_TEST_SEED overrides); every failure message
 * names the seed, the size and the first wrong element.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device_test_main.h" /* main(); test_primitives_more.c is the other source */
#include "primitives_test_util.h"

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

/* The prim_scan_* launches a context's trace (closed) recorded. */
static int scan_launches_traced(const char *path) {
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "no trace at %s", path);
    char line[512], kind[16], what[128];
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        double start, dur;
        unsigned long long groups;
        what[0] = 0;
        if (sscanf(line, "trace %lf %lf %15s %llu %127s", &start, &dur, kind, &groups, what) == 5 &&
            strcmp(kind, "launch") == 0 && strncmp(what, "prim_scan_", 10) == 0)
            count++;
    }
    fclose(f);
    return count;
}

/* MAGNUS_SCAN_ONE_GROUP_TILES=8: a scan of 2 to 8 tiles is one launch of one work group that
 * walks its tiles in order, carrying the running total (each flavour, in place and not, exact
 * against the host); 9 tiles take the three launches (reduce, the sums' one tile, tiles)
 * again. The trace counts the launches, so a scan that ignored the knob fails here. */
Test(scan, one_group_walks_few_tiles) {
    magnus_context base = magnus_test_context();
    char path[] = "/tmp/magnus_scan_trace_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0, "mkstemp");
    close(fd);
    setenv("MAGNUS_TRACE", path, 1);
    setenv("MAGNUS_SCAN_ONE_GROUP_TILES", "8", 1);
    magnus_context ctx = NULL;
    magnus_status s = magnus_context_create(&ctx, &base->device, NULL);
    unsetenv("MAGNUS_TRACE");
    unsetenv("MAGNUS_SCAN_ONE_GROUP_TILES");
    ASSERT_OK(s);
    cr_assert_eq(ctx->scan_one_group_tiles, 8);
    int want = 0;
    const scan_flavour flavours[] = {SCAN_U32, SCAN_U64, SCAN_U32_U64};
    for (size_t f = 0; f < 3; f++) {
        const size_t out_size = flavours[f] == SCAN_U32 ? 4 : 8;
        const uint64_t tile =
            magnus_prim_group_size(ctx, (size_t)mg_prim_tiles_bytes(1, out_size)) * MG_PRIM_ITEMS;
        const uint64_t n[] = {tile + 1, 3 * tile - 7, 8 * tile, 8 * tile + 1};
        for (size_t i = 0; i < 4; i++) {
            /* in place only where the input and output elements are the same size */
            const int in_place = (i & 1) && flavours[f] != SCAN_U32_U64;
            check_scan(ctx, flavours[f], n[i], in_place, SEED + 7 + i);
            want += i < 3 ? 1 : 3;
        }
    }
    ASSERT_OK(magnus_context_free(&ctx)); /* closes (and flushes) the trace */
    const int got = scan_launches_traced(path);
    unlink(path);
    cr_assert_eq(got, want, "%d scan launches, expected %d", got, want);
}

/* MAGNUS_SCAN_ONE_GROUP_TILES: unset or 0, one tile (the default); up to 65536 as given;
 * anything else refused, naming the variable. */
Test(scan, one_group_knob_read_at_context_creation) {
    magnus_context base = magnus_test_context();
    const struct {
        const char *value;
        magnus_status status;
        uint32_t want;
    } cases[] = {{NULL, MAGNUS_SUCCESS, 0},      {"0", MAGNUS_SUCCESS, 0},
                 {"65536", MAGNUS_SUCCESS, 65536}, {"65537", MAGNUS_ERROR_INVALID_ARGUMENT, 0},
                 {"-1", MAGNUS_ERROR_INVALID_ARGUMENT, 0}, {"8x", MAGNUS_ERROR_INVALID_ARGUMENT, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].value) setenv("MAGNUS_SCAN_ONE_GROUP_TILES", cases[i].value, 1);
        else unsetenv("MAGNUS_SCAN_ONE_GROUP_TILES");
        magnus_context ctx = NULL;
        magnus_status s = magnus_context_create(&ctx, &base->device, NULL);
        unsetenv("MAGNUS_SCAN_ONE_GROUP_TILES");
        cr_assert_eq(s, cases[i].status, "%s: %s", cases[i].value ? cases[i].value : "unset",
                     magnus_last_error());
        if (s) {
            cr_assert_not_null(strstr(magnus_last_error(), "MAGNUS_SCAN_ONE_GROUP_TILES"), "%s",
                               magnus_last_error());
            cr_assert_null(ctx);
            continue;
        }
        cr_assert_eq(ctx->scan_one_group_tiles, cases[i].want, "%s", cases[i].value);
        ASSERT_OK(magnus_context_free(&ctx));
    }
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

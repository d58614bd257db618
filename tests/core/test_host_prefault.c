/*
 * The parallel first touch of fresh host memory (runtime/core/host_prefault.h): one byte of
 * every page of every range, from several threads, and nothing below the size threshold, with
 * one thread, or for a range without memory.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_prefault.h"

static size_t page_size(void) {
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

/* Bytes of r that were written (0) and that must have been: offsets 0, page, 2 page, ... */
static void expect_touched(const magnus_host_range *r, int touched) {
    const unsigned char *p = r->ptr;
    const size_t page = page_size();
    size_t zeros = 0;
    for (size_t i = 0; i < r->bytes; i++) {
        if (p[i] == 0) zeros++;
        if (i % page == 0) cr_expect_eq(p[i], touched ? 0 : 0xff, "offset %zu", i);
    }
    cr_expect_eq(zeros, touched ? (r->bytes + page - 1) / page : 0,
                 "only one byte per page is written");
}

static magnus_host_range fresh(size_t bytes) {
    magnus_host_range r = {malloc(bytes), bytes};
    cr_assert_not_null(r.ptr);
    memset(r.ptr, 0xff, bytes);
    return r;
}

Test(host_prefault, every_page_of_every_range) {
    cr_assert_eq(setenv("MAGNUS_HOST_THREADS", "3", 1), 0);
    cr_expect_eq(magnus_host_prefault_threads(), 3);
    /* three ranges over the threshold together, one of them empty and one not page-sized */
    magnus_host_range r[3] = {fresh(MAGNUS_HOST_PREFAULT_MIN_BYTES / 2 + 12345), {NULL, 0},
                              fresh(MAGNUS_HOST_PREFAULT_MIN_BYTES / 2)};
    r[1] = fresh(1);
    r[1].bytes = 0;
    magnus_host_prefault(r, 3);
    expect_touched(&r[0], 1);
    expect_touched(&r[2], 1);
    for (int i = 0; i < 3; i++) free(r[i].ptr);
}

Test(host_prefault, nothing_below_the_threshold_or_with_one_thread) {
    cr_assert_eq(setenv("MAGNUS_HOST_THREADS", "4", 1), 0);
    magnus_host_range small = fresh(MAGNUS_HOST_PREFAULT_MIN_BYTES - 1);
    magnus_host_prefault(&small, 1);
    expect_touched(&small, 0);
    free(small.ptr);
    cr_assert_eq(setenv("MAGNUS_HOST_THREADS", "1", 1), 0);
    magnus_host_range big = fresh(MAGNUS_HOST_PREFAULT_MIN_BYTES);
    magnus_host_prefault(&big, 1);
    expect_touched(&big, 0);
    /* a range without memory: nothing at all, even over the threshold */
    cr_assert_eq(setenv("MAGNUS_HOST_THREADS", "4", 1), 0);
    magnus_host_range two[2] = {big, {NULL, MAGNUS_HOST_PREFAULT_MIN_BYTES}};
    magnus_host_prefault(two, 2);
    expect_touched(&big, 0);
    free(big.ptr);
}

Test(host_prefault, threads_from_the_environment) {
    cr_assert_eq(setenv("MAGNUS_HOST_THREADS", "0", 1), 0);
    cr_expect_eq(magnus_host_prefault_threads(), 0);
    cr_assert_eq(setenv("MAGNUS_HOST_THREADS", "64", 1), 0);
    cr_expect_eq(magnus_host_prefault_threads(), 8, "at most 8");
    cr_assert_eq(setenv("MAGNUS_HOST_THREADS", "lots", 1), 0);
    cr_expect_geq(magnus_host_prefault_threads(), 1, "junk: the processors");
    cr_assert_eq(unsetenv("MAGNUS_HOST_THREADS"), 0);
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    cr_expect_eq(magnus_host_prefault_threads(), n < 1 ? 1 : n > 8 ? 8 : (int)n);
}

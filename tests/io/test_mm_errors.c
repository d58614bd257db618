/* magnus_mm_read on malformed files: one test per error class, each checking the status and
 * that the detail names the file and the right line; then random mutations of a valid file,
 * which must never crash or leak. */
#include <stdint.h>

#include <stdlib.h>
#include <string.h>

#include "host_limit.h"
#include "mm_test_util.h"
#include "xorshift_test_util.h"

TestSuite(mm_errors, .init = mm_temp_setup, .fini = mm_temp_teardown);

#define BANNER "%%MatrixMarket matrix coordinate real general\n"

/* ---- banner --------------------------------------------------------------------------------- */

Test(mm_errors, empty_file) { mm_expect_error("", MAGNUS_ERROR_MM_BANNER, 1); }
Test(mm_errors, no_banner) { mm_expect_error("2 2 1\n1 1 1\n", MAGNUS_ERROR_MM_BANNER, 1); }
Test(mm_errors, banner_missing_word) {
    mm_expect_error("%%MatrixMarket matrix coordinate real\n1 1 0\n", MAGNUS_ERROR_MM_BANNER, 1);
}
Test(mm_errors, banner_unknown_words) {
    mm_expect_error("%%MatrixMarket matrix coordinate reals general\n1 1 0\n",
                    MAGNUS_ERROR_MM_BANNER, 1);
    mm_expect_error("%%MatrixMarket matrix coordinate real upper\n1 1 0\n", MAGNUS_ERROR_MM_BANNER,
                    1);
    mm_expect_error("%%MatrixMarket matrix sparse real general\n1 1 0\n", MAGNUS_ERROR_MM_BANNER, 1);
    mm_expect_error("%%MatrixMarket tensor coordinate real general\n1 1 0\n",
                    MAGNUS_ERROR_MM_BANNER, 1);
}
Test(mm_errors, banner_extra_word_or_glued_magic) {
    mm_expect_error("%%MatrixMarket matrix coordinate real general x\n1 1 0\n",
                    MAGNUS_ERROR_MM_BANNER, 1);
    mm_expect_error("%%MatrixMarketmatrix coordinate real general\n1 1 0\n",
                    MAGNUS_ERROR_MM_BANNER, 1);
}
Test(mm_errors, banner_pattern_skew_is_invalid) {
    mm_expect_error("%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 1\n2 1\n",
                    MAGNUS_ERROR_MM_BANNER, 1);
}
Test(mm_errors, binary_garbage) {
    const char garbage[] = "\x7f" "ELF\x02\x01\x01\0\0\0\n\0\0\xff\xfe\n";
    mm_expect_error_at("bad.mtx", garbage, sizeof garbage - 1, 0, MAGNUS_ERROR_MM_BANNER, 1);
}

/* ---- unsupported -------------------------------------------------------------------------- */

Test(mm_errors, unsupported_complex) {
    mm_expect_error("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 2\n",
                    MAGNUS_ERROR_MM_UNSUPPORTED, 1);
}
Test(mm_errors, unsupported_hermitian) {
    mm_expect_error("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n",
                    MAGNUS_ERROR_MM_UNSUPPORTED, 1);
}
Test(mm_errors, unsupported_array) {
    mm_expect_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
                    MAGNUS_ERROR_MM_UNSUPPORTED, 1);
}
Test(mm_errors, unsupported_vector) {
    mm_expect_error("%%MatrixMarket vector coordinate real general\n2 1\n1 1\n",
                    MAGNUS_ERROR_MM_UNSUPPORTED, 1);
}
Test(mm_errors, unsupported_message_is_clear) {
    mm_expect_error("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 2\n",
                    MAGNUS_ERROR_MM_UNSUPPORTED, 1);
    cr_assert_not_null(strstr(magnus_last_error(), "complex"), "%s", magnus_last_error());
}

/* ---- size line ---------------------------------------------------------------------------- */

Test(mm_errors, size_line_missing_field) {
    mm_expect_error(BANNER "% comment\n3 3\n1 1 1\n", MAGNUS_ERROR_MM_SIZE_LINE, 3);
}
Test(mm_errors, size_line_not_numbers) {
    mm_expect_error(BANNER "3 3 abc\n", MAGNUS_ERROR_MM_SIZE_LINE, 2);
    mm_expect_error(BANNER "3.0 3 1\n1 1 1\n", MAGNUS_ERROR_MM_SIZE_LINE, 2);
    mm_expect_error(BANNER "3 3 1 4\n1 1 1\n", MAGNUS_ERROR_MM_SIZE_LINE, 2);
}
Test(mm_errors, size_line_negative) {
    mm_expect_error(BANNER "3 -3 2\n", MAGNUS_ERROR_MM_SIZE_LINE, 2);
    mm_expect_error(BANNER "3 3 -2\n", MAGNUS_ERROR_MM_SIZE_LINE, 2);
}
Test(mm_errors, size_line_dimension_too_large) {
    mm_expect_error(BANNER "\n2147483648 3 1\n", MAGNUS_ERROR_MM_SIZE_LINE, 3);
    mm_expect_error(BANNER "3 2147483648 1\n", MAGNUS_ERROR_MM_SIZE_LINE, 2);
    mm_expect_error(BANNER "3 99999999999999999999999999 1\n", MAGNUS_ERROR_MM_SIZE_LINE, 2);
}
Test(mm_errors, size_line_entry_count_overflows) {
    mm_expect_error(BANNER "3 3 99999999999999999999\n", MAGNUS_ERROR_MM_SIZE_LINE, 2);
    mm_expect_error(BANNER "3 3 4611686018427387904\n", MAGNUS_ERROR_MM_SIZE_LINE, 2);
}
Test(mm_errors, size_line_symmetric_not_square) {
    mm_expect_error("%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n1 1 1\n",
                    MAGNUS_ERROR_MM_SIZE_LINE, 2);
}
Test(mm_errors, size_line_absent) {
    mm_expect_error(BANNER, MAGNUS_ERROR_MM_SIZE_LINE, 1);
    mm_expect_error(BANNER "% only comments\n\n", MAGNUS_ERROR_MM_SIZE_LINE, 3);
}

/* ---- entry count -------------------------------------------------------------------------- */

Test(mm_errors, more_entries_than_declared) {
    mm_expect_error(BANNER "2 2 1\n1 1 1\n2 2 2\n", MAGNUS_ERROR_MM_ENTRY_COUNT, 4);
    mm_expect_error(BANNER "2 2 1\n1 1 1\n% c\n\n2 2 2\n", MAGNUS_ERROR_MM_ENTRY_COUNT, 6);
    mm_expect_error(BANNER "2 2 0\n1 1 1\n", MAGNUS_ERROR_MM_ENTRY_COUNT, 3);
}
Test(mm_errors, fewer_entries_than_declared) {
    mm_expect_error(BANNER "2 2 3\n1 1 1\n2 2 2\n", MAGNUS_ERROR_MM_ENTRY_COUNT, 4);
    mm_expect_error(BANNER "2 2 3\n1 1 1\n2 2 2", MAGNUS_ERROR_MM_ENTRY_COUNT, 4);
    mm_expect_error(BANNER "2 2 3\n1 1 1\n% end\n\n", MAGNUS_ERROR_MM_ENTRY_COUNT, 5);
    mm_expect_error(BANNER "2 2 1\n", MAGNUS_ERROR_MM_ENTRY_COUNT, 2);
}

/* ---- index range -------------------------------------------------------------------------- */

Test(mm_errors, row_index_out_of_range) {
    mm_expect_error(BANNER "2 3 2\n1 1 1\n3 1 1\n", MAGNUS_ERROR_MM_INDEX_RANGE, 4);
}
Test(mm_errors, column_index_out_of_range) {
    mm_expect_error(BANNER "3 2 2\n1 1 1\n1 3 1\n", MAGNUS_ERROR_MM_INDEX_RANGE, 4);
}
Test(mm_errors, index_zero) {
    mm_expect_error(BANNER "2 2 1\n0 1 1\n", MAGNUS_ERROR_MM_INDEX_RANGE, 3);
    mm_expect_error(BANNER "2 2 1\n1 0 1\n", MAGNUS_ERROR_MM_INDEX_RANGE, 3);
}
Test(mm_errors, index_negative_or_huge) {
    mm_expect_error(BANNER "2 2 1\n-1 1 1\n", MAGNUS_ERROR_MM_INDEX_RANGE, 3);
    mm_expect_error(BANNER "2 2 1\n1 99999999999999999999999999999 1\n",
                    MAGNUS_ERROR_MM_INDEX_RANGE, 3);
}
Test(mm_errors, skew_symmetric_diagonal) {
    mm_expect_error("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n2 1 1\n2 2 0\n",
                    MAGNUS_ERROR_MM_INDEX_RANGE, 4);
}

/* ---- numbers ------------------------------------------------------------------------------ */

Test(mm_errors, non_numeric_value) {
    mm_expect_error(BANNER "2 2 2\n1 1 1\n1 2 abc\n", MAGNUS_ERROR_MM_NUMBER, 4);
}
Test(mm_errors, trailing_garbage_on_a_number) {
    mm_expect_error(BANNER "2 2 1\n1 1 1.5x\n", MAGNUS_ERROR_MM_NUMBER, 3);
    mm_expect_error(BANNER "2 2 1\n1x 1 1.5\n", MAGNUS_ERROR_MM_NUMBER, 3);
    mm_expect_error(BANNER "2 2 1\n1 1.0 1.5\n", MAGNUS_ERROR_MM_NUMBER, 3);
    mm_expect_error(BANNER "2 2 1\n1 1 0x\n", MAGNUS_ERROR_MM_NUMBER, 3);
    mm_expect_error(BANNER "2 2 1\n1 1 nanx\n", MAGNUS_ERROR_MM_NUMBER, 3);
}
/* Each of bad[0..n) as the value of line 4 of a real file: a malformed number there. */
static void expect_malformed_values(const char *const *bad, size_t n) {
    for (size_t k = 0; k < n; k++) {
        char text[256];
        snprintf(text, sizeof text, "%s2 2 2\n1 1 1\n2 2 %s\n", BANNER, bad[k]);
        mm_expect_error(text, MAGNUS_ERROR_MM_NUMBER, 4);
    }
}

/* Hexadecimal, which strtod reads, is refused like "1.0junk" (issue 33, item 9): no Matrix
 * Market writer produces it, and in a value column it is a mistake far more often than not;
 * so are NaN payloads. The words inf, infinity and nan stay values (test_mm_read.c). */
Test(mm_errors, hexadecimal_and_nan_payloads_are_malformed) {
    const char *bad[] = {"0x10", "0X10", "-0x1", "0x1p-3", "+0x1.8p1", "nan(1)", "1.0junk"};
    expect_malformed_values(bad, sizeof bad / sizeof bad[0]);
    /* an integer field too */
    mm_expect_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 0x10\n",
                    MAGNUS_ERROR_MM_NUMBER, 3);
}
Test(mm_errors, malformed_numbers) {
    const char *bad[] = {"--1", "1e", "1e+", ".", "-", "+", "1..2", "1.2.3", "e5", "1e5e5", "0,5"};
    expect_malformed_values(bad, sizeof bad / sizeof bad[0]);
}
Test(mm_errors, missing_value_in_real_file) {
    mm_expect_error(BANNER "2 2 2\n1 1 1\n2 2\n", MAGNUS_ERROR_MM_NUMBER, 4);
    mm_expect_error(BANNER "2 2 2\n1 1 1\n2\n", MAGNUS_ERROR_MM_NUMBER, 4);
}
Test(mm_errors, extra_field) {
    mm_expect_error(BANNER "2 2 1\n1 1 1 2\n", MAGNUS_ERROR_MM_NUMBER, 3);
    mm_expect_error("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n",
                    MAGNUS_ERROR_MM_NUMBER, 3);
}
Test(mm_errors, integer_field_rejects_reals) {
    mm_expect_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n",
                    MAGNUS_ERROR_MM_NUMBER, 3);
    mm_expect_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1e3\n",
                    MAGNUS_ERROR_MM_NUMBER, 3);
}
Test(mm_errors, nul_byte_inside_a_line) {
    const char text[] = BANNER "2 2 2\n1 1 1\n2 2 1\0" "5\n";
    mm_expect_error_at("nul.mtx", text, sizeof text - 1, 0, MAGNUS_ERROR_MM_NUMBER, 4);
}

/* ---- truncation ----------------------------------------------------------------------------- */

Test(mm_errors, truncated_inside_an_entry_line) {
    mm_expect_error(BANNER "2 2 2\n1 1 1\n2 2", MAGNUS_ERROR_MM_TRUNCATED, 4);
    mm_expect_error(BANNER "2 2 2\n1 1 1\n2 ", MAGNUS_ERROR_MM_TRUNCATED, 4);
    mm_expect_error(BANNER "2 2 2\n1 1 1\n2 2 1e", MAGNUS_ERROR_MM_TRUNCATED, 4);
}
Test(mm_errors, truncated_gzip_stream) {
    /* 2000 entries, gzip-compressed, then the compressed file cut in half. */
    size_t cap = 64 * 2000 + 128, len = 0;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    len += (size_t)sprintf(text, "%s2000 2000 2000\n", BANNER);
    for (int k = 0; k < 2000; k++)
        len += (size_t)sprintf(text + len, "%d %d %.17g\n", k + 1, 2000 - k, 1.0 / (k + 3));
    char path[512];
    mm_write_bytes("t.mtx.gz", text, len, 1, path, sizeof path);
    free(text);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    cr_assert_eq(truncate(path, size / 2), 0);
    magnus_csr A = NULL;
    magnus_status s = magnus_mm_read(&A, path, MAGNUS_FLOAT64, NULL, NULL);
    const char *msg = magnus_last_error();
    cr_assert_eq(s, MAGNUS_ERROR_MM_TRUNCATED, "status %d: %s", s, msg);
    cr_assert_null(A);
    const char *at = strstr(msg, path);
    cr_assert_not_null(at, "%s", msg);
    long long line = 0;
    cr_assert_eq(sscanf(at + strlen(path), ":%lld:", &line), 1, "%s", msg);
    cr_assert(line > 2 && line < 2002, "line %lld", line);
}
Test(mm_errors, gzip_trailer_missing) {
    char path[512];
    const char text[] = BANNER "1 1 1\n1 1 1\n";
    mm_write_bytes("t.mtx.gz", text, sizeof text - 1, 1, path, sizeof path);
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    cr_assert_eq(truncate(path, size - 4), 0); /* the length field of the trailer */
    magnus_csr A = NULL;
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_ERROR_MM_TRUNCATED,
                 "%s", magnus_last_error());
    cr_assert_not_null(strstr(magnus_last_error(), path));
}
Test(mm_errors, corrupt_gzip_stream) {
    char path[512];
    char text[4096];
    int n = sprintf(text, "%s100 100 100\n", BANNER);
    for (int k = 0; k < 100; k++) n += sprintf(text + n, "%d %d %d\n", k + 1, k + 1, k);
    mm_write_bytes("c.mtx.gz", text, (size_t)n, 1, path, sizeof path);
    FILE *f = fopen(path, "r+b");
    cr_assert_not_null(f);
    fseek(f, 20, SEEK_SET);
    const char junk[16] = "\xff\xff\xff\xff\x00\x00\x00\x00\xaa\xaa\xaa\xaa\x55\x55\x55\x55";
    fwrite(junk, 1, sizeof junk, f);
    fclose(f);
    magnus_csr A = NULL;
    magnus_status s = magnus_mm_read(&A, path, MAGNUS_FLOAT64, NULL, NULL);
    /* zlib notices the damage (FILE_READ) unless it decodes into text the parser rejects */
    cr_assert(s != MAGNUS_SUCCESS && s != MAGNUS_ERROR_INTERNAL, "status %d: %s", s,
              magnus_last_error());
    cr_assert_null(A);
    cr_assert_not_null(strstr(magnus_last_error(), path));
}

/* ---- files -------------------------------------------------------------------------------- */

Test(mm_errors, missing_file) {
    char path[512];
    mm_temp_path("does-not-exist.mtx", path, sizeof path);
    magnus_csr A = NULL;
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_ERROR_FILE_OPEN);
    cr_assert_null(A);
    cr_assert_not_null(strstr(magnus_last_error(), path), "%s", magnus_last_error());
}
Test(mm_errors, directory_instead_of_file) {
    magnus_csr A = NULL;
    magnus_status s = magnus_mm_read(&A, mm_temp_dir, MAGNUS_FLOAT64, NULL, NULL);
    cr_assert(s == MAGNUS_ERROR_FILE_READ || s == MAGNUS_ERROR_FILE_OPEN, "status %d", s);
    cr_assert_not_null(strstr(magnus_last_error(), mm_temp_dir), "%s", magnus_last_error());
}

/* ---- random mutations --------------------------------------------------------------------- */

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static uint64_t rng_next(void) { return xorshift64star_next(&rng_state); }

static bool is_reader_status(magnus_status s) {
    return s == MAGNUS_SUCCESS || s == MAGNUS_ERROR_MM_BANNER || s == MAGNUS_ERROR_MM_UNSUPPORTED ||
           s == MAGNUS_ERROR_MM_SIZE_LINE || s == MAGNUS_ERROR_MM_ENTRY_COUNT ||
           s == MAGNUS_ERROR_MM_INDEX_RANGE || s == MAGNUS_ERROR_MM_NUMBER ||
           s == MAGNUS_ERROR_MM_TRUNCATED || s == MAGNUS_ERROR_FILE_READ ||
           s == MAGNUS_ERROR_OUT_OF_HOST_MEMORY;
}

Test(mm_errors, random_mutations_never_crash) {
    static const char seed_text[] = "%%MatrixMarket matrix coordinate real symmetric\n"
                                    "% comment\n"
                                    "5 5 7\n"
                                    "1 1 1.5\n2 1 -2e-3\n3 3 .25\n4 2 1e10\n5 5 -0\n5 1 7\n"
                                    "4 4 3.14159265358979\n";
    static const char alphabet[] = "0123456789 \t\n\r.-+eE%\0xinfa";
    const size_t seed_len = sizeof seed_text - 1;
    char buf[512];
    int successes = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(buf, seed_text, seed_len);
        size_t len = seed_len;
        int edits = 1 + (int)(rng_next() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = len ? (size_t)(rng_next() % len) : 0;
            char c = alphabet[rng_next() % (sizeof alphabet - 1)];
            switch (rng_next() % 5) {
            case 0: if (len) buf[at] = c; break;                         /* replace */
            case 1: if (len) buf[at] = (char)(rng_next() & 0xff); break; /* random byte */
            case 2: /* insert */
                if (len + 1 < sizeof buf) {
                    memmove(buf + at + 1, buf + at, len - at);
                    buf[at] = c;
                    len++;
                }
                break;
            case 3: /* delete */
                if (len) {
                    memmove(buf + at, buf + at + 1, len - at - 1);
                    len--;
                }
                break;
            default: len = at; break; /* truncate */
            }
        }
        char path[512];
        mm_write_bytes("fuzz.mtx", buf, len, (int)(round % 10 == 0), path, sizeof path);
        magnus_csr A = NULL;
        magnus_status s = magnus_mm_read(&A, path, round % 2 ? MAGNUS_FLOAT32 : MAGNUS_FLOAT64,
                                         NULL, NULL);
        cr_assert(is_reader_status(s), "round %d: status %d: %s", round, s, magnus_last_error());
        if (s == MAGNUS_SUCCESS) {
            cr_assert_eq(magnus_csr_validate(A), MAGNUS_SUCCESS, "%s", magnus_last_error());
            successes++;
        } else {
            cr_assert_null(A);
            cr_assert_not_null(strstr(magnus_last_error(), path), "%s", magnus_last_error());
        }
        magnus_csr_free(&A);
    }
    cr_assert_gt(successes, 0);
}

/* Sizes a header declares are checked against the host memory limit before they are
 * allocated: a 3-line file declaring 2^31 - 1 rows fails at once, naming file, sizes and the
 * knob, instead of allocating a 16 GiB row pointer. */
Test(mm_errors, declared_sizes_checked_against_the_host_memory_limit) {
    char path[512];
    mm_write_text("huge.mtx",
                  "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 1\n1 1 1\n",
                  path, sizeof path);
    setenv("MAGNUS_HOST_MEMORY_LIMIT", "1G", 1);
    magnus_csr A = NULL;
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT64, NULL, NULL),
                 MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "%s", magnus_last_error());
    cr_assert_null(A);
    const char *m = magnus_last_error();
    cr_assert(strstr(m, path) && strstr(m, "2147483647 x 2147483647") && strstr(m, "16.0 GiB") &&
                  strstr(m, "1.0 GiB") && strstr(m, "MAGNUS_HOST_MEMORY_LIMIT"),
              "%s", m);
    /* a modest file under a tiny limit fails the same way, under a larger one it is read */
    mm_write_text("rows.mtx",
                  "%%MatrixMarket matrix coordinate real general\n1000000 3 1\n1 1 1\n", path,
                  sizeof path);
    setenv("MAGNUS_HOST_MEMORY_LIMIT", "1M", 1);
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT32, NULL, NULL),
                 MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "%s", magnus_last_error());
    setenv("MAGNUS_HOST_MEMORY_LIMIT", "64M", 1);
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT32, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    cr_assert_eq(A->rows, 1000000);
    magnus_csr_free(&A);
    /* the same limit guards CSRs made in memory */
    cr_assert_eq(magnus_csr_new(&A, 10000000, 10, 10, MAGNUS_FLOAT32), /* 80 MB > 64M */
                 MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "%s", magnus_last_error());
    cr_assert(strstr(magnus_last_error(), "10000000 x 10"), "%s", magnus_last_error());
    cr_assert_null(A);
    /* ... and, through the public check, a caller's own arrays (the tool's SpMV vectors) */
    cr_assert_eq(magnus_host_memory_check(80000000, "x, 10,000,000 float64 values"),
                 MAGNUS_ERROR_OUT_OF_HOST_MEMORY);
    cr_assert(strstr(magnus_last_error(), "x, 10,000,000 float64 values needs 76.3 MiB of host "
                                          "memory, above the limit of 64.0 MiB"),
              "%s", magnus_last_error());
    cr_assert_eq(magnus_host_memory_check(60000000, NULL), MAGNUS_SUCCESS);
    cr_assert_str_empty(magnus_last_error());
    /* a bad value is refused by name */
    setenv("MAGNUS_HOST_MEMORY_LIMIT", "lots", 1);
    cr_assert_eq(magnus_csr_new(&A, 10, 10, 10, MAGNUS_FLOAT32), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(magnus_last_error(), "MAGNUS_HOST_MEMORY_LIMIT=lots"), "%s",
              magnus_last_error());
    unsetenv("MAGNUS_HOST_MEMORY_LIMIT");
    /* by default, half the machine's memory: the 3-line file fails on any machine with less
     * than 32 GiB and is read (1 entry) on larger ones */
    mm_write_text("huge.mtx",
                  "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 1\n1 1 1\n",
                  path, sizeof path);
    uint64_t limit = 0;
    cr_assert_eq(magnus_host_memory_limit(&limit), MAGNUS_SUCCESS);
    cr_assert_gt(limit, 0u);
    if (limit < (16ull << 30) + 64) {
        cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT64, NULL, NULL),
                     MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "%s", magnus_last_error());
        cr_assert(strstr(magnus_last_error(), "half the machine's memory"), "%s",
                  magnus_last_error());
    }
}

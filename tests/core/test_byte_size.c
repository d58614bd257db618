/*
 * The one byte-size grammar (runtime/core/byte_size.h) that MAGNUS_LOCAL_MEM_BYTES,
 * MAGNUS_DEVICE_MEMORY_LIMIT and the command line's --local-mem, --bandwidth-bytes and
 * --host-memory-limit share: every form any of their former parsers took (plain numbers,
 * K/M/G/T in either case with an optional i and B, blanks around, a leading '+'), and the
 * refusals (negatives, fractions, junk, overflow).
 */
#include <criterion/criterion.h>
#include <stdint.h>

#include "byte_size.h"

typedef struct {
    const char *text;
    uint64_t bytes;
} good_size;

Test(byte_size, accepted_forms) {
    static const good_size good[] = {
        {"0", 0},
        {"4096", 4096},
        {"00012", 12},
        {"+48K", 48 << 10},          /* strtoull's sign, which the command line took */
        {"48K", 48 << 10},
        {"48k", 48 << 10},
        {"227k", 227 << 10},
        {"48KB", 48 << 10},          /* refused by --local-mem before, taken by the variable */
        {"48kb", 48 << 10},
        {"48Kb", 48 << 10},
        {"48KiB", 48 << 10},         /* the brief's example: --local-mem 48KiB */
        {"48kib", 48 << 10},
        {"48KIB", 48 << 10},
        {"48Ki", 48 << 10},
        {"2M", 2 << 20},
        {"512MiB", 512ull << 20},
        {"1G", 1ull << 30},
        {"64G", 64ull << 30},        /* magnus bench's default host limit */
        {"16M", 16ull << 20},        /* tests/bench: --bandwidth-bytes 16M */
        {"1T", 1ull << 40},
        {"3tib", 3ull << 40},
        {"100B", 100},
        {"100b", 100},
        {" 2G ", 2ull << 30},
        {"\t8K\n", 8 << 10},
        {"16777215T", 16777215ull << 40},
        {"18446744073709551615", UINT64_MAX},
        {"17179869183G", 17179869183ull << 30},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t b = 1;
        cr_expect_eq(magnus_parse_bytes(&b, good[i].text), MAGNUS_SUCCESS, "\"%s\" refused",
                     good[i].text);
        cr_expect_eq(b, good[i].bytes, "\"%s\": %llu, expected %llu", good[i].text,
                     (unsigned long long)b, (unsigned long long)good[i].bytes);
    }
}

Test(byte_size, refused_forms) {
    static const char *const bad[] = {
        "",        " ",        "K",         "KiB",      "B",        "-1",        "-1K",
        " -5",     "--5",      "++5",       "+",        "+-5",      "2X",        "2GG",
        "2GiBB",   "2iB",      "5i",        "2BK",      "2 G",      "2G x",      "1.5G",
        "1.",      ".5K",      "1e9",       "0x10",     "1,024",    "nan",       "inf",
        "16777216T", "18446744073709551616", "99999999999999999999", "17179869184G"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t b = 7;
        cr_expect_eq(magnus_parse_bytes(&b, bad[i]), MAGNUS_ERROR_INVALID_ARGUMENT,
                     "\"%s\" accepted", bad[i]);
        cr_expect_eq(b, 7u, "\"%s\": output written on failure", bad[i]);
    }
}

Test(byte_size, null_arguments) {
    uint64_t b = 7;
    cr_expect_eq(magnus_parse_bytes(&b, NULL), MAGNUS_ERROR_NULL_POINTER);
    cr_expect_eq(b, 7u);
    cr_expect_eq(magnus_parse_bytes(NULL, "4K"), MAGNUS_ERROR_NULL_POINTER);
}

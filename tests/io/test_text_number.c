/* The hand-written number parser of runtime/io/text_number.h against strtod / strtof: random
 * decimal strings of every shape, hard rounding cases, and the index parser. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_number.h"
#include "xorshift_test_util.h"

static uint64_t rng_state = 0x6a09e667f3bcc909ULL;
static uint64_t rng_next(void) { return xorshift64star_next(&rng_state); }

/* Parses s (a token followed by '\n') and checks the value bit for bit against strtod or
 * strtof, and that the whole token was consumed. */
static void check_against_libc(const char *s) {
    char line[256];
    snprintf(line, sizeof line, "%s\n", s);
    for (int want_float = 0; want_float < 2; want_float++) {
        const char *p = line;
        double got = -1;
        text_number_result r = text_parse_real(&p, want_float, &got);
        cr_assert_eq(r, TEXT_NUMBER_OK, "'%s' not parsed", s);
        cr_assert_eq(*p, '\n', "'%s' not consumed", s);
        if (want_float) {
            float expected = strtof(s, NULL), g = (float)got;
            cr_assert((double)g == got, "'%s': float result %a is not a float", s, got);
            cr_assert(memcmp(&g, &expected, sizeof g) == 0, "'%s': float %a, strtof %a", s,
                      (double)g, (double)expected);
        } else {
            double expected = strtod(s, NULL);
            cr_assert(memcmp(&got, &expected, sizeof got) == 0, "'%s': double %a, strtod %a", s,
                      got, expected);
        }
    }
}

/* A random decimal: sign, 1..25 digits with an optional point anywhere, optional exponent. */
static void random_decimal(char *s) {
    char *p = s;
    switch (rng_next() % 3) {
    case 0: *p++ = '-'; break;
    case 1: if (rng_next() % 4 == 0) *p++ = '+'; break;
    default: break;
    }
    int digits = 1 + (int)(rng_next() % 25);
    int point = (int)(rng_next() % (uint64_t)(digits + 2)) - 1; /* -1: no point */
    for (int k = 0; k < digits; k++) {
        if (k == point) *p++ = '.';
        /* runs of zeros and nines make the hard cases near powers of ten */
        uint64_t kind = rng_next() % 10;
        *p++ = kind == 0 ? '0' : kind == 1 ? '9' : (char)('0' + rng_next() % 10);
    }
    if (point == digits) *p++ = '.';
    if (rng_next() % 2) {
        *p++ = rng_next() % 2 ? 'e' : 'E';
        int e = (int)(rng_next() % 81) - 40;
        p += sprintf(p, "%s%d", e >= 0 && rng_next() % 2 ? "+" : "", e);
    }
    *p = '\0';
}

Test(text_number, random_decimals_match_libc) {
    char s[96];
    for (int k = 0; k < 300000; k++) {
        random_decimal(s);
        check_against_libc(s);
    }
}

/* Shortest and 17-digit forms of random doubles and floats, as writers print them. */
Test(text_number, printed_random_values_match_libc) {
    char s[64];
    for (int k = 0; k < 200000; k++) {
        uint64_t bits = rng_next();
        double d;
        memcpy(&d, &bits, sizeof d);
        if (!isfinite(d)) continue;
        snprintf(s, sizeof s, k % 2 ? "%.17g" : "%.16e", d);
        check_against_libc(s);
        uint32_t b32 = (uint32_t)bits;
        float f;
        memcpy(&f, &b32, sizeof f);
        if (!isfinite(f)) continue;
        snprintf(s, sizeof s, "%.9g", (double)f);
        check_against_libc(s);
        snprintf(s, sizeof s, "%.6f", (double)(bits % 2000000) / 1000.0 - 1000.0);
        check_against_libc(s);
    }
}

/* Values exactly on, or one digit off, the midpoint between two floats or two doubles: where
 * rounding twice (decimal -> double -> float) would go wrong. */
Test(text_number, midpoints_round_correctly) {
    static const char *cases[] = {
        "1.000000059604644775390625",          /* 1 + 2^-24: float tie, to even (1) */
        "1.000000059604644775390626",          /* just above: up */
        "1.000000059604644775390624",          /* just below: down */
        "1.00000005960464478",                 /* 18 digits above the tie */
        "1.0000000596046448",                  /* 17 digits above the tie */
        "1.00000017881393432617187499",        /* below 1 + 3*2^-24 */
        "1.000000000000000111022302462515654", /* just above 1 + 2^-53 */
        "1.0000000000000001110223024625156540",
        "9007199254740993",                    /* 2^53 + 1: double tie, to even */
        "9007199254740995",
        "16777217",                            /* 2^24 + 1: float tie */
        "16777219",
        "0.1", "0.2", "0.3", "1e23", "8.98846567431158e307", "3.4028235e38", "3.4028236e38",
        "1.1754943e-38", "1.1754942e-38", "1.4e-45", "7.0e-46", "2.2250738585072014e-308",
        "4.9406564584124654e-324", "123456789012345678", "1234567890123456789",
        "12345678901234567890", "0.000001", "1000000000000000000000000000"};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) check_against_libc(cases[k]);
}

Test(text_number, malformed_tokens) {
    static const char *bad[] = {"", "-", "+", ".", "e5", "1e", "1e+", "1..2", "1.2.3", "--1",
                                "1x", "0x", "nanx", "1,5", "1e5e5", "++1", "1-",
                                /* strtod reads these; a matrix file may not (issue 33, item 9) */
                                "0x10", "0X10", "-0x1", "+0x1p3", "0x1.8p1", "0x", "nan(1)",
                                "nan()", "infinit", "1.0junk", "in", "-nan(abc)"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char line[64];
        snprintf(line, sizeof line, "%s\n", bad[k]);
        const char *p = line;
        double v;
        if (*p == '\n') continue; /* callers never pass an empty token */
        cr_assert_eq(text_parse_real(&p, false, &v), TEXT_NUMBER_MALFORMED, "'%s' accepted", bad[k]);
        cr_assert_eq(p, line, "'%s': pointer moved on failure", bad[k]);
    }
}

/* Decimal numbers and the words inf, infinity and nan (any case, signed) are the values a file
 * may hold: each reads as strtod reads it. */
Test(text_number, special_words) {
    static const char *good[] = {"inf", "-inf", "+INF", "Infinity", "-infinity", "nan",
                                 "NaN", "-NAN", "+nan", "1e400", "-2.5E+999", "0.5e-400"};
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        char line[64];
        snprintf(line, sizeof line, "%s\n", good[k]);
        for (int want_float = 0; want_float < 2; want_float++) {
            const char *p = line;
            double v = 0;
            cr_assert_eq(text_parse_real(&p, want_float, &v), TEXT_NUMBER_OK, "'%s' refused",
                         good[k]);
            double e = want_float ? (double)strtof(good[k], NULL) : strtod(good[k], NULL);
            cr_assert(isnan(e) ? isnan(v) : v == e, "'%s' gave %g", good[k], v);
            cr_assert_eq(*p, '\n');
        }
    }
}

Test(text_number, integer_values) {
    static const struct {
        const char *text;
        double value;
        int ok;
    } cases[] = {{"0", 0, 1},       {"-7", -7, 1},   {"+12", 12, 1},  {"1.5", 0, 0},
                 {"1e3", 0, 0},     {"-", 0, 0},     {"12a", 0, 0},   {"999999999999999999", 999999999999999999.0, 1},
                 {"123456789012345678901234567890", 123456789012345678901234567890.0, 1}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char line[64];
        snprintf(line, sizeof line, "%s \n", cases[k].text);
        const char *p = line;
        double v = -1;
        text_number_result r = text_parse_integer_value(&p, false, &v);
        if (cases[k].ok) {
            cr_assert_eq(r, TEXT_NUMBER_OK, "'%s'", cases[k].text);
            cr_assert(v == cases[k].value, "'%s' gave %.17g", cases[k].text, v);
            cr_assert_eq(*p, ' ');
        } else {
            cr_assert_eq(r, TEXT_NUMBER_MALFORMED, "'%s' accepted", cases[k].text);
        }
    }
    /* 2^24 + 1 as float rounds to even, exactly once */
    const char *p = "16777217\n";
    double v;
    cr_assert_eq(text_parse_integer_value(&p, true, &v), TEXT_NUMBER_OK);
    cr_assert(v == 16777216.0);
}

Test(text_number, unsigned_indices_saturate) {
    uint64_t v;
    const char *s = "12345 ";
    cr_assert_eq(*text_parse_unsigned(s, &v), ' ');
    cr_assert_eq(v, 12345u);
    s = "99999999999999999999999999999999\n";
    cr_assert_eq(*text_parse_unsigned(s, &v), '\n');
    cr_assert_eq(v, UINT64_MAX);
    s = "18446744073709551615 ";
    text_parse_unsigned(s, &v);
    cr_assert_eq(v, UINT64_MAX);
    s = "18446744073709551614 ";
    text_parse_unsigned(s, &v);
    cr_assert_eq(v, UINT64_MAX - 1);
    s = "x";
    cr_assert_eq(text_parse_unsigned(s, &v), s);
}

/*
 * Fast, exact parsing of the decimal numbers found in text matrix files.
 *
 * A Matrix Market entry is "row col value"; strtod costs more than everything else on the line
 * put together, so common forms are parsed by hand:
 *   - indices: unsigned decimal digits;
 *   - values: [sign] digits [. digits] [e|E [sign] digits], at most 19 significant digits.
 * A value is the integer mantissa m (exact in 64 bits) times 10^e. When one rounding of
 * m·10^e to the target precision is possible in hardware, that one rounding is correctly
 * rounded, as strtod/strtof would give:
 *   - x86 x87 long double (64-bit significand): m and 10^|e| (|e| <= 27) are exact, so m*10^e
 *     or m/10^|e| is rounded once to 64 bits. Rounding that again to 53 (or 24) bits gives the
 *     correctly rounded result unless the 64-bit value lies exactly on a midpoint between two
 *     targets (the true value is then within half a 64-bit ulp of it and could fall on either
 *     side); those rare values, and float results outside float's normal range, go to strtod.
 *   - elsewhere (Clinger's fast path): m <= 2^53 and |e| <= 22 are exact doubles, so one
 *     double operation is correctly rounded; float targets check the midpoint the same way.
 * Everything else (more digits, large exponents, inf, nan) is copied into a NUL-terminated
 * scratch string and given to strtod/strtof, which must consume all of it; the slow path
 * first checks the token's grammar, so that what strtod takes beyond decimal numbers and
 * inf/infinity/nan (hexadecimal "0x10", "nan(...)") is malformed, like "1.0junk".
 *
 * Tokens end at a blank (space, tab, CR, VT, FF) or '\n'; callers guarantee that a '\n'
 * follows every token inside their buffer, so scans never need an explicit end pointer.
 */
#ifndef MAGNUS_TEXT_NUMBER_H
#define MAGNUS_TEXT_NUMBER_H

#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && LDBL_MANT_DIG == 64
#define MAGNUS_TEXT_X87_FAST_PATH 1
#else
#define MAGNUS_TEXT_X87_FAST_PATH 0
#endif

/* Result of parsing one number token. */
typedef enum text_number_result {
    TEXT_NUMBER_OK = 0,
    TEXT_NUMBER_MALFORMED = 1, /* not a number, or a number followed by other characters */
    TEXT_NUMBER_NO_MEMORY = 2  /* a very long token needed a scratch copy that failed */
} text_number_result;

static inline bool text_is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
static inline bool text_is_digit(char c) { return (unsigned)(c - '0') < 10u; }
/* True at the end of a token: a blank or the end of the line. */
static inline bool text_is_token_end(char c) { return c == '\n' || text_is_blank(c); }

static inline const char *text_skip_blanks(const char *s) {
    while (text_is_blank(*s)) s++;
    return s;
}
static inline const char *text_token_end(const char *s) {
    while (!text_is_token_end(*s)) s++;
    return s;
}

/* Steps *s over an optional sign ('-' or '+'); true when it was '-'. */
static inline bool text_skip_sign(const char **s) {
    const bool negative = **s == '-';
    if (negative || **s == '+') (*s)++;
    return negative;
}

/*
 * Unsigned decimal digits at s: *value receives them, or UINT64_MAX when they overflow 64
 * bits. Returns the first character after the digits (s itself when there are none).
 */
static inline const char *text_parse_unsigned(const char *s, uint64_t *value) {
    uint64_t v = 0;
    while (text_is_digit(*s)) {
        uint64_t d = (uint64_t)(*s - '0');
        bool fits = v < UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d <= UINT64_MAX % 10);
        v = fits ? v * 10 + d : UINT64_MAX;
        s++;
    }
    *value = v;
    return s;
}

/* Slow path (text_number.c): strtod (or strtof when want_float) on [tok, tok+len), which must
 * be a decimal number or [sign] inf, infinity or nan (any case) and be consumed entirely. */
text_number_result magnus_text_parse_real_slow(const char *tok, size_t len, bool want_float,
                                               double *out);

/*
 * Parses the real-number token at *sp (its first character is not blank). On success stores
 * the value (correctly rounded to float when want_float, then widened to double without loss)
 * and advances *sp to the character after the token.
 */
static inline text_number_result text_parse_real(const char **sp, bool want_float, double *out) {
    const char *start = *sp, *s = start;
    const bool negative = text_skip_sign(&s);
    uint64_t mantissa = 0;
    int significant = 0, digits = 0, exp10 = 0;
    for (; text_is_digit(*s); s++, digits++) {
        if (mantissa == 0 && *s == '0') continue; /* leading zeros carry no information */
        if (significant == 19) goto slow;
        mantissa = mantissa * 10 + (uint64_t)(*s - '0');
        significant++;
    }
    if (*s == '.') {
        for (s++; text_is_digit(*s); s++, digits++) {
            exp10--;
            if (mantissa == 0 && *s == '0') continue;
            if (significant == 19) goto slow;
            mantissa = mantissa * 10 + (uint64_t)(*s - '0');
            significant++;
        }
    }
    if (digits == 0) goto slow; /* "inf", "nan", "." ...: strtod decides */
    if (*s == 'e' || *s == 'E') {
        const char *e = s + 1;
        const bool exp_negative = text_skip_sign(&e);
        int exp_value = 0, exp_digits = 0;
        for (; text_is_digit(*e); e++, exp_digits++) {
            if (exp_digits == 4) goto slow;
            exp_value = exp_value * 10 + (*e - '0');
        }
        if (exp_digits == 0) goto slow;
        exp10 += exp_negative ? -exp_value : exp_value;
        s = e;
    }
    if (!text_is_token_end(*s)) goto slow;
    if (mantissa == 0) {
        *out = negative ? -0.0 : 0.0;
        *sp = s;
        return TEXT_NUMBER_OK;
    }
#if MAGNUS_TEXT_X87_FAST_PATH
    {
        static const long double powers[28] = {
            1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
            1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
            1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
        if (exp10 < -27 || exp10 > 27) goto slow;
        long double wide = exp10 >= 0 ? (long double)mantissa * powers[exp10]
                                      : (long double)mantissa / powers[-exp10];
        uint64_t significand;
        memcpy(&significand, &wide, sizeof significand); /* x87: low 8 bytes, explicit bit 63 */
        if (want_float) {
            if (wide > (long double)FLT_MAX || wide < (long double)FLT_MIN) goto slow;
            const uint64_t low = (UINT64_C(1) << 40) - 1, half = UINT64_C(1) << 39;
            if ((significand & low) == half) goto slow;
            float f = (float)wide;
            *out = negative ? -(double)f : (double)f;
        } else {
            if ((significand & 0x7FF) == 0x400) goto slow;
            double d = (double)wide;
            *out = negative ? -d : d;
        }
    }
#else
    {
        static const double powers[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                          1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
        if (exp10 < -22 || exp10 > 22 || mantissa > (UINT64_C(1) << 53)) goto slow;
        double d = exp10 >= 0 ? (double)mantissa * powers[exp10]
                              : (double)mantissa / powers[-exp10];
        if (want_float) {
            if (d > (double)FLT_MAX || d < (double)FLT_MIN) goto slow;
            uint64_t bits;
            memcpy(&bits, &d, sizeof bits);
            const uint64_t low = (UINT64_C(1) << 29) - 1, half = UINT64_C(1) << 28;
            if ((bits & low) == half) goto slow;
            d = (double)(float)d;
        }
        *out = negative ? -d : d;
    }
#endif
    *sp = s;
    return TEXT_NUMBER_OK;
slow: {
    const char *end = text_token_end(start);
    text_number_result r = magnus_text_parse_real_slow(start, (size_t)(end - start), want_float, out);
    if (r == TEXT_NUMBER_OK) *sp = end;
    return r;
}
}

/*
 * Parses an integer-field token at *sp: [sign] digits and nothing else. Up to 18 digits are
 * converted exactly (then rounded once to the target); longer ones go through strtod/strtof.
 */
static inline text_number_result text_parse_integer_value(const char **sp, bool want_float,
                                                          double *out) {
    const char *start = *sp, *s = start;
    const bool negative = text_skip_sign(&s);
    const char *digits = s;
    int64_t v = 0;
    while (text_is_digit(*s)) {
        if (s - digits < 18) v = v * 10 + (*s - '0');
        s++;
    }
    if (s == digits || !text_is_token_end(*s)) return TEXT_NUMBER_MALFORMED;
    if (s - digits > 18) {
        text_number_result r =
            magnus_text_parse_real_slow(start, (size_t)(s - start), want_float, out);
        if (r == TEXT_NUMBER_OK) *sp = s;
        return r;
    }
    if (negative) v = -v;
    *out = want_float ? (double)(float)v : (double)v;
    *sp = s;
    return TEXT_NUMBER_OK;
}

#endif

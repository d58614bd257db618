/*
 * The slow path of text number parsing (strtod/strtof on a NUL-terminated copy), and the
 * "C" numeric locale that file readers and writers switch to, so that an application that
 * called setlocale(LC_ALL, "") in a comma-decimal locale still reads and writes "1.5".
 */
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "text_locale.h"
#include "text_number.h"

/* Whether [s, s+n) equals the word w, in any case. */
static bool is_word(const char *s, size_t n, const char *w) {
    return n == strlen(w) && strncasecmp(s, w, n) == 0;
}

/*
 * The numbers a matrix file may hold, decided here rather than left to strtod, which takes
 * more: [sign] digits [. digits] [e|E [sign] digits] (a digit on at least one side of the
 * point), or [sign] inf, infinity or nan in any case (NaN and inf are values a file can hold:
 * magnus_mm_facts counts them). Refused although strtod reads them: hexadecimal ("0x10",
 * "0x1p3", which no Matrix Market writer produces and which is far more often a mistake),
 * "nan(...)" payloads, and leading blanks.
 */
static bool is_decimal_or_special(const char *s, size_t n) {
    size_t i = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    if (i < n && !text_is_digit(s[i]) && s[i] != '.')
        return is_word(s + i, n - i, "inf") || is_word(s + i, n - i, "infinity") ||
               is_word(s + i, n - i, "nan");
    size_t digits = 0;
    while (i < n && text_is_digit(s[i])) i++, digits++;
    if (i < n && s[i] == '.')
        for (i++; i < n && text_is_digit(s[i]); i++) digits++;
    if (digits == 0) return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        size_t exp_digits = 0;
        while (i < n && text_is_digit(s[i])) i++, exp_digits++;
        if (exp_digits == 0) return false;
    }
    return i == n;
}

text_number_result magnus_text_parse_real_slow(const char *tok, size_t len, bool want_float,
                                               double *out) {
    char local[128];
    char *copy = local;
    if (len == 0 || !is_decimal_or_special(tok, len)) return TEXT_NUMBER_MALFORMED;
    if (len >= sizeof local) {
        copy = magnus_host_malloc(len + 1);
        if (!copy) return TEXT_NUMBER_NO_MEMORY;
    }
    memcpy(copy, tok, len);
    copy[len] = '\0';
    char *end = NULL;
    /* Out-of-range values become +-inf or a (sub)normal near zero, as strtod gives them. */
    double value = want_float ? (double)strtof(copy, &end) : strtod(copy, &end);
    bool consumed = end == copy + len;
    if (copy != local) magnus_host_free(copy);
    if (!consumed) return TEXT_NUMBER_MALFORMED;
    *out = value;
    return TEXT_NUMBER_OK;
}

static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale = (locale_t)0;

static void create_c_locale(void) { c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0); }

magnus_text_locale magnus_text_locale_enter(void) {
    magnus_text_locale saved = {(locale_t)0};
    pthread_once(&c_locale_once, create_c_locale);
    if (c_locale != (locale_t)0) saved.previous = uselocale(c_locale);
    return saved;
}

void magnus_text_locale_leave(magnus_text_locale saved) {
    if (saved.previous != (locale_t)0) uselocale(saved.previous);
}

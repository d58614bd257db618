/* The one byte-size grammar of the library and the command line (byte_size.h). */
#include "byte_size.h"

#include <ctype.h>

static int unit_shift(char c) {
    switch (toupper((unsigned char)c)) {
    case 'K': return 10;
    case 'M': return 20;
    case 'G': return 30;
    case 'T': return 40;
    default: return 0;
    }
}

magnus_status magnus_parse_bytes(uint64_t *out, const char *text) {
    if (!out || !text) return MAGNUS_ERROR_NULL_POINTER;
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '+') p++;
    if (!isdigit((unsigned char)*p)) return MAGNUS_ERROR_INVALID_ARGUMENT;
    uint64_t value = 0;
    for (; isdigit((unsigned char)*p); p++)
        if (__builtin_mul_overflow(value, 10, &value) ||
            __builtin_add_overflow(value, (uint64_t)(*p - '0'), &value))
            return MAGNUS_ERROR_INVALID_ARGUMENT;
    int shift = unit_shift(*p);
    if (shift) {
        p++;
        if (toupper((unsigned char)*p) == 'I') p++;
    }
    if (toupper((unsigned char)*p) == 'B') p++;
    while (isspace((unsigned char)*p)) p++;
    if (*p || (shift && value > (UINT64_MAX >> shift))) return MAGNUS_ERROR_INVALID_ARGUMENT;
    *out = value << shift;
    return MAGNUS_SUCCESS;
}

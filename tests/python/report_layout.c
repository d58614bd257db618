/*
 * magnus_report's layout as this compiler lays it out, from the field list
 * (MAGNUS_REPORT_FIELDS), as JSON on stdout: the build writes it beside the library and
 * python/tests/test_report_layout.py checks magnus/_lib.py's ctypes mirror against it (names,
 * kinds, offsets, sizes), so a field added in C but not in Python fails a test instead of the
 * library writing past a Python buffer.
 */
#include <stddef.h>
#include <stdio.h>

#include "magnus/magnus.h"

/* s as a JSON string */
static void json_string(const char *s) {
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", (unsigned)(unsigned char)*s);
        else
            putchar(*s);
    }
    putchar('"');
}

static void field(int *first, const char *kind, const char *name, const char *merge,
                  const char *shown, const char *meaning, size_t offset, size_t size,
                  int count) {
    printf("%s\n    {\"name\": \"%s\", \"kind\": \"%s\", \"offset\": %zu, \"size\": %zu, "
           "\"count\": %d, \"merge\": \"%s\", \"shown\": \"%s\", \"meaning\": ",
           *first ? "" : ",", name, kind, offset, size, count, merge, shown);
    json_string(meaning);
    putchar('}');
    *first = 0;
}

int main(void) {
    int first = 1;
    printf("{\"sizeof\": %zu, \"max_levels\": %d, \"fields\": [", sizeof(magnus_report),
           MAGNUS_MAX_LEVELS);
#define LAYOUT_FIELD(kind, name, merge, shown, section, meaning)                                   \
    field(&first, #kind, #name, #merge, #shown, meaning, offsetof(magnus_report, name),        \
          sizeof(((magnus_report *)0)->name), MAGNUS_REPORT_COUNT_##kind);
    MAGNUS_REPORT_FIELDS(LAYOUT_FIELD)
#undef LAYOUT_FIELD
    printf("\n]}\n");
    return 0;
}

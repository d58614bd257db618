/*
 * Reading the shared matrices' INDEX.tsv (../shared/matrices, MAGNUS_SHARED_MATRICES): the
 * tab-separated fields of a line, a column by its header name, and a listed file, which the
 * directory may hold gzip-compressed. Shared by the CPU reference's test and the device tests
 * that multiply every shared matrix.
 */
#ifndef MAGNUS_TESTS_MATRIX_INDEX_TEST_UTIL_H
#define MAGNUS_TESTS_MATRIX_INDEX_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Splits `line` in place at its tabs into at most `max` fields (the line end cut off). */
static inline int index_split_tabs(char *line, char **fields, int max) {
    int n = 0;
    for (char *p = line; n < max;) {
        fields[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = '\0';
        p = tab + 1;
    }
    char *nl = strpbrk(fields[n - 1], "\r\n");
    if (nl) *nl = '\0';
    return n;
}

/* The index of the header field `name`; fails the test when there is none. */
static inline int index_column_of(char **fields, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (!strcmp(fields[i], name)) return i;
    cr_assert_fail("INDEX.tsv has no column %s", name);
    return -1;
}

/* INDEX.tsv names NAME.mtx; the directory may hold it gzip-compressed as NAME.mtx.gz. */
static inline bool index_find_matrix_file(const char *dir, const char *file, char *path,
                                          size_t size) {
    struct stat st;
    snprintf(path, size, "%s/%s", dir, file);
    if (stat(path, &st) == 0) return true;
    snprintf(path, size, "%s/%s.gz", dir, file);
    return stat(path, &st) == 0;
}

#endif

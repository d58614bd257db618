/*
 * Helpers shared by the Matrix Market tests: a temporary directory per test (Criterion runs
 * each test in its own process), files written from strings (plain or gzip), and checks of a
 * matrix against expected CSR arrays or of a failure's status and detail message.
 */
#ifndef MAGNUS_TESTS_MM_TEST_UTIL_H
#define MAGNUS_TESTS_MM_TEST_UTIL_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "magnus/magnus.h"

static char mm_temp_dir[256];

static inline void mm_temp_setup(void) {
    const char *base = getenv("TMPDIR");
    snprintf(mm_temp_dir, sizeof mm_temp_dir, "%s/magnus-mm-XXXXXX", base && *base ? base : "/tmp");
    cr_assert_not_null(mkdtemp(mm_temp_dir), "cannot create a temporary directory");
}

static inline void mm_temp_teardown(void) {
    DIR *d = opendir(mm_temp_dir);
    if (!d) return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(path, sizeof path, "%s/%s", mm_temp_dir, e->d_name);
            remove(path);
        }
    closedir(d);
    rmdir(mm_temp_dir);
}

/* Path of `name` inside the test's temporary directory (a static buffer per call site use). */
static inline const char *mm_temp_path(const char *name, char *buf, size_t size) {
    snprintf(buf, size, "%s/%s", mm_temp_dir, name);
    return buf;
}

/* Writes len bytes (plain, or gzip when gzip != 0) to name in the temporary directory. */
static inline const char *mm_write_bytes(const char *name, const void *data, size_t len, int gzip,
                                  char *path, size_t size) {
    mm_temp_path(name, path, size);
    /* A new file rather than a truncated one: ext4 flushes a truncated-and-rewritten file to
     * disk on close (auto_da_alloc), which made loops of rewrites wait on the disk. */
    remove(path);
    if (gzip) {
        gzFile gz = gzopen(path, "wb");
        cr_assert_not_null(gz);
        if (len) cr_assert_eq(gzwrite(gz, data, (unsigned)len), (int)len);
        cr_assert_eq(gzclose(gz), Z_OK);
    } else {
        FILE *f = fopen(path, "wb");
        cr_assert_not_null(f);
        if (len) cr_assert_eq(fwrite(data, 1, len, f), len);
        cr_assert_eq(fclose(f), 0);
    }
    return path;
}

static inline const char *mm_write_text(const char *name, const char *text, char *path, size_t size) {
    return mm_write_bytes(name, text, strlen(text), 0, path, size);
}

/* Checks A against expected CSR arrays (values compared exactly, as double). */
static inline void mm_expect_csr(const magnus_csr_s *A, int64_t rows, int64_t cols, int64_t nnz,
                          const int64_t *row_ptr, const int32_t *col, const double *val) {
    cr_assert_not_null(A);
    cr_assert_eq(magnus_csr_validate(A), MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_eq(A->rows, rows);
    cr_assert_eq(A->cols, cols);
    cr_assert_eq(A->nnz, nnz, "nnz %lld, expected %lld", (long long)A->nnz, (long long)nnz);
    for (int64_t i = 0; i <= rows; i++)
        cr_assert_eq(A->row_ptr[i], row_ptr[i], "row_ptr[%lld] = %lld, expected %lld",
                     (long long)i, (long long)A->row_ptr[i], (long long)row_ptr[i]);
    for (int64_t k = 0; k < nnz; k++) {
        cr_assert_eq(A->col_idx[k], col[k], "col_idx[%lld] = %d, expected %d", (long long)k,
                     A->col_idx[k], col[k]);
        double v = A->type == MAGNUS_FLOAT32 ? (double)((const float *)A->values)[k]
                                             : ((const double *)A->values)[k];
        double e = A->type == MAGNUS_FLOAT32 ? (double)(float)val[k] : val[k];
        cr_assert(v == e, "value[%lld] = %.17g, expected %.17g", (long long)k, v, e);
    }
}

/* Checks that A and B are the same matrix, bit for bit. */
static inline void mm_expect_identical(const magnus_csr_s *A, const magnus_csr_s *B) {
    cr_assert(A && B);
    cr_assert(A->rows == B->rows && A->cols == B->cols && A->nnz == B->nnz && A->type == B->type,
              "%lld x %lld nnz %lld type %d vs %lld x %lld nnz %lld type %d", (long long)A->rows,
              (long long)A->cols, (long long)A->nnz, A->type, (long long)B->rows,
              (long long)B->cols, (long long)B->nnz, B->type);
    cr_assert(memcmp(A->row_ptr, B->row_ptr, (size_t)(A->rows + 1) * sizeof(int64_t)) == 0,
              "row_ptr differs");
    cr_assert(memcmp(A->col_idx, B->col_idx, (size_t)A->nnz * sizeof(int32_t)) == 0,
              "col_idx differs");
    cr_assert(memcmp(A->values, B->values, (size_t)A->nnz * magnus_value_size(A->type)) == 0,
              "values differ");
}

/* Reads text (written to name) and checks the failure: status, file name and ":line:". */
static inline void mm_expect_error_at(const char *name, const char *text, size_t len, int gzip,
                               magnus_status expected, long long line) {
    char path[512], where[600];
    mm_write_bytes(name, text, len, gzip, path, sizeof path);
    magnus_csr A = NULL;
    magnus_status s = magnus_mm_read(&A, path, MAGNUS_FLOAT64, NULL, NULL);
    const char *msg = magnus_last_error();
    cr_assert_eq(s, expected, "status %d (%s), expected %d; detail: %s", s,
                 magnus_status_string(s), expected, msg);
    cr_assert_null(A);
    cr_assert_not_null(strstr(msg, path), "detail '%s' does not name the file", msg);
    snprintf(where, sizeof where, "%s:%lld: ", path, line);
    cr_assert_not_null(strstr(msg, where), "detail '%s' does not point at line %lld", msg, line);
}

static inline void mm_expect_error(const char *text, magnus_status expected, long long line) {
    mm_expect_error_at("bad.mtx", text, strlen(text), 0, expected, line);
}

#endif

/* magnus_mm_write: exact text of a small matrix, write -> read round trips (float and double,
 * plain and gzip) that must give the identical matrix, and the error cases. */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "internal.h"
#include "mm_test_util.h"
#include "xorshift_test_util.h"

TestSuite(mm_write, .init = mm_temp_setup, .fini = mm_temp_teardown);

/* 2 x 3: [1.5 0 -2; 0 0 0.1] plus an explicit zero at (1,0). */
static magnus_csr small_matrix(magnus_value_type type) {
    magnus_csr A = NULL;
    cr_assert_eq(magnus_csr_new(&A, 2, 3, 4, type), MAGNUS_SUCCESS);
    const int64_t ptr[] = {0, 2, 4};
    const int32_t col[] = {0, 2, 0, 2};
    const double val[] = {1.5, -2, 0, 0.1};
    memcpy(A->row_ptr, ptr, sizeof ptr);
    memcpy(A->col_idx, col, sizeof col);
    for (int k = 0; k < 4; k++) {
        if (type == MAGNUS_FLOAT32) ((float *)A->values)[k] = (float)val[k];
        else ((double *)A->values)[k] = val[k];
    }
    return A;
}

static char *read_whole_file(const char *path) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    static char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* small_matrix(type) written, and the file's whole text against `expected`. */
static void expect_written_text(magnus_value_type type, const char *expected) {
    magnus_csr A = small_matrix(type);
    char path[512];
    mm_temp_path("s.mtx", path, sizeof path);
    cr_assert_eq(magnus_mm_write(path, A), MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_str_eq(read_whole_file(path), expected);
    magnus_csr_free(&A);
}

Test(mm_write, exact_text_double) {
    expect_written_text(MAGNUS_FLOAT64, "%%MatrixMarket matrix coordinate real general\n"
                                        "2 3 4\n"
                                        "1 1 1.5\n"
                                        "1 3 -2\n"
                                        "2 1 0\n"
                                        "2 3 0.10000000000000001\n");
}

Test(mm_write, exact_text_float) {
    expect_written_text(MAGNUS_FLOAT32, "%%MatrixMarket matrix coordinate real general\n"
                                        "2 3 4\n"
                                        "1 1 1.5\n"
                                        "1 3 -2\n"
                                        "2 1 0\n"
                                        "2 3 0.100000001\n");
}

/* The structure alone as `coordinate pattern general` (issue 33, item 9: `rmat --pattern`),
 * read back as the same structure with every value 1 (the explicit zero included), in f32 as
 * the field calls for; plain and gzip. */
Test(mm_write, pattern_text_and_round_trip) {
    magnus_csr A = small_matrix(MAGNUS_FLOAT64);
    char path[512];
    mm_temp_path("p.mtx", path, sizeof path);
    cr_assert_eq(magnus_mm_write_pattern(path, A), MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_str_eq(read_whole_file(path), "%%MatrixMarket matrix coordinate pattern general\n"
                                            "2 3 4\n"
                                            "1 1\n"
                                            "1 3\n"
                                            "2 1\n"
                                            "2 3\n");
    const char *names[2] = {"p.mtx", "p.mtx.gz"};
    for (int k = 0; k < 2; k++) {
        mm_temp_path(names[k], path, sizeof path);
        cr_assert_eq(magnus_mm_write_pattern(path, A), MAGNUS_SUCCESS, "%s", magnus_last_error());
        magnus_csr R = NULL;
        magnus_mm_facts facts;
        cr_assert_eq(magnus_mm_read_facts(&R, &facts, path, MAGNUS_MM_TYPE_AUTO, NULL, NULL),
                     MAGNUS_SUCCESS, "%s", magnus_last_error());
        cr_assert_eq(facts.header.field, MAGNUS_MM_PATTERN);
        cr_assert_eq(R->type, MAGNUS_FLOAT32);
        cr_assert_eq(R->nnz, A->nnz);
        cr_assert_arr_eq(R->row_ptr, A->row_ptr, 3 * sizeof(int64_t));
        cr_assert_arr_eq(R->col_idx, A->col_idx, 4 * sizeof(int32_t));
        for (int p = 0; p < 4; p++) cr_assert_eq(((float *)R->values)[p], 1.0f);
        magnus_csr_free(&R);
    }
    cr_assert_eq(magnus_mm_write_pattern(NULL, A), MAGNUS_ERROR_NULL_POINTER);
    magnus_csr_free(&A);
}

static uint64_t rng_state = 0x853c49e6748fea9bULL;
static uint64_t rng_next(void) { return xorshift64star_next(&rng_state); }

/* A random valid matrix whose values cover every finite kind: random bit patterns (normal,
 * subnormal, huge, tiny), zeros of both signs, and short decimals. No NaN (NaN != NaN would
 * make "identical" meaningless for payloads), but infinities are included. */
static magnus_csr random_matrix(int64_t rows, int64_t cols, magnus_value_type type) {
    int64_t nnz = 0;
    int64_t *len = calloc((size_t)rows, sizeof *len);
    for (int64_t i = 0; i < rows; i++) {
        len[i] = (int64_t)(rng_next() % (uint64_t)(cols + 1));
        nnz += len[i];
    }
    magnus_csr A = NULL;
    cr_assert_eq(magnus_csr_new(&A, rows, cols, nnz, type), MAGNUS_SUCCESS);
    int64_t p = 0;
    for (int64_t i = 0; i < rows; i++) {
        A->row_ptr[i] = p;
        /* a random subset of len[i] columns, in order (selection sampling) */
        int64_t need = len[i];
        for (int64_t j = 0; j < cols && need > 0; j++)
            if (rng_next() % (uint64_t)(cols - j) < (uint64_t)need) {
                A->col_idx[p] = (int32_t)j;
                uint64_t bits = rng_next();
                double d;
                float f;
                switch (bits % 8) {
                case 0: d = 0.0; f = 0.0f; break;
                case 1: d = -0.0; f = -0.0f; break;
                case 2: d = (double)(int64_t)(bits >> 40) / 1000.0; f = (float)d; break;
                case 3: d = (bits >> 4) % 2 ? INFINITY : -INFINITY; f = (float)d; break;
                default: {
                    uint64_t b = rng_next();
                    uint32_t b32 = (uint32_t)b;
                    memcpy(&d, &b, sizeof d);
                    memcpy(&f, &b32, sizeof f);
                    if (isnan(d)) d = 1.0 / 3.0;
                    if (isnan(f)) f = 2.0f / 3.0f;
                }
                }
                if (type == MAGNUS_FLOAT32) ((float *)A->values)[p] = f;
                else ((double *)A->values)[p] = d;
                p++;
                need--;
            }
    }
    A->row_ptr[rows] = p;
    free(len);
    cr_assert_eq(magnus_csr_validate(A), MAGNUS_SUCCESS, "%s", magnus_last_error());
    return A;
}

/* A written to the temporary file `name` and read back as A's type must be A exactly. */
static void expect_identical_after_write_and_read(const magnus_csr_s *A, const char *name) {
    char path[512];
    mm_temp_path(name, path, sizeof path);
    cr_assert_eq(magnus_mm_write(path, A), MAGNUS_SUCCESS, "%s", magnus_last_error());
    magnus_csr B = NULL;
    cr_assert_eq(magnus_mm_read(&B, path, A->type, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    mm_expect_identical(B, A);
    magnus_csr_free(&B);
}

static void round_trip(magnus_value_type type, const char *name) {
    magnus_csr A = random_matrix(97, 53, type);
    expect_identical_after_write_and_read(A, name);
    magnus_csr_free(&A);
}

Test(mm_write, round_trip_double) { round_trip(MAGNUS_FLOAT64, "rt.mtx"); }
Test(mm_write, round_trip_float) { round_trip(MAGNUS_FLOAT32, "rt.mtx"); }
Test(mm_write, round_trip_gzip_double) { round_trip(MAGNUS_FLOAT64, "rt.mtx.gz"); }
Test(mm_write, round_trip_gzip_float) { round_trip(MAGNUS_FLOAT32, "rt.mtx.gz"); }

/* Integer values are formatted by hand (mm_write.c); the text must be what printf gives
 * (%.17g / %.9g), at the edges of the hand-formatted range too. */
static void expect_values_as_printf(magnus_value_type type, const double *values, int n) {
    magnus_csr A = NULL;
    cr_assert_eq(magnus_csr_new(&A, 1, n, n, type), MAGNUS_SUCCESS);
    A->row_ptr[1] = n;
    char expected[4096];
    int len = snprintf(expected, sizeof expected,
                       "%%%%MatrixMarket matrix coordinate real general\n1 %d %d\n", n, n);
    for (int k = 0; k < n; k++) {
        A->col_idx[k] = k;
        if (type == MAGNUS_FLOAT32) ((float *)A->values)[k] = (float)values[k];
        else ((double *)A->values)[k] = values[k];
        double v = type == MAGNUS_FLOAT32 ? (double)(float)values[k] : values[k];
        len += snprintf(expected + len, sizeof expected - (size_t)len,
                        type == MAGNUS_FLOAT32 ? "1 %d %.9g\n" : "1 %d %.17g\n", k + 1, v);
    }
    char path[512];
    mm_temp_path("int.mtx", path, sizeof path);
    cr_assert_eq(magnus_mm_write(path, A), MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_str_eq(read_whole_file(path), expected);
    expect_identical_after_write_and_read(A, "int-rt.mtx");
    magnus_csr_free(&A);
}

Test(mm_write, integer_values_as_printf) {
    const double v[] = {1, -1, 7, 10, -4096, 123456789, 0.0, -0.0, 0.5, -2.25,
                        9007199254740991.0, -9007199254740991.0, 9007199254740992.0,
                        1e17, 1e300, 4294967296.0, INFINITY};
    expect_values_as_printf(MAGNUS_FLOAT64, v, (int)(sizeof v / sizeof v[0]));
    const double f[] = {1, -1, 7, 99999999, 16777215, -16777215, 16777216, 33554432,
                        1e10, 0.0, -0.0, 0.75, -INFINITY};
    expect_values_as_printf(MAGNUS_FLOAT32, f, (int)(sizeof f / sizeof f[0]));
}

Test(mm_write, gz_suffix_writes_gzip) {
    magnus_csr A = small_matrix(MAGNUS_FLOAT64);
    char path[512];
    mm_temp_path("s.mtx.gz", path, sizeof path);
    cr_assert_eq(magnus_mm_write(path, A), MAGNUS_SUCCESS, "%s", magnus_last_error());
    const unsigned char *bytes = (const unsigned char *)read_whole_file(path);
    cr_assert(bytes[0] == 0x1f && bytes[1] == 0x8b, "not gzip");
    magnus_csr_free(&A);
}

Test(mm_write, empty_matrix_round_trip) {
    magnus_csr A = NULL;
    cr_assert_eq(magnus_csr_new(&A, 4, 0, 0, MAGNUS_FLOAT64), MAGNUS_SUCCESS);
    expect_identical_after_write_and_read(A, "e.mtx");
    magnus_csr_free(&A);
}

/* ---- errors ------------------------------------------------------------------------------- */

Test(mm_write, null_and_freed_handles) {
    char path[512];
    mm_temp_path("x.mtx", path, sizeof path);
    cr_assert_eq(magnus_mm_write(path, NULL), MAGNUS_ERROR_NULL_POINTER);
    magnus_csr A = small_matrix(MAGNUS_FLOAT64);
    cr_assert_eq(magnus_mm_write(NULL, A), MAGNUS_ERROR_NULL_POINTER);
    magnus_csr_s copy = *A;
    copy.magic = MAGNUS_MAGIC_FREED;
    cr_assert_eq(magnus_mm_write(path, &copy), MAGNUS_ERROR_INVALID_HANDLE);
    cr_assert_eq(access(path, F_OK), -1, "a file was created for an invalid handle");
    magnus_csr_free(&A);
}

Test(mm_write, invalid_matrix_is_refused) {
    magnus_csr A = small_matrix(MAGNUS_FLOAT64);
    A->col_idx[1] = 7; /* out of range */
    char path[512];
    mm_temp_path("x.mtx", path, sizeof path);
    cr_assert_eq(magnus_mm_write(path, A), MAGNUS_ERROR_COLUMN_OUT_OF_RANGE);
    cr_assert_not_null(strstr(magnus_last_error(), path), "%s", magnus_last_error());
    magnus_csr_free(&A);
}

Test(mm_write, cannot_create) {
    magnus_csr A = small_matrix(MAGNUS_FLOAT64);
    char path[512];
    mm_temp_path("no-such-dir/x.mtx", path, sizeof path);
    cr_assert_eq(magnus_mm_write(path, A), MAGNUS_ERROR_FILE_OPEN);
    cr_assert_not_null(strstr(magnus_last_error(), path), "%s", magnus_last_error());
    mm_temp_path("no-such-dir/x.mtx.gz", path, sizeof path);
    cr_assert_eq(magnus_mm_write(path, A), MAGNUS_ERROR_FILE_OPEN);
    magnus_csr_free(&A);
}

Test(mm_write, device_full) {
    if (access("/dev/full", W_OK) != 0) cr_skip_test("no /dev/full");
    magnus_csr A = random_matrix(200, 200, MAGNUS_FLOAT64);
    cr_assert_eq(magnus_mm_write("/dev/full", A), MAGNUS_ERROR_FILE_WRITE);
    cr_assert_not_null(strstr(magnus_last_error(), "/dev/full"), "%s", magnus_last_error());
    magnus_csr_free(&A);
}

Test(mm_write, allocation_failure) {
    magnus_csr A = small_matrix(MAGNUS_FLOAT64);
    char path[512];
    mm_temp_path("x.mtx", path, sizeof path);
    magnus_host_alloc_fail_after(0);
    magnus_status s = magnus_mm_write(path, A);
    magnus_host_alloc_fail_after(-1);
    cr_assert_eq(s, MAGNUS_ERROR_OUT_OF_HOST_MEMORY);
    magnus_csr_free(&A);
}

/* magnus_mm_read on valid files: every field x symmetry, duplicates, explicit zeros, layout
 * variants (comments, blank lines, CRLF, no final newline, gzip), long rows, large files, OOM
 * injection, progress, and the shared real matrices against INDEX.tsv. */
#include <math.h>
#include <stdint.h>

#include "internal.h"
#include "mm_test_util.h"
#include "require_test_util.h"
#include "xorshift_test_util.h"

TestSuite(mm_read, .init = mm_temp_setup, .fini = mm_temp_teardown);

/* Reads text as both value types and checks each against the expected CSR. */
static void expect_read(const char *text, int64_t rows, int64_t cols, int64_t nnz,
                        const int64_t *row_ptr, const int32_t *col, const double *val) {
    char path[512];
    mm_write_text("m.mtx", text, path, sizeof path);
    magnus_value_type types[2] = {MAGNUS_FLOAT64, MAGNUS_FLOAT32};
    for (int t = 0; t < 2; t++) {
        magnus_csr A = NULL;
        magnus_status s = magnus_mm_read(&A, path, types[t], NULL, NULL);
        cr_assert_eq(s, MAGNUS_SUCCESS, "read failed: %s", magnus_last_error());
        cr_assert_eq(A->type, types[t]);
        mm_expect_csr(A, rows, cols, nnz, row_ptr, col, val);
        magnus_csr_free(&A);
    }
}

/* ---- every field x symmetry ----------------------------------------------------------- */

static const char real_general[] = "%%MatrixMarket matrix coordinate real general\n"
                                   "% a comment\n"
                                   "3 4 6\n"
                                   "3 4 -1.5\n"
                                   "1 2 2.0\n"
                                   "1 1 1e1\n"
                                   "2 3 0\n"
                                   "3 1 .25\n"
                                   "1 2 0.5\n";
static const int64_t real_general_ptr[] = {0, 2, 3, 5};
static const int32_t real_general_col[] = {0, 1, 2, 0, 3};
static const double real_general_val[] = {10, 2.5, 0, 0.25, -1.5};

Test(mm_read, real_general_sorts_sums_duplicates_keeps_zeros) {
    expect_read(real_general, 3, 4, 5, real_general_ptr, real_general_col, real_general_val);
}

Test(mm_read, real_symmetric_is_expanded) {
    const int64_t ptr[] = {0, 2, 4, 6};
    const int32_t col[] = {0, 1, 0, 2, 1, 2};
    const double val[] = {4, -1, -1, -2, -2, 5};
    expect_read("%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 4\n2 1 -1\n"
                "3 2 -2\n3 3 5\n",
                3, 3, 6, ptr, col, val);
}

Test(mm_read, real_skew_symmetric_mirrors_negated) {
    const int64_t ptr[] = {0, 2, 3, 4};
    const int32_t col[] = {1, 2, 0, 0};
    const double val[] = {-1.5, 2, 1.5, -2};
    expect_read("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1.5\n3 1 -2\n",
                3, 3, 4, ptr, col, val);
}

Test(mm_read, integer_general) {
    const int64_t ptr[] = {0, 1, 2};
    const int32_t col[] = {2, 0};
    const double val[] = {9, -4};
    expect_read("%%MatrixMarket matrix coordinate integer general\n2 3 3\n1 3 7\n2 1 -4\n1 3 +2\n",
                2, 3, 2, ptr, col, val);
}

Test(mm_read, integer_symmetric) {
    const int64_t ptr[] = {0, 2, 3};
    const int32_t col[] = {0, 1, 0};
    const double val[] = {3, -6, -6};
    expect_read("%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n1 1 3\n2 1 -6\n", 2,
                2, 3, ptr, col, val);
}

Test(mm_read, integer_skew_symmetric) {
    const int64_t ptr[] = {0, 1, 2};
    const int32_t col[] = {1, 0};
    const double val[] = {-5, 5};
    expect_read("%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 5\n", 2, 2,
                2, ptr, col, val);
}

/* A pattern entry is a 1 and duplicates sum, as magnus info says ("duplicates summed") and as
 * in a real file (issue 33, item 9): (1,3) stored twice is 2. */
Test(mm_read, pattern_general_values_are_one_duplicates_sum) {
    const int64_t ptr[] = {0, 2, 3, 3};
    const int32_t col[] = {0, 2, 1};
    const double val[] = {1, 2, 1};
    expect_read("%%MatrixMarket matrix coordinate pattern general\n3 3 4\n1 3\n2 2\n1 1\n1 3\n", 3,
                3, 3, ptr, col, val);
}

/* Without duplicates every value is 1 (the values are made only when a row repeats a column);
 * a duplicate in a long, unsorted row (merge-sorted) sums in its place. */
Test(mm_read, pattern_duplicates_in_long_rows) {
    char text[4096];
    int n = snprintf(text, sizeof text, "%%%%MatrixMarket matrix coordinate pattern general\n1 50 51\n");
    for (int j = 50; j >= 1; j--) n += snprintf(text + n, sizeof text - (size_t)n, "1 %d\n", j);
    snprintf(text + n, sizeof text - (size_t)n, "1 17\n");
    int64_t ptr[] = {0, 50};
    int32_t col[50];
    double val[50];
    for (int j = 0; j < 50; j++) {
        col[j] = j;
        val[j] = j == 16 ? 2 : 1;
    }
    expect_read(text, 1, 50, 50, ptr, col, val);
}

/* A symmetric pattern file holding both triangles: each stored entry is mirrored, so (1,2) and
 * (2,1) each come twice and sum to 2, as they would in a real file. */
Test(mm_read, pattern_symmetric_both_triangles_sum) {
    const int64_t ptr[] = {0, 1, 2};
    const int32_t col[] = {1, 0};
    const double val[] = {2, 2};
    expect_read("%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n2 1\n1 2\n", 2, 2,
                2, ptr, col, val);
}

Test(mm_read, pattern_symmetric) {
    const int64_t ptr[] = {0, 2, 3, 5};
    const int32_t col[] = {1, 2, 0, 0, 2};
    const double val[] = {1, 1, 1, 1, 1};
    expect_read("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 3\n3 1\n", 3, 3,
                5, ptr, col, val);
}

Test(mm_read, banner_words_are_case_insensitive_and_double_means_real) {
    const int64_t ptr[] = {0, 1};
    const int32_t col[] = {0};
    const double val[] = {2.5};
    expect_read("%%MatrixMarket MATRIX Coordinate DOUBLE General\n1 1 1\n1 1 2.5\n", 1, 1, 1, ptr,
                col, val);
}

Test(mm_read, empty_matrices) {
    const int64_t ptr[] = {0, 0, 0};
    expect_read("%%MatrixMarket matrix coordinate real general\n2 5 0\n", 2, 5, 0, ptr, NULL, NULL);
    const int64_t ptr0[] = {0};
    expect_read("%%MatrixMarket matrix coordinate real general\n0 0 0\n", 0, 0, 0, ptr0, NULL,
                NULL);
}

/* ---- layout variants ---------------------------------------------------------------------- */

Test(mm_read, comments_blank_lines_and_blanks_anywhere) {
    expect_read("%%MatrixMarket  matrix\tcoordinate real general  \n"
                "%\n"
                "\n"
                "   % indented comment\n"
                "  3 \t4   6  \n"
                "\n"
                "3 4 -1.5\n"
                "% between entries\n"
                "  1\t2 2.0   \n"
                "1 1 1e1\n"
                "\n\n"
                "2 3 0\n"
                "3 1 .25\n"
                "1 2 0.5\n"
                "% trailing comment\n"
                "\n",
                3, 4, 5, real_general_ptr, real_general_col, real_general_val);
}

/* Replaces every "\n" of src by "\r\n" into dst. */
static void to_crlf(char *dst, const char *src) {
    for (; *src; src++) {
        if (*src == '\n') *dst++ = '\r';
        *dst++ = *src;
    }
    *dst = '\0';
}

Test(mm_read, crlf_line_endings) {
    char text[1024];
    to_crlf(text, real_general);
    expect_read(text, 3, 4, 5, real_general_ptr, real_general_col, real_general_val);
}

Test(mm_read, no_final_newline) {
    char text[1024];
    strcpy(text, real_general);
    text[strlen(text) - 1] = '\0';
    expect_read(text, 3, 4, 5, real_general_ptr, real_general_col, real_general_val);
}

Test(mm_read, gzip_reads_identically_whatever_the_name) {
    char plain[512], gz[512], odd[512];
    mm_write_text("m.mtx", real_general, plain, sizeof plain);
    mm_write_bytes("m.mtx.gz", real_general, strlen(real_general), 1, gz, sizeof gz);
    mm_write_bytes("gzip-without-suffix.mtx", real_general, strlen(real_general), 1, odd,
                   sizeof odd);
    magnus_csr A = NULL, B = NULL, C = NULL;
    cr_assert_eq(magnus_mm_read(&A, plain, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_mm_read(&B, gz, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    cr_assert_eq(magnus_mm_read(&C, odd, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    mm_expect_csr(B, 3, 4, 5, real_general_ptr, real_general_col, real_general_val);
    mm_expect_csr(C, 3, 4, 5, real_general_ptr, real_general_col, real_general_val);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&C);
}

Test(mm_read, ten_megabyte_lines) {
    size_t big = 10u << 20;
    const char *head = "%%MatrixMarket matrix coordinate real general\n%";
    const char *mid = "\n2 2 2\n1 1 1.";
    const char *tail = "5\n2 2 -3\n";
    size_t n = strlen(head) + big + strlen(mid) + big + strlen(tail);
    char *text = malloc(n + 1);
    cr_assert_not_null(text);
    char *p = text;
    p += sprintf(p, "%s", head);
    memset(p, 'x', big); /* a 10 MB comment */
    p += big;
    p += sprintf(p, "%s", mid);
    memset(p, '0', big); /* a 10 MB number: 1.000...05 */
    p += big;
    p += sprintf(p, "%s", tail);
    char path[512];
    mm_write_bytes("long.mtx", text, n, 0, path, sizeof path);
    free(text);
    magnus_csr A = NULL;
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    const int64_t ptr[] = {0, 1, 2};
    const int32_t col[] = {0, 1};
    const double val[] = {1.0, -3};
    mm_expect_csr(A, 2, 2, 2, ptr, col, val);
    magnus_csr_free(&A);
}

/* ---- values ------------------------------------------------------------------------------- */

Test(mm_read, number_forms_match_strtod_and_strtof) {
    static const char *forms[] = {
        "0",       "-0",       "+1",       "1.",      ".5",       "-.5",     "1e5",
        "1E-5",    "2.5e+3",   "1e-300",   "1e308",   "4.9e-324", "1e-400",  "1e400",
        "-1e400",  "inf",      "-Infinity", "3.14159265358979323846264338327950288",
        "123456789012345678901234567890", "0.000000000000000000000000000001234",
        "1.00000005960464477539062500", "1.0000000596046448", "1.00000005960464478",
        "16777217", "9007199254740993", "3.4028235677973366e38", "1.17549435e-38",
        "7e-46", "0.1", "0.2", "0.30000000000000004"};
    char text[4096];
    int n = (int)(sizeof forms / sizeof forms[0]);
    char *p = text + sprintf(text, "%%%%MatrixMarket matrix coordinate real general\n1 %d %d\n",
                             n, n);
    for (int k = 0; k < n; k++) p += sprintf(p, "1 %d %s\n", k + 1, forms[k]);
    char path[512];
    mm_write_text("forms.mtx", text, path, sizeof path);
    magnus_csr D = NULL, F = NULL;
    cr_assert_eq(magnus_mm_read(&D, path, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    cr_assert_eq(magnus_mm_read(&F, path, MAGNUS_FLOAT32, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    cr_assert_eq(D->nnz, n);
    for (int k = 0; k < n; k++) {
        double d = ((double *)D->values)[k], ed = strtod(forms[k], NULL);
        float f = ((float *)F->values)[k], ef = strtof(forms[k], NULL);
        cr_assert(memcmp(&d, &ed, sizeof d) == 0, "'%s' read as double %a, strtod gives %a",
                  forms[k], d, ed);
        cr_assert(memcmp(&f, &ef, sizeof f) == 0, "'%s' read as float %a, strtof gives %a",
                  forms[k], (double)f, (double)ef);
    }
    magnus_csr_free(&D);
    magnus_csr_free(&F);
}

Test(mm_read, nan_is_read) {
    char path[512];
    mm_write_text("nan.mtx",
                  "%%MatrixMarket matrix coordinate real general\n1 2 2\n1 1 nan\n1 2 -NaN\n",
                  path, sizeof path);
    magnus_csr A = NULL;
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT32, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    cr_assert(isnan(((float *)A->values)[0]) && isnan(((float *)A->values)[1]));
    magnus_csr_free(&A);
}

Test(mm_read, float_duplicates_are_summed_before_rounding) {
    /* 1 + 2^-24 + 2^-24 as float: summed in double gives 1 + 2^-23 (representable);
     * rounding each term to float first would give 1. */
    const int64_t ptr[] = {0, 1};
    const int32_t col[] = {0};
    const double val[] = {1.00000011920928955078125};
    char path[512];
    mm_write_text("dup.mtx",
                  "%%MatrixMarket matrix coordinate real general\n1 1 3\n1 1 1\n"
                  "1 1 5.9604644775390625e-08\n1 1 5.9604644775390625e-08\n",
                  path, sizeof path);
    magnus_csr A = NULL;
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT32, NULL, NULL), MAGNUS_SUCCESS);
    mm_expect_csr(A, 1, 1, 1, ptr, col, val);
    magnus_csr_free(&A);
}

/* ---- random files against a dense accumulation --------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng_next(void) { return xorshift64star_next(&rng_state); }

/*
 * Writes a random rows x cols file with `entries` entries (many duplicates when entries is
 * large, columns in random order so long rows need the real sort), reads it and compares with
 * a dense accumulation done in file order.
 */
static void random_file_check(int64_t rows, int64_t cols, int64_t entries, const char *symmetry,
                              int gzip) {
    bool sym = strcmp(symmetry, "general") != 0;
    double sign = strcmp(symmetry, "skew-symmetric") == 0 ? -1 : 1;
    double *dense = calloc((size_t)(rows * cols), sizeof *dense);
    unsigned char *present = calloc((size_t)(rows * cols), 1);
    size_t cap = (size_t)entries * 48 + 256, len = 0;
    char *text = malloc(cap);
    cr_assert(dense && present && text);
    len += (size_t)sprintf(text, "%%%%MatrixMarket matrix coordinate real %s\n%lld %lld %lld\n",
                           symmetry, (long long)rows, (long long)cols, (long long)entries);
    for (int64_t k = 0; k < entries; k++) {
        int64_t i = (int64_t)(rng_next() % (uint64_t)rows), j = (int64_t)(rng_next() % (uint64_t)cols);
        if (sign < 0 && i == j) j = (i + 1) % cols; /* skew files store no diagonal */
        if (sym && j > i) {
            int64_t t = i;
            i = j;
            j = t;
        }
        double v = k % 17 == 0 ? 0.0 : ((double)(rng_next() >> 11) / 9007199254740992.0 - 0.5) * 1e3;
        char num[40];
        snprintf(num, sizeof num, "%.17g", v);
        v = strtod(num, NULL);
        len += (size_t)sprintf(text + len, "%lld %lld %s\n", (long long)i + 1, (long long)j + 1, num);
        dense[i * cols + j] += v;
        present[i * cols + j] = 1;
        if (sym && i != j) {
            dense[j * cols + i] += sign * v;
            present[j * cols + i] = 1;
        }
    }
    char path[512];
    mm_write_bytes(gzip ? "random.mtx.gz" : "random.mtx", text, len, gzip, path, sizeof path);
    free(text);
    magnus_csr A = NULL;
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    cr_assert_eq(magnus_csr_validate(A), MAGNUS_SUCCESS, "%s", magnus_last_error());
    int64_t nnz = 0;
    for (int64_t i = 0; i < rows; i++) {
        int64_t p = A->row_ptr[i];
        for (int64_t j = 0; j < cols; j++) {
            if (!present[i * cols + j]) continue;
            nnz++;
            cr_assert(p < A->row_ptr[i + 1] && A->col_idx[p] == j, "row %lld misses column %lld",
                      (long long)i, (long long)j);
            double got = ((double *)A->values)[p];
            cr_assert(got == dense[i * cols + j], "(%lld,%lld) = %.17g, expected %.17g",
                      (long long)i, (long long)j, got, dense[i * cols + j]);
            p++;
        }
        cr_assert_eq(p, A->row_ptr[i + 1], "row %lld has extra entries", (long long)i);
    }
    cr_assert_eq(A->nnz, nnz);
    magnus_csr_free(&A);
    free(dense);
    free(present);
}

Test(mm_read, random_long_unsorted_rows_general) { random_file_check(7, 400, 5000, "general", 0); }
Test(mm_read, random_long_unsorted_rows_symmetric) {
    random_file_check(300, 300, 20000, "symmetric", 0);
}
Test(mm_read, random_skew_symmetric_gzip) { random_file_check(60, 60, 3000, "skew-symmetric", 1); }

/* Several read blocks (4 MiB each), so lines straddle block boundaries. */
Test(mm_read, large_file_spanning_many_blocks) { random_file_check(600, 700, 400000, "general", 0); }
Test(mm_read, large_gzip_file_spanning_many_blocks) {
    random_file_check(500, 500, 300000, "general", 1);
}

/* ---- progress, out of memory, arguments --------------------------------------------------- */

typedef struct progress_log {
    int calls;
    double first, last;
    int cancel_at; /* call number that returns 0, or -1 */
} progress_log;

static int log_progress(void *user, double fraction, const char *what) {
    progress_log *log = user;
    cr_assert_str_eq(what, "reading");
    cr_assert(fraction >= 0 && fraction <= 1);
    if (log->calls == 0) log->first = fraction;
    cr_assert(fraction >= log->last, "progress went backwards");
    log->last = fraction;
    return log->calls++ != log->cancel_at;
}

Test(mm_read, progress_is_reported_from_zero_to_one) {
    char path[512];
    mm_write_text("m.mtx", real_general, path, sizeof path);
    progress_log log = {0, -1, 0, -1};
    magnus_csr A = NULL;
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT64, log_progress, &log), MAGNUS_SUCCESS);
    cr_assert_geq(log.calls, 2);
    cr_assert(log.first == 0.0 && log.last == 1.0);
    magnus_csr_free(&A);
}

Test(mm_read, progress_returning_zero_cancels) {
    char path[512];
    mm_write_text("m.mtx", real_general, path, sizeof path);
    for (int at = 0; at < 2; at++) {
        progress_log log = {0, -1, 0, at};
        magnus_csr A = NULL;
        magnus_status s = magnus_mm_read(&A, path, MAGNUS_FLOAT64, log_progress, &log);
        cr_assert_eq(s, MAGNUS_ERROR_CANCELLED);
        cr_assert_null(A);
        cr_assert_not_null(strstr(magnus_last_error(), "cancelled"), "%s", magnus_last_error());
        cr_assert_not_null(strstr(magnus_last_error(), path));
    }
}

Test(mm_read, every_allocation_failure_is_clean) {
    char path[512];
    /* long rows (merge sort scratch), duplicates, symmetric expansion, a long value token */
    char text[8192];
    char *p = text + sprintf(text, "%%%%MatrixMarket matrix coordinate real symmetric\n"
                                   "40 40 301\n");
    for (int k = 0; k < 300; k++) p += sprintf(p, "%d %d %d.5\n", 40 - k % 5, 1 + (k * 13) % 33, k);
    p += sprintf(p, "2 1 1.%0200d\n", 7);
    mm_write_text("oom.mtx", text, path, sizeof path);
    magnus_csr ref = NULL;
    cr_assert_eq(magnus_mm_read(&ref, path, MAGNUS_FLOAT32, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    int failures = 0;
    for (int64_t n = 0;; n++) {
        magnus_host_alloc_fail_after(n);
        magnus_csr A = NULL;
        magnus_status s = magnus_mm_read(&A, path, MAGNUS_FLOAT32, NULL, NULL);
        magnus_host_alloc_fail_after(-1);
        if (s == MAGNUS_SUCCESS) {
            mm_expect_identical(A, ref);
            magnus_csr_free(&A);
            break;
        }
        cr_assert_eq(s, MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "allocation %lld: status %d (%s)",
                     (long long)n, s, magnus_last_error());
        cr_assert_null(A);
        cr_assert_not_null(strstr(magnus_last_error(), path), "%s", magnus_last_error());
        failures++;
    }
    cr_assert_geq(failures, 5, "only %d allocations were tested", failures);
    magnus_csr_free(&ref);
}

Test(mm_read, argument_errors) {
    char path[512];
    mm_write_text("m.mtx", real_general, path, sizeof path);
    magnus_csr A = (magnus_csr)0x1;
    cr_assert_eq(magnus_mm_read(NULL, path, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_mm_read(&A, NULL, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_null(A);
    A = (magnus_csr)0x1;
    cr_assert_eq(magnus_mm_read(&A, path, (magnus_value_type)7, NULL, NULL),
                 MAGNUS_ERROR_UNSUPPORTED_TYPE);
    cr_assert_null(A);
}

/* ---- the shared real matrices ------------------------------------------------------------- */

/* Index of `name` among the tab-separated header fields, or -1. */
static int column_of(char *header, const char *name) {
    int k = 0;
    for (char *save = NULL, *f = strtok_r(header, "\t\n", &save); f;
         f = strtok_r(NULL, "\t\n", &save), k++)
        if (strcmp(f, name) == 0) return k;
    return -1;
}

/* Field k of a tab-separated line (copied into out). */
static void field_of(const char *line, int k, char *out, size_t size) {
    for (; k > 0 && line; k--) {
        line = strchr(line, '\t');
        if (line) line++;
    }
    size_t n = 0;
    for (; line && line[n] && line[n] != '\t' && line[n] != '\n' && n + 1 < size; n++)
        out[n] = line[n];
    out[n] = '\0';
}

Test(mm_read, shared_matrices_match_index, .timeout = 120) {
    char index_path[1024];
    snprintf(index_path, sizeof index_path, "%s/INDEX.tsv", MAGNUS_SHARED_MATRICES);
    FILE *f = fopen(index_path, "r");
    if (!f) magnus_test_no_shared("no shared matrices at %s", MAGNUS_SHARED_MATRICES);
    char header[4096], line[4096];
    cr_assert_not_null(fgets(header, sizeof header, f));
    char h[4096];
    int cfile = column_of(strcpy(h, header), "file"), crows = column_of(strcpy(h, header), "rows");
    int ccols = column_of(strcpy(h, header), "cols"), cnnz = column_of(strcpy(h, header), "nnz");
    cr_assert(cfile >= 0 && crows >= 0 && ccols >= 0 && cnnz >= 0, "INDEX.tsv header: %s", header);
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        char file[512], rows[32], cols[32], nnz[32], path[1200];
        field_of(line, cfile, file, sizeof file);
        field_of(line, crows, rows, sizeof rows);
        field_of(line, ccols, cols, sizeof cols);
        field_of(line, cnnz, nnz, sizeof nnz);
        if (!*file) continue;
        /* INDEX names the uncompressed file; the directory may hold it gzip-compressed. */
        snprintf(path, sizeof path, "%s/%s", MAGNUS_SHARED_MATRICES, file);
        if (access(path, R_OK) != 0) snprintf(path, sizeof path, "%s/%s.gz", MAGNUS_SHARED_MATRICES, file);
        magnus_csr A = NULL;
        cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_SUCCESS,
                     "%s: %s", path, magnus_last_error());
        cr_assert_eq(magnus_csr_validate(A), MAGNUS_SUCCESS, "%s: %s", path, magnus_last_error());
        cr_assert_eq(A->rows, atoll(rows), "%s rows", file);
        cr_assert_eq(A->cols, atoll(cols), "%s cols", file);
        cr_assert_eq(A->nnz, atoll(nnz), "%s nnz %lld, INDEX says %s", file, (long long)A->nnz, nnz);
        magnus_csr_free(&A);
        checked++;
    }
    fclose(f);
    cr_assert_gt(checked, 0, "INDEX.tsv lists no matrix");
    cr_log_info("%d shared matrices match INDEX.tsv", checked);
}

/* What the reader reports besides the matrix, and the inputs it accepts beyond plain files:
 * magnus_mm_header_read (banner and size line only), magnus_mm_read_facts (explicit zeros,
 * non-finite and overflowing values, the automatic value type), pipes and standard input
 * (plain and gzip, recognised by content), a UTF-8 byte-order mark and CR-only line ends. */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/wait.h>

#include "internal.h"
#include "mm_test_util.h"

TestSuite(mm_facts, .init = mm_temp_setup, .fini = mm_temp_teardown);

static const char sym_text[] = "%%MatrixMarket matrix coordinate real symmetric\n"
                               "% comment\n"
                               "3 3 4\n1 1 4\n2 1 -1\n3 2 0\n3 3 5\n";
static const int64_t sym_ptr[] = {0, 2, 4, 6};
static const int32_t sym_col[] = {0, 1, 0, 2, 1, 2};
static const double sym_val[] = {4, -1, -1, 0, 0, 5};

/* ---- header only --------------------------------------------------------------------------- */

static void expect_header(const char *name, const char *text, int gzip, magnus_mm_field field,
                          magnus_mm_symmetry symmetry, int64_t rows, int64_t cols,
                          int64_t stored) {
    char path[512];
    mm_write_bytes(name, text, strlen(text), gzip, path, sizeof path);
    magnus_mm_header h;
    cr_assert_eq(magnus_mm_header_read(&h, path), MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_eq(h.field, field);
    cr_assert_eq(h.symmetry, symmetry);
    cr_assert(h.rows == rows && h.cols == cols && h.stored == stored,
              "%lld x %lld, %lld stored", (long long)h.rows, (long long)h.cols,
              (long long)h.stored);
}

Test(mm_facts, header_of_plain_and_gzip_files) {
    expect_header("s.mtx", sym_text, 0, MAGNUS_MM_REAL, MAGNUS_MM_SYMMETRIC, 3, 3, 4);
    expect_header("s.mtx.gz", sym_text, 1, MAGNUS_MM_REAL, MAGNUS_MM_SYMMETRIC, 3, 3, 4);
    expect_header("p.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 5 1\n1 5\n", 0,
                  MAGNUS_MM_PATTERN, MAGNUS_MM_GENERAL, 2, 5, 1);
    expect_header("i.mtx", "%%MatrixMarket matrix coordinate INTEGER skew-symmetric\n4 4 0\n", 0,
                  MAGNUS_MM_INTEGER, MAGNUS_MM_SKEW_SYMMETRIC, 4, 4, 0);
    cr_assert_str_eq(magnus_mm_field_name(MAGNUS_MM_PATTERN), "pattern");
    cr_assert_str_eq(magnus_mm_symmetry_name(MAGNUS_MM_SKEW_SYMMETRIC), "skew-symmetric");
    cr_assert_eq(magnus_mm_field_type(MAGNUS_MM_REAL), MAGNUS_FLOAT64);
    cr_assert_eq(magnus_mm_field_type(MAGNUS_MM_INTEGER), MAGNUS_FLOAT64);
    cr_assert_eq(magnus_mm_field_type(MAGNUS_MM_PATTERN), MAGNUS_FLOAT32);
}

/* The header of a file whose entries are garbage and far more than the size line says: only
 * the header is read, so it succeeds. */
Test(mm_facts, header_read_stops_after_the_size_line) {
    size_t n = 3u << 20;
    char *text = malloc(n + 1);
    cr_assert_not_null(text);
    int len = snprintf(text, n, "%%%%MatrixMarket matrix coordinate real general\n7 8 9\n");
    memset(text + len, 'x', n - (size_t)len);
    text[n] = '\0';
    expect_header("g.mtx", text, 0, MAGNUS_MM_REAL, MAGNUS_MM_GENERAL, 7, 8, 9);
    free(text);
}

Test(mm_facts, header_errors_name_file_and_line) {
    char path[512];
    mm_write_text("b.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n", path,
                  sizeof path);
    magnus_mm_header h;
    cr_assert_eq(magnus_mm_header_read(&h, path), MAGNUS_ERROR_MM_UNSUPPORTED);
    cr_assert_not_null(strstr(magnus_last_error(), ":1: "), "%s", magnus_last_error());
    mm_write_text("s.mtx", "%%MatrixMarket matrix coordinate real general\n%c\n2 x 1\n", path,
                  sizeof path);
    cr_assert_eq(magnus_mm_header_read(&h, path), MAGNUS_ERROR_MM_SIZE_LINE);
    cr_assert_not_null(strstr(magnus_last_error(), ":3: "), "%s", magnus_last_error());
    mm_write_text("e.mtx", "%%MatrixMarket matrix coordinate real general\n", path, sizeof path);
    cr_assert_eq(magnus_mm_header_read(&h, path), MAGNUS_ERROR_MM_SIZE_LINE);
    cr_assert_eq(magnus_mm_header_read(NULL, path), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(magnus_mm_header_read(&h, mm_temp_path("none.mtx", path, sizeof path)),
                 MAGNUS_ERROR_FILE_OPEN);
}

/* ---- facts and the automatic type ---------------------------------------------------------- */

static magnus_csr read_facts(const char *name, const char *text, magnus_value_type type,
                             magnus_mm_facts *facts) {
    char path[512];
    mm_write_text(name, text, path, sizeof path);
    magnus_csr A = NULL;
    cr_assert_eq(magnus_mm_read_facts(&A, facts, path, type, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    return A;
}

Test(mm_facts, explicit_zeros_counted_as_stored_and_header_filled) {
    magnus_mm_facts f;
    magnus_csr A = read_facts("s.mtx", sym_text, MAGNUS_FLOAT32, &f);
    mm_expect_csr(A, 3, 3, 6, sym_ptr, sym_col, sym_val);
    cr_assert_eq(f.type, MAGNUS_FLOAT32);
    cr_assert_eq(f.header.stored, 4);
    cr_assert_eq(f.header.symmetry, MAGNUS_MM_SYMMETRIC);
    cr_assert_eq(f.explicit_zeros, 1, "%lld", (long long)f.explicit_zeros); /* stored, not mirrored */
    cr_assert_eq(f.nonfinite, 0);
    magnus_csr_free(&A);
}

/* The stored entries on each side of the diagonal (issue 33, item 9): a symmetric file holding
 * both triangles is told apart from one holding one triangle, whichever it is. */
Test(mm_facts, entries_below_and_above_the_diagonal) {
    magnus_mm_facts f;
    magnus_csr A = read_facts("s.mtx", sym_text, MAGNUS_FLOAT64, &f);
    cr_assert(f.stored_below > 0 && f.stored_above == 0, "%lld below, %lld above",
              (long long)f.stored_below, (long long)f.stored_above);
    magnus_csr_free(&A);
    A = read_facts("u.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n"
                            "1 2 1\n1 3 2\n2 2 3\n", MAGNUS_FLOAT64, &f);
    cr_assert(f.stored_below == 0 && f.stored_above == 2, "the upper triangle alone");
    magnus_csr_free(&A);
    A = read_facts("b.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n"
                            "1 1 1\n2 1 2\n1 2 2\n3 2 5\n", MAGNUS_FLOAT64, &f);
    cr_assert(f.stored_below == 2 && f.stored_above == 1, "%lld below, %lld above",
              (long long)f.stored_below, (long long)f.stored_above);
    /* as the format says, mirrored: (1,2) and (2,1) each 2 + 2 */
    const double *v = A->values;
    cr_assert_eq(A->nnz, 5);
    cr_assert(v[0] == 1 && v[1] == 4 && v[2] == 4, "%g %g %g", v[0], v[1], v[2]);
    magnus_csr_free(&A);
    A = read_facts("g.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n"
                            "1 2\n2 1\n", MAGNUS_FLOAT64, &f);
    cr_assert(f.stored_below == 1 && f.stored_above == 1, "counted in general files too");
    magnus_csr_free(&A);
}

Test(mm_facts, nonfinite_and_overflowing_values_are_counted) {
    const char *text = "%%MatrixMarket matrix coordinate real general\n2 4 7\n"
                       "1 1 nan\n1 2 -inf\n1 3 1e400\n1 4 -2.5E+999\n2 1 1e39\n2 2 -0.0\n"
                       "2 3 1e-400\n";
    magnus_mm_facts f;
    magnus_csr A = read_facts("n.mtx", text, MAGNUS_FLOAT64, &f);
    cr_assert_eq(f.nonfinite, 4, "%lld", (long long)f.nonfinite);
    cr_assert_eq(f.overflowed, 2, "%lld", (long long)f.overflowed);
    cr_assert_eq(f.explicit_zeros, 2, "%lld", (long long)f.explicit_zeros); /* -0 and 1e-400 */
    const double *v = A->values;
    cr_assert(isnan(v[0]) && v[1] == -INFINITY && v[2] == INFINITY && v[3] == -INFINITY);
    magnus_csr_free(&A);
    /* in float, 1e39 overflows too */
    A = read_facts("n.mtx", text, MAGNUS_FLOAT32, &f);
    cr_assert_eq(f.nonfinite, 5, "%lld", (long long)f.nonfinite);
    cr_assert_eq(f.overflowed, 3, "%lld", (long long)f.overflowed);
    magnus_csr_free(&A);
}

Test(mm_facts, auto_type_follows_the_field) {
    magnus_mm_facts f;
    magnus_csr A = read_facts("r.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n"
                                       "1 1 0.1\n", MAGNUS_MM_TYPE_AUTO, &f);
    cr_assert_eq(A->type, MAGNUS_FLOAT64);
    cr_assert_eq(f.type, MAGNUS_FLOAT64);
    cr_assert(((double *)A->values)[0] == 0.1, "0.1 read as %.17g", ((double *)A->values)[0]);
    magnus_csr_free(&A);
    A = read_facts("i.mtx", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n"
                            "1 1 16777217\n", MAGNUS_MM_TYPE_AUTO, &f);
    cr_assert_eq(A->type, MAGNUS_FLOAT64);
    cr_assert(((double *)A->values)[0] == 16777217.0);
    magnus_csr_free(&A);
    A = read_facts("p.mtx", "%%MatrixMarket matrix coordinate pattern general\n1 2 1\n1 2\n",
                   MAGNUS_MM_TYPE_AUTO, &f);
    cr_assert_eq(A->type, MAGNUS_FLOAT32);
    cr_assert_eq(f.header.field, MAGNUS_MM_PATTERN);
    magnus_csr_free(&A);
    /* magnus_mm_read itself wants a real type */
    char path[512];
    mm_write_text("p.mtx", "%%MatrixMarket matrix coordinate pattern general\n1 2 1\n1 2\n", path,
                  sizeof path);
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_MM_TYPE_AUTO, NULL, NULL),
                 MAGNUS_ERROR_UNSUPPORTED_TYPE);
    cr_assert_null(A);
}

/* ---- byte-order mark and CR-only line ends --------------------------------------------------- */

static void expect_sym_read(const char *name, const char *text, size_t len, int gzip) {
    char path[512];
    mm_write_bytes(name, text, len, gzip, path, sizeof path);
    magnus_csr A = NULL;
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    mm_expect_csr(A, 3, 3, 6, sym_ptr, sym_col, sym_val);
    magnus_csr_free(&A);
}

/* sym_text with every '\n' replaced by `eol` (1 or 2 characters), after `prefix`. */
static size_t with_line_ends(char *out, size_t size, const char *prefix, const char *eol) {
    size_t n = strlen(prefix);
    memcpy(out, prefix, n);
    for (const char *s = sym_text; *s && n + 3 < size; s++) {
        if (*s != '\n') {
            out[n++] = *s;
            continue;
        }
        for (const char *e = eol; *e; e++) out[n++] = *e;
    }
    out[n] = '\0';
    return n;
}

Test(mm_facts, utf8_byte_order_mark_is_skipped) {
    char text[512];
    size_t n = with_line_ends(text, sizeof text, "\xEF\xBB\xBF", "\n");
    expect_sym_read("bom.mtx", text, n, 0);
    expect_sym_read("bom.mtx.gz", text, n, 1);
    n = with_line_ends(text, sizeof text, "\xEF\xBB\xBF", "\r\n");
    expect_sym_read("bom-crlf.mtx", text, n, 0);
    /* a BOM is skipped only before the banner: anywhere else it is still an error */
    mm_expect_error("%%MatrixMarket matrix coordinate real general\n\xEF\xBB\xBF" "1 1 1\n1 1 1\n",
                    MAGNUS_ERROR_MM_SIZE_LINE, 2);
}

Test(mm_facts, cr_only_line_ends) {
    char text[512];
    size_t n = with_line_ends(text, sizeof text, "", "\r");
    expect_sym_read("cr.mtx", text, n, 0);
    expect_sym_read("cr.mtx.gz", text, n, 1);
    expect_sym_read("cr-cut.mtx", text, n - 1, 0); /* no final CR */
    n = with_line_ends(text, sizeof text, "\xEF\xBB\xBF", "\r");
    expect_sym_read("bom-cr.mtx", text, n, 0);
    /* errors still name the right line */
    mm_expect_error("%%MatrixMarket matrix coordinate real general\r% c\r2 2 1\r3 1 1\r",
                    MAGNUS_ERROR_MM_INDEX_RANGE, 4);
}

/* CR-only lines across many read blocks (the translation of every block, not only the
 * first), checked against the same file with '\n'. */
Test(mm_facts, cr_only_large_file) {
    const int entries = 300000;
    size_t cap = (size_t)entries * 24 + 128, n = 0;
    char *lf = malloc(cap), *cr = malloc(cap);
    cr_assert(lf && cr);
    n += (size_t)snprintf(lf, cap, "%%%%MatrixMarket matrix coordinate real general\n1000 1000 %d\n",
                          entries);
    for (int k = 0; k < entries; k++)
        n += (size_t)snprintf(lf + n, cap - n, "%d %d %d.5\n", k % 1000 + 1, (k * 7) % 1000 + 1, k);
    for (size_t i = 0; i < n; i++) cr[i] = lf[i] == '\n' ? '\r' : lf[i];
    char p1[512], p2[512];
    mm_write_bytes("lf.mtx", lf, n, 0, p1, sizeof p1);
    mm_write_bytes("cr.mtx", cr, n, 0, p2, sizeof p2);
    magnus_csr A = NULL, B = NULL;
    cr_assert_eq(magnus_mm_read(&A, p1, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_mm_read(&B, p2, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    mm_expect_identical(A, B);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    free(lf);
    free(cr);
}

/* ---- pipes and standard input ---------------------------------------------------------------- */

/* A pipe whose writer (a child process) sends data, gzip-compressed when gzip != 0; returns
 * the read end. */
static int pipe_from_child(const char *data, size_t len, int gzip, pid_t *child) {
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    *child = fork();
    cr_assert_neq(*child, -1);
    if (*child == 0) {
        close(fds[0]);
        if (gzip) {
            gzFile gz = gzdopen(fds[1], "wb");
            int ok = gz && gzwrite(gz, data, (unsigned)len) == (int)len;
            _exit(gzclose(gz) == Z_OK && ok ? 0 : 1);
        }
        for (size_t done = 0; done < len;) {
            ssize_t w = write(fds[1], data + done, len - done);
            if (w <= 0) _exit(1);
            done += (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    return fds[0];
}

static void expect_pipe_read(int gzip, int via_stdin) {
    pid_t child;
    int fd = pipe_from_child(sym_text, strlen(sym_text), gzip, &child);
    char path[64];
    if (via_stdin) {
        cr_assert_eq(dup2(fd, STDIN_FILENO), STDIN_FILENO);
        close(fd);
        snprintf(path, sizeof path, "-");
    } else {
        snprintf(path, sizeof path, "/dev/fd/%d", fd);
    }
    magnus_csr A = NULL;
    magnus_mm_facts f;
    cr_assert_eq(magnus_mm_read_facts(&A, &f, path, MAGNUS_MM_TYPE_AUTO, NULL, NULL),
                 MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_assert_eq(A->type, MAGNUS_FLOAT64);
    cr_assert_eq(f.header.stored, 4);
    mm_expect_csr(A, 3, 3, 6, sym_ptr, sym_col, sym_val);
    magnus_csr_free(&A);
    int status;
    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (!via_stdin) close(fd);
}

Test(mm_facts, plain_pipe) { expect_pipe_read(0, 0); }
Test(mm_facts, gzip_pipe) { expect_pipe_read(1, 0); }
Test(mm_facts, standard_input_plain) { expect_pipe_read(0, 1); }
Test(mm_facts, standard_input_gzip) { expect_pipe_read(1, 1); }

/* A pipe cut inside a gzip stream is a truncated file, as it is for a file on disk. */
Test(mm_facts, truncated_gzip_pipe) {
    char path[512];
    mm_write_bytes("t.mtx.gz", sym_text, strlen(sym_text), 1, path, sizeof path);
    FILE *f = fopen(path, "rb");
    char bytes[512];
    size_t n = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    pid_t child;
    int fd = pipe_from_child(bytes, n - 6, 0, &child);
    snprintf(path, sizeof path, "/dev/fd/%d", fd);
    magnus_csr A = NULL;
    cr_assert_eq(magnus_mm_read(&A, path, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_ERROR_MM_TRUNCATED,
                 "%s", magnus_last_error());
    cr_assert_null(A);
    waitpid(child, NULL, 0);
    close(fd);
}

/* Standard input read to its end leaves the descriptor open (the reader reads a copy). */
Test(mm_facts, standard_input_stays_open) {
    expect_pipe_read(0, 1);
    cr_assert_neq(fcntl(STDIN_FILENO, F_GETFD), -1);
}

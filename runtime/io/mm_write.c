/*
 * Matrix Market writer: `coordinate real general`, 1-based, row by row, values printed with
 * enough digits to read back the same bits (%.9g for float, %.17g for double); or
 * `coordinate pattern general`, the structure alone (magnus_mm_write_pattern). Lines are
 * formatted into a large buffer that goes to the file (or gzip stream) in one call.
 *
 * Speed (docs/benchmarks/mm_write.md): printf was most of the plain write, and zlib's default
 * level 6 four times the rest, so indices and integer values (the products of pattern
 * matrices are integer counts) are formatted by hand, giving the same text printf would, and
 * gzip files are written at level 1 (a file about 15 % larger, compressed 4x faster).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "internal.h"
#include "text_locale.h"

#define MM_WRITE_BLOCK ((size_t)1 << 20)
/* Longest line: two 10-digit indices, a %.17g value (at most 24 characters), separators. */
#define MM_WRITE_LINE_MAX 64
/* zlib level of .gz output: 1, the fastest (see the top of the file). */
#define MM_WRITE_GZ_MODE "wb1"

typedef struct mm_writer {
    const char *path;
    FILE *file;
    gzFile gz;
    char *buf;
    size_t len;
} mm_writer;

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static magnus_status flush(mm_writer *w) {
    if (w->len == 0) return MAGNUS_SUCCESS;
    bool ok;
    if (w->gz) ok = gzwrite(w->gz, w->buf, (unsigned)w->len) == (int)w->len;
    else ok = fwrite(w->buf, 1, w->len, w->file) == w->len;
    w->len = 0;
    if (!ok) {
        int code = 0;
        const char *what = w->gz ? gzerror(w->gz, &code) : strerror(errno);
        if (w->gz && code == Z_ERRNO) what = strerror(errno);
        return magnus_error(MAGNUS_ERROR_FILE_WRITE, "%s: write failed: %s", w->path, what);
    }
    return MAGNUS_SUCCESS;
}

/* Makes room for one more line, flushing the buffer when it is nearly full. */
static magnus_status reserve_line(mm_writer *w) {
    return w->len + MM_WRITE_LINE_MAX > MM_WRITE_BLOCK ? flush(w) : MAGNUS_SUCCESS;
}

/* Decimal digits of v at p; returns the end. */
static inline char *put_unsigned(char *p, uint64_t v) {
    char digits[20];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *p++ = digits[--n];
    return p;
}

/*
 * The value as %.17g (double) or %.9g (float) prints it. An integer value below 2^53 (2^24 for
 * float) has at most 16 (8) digits, which %g prints plainly, so writing its digits gives the
 * same text; anything else (fractions, -0, huge values, inf, nan) goes to snprintf.
 */
static inline char *put_value(char *p, double v, bool is_float) {
    const double exact_limit = is_float ? 16777216.0 : 9007199254740992.0;
    if (v > -exact_limit && v < exact_limit && v != 0 && v == (double)(int64_t)v) {
        if (v < 0) *p++ = '-';
        return put_unsigned(p, (uint64_t)(v < 0 ? -v : v));
    }
    if (v == 0 && !signbit(v)) {
        *p++ = '0';
        return p;
    }
    return p + snprintf(p, 32, is_float ? "%.9g" : "%.17g", v);
}

static magnus_status write_entries(mm_writer *w, const magnus_csr_s *A, bool pattern) {
    magnus_status st;
    if ((st = reserve_line(w))) return st;
    w->len += (size_t)snprintf(w->buf + w->len, MM_WRITE_LINE_MAX,
                               "%%%%MatrixMarket matrix coordinate %s general\n",
                               pattern ? "pattern" : "real");
    if ((st = reserve_line(w))) return st;
    w->len += (size_t)snprintf(w->buf + w->len, MM_WRITE_LINE_MAX, "%lld %lld %lld\n",
                               (long long)A->rows, (long long)A->cols, (long long)A->nnz);
    const float *vf = A->values;
    const double *vd = A->values;
    const bool is_float = A->type == MAGNUS_FLOAT32;
    for (int64_t i = 0; i < A->rows; i++) {
        for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++) {
            if ((st = reserve_line(w))) return st;
            char *line = w->buf + w->len, *e = line;
            e = put_unsigned(e, (uint64_t)i + 1);
            *e++ = ' ';
            e = put_unsigned(e, (uint64_t)A->col_idx[p] + 1);
            if (!pattern) {
                *e++ = ' ';
                e = is_float ? put_value(e, (double)vf[p], true) : put_value(e, vd[p], false);
            }
            *e++ = '\n';
            w->len += (size_t)(e - line);
        }
    }
    return flush(w);
}

static magnus_status write_file(const char *path, const magnus_csr_s *A, bool pattern) {
    const char *name = pattern ? "magnus_mm_write_pattern" : "magnus_mm_write";
    magnus_error_clear();
    if (!path) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "%s: path is NULL", name);
    /* An invalid matrix would give a file that cannot be read back: refuse it first. */
    magnus_status st = magnus_csr_validate(A);
    if (st) {
        magnus_error_prefix("%s %s: ", name, path);
        return st;
    }
    mm_writer w = {.path = path};
    w.buf = magnus_host_malloc(MM_WRITE_BLOCK);
    if (!w.buf)
        return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "%s: cannot allocate the write buffer",
                            path);
    errno = 0;
    /* "-" is standard output (plain text): flushed, never closed or removed. */
    const bool to_stdout = strcmp(path, "-") == 0;
    if (to_stdout) w.file = stdout;
    else if (ends_with(path, ".gz")) w.gz = gzopen(path, MM_WRITE_GZ_MODE);
    else w.file = fopen(path, "wb");
    if (!w.gz && !w.file) {
        magnus_host_free(w.buf);
        return magnus_error(MAGNUS_ERROR_FILE_OPEN, "%s: cannot create: %s", path,
                            errno ? strerror(errno) : "out of memory");
    }
    magnus_text_locale locale = magnus_text_locale_enter();
    st = write_entries(&w, A, pattern);
    magnus_text_locale_leave(locale);
    /* Closing flushes the last data (and the gzip trailer): its failure is a write error. */
    int closed = w.gz ? gzclose(w.gz) : to_stdout ? fflush(stdout) : fclose(w.file);
    if (!st && closed != 0)
        st = magnus_error(MAGNUS_ERROR_FILE_WRITE, "%s: write failed when closing: %s", path,
                          w.gz ? "gzip stream error" : strerror(errno));
    magnus_host_free(w.buf);
    /* Leave no half-written matrix behind; never remove anything but a regular file (the
     * path may be a device such as /dev/full). */
    struct stat info;
    if (st && !to_stdout && stat(path, &info) == 0 && S_ISREG(info.st_mode)) remove(path);
    return st;
}

magnus_status magnus_mm_write(const char *path, const magnus_csr_s *A) {
    return write_file(path, A, false);
}

magnus_status magnus_mm_write_pattern(const char *path, const magnus_csr_s *A) {
    return write_file(path, A, true);
}

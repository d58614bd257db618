/*
 * Matrix Market writer: `coordinate real general`, 1-based, row by row, values printed with
 * enough digits to read back the same bits (%.9g for float, %.17g for double). Lines are
 * formatted into a large buffer that goes to the file (or gzip stream) in one call.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "internal.h"
#include "text_locale.h"

#define MM_WRITE_BLOCK ((size_t)1 << 20)
/* Longest line: two 10-digit indices, a %.17g value (at most 24 characters), separators. */
#define MM_WRITE_LINE_MAX 64

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

static magnus_status write_entries(mm_writer *w, const magnus_csr_s *A) {
    magnus_status st;
    if ((st = reserve_line(w))) return st;
    w->len += (size_t)snprintf(w->buf + w->len, MM_WRITE_LINE_MAX,
                               "%%%%MatrixMarket matrix coordinate real general\n");
    if ((st = reserve_line(w))) return st;
    w->len += (size_t)snprintf(w->buf + w->len, MM_WRITE_LINE_MAX, "%lld %lld %lld\n",
                               (long long)A->rows, (long long)A->cols, (long long)A->nnz);
    const float *vf = A->values;
    const double *vd = A->values;
    for (int64_t i = 0; i < A->rows; i++) {
        for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++) {
            if ((st = reserve_line(w))) return st;
            long long row = (long long)i + 1, col = (long long)A->col_idx[p] + 1;
            int n = A->type == MAGNUS_FLOAT32
                        ? snprintf(w->buf + w->len, MM_WRITE_LINE_MAX, "%lld %lld %.9g\n", row,
                                   col, (double)vf[p])
                        : snprintf(w->buf + w->len, MM_WRITE_LINE_MAX, "%lld %lld %.17g\n", row,
                                   col, vd[p]);
            w->len += (size_t)n;
        }
    }
    return flush(w);
}

magnus_status magnus_mm_write(const char *path, const magnus_csr_s *A) {
    magnus_error_clear();
    if (!path) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_mm_write: path is NULL");
    /* An invalid matrix would give a file that cannot be read back: refuse it first. */
    magnus_status st = magnus_csr_validate(A);
    if (st) {
        magnus_error_prefix("magnus_mm_write %s: ", path);
        return st;
    }
    mm_writer w = {.path = path};
    w.buf = magnus_host_malloc(MM_WRITE_BLOCK);
    if (!w.buf)
        return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "%s: cannot allocate the write buffer",
                            path);
    errno = 0;
    if (ends_with(path, ".gz")) w.gz = gzopen(path, "wb6");
    else w.file = fopen(path, "wb");
    if (!w.gz && !w.file) {
        magnus_host_free(w.buf);
        return magnus_error(MAGNUS_ERROR_FILE_OPEN, "%s: cannot create: %s", path,
                            errno ? strerror(errno) : "out of memory");
    }
    magnus_text_locale locale = magnus_text_locale_enter();
    st = write_entries(&w, A);
    magnus_text_locale_leave(locale);
    /* Closing flushes the last data (and the gzip trailer): its failure is a write error. */
    int closed = w.gz ? gzclose(w.gz) : fclose(w.file);
    if (!st && closed != 0)
        st = magnus_error(MAGNUS_ERROR_FILE_WRITE, "%s: write failed when closing: %s", path,
                          w.gz ? "gzip stream error" : strerror(errno));
    magnus_host_free(w.buf);
    /* Leave no half-written matrix behind; never remove anything but a regular file (the
     * path may be a device such as /dev/full). */
    struct stat info;
    if (st && stat(path, &info) == 0 && S_ISREG(info.st_mode)) remove(path);
    return st;
}

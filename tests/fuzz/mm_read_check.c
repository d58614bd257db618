/* The Matrix Market fuzz oracle (see mm_read_check.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include "mm_read_check.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "internal.h"

static char violation[1024];

static const char *fail(const char *fmt, ...) MAGNUS_PRINTF(1, 2);
static const char *fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(violation, sizeof violation, fmt, ap);
    va_end(ap);
    return violation;
}

/* An anonymous in-memory file reached by a path, so the reader opens it as any file. */
typedef struct mem_file {
    int fd;
    char path[64];
} mem_file;

static bool mem_file_put(mem_file *f, const char *name, const void *data, size_t size) {
    if (f->fd <= 0) {
        f->fd = memfd_create(name, MFD_CLOEXEC);
        if (f->fd < 0) return false;
        snprintf(f->path, sizeof f->path, "/proc/self/fd/%d", f->fd);
    }
    if (ftruncate(f->fd, 0) != 0) return false;
    size_t done = 0;
    while (done < size) {
        ssize_t n = pwrite(f->fd, (const char *)data + done, size - done, (off_t)done);
        if (n <= 0) return false;
        done += (size_t)n;
    }
    return true;
}

/* data gzip-compressed (deflate with a gzip wrapper) into *out; false if zlib fails. The
 * stream is set up once and reset for each input (its 256 KiB of state is most of an
 * execution's allocations otherwise). */
static bool gzip_bytes(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size) {
    static z_stream z;
    static bool ready = false;
    if (!ready) {
        if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return false;
        ready = true;
    } else if (deflateReset(&z) != Z_OK) {
        return false;
    }
    uLong bound = deflateBound(&z, (uLong)size) + 32;
    uint8_t *buf = malloc(bound);
    if (!buf) return false;
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)size;
    z.next_out = buf;
    z.avail_out = (uInt)bound;
    int rc = deflate(&z, Z_FINISH);
    *out_size = z.total_out;
    if (rc != Z_STREAM_END) {
        free(buf);
        return false;
    }
    *out = buf;
    return true;
}

typedef struct progress_log {
    int calls;
    double first, last;
    bool out_of_range, backwards;
} progress_log;

static int progress_record(void *user, double fraction, const char *what) {
    progress_log *log = user;
    if (!(fraction >= 0.0 && fraction <= 1.0) || !what) log->out_of_range = true;
    if (log->calls == 0) log->first = fraction;
    else if (fraction < log->last) log->backwards = true;
    log->last = fraction;
    log->calls++;
    return 1;
}

/* Statuses a file's content may cause (FILE_OPEN cannot: the file is there). */
static bool status_expected(magnus_status s) {
    switch (s) {
    case MAGNUS_ERROR_FILE_READ:
    case MAGNUS_ERROR_MM_BANNER:
    case MAGNUS_ERROR_MM_UNSUPPORTED:
    case MAGNUS_ERROR_MM_SIZE_LINE:
    case MAGNUS_ERROR_MM_ENTRY_COUNT:
    case MAGNUS_ERROR_MM_INDEX_RANGE:
    case MAGNUS_ERROR_MM_NUMBER:
    case MAGNUS_ERROR_MM_TRUNCATED:
    case MAGNUS_ERROR_OUT_OF_HOST_MEMORY:
        return true;
    default:
        return false;
    }
}

typedef struct read_result {
    magnus_status status;
    magnus_csr A;
} read_result;

/* One read with every per-read check; NULL when they hold. */
static const char *read_one(read_result *res, const char *path, magnus_value_type type,
                            const char *mode) {
    progress_log log;
    memset(&log, 0, sizeof log);
    magnus_csr A = NULL;
    magnus_status s = magnus_mm_read(&A, path, type, progress_record, &log);
    res->status = s;
    res->A = A;
    const char *detail = magnus_last_error();
    const char *tname = type == MAGNUS_FLOAT32 ? "float32" : "float64";
    if (log.out_of_range || log.backwards)
        return fail("%s %s: progress fraction out of [0,1] or going backwards", mode, tname);
    if (s != MAGNUS_SUCCESS) {
        if (A) return fail("%s %s: status %d but the output is not NULL", mode, tname, s);
        if (!status_expected(s))
            return fail("%s %s: unexpected status %d (%s): %s", mode, tname, s,
                        magnus_status_string(s), detail);
        if (!detail || !*detail) return fail("%s %s: status %d without a message", mode, tname, s);
        if (!strstr(detail, path))
            return fail("%s %s: message does not name the file: %s", mode, tname, detail);
        return NULL;
    }
    if (!A) return fail("%s %s: success without a matrix", mode, tname);
    if (A->type != type) return fail("%s %s: result has type %d", mode, tname, (int)A->type);
    magnus_status v = magnus_csr_validate(A);
    if (v != MAGNUS_SUCCESS)
        return fail("%s %s: result is not a valid CSR (%d): %s", mode, tname, v,
                    magnus_last_error());
    if (log.calls < 2 || log.first != 0.0 || log.last != 1.0)
        return fail("%s %s: progress not reported from 0 to 1 (%d calls, %g .. %g)", mode, tname,
                    log.calls, log.first, log.last);
    return NULL;
}

static bool same_structure(const magnus_csr_s *A, const magnus_csr_s *B) {
    if (A->rows != B->rows || A->cols != B->cols || A->nnz != B->nnz) return false;
    if (memcmp(A->row_ptr, B->row_ptr, (size_t)(A->rows + 1) * sizeof *A->row_ptr) != 0)
        return false;
    return A->nnz == 0 || memcmp(A->col_idx, B->col_idx, (size_t)A->nnz * sizeof *A->col_idx) == 0;
}

static bool same_bits(const magnus_csr_s *A, const magnus_csr_s *B) {
    return A->type == B->type && same_structure(A, B) &&
           (A->nnz == 0 ||
            memcmp(A->values, B->values, (size_t)A->nnz * magnus_value_size(A->type)) == 0);
}

/* Two outcomes that must agree unless one of them ran out of (limited) memory. */
static const char *agree(const read_result *x, const read_result *y, bool bits, const char *what) {
    if (x->status == MAGNUS_ERROR_OUT_OF_HOST_MEMORY || y->status == MAGNUS_ERROR_OUT_OF_HOST_MEMORY)
        return NULL;
    if (x->status != y->status)
        return fail("%s disagree: status %d vs %d", what, x->status, y->status);
    if (x->status != MAGNUS_SUCCESS) return NULL;
    if (bits ? !same_bits(x->A, y->A) : !same_structure(x->A, y->A))
        return fail("%s disagree on the matrix read", what);
    return NULL;
}

static mem_file plain_file, gz_file;

const char *fuzz_mm_read_check(const uint8_t *data, size_t size) {
    magnus_host_alloc_limit(FUZZ_MM_ALLOC_LIMIT);
    uint8_t *gz = NULL;
    size_t gz_size = 0;
    if (!mem_file_put(&plain_file, "fuzz.mtx", data, size) || !gzip_bytes(data, size, &gz, &gz_size) ||
        !mem_file_put(&gz_file, "fuzz.mtx.gz", gz, gz_size)) {
        free(gz);
        magnus_host_alloc_limit(0);
        return fail("harness: cannot prepare the input files");
    }
    free(gz);

    read_result r[4];
    memset(r, 0, sizeof r);
    const char *bad = NULL;
    static const magnus_value_type types[2] = {MAGNUS_FLOAT32, MAGNUS_FLOAT64};
    for (int k = 0; k < 4 && !bad; k++)
        bad = read_one(&r[k], k < 2 ? plain_file.path : gz_file.path, types[k % 2],
                       k < 2 ? "plain" : "gzip");
    if (!bad) bad = agree(&r[0], &r[1], false, "plain float32 and float64");
    /* An input that is itself gzip is decompressed once when read plain, and read as its own
     * (binary) text when wrapped in gzip again: only other inputs must read alike. */
    bool input_is_gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    if (!bad && !input_is_gzip) bad = agree(&r[0], &r[2], true, "plain and gzip float32");
    if (!bad && !input_is_gzip) bad = agree(&r[1], &r[3], true, "plain and gzip float64");
    for (int k = 0; k < 4; k++) magnus_csr_free(&r[k].A);
    magnus_host_alloc_limit(0);

    /* After any failure the next read must work: a tiny valid file. */
    if (!bad) {
        static const char tiny[] = "%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 -3.5\n";
        magnus_csr T = NULL;
        if (!mem_file_put(&plain_file, "fuzz.mtx", tiny, sizeof tiny - 1))
            return fail("harness: cannot rewrite the input file");
        magnus_status s = magnus_mm_read(&T, plain_file.path, MAGNUS_FLOAT64, NULL, NULL);
        if (s != MAGNUS_SUCCESS || T->nnz != 1 || T->row_ptr[2] != 1 || T->col_idx[0] != 0 ||
            ((double *)T->values)[0] != -3.5)
            bad = fail("a valid file read after this input failed: %d %s", s, magnus_last_error());
        magnus_csr_free(&T);
    }
    return bad;
}

/* Block reading of plain and gzip files for the text readers (see file_input.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_input.h"
#include "internal.h"

/* A gzip reader on fd (taken over: gzclose closes it), reading from its current offset. */
static magnus_status open_gz(magnus_file_input *in, int fd) {
    in->gz = gzdopen(fd, "rb");
    if (!in->gz) {
        close(fd);
        return magnus_error(MAGNUS_ERROR_FILE_OPEN, "%s: cannot open gzip stream: out of memory",
                            in->path);
    }
    /* Fewer, larger reads of the compressed file: 1 MiB (zlib then holds 3 MiB of buffers),
     * or for a smaller file its size (at least zlib's default 8 KiB). */
    unsigned buffer = 1u << 20;
    if (in->size > 0 && in->size < (int64_t)buffer)
        buffer = in->size < 8192 ? 8192u : (unsigned)in->size;
    gzbuffer(in->gz, buffer);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_file_input_open(magnus_file_input *in, const char *path) {
    memset(in, 0, sizeof *in);
    in->path = path;
    /* "-" is standard input; a copy of its descriptor, so closing the input leaves it open. */
    bool is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return magnus_error(MAGNUS_ERROR_FILE_OPEN, "%s: cannot open: %s",
                            is_stdin ? "standard input" : path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0)
        in->size = (int64_t)st.st_size;
    else {
        /* A pipe, terminal or device (or a file read from the middle) cannot go back after
         * its first bytes are looked at: zlib reads it as it comes, decompressing gzip and
         * passing any other content through unchanged (it recognises gzip by content too). */
        in->streamed = true;
        return open_gz(in, fd);
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return magnus_error(MAGNUS_ERROR_FILE_OPEN, "%s: cannot open: %s", path, strerror(errno));
    }
    unsigned char magic[2] = {0, 0};
    size_t n = fread(magic, 1, 2, f);
    bool gzip = n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (!gzip) {
        /* Start again from byte 0 (a regular file can always seek). */
        if (n > 0 && fseek(f, 0, SEEK_SET) != 0) {
            fclose(f);
            return magnus_error(MAGNUS_ERROR_FILE_OPEN, "%s: cannot seek: %s", path,
                                strerror(errno));
        }
        in->file = f;
        return MAGNUS_SUCCESS;
    }
    int gz_fd = dup(fileno(f));
    fclose(f);
    if (gz_fd < 0 || lseek(gz_fd, 0, SEEK_SET) != 0) {
        if (gz_fd >= 0) close(gz_fd);
        return magnus_error(MAGNUS_ERROR_FILE_OPEN, "%s: cannot reopen: %s", path,
                            strerror(errno));
    }
    return open_gz(in, gz_fd);
}

magnus_status magnus_file_input_read(magnus_file_input *in, char *buf, size_t capacity,
                                     size_t *got, int64_t line) {
    *got = 0;
    if (in->file) {
        size_t n = fread(buf, 1, capacity, in->file);
        if (n < capacity && ferror(in->file))
            return magnus_error(MAGNUS_ERROR_FILE_READ, "%s:%lld: read error: %s", in->path,
                                (long long)line, strerror(errno));
        in->plain_offset += (int64_t)n;
        *got = n;
        return MAGNUS_SUCCESS;
    }
    if (!in->gz) return magnus_error(MAGNUS_ERROR_INTERNAL, "%s: file is not open", in->path);
    unsigned ask = capacity > (size_t)INT_MAX ? (unsigned)INT_MAX : (unsigned)capacity;
    int n = gzread(in->gz, buf, ask);
    int code = Z_OK;
    const char *what = gzerror(in->gz, &code);
    /* A stream cut short reads as end of file with Z_BUF_ERROR pending: report it then. */
    if (n < 0 || (n == 0 && code != Z_OK)) {
        if (code == Z_BUF_ERROR)
            return magnus_error(MAGNUS_ERROR_MM_TRUNCATED,
                                "%s:%lld: gzip stream ends early (truncated file): %s", in->path,
                                (long long)line, what);
        if (code == Z_ERRNO)
            return magnus_error(MAGNUS_ERROR_FILE_READ, "%s:%lld: read error: %s", in->path,
                                (long long)line, strerror(errno));
        return magnus_error(MAGNUS_ERROR_FILE_READ, "%s:%lld: corrupt gzip stream: %s", in->path,
                            (long long)line, what);
    }
    *got = (size_t)n;
    return MAGNUS_SUCCESS;
}

double magnus_file_input_fraction(const magnus_file_input *in) {
    if (in->size <= 0) return 0.0;
    int64_t done = in->plain_offset;
    if (in->gz) done = (int64_t)gzoffset(in->gz);
    double f = (double)done / (double)in->size;
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

void magnus_file_input_close(magnus_file_input *in) {
    if (in->file) fclose(in->file);
    if (in->gz) gzclose(in->gz);
    in->file = NULL;
    in->gz = NULL;
}

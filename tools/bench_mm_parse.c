/*
 * magnus-bench-mm-parse: speed of magnus_mm_read on uncompressed Matrix Market text.
 *
 *   magnus-bench-mm-parse [--repeat N] [--float|--double] [FILE.mtx | FILE.mtx.gz]
 *
 * A gzip input is first decompressed to a temporary .mtx (so the figure measures text
 * parsing and CSR assembly, not zlib); the .gz itself is also timed. Reports the best of N
 * reads (the file is in the page cache after the first), in MB/s of uncompressed text
 * (1 MB = 10^6 bytes), by the wall clock and by process CPU time (steadier on a shared
 * machine), next to a plain fread of the same file as the I/O ceiling.
 * Uses the public API only (plus zlib for the decompression).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "magnus/magnus.h"

#ifndef MAGNUS_SHARED_MATRICES
#define MAGNUS_SHARED_MATRICES "."
#endif

static double clock_seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static double now_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }
/* CPU time of this process (user + system, so the kernel's page-cache copies count): on a
 * shared machine it is less disturbed by other processes than the wall clock. */
static double cpu_seconds(void) { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

static int is_gzip(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    unsigned char m[2] = {0, 0};
    size_t n = fread(m, 1, 2, f);
    fclose(f);
    return n == 2 && m[0] == 0x1f && m[1] == 0x8b;
}

/* Decompresses gz_path into a new temporary file; returns its size or -1. */
static long long decompress_to(const char *gz_path, char *tmp_path, size_t size) {
    const char *dir = getenv("TMPDIR");
    snprintf(tmp_path, size, "%s/magnus-bench-XXXXXX.mtx", dir && *dir ? dir : "/tmp");
    int fd = mkstemps(tmp_path, 4);
    if (fd < 0) return -1;
    FILE *out = fdopen(fd, "wb");
    gzFile in = gzopen(gz_path, "rb");
    if (!out || !in) {
        if (out) fclose(out);
        if (in) gzclose(in);
        return -1;
    }
    static char buf[1 << 20];
    long long total = 0;
    int n;
    while ((n = gzread(in, buf, sizeof buf)) > 0) {
        if (fwrite(buf, 1, (size_t)n, out) != (size_t)n) n = -1;
        if (n < 0) break;
        total += n;
    }
    gzclose(in);
    if (fclose(out) != 0 || n < 0) return -1;
    return total;
}

/* Best wall and CPU times over `repeat` reads; nnz etc. from the last one. Returns 0 on
 * success. */
static int time_reads(const char *path, magnus_value_type type, int repeat, double *best,
                      double *best_cpu, magnus_csr_s *shape) {
    *best = *best_cpu = 1e300;
    for (int r = 0; r < repeat; r++) {
        magnus_csr A = NULL;
        double c0 = cpu_seconds(), t0 = now_seconds();
        magnus_status s = magnus_mm_read(&A, path, type, NULL, NULL);
        double t = now_seconds() - t0, c = cpu_seconds() - c0;
        if (c < *best_cpu) *best_cpu = c;
        if (s) {
            fprintf(stderr, "magnus_mm_read failed: %s: %s\n", magnus_status_string(s),
                    magnus_last_error());
            return 1;
        }
        if (t < *best) *best = t;
        shape->rows = A->rows;
        shape->cols = A->cols;
        shape->nnz = A->nnz;
        magnus_csr_free(&A);
    }
    return 0;
}

static double time_fread(const char *path, int repeat) {
    static char buf[1 << 22];
    double best = 1e300;
    for (int r = 0; r < repeat; r++) {
        FILE *f = fopen(path, "rb");
        if (!f) return -1;
        double t0 = now_seconds();
        while (fread(buf, 1, sizeof buf, f) == sizeof buf) continue;
        double t = now_seconds() - t0;
        fclose(f);
        if (t < best) best = t;
    }
    return best;
}

int main(int argc, char **argv) {
    int repeat = 5;
    magnus_value_type type = MAGNUS_FLOAT64;
    const char *path = MAGNUS_SHARED_MATRICES "/soc-Slashdot0902.mtx.gz";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--float") == 0) type = MAGNUS_FLOAT32;
        else if (strcmp(argv[i], "--double") == 0) type = MAGNUS_FLOAT64;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [--repeat N] [--float|--double] [FILE.mtx[.gz]]\n", argv[0]);
            return 2;
        } else path = argv[i];
    }
    if (repeat < 1) repeat = 1;
    int gz = is_gzip(path);
    if (gz < 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return 1;
    }
    char tmp[1024] = "";
    const char *text_path = path;
    long long text_bytes;
    double gz_best = 0, gz_cpu = 0;
    magnus_csr_s shape = {0};
    if (gz) {
        if (time_reads(path, type, repeat, &gz_best, &gz_cpu, &shape)) return 1;
        text_bytes = decompress_to(path, tmp, sizeof tmp);
        if (text_bytes < 0) {
            fprintf(stderr, "%s: cannot decompress to a temporary file\n", path);
            if (*tmp) remove(tmp);
            return 1;
        }
        text_path = tmp;
    } else {
        FILE *f = fopen(path, "rb");
        fseek(f, 0, SEEK_END);
        text_bytes = ftell(f);
        fclose(f);
    }
    double best, best_cpu;
    int failed = time_reads(text_path, type, repeat, &best, &best_cpu, &shape);
    double io = failed ? -1 : time_fread(text_path, repeat);
    if (*tmp) remove(tmp);
    if (failed) return 1;
    double mb = (double)text_bytes / 1e6;
    printf("file          %s\n", path);
    printf("matrix        %lld x %lld, %lld entries (after symmetry expansion)\n",
           (long long)shape.rows, (long long)shape.cols, (long long)shape.nnz);
    printf("text          %.2f MB uncompressed, values as %s\n", mb,
           type == MAGNUS_FLOAT32 ? "float32" : "float64");
    printf("parse .mtx    %.4f s best of %d = %.1f MB/s (CPU time %.4f s = %.1f MB/s)\n", best,
           repeat, mb / best, best_cpu, mb / best_cpu);
    printf("fread only    %.4f s = %.1f MB/s (page-cache ceiling)\n", io, mb / io);
    if (gz)
        printf("read .mtx.gz  %.4f s best of %d = %.1f MB/s of uncompressed text (CPU time %.4f s)\n",
               gz_best, repeat, mb / gz_best, gz_cpu);
    return 0;
}

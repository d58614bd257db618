/*
 * magnus-bench-scan: bandwidth of the device exclusive scan of 64-bit values
 * (magnus_prim_scan_u64), next to a device-to-device copy of the same bytes on the same
 * device in the same run, which is the ceiling a memory-bound scan can approach.
 *
 *   magnus-bench-scan [--log2n N] [--repeat R] [--device SPEC]
 *   magnus-bench-scan --list
 *
 *   --log2n N    scan 2^N values (default 28: 2 GiB in, 2 GiB out)
 *   --repeat R   timed runs of each operation after two warm-up runs (default 10)
 *   --device S   as MAGNUS_DEVICE ("cuda:0", "opencl:1", an index); default: the best device
 *   --list       print every device the probe finds (one per line, "backend:index" first)
 *                and the probe's diagnostics, then exit
 *
 * Times come from the runtime's device timers (events around the work on one queue); the
 * median of the R runs is reported, with the minimum. Bandwidth counts bytes read plus bytes
 * written, 10^9 bytes per GB: the scan reads and writes 8 bytes per value (2 x 8 x n; its
 * extra passes over the tile sums are not counted), the copy reads and writes 8 x n bytes.
 * The scan's result is checked (input all ones, so out[i] = i) at the start, middle and
 * end of the output. A benchmark, not a test: it needs a device and prints numbers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "primitives.h"

typedef struct options {
    int log2n;
    int repeat;
    const char *device;
    int list;
} options;

static int usage(const char *argv0) {
    fprintf(stderr, "usage: %s [--log2n N (10..34, default 28)] [--repeat R (1..1000, default 10)] "
                    "[--device SPEC]\n       %s --list\n", argv0, argv0);
    return 2;
}

static int parse_int(const char *text, int lo, int hi, int *out) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi) return 0;
    *out = (int)v;
    return 1;
}

static int parse_options(int argc, char **argv, options *o) {
    o->log2n = 28;
    o->repeat = 10;
    o->device = NULL;
    o->list = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--log2n") == 0 && v && parse_int(v, 10, 34, &o->log2n)) i++;
        else if (strcmp(a, "--repeat") == 0 && v && parse_int(v, 1, 1000, &o->repeat)) i++;
        else if (strcmp(a, "--device") == 0 && v) o->device = argv[++i];
        else if (strcmp(a, "--list") == 0) o->list = 1;
        else return 0;
    }
    return 1;
}

static int fail(const char *what, magnus_status s) {
    fprintf(stderr, "magnus-bench-scan: %s: %s: %s\n", what, magnus_status_string(s),
            magnus_last_error());
    return 1;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef enum { OP_SCAN, OP_COPY } operation;

/* One run of `op` on the main queue, timed with device events. */
static magnus_status timed_run(magnus_context ctx, operation op, magnus_dbuf *out,
                               const magnus_dbuf *in, uint64_t n, double *ms) {
    magnus_timer t = {0};
    magnus_status s = magnus_timer_start(ctx, MAGNUS_QUEUE_MAIN, &t);
    if (s) return s;
    if (op == OP_SCAN)
        s = magnus_prim_scan_u64(ctx, MAGNUS_QUEUE_MAIN, out, in, n, NULL);
    else
        s = magnus_dbuf_copy(ctx, MAGNUS_QUEUE_MAIN, out, 0, in, 0, (size_t)n * sizeof(uint64_t));
    magnus_status stop = magnus_timer_stop(ctx, MAGNUS_QUEUE_MAIN, &t);
    if (!s) s = stop;
    magnus_status elapsed = stop ? stop : magnus_timer_elapsed_ms(ctx, &t, ms);
    return s ? s : elapsed;
}

/* Median and minimum milliseconds of `repeat` runs after two warm-up runs. */
static magnus_status measure(magnus_context ctx, operation op, magnus_dbuf *out,
                             const magnus_dbuf *in, uint64_t n, int repeat, double *med,
                             double *min) {
    double *ms = malloc((size_t)repeat * sizeof *ms);
    if (!ms) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "timings");
    magnus_status s = MAGNUS_SUCCESS;
    double ignored;
    for (int i = 0; i < 2 && !s; i++) s = timed_run(ctx, op, out, in, n, &ignored);
    for (int i = 0; i < repeat && !s; i++) s = timed_run(ctx, op, out, in, n, &ms[i]);
    if (!s) {
        *med = median(ms, repeat);
        *min = ms[0]; /* sorted by median() */
    }
    free(ms);
    return s;
}

/* out[i] == i for a scan of ones: checks 1024 values at the start, middle and end. */
static int check_scan(magnus_context ctx, const magnus_dbuf *out, uint64_t n) {
    enum { SAMPLE = 1024 };
    static uint64_t got[SAMPLE];
    uint64_t starts[3] = {0, n / 2, n > SAMPLE ? n - SAMPLE : 0};
    for (int k = 0; k < 3; k++) {
        uint64_t first = starts[k], count = n - first < SAMPLE ? n - first : SAMPLE;
        magnus_status s = magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, got, out,
                                           (size_t)first * sizeof(uint64_t),
                                           (size_t)count * sizeof(uint64_t));
        if (s) return fail("reading the scan back", s);
        for (uint64_t i = 0; i < count; i++)
            if (got[i] != first + i) {
                fprintf(stderr, "magnus-bench-scan: WRONG RESULT: out[%llu] = %llu, expected %llu\n",
                        (unsigned long long)(first + i), (unsigned long long)got[i],
                        (unsigned long long)(first + i));
                return 1;
            }
    }
    return 0;
}

/* One line per device: "backend:index<TAB>name<TAB>vendor<TAB>driver<TAB>gpu|cpu<TAB>sizes". */
static int list_devices(void) {
    size_t count = 0;
    magnus_status s = magnus_device_probe(NULL, 0, &count);
    if (s) return fail("probing devices", s);
    magnus_device_info *devices = calloc(count ? count : 1, sizeof *devices);
    if (!devices) return fail("probing devices", MAGNUS_ERROR_OUT_OF_HOST_MEMORY);
    size_t again = 0;
    if ((s = magnus_device_probe(devices, count, &again))) {
        free(devices);
        return fail("probing devices", s);
    }
    for (size_t i = 0; i < count && i < again; i++) {
        const magnus_device_info *d = &devices[i];
        printf("%s:%d\t%s\t%s\t%s\t%s\tglobal %.1f GiB, local %llu KiB, %d compute units, "
               "subgroup %d, fp64 %d\n",
               magnus_backend_name(d->backend), d->index, d->name, d->vendor, d->driver_version,
               d->is_cpu ? "cpu" : "gpu", (double)d->global_mem_bytes / (1024.0 * 1024 * 1024),
               (unsigned long long)(d->local_mem_bytes / 1024), d->compute_units,
               d->num_subgroup_sizes > 0 ? d->subgroup_sizes[0] : 0, d->fp64);
    }
    printf("probe:\n%s\n", magnus_probe_diagnostics());
    free(devices);
    return 0;
}

static int run(const options *o) {
    /* --device is a device spec (magnus.h), resolved without MAGNUS_DEVICE so that an
     * error names the option */
    magnus_device_info dev;
    magnus_status s = o->device ? magnus_device_find(&dev, o->device) : magnus_device_select(&dev);
    if (s) return fail(o->device ? "--device" : "selecting a device", s);
    magnus_context ctx = NULL;
    if ((s = magnus_context_create(&ctx, &dev, NULL))) return fail("creating a context", s);

    uint64_t n = (uint64_t)1 << o->log2n;
    size_t bytes = (size_t)n * sizeof(uint64_t);
    magnus_dbuf in = {0}, out = {0};
    int rc = 1;
    double scan_med = 0, scan_min = 0, copy_med = 0, copy_min = 0;
    if ((s = magnus_dbuf_alloc(ctx, bytes, &in)) || (s = magnus_dbuf_alloc(ctx, bytes, &out))) {
        fail("allocating two buffers", s);
        goto done;
    }
    if ((s = magnus_prim_fill_u64(ctx, MAGNUS_QUEUE_MAIN, &in, 0, n, 1))) {
        fail("filling the input", s);
        goto done;
    }
    if ((s = measure(ctx, OP_SCAN, &out, &in, n, o->repeat, &scan_med, &scan_min))) {
        fail("scan", s);
        goto done;
    }
    if (check_scan(ctx, &out, n)) goto done;
    if ((s = measure(ctx, OP_COPY, &out, &in, n, o->repeat, &copy_med, &copy_min))) {
        fail("copy", s);
        goto done;
    }

    double scan_bytes = 2.0 * (double)bytes, copy_bytes = 2.0 * (double)bytes;
    double scan_gbs = scan_bytes / (scan_med * 1e6), copy_gbs = copy_bytes / (copy_med * 1e6);
    printf("device:         %s:%d %s (%s, driver %s)\n", magnus_backend_name(dev.backend),
           dev.index, dev.name, dev.vendor, dev.driver_version);
    printf("values:         2^%d = %llu x 8 bytes (%.3f GB each way)\n", o->log2n,
           (unsigned long long)n, (double)bytes / 1e9);
    printf("runs:           %d timed after 2 warm-up, median (min)\n", o->repeat);
    printf("scan_u64:       %.3f ms (%.3f)  %.1f GB/s read+write\n", scan_med, scan_min, scan_gbs);
    printf("copy d2d:       %.3f ms (%.3f)  %.1f GB/s read+write\n", copy_med, copy_min, copy_gbs);
    printf("scan/copy:      %.3f\n", scan_gbs / copy_gbs);
    printf("result:         checked (out[i] == i at start, middle, end)\n");
    rc = 0;
done:
    magnus_dbuf_free(ctx, &in);
    magnus_dbuf_free(ctx, &out);
    magnus_context_free(&ctx);
    return rc;
}

int main(int argc, char **argv) {
    options o;
    if (!parse_options(argc, argv, &o)) return usage(argv[0]);
    return o.list ? list_devices() : run(&o);
}

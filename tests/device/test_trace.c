/*
 * MAGNUS_TRACE's timeline (part of test_probe; runtime/device/trace.c): with
 * MAGNUS_TRACE_DEVICE=1 every kernel launch of a multiply has one "dtrace" line, in launch
 * order, with the same kernel name and group count and device times that do not run
 * backwards; without it there are none. And the light queue's urgency knob
 * (MAGNUS_URGENT_LIGHT): a value other than 0 or 1 is refused by name, and both values give
 * the same product. The host's other device calls (timer events, queue ordering, fills) have
 * lines of their own, and the hash algorithm's queues follow MAGNUS_HASH_SIDE_QUEUES. Skipped
 * without a device.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device_runtime.h"
#include "probe_test_util.h"
#include "status_test_util.h"

#define MAX_LAUNCHES 4096

typedef struct launch_line {
    char name[128];
    unsigned long long groups;
} launch_line;

typedef struct parsed_trace {
    int multiplies;
    int nlaunch, ndevice;
    launch_line launch[MAX_LAUNCHES], device[MAX_LAUNCHES];
    int backwards; /* dtrace lines whose end precedes their start, or negative times */
    int ntimer_start, ntimer_stop, norder, nfill; /* host calls between the launches */
} parsed_trace;

static magnus_csr test_matrix(void) {
    magnus_rmat_options o;
    ASSERT_OK(magnus_rmat_options_init(&o));
    o.scale = 9;
    o.nnz_per_row = 8;
    magnus_csr A;
    ASSERT_OK(magnus_gen_rmat(&A, &o, NULL, NULL));
    return A;
}

/* One multiply A·A by `algorithm` in a context created while the variables are set, with a
 * report when `report` is set (its phases then get device timers); the trace lands in
 * `path`. */
static void traced_multiply_report(const char *path, const char *device_trace, magnus_csr A,
                                   magnus_csr *C, magnus_algorithm algorithm, bool report) {
    magnus_device_info d = need_device();
    setenv("MAGNUS_TRACE", path, 1);
    setenv("MAGNUS_TRACE_DEVICE", device_trace, 1);
    magnus_context ctx = new_context(&d, 0, 0);
    unsetenv("MAGNUS_TRACE");
    unsetenv("MAGNUS_TRACE_DEVICE");
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    opt.algorithm = algorithm;
    magnus_report r;
    ASSERT_OK(magnus_spgemm(C, ctx, A, A, &opt, report ? &r : NULL));
    ASSERT_OK(magnus_context_free(&ctx)); /* closes (and flushes) the trace */
}

static void traced_multiply(const char *path, const char *device_trace, magnus_csr A,
                            magnus_csr *C, bool report) {
    traced_multiply_report(path, device_trace, A, C, MAGNUS_ALGORITHM_MAGNUS, report);
}

/* The launches between the multiply's mark and its end, and the dtrace lines after it. */
static void parse(const char *path, parsed_trace *t) {
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "no trace at %s", path);
    char line[512];
    int inside = 0;
    while (fgets(line, sizeof line, f)) {
        double start, dur;
        char kind[16], what[128];
        unsigned long long n;
        if (strncmp(line, "dtrace ", 7) == 0) {
            double s, e;
            int q;
            cr_assert_eq(sscanf(line, "dtrace %lf %lf %d %llu %127s", &s, &e, &q, &n, what), 5,
                         "malformed: %s", line);
            cr_assert(q >= 0 && q < MAGNUS_QUEUE_COUNT, "queue %d: %s", q, line);
            if (t->ndevice < MAX_LAUNCHES) {
                snprintf(t->device[t->ndevice].name, sizeof t->device[0].name, "%s", what);
                t->device[t->ndevice].groups = n;
            }
            t->ndevice++;
            if (s < 0 || e < s) t->backwards++;
            continue;
        }
        what[0] = 0;
        if (sscanf(line, "trace %lf %lf %15s %llu %127s", &start, &dur, kind, &n, what) < 4)
            continue;
        if (strcmp(kind, "mark") == 0 && strncmp(what, "multiply", 8) == 0) {
            inside = 1;
            t->multiplies++;
        } else if (strcmp(kind, "mark") == 0 && strcmp(what, "end") == 0) {
            inside = 0;
        } else if (inside && strcmp(kind, "launch") == 0) {
            if (t->nlaunch < MAX_LAUNCHES) {
                snprintf(t->launch[t->nlaunch].name, sizeof t->launch[0].name, "%s", what);
                t->launch[t->nlaunch].groups = n;
            }
            t->nlaunch++;
        } else if (inside && strcmp(kind, "timer") == 0) {
            if (strcmp(what, "start") == 0) t->ntimer_start++;
            else if (strcmp(what, "stop") == 0) t->ntimer_stop++;
        } else if (inside && strcmp(kind, "order") == 0) {
            cr_assert(strcmp(what, "fork") == 0 || strcmp(what, "depend") == 0, "order: %s", line);
            cr_assert(n == 1 || n == 2, "order with %llu waiting queues: %s", n, line);
            t->norder++;
        } else if (inside && strcmp(kind, "fill") == 0) {
            t->nfill++;
        }
    }
    fclose(f);
}

static void temp_path(char *path, size_t size) {
    snprintf(path, size, "/tmp/magnus-trace-test-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0, "mkstemp");
    close(fd);
}

/* One traced multiply (MAGNUS_TRACE_DEVICE=device_trace), parsed into *t. */
static void trace_one_multiply(const char *device_trace, parsed_trace *t, bool report) {
    char path[64];
    temp_path(path, sizeof path);
    magnus_csr A = test_matrix(), C = NULL;
    traced_multiply(path, device_trace, A, &C, report);
    parse(path, t);
    unlink(path);
    magnus_csr_free(&C);
    magnus_csr_free(&A);
}

Test(trace, device_times_of_every_launch) {
    static parsed_trace t;
    trace_one_multiply("1", &t, false);
    cr_assert_eq(t.multiplies, 1);
    cr_assert_gt(t.nlaunch, 5, "only %d launches traced", t.nlaunch);
    cr_assert_leq(t.nlaunch, MAX_LAUNCHES);
    /* a backend whose events carry no times writes none (trace.c); PoCL, CUDA and the Level
     * Zero driver all time them */
    if (t.ndevice == 0) cr_skip_test("this backend's events carry no times");
    cr_assert_eq(t.ndevice, t.nlaunch, "%d dtrace lines for %d launches", t.ndevice, t.nlaunch);
    for (int i = 0; i < t.nlaunch; i++) {
        cr_assert_str_eq(t.device[i].name, t.launch[i].name, "launch %d", i);
        cr_assert_eq(t.device[i].groups, t.launch[i].groups, "launch %d (%s)", i,
                     t.launch[i].name);
    }
    cr_assert_eq(t.backwards, 0, "%d dtrace lines run backwards", t.backwards);
}

Test(trace, no_device_times_unless_asked) {
    static parsed_trace t;
    trace_one_multiply("0", &t, false);
    cr_assert_eq(t.multiplies, 1);
    cr_assert_gt(t.nlaunch, 5);
    cr_assert_eq(t.ndevice, 0, "dtrace lines without MAGNUS_TRACE_DEVICE=1");
}

/* The host's calls between launches are named too (the device timers' events, the queues'
 * ordering, the fills), so that a trace accounts for the host's time between launches. The
 * phases' device timers run only for a caller who asked for a report. */
Test(trace, host_calls_between_launches) {
    static parsed_trace t;
    trace_one_multiply("0", &t, false);
    cr_assert_eq(t.multiplies, 1);
    cr_assert_eq(t.ntimer_start + t.ntimer_stop, 0, "%d timer events without a report",
                 t.ntimer_start + t.ntimer_stop);
    cr_assert_gt(t.norder, 0, "no queue ordering traced");
    cr_assert_gt(t.nfill, 0, "no device fill traced");
    trace_one_multiply("0", &t, true);
    cr_assert_eq(t.multiplies, 1);
    cr_assert_gt(t.ntimer_start, 0, "no device timer traced");
    cr_assert_eq(t.ntimer_start, t.ntimer_stop, "%d timer starts, %d stops", t.ntimer_start,
                 t.ntimer_stop);
    cr_assert_gt(t.norder, 0, "no queue ordering traced");
    cr_assert_gt(t.nfill, 0, "no device fill traced");
}

/* A context asked for with `variable`=2 (a knob of 0 or 1) is refused, naming it. */
static void refused_by_name(const char *variable) {
    magnus_device_info d = need_device();
    magnus_context_options opt;
    ASSERT_OK(magnus_context_options_init(&opt));
    magnus_context ctx = NULL;
    setenv(variable, "2", 1);
    magnus_status s = magnus_context_create(&ctx, &d, &opt);
    unsetenv(variable);
    cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "%s=2 gave %s", variable,
                 magnus_status_string(s));
    cr_assert_null(ctx);
    cr_assert(strstr(magnus_last_error(), variable), "message: %s", magnus_last_error());
}

/* The two float32 products have one structure and values within rounding; both are freed. */
static void same_products_then_free(magnus_csr C[2]) {
    cr_assert_eq(C[0]->nnz, C[1]->nnz);
    cr_assert_arr_eq(C[0]->row_ptr, C[1]->row_ptr, (size_t)(C[0]->rows + 1) * sizeof(int64_t));
    cr_assert_arr_eq(C[0]->col_idx, C[1]->col_idx, (size_t)C[0]->nnz * sizeof(int32_t));
    const float *v0 = C[0]->values, *v1 = C[1]->values; /* float32 R-MAT */
    for (int64_t i = 0; i < C[0]->nnz; i++)
        cr_assert_float_eq(v0[i], v1[i], 1e-5f * (1.0f + (v0[i] < 0 ? -v0[i] : v0[i])),
                           "entry %lld", (long long)i);
    magnus_csr_free(&C[0]);
    magnus_csr_free(&C[1]);
}

/* The hash algorithm's phases of a single launch (a band: every row in one bin) run on the
 * main queue with no ordering between queues; with every bin its own launch
 * (MAGNUS_HASH_MERGE_GROUPS=0), R-MAT's phases of several launches order their queues. */
static void hash_trace(magnus_csr A, const char *merge_groups, parsed_trace *t) {
    char path[64];
    temp_path(path, sizeof path);
    magnus_csr C = NULL;
    setenv("MAGNUS_HASH_MERGE_GROUPS", merge_groups, 1);
    traced_multiply_report(path, "0", A, &C, MAGNUS_ALGORITHM_HASH, false);
    unsetenv("MAGNUS_HASH_MERGE_GROUPS");
    parse(path, t);
    unlink(path);
    magnus_csr_free(&C);
}

Test(trace, one_launch_phases_order_no_queues) {
    static parsed_trace t;
    magnus_csr band = NULL, rmat = test_matrix();
    ASSERT_OK(magnus_gen_banded(&band, 3000, 1, 1, 7, MAGNUS_FLOAT64));
    hash_trace(band, "0", &t);
    cr_assert_eq(t.multiplies, 1);
    cr_assert_gt(t.nlaunch, 2, "only %d launches traced", t.nlaunch);
    cr_assert_eq(t.norder, 0, "%d queue orderings for phases of one launch each", t.norder);
    hash_trace(rmat, "0", &t);
    cr_assert_eq(t.multiplies, 1);
    cr_assert_gt(t.norder, 0, "R-MAT with unmerged bins ordered no queues");
    magnus_csr_free(&band);
    magnus_csr_free(&rmat);
}

/* MAGNUS_HASH_SIDE_QUEUES=0: every hash phase on the main queue, so even R-MAT's phases of
 * several launches order no queue, and C is the one the side queues give; a value other than
 * 0 or 1 is refused by name. */
Test(trace, hash_side_queues_off_orders_no_queues) {
    static parsed_trace t[2];
    magnus_csr A = test_matrix(), C[2] = {NULL, NULL};
    setenv("MAGNUS_HASH_MERGE_GROUPS", "0", 1);
    for (int side = 0; side < 2; side++) {
        char path[64];
        temp_path(path, sizeof path);
        setenv("MAGNUS_HASH_SIDE_QUEUES", side ? "1" : "0", 1);
        traced_multiply_report(path, "0", A, &C[side], MAGNUS_ALGORITHM_HASH, false);
        parse(path, &t[side]);
        unlink(path);
    }
    unsetenv("MAGNUS_HASH_MERGE_GROUPS");
    unsetenv("MAGNUS_HASH_SIDE_QUEUES");
    cr_assert_gt(t[1].norder, 0, "R-MAT with unmerged bins ordered no queues");
    cr_assert_eq(t[0].norder, 0, "%d queue orderings with MAGNUS_HASH_SIDE_QUEUES=0",
                 t[0].norder);
    cr_assert_eq(t[0].nlaunch, t[1].nlaunch, "the same launches on one queue");
    cr_assert_eq(t[0].ntimer_start + t[1].ntimer_start, 0, "hash timed its setup unasked");
    same_products_then_free(C);
    magnus_csr_free(&A);

    refused_by_name("MAGNUS_HASH_SIDE_QUEUES");
}

Test(trace, urgent_light_knob) {
    magnus_device_info d = need_device();
    refused_by_name("MAGNUS_URGENT_LIGHT");
    /* either value multiplies alike */
    magnus_context ctx = NULL;
    magnus_csr A = test_matrix(), C[2] = {NULL, NULL};
    for (int u = 0; u < 2; u++) {
        setenv("MAGNUS_URGENT_LIGHT", u ? "1" : "0", 1);
        ctx = new_context(&d, 0, 0);
        magnus_spgemm_options so;
        ASSERT_OK(magnus_spgemm_options_init(&so));
        so.algorithm = MAGNUS_ALGORITHM_MAGNUS;
        ASSERT_OK(magnus_spgemm(&C[u], ctx, A, A, &so, NULL));
        ASSERT_OK(magnus_context_free(&ctx));
    }
    unsetenv("MAGNUS_URGENT_LIGHT");
    same_products_then_free(C);
    magnus_csr_free(&A);
}

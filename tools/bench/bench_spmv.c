/*
 * `magnus bench --op spmv`: every SpMV format on every magnus device of the systems (one per
 * device), and cuSPARSE's generic SpMV in each of its variants (bench_cusparse_spmv.c) where a
 * cuSPARSE system is, per input, y = A*x (alpha 1, beta 0). Both sides the same way: A and x
 * on the device once per input; per format or variant, outside the timing, its conversion
 * (magnus's plan, cuSPARSE's preprocess: each alone between device events, the conversion_ms
 * column; cuSPARSE's host-made COO rows or sliced ELL, uploaded, untimed) and y filled with
 * NaN; one warm-up product; then --runs products, each
 * alone between two device events, the device idle before each; their median and minimum
 * (bench_samples_stats, as the SpGEMM bench's), GB/s of one byte floor per input
 * (spmv_floor_bytes) and that rate's share of the device's copy bandwidth. The last product's
 * y is checked against A·x in double on the host. bench_spmv_output.c adds each magnus row's
 * speedup over the input's fastest verified cuSPARSE variant and writes the rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_spmv_internal.h"
#include "cli_matrix.h"

static const magnus_spmv_format spmv_formats[] = {MAGNUS_SPMV_CSR, MAGNUS_SPMV_CSR_BALANCED,
                                                  MAGNUS_SPMV_COO, MAGNUS_SPMV_HYBRID,
                                                  MAGNUS_SPMV_SELL_P, MAGNUS_SPMV_AUTO};
#define SPMV_NFORMATS (int)(sizeof spmv_formats / sizeof spmv_formats[0])

/*
 * The fewest bytes any y = A*x (beta 0) must move, the same for every row of the input so
 * that their GB/s compare: A's CSR with 32-bit row pointers (the narrowest that holds nnz;
 * 64-bit past 2^31 entries) and 32-bit columns, the values, the entries of x that some column
 * of A selects (an unselected one need not be read), and y written. magnus's 64-bit row
 * pointers, COO's row indices and the sliced ELL's padding are traffic of their formats, not
 * of the floor.
 */
static uint64_t spmv_floor_bytes(const magnus_csr_s *A) {
    const uint64_t vb = magnus_value_size(A->type);
    const uint64_t pointer = A->nnz <= INT32_MAX ? 4 : 8;
    uint64_t selected = 0;
    unsigned char *seen = calloc((size_t)A->cols + 1, 1);
    for (int64_t k = 0; k < A->nnz; k++) {
        if (!seen) {
            selected = (uint64_t)A->cols; /* out of memory: every entry of x */
            break;
        }
        const int32_t c = A->col_idx[k];
        selected += !seen[c];
        seen[c] = 1;
    }
    free(seen);
    return pointer * ((uint64_t)A->rows + 1) + (4 + vb) * (uint64_t)A->nnz + vb * selected +
           vb * (uint64_t)A->rows;
}

/* y against A·x in double: the largest |y - ref| / (|A|·|x|) over the rows (NaN for a y that
 * is not a number: a row left unwritten keeps its NaN). */
static double spmv_error(const magnus_csr_s *A, const void *x, const void *y) {
    double worst = 0;
    const bool f64 = A->type == MAGNUS_FLOAT64;
    for (int64_t i = 0; i < A->rows; i++) {
        double sum = 0, mag = 0;
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            double a = f64 ? ((const double *)A->values)[k] : ((const float *)A->values)[k];
            int32_t c = A->col_idx[k];
            double xv = f64 ? ((const double *)x)[c] : ((const float *)x)[c];
            sum += a * xv;
            mag += fabs(a * xv);
        }
        double got = f64 ? ((const double *)y)[i] : ((const float *)y)[i];
        double err = fabs(got - sum), rel = err == 0 ? 0 : mag > 0 ? err / mag : INFINITY;
        if (!(rel <= worst)) worst = rel;
    }
    return worst;
}

/* A measured row: the statistics of `times` (bench_samples_stats, for both sides), the rate
 * of the floor, y checked against A·x. */
static void finish_row(spmv_row *r, double *times, int runs, uint64_t floor_bytes,
                       double copy_gbps, const magnus_csr_s *A, const void *x, const void *y) {
    const bench_samples samples = {times, runs, runs};
    const bench_stats st = bench_samples_stats(&samples);
    r->median_ms = st.median;
    r->min_ms = st.min;
    r->floor_bytes = floor_bytes;
    r->gbps = r->median_ms > 0 ? (double)floor_bytes / (r->median_ms * 1e6) : 0;
    r->copy_fraction = copy_gbps > 0 ? r->gbps / copy_gbps : 0;
    r->error = spmv_error(A, x, y);
    r->verified = r->error <= (A->type == MAGNUS_FLOAT64 ? 1e-10 : 1e-4);
    if (!r->verified && isnan(r->error))
        snprintf(r->error_text, sizeof r->error_text,
                 "y holds NaN (filled with NaN before the warm-up: rows left unwritten?)");
    else if (!r->verified)
        snprintf(r->error_text, sizeof r->error_text, "y differs from A*x by %.3g of |A|*|x|",
                 r->error);
}

/* What one input's rows need. */
typedef struct spmv_input {
    const magnus_csr_s *A;
    const void *x;
    void *y;
    const void *poison; /* rows values of NaN */
    uint64_t floor_bytes;
    int runs;
} spmv_input;

static void set_failure(spmv_row *r, magnus_status s) {
    snprintf(r->error_text, sizeof r->error_text, "%s: %s", magnus_status_string(s),
             magnus_last_error());
}

/* One format on one device (A and x there): fills r. */
static void run_format(spmv_row *r, magnus_context ctx, const spmv_input *in,
                       magnus_device_csr dA, magnus_device_vector dx, magnus_spmv_format f,
                       double copy_gbps) {
    const magnus_csr_s *A = in->A;
    magnus_spmv_options opt;
    magnus_spmv_options_init(&opt);
    opt.format = f;
    magnus_spmv_plan plan = NULL;
    magnus_spmv_report rep;
    magnus_device_vector dy = NULL;
    double *times = malloc((size_t)in->runs * sizeof *times);
    magnus_status s = times ? MAGNUS_SUCCESS : MAGNUS_ERROR_OUT_OF_HOST_MEMORY;
    /* y of NaN, a vector of its own: a format that writes nothing fails the check */
    if (!s) s = magnus_device_vector_upload(&dy, ctx, A->type, A->rows, in->poison);
    if (!s) s = magnus_spmv_plan_create(&plan, ctx, dA, &opt, &rep);
    if (!s) {
        r->conversion_ms = rep.conversion_ms;
        r->format_bytes = rep.format_bytes;
        r->ran = magnus_spmv_format_name(rep.format);
        r->why = rep.format_reason ? rep.format_reason : "";
        r->hot_columns = rep.hot_columns;
        s = magnus_spmv_plan_execute(plan, dy, 1, dx, 0, &rep); /* warm-up */
    }
    for (int i = 0; i < in->runs && !s; i++) {
        s = magnus_spmv_plan_execute(plan, dy, 1, dx, 0, &rep);
        times[i] = rep.product_ms;
    }
    if (!s) {
        memcpy(in->y, in->poison, (size_t)A->rows * magnus_value_size(A->type));
        s = magnus_device_vector_download(in->y, A->rows, dy);
    }
    if (s) {
        set_failure(r, s);
    } else {
        r->outcome = BENCH_OUTCOME_OK;
        finish_row(r, times, in->runs, in->floor_bytes, copy_gbps, A, in->x, in->y);
    }
    magnus_spmv_plan_free(&plan);
    magnus_device_vector_free(&dy);
    free(times);
}

/* Every format on a magnus system's device. */
static void run_magnus(spmv_output *o, bench_system *sys, const char *name, const spmv_input *in) {
    const magnus_csr_s *A = in->A;
    magnus_device_csr dA = NULL;
    magnus_device_vector dx = NULL;
    magnus_status s = magnus_device_csr_upload(&dA, sys->ctx, A);
    if (!s) s = magnus_device_vector_upload(&dx, sys->ctx, A->type, A->cols, in->x);
    for (int f = 0; f < SPMV_NFORMATS; f++) {
        spmv_row r = {.input = name, .sys = sys, .system = sys->device_label,
                      .format = magnus_spmv_format_name(spmv_formats[f]), .ran = "-",
                      .outcome = BENCH_OUTCOME_FAILED, .rows = A->rows, .cols = A->cols,
                      .nnz = A->nnz, .floor_bytes = in->floor_bytes};
        if (s) set_failure(&r, s);
        else run_format(&r, sys->ctx, in, dA, dx, spmv_formats[f], sys->copy_gbps);
        bench_spmv_print_row(&r);
        bench_spmv_output_add(o, &r);
    }
    magnus_device_vector_free(&dx);
    magnus_device_csr_free(&dA);
}

/* Every cuSPARSE variant on its device, measured and verified as the formats are. */
static void run_cusparse(spmv_output *o, bench_system *sys, bench_system *systems, int nsystems,
                         const char *name, const spmv_input *in) {
    const magnus_csr_s *A = in->A;
    /* the copy bandwidth of the same device, measured for its magnus system */
    double copy_gbps = sys->copy_gbps;
    for (int m = 0; m < nsystems && copy_gbps <= 0; m++)
        if (systems[m].kind == BENCH_SYSTEM_MAGNUS &&
            !strcmp(systems[m].device_label, sys->device_label))
            copy_gbps = systems[m].copy_gbps;
    char why[BENCH_TEXT] = "";
    bench_cusparse_spmv *dev = NULL;
    bench_cusparse_spmv_open(&dev, sys->cusparse, A, in->x, why, sizeof why);
    double *times = malloc((size_t)in->runs * sizeof *times);
    for (int v = 0; v < bench_cusparse_spmv_variants(); v++) {
        spmv_row r = {.input = name, .sys = sys, .system = sys->id, .format = "cusparse",
                      .ran = bench_cusparse_spmv_algorithm(v), .cusparse = true,
                      .preprocess = bench_cusparse_spmv_preprocesses(v),
                      .outcome = BENCH_OUTCOME_FAILED, .rows = A->rows, .cols = A->cols,
                      .nnz = A->nnz, .floor_bytes = in->floor_bytes};
        if (!dev || !times)
            snprintf(r.error_text, sizeof r.error_text, "%s", times ? why : "out of host memory");
        else
            r.outcome = bench_cusparse_spmv_time(dev, v, in->runs, times, &r.conversion_ms,
                                                 in->y, r.error_text, sizeof r.error_text);
        if (r.outcome == BENCH_OUTCOME_OK)
            finish_row(&r, times, in->runs, in->floor_bytes, copy_gbps, A, in->x, in->y);
        bench_spmv_print_row(&r);
        bench_spmv_output_add(o, &r);
    }
    free(times);
    bench_cusparse_spmv_close(&dev);
}

int bench_spmv_run(const bench_input_list *inputs, bench_system *systems, int nsystems,
                   magnus_value_type type, int runs, bench_spmv_files *files) {
    spmv_output o;
    bench_spmv_output_init(&o, files);
    for (int k = 0; k < nsystems; k++)
        if (systems[k].kind == BENCH_SYSTEM_CUSPARSE && systems[k].cusparse &&
            !systems[k].unavailable[0] && !bench_cusparse_has_spmv(systems[k].cusparse))
            fprintf(stderr, "magnus bench: %s: no generic SpMV in %s, left out\n", systems[k].id,
                    bench_cusparse_describe(systems[k].cusparse));
    int load_failures = 0;
    for (int i = 0; i < inputs->count; i++) {
        const bench_input *in = &inputs->items[i];
        magnus_csr A = NULL;
        double seconds = 0;
        /* auto: a file's field decides (cli_matrix_load), a generator makes float32 */
        const magnus_value_type want =
            type == MAGNUS_MM_TYPE_AUTO && cli_is_generator_spec(in->a_source) ? MAGNUS_FLOAT32
                                                                               : type;
        if (cli_matrix_load(&A, &seconds, in->a_source, want, NULL)) {
            load_failures++;
            continue;
        }
        const size_t vb = magnus_value_size(A->type);
        /* x, y and y's poison through the host memory limit, as matrices: a file declaring
         * 2^31 - 1 columns is refused by name instead of allocating 16 GiB */
        char what[200];
        snprintf(what, sizeof what, "%s: x and y (%lld + %lld values)", in->name,
                 (long long)A->cols, (long long)A->rows);
        magnus_status vs = magnus_host_memory_check(
            ((uint64_t)A->cols + 2 * (uint64_t)A->rows) * vb + 24, what);
        void *x = vs ? NULL : malloc((size_t)A->cols * vb + 8);
        void *y = vs ? NULL : malloc((size_t)A->rows * vb + 8);
        void *poison = vs ? NULL : malloc((size_t)A->rows * vb + 8);
        if (vs || !x || !y || !poison) {
            if (vs) fprintf(stderr, "magnus bench: %s\n", magnus_last_error());
            else fprintf(stderr, "magnus bench: out of host memory for %s\n", what);
            load_failures++;
            free(x);
            free(y);
            free(poison);
            magnus_csr_free(&A);
            continue;
        }
        for (int64_t j = 0; x && j < A->cols; j++) {
            double v = 0.5 + (double)((j * 2654435761u) % 1000) / 2000.0;
            if (A->type == MAGNUS_FLOAT64) ((double *)x)[j] = v;
            else ((float *)x)[j] = (float)v;
        }
        for (int64_t j = 0; poison && j < A->rows; j++) {
            if (A->type == MAGNUS_FLOAT64) ((double *)poison)[j] = NAN;
            else ((float *)poison)[j] = NAN;
        }
        const spmv_input data = {A, x, y, poison, spmv_floor_bytes(A), runs};
        const int first = o.count;
        for (int k = 0; x && y && poison && k < nsystems; k++) {
            bench_system *sys = &systems[k];
            if (sys->kind == BENCH_SYSTEM_CUSPARSE && sys->cusparse && !sys->unavailable[0] &&
                bench_cusparse_has_spmv(sys->cusparse))
                run_cusparse(&o, sys, systems, nsystems, in->name, &data);
            else if (sys->kind == BENCH_SYSTEM_MAGNUS && !sys->unavailable[0] && sys->owns_ctx)
                run_magnus(&o, sys, in->name, &data);
        }
        if (!x || !y || !poison) {
            fprintf(stderr, "magnus bench: %s: out of host memory for x and y\n", in->name);
            load_failures++;
        }
        bench_spmv_finish_input(&o, first);
        free(x);
        free(y);
        free(poison);
        magnus_csr_free(&A);
    }
    int failures = load_failures;
    for (int i = 0; i < o.count; i++)
        failures += o.rows[i].outcome == BENCH_OUTCOME_FAILED ||
                    (o.rows[i].outcome == BENCH_OUTCOME_OK && !o.rows[i].verified);
    bench_spmv_output_close(&o);
    if (failures) {
        fprintf(stderr, "magnus bench: %d SpMV run%s failed or did NOT verify\n", failures,
                failures == 1 ? "" : "s");
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

/*
 * `magnus bench --op spmv`: every SpMV format on every magnus device (the --systems /
 * defaults of the SpGEMM bench), and cuSPARSE's generic SpMV beside them where a cuSPARSE
 * system is (bench_cusparse_spmv.c: host-timed batches of 10 products), per input: the conversion once (device
 * events), one warm-up product, then --runs timed products (the report's product_ms, device
 * events); the median and minimum, GB/s of the byte floor (magnus_spmv_report.floor_bytes:
 * A's CSR, x, y written; beta = 0) and that rate as a fraction of the device's copy
 * bandwidth. Each format's y is checked against the product in double on the host. Rows go to
 * stdout, and to --csv / --json files when given.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli_matrix.h"

static const magnus_spmv_format spmv_formats[] = {MAGNUS_SPMV_CSR, MAGNUS_SPMV_CSR_BALANCED,
                                                  MAGNUS_SPMV_COO, MAGNUS_SPMV_HYBRID,
                                                  MAGNUS_SPMV_SELL_P, MAGNUS_SPMV_AUTO};
#define SPMV_NFORMATS (int)(sizeof spmv_formats / sizeof spmv_formats[0])

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* y against A·x in double: the largest |y - ref| / (|A|·|x|) over the rows. */
static double spmv_error(const magnus_csr_s *A, const void *x, const void *y) {
    double worst = 0;
    for (int64_t i = 0; i < A->rows; i++) {
        double sum = 0, mag = 0;
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            double a = A->type == MAGNUS_FLOAT64 ? ((const double *)A->values)[k]
                                                 : ((const float *)A->values)[k];
            int32_t c = A->col_idx[k];
            double xv = A->type == MAGNUS_FLOAT64 ? ((const double *)x)[c] : ((const float *)x)[c];
            sum += a * xv;
            mag += fabs(a * xv);
        }
        double got = A->type == MAGNUS_FLOAT64 ? ((const double *)y)[i] : ((const float *)y)[i];
        double err = fabs(got - sum), rel = err == 0 ? 0 : mag > 0 ? err / mag : INFINITY;
        if (!(rel <= worst)) worst = rel;
    }
    return worst;
}

typedef struct spmv_row {
    const char *input, *system, *format, *ran;
    int64_t rows, cols, nnz;
    double conversion_ms, median_ms, min_ms, gbps, copy_fraction, error;
    uint64_t floor_bytes, format_bytes;
    bool verified;
    char error_text[BENCH_TEXT];
} spmv_row;

static void row_csv(FILE *f, const spmv_row *r) {
    fprintf(f, "%s,%s,%s,%s,%lld,%lld,%lld,%.6g,%.6g,%.6g,%.6g,%.4g,%llu,%llu,%.3g,%s,\"%s\"\n",
            r->input, r->system, r->format, r->ran, (long long)r->rows, (long long)r->cols,
            (long long)r->nnz, r->conversion_ms, r->median_ms, r->min_ms, r->gbps,
            r->copy_fraction, (unsigned long long)r->floor_bytes,
            (unsigned long long)r->format_bytes, r->error, r->verified ? "yes" : "no",
            r->error_text);
}

static void row_json(FILE *f, const spmv_row *r, bool first) {
    fprintf(f, "%s\n  {\"input\": ", first ? "" : ",");
    cli_json_write_string(f, r->input);
    fprintf(f, ", \"system\": ");
    cli_json_write_string(f, r->system);
    fprintf(f, ", \"format\": \"%s\", \"ran\": \"%s\", \"rows\": %lld, \"cols\": %lld, "
               "\"nnz\": %lld, \"conversion_ms\": %.6g, \"median_ms\": %.6g, \"min_ms\": %.6g, "
               "\"gb_per_s\": %.6g, \"copy_fraction\": %.4g, \"floor_bytes\": %llu, "
               "\"format_bytes\": %llu, \"max_rel_error\": %.3g, \"verified\": %s, \"error\": ",
            r->format, r->ran, (long long)r->rows, (long long)r->cols, (long long)r->nnz,
            r->conversion_ms, r->median_ms, r->min_ms, r->gbps, r->copy_fraction,
            (unsigned long long)r->floor_bytes, (unsigned long long)r->format_bytes,
            isfinite(r->error) ? r->error : -1, r->verified ? "true" : "false");
    if (r->error_text[0]) cli_json_write_string(f, r->error_text);
    else fprintf(f, "null");
    fputc('}', f);
}

/* A measured row's statistics (median and minimum of `times`, rate of `floor_bytes`) and y
 * checked against A·x. */
static void finish_row(spmv_row *r, double *times, int runs, uint64_t floor_bytes,
                       double copy_gbps, const magnus_csr_s *A, const void *x, const void *y) {
    qsort(times, (size_t)runs, sizeof *times, cmp_double);
    r->median_ms = runs % 2 ? times[runs / 2] : 0.5 * (times[runs / 2 - 1] + times[runs / 2]);
    r->min_ms = times[0];
    r->floor_bytes = floor_bytes;
    r->gbps = r->median_ms > 0 ? (double)floor_bytes / (r->median_ms * 1e6) : 0;
    r->copy_fraction = copy_gbps > 0 ? r->gbps / copy_gbps : 0;
    r->error = spmv_error(A, x, y);
    r->verified = r->error <= (A->type == MAGNUS_FLOAT64 ? 1e-10 : 1e-4);
    if (!r->verified)
        snprintf(r->error_text, sizeof r->error_text, "y differs from A*x by %.3g of |A|*|x|",
                 r->error);
}

/* One format on one device: fills r; false when the format failed (r->error_text). */
static bool run_format(spmv_row *r, magnus_context ctx, const magnus_csr_s *A, magnus_device_csr dA,
                       magnus_device_vector dx, magnus_device_vector dy, const void *x, void *y,
                       magnus_spmv_format f, int runs, double copy_gbps) {
    magnus_spmv_options opt;
    magnus_spmv_options_init(&opt);
    opt.format = f;
    magnus_spmv_plan plan = NULL;
    magnus_spmv_report rep;
    double *times = malloc((size_t)runs * sizeof *times);
    magnus_status s = times ? MAGNUS_SUCCESS : MAGNUS_ERROR_OUT_OF_HOST_MEMORY;
    if (!s) s = magnus_spmv_plan_create(&plan, ctx, dA, &opt, &rep);
    if (!s) {
        r->conversion_ms = rep.conversion_ms;
        r->format_bytes = rep.format_bytes;
        r->ran = magnus_spmv_format_name(rep.format);
        s = magnus_spmv_plan_execute(plan, dy, 1, dx, 0, &rep); /* warm-up */
    }
    for (int i = 0; i < runs && !s; i++) {
        s = magnus_spmv_plan_execute(plan, dy, 1, dx, 0, &rep);
        times[i] = rep.product_ms;
    }
    if (!s) s = magnus_device_vector_download(y, A->rows, dy);
    if (s) {
        snprintf(r->error_text, sizeof r->error_text, "%s: %s", magnus_status_string(s),
                 magnus_last_error());
    } else {
        finish_row(r, times, runs, rep.floor_bytes, copy_gbps, A, x, y);
    }
    magnus_spmv_plan_free(&plan);
    free(times);
    return !s && r->verified;
}

static void print_row(const spmv_row *r, bool ok) {
    /* cuSPARSE's rows by the algorithm that ran (the CSV keeps format and ran apart) */
    const char *label = strcmp(r->format, "cusparse") ? r->format : r->ran;
    printf("%-24s %-18s %-15s %10.4g %10.4g %10.4g %8.3g %7.1f%%  %s%s%s\n", r->input, r->system,
           label, r->conversion_ms, r->median_ms, r->min_ms, r->gbps, 100 * r->copy_fraction,
           ok ? "yes" : "NO", r->error_text[0] ? ": " : "", r->error_text);
}

/* cuSPARSE's SpMV on its device (bench_cusparse_spmv.c) as one row, measured and verified as
 * the formats are; the byte floor is magnus's (the same bytes, whatever the format). */
static bool run_cusparse(spmv_row *r, bench_cusparse *cs, int algorithm, const magnus_csr_s *A,
                         const void *x, void *y, int runs, double copy_gbps) {
    double *times = malloc((size_t)runs * sizeof *times);
    if (!times) {
        snprintf(r->error_text, sizeof r->error_text, "out of host memory");
        return false;
    }
    bool ok = bench_cusparse_spmv(cs, algorithm, A, x, y, runs, times, r->error_text,
                                  sizeof r->error_text);
    if (ok) {
        const uint64_t vb = magnus_value_size(A->type);
        finish_row(r, times, runs,
                   8 * ((uint64_t)A->rows + 1) + (4 + vb) * (uint64_t)A->nnz +
                       vb * (uint64_t)A->cols + vb * (uint64_t)A->rows,
                   copy_gbps, A, x, y);
    }
    free(times);
    return ok && r->verified;
}

/* Reports the failed file, closes both and leaves nothing to close. */
static bool spmv_output_open_failed(bench_spmv_output *out, const cli_outfile *failed) {
    cli_outfile_fail(failed);
    cli_outfile_close(&out->csv);
    cli_outfile_close(&out->json);
    memset(out, 0, sizeof *out);
    return false;
}

bool bench_spmv_output_open(bench_spmv_output *out, const char *csv_path, const char *json_path,
                            magnus_value_type type, int runs) {
    memset(out, 0, sizeof *out);
    out->first_row = true;
    if (csv_path) {
        if (!cli_outfile_open(&out->csv, csv_path)) return spmv_output_open_failed(out, &out->csv);
        fprintf(out->csv.file,
                "input,system,format,ran,rows,cols,nnz,conversion_ms,median_ms,min_ms,"
                "gb_per_s,copy_fraction,floor_bytes,format_bytes,max_rel_error,verified,error\n");
        if (!cli_outfile_flush(&out->csv)) return spmv_output_open_failed(out, &out->csv);
    }
    if (json_path) {
        if (!cli_outfile_open(&out->json, json_path))
            return spmv_output_open_failed(out, &out->json);
        fprintf(out->json.file, "{\"op\": \"spmv\", \"runs\": %d, \"type\": \"%s\", \"rows\": [",
                runs, cli_type_name(type));
        if (!cli_outfile_flush(&out->json)) return spmv_output_open_failed(out, &out->json);
    }
    return true;
}

bool bench_spmv_output_close(bench_spmv_output *out) {
    if (out->json.file) fprintf(out->json.file, "\n]}\n");
    bool csv_ok = cli_outfile_close(&out->csv), json_ok = cli_outfile_close(&out->json);
    if (!csv_ok) cli_outfile_fail(&out->csv);
    if (!json_ok) cli_outfile_fail(&out->json);
    return csv_ok && json_ok;
}

/* One row into the files, flushed (a run cut short keeps its rows); a failed write is told
 * once, when it happens, and again when the files are closed. */
static void spmv_output_row(bench_spmv_output *out, const spmv_row *r) {
    const bool failed_before = out->csv.error || out->json.error;
    if (out->csv.file) {
        row_csv(out->csv.file, r);
        cli_outfile_flush(&out->csv);
    }
    if (out->json.file) {
        row_json(out->json.file, r, out->first_row);
        cli_outfile_flush(&out->json);
    }
    out->first_row = false;
    if (!failed_before && (out->csv.error || out->json.error))
        cli_outfile_fail(out->csv.error ? &out->csv : &out->json);
}

int bench_spmv_run(const bench_input_list *inputs, bench_system *systems, int nsystems,
                   magnus_value_type type, int runs, bench_spmv_output *out) {
    printf("%-24s %-18s %-15s %10s %10s %10s %8s %8s  %s\n", "input", "system", "format",
           "convert ms", "median ms", "min ms", "GB/s", "of copy", "verified");
    int failures = 0;
    for (int i = 0; i < inputs->count; i++) {
        const bench_input *in = &inputs->items[i];
        magnus_csr A = NULL;
        double seconds = 0;
        /* auto: a file's field decides (cli_matrix_load), a generator makes float32 */
        const magnus_value_type want =
            type == MAGNUS_MM_TYPE_AUTO && cli_is_generator_spec(in->a_source) ? MAGNUS_FLOAT32
                                                                               : type;
        if (cli_matrix_load(&A, &seconds, in->a_source, want, NULL)) {
            failures++;
            continue;
        }
        const magnus_value_type vtype = A->type;
        size_t vb = magnus_value_size(vtype);
        void *x = malloc((size_t)A->cols * vb + 8), *y = malloc((size_t)A->rows * vb + 8);
        for (int64_t j = 0; x && j < A->cols; j++) {
            double v = 0.5 + (double)((j * 2654435761u) % 1000) / 2000.0;
            if (vtype == MAGNUS_FLOAT64) ((double *)x)[j] = v;
            else ((float *)x)[j] = (float)v;
        }
        for (int k = 0; x && y && k < nsystems; k++) {
            bench_system *sys = &systems[k];
            if (sys->kind == BENCH_SYSTEM_CUSPARSE && sys->cusparse && !sys->unavailable[0]) {
                if (!bench_cusparse_has_spmv(sys->cusparse)) {
                    if (i == 0)
                        fprintf(stderr, "magnus bench: %s: no generic SpMV in %s, left out\n",
                                sys->id, bench_cusparse_describe(sys->cusparse));
                    continue;
                }
                /* the copy bandwidth of the same device, measured for its magnus system */
                double copy_gbps = sys->copy_gbps;
                for (int m = 0; m < nsystems && copy_gbps <= 0; m++)
                    if (systems[m].kind == BENCH_SYSTEM_MAGNUS &&
                        !strcmp(systems[m].device_label, sys->device_label))
                        copy_gbps = systems[m].copy_gbps;
                /* one row per algorithm: its best is the yardstick, each is reported */
                for (int alg = 0; alg < bench_cusparse_spmv_algorithms(); alg++) {
                    spmv_row r = {.input = in->name, .system = sys->id, .format = "cusparse",
                                  .ran = bench_cusparse_spmv_algorithm(alg), .rows = A->rows,
                                  .cols = A->cols, .nnz = A->nnz};
                    bool ok = run_cusparse(&r, sys->cusparse, alg, A, x, y, runs, copy_gbps);
                    if (!ok) failures++;
                    print_row(&r, ok);
                    spmv_output_row(out, &r);
                }
                continue;
            }
            if (sys->kind != BENCH_SYSTEM_MAGNUS || sys->unavailable[0] || !sys->owns_ctx) continue;
            magnus_device_csr dA = NULL;
            magnus_device_vector dx = NULL, dy = NULL;
            magnus_status s = magnus_device_csr_upload(&dA, sys->ctx, A);
            if (!s) s = magnus_device_vector_upload(&dx, sys->ctx, vtype, A->cols, x);
            if (!s) s = magnus_device_vector_zeros(&dy, sys->ctx, vtype, A->rows);
            for (int f = 0; f < SPMV_NFORMATS; f++) {
                spmv_row r = {.input = in->name, .system = sys->device_label,
                              .format = magnus_spmv_format_name(spmv_formats[f]), .ran = "-",
                              .rows = A->rows, .cols = A->cols, .nnz = A->nnz};
                bool ok = false;
                if (s)
                    snprintf(r.error_text, sizeof r.error_text, "%s: %s", magnus_status_string(s),
                             magnus_last_error());
                else
                    ok = run_format(&r, sys->ctx, A, dA, dx, dy, x, y, spmv_formats[f], runs,
                                    sys->copy_gbps);
                if (!ok) failures++;
                print_row(&r, ok);
                spmv_output_row(out, &r);
            }
            magnus_device_vector_free(&dx);
            magnus_device_vector_free(&dy);
            magnus_device_csr_free(&dA);
        }
        free(x);
        free(y);
        magnus_csr_free(&A);
    }
    if (failures) {
        fprintf(stderr, "magnus bench: %d SpMV run%s failed or did NOT verify\n", failures,
                failures == 1 ? "" : "s");
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

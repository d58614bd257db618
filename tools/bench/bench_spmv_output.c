/*
 * `magnus bench --op spmv`'s rows (measured in bench_spmv.c): on the terminal as they are
 * measured; per input, the fastest verified cuSPARSE variant (the yardstick: the best of every
 * algorithm the library offers, with and without preprocess) and each magnus row's speedup
 * over it; the rows to the CSV / JSON files once their input is done; and the closing summary
 * of the speedups per magnus device and format (bench_ratios, as the SpGEMM summary's).
 * bench/README.md "SpMV" documents the columns.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_spmv_internal.h"

static const char *timing_text =
    "per format / variant, outside the product times: magnus's plan conversion and cuSPARSE's "
    "preprocess (each alone between device events: conversion_ms), cuSPARSE's host-made COO "
    "rows and sliced ELL (untimed), y filled with NaN, one warm-up product; "
    "then each product alone between two device events on an idle device (the call's launch "
    "included, nothing else); median and minimum of the runs";

const char *bench_spmv_label(const spmv_row *r, char *buf, size_t n) {
    if (!r->cusparse) snprintf(buf, n, "%s", r->format);
    else snprintf(buf, n, "%s%s", r->ran, r->preprocess ? "+preprocess" : "");
    return buf;
}

static const char *status_name(const spmv_row *r) {
    return r->outcome == BENCH_OUTCOME_OK        ? "ok"
           : r->outcome == BENCH_OUTCOME_SKIPPED ? "skipped"
                                                 : "failed";
}

static const char *verified_name(const spmv_row *r) {
    return r->outcome != BENCH_OUTCOME_OK ? "n/a" : r->verified ? "yes" : "no";
}

/* Reports the file that failed and closes both. */
static bool files_open_failed(bench_spmv_files *f, const cli_outfile *failed) {
    cli_outfile_fail(failed);
    cli_outfile_close(&f->csv);
    cli_outfile_close(&f->json);
    memset(f, 0, sizeof *f);
    return false;
}

bool bench_spmv_files_open(bench_spmv_files *f, const char *csv_path, const char *json_path,
                           magnus_value_type type, int runs) {
    memset(f, 0, sizeof *f);
    if (csv_path) {
        if (!cli_outfile_open(&f->csv, csv_path)) return files_open_failed(f, &f->csv);
        fprintf(f->csv.file, "input,system,format,ran,preprocess,status,rows,cols,nnz,"
                             "conversion_ms,median_ms,min_ms,gb_per_s,copy_fraction,floor_bytes,"
                             "format_bytes,max_rel_error,verified,baseline,baseline_ms,speedup,"
                             "hot_columns,why,error\n");
        if (!cli_outfile_flush(&f->csv)) return files_open_failed(f, &f->csv);
    }
    if (json_path) {
        if (!cli_outfile_open(&f->json, json_path)) return files_open_failed(f, &f->json);
        fprintf(f->json.file, "{\"op\": \"spmv\", \"runs\": %d, \"type\": \"%s\", \"timing\": ",
                runs, cli_type_name(type));
        cli_json_write_string(f->json.file, timing_text);
        fprintf(f->json.file, ", \"rows\": [");
        if (!cli_outfile_flush(&f->json)) return files_open_failed(f, &f->json);
    }
    return true;
}

bool bench_spmv_files_close(bench_spmv_files *f) {
    if (f->json.file) fprintf(f->json.file, "\n]}\n");
    const bool csv_ok = cli_outfile_close(&f->csv), json_ok = cli_outfile_close(&f->json);
    if (!csv_ok) cli_outfile_fail(&f->csv);
    if (!json_ok) cli_outfile_fail(&f->json);
    return csv_ok && json_ok;
}

void bench_spmv_output_init(spmv_output *o, bench_spmv_files *files) {
    memset(o, 0, sizeof *o);
    o->files = files;
    o->first_json = true;
    printf("%-24s %-18s %-26s %10s %10s %10s %8s %8s  %s\n", "input", "system", "format",
           "convert ms", "median ms", "min ms", "GB/s", "of copy", "verified");
}

void bench_spmv_print_row(const spmv_row *r) {
    char label[64];
    const char *verdict = r->outcome == BENCH_OUTCOME_SKIPPED ? "skipped"
                          : r->outcome == BENCH_OUTCOME_FAILED ? "FAILED"
                          : r->verified                         ? "yes"
                                                                : "NO";
    printf("%-24s %-18s %-26s %10.4g %10.4g %10.4g %8.3g %7.1f%%  %s%s%s\n", r->input, r->system,
           bench_spmv_label(r, label, sizeof label), r->conversion_ms, r->median_ms, r->min_ms,
           r->gbps, 100 * r->copy_fraction, verdict, r->error_text[0] ? ": " : "", r->error_text);
    fflush(stdout);
}

bool bench_spmv_output_add(spmv_output *o, const spmv_row *r) {
    spmv_row *grown = bench_grow(o->rows, &o->capacity, o->count, sizeof *grown, 64);
    if (!grown) return false;
    o->rows = grown;
    o->rows[o->count++] = *r;
    return true;
}

/* ---- files --------------------------------------------------------------------------------- */
static void csv_number(FILE *f, double v, const char *fmt) {
    if (isfinite(v)) fprintf(f, fmt, v);
    fputc(',', f);
}

static void row_csv(FILE *f, const spmv_row *r) {
    const bool ok = r->outcome == BENCH_OUTCOME_OK;
    fprintf(f, "%s,%s,%s,%s,%s,%s,%lld,%lld,%lld,", r->input, r->system, r->format, r->ran,
            r->cusparse ? (r->preprocess ? "yes" : "no") : "", status_name(r), (long long)r->rows,
            (long long)r->cols, (long long)r->nnz);
    csv_number(f, r->conversion_ms, "%.6g");
    csv_number(f, ok ? r->median_ms : NAN, "%.6g");
    csv_number(f, ok ? r->min_ms : NAN, "%.6g");
    csv_number(f, ok ? r->gbps : NAN, "%.6g");
    csv_number(f, ok ? r->copy_fraction : NAN, "%.4g");
    fprintf(f, "%llu,%llu,", (unsigned long long)r->floor_bytes,
            (unsigned long long)r->format_bytes);
    csv_number(f, ok ? r->error : NAN, "%.3g");
    fprintf(f, "%s,%s,", verified_name(r), r->baseline);
    csv_number(f, r->baseline[0] ? r->baseline_ms : NAN, "%.6g");
    csv_number(f, r->speedup, "%.4g");
    fprintf(f, "%lld,", (long long)r->hot_columns);
    bench_csv_quoted(f, r->why ? r->why : "");
    fputc(',', f);
    bench_csv_quoted(f, r->error_text);
    fputc('\n', f);
}

static void json_number(FILE *f, const char *name, double v, const char *fmt) {
    fprintf(f, ", \"%s\": ", name);
    if (isfinite(v)) fprintf(f, fmt, v);
    else fputs("null", f);
}

static void row_json(FILE *f, const spmv_row *r, bool first) {
    const bool ok = r->outcome == BENCH_OUTCOME_OK;
    fprintf(f, "%s\n  {\"input\": ", first ? "" : ",");
    cli_json_write_string(f, r->input);
    fprintf(f, ", \"system\": ");
    cli_json_write_string(f, r->system);
    fprintf(f, ", \"format\": \"%s\", \"ran\": \"%s\", \"preprocess\": %s, \"status\": \"%s\", "
               "\"rows\": %lld, \"cols\": %lld, \"nnz\": %lld",
            r->format, r->ran, r->cusparse ? (r->preprocess ? "true" : "false") : "null",
            status_name(r), (long long)r->rows, (long long)r->cols, (long long)r->nnz);
    json_number(f, "conversion_ms", r->conversion_ms, "%.6g");
    json_number(f, "median_ms", ok ? r->median_ms : NAN, "%.6g");
    json_number(f, "min_ms", ok ? r->min_ms : NAN, "%.6g");
    json_number(f, "gb_per_s", ok ? r->gbps : NAN, "%.6g");
    json_number(f, "copy_fraction", ok ? r->copy_fraction : NAN, "%.4g");
    fprintf(f, ", \"floor_bytes\": %llu, \"format_bytes\": %llu",
            (unsigned long long)r->floor_bytes, (unsigned long long)r->format_bytes);
    json_number(f, "max_rel_error", ok ? r->error : NAN, "%.3g");
    fprintf(f, ", \"verified\": \"%s\", \"baseline\": ", verified_name(r));
    if (r->baseline[0]) cli_json_write_string(f, r->baseline);
    else fputs("null", f);
    json_number(f, "baseline_ms", r->baseline[0] ? r->baseline_ms : NAN, "%.6g");
    json_number(f, "speedup", r->speedup, "%.6g");
    fprintf(f, ", \"hot_columns\": %lld, \"why\": ", (long long)r->hot_columns);
    if (r->why && r->why[0]) cli_json_write_string(f, r->why);
    else fputs("null", f);
    fprintf(f, ", \"error\": ");
    if (r->error_text[0]) cli_json_write_string(f, r->error_text);
    else fprintf(f, "null");
    fputc('}', f);
}

/* ---- the yardstick ------------------------------------------------------------------------- */
static bool measured(const spmv_row *r) {
    return r->outcome == BENCH_OUTCOME_OK && r->verified && r->median_ms > 0;
}

/* The fastest verified cuSPARSE row of rows[first, end) on `device` (NULL: any device). */
static const spmv_row *fastest_cusparse(const spmv_row *rows, int first, int end,
                                        const char *device) {
    const spmv_row *best = NULL;
    for (int i = first; i < end; i++) {
        const spmv_row *q = &rows[i];
        if (!q->cusparse || !measured(q) || (device && strcmp(q->sys->device_label, device)))
            continue;
        if (!best || q->median_ms < best->median_ms) best = q;
    }
    return best;
}

void bench_spmv_finish_input(spmv_output *o, int first) {
    const int end = o->count;
    bool any_cusparse = false;
    for (int i = first; i < end; i++) any_cusparse = any_cusparse || o->rows[i].cusparse;
    const char *line_device = NULL; /* the device whose terminal line is open */
    for (int i = first; i < end; i++) {
        spmv_row *r = &o->rows[i];
        r->speedup = NAN;
        if (r->cusparse || !any_cusparse) continue;
        /* the cuSPARSE system of the row's device, else the fastest of them all */
        const spmv_row *best = fastest_cusparse(o->rows, first, end, r->sys->device_label);
        if (!best) best = fastest_cusparse(o->rows, first, end, NULL);
        if (!line_device || strcmp(line_device, r->system)) {
            if (line_device) putchar('\n');
            line_device = r->system;
            char label[64];
            if (best)
                printf("  %s, %s: fastest verified cuSPARSE %s (%s) %.4g ms; speedup:", r->input,
                       r->system, bench_spmv_label(best, label, sizeof label), best->system,
                       best->median_ms);
            else
                printf("  %s, %s: no verified cuSPARSE variant; speedup:", r->input, r->system);
        }
        if (best) {
            bench_spmv_label(best, r->baseline, sizeof r->baseline);
            r->baseline_ms = best->median_ms;
            if (measured(r)) r->speedup = best->median_ms / r->median_ms;
        }
        if (isfinite(r->speedup)) printf(" %s %.3gx", r->format, r->speedup);
        else printf(" %s -", r->format);
    }
    if (line_device) putchar('\n');
    bench_spmv_files *f = o->files;
    for (int i = first; i < end; i++) {
        if (f->csv.file) row_csv(f->csv.file, &o->rows[i]);
        if (f->json.file) row_json(f->json.file, &o->rows[i], o->first_json);
        o->first_json = false;
    }
    /* flushed, so that a run cut short keeps its rows; a failed write is told when it happens
     * (and again when the files are closed, which fails the run) */
    const bool csv_ok = !f->csv.file || cli_outfile_flush(&f->csv);
    const bool json_ok = !f->json.file || cli_outfile_flush(&f->json);
    if (!o->write_failed && (!csv_ok || !json_ok)) {
        cli_outfile_fail(!csv_ok ? &f->csv : &f->json);
        o->write_failed = true;
    }
    fflush(stdout);
}

/* ---- the summary --------------------------------------------------------------------------- */
static void print_summary(const spmv_output *o) {
    bool any_cusparse = false;
    for (int i = 0; i < o->count; i++) any_cusparse = any_cusparse || o->rows[i].cusparse;
    if (!any_cusparse) {
        printf("\nno cuSPARSE system: no speedups (cuSPARSE runs on CUDA devices only)\n");
        return;
    }
    printf("\nfastest verified cuSPARSE variant per input (the yardstick of the speedups):\n");
    printf("  %-28s %-18s %-26s %10s\n", "input", "system", "variant", "median ms");
    for (int i = 0; i < o->count; i++) {
        if (i > 0 && !strcmp(o->rows[i].input, o->rows[i - 1].input)) continue;
        int end = i;
        while (end < o->count && !strcmp(o->rows[end].input, o->rows[i].input)) end++;
        const spmv_row *best = fastest_cusparse(o->rows, i, end, NULL);
        char label[64];
        if (best)
            printf("  %-28.28s %-18s %-26s %10.4g\n", best->input, best->system,
                   bench_spmv_label(best, label, sizeof label), best->median_ms);
        else
            printf("  %-28.28s %-18s %-26s %10s\n", o->rows[i].input, "-", "none verified", "-");
    }
    printf("speedup of each magnus format over it (its median / the format's median; inputs "
           "both verified):\n");
    printf("  %-22s %-18s %6s %9s %9s  %-28s %9s\n", "device", "format", "inputs", "geomean",
           "min", "(at)", "max");
    for (int i = 0; i < o->count; i++) {
        const spmv_row *r = &o->rows[i];
        if (r->cusparse) continue;
        bool seen = false; /* one line per (device, format), where it first appears */
        for (int j = 0; j < i && !seen; j++)
            seen = !o->rows[j].cusparse && !strcmp(o->rows[j].system, r->system) &&
                   !strcmp(o->rows[j].format, r->format);
        if (seen) continue;
        bench_ratios ratios = {0};
        for (int j = i; j < o->count; j++) {
            const spmv_row *q = &o->rows[j];
            if (!q->cusparse && !strcmp(q->system, r->system) && !strcmp(q->format, r->format) &&
                q->speedup > 0)
                bench_ratios_add(&ratios, q->speedup, q->input);
        }
        printf("  %-22s %-18s", r->system, r->format);
        bench_ratios_print(stdout, &ratios);
    }
}

void bench_spmv_output_close(spmv_output *o) {
    print_summary(o);
    fflush(stdout); /* before the caller's verdict on stderr */
    free(o->rows);
    memset(o, 0, sizeof *o);
}

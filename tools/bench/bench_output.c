/*
 * The bench's rows as CSV and JSON. One function, emit_row(), names every column and its
 * value in order; the CSV header, the CSV lines, the JSON objects and --list-columns all come
 * from it, so they cannot disagree. The report's columns come from bench_report_columns.h
 * (emit_report). bench/README.md documents each column (tests/tools/bench/bench.cmake checks
 * that the output has every documented column). A value that does not apply is an empty CSV
 * field and a JSON null.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "bench_report_columns.h"

typedef struct sink {
    void (*text)(struct sink *k, const char *name, const char *value);
    void (*number)(struct sink *k, const char *name, double value, bool integer);
    FILE *out;
    int column;
} sink;

static void text(sink *k, const char *name, const char *value) { k->text(k, name, value); }
static void integer(sink *k, const char *name, double value) { k->number(k, name, value, true); }
static void real(sink *k, const char *name, double value) { k->number(k, name, value, false); }

static const char *kind_name(const bench_system *s) {
    return s->kind == BENCH_SYSTEM_CUSPARSE ? "cusparse" : "magnus";
}

static const char *algorithm_name(const bench_system *s) {
    if (s->kind == BENCH_SYSTEM_CUSPARSE) return "cusparse";
    return magnus_algorithm_name(s->algorithm);
}

static double sum_levels(const double *t) {
    double s = 0;
    for (int L = 0; L < MAGNUS_MAX_LEVELS; L++) s += t[L];
    return s;
}

/* "0.12;0.05" for the levels run (empty without levels). */
static void levels_text(char *buf, size_t size, const double *ms, const int64_t *counts, int levels) {
    size_t used = 0;
    buf[0] = 0;
    for (int L = 0; L < levels && L < MAGNUS_MAX_LEVELS && used < size; L++) {
        if (ms) used += (size_t)snprintf(buf + used, size - used, "%s%.6g", L ? ";" : "", ms[L]);
        else used += (size_t)snprintf(buf + used, size - used, "%s%lld", L ? ";" : "",
                                      (long long)counts[L]);
    }
}

/* ---- the report's columns, from bench_report_columns.h -------------------------------------- */
/* levels_text for times or counts (levels 0 when the array is NULL) */
static void levels_ms_text(char *buf, size_t size, const double *ms, int levels) {
    levels_text(buf, size, ms, NULL, levels);
}
static void levels_count_text(char *buf, size_t size, const int64_t *counts, int levels) {
    levels_text(buf, size, NULL, counts, levels);
}

/* When a column has a value (bench_report_columns.h's `when`), for the report p (or NULL). */
#define WHEN_ALWAYS(p, field) ((p) != NULL)
#define WHEN_AUTO(p, field) ((p) && (p)->algorithm_requested == MAGNUS_ALGORITHM_AUTO)
#define WHEN_GMAGNUS(p, field) ((p) && (p)->algorithm == MAGNUS_ALGORITHM_GMAGNUS)
#define WHEN_NONZERO(p, field) ((p) && (p)->field)
#define WHEN_BATCHED(p, field) ((p) && (p)->batches > 1)
/* A number column by its field's C type: real for double, integer otherwise (the type alone
 * is looked at, so p may be NULL there). */
#define NUMBER_OF(x) _Generic((x), double: real, default: integer)
/* Each form's value; `on` false: empty. */
#define FORM_VALUE(k, column, on, p, field) \
    NUMBER_OF((p)->field)(k, column, (on) ? (double)(p)->field : NAN)
#define FORM_LEVELS_SUM(k, column, on, p, field) \
    real(k, column, (on) ? sum_levels((p)->field) : NAN)
#define FORM_LEVEL0(k, column, on, p, field) \
    NUMBER_OF((p)->field[0])(k, column, (on) ? (double)(p)->field[0] : NAN)
#define FORM_LEVELS_TEXT(k, column, on, p, field)                                             \
    do {                                                                                       \
        char buf[160];                                                                         \
        _Generic((p)->field[0], double: levels_ms_text, default: levels_count_text)(           \
            buf, sizeof buf, (on) ? (p)->field : NULL, (on) ? (p)->levels : 0);               \
        text(k, column, buf);                                                                  \
    } while (0)
#define FORM_ALGORITHM(k, column, on, p, field) \
    text(k, column, (on) ? magnus_algorithm_name((p)->field) : "")
#define REPORT_COLUMN(column, field, form, when)                                              \
    do {                                                                                       \
        const bool on = WHEN_##when(p, field);                                                 \
        FORM_##form(k, #column, on, p, field);                                                 \
    } while (0);

/* The report's columns (p NULL: the row has no report, every one empty). */
static void emit_report(const magnus_report *p, sink *k) {
    BENCH_REPORT_COLUMNS(REPORT_COLUMN)
}
#undef REPORT_COLUMN

/* ---- the fair comparison's columns (issue 34) --------------------------------------------- */
/* Speedups of the median and fastest runs beside `speedup` (of the means), the same three
 * over the cusparse-pool baseline, why a speedup is missing, and how many timed runs' C
 * were checked (bench_runs_check). */
static void emit_fair_comparison(const bench_row *r, sink *k) {
    const bench_runs_check *rc = &r->runs_check;
    const bool counted = !strcmp(r->status, "ok") && rc->have_first;
    real(k, "speedup_median", r->speedup_median);
    real(k, "speedup_min", r->speedup_min);
    text(k, "baseline_pool", r->baseline_pool);
    real(k, "speedup_pool", r->speedup_pool);
    real(k, "speedup_pool_median", r->speedup_pool_median);
    real(k, "speedup_pool_min", r->speedup_pool_min);
    text(k, "speedup_note", r->speedup_note);
    integer(k, "runs_verified", counted ? rc->checked - rc->failed : NAN);
    integer(k, "runs_same", counted ? rc->same : NAN);
    /* the bench's own host time (outside every timed region), seconds */
    const bool ran = !strcmp(r->status, "ok");
    real(k, "host_check_s", ran ? r->verify_seconds : NAN);
    real(k, "host_runs_check_s", counted ? rc->seconds : NAN);
}
/* ---- end of the fair comparison's columns ------------------------------------------------- */

/* --plan's columns: empty unless the plan was tried on this row. */
static void emit_plan(const bench_plan_result *p, sink *k) {
    const bool on = p->ran;
    real(k, "plan_create_ms", on ? p->create_ms : NAN);
    integer(k, "plan_runs", on ? p->runs : NAN);
    real(k, "plan_execute_ms", on ? p->execute.mean : NAN);
    real(k, "plan_execute_median_ms", on ? p->execute.median : NAN);
    integer(k, "plan_device_bytes", on && p->device_bytes ? (double)p->device_bytes : NAN);
    text(k, "plan_verified", on ? p->verified : "");
    text(k, "plan_verify_method", on ? p->verify_method : "");
    real(k, "plan_max_rel_error", on ? p->max_rel_error : NAN);
    real(k, "plan_ratio", on ? p->ratio : NAN);
    text(k, "plan_note", on ? p->note : "");
}

/* The transfers around the timed runs and why the algorithm ran: what bench/compare.py puts
 * beside the phase times when it compares systems. */
static void emit_compare(const bench_row *r, sink *k) {
    real(k, "upload_ms", r->upload_ms);
    real(k, "download_ms", r->download_ms);
    const char *reason = r->has_report ? r->report.algorithm_reason : NULL;
    text(k, "algorithm_reason", reason ? reason : "");
}

static void emit_row(const bench_row *r, sink *k) {
    const bench_input *in = r->input;
    const bench_facts *f = r->facts.known ? &r->facts : NULL;
    const bench_system *sys = r->system;
    const bool rmat = in->kind == BENCH_INPUT_RMAT;
    text(k, "input", in->name);
    text(k, "input_kind", rmat ? "rmat" : "file");
    text(k, "a_source", in->a_source);
    text(k, "b_source", in->b_source[0] ? in->b_source : in->a_source);
    integer(k, "scale", rmat ? in->scale : NAN);
    integer(k, "a_per_row", rmat ? (double)in->a_per_row : NAN);
    integer(k, "b_per_row", rmat ? (double)in->b_per_row : NAN);
    integer(k, "rows", f ? (double)f->rows : NAN);
    integer(k, "cols", f ? (double)f->cols : NAN);
    integer(k, "a_nnz", f ? (double)f->a_nnz : NAN);
    integer(k, "b_nnz", f ? (double)f->b_nnz : NAN);
    integer(k, "products", f ? (double)f->products : NAN);
    integer(k, "nnz_c_upper", f ? (double)f->nnz_c_upper : NAN);
    text(k, "value_type", f ? cli_type_name(f->type) : "");

    text(k, "system", sys->id);
    text(k, "system_kind", kind_name(sys));
    text(k, "algorithm", algorithm_name(sys));
    text(k, "variant", r->variant);
    text(k, "device", sys->device_label);
    text(k, "device_name", sys->device_name);
    text(k, "status", r->status);
    text(k, "failure", r->failure);

    integer(k, "runs", r->runs);
    real(k, "time_mean_ms", r->time.mean);
    real(k, "time_median_ms", r->time.median);
    real(k, "time_min_ms", r->time.min);
    real(k, "time_max_ms", r->time.max);
    real(k, "gflops", r->gflops);
    real(k, "first_ms", r->first_ms);
    real(k, "first_kernel_load_ms", r->first_kernel_load_ms);
    integer(k, "nnz_c", r->nnz_c >= 0 ? (double)r->nnz_c : NAN);
    integer(k, "peak_device_bytes", r->peak_device_bytes ? (double)r->peak_device_bytes : NAN);
    text(k, "verified", r->verified);
    text(k, "verify_method", r->verify_method);
    real(k, "max_rel_error", r->max_rel_error);
    text(k, "verify_note", r->verify_note);
    text(k, "baseline", r->baseline);
    real(k, "speedup", r->speedup);
    emit_fair_comparison(r, k);
    emit_plan(&r->plan, k);

    emit_report(r->has_report ? &r->report : NULL, k);
    emit_compare(r, k);

    real(k, "copy_gbps", r->copy_gbps);
    integer(k, "floor_outer_bytes", r->floor_outer_bytes);
    integer(k, "floor_histogram_bytes", r->floor_histogram_bytes);
    integer(k, "floor_multisplit_bytes", r->floor_multisplit_bytes);
    real(k, "sol_outer_pct", r->sol_outer_pct);
    real(k, "sol_histogram_pct", r->sol_histogram_pct);
    real(k, "sol_multisplit_pct", r->sol_multisplit_pct);
    text(k, "detail", r->detail);
}

/* ---- CSV -------------------------------------------------------------------------------------- */
static void csv_separator(sink *k) {
    if (k->column++) fputc(',', k->out);
}

void bench_csv_quoted(FILE *out, const char *text) {
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"') fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

static void csv_write_text(FILE *out, const char *v) {
    if (strpbrk(v, ",\"\r\n")) bench_csv_quoted(out, v);
    else fputs(v, out);
}

static void csv_header_text(sink *k, const char *name, const char *value) {
    (void)value;
    csv_separator(k);
    fputs(name, k->out);
}
static void csv_header_number(sink *k, const char *name, double value, bool is_integer) {
    (void)value, (void)is_integer;
    csv_separator(k);
    fputs(name, k->out);
}
static void csv_text(sink *k, const char *name, const char *value) {
    (void)name;
    csv_separator(k);
    csv_write_text(k->out, value ? value : "");
}
static void csv_number(sink *k, const char *name, double value, bool is_integer) {
    (void)name;
    csv_separator(k);
    if (!isfinite(value)) return;
    if (is_integer) fprintf(k->out, "%.0f", value);
    else fprintf(k->out, "%.6g", value);
}

/* ---- JSON ------------------------------------------------------------------------------------- */
static void json_key(sink *k, const char *name) {
    fputs(k->column++ ? ", " : "", k->out);
    cli_json_write_string(k->out, name);
    fputs(": ", k->out);
}
static void json_text(sink *k, const char *name, const char *value) {
    json_key(k, name);
    cli_json_write_string(k->out, value ? value : "");
}
static void json_number(sink *k, const char *name, double value, bool is_integer) {
    json_key(k, name);
    if (!isfinite(value)) fputs("null", k->out);
    else if (is_integer) fprintf(k->out, "%.0f", value);
    else fprintf(k->out, "%.9g", value);
}

/* ---- column list ------------------------------------------------------------------------------ */
static void list_text(sink *k, const char *name, const char *value) {
    (void)value;
    fprintf(k->out, "%s\n", name);
}
static void list_number(sink *k, const char *name, double value, bool is_integer) {
    (void)value, (void)is_integer;
    fprintf(k->out, "%s\n", name);
}

/* Column names as JSON array elements. */
static void json_name(sink *k, const char *name, const char *value) {
    (void)value;
    fputs(k->column++ ? ", " : "", k->out);
    cli_json_write_string(k->out, name);
}
static void json_name_number(sink *k, const char *name, double value, bool is_integer) {
    (void)value, (void)is_integer;
    json_name(k, name, NULL);
}

/* Every column through k, from a row with every field blank: the CSV header, the JSON
 * "columns" list and --columns. */
static void emit_columns(sink k) {
    bench_input in;
    bench_system sys;
    memset(&in, 0, sizeof in);
    memset(&sys, 0, sizeof sys);
    bench_row r;
    bench_row_init(&r, &in, &sys);
    emit_row(&r, &k);
}

void bench_print_columns(FILE *out) { emit_columns((sink){list_text, list_number, out, 0}); }

bool bench_output_open(bench_output *out, const char *csv_path, const char *json_path, char *why,
                       size_t n) {
    memset(out, 0, sizeof *out);
    out->json_path = json_path;
    if (csv_path) {
        if (!cli_outfile_open(&out->csv, csv_path)) {
            snprintf(why, n, "cannot write %s: %s", csv_path, strerror(out->csv.error));
            return false;
        }
        emit_columns((sink){csv_header_text, csv_header_number, out->csv.file, 0});
        fputc('\n', out->csv.file);
        if (!cli_outfile_flush(&out->csv)) {
            snprintf(why, n, "cannot write %s: %s", csv_path, strerror(out->csv.error));
            return false;
        }
    }
    if (json_path) {
        struct stat st;
        out->json_in_place = stat(json_path, &st) == 0 && !S_ISREG(st.st_mode);
        if (out->json_in_place) {
            /* written only at the end: check now that it opens for writing */
            cli_outfile f;
            bool ok = cli_outfile_open(&f, json_path);
            out->json_error = f.error;
            cli_outfile_close(&f);
            if (!ok) {
                bench_output_failure(out, why, n);
                return false;
            }
        } else if (!bench_output_write_json(out, NULL, 0, "", false)) {
            bench_output_failure(out, why, n);
            return false;
        }
    }
    return true;
}

bool bench_output_add(bench_output *out, const bench_row *row) {
    bench_row *grown = bench_grow(out->rows, &out->capacity, out->count, sizeof *grown, 64);
    if (!grown) return false;
    out->rows = grown;
    out->rows[out->count++] = *row;
    if (out->csv.file) {
        sink k = {csv_text, csv_number, out->csv.file, 0};
        emit_row(row, &k);
        fputc('\n', out->csv.file);
        cli_outfile_flush(&out->csv); /* a failure is kept for bench_output_failure */
    }
    return true;
}

static void json_system(FILE *f, const bench_system *s) {
    sink k = {json_text, json_number, f, 0};
    fputs("    {", f);
    text(&k, "id", s->id);
    text(&k, "kind", kind_name(s));
    text(&k, "algorithm", algorithm_name(s));
    text(&k, "device", s->device_label);
    text(&k, "device_name", s->device_name);
    integer(&k, "device_memory_bytes", s->device_memory ? (double)s->device_memory : NAN);
    integer(&k, "local_mem_bytes",
            s->kind == BENCH_SYSTEM_MAGNUS ? (double)s->local_mem_budget : NAN);
    integer(&k, "device_local_mem_bytes",
            s->kind == BENCH_SYSTEM_MAGNUS ? (double)s->device.local_mem_bytes : NAN);
    real(&k, "copy_gbps", s->copy_gbps > 0 ? s->copy_gbps : NAN);
    text(&k, "copy_note", s->copy_note);
    text(&k, "unavailable", s->unavailable);
    fputs("}", f);
}

bool bench_output_write_json(bench_output *out, const bench_system *systems, int nsystems,
                             const char *options_text, bool finished) {
    if (!out->json_path) return true;
    if (out->json_in_place && !finished) return true;
    /* A regular file is replaced whole (written beside it, then renamed), so that a reader
     * never sees half of it; anything else is written where it is. */
    char *tmp = NULL;
    if (!out->json_in_place) {
        size_t len = strlen(out->json_path) + 8;
        tmp = malloc(len);
        if (!tmp) {
            if (!out->json_error) out->json_error = ENOMEM;
            return false;
        }
        snprintf(tmp, len, "%s.tmp", out->json_path);
    }
    cli_outfile o;
    if (!cli_outfile_open(&o, tmp ? tmp : out->json_path)) {
        if (!out->json_error) out->json_error = o.error;
        free(tmp);
        return false;
    }
    FILE *f = o.file;
    fputs("{\n  \"tool\": \"magnus bench\",\n  \"version\": ", f);
    cli_json_write_string(f, magnus_version());
    fputs(",\n  \"command\": ", f);
    cli_json_write_string(f, options_text);
    fputs(",\n  \"timing\": ", f);
    cli_json_write_string(f, "host wall clock around each multiply, after the device is "
                             "synchronized; inputs resident on the device; one warm-up, then "
                             "the runs; C freed between runs outside the timing");
    fprintf(f, ",\n  \"finished\": %s,\n  \"systems\": [\n", finished ? "true" : "false");
    for (int i = 0; i < nsystems; i++) {
        json_system(f, &systems[i]);
        fputs(i + 1 < nsystems ? ",\n" : "\n", f);
    }
    fputs("  ],\n  \"columns\": [", f);
    emit_columns((sink){json_name, json_name_number, f, 0});
    fputs("],\n  \"rows\": [\n", f);
    for (int i = 0; i < out->count; i++) {
        sink k = {json_text, json_number, f, 0};
        fputs("    {", f);
        emit_row(&out->rows[i], &k);
        fputs(i + 1 < out->count ? "},\n" : "}\n", f);
    }
    fputs("  ]\n}\n", f);
    bool ok = cli_outfile_close(&o);
    int error = o.error;
    if (ok && tmp && rename(tmp, out->json_path) != 0) {
        ok = false;
        error = errno;
    }
    if (!ok && tmp) remove(tmp);
    if (!ok && !out->json_error) out->json_error = error ? error : EIO;
    free(tmp);
    return ok;
}

bool bench_output_failure(const bench_output *out, char *why, size_t n) {
    if (out->csv.error)
        snprintf(why, n, "cannot write %s: %s", out->csv.path, strerror(out->csv.error));
    else if (out->json_error)
        snprintf(why, n, "cannot write %s: %s", out->json_path, strerror(out->json_error));
    return out->csv.error || out->json_error;
}

bool bench_output_close(bench_output *out, char *why, size_t n) {
    cli_outfile_close(&out->csv);
    bool failed = bench_output_failure(out, why, n);
    free(out->rows);
    memset(out, 0, sizeof *out);
    return !failed;
}

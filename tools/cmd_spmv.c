/* `magnus spmv`: y = alpha*A*x + beta*y on a device in a chosen SpMV format, timed (conversion
 * and product apart), optionally checked against a product in double on the host and
 * written one value per line. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_commands.h"
#include "cli_common.h"
#include "cli_device.h"
#include "cli_matrix.h"


/* Reads `n` values, one per line (blank lines and lines starting with '%' or '#' skipped),
 * into values of `type`; path "-" is standard input. Returns 0 or the exit code after
 * reporting. */
static int read_vector(void *values, magnus_value_type type, int64_t n, const char *path,
                       const char *what) {
    const bool std_in = !strcmp(path, "-");
    const char *name = std_in ? "standard input" : path;
    FILE *f = std_in ? stdin : fopen(path, "r");
    if (!f) return cli_failf("%s: cannot open %s: %s", what, path, strerror(errno));
    char line[256];
    int64_t count = 0, lineno = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *p = line, *end;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\n' || *p == '\r' || *p == '\0' || *p == '%' || *p == '#') continue;
        end = p + strcspn(p, " \t\r\n");
        *end = '\0';
        double v;
        if (!cli_to_double(p, &v)) {
            rc = cli_failf("%s: %s:%lld: '%s' is not a number", what, name, (long long)lineno, p);
            break;
        }
        if (count < n) {
            if (type == MAGNUS_FLOAT64) ((double *)values)[count] = v;
            else ((float *)values)[count] = (float)v;
        }
        count++;
    }
    if (!rc && ferror(f)) rc = cli_failf("%s: reading %s failed", what, name);
    if (!std_in) fclose(f);
    if (!rc && count != n)
        rc = cli_failf("%s: %s has %lld values, A needs %lld", what, name, (long long)count,
                       (long long)n);
    return rc;
}

/* y, one value per line, to the file `path`, or to stdout when to_stdout; every write checked
 * (a full disk is an error, not a short file). */
static int write_vector(const char *path, bool to_stdout, const void *y, magnus_value_type type,
                        int64_t n) {
    cli_outfile o;
    if (to_stdout) cli_outfile_stdout(&o);
    else if (!cli_outfile_open(&o, path)) return cli_outfile_fail(&o);
    FILE *f = o.file;
    for (int64_t i = 0; i < n; i++) {
        if (type == MAGNUS_FLOAT64) fprintf(f, "%.17g\n", ((const double *)y)[i]);
        else fprintf(f, "%.9g\n", (double)((const float *)y)[i]);
    }
    return cli_outfile_close(&o) ? 0 : cli_outfile_fail(&o);
}

/* A vector of n values of `type` (what: its name, "x" or "y", and what sets its length),
 * `copies` times: checked against the host memory limit first, the way matrices are, so that
 * a file declaring 2^31 - 1 columns fails at once by name instead of allocating 16 GiB. */
static int vector_alloc(void **out, int64_t n, magnus_value_type type, int copies,
                        const char *what, const char *dimension) {
    *out = NULL;
    const uint64_t bytes = (uint64_t)(n > 0 ? n : 1) * magnus_value_size(type) * (uint64_t)copies;
    char label[160];
    snprintf(label, sizeof label, "%s (%s %s values, one per %s%s)", what, cli_count(n).s,
             type == MAGNUS_FLOAT64 ? "float64" : "float32", dimension,
             copies > 1 ? ", and its copy for --verify" : "");
    magnus_status s = magnus_host_memory_check(bytes, label);
    if (s) return cli_fail(s);
    if (!(*out = malloc((size_t)bytes))) return cli_failf("out of host memory for %s", label);
    return 0;
}

static double value_at(const void *v, magnus_value_type t, int64_t i) {
    return t == MAGNUS_FLOAT64 ? ((const double *)v)[i] : (double)((const float *)v)[i];
}

typedef struct spmv_check {
    bool done, passed;
    double max_rel_error; /* |y - ref| / (|alpha|.|A|.|x| + |beta.y0|) at its largest */
    int64_t worst_row;
} spmv_check;

/* The product in double on the host, row by row, against y. */
static void verify(spmv_check *c, const magnus_csr_s *A, const void *x, const void *y0,
                   double alpha, double beta, const void *y) {
    const magnus_value_type t = A->type;
    const double tol = t == MAGNUS_FLOAT64 ? 1e-10 : 1e-4;
    c->done = true;
    c->passed = true;
    c->max_rel_error = 0;
    c->worst_row = -1;
    for (int64_t i = 0; i < A->rows; i++) {
        double sum = 0, mag = 0;
        if (alpha != 0)
            for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
                double p = value_at(A->values, t, k) * value_at(x, t, A->col_idx[k]);
                sum += p;
                mag += fabs(p);
            }
        double y0_i = beta != 0 ? value_at(y0, t, i) : 0;
        double ref = alpha * sum + beta * y0_i;
        double scale = fabs(alpha) * mag + fabs(beta * y0_i);
        double err = fabs(value_at(y, t, i) - ref);
        double rel = err == 0 ? 0 : scale > 0 ? err / scale : INFINITY;
        if (!(rel <= c->max_rel_error)) {
            c->max_rel_error = rel;
            c->worst_row = i;
        }
    }
    c->passed = c->max_rel_error <= tol;
}

int cmd_spmv(int argc, char **argv) {
    bool json = false, do_verify = false;
    magnus_value_type type = MAGNUS_MM_TYPE_AUTO;
    const char *x_path = NULL, *y_path = NULL, *output = NULL, *format = "auto";
    const char *backend = NULL, *device = NULL;
    double alpha = 1, beta = 0;
    cli_args args = {.min = 1, .max = 1};
    const cli_option options[] = {
        {"--x", "-x", CLI_STRING, &x_path, "FILE",
         "x, one value per line (default: all ones; - is standard input)"},
        {"--y", "-y", CLI_STRING, &y_path, "FILE", "y before the product, one value per line "
         "(default: zeros; read only when beta != 0; - is standard input)"},
        {"--output", "-o", CLI_STRING, &output, "FILE",
         "write y, one value per line (%.9g / %.17g; - is stdout, the report then goes to "
         "stderr)"},
        {"--format", NULL, CLI_STRING, &format, "NAME",
         "auto (default), csr, csr-balanced, coo, hybrid or sellp"},
        {"--type", NULL, CLI_TYPE_OR_AUTO, &type, "auto|f32|f64",
         "value type of A, x and y (default auto: f64 for real and integer files, f32 for "
         "pattern files and generators)"},
        {"--alpha", NULL, CLI_REAL, &alpha, "A", "alpha (default 1)"},
        {"--beta", NULL, CLI_REAL, &beta, "B", "beta (default 0: y is not read)"},
        {"--verify", NULL, CLI_FLAG, &do_verify, NULL,
         "check y against the product summed in double on the host"},
        CLI_BACKEND_OPTION(&backend),
        CLI_DEVICE_OPTION(&device),
        CLI_JSON_OPTION(&json),
        {0},
    };
    const cli_spec spec = {
        .command = "spmv",
        .synopsis = "A [-x FILE] [-y FILE] [-o FILE] [--format auto|csr|csr-balanced|coo|hybrid|sellp]\n"
                    "       [--type auto|f32|f64] [--alpha A] [--beta B] [--verify] [--backend NAME]\n"
                    "       [--device SPEC] [--json]",
        .description = "Computes y = alpha*A*x + beta*y on the best device found (or the one --backend /\n"
                       "--device names) in an SpMV format, and reports the format that ran, the\n"
                       "conversion and product times (device events; kernel builds excluded) and\n"
                       "the product's GB/s of the byte floor (A's CSR, x, y). A is a Matrix Market\n"
                       "file (.mtx, .mtx.gz; - or a pipe is read as it comes; one of A, -x and -y\n"
                       "may be standard input) or a generator spec:\n" CLI_GENERATOR_SPECS,
        .options = options,
    };
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != CLI_CONTINUE) return rc;
    magnus_spmv_options opt;
    magnus_spmv_options_init(&opt);
    int fi = -1;
    /* the library's names (magnus_spmv_format_name), AUTO .. SELL_P */
    for (int i = MAGNUS_SPMV_AUTO; i <= MAGNUS_SPMV_SELL_P; i++)
        if (!strcmp(format, magnus_spmv_format_name((magnus_spmv_format)i))) fi = i;
    if (fi < 0) return cli_usage_error(&spec, "unknown format '%s'", format);
    opt.format = (magnus_spmv_format)fi;
    char why[512];
    if (!cli_device_check(backend, device, why, sizeof why)) return cli_usage_error(&spec, "%s", why);
    if (!isfinite(alpha) || !isfinite(beta)) return cli_usage_error(&spec, "alpha and beta must be finite");
    const bool x_stdin = x_path && !strcmp(x_path, "-"), y_stdin = y_path && !strcmp(y_path, "-");
    if ((int)!strcmp(args.at[0], "-") + (int)x_stdin + (int)y_stdin > 1)
        return cli_usage_error(&spec, "only one of A, -x and -y can be standard input ('-')");
    /* y to stdout: the report (text or JSON) to stderr, so that stdout holds y alone */
    const bool to_stdout = output && cli_output_is_stdout(output);
    FILE *report = to_stdout ? stderr : stdout;

    cli_progress progress;
    cli_progress_init(&progress, false);
    magnus_csr A = NULL;
    magnus_context ctx = NULL;
    void *x = NULL, *y = NULL, *y0 = NULL; /* y0: y before the product, for --verify */
    double seconds_a = 0, setup_seconds = 0;
    magnus_spmv_report rep;
    memset(&rep, 0, sizeof rep);
    spmv_check check = {0};
    magnus_device_info dev;
    bool have_dev = false, ran = false;
    magnus_status s;
    rc = output && !to_stdout ? cli_output_check(output) : 0;
    if (type == MAGNUS_MM_TYPE_AUTO && cli_is_generator_spec(args.at[0]))
        type = MAGNUS_FLOAT32; /* a generator's values; a file's field decides otherwise */
    if (!rc) rc = cli_matrix_load(&A, &seconds_a, args.at[0], type, &progress);
    if (!rc) type = A->type; /* what auto resolved to */
    cli_progress_done(&progress);
    const bool keep_y0 = do_verify && beta != 0;
    if (!rc) rc = vector_alloc(&x, A->cols, type, 1, "x", "column of A");
    if (!rc) rc = vector_alloc(&y, A->rows, type, keep_y0 ? 2 : 1, "y", "row of A");
    if (!rc) {
        for (int64_t j = 0; j < A->cols; j++) {
            if (type == MAGNUS_FLOAT64) ((double *)x)[j] = 1;
            else ((float *)x)[j] = 1;
        }
        memset(y, 0, (size_t)A->rows * magnus_value_size(type));
        if (x_path) rc = read_vector(x, type, A->cols, x_path, "-x");
    }
    if (!rc && y_path) rc = read_vector(y, type, A->rows, y_path, "-y");
    if (!rc && keep_y0) {
        y0 = (char *)y + (size_t)A->rows * magnus_value_size(type);
        memcpy(y0, y, (size_t)A->rows * magnus_value_size(type));
    }
    if (!rc) {
        char flags[256];
        double start = cli_now();
        if ((s = cli_device_choose(&dev, backend, device, flags, sizeof flags))) rc = cli_fail_in(s, flags);
        else if ((s = magnus_context_create(&ctx, &dev, NULL))) rc = cli_fail(s);
        else {
            have_dev = true;
            /* a 1x1 product builds or loads the kernels, so no build lands in the times */
            magnus_csr one = NULL;
            double one_v = 1;
            float one_f = 1;
            const void *one_x = type == MAGNUS_FLOAT64 ? (const void *)&one_v : (const void *)&one_f;
            double out_v = 0;
            if ((s = magnus_csr_new(&one, 1, 1, 1, type))) rc = cli_fail(s);
            else {
                one->row_ptr[1] = 1;
                one->col_idx[0] = 0;
                memcpy(one->values, one_x, magnus_value_size(type));
                if ((s = magnus_spmv_host(&out_v, ctx, 1, one, one_x, 0, &opt, NULL))) rc = cli_fail(s);
                magnus_csr_free(&one);
            }
        }
        setup_seconds = cli_now() - start;
    }
    if (!rc) {
        if ((s = magnus_spmv_host(y, ctx, alpha, A, x, beta, &opt, &rep))) rc = cli_fail(s);
        else ran = true;
    }
    if (!rc && do_verify) {
        verify(&check, A, x, y0, alpha, beta, y);
        if (!check.passed)
            rc = cli_failf("verification failed: y[%lld] is off by %.3g relative to "
                           "|alpha|.|A|.|x| + |beta.y|", (long long)check.worst_row, check.max_rel_error);
    }
    if (ran && output && rc == 0) rc = write_vector(output, to_stdout, y, type, A->rows);
    const double gbs = rep.product_ms > 0 ? (double)rep.floor_bytes / (rep.product_ms * 1e6) : 0;
    if (json) {
        cli_json j;
        cli_json_begin(&j, report);
        cli_json_string(&j, "type", cli_type_name(type));
        if (A) cli_matrix_json(&j, "A", A, args.at[0], seconds_a);
        cli_json_real(&j, "alpha", alpha);
        cli_json_real(&j, "beta", beta);
        cli_json_string(&j, "format_requested", format);
        if (have_dev) {
            cli_json_string(&j, "backend", magnus_backend_name(dev.backend));
            cli_json_string(&j, "device", dev.name);
            cli_json_real(&j, "setup_seconds", setup_seconds);
        }
        if (ran) {
            cli_json_string(&j, "format", magnus_spmv_format_name(rep.format));
            cli_json_real(&j, "conversion_ms", rep.conversion_ms);
            cli_json_real(&j, "product_ms", rep.product_ms);
            cli_json_int(&j, "floor_bytes", (int64_t)rep.floor_bytes);
            cli_json_real(&j, "gb_per_s", gbs);
            cli_json_int(&j, "format_bytes", (int64_t)rep.format_bytes);
            cli_json_int(&j, "lanes", rep.lanes);
            cli_json_int(&j, "ell_width", rep.ell_width);
            cli_json_int(&j, "coo_entries", rep.coo_entries);
            cli_json_int(&j, "groups", rep.groups);
            cli_json_string(&j, "format_reason", rep.format_reason);
            cli_json_int(&j, "long_rows", rep.long_rows);
            cli_json_int(&j, "long_row_threshold", rep.long_row_threshold);
            cli_json_int(&j, "hot_columns", rep.hot_columns);
            cli_json_real(&j, "hot_share", rep.hot_share);
        }
        if (check.done) {
            cli_json_object(&j, "verify");
            cli_json_bool(&j, "passed", check.passed);
            cli_json_real(&j, "max_rel_error", check.max_rel_error);
            cli_json_close(&j);
        }
        if (output && !rc) cli_json_string(&j, "output", output);
        cli_json_string(&j, "error", rc ? cli_last_failure() : NULL);
        cli_json_end(&j);
    } else if (ran) {
        cli_matrix_print(report, "A", A, args.at[0],
                         cli_is_generator_spec(args.at[0]) ? "generated" : "read", seconds_a);
        fprintf(report, "%-10s%s:%d %s\n", "device:", magnus_backend_name(dev.backend), dev.index,
                dev.name);
        fprintf(report, "%-10s%s\n", "format:", magnus_spmv_format_name(rep.format));
        fprintf(report, "%-10s%s", "why:", rep.format_reason ? rep.format_reason : "");
        if (rep.long_rows > 0)
            fprintf(report, "; %lld rows of more than %lld entries", (long long)rep.long_rows,
                    (long long)rep.long_row_threshold);
        fputc('\n', report);
        fprintf(report, "%-10sy = %g*A*x + %g*y\n", "product:", alpha, beta);
        fprintf(report, "%-10sconversion %.3f ms, product %.3f ms, %.3g GB/s of %s floor\n",
                "time:", rep.conversion_ms, rep.product_ms, gbs, cli_bytes(rep.floor_bytes).s);
        if (rep.hot_columns > 0)
            fprintf(report, "%-10s%lld hot columns of x in local memory, %.1f %% of the entries\n",
                    "hot x:", (long long)rep.hot_columns, 100 * rep.hot_share);
        if (check.done)
            fprintf(report, "%-10s%s (largest relative error %.3g)\n", "verify:",
                    check.passed ? "passed" : "FAILED", check.max_rel_error);
        if (output && !rc) fprintf(report, "%-10s%s\n", "wrote:", to_stdout ? "standard output" : output);
    }
    magnus_context_free(&ctx);
    magnus_csr_free(&A);
    free(x);
    free(y);
    return rc;
}

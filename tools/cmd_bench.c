/*
 * `magnus bench`: magnus against the vendor's SpGEMM (cuSPARSE) on the same device, in one
 * process, timed as the gMAGNUS paper did (§V). The work is in tools/bench/ (bench.h lists
 * the files); this file reads the options and runs the inputs one after the other.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "byte_size.h"
#include "cli_commands.h"

#define MAX_PER_ROW 16

/* "4,8,16" -> {4, 8, 16}; false when malformed or not positive. */
static bool parse_counts(const char *text, int64_t *out, int *count) {
    *count = 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, ',');
        char item[32];
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0 || len >= sizeof item || *count == MAX_PER_ROW) return false;
        memcpy(item, p, len);
        item[len] = 0;
        int64_t v;
        if (!cli_to_int64(item, &v) || v < 1) return false;
        out[(*count)++] = v;
        if (!end) break;
        p = end + 1;
    }
    return *count > 0;
}

/* "15-20" or "15". */
static bool parse_scales(const char *text, int *lo, int *hi) {
    char a[16], b[16];
    const char *dash = strchr(text, '-');
    size_t la = dash ? (size_t)(dash - text) : strlen(text);
    if (la == 0 || la >= sizeof a) return false;
    memcpy(a, text, la);
    a[la] = 0;
    snprintf(b, sizeof b, "%s", dash ? dash + 1 : a);
    int64_t x, y;
    if (!cli_to_int64(a, &x) || !cli_to_int64(b, &y) || x < 1 || y > 30 || x > y) return false;
    *lo = (int)x;
    *hi = (int)y;
    return true;
}

/* The command line as one string, for the JSON file. */
static char *join_arguments(int argc, char **argv) {
    size_t len = strlen("magnus") + 1;
    for (int i = 0; i < argc; i++) len += strlen(argv[i]) + 1;
    char *text = malloc(len);
    if (!text) return NULL;
    strcpy(text, "magnus");
    for (int i = 0; i < argc; i++) {
        strcat(text, " ");
        strcat(text, argv[i]);
    }
    return text;
}

int cmd_bench(int argc, char **argv) {
    const char *matrices = NULL, *scales = "15-20", *a_list = "4,8,16,32", *b_list = "4,8,16";
    const char *csv_path = NULL, *json_path = NULL, *bandwidth = NULL, *host_limit = "64G";
    const char *op = "spgemm";
    bench_system_request req = {0};
    bool rmat_sweep = false, no_fit_check = false, progress_forced = false, list_columns = false;
    bool cusparse_all = false, plan = false, unreported = false;
    uint64_t seed = 1;
    const char *seed_list = NULL;
    int64_t runs = 20, runs_large = 5;
    double large_products = 1e9, min_products = 0, max_products = 0, verify_limit = 1e8;
    double rtol = 0, max_timed = 0, time_limit = 0;
    magnus_value_type type = MAGNUS_MM_TYPE_AUTO;
    cli_args args = {.max = CLI_MAX_POSITIONAL};
    const cli_option options[] = {
        {"--op", NULL, CLI_STRING, &op, "spgemm|spmv",
         "what to time: C = A*B (default), or y = A*x in every SpMV format (A of each input; "
         "median of --runs, GB/s of the byte floor; every cuSPARSE SpMV algorithm beside them "
         "on CUDA, and the speedup over the fastest)"},
        {"--matrices", NULL, CLI_STRING, &matrices, "DIR", "every .mtx/.mtx.gz in DIR, squared"},
        {"--rmat-sweep", NULL, CLI_FLAG, &rmat_sweep, NULL,
         "R-MAT pairs A (a per row, seed S) x B (b per row, seed S+1), Graph500 a,b,c"},
        {"--scales", NULL, CLI_STRING, &scales, "LO-HI", "sweep scales (default 15-20)"},
        {"--a-per-row", NULL, CLI_STRING, &a_list, "LIST", "sweep A densities (default 4,8,16,32)"},
        {"--b-per-row", NULL, CLI_STRING, &b_list, "LIST", "sweep B densities (default 4,8,16)"},
        {"--seed", NULL, CLI_UINT, &seed, "S", "sweep seed of A; B uses S+1 (default 1)"},
        {"--seeds", NULL, CLI_STRING, &seed_list, "LIST",
         "several sweep seeds (1,2): every pair once per seed, named -seedS beyond seed 1"},
        {"--min-products", NULL, CLI_REAL, &min_products, "P",
         "leave out inputs with fewer intermediate products (e.g. 1e7)"},
        {"--max-products", NULL, CLI_REAL, &max_products, "P",
         "skip inputs with more products (default: no limit)"},
        {"--systems", NULL, CLI_STRING, &req.systems, "LIST",
         "exactly these: DEVICE (a spec as --device takes it: cuda:0, gpu, opencl:nvidia), "
         "ALGO@DEVICE (hash@cuda:0), cusparse[@cuda:N] (cuMemAlloc'd buffers), "
         "cusparse-pool[@cuda:N] (buffers from a stream-ordered pool, as magnus's)"},
        {"--exclude", NULL, CLI_STRING, &req.exclude, "LIST", "leave out devices or systems"},
        {"--algorithms", NULL, CLI_STRING, &req.algorithms, "LIST",
         "magnus algorithms on each device: auto (the library's choice per input), gmagnus (gMAGNUS; magnus accepted too), hash (default gmagnus)"},
        {"--cpu", NULL, CLI_FLAG, &req.include_cpu, NULL,
         "default systems include CPU devices (PoCL) even when a GPU exists"},
        {"--no-baseline", NULL, CLI_FLAG, &req.no_baseline, NULL, "default systems without cuSPARSE"},
        {"--cusparse-lib", NULL, CLI_STRING, &req.cusparse_library, "PATH",
         "libcusparse to load (default: libcusparse.so.12, .so.13, /usr/local/cuda/lib64)"},
        {"--cusparse-all", NULL, CLI_FLAG, &cusparse_all, NULL,
         "time every cuSPARSE algorithm RUNS times (default: one trial each, RUNS of the best)"},
        {"--unreported", NULL, CLI_FLAG, &unreported, NULL,
         "magnus systems: time the runs without a report, as a library caller who asks for "
         "none (no device timers between the phases); the phase columns come from one more, "
         "untimed run"},
        {"--plan", NULL, CLI_FLAG, &plan, NULL,
         "magnus systems: also make a plan once and time its re-executions into C (new "
         "values written first, the result verified; plan_* columns)"},
        {"--runs", NULL, CLI_INT, &runs, "N", "timed runs after one warm-up (default 20)"},
        {"--runs-large", NULL, CLI_INT, &runs_large, "N",
         "timed runs of inputs above --large-products (default 5)"},
        {"--large-products", NULL, CLI_REAL, &large_products, "P", "default 1e9"},
        {"--max-timed-seconds", NULL, CLI_REAL, &max_timed, "S",
         "stop a system's timed runs after S seconds (at least 3 runs; default: no limit)"},
        {"--time-limit", NULL, CLI_REAL, &time_limit, "S",
         "start no input after S seconds (the rest are skipped rows); past it, a running "
         "input's systems stop after min(3, --runs) timed runs, each checked (default: none)"},
        {"--verify-limit", NULL, CLI_REAL, &verify_limit, "P",
         "CPU reference check up to P products (default 1e8); above: baseline + C*x check"},
        {"--rtol", NULL, CLI_REAL, &rtol, "R",
         "tolerance relative to |A|*|B| (default 1e-3 for f32, 1e-9 for f64)"},
        {"--type", NULL, CLI_TYPE_OR_AUTO, &type, "auto|f32|f64",
         "value type (default auto: f64 for real and integer files, f32 for pattern files, "
         "R-MAT and generators; per input, in the value_type column)"},
        {"--no-fit-check", NULL, CLI_FLAG, &no_fit_check, NULL,
         "run inputs whose estimated device memory exceeds the device's"},
        {"--host-memory-limit", NULL, CLI_STRING, &host_limit, "SIZE",
         "host bytes of magnus C kept for the baseline comparison (default 64G)"},
        {"--bandwidth-bytes", NULL, CLI_STRING, &bandwidth, "SIZE",
         "copy-bandwidth buffer (default 1G on GPUs, 64M on CPUs)"},
        {"--no-bandwidth", NULL, CLI_FLAG, &req.skip_bandwidth, NULL,
         "do not measure the copy bandwidth (no speed-of-light columns)"},
        {"--csv", NULL, CLI_STRING, &csv_path, "FILE", "write the rows as CSV"},
        {"--json", NULL, CLI_STRING, &json_path, "FILE", "write the rows and systems as JSON"},
        {"--list-columns", NULL, CLI_FLAG, &list_columns, NULL, "print the column names and exit"},
        {"--progress", NULL, CLI_FLAG, &progress_forced, NULL,
         "show per-run progress on stderr even when it is not a terminal"},
        {0},
    };
    const cli_spec spec = {
        .command = "bench",
        .synopsis = "[INPUT...] [--matrices DIR] [--rmat-sweep] [--systems LIST] [--csv F] [--json F]",
        .description =
            "Times C = A*B end to end on device-resident inputs (one warm-up, then the mean,\n"
            "median and min of --runs runs) for magnus on each device and for cuSPARSE's\n"
            "generic SpGEMM (ALG1, ALG2, ALG3 with chunk fractions 0.1-0.5; the best that\n"
            "succeeds), in one process. Every C is verified (CPU reference, the baseline's C,\n"
            "or C*x = A*(B*x)); a mismatch is printed and makes the exit status 1, as does a\n"
            "failed magnus run. INPUT: FILE (.mtx, .mtx.gz; squared), A,B, or a generator\n"
            "spec (rmat:SCALE:PER_ROW[:SEED], ...). Columns: bench/README.md.",
        .options = options,
    };
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != CLI_CONTINUE) return rc;
    if (list_columns) {
        bench_print_columns(stdout);
        return CLI_EXIT_OK;
    }
    const bool spmv = !strcmp(op, "spmv");
    if (!spmv && strcmp(op, "spgemm")) return cli_usage_error(&spec, "unknown --op '%s'", op);
    if (spmv) req.no_baseline = true;
    if (runs < 1 || runs > 100000 || runs_large < 1 || runs_large > 100000)
        return cli_usage_error(&spec, "--runs and --runs-large must be in 1..100000");
    if (rtol < 0 || max_timed < 0 || time_limit < 0 || verify_limit < 0)
        return cli_usage_error(&spec, "negative --rtol, --max-timed-seconds, --time-limit or "
                                      "--verify-limit");
    if (bandwidth &&
        (magnus_parse_bytes(&req.bandwidth_bytes, bandwidth) || req.bandwidth_bytes < 4096))
        return cli_usage_error(&spec, "--bandwidth-bytes: expected a size of at least 4096 (1G, 64M)");
    bench_session s = {0};
    if (magnus_parse_bytes(&s.host_limit, host_limit))
        return cli_usage_error(&spec, "--host-memory-limit: expected a size (64G)");

    char why[BENCH_TEXT];
    bench_input_list inputs = {0};
    bool ok = true;
    for (int i = 0; ok && i < args.count; i++)
        ok = bench_inputs_add_source(&inputs, args.at[i], why, sizeof why);
    if (ok && matrices) ok = bench_inputs_add_dir(&inputs, matrices, why, sizeof why);
    if (ok && rmat_sweep) {
        int lo, hi, na, nb, nseeds = 1;
        int64_t a[MAX_PER_ROW], b[MAX_PER_ROW], seeds[MAX_PER_ROW] = {(int64_t)seed};
        if (!parse_scales(scales, &lo, &hi) || !parse_counts(a_list, a, &na) ||
            !parse_counts(b_list, b, &nb) || (seed_list && !parse_counts(seed_list, seeds, &nseeds))) {
            bench_inputs_free(&inputs);
            return cli_usage_error(&spec, "--scales LO-HI (1..30), --a-per-row, --b-per-row and "
                                          "--seeds lists of positive counts (4,8,16)");
        }
        ok = bench_inputs_add_rmat_sweep(&inputs, lo, hi, a, na, b, nb, seeds, nseeds, why,
                                         sizeof why);
    }
    if (!ok) {
        bench_inputs_free(&inputs);
        return cli_usage_error(&spec, "%s", why);
    }
    if (inputs.count == 0) {
        bench_inputs_free(&inputs);
        return cli_usage_error(&spec, "no input: give files, --matrices DIR or --rmat-sweep");
    }

    /* The outputs before any work (probing devices, measuring bandwidth, the runs): a path
     * that cannot be written fails at once. */
    bench_spmv_files spmv_out = {0};
    if (spmv ? !bench_spmv_files_open(&spmv_out, csv_path, json_path, type, (int)runs)
             : !bench_output_open(&s.output, csv_path, json_path, why, sizeof why)) {
        if (!spmv) cli_failf("%s", why);
        bench_output_close(&s.output, why, sizeof why);
        bench_spmv_files_close(&spmv_out);
        bench_inputs_free(&inputs);
        return CLI_EXIT_FAILURE;
    }

    bench_system systems[BENCH_MAX_SYSTEMS];
    int nsystems = 0;
    fprintf(stderr, "magnus bench: probing devices and measuring copy bandwidth\n");
    if (!bench_systems_build(systems, &nsystems, &req, why, sizeof why)) {
        bench_systems_free(systems, nsystems);
        bench_inputs_free(&inputs);
        bench_output_close(&s.output, NULL, 0);
        bench_spmv_files_close(&spmv_out);
        return cli_usage_error(&spec, "%s", why);
    }
    if (nsystems == 0) {
        bench_inputs_free(&inputs);
        bench_output_close(&s.output, NULL, 0);
        bench_spmv_files_close(&spmv_out);
        return cli_failf("no system to run (no device found, or all excluded; see magnus probe)");
    }
    for (int i = 0; i < nsystems; i++) {
        fprintf(stderr, "  %-20s %s", systems[i].id, systems[i].device_name);
        if (systems[i].copy_gbps > 0)
            fprintf(stderr, ", copy %.1f GB/s (%s)", systems[i].copy_gbps, systems[i].copy_note);
        else if (systems[i].kind == BENCH_SYSTEM_MAGNUS)
            fprintf(stderr, ", %s", systems[i].copy_note);
        if (systems[i].unavailable[0]) fprintf(stderr, "\n    UNAVAILABLE: %s", systems[i].unavailable);
        fputc('\n', stderr);
    }

    if (spmv) {
        rc = bench_spmv_run(&inputs, systems, nsystems, type, (int)runs, &spmv_out);
        if (!bench_spmv_files_close(&spmv_out)) rc = CLI_EXIT_FAILURE;
        bench_systems_free(systems, nsystems);
        bench_inputs_free(&inputs);
        return rc;
    }
    s.systems = systems;
    s.nsystems = nsystems;
    s.type = type;
    s.runs = (int)runs;
    s.runs_large = (int)runs_large;
    s.large_products = large_products;
    s.min_products = min_products;
    s.max_products = max_products;
    s.verify_limit = verify_limit;
    s.rtol = rtol;
    s.max_timed_seconds = max_timed;
    s.fit_check = !no_fit_check;
    s.cusparse_time_all = cusparse_all;
    s.unreported = unreported;
    s.plan = plan;
    s.time_limit = time_limit;
    char *command = join_arguments(argc, argv);
    s.command = command ? command : "magnus bench";
    cli_progress_init(&s.progress, progress_forced);
    s.started = cli_now();
    for (int i = 0; i < inputs.count; i++) bench_run_input(&s, &inputs.items[i], i, inputs.count);
    bench_output_write_json(&s.output, systems, nsystems, s.command, true);

    bench_summary_print(stdout, &s.output, systems, nsystems);
    rc = CLI_EXIT_OK;
    if (s.mismatches) {
        fprintf(stderr,
                "magnus bench: %d result%s did NOT verify (verified=no or plan_verified=no)\n",
                s.mismatches,
                s.mismatches == 1 ? "" : "s");
        rc = CLI_EXIT_FAILURE;
    }
    if (s.magnus_failures) {
        fprintf(stderr, "magnus bench: magnus failed on %d (input, system) pair%s\n",
                s.magnus_failures, s.magnus_failures == 1 ? "" : "s");
        rc = CLI_EXIT_FAILURE;
    }
    /* a file that could not be written fails the run (told once more, at the end) */
    if (!bench_output_close(&s.output, why, sizeof why)) rc = cli_failf("%s", why);
    bench_rmat_cache_free(&s.cache);
    bench_systems_free(systems, nsystems);
    bench_inputs_free(&inputs);
    free(command);
    return rc;
}

/* `magnus rmat` and `magnus gen`: write generated matrices as Matrix Market files. */
#include <string.h>

#include "cli_commands.h"
#include "cli_common.h"
#include "cli_gen_limits.h"
#include "cli_matrix.h"

/* The end of both commands: generates req's matrix, writes it to path and reports the matrix
 * and both times on stdout. */
static int generate_and_write(const cli_gen_request *req, const char *path, bool progress_forced) {
    /* the output first: a path that cannot be written fails before the matrix is made */
    int rc = strcmp(path, "-") ? cli_output_check(path) : 0;
    if (rc) return rc;
    cli_progress progress;
    cli_progress_init(&progress, progress_forced);
    magnus_csr M = NULL;
    double gen_seconds = 0;
    magnus_status s = cli_gen_run_timed(&M, &gen_seconds, req, &progress);
    if (s) return cli_fail(s);
    cli_progress_update(&progress, -1, "writing");
    double start = cli_now();
    /* a pattern R-MAT is written as what it is: a `pattern` file, read back as f32 ones */
    const bool pattern = req->rmat && req->rmat->pattern;
    s = pattern ? magnus_mm_write_pattern(path, M) : magnus_mm_write(path, M);
    double write_seconds = cli_now() - start;
    cli_progress_done(&progress);
    if (s) {
        rc = cli_fail(s);
    } else {
        printf("wrote %s: %s x %s, %s entries (%s; generated in %s, written in %s)\n", path,
               cli_count(M->rows).s, cli_count(M->cols).s, cli_count(M->nnz).s,
               cli_gen_describe(req).s, cli_duration(gen_seconds).s,
               cli_duration(write_seconds).s);
    }
    magnus_csr_free(&M);
    return rc;
}

int cmd_rmat(int argc, char **argv) {
    magnus_rmat_options opt;
    magnus_status s = magnus_rmat_options_init(&opt);
    if (s) return cli_fail(s);
    int64_t scale = -1, per_row = -1;
    uint64_t seed = opt.seed;
    magnus_value_type type = opt.type;
    bool pattern = false, progress_forced = false;
    const char *output = NULL;
    char help_a[64], help_b[64], help_c[64];
    snprintf(help_a, sizeof help_a, "probability of the top-left quadrant (default %g)", opt.a);
    snprintf(help_b, sizeof help_b, "probability of the top-right quadrant (default %g)", opt.b);
    snprintf(help_c, sizeof help_c, "probability of the bottom-left quadrant (default %g)", opt.c);
    const cli_option options[] = {
        {"--scale", NULL, CLI_INT, &scale, "S", "2^S rows and columns (1..30; required)"},
        {"--per-row", NULL, CLI_INT, &per_row, "N",
         "edges drawn per row on average, before duplicates are merged (required)"},
        {"--a", NULL, CLI_REAL, &opt.a, "P", help_a},
        {"--b", NULL, CLI_REAL, &opt.b, "P", help_b},
        {"--c", NULL, CLI_REAL, &opt.c, "P", help_c},
        {"--seed", NULL, CLI_UINT, &seed, "SEED", "random seed (default 1)"},
        {"--pattern", NULL, CLI_FLAG, &pattern, NULL,
         "write a `pattern` file: the structure alone, read back as values 1 (else a `real` "
         "file, values uniform in [0.5, 1.5))"},
        CLI_GEN_TYPE_OPTION(&type),
        CLI_GEN_OUTPUT_OPTION(&output),
        CLI_PROGRESS_OPTION(&progress_forced),
        {0},
    };
    const cli_spec spec = {
        .command = "rmat",
        .synopsis = "--scale S --per-row N [--a P --b P --c P] [--seed SEED] [--pattern]\n"
                    "                   [--type f32|f64] -o FILE",
        .description = "Generates a plain R-MAT matrix, as PaRMAT draws it (the gMAGNUS paper's\n"
                       "generator): Graph500's default probabilities a, b, c, but none of Graph500's\n"
                       "per-level noise or vertex permutation, so low indices are the dense ones;\n"
                       "duplicate edges are merged. Writes it in Matrix Market format, gzip-\n"
                       "compressed when FILE ends in .gz. The same seed gives the same matrix on\n"
                       "every machine.",
        .options = options,
    };
    int rc = cli_parse(&spec, argc, argv, NULL);
    if (rc != CLI_CONTINUE) return rc;
    if (!cli_option_given(&scale)) return cli_usage_error(&spec, "--scale is required");
    if (scale < 1 || scale > CLI_RMAT_SCALE_MAX)
        return cli_usage_error(&spec, "--scale %lld outside 1..%d", (long long)scale,
                               CLI_RMAT_SCALE_MAX);
    if (!cli_option_given(&per_row)) return cli_usage_error(&spec, "--per-row is required");
    if (per_row < 0)
        return cli_usage_error(&spec, "invalid value '%lld' for --per-row (expected a "
                                      "non-negative integer)", (long long)per_row);
    if (!output) return cli_usage_error(&spec, "-o FILE is required");
    opt.pattern = pattern;
    if (pattern && cli_option_given(&type))
        return cli_usage_error(&spec, "--type has no effect with --pattern (a pattern file holds "
                                      "no values)");
    /* cli_gen_run keeps a scale beyond int out of range rather than wrapped. */
    cli_gen_request req = {
        .kind = "rmat", .n = {scale, per_row}, .seed = seed, .type = type, .rmat = &opt};
    return generate_and_write(&req, output, progress_forced);
}

int cmd_gen(int argc, char **argv) {
    uint64_t seed = 1;
    magnus_value_type type = MAGNUS_FLOAT32;
    bool progress_forced = false;
    const char *output = NULL;
    cli_args args = {.min = 1, .max = 5};
    const cli_option options[] = {
        {"--seed", NULL, CLI_UINT, &seed, "SEED", "random seed for banded/uniform/rmat/star (default 1)"},
        CLI_GEN_TYPE_OPTION(&type),
        CLI_GEN_OUTPUT_OPTION(&output),
        CLI_PROGRESS_OPTION(&progress_forced),
        {0},
    };
    const cli_spec spec = {
        .command = "gen",
        .synopsis = "{laplace2d NX NY | laplace3d NX NY NZ | banded N LOWER UPPER |\n"
                    "                  uniform ROWS COLS PER_ROW | rmat SCALE PER_ROW |\n"
                    "                  star N LONG LEN DEG} [--seed SEED]\n"
                    "                  [--type f32|f64] -o FILE",
        .description =
            "Generates a matrix and writes it in Matrix Market format (gzip-compressed when\n"
            "FILE ends in .gz):\n"
            "  laplace2d NX NY            5-point Laplacian on an NX x NY grid (4 / -1)\n"
            "  laplace3d NX NY NZ         7-point Laplacian on an NX x NY x NZ grid (6 / -1)\n"
            "  banded N LOWER UPPER       N x N, entries with -LOWER <= j-i <= UPPER, values\n"
            "                             uniform in [0.5, 1.5)\n"
            "  uniform ROWS COLS PER_ROW  about PER_ROW distinct random columns per row\n"
            "  rmat SCALE PER_ROW         R-MAT with Graph500 defaults (see 'magnus rmat')\n"
            "  star N LONG LEN DEG        N x N star mixture (LP-like): LONG random rows of LEN\n"
            "                             random columns over all N, the other rows of DEG;\n"
            "                             each long row's index is a column of DEG short rows\n"
            "                             (docs/generators.md)",
        .options = options,
    };
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != CLI_CONTINUE) return rc;
    cli_gen_request req = {.seed = seed, .type = type};
    char why[160];
    if (!cli_gen_parse(&req, args.at[0], args.count - 1, args.at + 1, false, why,
                       sizeof why))
        return cli_usage_error(&spec, "%s", why);
    if (!output) return cli_usage_error(&spec, "-o FILE is required");
    return generate_and_write(&req, output, progress_forced);
}

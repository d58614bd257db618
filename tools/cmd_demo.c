/* `magnus demo`: the README's main job with no files: an R-MAT pair, multiplied on the best
 * device found (PoCL's CPU device when there is no GPU) by the algorithm AUTO picks, and
 * verified. */
#include "cli_commands.h"
#include "cli_common.h"
#include "cli_matrix.h"
#include "cli_product.h"

/* A is sparse (4 per row) and B denser (8 per row), drawn with distinct seeds, so the product
 * is not a square of one matrix and its rows have skewed product counts. */
#define DEMO_A_PER_ROW 4
#define DEMO_B_PER_ROW 8

int cmd_demo(int argc, char **argv) {
    int64_t scale = 14;
    uint64_t seed = 1;
    magnus_value_type type = MAGNUS_FLOAT32;
    bool json = false, progress_forced = false;
    compute_options how = {0};
    cli_verify_choice verify;
    cli_verify_choice_init(&verify);
    verify.always = true;
    const cli_option options[] = {
        {"--scale", NULL, CLI_INT, &scale, "S", "2^S rows (1..24, default 14)"},
        {"--seed", NULL, CLI_UINT, &seed, "SEED", "seed of A; B uses SEED+1 (default 1)"},
        CLI_GEN_TYPE_OPTION(&type),
        CLI_COMPUTE_OPTIONS(&how),
        {"--verify", NULL, CLI_FLAG_VALUE, &verify.mode, "MODE",
         "how to check C (always checked): exact up to --verify-limit products, random beyond; "
         "=exact or =random forces one"},
        CLI_VERIFY_OPTIONS(&verify),
        CLI_JSON_OPTION(&json),
        CLI_PROGRESS_OPTION(&progress_forced),
        {0},
    };
    const cli_spec spec = {
        .command = "demo",
        .synopsis = "[--scale S] [--seed SEED] [--type f32|f64] [--backend NAME] [--device SPEC | --cpu]\n"
                    "       [--algorithm auto|gmagnus|hash] [--local-mem BYTES] [--verify=MODE] [--json]",
        .description = "Generates an R-MAT pair (A: 4 per row, B: 8 per row, distinct seeds),\n"
                       "multiplies C = A*B on the best device found (a GPU through CUDA, Level Zero\n"
                       "or OpenCL; PoCL's CPU device otherwise), verifies C against an independently\n"
                       "recomputed CPU reference and prints a short report ending in 'verified: yes'.\n"
                       "The method is the library's choice (--algorithm auto, docs/algorithm.md §7):\n"
                       "the hash algorithm when C's columns fit a dense row in local memory (the\n"
                       "default scale's 16,384 do on PoCL and on the H200), else gMAGNUS or the hash\n"
                       "algorithm by the long rows' share of the products; the report's 'method:'\n"
                       "line says which ran and why, and --algorithm gmagnus (or hash) forces one.\n"
                       "The first run on an OpenCL device may spend tens of seconds building the\n"
                       "kernels (a note on stderr says so when it starts; the time is reported as\n"
                       "'ready in', with the first launch of every kernel, out of the compute time);\n"
                       "later runs load them from the disk cache.",
        .options = options,
    };
    int rc = cli_parse(&spec, argc, argv, NULL);
    if (rc != CLI_CONTINUE) return rc;
    verify_options vopt;
    if ((rc = product_options_check(&vopt, &spec, &how, &verify)) != CLI_CONTINUE) return rc;
    /* The demo is meant to be quick; beyond 2^24 rows use `magnus multiply rmat:...`. */
    if (scale < 1 || scale > 24) return cli_usage_error(&spec, "--scale must be in 1..24");

    cli_progress progress;
    cli_progress_init(&progress, progress_forced);
    magnus_csr A = NULL, B = NULL;
    double seconds_a = 0, seconds_b = 0;
    product_run run = {0};
    cli_gen_request gen_a = {
        .kind = "rmat", .n = {scale, DEMO_A_PER_ROW}, .seed = seed, .type = type};
    cli_gen_request gen_b = gen_a;
    gen_b.n[1] = DEMO_B_PER_ROW;
    gen_b.seed = seed + 1;
    magnus_status s = cli_gen_run_timed(&A, &seconds_a, &gen_a, &progress);
    if (!s) s = cli_gen_run_timed(&B, &seconds_b, &gen_b, &progress);
    if (s) {
        rc = cli_fail(s);
        goto done;
    }
    rc = product_run_execute(&run, A, B, &how, &vopt, &progress);
    if (!run.C) goto done;

    cli_text what_a = cli_gen_describe(&gen_a), what_b = cli_gen_describe(&gen_b);
    if (json) {
        cli_json j;
        cli_json_begin(&j, stdout);
        cli_json_string(&j, "type", cli_type_name(type));
        cli_json_int(&j, "scale", scale);
        cli_matrix_json(&j, "A", A, what_a.s, seconds_a);
        cli_matrix_json(&j, "B", B, what_b.s, seconds_b);
        product_run_json(&run, &j);
        cli_json_end(&j);
    } else {
        printf("magnus demo: C = A*B on an R-MAT pair, %s values\n", cli_type_name(type));
        cli_matrix_print(stdout, "A", A, what_a.s, "generated", seconds_a);
        cli_matrix_print(stdout, "B", B, what_b.s, "generated", seconds_b);
        product_run_print(&run, stdout);
    }
done:
    cli_progress_done(&progress);
    product_run_free(&run);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    return rc;
}

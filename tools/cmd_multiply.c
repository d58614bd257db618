/* `magnus multiply`: C = A*B on a device (or the CPU reference), timed, optionally verified and
 * written. */
#include <string.h>

#include "cli_commands.h"
#include "cli_common.h"
#include "cli_matrix.h"
#include "cli_product.h"

int cmd_multiply(int argc, char **argv) {
    bool json = false, progress_forced = false;
    magnus_value_type type = MAGNUS_MM_TYPE_AUTO;
    const char *output = NULL;
    compute_options how = {0};
    cli_verify_choice verify;
    cli_verify_choice_init(&verify);
    cli_args args = {.min = 1, .max = 2};
    const cli_option options[] = {
        {"--output", "-o", CLI_STRING, &output, "FILE",
         "write C to FILE (.mtx or .mtx.gz; - is stdout, the reports then go to stderr)"},
        {"--verify", NULL, CLI_FLAG_VALUE, &verify.mode, "MODE",
         "check C: exact (CPU reference) up to --verify-limit products, random beyond; "
         "=exact or =random forces one"},
        CLI_VERIFY_OPTIONS(&verify),
        CLI_COMPUTE_OPTIONS(&how),
        CLI_PRODUCT_TYPE_OPTION(&type),
        CLI_JSON_OPTION(&json),
        CLI_PROGRESS_OPTION(&progress_forced),
        {0},
    };
    const cli_spec spec = {
        .command = "multiply",
        .synopsis = "A [B] [-o C.mtx] [--verify[=MODE]] [--backend NAME] [--device SPEC | --cpu]\n"
                    "       [--algorithm auto|gmagnus|hash] [--local-mem BYTES] [--type auto|f32|f64] [--json]",
        .description = "Computes C = A*B (C = A*A when B is omitted) on the best device found (or the\n"
                       "one --backend / --device names; --cpu: the CPU reference) and reports shapes,\n"
                       "entries, intermediate products, device, time and GFLOP/s (2 * products /\n"
                       "time; the time excludes reading, device set-up, kernel builds and the\n"
                       "first launch of each kernel: those are 'ready in', a multiply of a sample\n"
                       "of A's rows before the timed one), and the multiply's own report: phase times, gMAGNUS parameters, heavy rows and\n"
                       "products, C-hat size and peak device memory.\n"
                       "A and B are Matrix Market files (.mtx, .mtx.gz; - or a pipe such as\n"
                       "/dev/stdin is read as it comes) or generator specs:\n" CLI_GENERATOR_SPECS,
        .options = options,
    };
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != CLI_CONTINUE) return rc;
    verify_options vopt;
    if ((rc = product_options_check(&vopt, &spec, &how, &verify)) != CLI_CONTINUE) return rc;
    /* "--verify random" reads "random" as matrix B; say how to write it. */
    if (verify.mode && !*verify.mode)
        for (int i = 0; i < args.count; i++)
            if (!strcmp(args.at[i], "exact") || !strcmp(args.at[i], "random"))
                return cli_usage_error(&spec, "write --verify=%s (with '=')", args.at[i]);
    const char *source_a = args.at[0];
    const char *source_b = args.count > 1 ? args.at[1] : NULL;

    cli_progress progress;
    cli_progress_init(&progress, progress_forced);
    cli_input inputs[2] = {{.source = source_a}, {.source = source_b}};
    const int ninputs = source_b ? 2 : 1;
    double write_seconds = 0;
    product_run run = {0};
    const bool to_stdout = output && cli_output_is_stdout(output);
    FILE *report = to_stdout ? stderr : stdout;
    /* the output first: a path that cannot be written fails before any work */
    rc = output && !to_stdout ? cli_output_check(output) : 0;
    if (!rc) rc = cli_inputs_load(inputs, ninputs, type, &progress);
    const magnus_csr A = inputs[0].M, B = inputs[1].M;
    if (!rc)
        rc = product_run_execute(&run, A, B ? B : A, &how, verify.mode ? &vopt : NULL,
                                 &progress);
    if (!rc && output) {
        cli_progress_update(&progress, -1, "writing C");
        double start = cli_now();
        magnus_status s = magnus_mm_write(to_stdout ? "-" : output, run.C);
        write_seconds = cli_now() - start;
        cli_progress_done(&progress);
        if (s) rc = cli_fail(s);
    }
    if (json) {
        /* always one object: what is known, and "error" when something failed */
        cli_json j;
        cli_json_begin(&j, report);
        cli_json_string(&j, "type", A ? cli_type_name(A->type) : cli_type_name(type));
        if (A) cli_input_json(&j, "A", &inputs[0]);
        if (B)
            cli_input_json(&j, "B", &inputs[1]);
        else if (A && !source_b)
            cli_json_string(&j, "B", "A");
        if (run.C) product_run_json(&run, &j);
        if (output && !rc) {
            cli_json_string(&j, "output", output);
            cli_json_real(&j, "write_seconds", write_seconds);
        }
        cli_json_string(&j, "error", rc ? cli_last_failure() : NULL);
        cli_json_end(&j);
    } else if (run.C) {
        const char *how_a = cli_is_generator_spec(source_a) ? "generated" : "read";
        cli_matrix_print(report, "A", A, source_a, how_a, inputs[0].seconds);
        if (B)
            cli_matrix_print(report, "B", B, source_b,
                             cli_is_generator_spec(source_b) ? "generated" : "read",
                             inputs[1].seconds);
        else
            fprintf(report, "%-10s= A\n", "B:");
        cli_inputs_print_type(report, inputs, ninputs, 10);
        product_run_print(&run, report);
        if (output && !rc)
            fprintf(report, "%-10s%s (in %s)\n", "wrote:", output, cli_duration(write_seconds).s);
    }
    cli_progress_done(&progress);
    product_run_free(&run);
    cli_inputs_free(inputs, ninputs);
    return rc;
}

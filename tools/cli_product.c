/* The measured multiply shared by `magnus multiply` and `magnus demo`. */
#include "cli_product.h"

#include <string.h>

double cli_gflops(int64_t products, double seconds) {
    return seconds > 0 ? 2.0 * (double)products / seconds * 1e-9 : 0;
}

int product_run_execute(product_run *run, const magnus_csr_s *A, const magnus_csr_s *B,
                        bool verify, cli_progress *progress) {
    memset(run, 0, sizeof *run);
    run->verify_requested = verify;
    magnus_status s = magnus_csr_stats_compute(&run->stats, A, B);
    if (s) return cli_fail(s);
    s = compute_product(&run->C, &run->compute, A, B, progress);
    if (s) return cli_fail(s);
    if (!verify) return CLI_EXIT_OK;
    s = verify_product(&run->verify, run->C, A, B, progress);
    run->verified = s == MAGNUS_SUCCESS || s == MAGNUS_ERROR_MISMATCH;
    if (s) return cli_fail(s);
    return CLI_EXIT_OK;
}

void product_run_print(const product_run *run, FILE *out) {
    if (!run->C) return;
    fprintf(out, "%-10s%s x %s, %s entries\n", "C = A*B:", cli_count(run->C->rows).s,
            cli_count(run->C->cols).s, cli_count(run->C->nnz).s);
    fprintf(out, "%-10s%s", "products:", cli_count(run->stats.products).s);
    if (run->C->nnz > 0)
        fprintf(out, " (%.2f per entry of C)", (double)run->stats.products / (double)run->C->nnz);
    fputc('\n', out);
    fprintf(out, "%-10s%s on %s, %.3f GFLOP/s\n", "compute:", cli_duration(run->compute.seconds).s,
            run->compute.engine, cli_gflops(run->stats.products, run->compute.seconds));
    if (!run->verify_requested) return;
    if (!run->verified)
        fprintf(out, "%-10sNO (could not verify)\n", "verified:");
    else if (run->verify.matched)
        fprintf(out, "%-10syes (max relative error %.3g; reference recomputed in %s)\n",
                "verified:", run->verify.compare.max_rel_error, cli_duration(run->verify.seconds).s);
    else
        fprintf(out, "%-10sNO (first difference at row %lld, column %lld: %.17g, expected %.17g)\n",
                "verified:", (long long)run->verify.compare.row, (long long)run->verify.compare.col,
                run->verify.compare.value, run->verify.compare.expected);
}

void product_run_json(const product_run *run, cli_json *j) {
    if (!run->C) return;
    cli_json_object(j, "C");
    cli_json_int(j, "rows", run->C->rows);
    cli_json_int(j, "cols", run->C->cols);
    cli_json_int(j, "nnz", run->C->nnz);
    cli_json_close(j);
    cli_json_int(j, "products", run->stats.products);
    cli_json_int(j, "row_products_max", run->stats.row_products_max);
    cli_json_string(j, "engine", run->compute.engine);
    cli_json_real(j, "compute_seconds", run->compute.seconds);
    cli_json_real(j, "gflops", cli_gflops(run->stats.products, run->compute.seconds));
    if (!run->verify_requested) {
        cli_json_null(j, "verified");
        return;
    }
    cli_json_bool(j, "verified", run->verified && run->verify.matched);
    if (!run->verified) return;
    cli_json_real(j, "max_rel_error", run->verify.compare.max_rel_error);
    cli_json_real(j, "verify_seconds", run->verify.seconds);
    if (!run->verify.matched) {
        cli_json_object(j, "first_mismatch");
        cli_json_int(j, "row", run->verify.compare.row);
        cli_json_int(j, "col", run->verify.compare.col);
        cli_json_real(j, "value", run->verify.compare.value);
        cli_json_real(j, "expected", run->verify.compare.expected);
        cli_json_close(j);
    }
}

void product_run_free(product_run *run) {
    magnus_csr_free(&run->C);
}

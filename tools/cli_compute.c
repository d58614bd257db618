/* compute_product(): for now the CPU reference, timed. */
#include "cli_compute.h"

magnus_status compute_product(magnus_csr *C, compute_report *report, const magnus_csr_s *A,
                              const magnus_csr_s *B, cli_progress *progress) {
    report->engine = "CPU reference";
    cli_progress_update(progress, -1, "multiplying");
    double start = cli_now();
    magnus_status s = magnus_reference_spgemm(C, NULL, A, B);
    report->seconds = cli_now() - start;
    cli_progress_done(progress);
    return s;
}

/* verify_product(): independent reference recomputation and comparison with magnitudes. */
#include "cli_verify.h"

#include <string.h>

magnus_status verify_product(verify_report *report, const magnus_csr_s *C, const magnus_csr_s *A,
                             const magnus_csr_s *B, cli_progress *progress) {
    memset(report, 0, sizeof *report);
    report->compare.row = -1;
    report->compare.col = -1;
    cli_progress_update(progress, -1, "verifying");
    double start = cli_now();
    magnus_csr expected = NULL, magnitude = NULL;
    magnus_status s = magnus_reference_spgemm(&expected, &magnitude, A, B);
    if (!s) {
        s = magnus_csr_compare(&report->compare, C, expected, magnitude, 0);
        report->matched = s == MAGNUS_SUCCESS;
    }
    report->seconds = cli_now() - start;
    cli_progress_done(progress);
    /* Freeing succeeds on live handles and leaves the detail message of `s` in place. */
    magnus_csr_free(&expected);
    magnus_csr_free(&magnitude);
    return s;
}

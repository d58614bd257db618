/* Verification of a computed product against an independently recomputed CPU reference. */
#ifndef MAGNUS_CLI_VERIFY_H
#define MAGNUS_CLI_VERIFY_H

#include "cli_common.h"

typedef struct verify_report {
    bool matched;
    double seconds;                /* recomputing the reference and comparing */
    magnus_compare_result compare; /* first mismatch (row -1 when none) and max relative error */
} verify_report;

/*
 * Recomputes A·B with magnus_reference_spgemm (with |A|·|B| as the tolerance scale) and
 * compares C with it by magnus_csr_compare at the type's default tolerance. Returns success,
 * MAGNUS_ERROR_MISMATCH (report->matched false, detail names the first difference) or the
 * error of the reference itself.
 */
magnus_status verify_product(verify_report *report, const magnus_csr_s *C, const magnus_csr_s *A,
                             const magnus_csr_s *B, cli_progress *progress);

#endif

/*
 * The product the CLI measures. compute_product() is the one place that decides how C = A·B
 * is computed: today the CPU reference; the device runtime replaces this function alone, while
 * verification (cli_verify.h) keeps recomputing an independent reference.
 */
#ifndef MAGNUS_CLI_COMPUTE_H
#define MAGNUS_CLI_COMPUTE_H

#include "cli_common.h"

typedef struct compute_report {
    double seconds;     /* the multiply alone: no reading, no statistics, no verification */
    const char *engine; /* what computed it, e.g. "CPU reference" */
} compute_report;

/* C = A·B. Prints nothing; returns the library's status (detail in magnus_last_error()). */
magnus_status compute_product(magnus_csr *C, compute_report *report, const magnus_csr_s *A,
                              const magnus_csr_s *B, cli_progress *progress);

#endif

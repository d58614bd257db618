/*
 * One measured multiply as `magnus multiply` and `magnus demo` run it: statistics of A·B,
 * compute_product() (cli_compute.h), optional verification (cli_verify.h), and the report.
 */
#ifndef MAGNUS_CLI_PRODUCT_H
#define MAGNUS_CLI_PRODUCT_H

#include "cli_common.h"
#include "cli_compute.h"
#include "cli_verify.h"

typedef struct product_run {
    magnus_csr_stats stats; /* products of A·B */
    magnus_csr C;           /* NULL until computed */
    compute_report compute;
    bool verify_requested;
    bool verified; /* verification ran to completion (matched or not) */
    verify_report verify;
} product_run;

/*
 * Computes C = A·B and, when `verify` is set, checks it. Prints any error and returns an exit
 * code; on a mismatch run->C is kept and run->verify.matched is false, so the caller can still
 * print the report.
 */
int product_run_execute(product_run *run, const magnus_csr_s *A, const magnus_csr_s *B,
                        bool verify, cli_progress *progress);
/* Report lines for C, products, compute time and rate, and verification. */
void product_run_print(const product_run *run, FILE *out);
/* The same as members of the open JSON object. */
void product_run_json(const product_run *run, cli_json *j);
void product_run_free(product_run *run);

/* 2 * products / seconds in GFLOP/s (0 when the time is 0). */
double cli_gflops(int64_t products, double seconds);

#endif

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
 * Computes C = A·B as `how` says and, when `verify` is non-NULL, checks it. Prints any error
 * and returns an exit code; on a mismatch run->C is kept and run->verify.matched is false, so
 * the caller can still print the report.
 */
int product_run_execute(product_run *run, const magnus_csr_s *A, const magnus_csr_s *B,
                        const compute_options *how, const verify_options *verify,
                        cli_progress *progress);
/* Report lines: C, products, device and engine, time and rate, the multiply's report (phase
 * times, gMAGNUS parameters, heavy share, memory), verification. */
void product_run_print(const product_run *run, FILE *out);
/* The same as members of the open JSON object. */
void product_run_json(const product_run *run, cli_json *j);
void product_run_free(product_run *run);
/* The note that the device is a CPU OpenCL device (stderr, JSON "note"), or NULL. */
const char *product_cpu_note(const compute_report *c);

/* 2 * products / seconds in GFLOP/s (0 when the time is 0). */
double cli_gflops(int64_t products, double seconds);

/* The verification options shared by `multiply` and `demo` (--verify itself differs). */
#define CLI_VERIFY_OPTIONS(v)                                                                   \
    {"--verify-limit", NULL, CLI_INT, &(v)->exact_limit, "PRODUCTS",                            \
     "bare --verify: exact up to this many products (default 300000000)"},             \
    {"--verify-vectors", NULL, CLI_INT, &(v)->vectors_option, "K",                              \
     "random vectors of the randomized check (1..64, default 4)"},                             \
    {"--verify-seed", NULL, CLI_UINT, &(v)->seed, "SEED", "seed of the random vectors (default 1)"}, \
    {"--verify-on", NULL, CLI_STRING, &(v)->where, "auto|host|device",                          \
     "where the randomized check's C*x runs: on the device that multiplied, with C where it "  \
     "is (auto, the default, when possible; device: or fail) or on the host"}

/* verify_options plus the int64 the option table writes the vector count to. */
typedef struct cli_verify_choice {
    const char *mode;       /* --verify[=MODE]: NULL when absent */
    const char *where;      /* --verify-on: NULL when absent */
    bool always;            /* the command always verifies (demo): the --verify-* options
                               apply without --verify */
    int64_t exact_limit;
    int64_t vectors_option;
    uint64_t seed;
} cli_verify_choice;

void cli_verify_choice_init(cli_verify_choice *v);
/* The verify_options of a parsed choice; false (with the reason in why) if a value is out of
 * range. */
bool cli_verify_choice_get(verify_options *out, const cli_verify_choice *v, char *why,
                           size_t why_size);
/* The option checks of both commands that multiply (`multiply`, `demo`): the compute options
 * and the verification choice, whose values fill *verify. Returns CLI_CONTINUE, or
 * CLI_EXIT_USAGE after printing the problem with spec's usage. */
int product_options_check(verify_options *verify, const cli_spec *spec,
                          const compute_options *how, const cli_verify_choice *choice);

#endif

/*
 * The product the CLI measures. compute_product() is the one place that decides how C = A·B
 * is computed: magnus_spgemm on a device (the best one found, or the one the options name),
 * or the CPU reference with --cpu. Verification (cli_verify.h) recomputes independently.
 */
#ifndef MAGNUS_CLI_COMPUTE_H
#define MAGNUS_CLI_COMPUTE_H

#include "cli_common.h"
#include "cli_device.h"

/* Where and how to multiply (the options of `multiply` and `demo`). */
typedef struct compute_options {
    bool cpu;                  /* --cpu: the CPU reference, no device */
    const char *backend;       /* --backend: "cuda", "level0", "opencl" (NULL: any) */
    const char *device;        /* --device: a device spec (magnus.h; with --backend, within it) */
    const char *algorithm;     /* --algorithm: "auto" (default), "gmagnus" ("magnus") or "hash" */
    int64_t local_mem_bytes;   /* --local-mem: budget per work group (0: MAGNUS_LOCAL_MEM_BYTES,
                                  else the default min(device, 48 KiB)) */
    bool keep_device;          /* on a device: keep the context and C there after the download
                                  (compute_report.ctx, .dC) for the randomized check */
} compute_options;

/* The option table entries for compute_options, to put in a command's cli_option list. */
#define CLI_COMPUTE_OPTIONS(o)                                                                  \
    CLI_BACKEND_OPTION(&(o)->backend),                                                          \
    CLI_DEVICE_OPTION(&(o)->device),                                                            \
    {"--algorithm", NULL, CLI_STRING, &(o)->algorithm, "auto|magnus|hash",                      \
     "auto (default: the library picks per product and says why), gMAGNUS or the hash algorithm"}, \
    CLI_LOCAL_MEM_OPTION(&(o)->local_mem_bytes),                                                \
    {"--cpu", NULL, CLI_FLAG, &(o)->cpu, NULL, "multiply with the CPU reference instead"}

/* The smallest --local-mem the tool takes. Below it some kernel cannot run at all (a scan's
 * group, gMAGNUS's multisplit groups: 256 bytes fail on PoCL's subgroups of 16), so a smaller
 * budget could only fail later, in the library; 1 KiB multiplies with every algorithm on the
 * devices the suite runs (PoCL, and the Level Zero test driver with subgroups of 32).
 * MAGNUS_LOCAL_MEM_BYTES, a tuning knob, is not held to it. */
#define CLI_LOCAL_MEM_MIN 1024
/* --local-mem as `multiply`, `demo` and `params` take it. */
#define CLI_LOCAL_MEM_OPTION(bytes)                                                             \
    {"--local-mem", NULL, CLI_BYTES, (bytes), "BYTES",                                          \
     "local memory budget per work group, 1K up to the device's (default: "                     \
     "MAGNUS_LOCAL_MEM_BYTES, else min(device, 48 KiB))"}
/* The usage problem of a --local-mem value (given: the option was), or NULL when it is fine:
 * below CLI_LOCAL_MEM_MIN. */
const char *cli_local_mem_problem(int64_t bytes, bool given);
/* The same against the chosen device (above its local memory per work group), or NULL. */
const char *cli_local_mem_device_problem(int64_t bytes, const magnus_device_info *device);

/* Checks the option values that need no device; on a problem writes the reason to why and
 * returns false (a usage error). */
bool compute_options_check(const compute_options *opt, char *why, size_t why_size);

typedef struct compute_report {
    double seconds;            /* the multiply alone: no reading, no statistics, no device
                                  set-up, no verification (magnus_spgemm's total on a device:
                                  upload, multiply, download) */
    const char *engine;        /* what computed it: "gMAGNUS", "hash", "CPU reference" */
    bool on_device;
    /* on a device only: */
    magnus_device_info device; /* local_mem_bytes is the budget in effect */
    uint64_t device_local_mem_bytes; /* the device's own maximum per work group */
    bool first_use;            /* kernels were built in this process: the product ran once
                                  before the timed run (inside setup_seconds) */
    double setup_seconds;      /* context creation, kernel build or load and first launches
                                  (a multiply of a sample of A's rows), kept out of
                                  `seconds` */
    char device_flags[256];    /* when choosing the device failed: the flags that chose it
                                  ("--device"; "" when none was given) */
    char usage_problem[512];   /* non-empty: an option the chosen device cannot take (a usage
                                  error: --local-mem above its local memory) */
    magnus_report report;      /* magnus_spgemm's report */
    /* with compute_options.keep_device: the context and the product on the device (freed by
     * compute_report_release); NULL otherwise */
    magnus_context ctx;
    magnus_device_csr dC;
} compute_report;

/* Frees what compute_options.keep_device kept (safe on a report that kept nothing). */
void compute_report_release(compute_report *report);

/* C = A·B. Prints nothing; returns the library's status (detail in magnus_last_error()). */
magnus_status compute_product(magnus_csr *C, compute_report *report, const magnus_csr_s *A,
                              const magnus_csr_s *B, const compute_options *opt,
                              cli_progress *progress);

#endif

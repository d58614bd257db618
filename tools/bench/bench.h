/*
 * `magnus bench`: magnus against the vendor's SpGEMM on the same device, in one process.
 *
 *   cmd_bench.c        options, the loop over inputs and systems, exit status
 *   bench_systems.c    which systems run: magnus/hash on probed devices, cuSPARSE baselines
 *   bench_inputs.c     Matrix Market files, A,B pairs, the R-MAT sweep; products, fit estimate
 *   bench_magnus.c     timed magnus_spgemm_device runs and their reports
 *   bench_plan.c       --plan: a plan made once, its re-executions timed and verified
 *   bench_cusparse.c   cuSPARSE generic SpGEMM (ALG1, ALG2, ALG3 with chunk fractions),
 *                      loaded with dlopen (bench_cusparse_lib.c), on memory from bench_cuda.c
 *                      (CUDA driver API) accounted in bench_cusparse_memory.c
 *   bench_verify.c     C against the CPU reference, the baseline's C, or C·x = A·(B·x)
 *   bench_floors.c     byte floors of the gMAGNUS kernels ("speed of light")
 *   bench_output.c     the column list, CSV and JSON rows
 *   bench_summary.c    geometric-mean speedups and failure counts on the terminal
 *   bench_spmv.c       --op spmv: magnus's SpMV formats and cuSPARSE's SpMV variants
 *                      (bench_cusparse_spmv.c, bench_cusparse_sell.c), per input; their
 *                      rows, speedups and summary in bench_spmv_output.c
 * bench/README.md documents the columns; tests/tools/bench/bench.cmake checks the output against it.
 */
#ifndef MAGNUS_BENCH_H
#define MAGNUS_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_common.h"
#include "magnus/magnus.h"

#define BENCH_MAX_SYSTEMS 32
#define BENCH_TEXT 512

/* Room for one more item in a growing array of `count` items of item_size bytes: `items` as it
 * is while *capacity has room, else a copy with twice the capacity (`first` items the first
 * time; *capacity updated). NULL when out of memory, `items` then untouched. */
void *bench_grow(void *items, int *capacity, int count, size_t item_size, int first);

/* ---- samples of a timed quantity ---------------------------------------------------------- */
typedef struct bench_samples {
    double *ms;
    int count, capacity;
} bench_samples;
bool bench_samples_add(bench_samples *s, double ms);
void bench_samples_free(bench_samples *s);
typedef struct bench_stats {
    double mean, median, min, max;
} bench_stats;
/* All NaN when there are no samples. */
bench_stats bench_samples_stats(const bench_samples *s);

/* ---- systems ------------------------------------------------------------------------------- */
typedef enum bench_system_kind {
    BENCH_SYSTEM_MAGNUS = 1,  /* magnus_spgemm_device with one algorithm on one device */
    BENCH_SYSTEM_CUSPARSE = 2 /* cuSPARSE generic SpGEMM, the best algorithm that succeeds */
} bench_system_kind;

typedef struct bench_cusparse bench_cusparse; /* bench_cusparse.c */

typedef struct bench_system {
    char id[64];                 /* "gmagnus@cuda:0", "hash@opencl:1", "cusparse@cuda:0" */
    bench_system_kind kind;
    magnus_algorithm algorithm;  /* magnus systems */
    char device_label[32];       /* "cuda:0" */
    char device_name[256];
    magnus_device_info device;   /* magnus systems: the probed device (local_mem_bytes: its
                                    maximum per work group) */
    uint64_t local_mem_budget;   /* magnus systems: the context's budget per work group */
    uint64_t device_memory;      /* bytes, for the fit estimate (0: unknown) */
    magnus_context ctx;          /* magnus systems; shared by systems on one device */
    bool owns_ctx;
    double copy_gbps;            /* device-to-device copy, read+write (0: not measured) */
    char copy_note[128];         /* why not measured */
    bench_cusparse *cusparse;    /* cuSPARSE systems, NULL when it did not load */
    bool pool;                   /* cuSPARSE: every buffer from a stream-ordered pool
                                    ("cusparse-pool@cuda:N"), as magnus's CUDA backend
                                    allocates; else cuMemAlloc/cuMemFree ("cusparse@cuda:N") */
    char unavailable[BENCH_TEXT];/* non-empty: the system cannot run at all, and why */
} bench_system;

/* What the user asked for; bench_systems_build turns it into systems. */
typedef struct bench_system_request {
    const char *systems;    /* NULL: defaults; else a comma list of DEVICE, ALGO@DEVICE,
                               cusparse, cusparse@cuda:N, cusparse-pool[@cuda:N] */
    const char *exclude;    /* comma list of device labels or system ids to leave out */
    const char *algorithms; /* algorithms on plain devices: "gmagnus", "hash", "gmagnus,hash" */
    bool include_cpu;       /* defaults: CPU devices too, even when a GPU exists */
    bool no_baseline;       /* defaults: no cuSPARSE */
    const char *cusparse_library; /* NULL: search */
    uint64_t bandwidth_bytes;     /* 0: 1 GiB on GPUs, 64 MiB on CPUs */
    bool skip_bandwidth;
} bench_system_request;

/* Fills systems[0..*count) (contexts created, copy bandwidth measured). On a usage error
 * returns false with the reason in why. */
bool bench_systems_build(bench_system *systems, int *count, const bench_system_request *req,
                         char *why, size_t why_size);
void bench_systems_free(bench_system *systems, int count);

/* ---- inputs -------------------------------------------------------------------------------- */
typedef enum bench_input_kind { BENCH_INPUT_FILE = 1, BENCH_INPUT_RMAT = 2 } bench_input_kind;

typedef struct bench_input {
    char name[160];          /* "soc-Slashdot0902", "rmat-s15-a4-b8" */
    bench_input_kind kind;
    char a_source[1024];     /* file or generator spec */
    char b_source[1024];     /* empty: A·A */
    int scale;               /* R-MAT */
    int64_t a_per_row, b_per_row;
    uint64_t seed_a, seed_b;
} bench_input;

typedef struct bench_input_list {
    bench_input *items;
    int count, capacity;
} bench_input_list;
bool bench_inputs_add_source(bench_input_list *list, const char *arg, char *why, size_t n);
/* Every *.mtx / *.mtx.gz of dir, in name order, squared. */
bool bench_inputs_add_dir(bench_input_list *list, const char *dir, char *why, size_t n);
/* The R-MAT sweep: for each scale (ascending), seed S, A density and B density, the pair
 * A (seed S) x B (seed S + 1), named rmat-sSCALE-aA-bB (and -seedS unless S is 1). */
bool bench_inputs_add_rmat_sweep(bench_input_list *list, int scale_lo, int scale_hi,
                                 const int64_t *a_per_row, int na, const int64_t *b_per_row,
                                 int nb, const int64_t *seeds, int nseeds, char *why, size_t n);
void bench_inputs_free(bench_input_list *list);

/* An input in memory, with what every system needs to know about it. */
typedef struct bench_data {
    magnus_csr A, B;           /* B == A for squares */
    magnus_value_type type;
    double load_seconds;
    int64_t *row_products;     /* products of each row of A·B */
    int64_t products;
    int64_t nnz_c_upper;       /* sum over rows of min(products, B.cols) */
    bool nonnegative;          /* no negative value in A or B */
    magnus_csr ref, magnitude; /* CPU reference (when computed) */
    bool ref_tried;
    magnus_status ref_status;
    double ref_seconds;        /* the reference's host wall time */
} bench_data;

/* Small cache of generated R-MAT matrices so a sweep draws each (scale, per_row) once. */
typedef struct bench_rmat_cache {
    struct {
        int scale;
        int64_t per_row;
        uint64_t seed;
        magnus_csr M;
        uint64_t used;
    } slot[8];
    uint64_t clock;
} bench_rmat_cache;
void bench_rmat_cache_free(bench_rmat_cache *cache);

/* Loads or generates the input and computes products; on failure the reason is in why. */
bool bench_data_load(bench_data *d, const bench_input *in, magnus_value_type type,
                     bench_rmat_cache *cache, cli_progress *progress, char *why, size_t n);
void bench_data_free(bench_data *d, const bench_rmat_cache *cache);
/* Device bytes the multiply may need: A, B, C with nnz(C) at its upper bound, and a C-hat of
 * every product (gMAGNUS expands heavy rows; an upper bound). */
uint64_t bench_data_need_bytes(const bench_data *d);
/* The CPU reference C and |A|·|B| (computed once; false when it fails). */
bool bench_data_reference(bench_data *d);

/* ---- one (input, system) result ------------------------------------------------------------ */
typedef struct bench_facts {
    bool known;                  /* false when the input did not load */
    int64_t rows, cols, a_nnz, b_nnz, products, nnz_c_upper;
    magnus_value_type type;
} bench_facts;

/* --plan: a plan made once for the row's input, then its re-executions (bench_plan.c). */
typedef struct bench_plan_result {
    bool ran;                    /* false: the plan columns are empty (no --plan, not magnus,
                                    or the multiply did not complete) */
    double create_ms;            /* magnus_spgemm_plan_create, once */
    int runs;                    /* timed re-executions after one warm-up */
    bench_stats execute;         /* ms, of the re-executions */
    uint64_t device_bytes;       /* magnus_spgemm_plan_info's device_bytes (0: unknown) */
    const char *verified;        /* "yes", "no", "n/a" (the plan failed before a C) */
    char verify_method[64];
    double max_rel_error;
    double ratio;                /* execute mean / the row's multiply mean */
    char note[BENCH_TEXT];       /* why the plan failed, or the first mismatch */
} bench_plan_result;

typedef struct bench_check {
    bool passed;
    char method[64];
    double max_rel_error;
    char note[BENCH_TEXT];
} bench_check;

/* Every timed run's C (issue 34): the C the row verifies (magnus: the warm-up's; cuSPARSE: its
 * first timed run's) is checksummed; each timed run's C either has the verified C's device
 * fingerprint (magnus: bench_fingerprint), or is downloaded after its timing and has the same
 * checksum, or is checked on its own (reference or randomized check). */
typedef struct bench_runs_check {
    bool have_first;
    uint64_t first_sum;
    int checked;                 /* timed runs whose C was looked at */
    int same;                    /* ... the verified C (same fingerprint or checksum) */
    int failed;                  /* ... different, and failing their own check */
    int own;                     /* ... different, and checked on their own */
    int fingerprinted;           /* ... of the same: same by device fingerprint (magnus) */
    char fingerprint_note[160];  /* why the fingerprint was not used (then every C downloaded) */
    double seconds;              /* host wall time of it all (downloads, checksums, checks) */
    char note[BENCH_TEXT];       /* the first failure */
} bench_runs_check;

/* A magnus C's device fingerprint, y = C·x for a fixed random x (bench_fingerprint.c): each
 * timed run's y against the verified C's, bit for bit, with only y downloaded. */
typedef struct bench_fingerprint {
    magnus_context ctx;
    magnus_device_vector x, y;
    int64_t rows, nnz;
    size_t bytes;              /* of one y on the host */
    void *verified, *run;      /* the verified C's y, the latest run's */
} bench_fingerprint;
/* Takes the verified C's fingerprint (dC: that C on the device, of value type `type`). */
magnus_status bench_fingerprint_init(bench_fingerprint *f, magnus_context ctx,
                                     const magnus_device_csr dC, magnus_value_type type,
                                     uint64_t seed);
/* *same: dC has the verified C's shape, nnz and C·x bit for bit. */
magnus_status bench_fingerprint_same(bool *same, bench_fingerprint *f, const magnus_device_csr dC);
void bench_fingerprint_free(bench_fingerprint *f);

typedef struct bench_row {
    const bench_input *input;
    const bench_system *system;
    bench_facts facts;           /* of the input (copied: rows outlive the input's data) */
    const char *status;          /* "ok", "failed", "skipped" */
    char failure[BENCH_TEXT];    /* why failed or skipped */
    int runs;
    bench_stats time;            /* ms */
    double gflops;               /* 2 * products / mean time */
    double first_ms;             /* magnus: the warm-up multiply's wall time, ms (a fresh
                                    context's first multiply on the process's first input) */
    double first_kernel_load_ms; /* ... of which loading kernels (the report's) */
    double upload_ms, download_ms; /* magnus: A and B uploaded, C downloaded, once each
                                      (outside the timed runs; host wall clock), ms */
    int64_t nnz_c;               /* -1 unknown */
    uint64_t peak_device_bytes;
    const char *verified;        /* "yes", "no", "n/a" */
    char verify_method[64];
    double max_rel_error;
    char verify_note[BENCH_TEXT];
    char variant[32];            /* cuSPARSE: the algorithm chosen ("ALG3(0.2)") */
    char detail[1024];           /* cuSPARSE: every algorithm's trial time or failure */
    bool has_report;
    magnus_report report;        /* parameters of the last run, times averaged over the runs */
    double copy_gbps;
    double floor_outer_bytes, floor_histogram_bytes, floor_multisplit_bytes;
    double sol_outer_pct, sol_histogram_pct, sol_multisplit_pct;
    char baseline[64];           /* magnus rows: the baseline the speedup is over */
    double speedup;              /* baseline mean time / this mean time */
    /* the fair comparison (issue 34; bench_run.c fills them once every C is checked) */
    double speedup_median, speedup_min; /* the same of the median / fastest runs */
    char baseline_pool[64];      /* magnus rows: the cusparse-pool system of speedup_pool */
    double speedup_pool, speedup_pool_median, speedup_pool_min;
    char speedup_note[BENCH_TEXT]; /* magnus rows: why a speedup is missing */
    bench_runs_check runs_check; /* every timed run's C */
    bench_plan_result plan;      /* --plan, magnus rows whose multiply completed */
    bool has_device_check;       /* magnus rows: the randomized check ran on the device C of
                                    the warm-up (bench_plan.random_check), result here */
    bench_check device_check;
    double verify_seconds;       /* host wall time checking the verified C (not the reference's
                                    own computation: bench_data.ref_seconds, once per input) */
} bench_row;
void bench_row_init(bench_row *row, const bench_input *in, const bench_system *sys);
void bench_row_set_facts(bench_row *row, const bench_data *d);

/* ---- running the systems ------------------------------------------------------------------- */
typedef struct bench_plan {
    int runs;                  /* timed runs after one warm-up */
    double max_timed_seconds;  /* stop timing after this much (at least min(3, runs) runs) */
    double deadline;           /* --time-limit's end (cli_now); past it, timed runs stop after
                                  min(3, runs), each still checked (0: none) */
    cli_progress *progress;
    const char *label;         /* "input 3/12 rmat-s15-a4-b8" */
    bool cusparse_time_all;    /* time every cuSPARSE algorithm, not only the best trial */
    bool unreported;           /* magnus systems: timed runs without a report (as a library
                                  caller who asks for none: no phase timers); the report's
                                  columns come from one more, untimed run after them */
    /* magnus systems: run the randomized check's C·x on the warm-up's C while it is on the
     * device (row->device_check), at this tolerance and seed */
    bool random_check;
    double rtol;
    uint64_t seed;
} bench_plan;

/* True when timed run `run` (1-based, of plan->runs) should be the last: --max-timed-seconds
 * (`timed` seconds so far) or --time-limit reached, after at least min(3, runs) runs. */
bool bench_plan_stop(const bench_plan *plan, int run, double timed);

/* Runs one magnus system; C (downloaded from the warm-up run) goes to *C when C is not NULL. */
void bench_magnus_run(bench_row *row, bench_system *sys, const bench_data *d,
                      const bench_plan *plan, magnus_csr *C);

/* --plan for a magnus system whose multiply completed (row->time holds its times): uploads
 * A and B, makes a plan once, runs one warm-up, writes new values into A and B (each scaled by
 * a power of two), times `timing->runs` re-executions into the warm-up's C, and verifies the
 * last C against the reference (`use_reference`: d->ref is computed) or the randomized check.
 * Fills row->plan; a failure of the plan is in row->plan.note, never in the row's status. */
void bench_plan_measure(bench_row *row, bench_system *sys, const bench_data *d,
                        const bench_plan *timing, bool use_reference, double rtol, uint64_t seed);

/* cuSPARSE (bench_cusparse.c; opening and closing: bench_cusparse_lib.c). */
/* pool: every device buffer from a stream-ordered pool (cusparse-pool), else cuMemAlloc. */
bench_cusparse *bench_cusparse_open(int ordinal, const char *library, bool pool, char *why,
                                    size_t n);
void bench_cusparse_close(bench_cusparse *cs);
/* "cuSPARSE 12.6.3 (libcusparse.so.12), CUDA driver 13000, NVIDIA H200" */
const char *bench_cusparse_describe(const bench_cusparse *cs);
uint64_t bench_cusparse_device_memory(const bench_cusparse *cs);
/* ---- cuSPARSE's SpMV (bench_cusparse_spmv.c) ----------------------------------------------- */
/* Its variants, 0 .. bench_cusparse_spmv_variants() - 1: each algorithm ("CSR ALG_DEFAULT",
 * "CSR ALG1", "CSR ALG2", "COO ALG1", "COO ALG2", "SELL ALG1"; NULL outside) as is, then with
 * cusparseSpMV_preprocess once before its warm-up. */
int bench_cusparse_spmv_variants(void);
const char *bench_cusparse_spmv_algorithm(int variant);
bool bench_cusparse_spmv_preprocesses(int variant);
/* Whether the loaded library has the generic SpMV (a fake or old one may not). */
bool bench_cusparse_has_spmv(const bench_cusparse *cs);
typedef enum bench_outcome {
    BENCH_OUTCOME_OK = 0,
    BENCH_OUTCOME_FAILED,
    BENCH_OUTCOME_SKIPPED /* not run, and why: a format or function the library or the input
                             does not allow (the sliced ELL's padding), never a failure */
} bench_outcome;
/* An input's A (CSR, 32-bit indices), x and y on cs's device. */
typedef struct bench_cusparse_spmv bench_cusparse_spmv;
/* False with the reason (no SpMV in the library, memory, a failed call); *out NULL then. */
bool bench_cusparse_spmv_open(bench_cusparse_spmv **out, bench_cusparse *cs,
                              const magnus_csr_s *A, const void *x, char *why, size_t n);
/* y = A*x (alpha 1, beta 0) in `variant`: y filled with NaN, the preprocess (its variants;
 * *preprocess_ms, device events; 0 without), a warm-up, then `runs` products each timed alone
 * with device events (times_ms[i]); y of the last downloaded. */
bench_outcome bench_cusparse_spmv_time(bench_cusparse_spmv *s, int variant, int runs,
                                       double *times_ms, double *preprocess_ms, void *y,
                                       char *why, size_t n);
void bench_cusparse_spmv_close(bench_cusparse_spmv **s);
/* nnz_c_hint: nnz(C) known from another system (-1 unknown), for the 32-bit check. */
void bench_cusparse_run(bench_row *row, bench_cusparse *cs, const bench_data *d,
                        const bench_plan *plan, int64_t nnz_c_hint, magnus_csr *C);

/* ---- verification -------------------------------------------------------------------------- */
double bench_default_rtol(magnus_value_type type);
/* C against the CPU reference with |A|·|B| as the scale (magnus_csr_compare). */
void bench_check_reference(bench_check *out, const magnus_csr_s *C, const magnus_csr_s *ref,
                           const magnus_csr_s *magnitude, double rtol);
/* C against another library's C: the same structure, except that an entry present in only
 * one of them must be exactly 0 (explicit zeros from cancellation); values relative to the
 * expected value when `values` (inputs without negative values, where |e| is |A|·|B|). */
void bench_check_baseline(bench_check *out, const magnus_csr_s *C, const magnus_csr_s *expected,
                          bool values, double rtol);
/* C·x against A·(B·x) in double for two random x (entries ±[0.5, 1]), each row's error
 * relative to (|A|·(|B|·|x|))_i; C is validated first. verify_random's vectors, at rtol, with
 * C·x by SpMV on dC (C on the device of ctx) when both are given, else on the host. */
void bench_check_random(bench_check *out, magnus_context ctx, const struct magnus_device_csr_s *dC,
                        const magnus_csr_s *C, const magnus_csr_s *A,
                        const magnus_csr_s *B, double rtol, uint64_t seed);

/* A 64-bit checksum (four-lane multiply-xorshift) of C's shape, row pointers, columns and
 * value bits. */
uint64_t bench_csr_checksum(const magnus_csr_s *C);
/* The C the row verifies; `timed`: it is itself a timed run's (counted as checked, same). */
void bench_runs_check_first(bench_runs_check *rc, const magnus_csr_s *C, bool timed);
/* A timed run whose device fingerprint is the verified C's (bench_fingerprint_same). */
void bench_runs_check_same(bench_runs_check *rc);
/* Timed run `run`'s C: the same checksum as the first, or its own check (the CPU reference
 * when d->ref is computed and plan->random_check is off, else the randomized check). */
void bench_runs_check_add(bench_runs_check *rc, const magnus_csr_s *C, const bench_data *d,
                          const bench_plan *plan, int run);

/* ---- speed of light ------------------------------------------------------------------------ */
/* Fills the floor and % columns of a magnus row from its report and the input. */
void bench_floors_fill(bench_row *row, const bench_data *d);

/* ---- output -------------------------------------------------------------------------------- */
typedef struct bench_output {
    cli_outfile csv;       /* file NULL without --csv */
    const char *json_path; /* NULL without --json */
    bool json_in_place;    /* the JSON path is no regular file (a pipe, /dev/stdout, a device):
                              written once, at the end, where it is (never replaced by a
                              rename) */
    int json_error;        /* errno of the first failed JSON write, 0 while none */
    bool failure_told;     /* a failed write was reported during the run */
    bench_row *rows; /* every row so far, for the JSON file and the summary */
    int count, capacity;
} bench_output;
/* Opens the outputs before any work: writes the CSV header and the JSON file (no rows yet),
 * so that a path that cannot be written fails at once. False with "cannot write PATH: REASON"
 * in why. */
bool bench_output_open(bench_output *out, const char *csv_path, const char *json_path,
                       char *why, size_t n);
/* Appends the row (CSV line flushed at once, so a killed run keeps what it measured). False
 * only when the row cannot be kept (host memory); a failed CSV write is kept for
 * bench_output_failure. */
bool bench_output_add(bench_output *out, const bench_row *row);
/* Rewrites the JSON file with every row so far (meta: systems and options); a path that is
 * no regular file is written only when finished. False when it could not be written. */
bool bench_output_write_json(bench_output *out, const bench_system *systems, int nsystems,
                             const char *options_text, bool finished);
/* True, with "cannot write PATH: REASON" in why, when a write of either file has failed. */
bool bench_output_failure(const bench_output *out, char *why, size_t n);
/* Closes the CSV file and frees the rows; false, with the reason in why, when any write of
 * either file failed. */
bool bench_output_close(bench_output *out, char *why, size_t n);
/* A CSV text field in quotes, a quote in it doubled (the SpMV CSV quotes every text field;
 * the SpGEMM one only those that need it). */
void bench_csv_quoted(FILE *out, const char *text);
/* Column names in order (for --list-columns and the README). */
void bench_print_columns(FILE *out);

/* ---- one bench run ------------------------------------------------------------------------- */
typedef struct bench_session {
    bench_system *systems;
    int nsystems;
    bench_output output;
    bench_rmat_cache cache;
    cli_progress progress;
    magnus_value_type type;
    int runs, runs_large;
    double large_products;     /* inputs with more products get runs_large runs */
    double min_products;       /* inputs with fewer are left out (no rows) */
    double max_products;       /* inputs with more are skipped (0: no limit) */
    double verify_limit;       /* CPU reference up to this many products */
    double rtol;               /* 0: bench_default_rtol */
    double max_timed_seconds;
    uint64_t host_limit;       /* bytes of magnus C kept on the host for the baseline check */
    bool fit_check;
    bool cusparse_time_all;
    bool unreported;           /* --unreported: magnus's timed runs without a report */
    bool plan;                 /* --plan: time a plan's re-executions on every magnus system */
    double started, time_limit;/* seconds (cli_now); time_limit 0: none */
    const char *command;       /* the command line, for the JSON file */
    int magnus_failures;       /* rows of magnus systems that failed */
    int mismatches;            /* rows with verified = no */
} bench_session;
/* Loads input `index` (of `count`), runs every system on it, verifies, writes its rows. */
void bench_run_input(bench_session *s, const bench_input *in, int index, int count);

/* Ratios (speedups) over inputs: their geometric mean, minimum (and its input), maximum. */
typedef struct bench_ratios {
    int n;
    double log_sum, min, max;
    const char *min_at;
} bench_ratios; /* = {0}: none yet */
void bench_ratios_add(bench_ratios *r, double ratio, const char *at);
/* " N GEOMEANx MINx  (AT) MAXx" ("N -" without ratios) and a newline, after the caller's
 * label columns. */
void bench_ratios_print(FILE *out, const bench_ratios *r);

/* The terminal summary; returns the number of rows with verified = no. */
int bench_summary_print(FILE *out, const bench_output *rows, const bench_system *systems,
                        int nsystems);

/* ---- SpMV (bench_spmv.c) ------------------------------------------------------------------ */
/* `--op spmv`: every SpMV format on every magnus system that owns a context (one per device),
 * and every cuSPARSE SpMV variant on each cuSPARSE system, for the inputs' A: conversion time,
 * median and minimum of `runs` products (each timed with device events) after a warm-up, GB/s
 * of the input's byte floor and its fraction of the copy bandwidth, y (NaN before the warm-up)
 * checked in double on the host, magnus's speedup over the fastest verified cuSPARSE variant.
 * Rows to stdout and, when given, CSV / JSON files; a summary. Returns the exit code. */
typedef struct bench_spmv_files {
    cli_outfile csv, json; /* file NULL when not asked for */
} bench_spmv_files;
/* Opens the files and writes their beginnings, before any work (a path that cannot be written
 * fails at once); false after reporting ("cannot write PATH: REASON"), nothing left open. */
bool bench_spmv_files_open(bench_spmv_files *f, const char *csv_path, const char *json_path,
                           magnus_value_type type, int runs);
/* Ends the JSON and closes both; false after reporting a failed write. */
bool bench_spmv_files_close(bench_spmv_files *f);
int bench_spmv_run(const bench_input_list *inputs, bench_system *systems, int nsystems,
                   magnus_value_type type, int runs, bench_spmv_files *files);

#endif

/*
 * What the two halves of `magnus bench --op spmv` share: bench_spmv.c runs and measures the
 * rows (magnus's formats, cuSPARSE's variants), bench_spmv_output.c finds each input's best
 * cuSPARSE variant, computes the speedups over it and writes the rows (terminal, CSV, JSON)
 * and the closing summary.
 */
#ifndef MAGNUS_BENCH_SPMV_INTERNAL_H
#define MAGNUS_BENCH_SPMV_INTERNAL_H

#include "bench.h"

typedef struct spmv_row {
    const char *input;
    const bench_system *sys;
    const char *system;   /* magnus: the device label ("cuda:0"); cuSPARSE: the system id */
    const char *format;   /* magnus's format name, or "cusparse" */
    const char *ran;      /* the format AUTO resolved to; cuSPARSE's algorithm */
    bool cusparse;
    bool preprocess;      /* cuSPARSE: the variant with cusparseSpMV_preprocess */
    bench_outcome outcome;
    int64_t rows, cols, nnz;
    double conversion_ms, median_ms, min_ms, gbps, copy_fraction, error;
    uint64_t floor_bytes, format_bytes;
    bool verified;
    /* magnus rows: the fastest verified cuSPARSE variant of the input (label "" when none) */
    char baseline[48];
    double baseline_ms, speedup;
    const char *why;     /* magnus: why the format ran (the report's static text); else "" */
    int64_t hot_columns; /* magnus: csr-balanced's hot x (the report's) */
    char error_text[BENCH_TEXT]; /* why the row failed or was skipped */
} spmv_row;

/* "COO ALG1", "COO ALG1+preprocess"; magnus rows: the format. */
const char *bench_spmv_label(const spmv_row *r, char *buf, size_t n);

/* The rows of every input so far, and where they go. */
typedef struct spmv_output {
    bench_spmv_files *files; /* opened by the caller (cmd_bench) */
    bool first_json;
    bool write_failed; /* told once, when it happened */
    spmv_row *rows;
    int count, capacity;
} spmv_output;

/* The rows go to `files`; prints the terminal's header line. */
void bench_spmv_output_init(spmv_output *o, bench_spmv_files *files);
/* One measured row on the terminal (before its input's speedups are known). */
void bench_spmv_print_row(const spmv_row *r);
/* Keeps the row for its input's speedups, the files and the summary; false: out of memory. */
bool bench_spmv_output_add(spmv_output *o, const spmv_row *r);
/* The rows added since `first` are one input's: each magnus row's speedup over the fastest
 * verified cuSPARSE variant (of its device's cuSPARSE system, else of every cuSPARSE system),
 * a terminal line with them, then the rows to the CSV / JSON files. */
void bench_spmv_finish_input(spmv_output *o, int first);
/* The speedup table per magnus device and format over the inputs; the files stay open. */
void bench_spmv_output_close(spmv_output *o);

#endif

/*
 * The vendor baseline: cuSPARSE's generic SpGEMM on the same device, as the gMAGNUS paper ran
 * it (§V): ALG1, ALG2, and ALG3 with chunk fractions 0.1 .. 0.5, the best that succeeds.
 *
 * libcusparse is opened with dlopen (never linked: the tool must run where it is missing),
 * from --cusparse-lib, $MAGNUS_CUSPARSE_LIBRARY, libcusparse.so.12 (CUDA 12 and 13 ship
 * cuSPARSE 12), libcusparse.so.13, or /usr/local/cuda/lib64; its functions go into a private
 * struct, typed from cusparse.h (types only). Device memory comes from the CUDA driver API on
 * the device's primary context, the context cuSPARSE's runtime adopts when it is current.
 *
 * One run, timed end to end on the host clock like magnus's: C's descriptor and row pointer,
 * workEstimation (size query, then with buffer 1), for ALG2/ALG3 getNumProducts and
 * estimateMemory (size query, then with buffer 3, which is freed), compute (for ALG1 a size
 * query first), cusparseSpMatGetSize, allocation of C's columns and values,
 * cusparseCsrSetPointers, cusparseSpGEMM_copy, a device synchronize, and freeing the work
 * buffers. A and B are uploaded once (32-bit indices: row pointers converted on the host),
 * outside the timing, like magnus's device-resident inputs.
 *
 * One untimed warm-up (the first input only: the library's start-up), one timed trial of each
 * algorithm, then `runs` timed runs of the fastest trial (all algorithms with
 * --cusparse-all). Every timed run keeps its C, downloaded after the timing: the first is the
 * one the row verifies, each later one is compared with it by checksum or checked on its own
 * (bench_runs_check_add, issue 34). Every failure is kept with its
 * status name (CUSPARSE_STATUS_INSUFFICIENT_RESOURCES, CUDA_ERROR_OUT_OF_MEMORY, ...). When an
 * ALG3 chunk fraction runs out of resources the larger fractions, which need more memory, are
 * not tried.
 *
 * The parts, a file per job: this one (the runs and their timing), bench_cusparse_lib.c
 * (loading libcusparse, resolving its functions), bench_cusparse_memory.c (device memory,
 * accounted; the matrices to and from the device), bench_cusparse_spmv.c and
 * bench_cusparse_sell.c (the SpMV baseline of --op spmv); bench_cusparse_internal.h is what
 * they share. Without cusparse.h only this file is built, as the stub below.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifndef MAGNUS_BENCH_HAVE_CUSPARSE

bench_cusparse *bench_cusparse_open(int ordinal, const char *library, bool pool, char *why,
                                    size_t n) {
    (void)ordinal;
    (void)library;
    (void)pool;
    snprintf(why, n, "built without cusparse.h (CUDA headers not found at configure time)");
    return NULL;
}
void bench_cusparse_close(bench_cusparse *cs) { (void)cs; }
const char *bench_cusparse_describe(const bench_cusparse *cs) {
    (void)cs;
    return "cuSPARSE (not built)";
}
uint64_t bench_cusparse_device_memory(const bench_cusparse *cs) {
    (void)cs;
    return 0;
}
void bench_cusparse_run(bench_row *row, bench_cusparse *cs, const bench_data *d,
                        const bench_plan *plan, int64_t nnz_c_hint, magnus_csr *C) {
    (void)cs, (void)d, (void)plan, (void)nnz_c_hint, (void)C;
    row->status = "failed";
    snprintf(row->failure, sizeof row->failure, "built without cusparse.h");
}
int bench_cusparse_spmv_variants(void) { return 0; }
const char *bench_cusparse_spmv_algorithm(int variant) {
    (void)variant;
    return NULL;
}
bool bench_cusparse_spmv_preprocesses(int variant) {
    (void)variant;
    return false;
}
bool bench_cusparse_has_spmv(const bench_cusparse *cs) {
    (void)cs;
    return false;
}
bool bench_cusparse_spmv_open(bench_cusparse_spmv **out, bench_cusparse *cs,
                              const magnus_csr_s *A, const void *x, char *why, size_t n) {
    (void)cs, (void)A, (void)x;
    *out = NULL;
    snprintf(why, n, "built without cusparse.h");
    return false;
}
bench_outcome bench_cusparse_spmv_time(bench_cusparse_spmv *s, int variant, int runs,
                                       double *times_ms, double *preprocess_ms, void *y,
                                       char *why, size_t n) {
    (void)s, (void)variant, (void)runs, (void)times_ms, (void)y;
    *preprocess_ms = 0;
    snprintf(why, n, "built without cusparse.h");
    return BENCH_OUTCOME_FAILED;
}
void bench_cusparse_spmv_close(bench_cusparse_spmv **s) { *s = NULL; }

#else

#include "bench_cusparse_internal.h"

/* ---- one multiply ---------------------------------------------------------------------------- */
typedef struct config {
    cusparseSpGEMMAlg_t alg;
    float chunk_fraction; /* ALG3 */
    char name[16];
} config;

typedef struct run_result {
    bool ok;
    double ms;
    int64_t nnz_c;
    uint64_t peak;
    char failure[BENCH_TEXT];
} run_result;

/*
 * Runs config `cfg` once. With keep, C's arrays stay allocated in *C for the caller to read
 * and free; otherwise they are freed (after the timed region).
 */
static void run_once(bench_cusparse *cs, const config *cfg, const device_csr32 *A,
                     const device_csr32 *B, magnus_value_type type, bool keep, device_csr32 *C,
                     run_result *out) {
    memset(out, 0, sizeof *out);
    memset(C, 0, sizeof *C);
    char *why = out->failure;
    const size_t n = sizeof out->failure;
    const size_t vb = magnus_value_size(type);
    const cudaDataType dt = data_type(type);
    const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const double one64 = 1.0, zero64 = 0.0;
    const float one32 = 1.0f, zero32 = 0.0f;
    const void *alpha = type == MAGNUS_FLOAT64 ? (const void *)&one64 : (const void *)&one32;
    const void *beta = type == MAGNUS_FLOAT64 ? (const void *)&zero64 : (const void *)&zero32;
    cusparseSpGEMMDescr_t spgemm = NULL;
    CUdeviceptr buf1 = 0, buf2 = 0, buf3 = 0;
    size_t size1 = 0, size2 = 0, size3 = 0;
    cusparseStatus_t st;
    cs->peak = cs->in_use;
    cs->cu.CtxSetCurrent(cs->ctx);
    C->rows = A->rows;
    C->cols = B->cols;

    double t0 = cli_now();
    bool ok = bench_cusparse_dalloc(cs, &C->row_ptr, ((size_t)A->rows + 1) * 4,
                                    "C row pointers", why, n) &&
              check_status(cs,
                           cs->cusparseCreateCsr(&C->descr, A->rows, B->cols, 0, (void *)C->row_ptr,
                                                 NULL, NULL, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                                 CUSPARSE_INDEX_BASE_ZERO, dt),
                           "cusparseCreateCsr(C)", why, n) &&
              check_status(cs, cs->cusparseSpGEMM_createDescr(&spgemm), "createDescr", why, n);
#define SPGEMM_ARGS cs->handle, op, op, alpha, A->descr, B->descr, beta, C->descr, dt, cfg->alg, spgemm
    ok = ok &&
         check_status(cs, cs->cusparseSpGEMM_workEstimation(SPGEMM_ARGS, &size1, NULL),
                      "workEstimation (size)", why, n) &&
         bench_cusparse_dalloc(cs, &buf1, size1, "buffer 1", why, n) &&
         check_status(cs, cs->cusparseSpGEMM_workEstimation(SPGEMM_ARGS, &size1, (void *)buf1),
                      "workEstimation", why, n);
    bool sized = false;
    if (ok && cfg->alg != CUSPARSE_SPGEMM_ALG1) {
        int64_t products = 0;
        ok = check_status(cs, cs->cusparseSpGEMM_getNumProducts(spgemm, &products),
                          "getNumProducts", why, n);
        st = ok ? cs->cusparseSpGEMM_estimateMemory(SPGEMM_ARGS, cfg->chunk_fraction, &size3, NULL,
                                                    NULL)
                : CUSPARSE_STATUS_SUCCESS;
        if (ok && st == CUSPARSE_STATUS_NOT_SUPPORTED && cfg->alg == CUSPARSE_SPGEMM_ALG2) {
            /* a cuSPARSE without ALG2 estimates: size it by compute's query, as ALG1 */
        } else if (ok) {
            ok = check_status(cs, st, "estimateMemory (size)", why, n) &&
                 bench_cusparse_dalloc(cs, &buf3, size3, "buffer 3", why, n) &&
                 check_status(cs,
                              cs->cusparseSpGEMM_estimateMemory(SPGEMM_ARGS, cfg->chunk_fraction,
                                                                &size3, (void *)buf3, &size2),
                              "estimateMemory", why, n);
            bench_cusparse_dfree(cs, &buf3);
            sized = ok;
        }
    }
    if (ok && !sized)
        ok = check_status(cs, cs->cusparseSpGEMM_compute(SPGEMM_ARGS, &size2, NULL),
                          "compute (size)", why, n);
    ok = ok && bench_cusparse_dalloc(cs, &buf2, size2, "buffer 2", why, n) &&
         check_status(cs, cs->cusparseSpGEMM_compute(SPGEMM_ARGS, &size2, (void *)buf2), "compute",
                      why, n);
    int64_t rows = 0, cols = 0, nnz = 0;
    ok = ok && check_status(cs, cs->cusparseSpMatGetSize(C->descr, &rows, &cols, &nnz),
                            "cusparseSpMatGetSize", why, n);
    if (ok && (nnz < 0 || nnz > INT32_MAX)) {
        snprintf(why, n, "cannot represent nnz(C) = %lld in 32-bit indices", (long long)nnz);
        ok = false;
    }
    C->nnz = nnz;
    ok = ok && bench_cusparse_dalloc(cs, &C->col_idx, (size_t)nnz * 4, "C columns", why, n) &&
         bench_cusparse_dalloc(cs, &C->values, (size_t)nnz * vb, "C values", why, n) &&
         check_status(cs,
                      cs->cusparseCsrSetPointers(C->descr, (void *)C->row_ptr, (void *)C->col_idx,
                                                 (void *)C->values),
                      "cusparseCsrSetPointers", why, n) &&
         check_status(cs, cs->cusparseSpGEMM_copy(SPGEMM_ARGS), "copy", why, n);
#undef SPGEMM_ARGS
    CUresult sync = cs->cu.CtxSynchronize();
    if (ok) ok = check_cu(cs, sync, "cuCtxSynchronize", why, n);
    bench_cusparse_dfree(cs, &buf1);
    bench_cusparse_dfree(cs, &buf2);
    bench_cusparse_dfree(cs, &buf3);
    if (spgemm) cs->cusparseSpGEMM_destroyDescr(spgemm);
    if (C->descr) cs->cusparseDestroySpMat(C->descr);
    C->descr = NULL;
    double t1 = cli_now();

    out->ok = ok;
    out->ms = (t1 - t0) * 1e3;
    out->nnz_c = nnz;
    out->peak = cs->peak;
    if (!ok || !keep) {
        bench_cusparse_dfree(cs, &C->row_ptr);
        bench_cusparse_dfree(cs, &C->col_idx);
        bench_cusparse_dfree(cs, &C->values);
    }
}

/* ---- the baseline ---------------------------------------------------------------------------- */
static int configs_all(config *c) {
    int k = 0;
    c[k++] = (config){CUSPARSE_SPGEMM_ALG1, 0, "ALG1"};
    /* ALG2 ignores the chunk fraction; a valid one in case a version checks it anyway */
    c[k++] = (config){CUSPARSE_SPGEMM_ALG2, 0.2f, "ALG2"};
    const float fractions[] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f};
    for (int i = 0; i < 5; i++) {
        c[k] = (config){CUSPARSE_SPGEMM_ALG3, fractions[i], ""};
        snprintf(c[k].name, sizeof c[k].name, "ALG3(%.1f)", (double)fractions[i]);
        k++;
    }
    return k;
}

static void append(char *buf, size_t size, const char *fmt, const char *name, const char *what) {
    size_t used = strlen(buf);
    if (used < size) snprintf(buf + used, size - used, fmt, used ? "; " : "", name, what);
}

/* A timed run's C, still on the device: downloaded (untimed) and freed there. The first
 * becomes *first (the C the row verifies), each later one is checked against it. */
static bool track_run(bench_cusparse *cs, device_csr32 *dC, const bench_data *d,
                      const bench_plan *plan, int run, magnus_csr *first, bench_runs_check *rc,
                      char *why, size_t n) {
    const double t0 = cli_now();
    magnus_csr C = NULL;
    bool ok = bench_cusparse_download(cs, dC, d->type, &C, why, n);
    bench_cusparse_dfree(cs, &dC->row_ptr);
    bench_cusparse_dfree(cs, &dC->col_idx);
    bench_cusparse_dfree(cs, &dC->values);
    if (!ok) return false;
    if (!*first) {
        *first = C;
        bench_runs_check_first(rc, C, true);
    } else {
        bench_runs_check_add(rc, C, d, plan, run);
        magnus_csr_free(&C);
    }
    rc->seconds += cli_now() - t0;
    return true;
}

static void progress_update(const bench_plan *plan, const char *what) {
    if (plan->progress) cli_progress_update(plan->progress, -1, what);
}

void bench_cusparse_run(bench_row *row, bench_cusparse *cs, const bench_data *d,
                        const bench_plan *plan, int64_t nnz_c_hint, magnus_csr *C) {
    row->status = "failed";
    if (nnz_c_hint > INT32_MAX) {
        snprintf(row->failure, sizeof row->failure,
                 "cannot represent nnz(C) = %lld in 32-bit indices", (long long)nnz_c_hint);
        return;
    }
    cs->cu.CtxSetCurrent(cs->ctx);
    device_csr32 A, B, dC;
    memset(&B, 0, sizeof B);
    memset(&dC, 0, sizeof dC);
    bench_samples best_samples = {0}, samples = {0};
    /* the C of the first timed run and the check of the others: per trial, and the best's */
    magnus_csr first = NULL, best_first = NULL;
    bench_runs_check check, best_check;
    memset(&best_check, 0, sizeof best_check);
    if (!bench_cusparse_upload(cs, d->A, &A, row->failure, sizeof row->failure)) {
        bench_cusparse_release(cs, &A);
        return;
    }
    if (d->B != d->A && !bench_cusparse_upload(cs, d->B, &B, row->failure, sizeof row->failure))
        goto done;
    const device_csr32 *pB = d->B == d->A ? &A : &B;

    config configs[8];
    int nconfigs = configs_all(configs);
    run_result r;
    char label[256];
    if (!cs->warmed) { /* the library's start-up (kernel loading), once per process */
        snprintf(label, sizeof label, "%.100s: %s warm-up", plan->label, row->system->id);
        progress_update(plan, label);
        run_once(cs, &configs[0], &A, pB, d->type, false, &dC, &r);
        cs->warmed = true;
    }

    /* One timed trial of each algorithm (or `runs` of each with time_all). */
    int best = -1;
    double best_ms = INFINITY;
    uint64_t best_peak = 0;
    char trials[1024] = "";
    bool alg3_short = false; /* a smaller ALG3 chunk fraction ran out of memory */
    for (int c = 0; c < nconfigs; c++) {
        int reps = plan->cusparse_time_all ? plan->runs : 1;
        if (configs[c].alg == CUSPARSE_SPGEMM_ALG3 && alg3_short) {
            /* larger chunks need more memory than the one that did not fit */
            append(trials, sizeof trials, "%s%s: %s", configs[c].name,
                   "not tried (a smaller chunk fraction ran out of resources)");
            continue;
        }
        samples.count = 0;
        uint64_t peak = 0;
        magnus_csr_free(&first);
        memset(&check, 0, sizeof check);
        for (int k = 0; k < reps; k++) {
            snprintf(label, sizeof label, "%.100s: %s %s %d/%d", plan->label, row->system->id,
                     configs[c].name, k + 1, reps);
            progress_update(plan, label);
            /* --cusparse-all: these are the timed runs, each C kept and checked */
            const bool keep = plan->cusparse_time_all;
            run_once(cs, &configs[c], &A, pB, d->type, keep, &dC, &r);
            if (r.ok && keep &&
                !track_run(cs, &dC, d, plan, k + 1, &first, &check, r.failure, sizeof r.failure))
                r.ok = false;
            if (!r.ok) break;
            bench_samples_add(&samples, r.ms);
            if (r.peak > peak) peak = r.peak;
        }
        if (!r.ok) {
            append(trials, sizeof trials, "%s%s: %s", configs[c].name, r.failure);
            if (configs[c].alg == CUSPARSE_SPGEMM_ALG3 &&
                (strstr(r.failure, "INSUFFICIENT_RESOURCES") || strstr(r.failure, "OUT_OF_MEMORY") ||
                 strstr(r.failure, "ALLOC_FAILED")))
                alg3_short = true;
            continue;
        }
        bench_stats st = bench_samples_stats(&samples);
        char ms[64];
        snprintf(ms, sizeof ms, "%.4g ms", st.mean);
        append(trials, sizeof trials, "%s%s: %s", configs[c].name, ms);
        if (st.mean < best_ms) {
            best_ms = st.mean;
            best = c;
            best_peak = peak;
            if (plan->cusparse_time_all) {
                bench_samples_free(&best_samples);
                best_samples = samples;
                samples = (bench_samples){0};
                magnus_csr_free(&best_first);
                best_first = first;
                first = NULL;
                best_check = check;
            }
        }
    }
    snprintf(row->detail, sizeof row->detail, "%s", trials);
    if (best < 0) {
        snprintf(row->failure, sizeof row->failure, "every algorithm failed: %.400s", trials);
        goto done;
    }
    snprintf(row->variant, sizeof row->variant, "%s", configs[best].name);

    if (!plan->cusparse_time_all) {
        double timed = 0;
        for (int k = 1; k <= plan->runs; k++) {
            snprintf(label, sizeof label, "%.100s: %s %s run %d/%d", plan->label, row->system->id,
                     configs[best].name, k, plan->runs);
            progress_update(plan, label);
            /* Each run keeps its C, downloaded and checked after its timing. */
            run_once(cs, &configs[best], &A, pB, d->type, true, &dC, &r);
            if (r.ok && !track_run(cs, &dC, d, plan, k, &best_first, &best_check, r.failure,
                                   sizeof r.failure))
                r.ok = false;
            if (!r.ok) {
                snprintf(row->failure, sizeof row->failure, "%s (timed run %d): %.400s",
                         configs[best].name, k, r.failure);
                goto done;
            }
            bench_samples_add(&best_samples, r.ms);
            if (r.peak > best_peak) best_peak = r.peak;
            timed += r.ms * 1e-3;
            if (bench_plan_stop(plan, k, timed)) break;
        }
    }
    row->runs_check = best_check;
    if (best_first) r.nnz_c = best_first->nnz; /* --cusparse-all: r is the last trial's */
    if (C) {
        *C = best_first;
        best_first = NULL;
    }
    row->nnz_c = r.nnz_c;
    row->runs = best_samples.count;
    row->time = bench_samples_stats(&best_samples);
    row->gflops = row->time.mean > 0 ? 2.0 * (double)d->products / (row->time.mean * 1e6) : NAN;
    row->peak_device_bytes = best_peak;
    row->status = "ok";
    row->failure[0] = 0;
done:
    if (plan->progress) cli_progress_done(plan->progress);
    bench_cusparse_dfree(cs, &dC.row_ptr);
    bench_cusparse_dfree(cs, &dC.col_idx);
    bench_cusparse_dfree(cs, &dC.values);
    bench_cusparse_release(cs, &B);
    bench_cusparse_release(cs, &A);
    bench_samples_free(&samples);
    bench_samples_free(&best_samples);
    magnus_csr_free(&first);
    magnus_csr_free(&best_first);
}

#endif

/*
 * The SpMV baseline of `magnus bench --op spmv` (bench_spmv.c): cuSPARSE's generic SpMV,
 * y = A*x, alpha 1, beta 0, 32-bit indices, in every algorithm the library offers for the
 * formats made here: CSR ALG_DEFAULT (what a CuPy user gets), ALG1, ALG2; COO ALG1, ALG2 (row
 * indices made on the host); SELL ALG1 (the sliced ELL of bench_cusparse_sell.c, slices of 32
 * rows). Each algorithm runs twice: as is, then with cusparseSpMV_preprocess called once
 * before its warm-up, where the library has it (an optional symbol: older libraries lack it).
 *
 * A's CSR, x and y go to the device once per input (bench_cusparse_spmv_open); COO's row
 * indices and the sliced ELL when the first variant of their format runs, freed when another
 * format's does. Per variant, outside the timing: a matrix descriptor of its own (a
 * preprocessed descriptor is bound to its algorithm and buffer), the buffer of
 * cusparseSpMV_bufferSize, y filled with NaN (a variant that writes nothing fails the check),
 * the preprocess (timed alone between events, as magnus's conversion is), one warm-up product
 * and a synchronisation. Then each of the `runs` products
 * alone between two events on the handle's stream (cuEventRecord, cusparseSpMV,
 * cuEventRecord, cuEventSynchronize, cuEventElapsedTime), as magnus's side times each of its
 * products; the last product's y is downloaded.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cusparse_internal.h"

enum { SELL_SLICE = 32 };
/* A sliced ELL padded past this many times nnz is not run: it reads at least that much more
 * than the CSR, so it cannot be the best algorithm, and it could fill the device. */
#define SELL_MAX_PADDING 4.0

typedef enum spmv_format { FORMAT_CSR, FORMAT_COO, FORMAT_SELL } spmv_format;

static const struct {
    const char *name;
    cusparseSpMVAlg_t alg;
    spmv_format format;
} algorithms[] = {
    {"CSR ALG_DEFAULT", CUSPARSE_SPMV_ALG_DEFAULT, FORMAT_CSR},
    {"CSR ALG1", CUSPARSE_SPMV_CSR_ALG1, FORMAT_CSR},
    {"CSR ALG2", CUSPARSE_SPMV_CSR_ALG2, FORMAT_CSR},
    {"COO ALG1", CUSPARSE_SPMV_COO_ALG1, FORMAT_COO},
    {"COO ALG2", CUSPARSE_SPMV_COO_ALG2, FORMAT_COO},
    {"SELL ALG1", CUSPARSE_SPMV_SELL_ALG1, FORMAT_SELL},
};
#define NALGORITHMS (int)(sizeof algorithms / sizeof *algorithms)

int bench_cusparse_spmv_variants(void) { return 2 * NALGORITHMS; }

const char *bench_cusparse_spmv_algorithm(int variant) {
    return variant >= 0 && variant < 2 * NALGORITHMS ? algorithms[variant / 2].name : NULL;
}

bool bench_cusparse_spmv_preprocesses(int variant) { return variant % 2 == 1; }

bool bench_cusparse_has_spmv(const bench_cusparse *cs) {
    return cs->cusparseSpMV && cs->cusparseSpMV_bufferSize && cs->cusparseCreateDnVec &&
           cs->cusparseDestroyDnVec;
}

struct bench_cusparse_spmv {
    bench_cusparse *cs;
    const magnus_csr_s *A;
    cudaDataType type;
    size_t vb;
    double one_d, zero_d;
    float one_f, zero_f;
    const void *alpha, *beta;
    device_csr32 dA;
    CUdeviceptr dx, dy;
    cusparseDnVecDescr_t vx, vy;
    void *poison;        /* rows values of NaN */
    CUstream stream;     /* the handle's */
    CUevent start, stop;
    /* the format on the device beside the CSR, and its arrays */
    spmv_format extra;
    CUdeviceptr coo_rows, sell_offsets, sell_cols, sell_values;
    int64_t sell_values_size;
    char extra_skip[BENCH_TEXT]; /* non-empty: the extra format is not run, and why */
};

/* ---- the formats beside the CSR ------------------------------------------------------------ */
static void free_extra(bench_cusparse_spmv *s) {
    bench_cusparse_dfree(s->cs, &s->coo_rows);
    bench_cusparse_dfree(s->cs, &s->sell_offsets);
    bench_cusparse_dfree(s->cs, &s->sell_cols);
    bench_cusparse_dfree(s->cs, &s->sell_values);
    s->extra = FORMAT_CSR;
    s->extra_skip[0] = 0;
}

static bool upload_coo(bench_cusparse_spmv *s, char *why, size_t n) {
    const magnus_csr_s *A = s->A;
    if (!s->cs->cusparseCreateCoo) {
        snprintf(why, n, "%s has no cusparseCreateCoo", s->cs->path);
        return false;
    }
    int32_t *r = malloc((size_t)(A->nnz > 0 ? A->nnz : 1) * sizeof *r);
    if (!r) {
        snprintf(why, n, "out of host memory");
        return false;
    }
    for (int64_t i = 0; i < A->rows; i++)
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) r[k] = (int32_t)i;
    bool ok = bench_cusparse_dalloc(s->cs, &s->coo_rows, (size_t)A->nnz * 4, "COO rows", why, n) &&
              (A->nnz == 0 || check_cu(s->cs, s->cs->cu.MemcpyHtoD(s->coo_rows, r,
                                                                    (size_t)A->nnz * 4),
                                       "upload COO rows", why, n));
    free(r);
    return ok;
}

/* The sliced ELL on the device, or (true, s->extra_skip set) the reason it is not run. */
static bool upload_sell(bench_cusparse_spmv *s, char *why, size_t n) {
    const magnus_csr_s *A = s->A;
    bench_cusparse *cs = s->cs;
    if (!cs->cusparseCreateSlicedEll) {
        snprintf(s->extra_skip, sizeof s->extra_skip, "%s has no cusparseCreateSlicedEll",
                 cs->path);
        return true;
    }
    const int64_t size = bench_sell_values_size(A, SELL_SLICE);
    if ((double)size > SELL_MAX_PADDING * (double)(A->nnz > 0 ? A->nnz : 1)) {
        snprintf(s->extra_skip, sizeof s->extra_skip,
                 "sliced ELL (slices of %d rows) would hold %lld entries, %.1fx nnz (limit %.0fx)",
                 SELL_SLICE, (long long)size, (double)size / (double)(A->nnz > 0 ? A->nnz : 1),
                 SELL_MAX_PADDING);
        return true;
    }
    const uint64_t need = (uint64_t)size * (4 + s->vb) +
                          4 * ((uint64_t)(A->rows + SELL_SLICE - 1) / SELL_SLICE + 1);
    size_t free_bytes = 0, total = 0;
    if (cs->cu.MemGetInfo(&free_bytes, &total) == CUDA_SUCCESS && need > free_bytes) {
        snprintf(s->extra_skip, sizeof s->extra_skip,
                 "sliced ELL needs %llu device bytes, %llu free", (unsigned long long)need,
                 (unsigned long long)free_bytes);
        return true;
    }
    bench_sell sell;
    if (!bench_sell_build(&sell, A, SELL_SLICE, s->extra_skip, sizeof s->extra_skip))
        return true;
    const size_t nv = (size_t)sell.values_size;
    bool ok = bench_cusparse_dalloc(cs, &s->sell_offsets, ((size_t)sell.slices + 1) * 4,
                                    "sliced ELL offsets", why, n) &&
              bench_cusparse_dalloc(cs, &s->sell_cols, nv * 4, "sliced ELL columns", why, n) &&
              bench_cusparse_dalloc(cs, &s->sell_values, nv * s->vb, "sliced ELL values", why,
                                    n) &&
              check_cu(cs, cs->cu.MemcpyHtoD(s->sell_offsets, sell.offsets,
                                             ((size_t)sell.slices + 1) * 4),
                       "upload sliced ELL", why, n) &&
              (nv == 0 ||
               (check_cu(cs, cs->cu.MemcpyHtoD(s->sell_cols, sell.cols, nv * 4),
                         "upload sliced ELL", why, n) &&
                check_cu(cs, cs->cu.MemcpyHtoD(s->sell_values, sell.values, nv * s->vb),
                         "upload sliced ELL", why, n)));
    s->sell_values_size = sell.values_size;
    bench_sell_free(&sell);
    return ok;
}

/* The arrays of `format` on the device (the others freed). */
static bool use_format(bench_cusparse_spmv *s, spmv_format format, char *why, size_t n) {
    if (format == s->extra) return true;
    free_extra(s);
    s->extra = format;
    const bool ok = format == FORMAT_COO    ? upload_coo(s, why, n)
                    : format == FORMAT_SELL ? upload_sell(s, why, n)
                                            : true;
    if (!ok) free_extra(s); /* the next variant of the format tries again */
    return ok;
}

/* A descriptor of A in `format` over the arrays on the device. */
static bool describe(bench_cusparse_spmv *s, spmv_format format, cusparseSpMatDescr_t *M,
                     char *why, size_t n) {
    const magnus_csr_s *A = s->A;
    bench_cusparse *cs = s->cs;
    if (format == FORMAT_COO)
        return check_status(cs,
                            cs->cusparseCreateCoo(M, A->rows, A->cols, A->nnz, (void *)s->coo_rows,
                                                  (void *)s->dA.col_idx, (void *)s->dA.values,
                                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                                  s->type),
                            "cusparseCreateCoo", why, n);
    if (format == FORMAT_SELL)
        return check_status(cs,
                            cs->cusparseCreateSlicedEll(
                                M, A->rows, A->cols, A->nnz, s->sell_values_size, SELL_SLICE,
                                (void *)s->sell_offsets, (void *)s->sell_cols,
                                (void *)s->sell_values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                CUSPARSE_INDEX_BASE_ZERO, s->type),
                            "cusparseCreateSlicedEll", why, n);
    return check_status(cs,
                        cs->cusparseCreateCsr(M, A->rows, A->cols, A->nnz, (void *)s->dA.row_ptr,
                                              (void *)s->dA.col_idx, (void *)s->dA.values,
                                              CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                              CUSPARSE_INDEX_BASE_ZERO, s->type),
                        "cusparseCreateCsr", why, n);
}

/* ---- an input on the device ---------------------------------------------------------------- */
void bench_cusparse_spmv_close(bench_cusparse_spmv **sp) {
    bench_cusparse_spmv *s = *sp;
    if (!s) return;
    bench_cusparse *cs = s->cs;
    cs->cu.CtxSetCurrent(cs->ctx);
    if (s->vx) cs->cusparseDestroyDnVec(s->vx);
    if (s->vy) cs->cusparseDestroyDnVec(s->vy);
    if (s->start) cs->cu.EventDestroy(s->start);
    if (s->stop) cs->cu.EventDestroy(s->stop);
    free_extra(s);
    bench_cusparse_dfree(cs, &s->dx);
    bench_cusparse_dfree(cs, &s->dy);
    bench_cusparse_release(cs, &s->dA);
    free(s->poison);
    free(s);
    *sp = NULL;
}

bool bench_cusparse_spmv_open(bench_cusparse_spmv **out, bench_cusparse *cs,
                              const magnus_csr_s *A, const void *x, char *why, size_t n) {
    *out = NULL;
    if (!bench_cusparse_has_spmv(cs)) {
        snprintf(why, n, "%s has no generic SpMV (cusparseSpMV)", cs->path);
        return false;
    }
    bench_cusparse_spmv *s = calloc(1, sizeof *s);
    if (!s || !(s->poison = malloc((size_t)(A->rows > 0 ? A->rows : 1) * 8))) {
        free(s);
        snprintf(why, n, "out of host memory");
        return false;
    }
    *out = s;
    s->cs = cs;
    s->A = A;
    s->type = data_type(A->type);
    s->vb = magnus_value_size(A->type);
    s->one_d = 1, s->zero_d = 0, s->one_f = 1, s->zero_f = 0;
    const bool f64 = A->type == MAGNUS_FLOAT64;
    s->alpha = f64 ? (const void *)&s->one_d : (const void *)&s->one_f;
    s->beta = f64 ? (const void *)&s->zero_d : (const void *)&s->zero_f;
    for (int64_t i = 0; i < A->rows; i++) {
        if (f64) ((double *)s->poison)[i] = NAN;
        else ((float *)s->poison)[i] = NAN;
    }
    cudaStream_t stream = NULL; /* without cusparseGetStream: the default, a new handle's */
    bool ok = check_cu(cs, cs->cu.CtxSetCurrent(cs->ctx), "cuCtxSetCurrent", why, n) &&
              (!cs->cusparseGetStream ||
               check_status(cs, cs->cusparseGetStream(cs->handle, &stream), "cusparseGetStream",
                            why, n)) &&
              check_cu(cs, cs->cu.EventCreate(&s->start, CU_EVENT_DEFAULT), "cuEventCreate",
                       why, n) &&
              check_cu(cs, cs->cu.EventCreate(&s->stop, CU_EVENT_DEFAULT), "cuEventCreate",
                       why, n) &&
              bench_cusparse_upload(cs, A, &s->dA, why, n) &&
              bench_cusparse_dalloc(cs, &s->dx, (size_t)A->cols * s->vb, "x", why, n) &&
              bench_cusparse_dalloc(cs, &s->dy, (size_t)A->rows * s->vb, "y", why, n) &&
              (A->cols == 0 ||
               check_cu(cs, cs->cu.MemcpyHtoD(s->dx, x, (size_t)A->cols * s->vb), "upload x",
                        why, n)) &&
              check_status(cs, cs->cusparseCreateDnVec(&s->vx, A->cols, (void *)s->dx, s->type),
                           "cusparseCreateDnVec(x)", why, n) &&
              check_status(cs, cs->cusparseCreateDnVec(&s->vy, A->rows, (void *)s->dy, s->type),
                           "cusparseCreateDnVec(y)", why, n);
    s->stream = (CUstream)stream; /* the runtime's cudaStream_t is the driver's CUstream */
    if (!ok) bench_cusparse_spmv_close(out);
    return ok;
}

/* ---- one variant --------------------------------------------------------------------------- */
static bool product(bench_cusparse_spmv *s, cusparseSpMatDescr_t M, cusparseSpMVAlg_t alg,
                    void *buffer, char *why, size_t n) {
    return check_status(s->cs,
                        s->cs->cusparseSpMV(s->cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                            s->alpha, M, s->vx, s->beta, s->vy, s->type, alg,
                                            buffer),
                        "cusparseSpMV", why, n);
}

/* One product between two events: its device time in *ms. */
static bool timed_product(bench_cusparse_spmv *s, cusparseSpMatDescr_t M, cusparseSpMVAlg_t alg,
                          void *buffer, double *ms, char *why, size_t n) {
    bench_cuda_api *cu = &s->cs->cu;
    float elapsed = 0;
    bool ok = check_cu(s->cs, cu->EventRecord(s->start, s->stream), "cuEventRecord", why, n) &&
              product(s, M, alg, buffer, why, n) &&
              check_cu(s->cs, cu->EventRecord(s->stop, s->stream), "cuEventRecord", why, n) &&
              check_cu(s->cs, cu->EventSynchronize(s->stop), "cuEventSynchronize", why, n) &&
              check_cu(s->cs, cu->EventElapsedTime(&elapsed, s->start, s->stop),
                       "cuEventElapsedTime", why, n);
    *ms = elapsed;
    return ok;
}

bench_outcome bench_cusparse_spmv_time(bench_cusparse_spmv *s, int variant, int runs,
                                       double *times_ms, double *preprocess_ms, void *y,
                                       char *why, size_t n) {
    *preprocess_ms = 0;
    if (!bench_cusparse_spmv_algorithm(variant)) {
        snprintf(why, n, "no cuSPARSE SpMV variant %d", variant);
        return BENCH_OUTCOME_FAILED;
    }
    bench_cusparse *cs = s->cs;
    const magnus_csr_s *A = s->A;
    const spmv_format format = algorithms[variant / 2].format;
    const cusparseSpMVAlg_t alg = algorithms[variant / 2].alg;
    const bool preprocess = bench_cusparse_spmv_preprocesses(variant);
    if (!check_cu(cs, cs->cu.CtxSetCurrent(cs->ctx), "cuCtxSetCurrent", why, n) ||
        !use_format(s, format, why, n))
        return BENCH_OUTCOME_FAILED;
    if (s->extra_skip[0]) {
        snprintf(why, n, "%s", s->extra_skip);
        return BENCH_OUTCOME_SKIPPED;
    }
    if (preprocess && !cs->cusparseSpMV_preprocess) {
        snprintf(why, n, "%s has no cusparseSpMV_preprocess", cs->path);
        return BENCH_OUTCOME_SKIPPED;
    }
    cusparseSpMatDescr_t M = NULL;
    CUdeviceptr buffer = 0;
    size_t buffer_bytes = 0;
    bench_outcome outcome = BENCH_OUTCOME_FAILED;
    bool ok =
        describe(s, format, &M, why, n) &&
        check_status(cs,
                     cs->cusparseSpMV_bufferSize(cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                 s->alpha, M, s->vx, s->beta, s->vy, s->type, alg,
                                                 &buffer_bytes),
                     "cusparseSpMV_bufferSize", why, n) &&
        bench_cusparse_dalloc(cs, &buffer, buffer_bytes, "SpMV buffer", why, n) &&
        (A->rows == 0 || check_cu(cs, cs->cu.MemcpyHtoD(s->dy, s->poison, (size_t)A->rows * s->vb),
                                  "fill y with NaN", why, n));
    if (ok && preprocess) { /* timed as magnus's conversion is: alone, between events */
        float elapsed = 0;
        ok = check_cu(cs, cs->cu.EventRecord(s->start, s->stream), "cuEventRecord", why, n);
        const cusparseStatus_t st =
            ok ? cs->cusparseSpMV_preprocess(cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                             s->alpha, M, s->vx, s->beta, s->vy, s->type, alg,
                                             (void *)buffer)
               : CUSPARSE_STATUS_SUCCESS;
        ok = ok && check_status(cs, st, "cusparseSpMV_preprocess", why, n) &&
             check_cu(cs, cs->cu.EventRecord(s->stop, s->stream), "cuEventRecord", why, n) &&
             check_cu(cs, cs->cu.EventSynchronize(s->stop), "cuEventSynchronize", why, n) &&
             check_cu(cs, cs->cu.EventElapsedTime(&elapsed, s->start, s->stop),
                      "cuEventElapsedTime", why, n);
        *preprocess_ms = elapsed;
        if (st == CUSPARSE_STATUS_NOT_SUPPORTED) outcome = BENCH_OUTCOME_SKIPPED;
    }
    ok = ok && product(s, M, alg, (void *)buffer, why, n) && /* warm-up */
         check_cu(cs, cs->cu.CtxSynchronize(), "cuCtxSynchronize after the warm-up", why, n);
    for (int r = 0; ok && r < runs; r++)
        ok = timed_product(s, M, alg, (void *)buffer, &times_ms[r], why, n);
    if (ok && A->rows > 0)
        ok = check_cu(cs, cs->cu.MemcpyDtoH(y, s->dy, (size_t)A->rows * s->vb), "download y",
                      why, n);
    if (M) cs->cusparseDestroySpMat(M);
    bench_cusparse_dfree(cs, &buffer);
    return ok ? BENCH_OUTCOME_OK : outcome;
}

/*
 * The SpMV baseline of `magnus bench --op spmv` (bench_spmv.c): cuSPARSE's generic SpMV on a
 * CSR matrix (32-bit indices, CUSPARSE_SPMV_ALG_DEFAULT), y = A*x, alpha 1, beta 0, as a
 * CuPy user gets it. Each timed sample is a batch of SPMV_BATCH products between two device
 * synchronisations, divided by the batch: one product of the sizes that matter (10^7-10^8
 * nonzeros) takes 0.1-1 ms, and a synchronisation per product would add the host's ~10 us
 * round trip to each (magnus's side times each product with device events).
 */
#include <stdlib.h>
#include <string.h>

#include "bench_cusparse_internal.h"

enum { SPMV_BATCH = 10 };

static bool run_products(bench_cusparse *cs, cusparseSpMatDescr_t A, cusparseDnVecDescr_t vx,
                         cusparseDnVecDescr_t vy, const void *alpha, const void *beta,
                         cudaDataType type, void *buffer, int count, char *why, size_t n) {
    for (int i = 0; i < count; i++)
        if (!check_status(cs,
                          cs->cusparseSpMV(cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A,
                                           vx, beta, vy, type, CUSPARSE_SPMV_ALG_DEFAULT, buffer),
                          "cusparseSpMV", why, n))
            return false;
    return check_cu(cs, cs->cu.CtxSynchronize(), "cuCtxSynchronize after cusparseSpMV", why, n);
}

bool bench_cusparse_has_spmv(const bench_cusparse *cs) {
    return cs->cusparseSpMV && cs->cusparseSpMV_bufferSize && cs->cusparseCreateDnVec &&
           cs->cusparseDestroyDnVec;
}

bool bench_cusparse_spmv(bench_cusparse *cs, const magnus_csr_s *A, const void *x, void *y,
                         int runs, double *times_ms, char *why, size_t n) {
    if (!bench_cusparse_has_spmv(cs)) {
        snprintf(why, n, "%s has no generic SpMV (cusparseSpMV)", cs->path);
        return false;
    }
    if (!check_cu(cs, cs->cu.CtxSetCurrent(cs->ctx), "cuCtxSetCurrent", why, n)) return false;
    const cudaDataType type = data_type(A->type);
    const size_t vb = magnus_value_size(A->type);
    const double one_d = 1, zero_d = 0;
    const float one_f = 1, zero_f = 0;
    const void *alpha = A->type == MAGNUS_FLOAT64 ? (const void *)&one_d : (const void *)&one_f;
    const void *beta = A->type == MAGNUS_FLOAT64 ? (const void *)&zero_d : (const void *)&zero_f;

    device_csr32 dA;
    CUdeviceptr dx = 0, dy = 0, dbuf = 0;
    cusparseDnVecDescr_t vx = NULL, vy = NULL;
    size_t buffer_bytes = 0;
    bool ok = bench_cusparse_upload(cs, A, &dA, why, n) &&
              bench_cusparse_dalloc(cs, &dx, (size_t)A->cols * vb, "x", why, n) &&
              bench_cusparse_dalloc(cs, &dy, (size_t)A->rows * vb, "y", why, n) &&
              (A->cols == 0 ||
               check_cu(cs, cs->cu.MemcpyHtoD(dx, x, (size_t)A->cols * vb), "upload x", why, n)) &&
              check_status(cs, cs->cusparseCreateDnVec(&vx, A->cols, (void *)dx, type),
                           "cusparseCreateDnVec(x)", why, n) &&
              check_status(cs, cs->cusparseCreateDnVec(&vy, A->rows, (void *)dy, type),
                           "cusparseCreateDnVec(y)", why, n) &&
              check_status(cs,
                           cs->cusparseSpMV_bufferSize(cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                       alpha, dA.descr, vx, beta, vy, type,
                                                       CUSPARSE_SPMV_ALG_DEFAULT, &buffer_bytes),
                           "cusparseSpMV_bufferSize", why, n) &&
              bench_cusparse_dalloc(cs, &dbuf, buffer_bytes, "SpMV buffer", why, n) &&
              run_products(cs, dA.descr, vx, vy, alpha, beta, type, (void *)dbuf, 1, why, n);
    for (int r = 0; ok && r < runs; r++) {
        const double t0 = cli_now();
        ok = run_products(cs, dA.descr, vx, vy, alpha, beta, type, (void *)dbuf, SPMV_BATCH, why,
                          n);
        times_ms[r] = (cli_now() - t0) * 1e3 / SPMV_BATCH;
    }
    if (ok && A->rows > 0)
        ok = check_cu(cs, cs->cu.MemcpyDtoH(y, dy, (size_t)A->rows * vb), "download y", why, n);
    if (vx) cs->cusparseDestroyDnVec(vx);
    if (vy) cs->cusparseDestroyDnVec(vy);
    bench_cusparse_dfree(cs, &dbuf);
    bench_cusparse_dfree(cs, &dx);
    bench_cusparse_dfree(cs, &dy);
    bench_cusparse_release(cs, &dA);
    return ok;
}

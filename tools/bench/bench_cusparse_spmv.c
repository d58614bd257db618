/*
 * The SpMV baseline of `magnus bench --op spmv` (bench_spmv.c): cuSPARSE's generic SpMV, y =
 * A*x, alpha 1, beta 0, 32-bit indices, in each of its CSR and COO algorithms (ALG_DEFAULT is
 * what a CuPy user gets; ALG1/ALG2 of each format are the others the library offers; COO's row
 * indices are made on the host and uploaded, outside the timing). Each timed sample is a batch of SPMV_BATCH products between two device
 * synchronisations, divided by the batch: one product of the sizes that matter (10^7-10^8
 * nonzeros) takes 0.1-1 ms, and a synchronisation per product would add the host's ~10 us
 * round trip to each (magnus's side times each product with device events).
 */
#include <stdlib.h>
#include <string.h>

#include "bench_cusparse_internal.h"

enum { SPMV_BATCH = 10 };

static const struct {
    const char *name;
    cusparseSpMVAlg_t alg;
    bool coo;
} algorithms[] = {
    {"CSR ALG_DEFAULT", CUSPARSE_SPMV_ALG_DEFAULT, false},
    {"CSR ALG1", CUSPARSE_SPMV_CSR_ALG1, false},
    {"CSR ALG2", CUSPARSE_SPMV_CSR_ALG2, false},
    {"COO ALG1", CUSPARSE_SPMV_COO_ALG1, true},
    {"COO ALG2", CUSPARSE_SPMV_COO_ALG2, true},
};

int bench_cusparse_spmv_algorithms(void) { return (int)(sizeof algorithms / sizeof *algorithms); }

const char *bench_cusparse_spmv_algorithm(int i) {
    return i >= 0 && i < bench_cusparse_spmv_algorithms() ? algorithms[i].name : NULL;
}

static bool run_products(bench_cusparse *cs, cusparseSpMatDescr_t A, cusparseDnVecDescr_t vx,
                         cusparseDnVecDescr_t vy, const void *alpha, const void *beta,
                         cudaDataType type, cusparseSpMVAlg_t alg, void *buffer, int count,
                         char *why, size_t n) {
    for (int i = 0; i < count; i++)
        if (!check_status(cs,
                          cs->cusparseSpMV(cs->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A,
                                           vx, beta, vy, type, alg, buffer),
                          "cusparseSpMV", why, n))
            return false;
    return check_cu(cs, cs->cu.CtxSynchronize(), "cuCtxSynchronize after cusparseSpMV", why, n);
}

bool bench_cusparse_has_spmv(const bench_cusparse *cs) {
    return cs->cusparseSpMV && cs->cusparseSpMV_bufferSize && cs->cusparseCreateDnVec &&
           cs->cusparseDestroyDnVec;
}

/* COO of A on the device: row indices uploaded (the caller frees *rows), columns and values
 * those of the CSR already there. */
static bool make_coo(bench_cusparse *cs, const magnus_csr_s *A, const device_csr32 *dA,
                     cudaDataType type, CUdeviceptr *rows, cusparseSpMatDescr_t *coo, char *why,
                     size_t n) {
    if (!cs->cusparseCreateCoo) {
        snprintf(why, n, "%s has no cusparseCreateCoo", cs->path);
        return false;
    }
    int32_t *r = malloc((size_t)(A->nnz > 0 ? A->nnz : 1) * sizeof *r);
    if (!r) {
        snprintf(why, n, "out of host memory");
        return false;
    }
    for (int64_t i = 0; i < A->rows; i++)
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) r[k] = (int32_t)i;
    bool ok = bench_cusparse_dalloc(cs, rows, (size_t)A->nnz * 4 + 4, "COO rows", why, n) &&
              (A->nnz == 0 ||
               check_cu(cs, cs->cu.MemcpyHtoD(*rows, r, (size_t)A->nnz * 4), "upload COO rows",
                        why, n)) &&
              check_status(cs,
                           cs->cusparseCreateCoo(coo, A->rows, A->cols, A->nnz, (void *)*rows,
                                                 (void *)dA->col_idx, (void *)dA->values,
                                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                                 type),
                           "cusparseCreateCoo", why, n);
    free(r);
    return ok;
}

bool bench_cusparse_spmv(bench_cusparse *cs, int algorithm, const magnus_csr_s *A, const void *x,
                         void *y, int runs, double *times_ms, char *why, size_t n) {
    if (!bench_cusparse_has_spmv(cs)) {
        snprintf(why, n, "%s has no generic SpMV (cusparseSpMV)", cs->path);
        return false;
    }
    if (!bench_cusparse_spmv_algorithm(algorithm)) {
        snprintf(why, n, "no cuSPARSE SpMV algorithm %d", algorithm);
        return false;
    }
    const cusparseSpMVAlg_t alg = algorithms[algorithm].alg;
    if (!check_cu(cs, cs->cu.CtxSetCurrent(cs->ctx), "cuCtxSetCurrent", why, n)) return false;
    const cudaDataType type = data_type(A->type);
    const size_t vb = magnus_value_size(A->type);
    const double one_d = 1, zero_d = 0;
    const float one_f = 1, zero_f = 0;
    const void *alpha = A->type == MAGNUS_FLOAT64 ? (const void *)&one_d : (const void *)&one_f;
    const void *beta = A->type == MAGNUS_FLOAT64 ? (const void *)&zero_d : (const void *)&zero_f;

    device_csr32 dA;
    CUdeviceptr dx = 0, dy = 0, dbuf = 0, coo_rows = 0;
    cusparseDnVecDescr_t vx = NULL, vy = NULL;
    cusparseSpMatDescr_t coo = NULL, M = NULL;
    size_t buffer_bytes = 0;
    bool ok = bench_cusparse_upload(cs, A, &dA, why, n) &&
              (!algorithms[algorithm].coo || make_coo(cs, A, &dA, type, &coo_rows, &coo, why, n));
    M = coo ? coo : dA.descr;
    ok = ok &&
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
                                                       alpha, M, vx, beta, vy, type, alg,
                                                       &buffer_bytes),
                           "cusparseSpMV_bufferSize", why, n) &&
              bench_cusparse_dalloc(cs, &dbuf, buffer_bytes, "SpMV buffer", why, n) &&
              run_products(cs, M, vx, vy, alpha, beta, type, alg, (void *)dbuf, 1, why, n);
    for (int r = 0; ok && r < runs; r++) {
        const double t0 = cli_now();
        ok = run_products(cs, M, vx, vy, alpha, beta, type, alg, (void *)dbuf, SPMV_BATCH, why,
                          n);
        times_ms[r] = (cli_now() - t0) * 1e3 / SPMV_BATCH;
    }
    if (ok && A->rows > 0)
        ok = check_cu(cs, cs->cu.MemcpyDtoH(y, dy, (size_t)A->rows * vb), "download y", why, n);
    if (vx) cs->cusparseDestroyDnVec(vx);
    if (vy) cs->cusparseDestroyDnVec(vy);
    if (coo) cs->cusparseDestroySpMat(coo);
    bench_cusparse_dfree(cs, &coo_rows);
    bench_cusparse_dfree(cs, &dbuf);
    bench_cusparse_dfree(cs, &dx);
    bench_cusparse_dfree(cs, &dy);
    bench_cusparse_release(cs, &dA);
    return ok;
}

/*
 * The cuSPARSE baseline's device memory (bench_cusparse.c says what the baseline runs): its
 * allocations, accounted for the peak a run reports, and A, B and C on the device with 32-bit
 * indices: uploaded with their row pointers converted on the host, downloaded into a host
 * matrix with 64-bit row pointers.
 */
#include <stdlib.h>
#include <string.h>

#include "bench_cusparse_internal.h"

/* ---- device memory, accounted ---------------------------------------------------------------- */
bool bench_cusparse_dalloc(bench_cusparse *cs, CUdeviceptr *out, size_t bytes,
                           const char *what, char *why, size_t n) {
    *out = 0;
    int slot = -1;
    for (int i = 0; i < BENCH_CUSPARSE_MAX_LIVE && slot < 0; i++)
        if (!cs->live[i].ptr) slot = i;
    if (slot < 0) {
        snprintf(why, n, "too many live allocations (%s)", what);
        return false;
    }
    CUresult r = cs->pool ? cs->cu.MemAllocFromPoolAsync(out, bytes ? bytes : 256, cs->pool, 0)
                          : cs->cu.MemAlloc(out, bytes ? bytes : 256);
    if (r != CUDA_SUCCESS) {
        char name[64];
        snprintf(why, n, "%s %s (%zu bytes): %s",
                 cs->pool ? "cuMemAllocFromPoolAsync" : "cuMemAlloc", what, bytes,
                 bench_cuda_error_name(&cs->cu, r, name, sizeof name));
        *out = 0;
        return false;
    }
    cs->live[slot].ptr = *out;
    cs->live[slot].bytes = bytes;
    cs->in_use += bytes;
    if (cs->in_use > cs->peak) cs->peak = cs->in_use;
    return true;
}

void bench_cusparse_dfree(bench_cusparse *cs, CUdeviceptr *p) {
    if (!*p) return;
    for (int i = 0; i < BENCH_CUSPARSE_MAX_LIVE; i++)
        if (cs->live[i].ptr == *p) {
            cs->in_use -= cs->live[i].bytes;
            cs->live[i].ptr = 0;
            cs->live[i].bytes = 0;
        }
    if (cs->pool) cs->cu.MemFreeAsync(*p, 0); /* ordered after the work queued on stream 0 */
    else cs->cu.MemFree(*p);
    *p = 0;
}

/* ---- inputs on the device -------------------------------------------------------------------- */
bool bench_cusparse_upload(bench_cusparse *cs, const magnus_csr_s *M, device_csr32 *out,
                           char *why, size_t n) {
    memset(out, 0, sizeof *out);
    if (M->rows > INT32_MAX || M->nnz > INT32_MAX) {
        snprintf(why, n, "cannot represent a matrix of %lld rows and %lld entries in 32-bit indices",
                 (long long)M->rows, (long long)M->nnz);
        return false;
    }
    int32_t *ptr32 = malloc(((size_t)M->rows + 1) * sizeof *ptr32);
    if (!ptr32) {
        snprintf(why, n, "out of host memory");
        return false;
    }
    for (int64_t i = 0; i <= M->rows; i++) ptr32[i] = (int32_t)M->row_ptr[i];
    size_t vb = magnus_value_size(M->type);
    out->rows = M->rows;
    out->cols = M->cols;
    out->nnz = M->nnz;
    bool ok = bench_cusparse_dalloc(cs, &out->row_ptr, ((size_t)M->rows + 1) * 4,
                                    "input row pointers", why, n) &&
              bench_cusparse_dalloc(cs, &out->col_idx, (size_t)M->nnz * 4, "input columns", why,
                                    n) &&
              bench_cusparse_dalloc(cs, &out->values, (size_t)M->nnz * vb, "input values", why,
                                    n) &&
              check_cu(cs, cs->cu.MemcpyHtoD(out->row_ptr, ptr32, ((size_t)M->rows + 1) * 4),
                       "upload", why, n) &&
              (M->nnz == 0 ||
               (check_cu(cs, cs->cu.MemcpyHtoD(out->col_idx, M->col_idx, (size_t)M->nnz * 4),
                         "upload", why, n) &&
                check_cu(cs, cs->cu.MemcpyHtoD(out->values, M->values, (size_t)M->nnz * vb),
                         "upload", why, n))) &&
              check_status(cs,
                           cs->cusparseCreateCsr(&out->descr, M->rows, M->cols, M->nnz,
                                                 (void *)out->row_ptr, (void *)out->col_idx,
                                                 (void *)out->values, CUSPARSE_INDEX_32I,
                                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                                 data_type(M->type)),
                           "cusparseCreateCsr", why, n);
    free(ptr32);
    return ok;
}

void bench_cusparse_release(bench_cusparse *cs, device_csr32 *M) {
    if (M->descr) cs->cusparseDestroySpMat(M->descr);
    bench_cusparse_dfree(cs, &M->row_ptr);
    bench_cusparse_dfree(cs, &M->col_idx);
    bench_cusparse_dfree(cs, &M->values);
    memset(M, 0, sizeof *M);
}

bool bench_cusparse_download(bench_cusparse *cs, const device_csr32 *dC,
                             magnus_value_type type, magnus_csr *out, char *why, size_t n) {
    magnus_status s = magnus_csr_new(out, dC->rows, dC->cols, dC->nnz, type);
    if (s) {
        snprintf(why, n, "host C: %s", magnus_status_string(s));
        return false;
    }
    int32_t *ptr32 = malloc(((size_t)dC->rows + 1) * sizeof *ptr32);
    size_t vb = magnus_value_size(type);
    bool ok = ptr32 &&
              check_cu(cs, cs->cu.MemcpyDtoH(ptr32, dC->row_ptr, ((size_t)dC->rows + 1) * 4),
                       "download", why, n) &&
              (dC->nnz == 0 ||
               (check_cu(cs, cs->cu.MemcpyDtoH((*out)->col_idx, dC->col_idx, (size_t)dC->nnz * 4),
                         "download", why, n) &&
                check_cu(cs, cs->cu.MemcpyDtoH((*out)->values, dC->values, (size_t)dC->nnz * vb),
                         "download", why, n)));
    if (!ptr32) snprintf(why, n, "out of host memory");
    if (ok)
        for (int64_t i = 0; i <= dC->rows; i++) (*out)->row_ptr[i] = ptr32[i];
    free(ptr32);
    if (!ok) magnus_csr_free(out);
    return ok;
}

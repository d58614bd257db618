/*
 * A fake CUDA driver and cuSPARSE in one shared library, so `magnus bench`'s cuSPARSE baseline
 * (tools/bench/bench_cusparse.c) runs its whole flow on a machine without NVIDIA hardware:
 * point MAGNUS_CUDA_LIBRARY and MAGNUS_CUSPARSE_LIBRARY at this library.
 *
 * Driver: cuGetProcAddress_v2 hands out the entry points the bench resolves; one device;
 * "device memory" is host memory (a CUdeviceptr is the host address), so copies are memcpy.
 * cuSPARSE: the generic SpGEMM calls with their two-phase buffer protocol checked (a size
 * query with a NULL buffer, then the call with a buffer of at least that size, in the order
 * the library requires); the product is computed on the host (Gustavson with a dense
 * accumulator, in the value type), structural entries kept, as cuSPARSE keeps them.
 *
 * Events read a device clock that only the SpMV advances, each product by its algorithm's
 * fixed cost (fake_cusparse_spmv.c), so a product timed alone between two events takes
 * exactly that.
 *
 * SpMV (bench --op spmv): CSR, COO and sliced ELL (the layout of NVIDIA's spmv_sell sample:
 * column-major slices, padding column -1 and value 0, checked), each algorithm only on its
 * format; cusparseSpMV_preprocess binds a descriptor to its algorithm and buffer, as the
 * real one keeps its analysis in them.
 *
 * Environment:
 *   FAKE_CUSPARSE_FAIL   comma list of algorithms whose compute answers
 *                        CUSPARSE_STATUS_INSUFFICIENT_RESOURCES: ALG1, ALG2, ALG3(0.1) ...;
 *                        SPMV: every cusparseSpMV answers CUSPARSE_STATUS_INTERNAL_ERROR
 *   FAKE_CUSPARSE_WRONG  set: the copied C has one value off by 1 (the bench must notice);
 *                        "even": only the process's 2nd, 4th, ... copy (with ALG1 failing, 6
 *                        trials per system and input, so with --runs 2 every second timed
 *                        run: the verified C is right, the next run's is not)
 *   FAKE_CUSPARSE_JITTER set: the 2nd, 4th, ... copy has every value one ulp up (a C that is
 *                        not bit for bit the verified one, yet right)
 *   FAKE_CUSPARSE_SPMV_SILENT         comma list of SpMV algorithms (ALG_DEFAULT, CSR_ALG1,
 *                        CSR_ALG2, COO_ALG1, COO_ALG2, SELL_ALG1) whose cusparseSpMV
 *                        succeeds without writing y
 *   FAKE_CUSPARSE_NO_PREPROCESS       ... whose cusparseSpMV_preprocess answers
 *                        CUSPARSE_STATUS_NOT_SUPPORTED
 *   FAKE_CUDA_MEM_LIMIT  bytes: cuMemAlloc beyond this many live bytes is out of memory
 * Stream-ordered pools (cusparse-pool): cuMemAllocFromPoolAsync needs a pool whose release
 * threshold was set, on stream 0; a pool's buffer must go back by cuMemFreeAsync and any
 * other by cuMemFree, or the fake aborts (the bench must not mix its allocators).
 * Built with FAKE_CUSPARSE_OLD: no cusparseGetStream, cusparseCreateSlicedEll or
 * cusparseSpMV_preprocess (a library before them; the bench resolves them as optional).
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cusparse.h"

/* ---- driver ------------------------------------------------------------------------------- */
static size_t live_bytes;
typedef struct allocation {
    size_t bytes;
    bool pooled; /* from cuMemAllocFromPoolAsync */
    max_align_t data[];
} allocation;

static CUresult fake_init(unsigned flags) {
    (void)flags;
    return CUDA_SUCCESS;
}
static CUresult fake_driver_version(int *v) {
    *v = 13000;
    return CUDA_SUCCESS;
}
static CUresult fake_error_name(CUresult r, const char **name) {
    *name = r == CUDA_ERROR_OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY"
            : r == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
                                            : "CUDA_ERROR_UNKNOWN";
    return CUDA_SUCCESS;
}
static CUresult fake_device_count(int *n) {
    *n = 1;
    return CUDA_SUCCESS;
}
static CUresult fake_device_get(CUdevice *d, int ordinal) {
    if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
    *d = 0;
    return CUDA_SUCCESS;
}
static CUresult fake_device_name(char *name, int len, CUdevice d) {
    (void)d;
    snprintf(name, (size_t)len, "Fake cuSPARSE device");
    return CUDA_SUCCESS;
}
static int context_token;
static CUresult fake_retain(CUcontext *ctx, CUdevice d) {
    (void)d;
    *ctx = (CUcontext)&context_token;
    return CUDA_SUCCESS;
}
static CUresult fake_release(CUdevice d) {
    (void)d;
    return CUDA_SUCCESS;
}
static CUresult fake_set_current(CUcontext ctx) {
    return ctx == (CUcontext)&context_token ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}
static CUresult fake_synchronize(void) { return CUDA_SUCCESS; }
static CUresult fake_mem_info(size_t *free_bytes, size_t *total) {
    *total = (size_t)8 << 30;
    *free_bytes = *total - live_bytes;
    return CUDA_SUCCESS;
}
static CUresult fake_alloc(CUdeviceptr *p, size_t bytes) {
    const char *limit = getenv("FAKE_CUDA_MEM_LIMIT");
    if (bytes == 0) return CUDA_ERROR_INVALID_VALUE; /* as the real cuMemAlloc */
    if (limit && live_bytes + bytes > strtoull(limit, NULL, 10)) return CUDA_ERROR_OUT_OF_MEMORY;
    allocation *a = malloc(sizeof *a + bytes);
    if (!a) return CUDA_ERROR_OUT_OF_MEMORY;
    a->bytes = bytes;
    a->pooled = false;
    memset(a->data, 0xa5, bytes); /* poison: nothing may read what was not written */
    live_bytes += bytes;
    *p = (CUdeviceptr)(uintptr_t)a->data;
    return CUDA_SUCCESS;
}
static allocation *of(CUdeviceptr p) {
    return (allocation *)((char *)(uintptr_t)p - offsetof(allocation, data));
}
static void misuse(const char *what) {
    fprintf(stderr, "fake CUDA driver: %s\n", what);
    abort();
}
static CUresult fake_free(CUdeviceptr p) {
    if (!p) return CUDA_SUCCESS;
    allocation *a = of(p);
    if (a->pooled) misuse("cuMemFree of a pool's buffer (cuMemFreeAsync frees those)");
    live_bytes -= a->bytes;
    free(a);
    return CUDA_SUCCESS;
}
/* ---- stream-ordered pools: host memory as above, the protocol checked ---------------------- */
typedef struct fake_pool {
    bool threshold_set;
} fake_pool;
static CUresult fake_device_attribute(int *value, CUdevice_attribute attr, CUdevice d) {
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    *value = attr == CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED ? 1 : 0;
    return CUDA_SUCCESS;
}
static CUresult fake_pool_create(CUmemoryPool *pool, const CUmemPoolProps *props) {
    if (!props || props->location.type != CU_MEM_LOCATION_TYPE_DEVICE || props->location.id != 0)
        return CUDA_ERROR_INVALID_VALUE;
    *pool = calloc(1, sizeof(fake_pool));
    return *pool ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
static CUresult fake_pool_destroy(CUmemoryPool pool) {
    free((void *)pool);
    return CUDA_SUCCESS;
}
static CUresult fake_pool_set(CUmemoryPool pool, CUmemPool_attribute attr, void *value) {
    if (!pool || !value) return CUDA_ERROR_INVALID_VALUE;
    if (attr == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)
        ((fake_pool *)(void *)pool)->threshold_set = *(cuuint64_t *)value == UINT64_MAX;
    return CUDA_SUCCESS;
}
static CUresult fake_alloc_async(CUdeviceptr *p, size_t bytes, CUmemoryPool pool, CUstream s) {
    if (!pool || s) return CUDA_ERROR_INVALID_VALUE; /* one stream: the default */
    if (!((fake_pool *)(void *)pool)->threshold_set)
        misuse("cuMemAllocFromPoolAsync from a pool whose release threshold is not the maximum");
    CUresult r = fake_alloc(p, bytes);
    if (r == CUDA_SUCCESS) of(*p)->pooled = true;
    return r;
}
static CUresult fake_free_async(CUdeviceptr p, CUstream s) {
    if (s) return CUDA_ERROR_INVALID_VALUE;
    if (!p) return CUDA_SUCCESS;
    if (!of(p)->pooled) misuse("cuMemFreeAsync of a cuMemAlloc buffer");
    of(p)->pooled = false;
    return fake_free(p);
}

static CUresult fake_htod(CUdeviceptr dst, const void *src, size_t bytes) {
    if (bytes > of(dst)->bytes) return CUDA_ERROR_INVALID_VALUE;
    memcpy((void *)(uintptr_t)dst, src, bytes);
    return CUDA_SUCCESS;
}
static CUresult fake_dtoh(void *dst, CUdeviceptr src, size_t bytes) {
    if (bytes > of(src)->bytes) return CUDA_ERROR_INVALID_VALUE;
    memcpy(dst, (const void *)(uintptr_t)src, bytes);
    return CUDA_SUCCESS;
}

/* Events read the device clock (fake_cusparse.h): what ran between two is the time of the
 * products between them, exactly. */
double fake_device_clock_ms;
typedef struct fake_event {
    bool recorded;
    double ms;
} fake_event;
static CUresult fake_event_create(CUevent *e, unsigned flags) {
    (void)flags;
    *e = calloc(1, sizeof(fake_event));
    return *e ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
static CUresult fake_event_record(CUevent e, CUstream stream) {
    if (!e || stream) return CUDA_ERROR_INVALID_HANDLE; /* one stream: the default */
    *(fake_event *)(void *)e = (fake_event){true, fake_device_clock_ms};
    return CUDA_SUCCESS;
}
static CUresult fake_event_synchronize(CUevent e) {
    return e && ((fake_event *)(void *)e)->recorded ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
static CUresult fake_event_elapsed(float *ms, CUevent start, CUevent end) {
    const fake_event *a = (const fake_event *)(void *)start, *b = (const fake_event *)(void *)end;
    if (!a || !b || !a->recorded || !b->recorded) return CUDA_ERROR_INVALID_HANDLE;
    *ms = (float)(b->ms - a->ms);
    return CUDA_SUCCESS;
}
static CUresult fake_event_destroy(CUevent e) {
    free((void *)e);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                    CUdriverProcAddressQueryResult *status) {
    (void)flags;
    static const struct {
        const char *name;
        void (*fn)(void);
    } table[] = {
        {"cuInit", (void (*)(void))fake_init},
        {"cuDriverGetVersion", (void (*)(void))fake_driver_version},
        {"cuGetErrorName", (void (*)(void))fake_error_name},
        {"cuDeviceGetCount", (void (*)(void))fake_device_count},
        {"cuDeviceGet", (void (*)(void))fake_device_get},
        {"cuDeviceGetName", (void (*)(void))fake_device_name},
        {"cuDevicePrimaryCtxRetain", (void (*)(void))fake_retain},
        {"cuDevicePrimaryCtxRelease", (void (*)(void))fake_release},
        {"cuCtxSetCurrent", (void (*)(void))fake_set_current},
        {"cuCtxSynchronize", (void (*)(void))fake_synchronize},
        {"cuMemGetInfo", (void (*)(void))fake_mem_info},
        {"cuMemAlloc", (void (*)(void))fake_alloc},
        {"cuMemFree", (void (*)(void))fake_free},
        {"cuMemcpyHtoD", (void (*)(void))fake_htod},
        {"cuMemcpyDtoH", (void (*)(void))fake_dtoh},
        {"cuEventCreate", (void (*)(void))fake_event_create},
        {"cuEventRecord", (void (*)(void))fake_event_record},
        {"cuEventSynchronize", (void (*)(void))fake_event_synchronize},
        {"cuEventElapsedTime", (void (*)(void))fake_event_elapsed},
        {"cuEventDestroy", (void (*)(void))fake_event_destroy},
        {"cuDeviceGetAttribute", (void (*)(void))fake_device_attribute},
        {"cuMemPoolCreate", (void (*)(void))fake_pool_create},
        {"cuMemPoolDestroy", (void (*)(void))fake_pool_destroy},
        {"cuMemPoolSetAttribute", (void (*)(void))fake_pool_set},
        {"cuMemAllocFromPoolAsync", (void (*)(void))fake_alloc_async},
        {"cuMemFreeAsync", (void (*)(void))fake_free_async},
    };
    *pfn = NULL;
    if (version > 13000) {
        if (status) *status = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
        return CUDA_ERROR_NOT_FOUND;
    }
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (!strcmp(table[i].name, symbol)) {
            memcpy(pfn, &table[i].fn, sizeof *pfn);
            if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
            return CUDA_SUCCESS;
        }
    if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_SUCCESS;
}

/* ---- cuSPARSE ------------------------------------------------------------------------------ */
struct cusparseContext {
    int magic;
};
struct cusparseSpGEMMDescr {
    int stage; /* 0 new, 1 work estimated, 2 memory estimated, 3 computed */
    int64_t products;
    float chunk_fraction;
    int32_t *c_ptr, *c_col;
    double *c_val;
    int64_t c_nnz;
};

EXPORT cusparseStatus_t cusparseCreate(cusparseHandle_t *h) {
    *h = calloc(1, sizeof **h);
    return *h ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
}
EXPORT cusparseStatus_t cusparseDestroy(cusparseHandle_t h) {
    free(h);
    return CUSPARSE_STATUS_SUCCESS;
}
EXPORT const char *cusparseGetErrorName(cusparseStatus_t s) {
    switch (s) {
    case CUSPARSE_STATUS_SUCCESS: return "CUSPARSE_STATUS_SUCCESS";
    case CUSPARSE_STATUS_INVALID_VALUE: return "CUSPARSE_STATUS_INVALID_VALUE";
    case CUSPARSE_STATUS_NOT_SUPPORTED: return "CUSPARSE_STATUS_NOT_SUPPORTED";
    case CUSPARSE_STATUS_INSUFFICIENT_RESOURCES: return "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES";
    default: return "CUSPARSE_STATUS_INTERNAL_ERROR";
    }
}
EXPORT cusparseStatus_t cusparseGetProperty(libraryPropertyType type, int *value) {
    *value = type == MAJOR_VERSION ? 12 : type == MINOR_VERSION ? 99 : 0;
    return CUSPARSE_STATUS_SUCCESS;
}
EXPORT cusparseStatus_t cusparseCreateCsr(cusparseSpMatDescr_t *d, int64_t rows, int64_t cols,
                                          int64_t nnz, void *row_ptr, void *col_idx, void *values,
                                          cusparseIndexType_t row_type, cusparseIndexType_t col_type,
                                          cusparseIndexBase_t base, cudaDataType type) {
    if (row_type != CUSPARSE_INDEX_32I || col_type != CUSPARSE_INDEX_32I ||
        base != CUSPARSE_INDEX_BASE_ZERO || (type != CUDA_R_32F && type != CUDA_R_64F) || !row_ptr)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *d = calloc(1, sizeof **d);
    if (!*d) return CUSPARSE_STATUS_ALLOC_FAILED;
    **d = (struct cusparseSpMatDescr){.rows = rows, .cols = cols, .nnz = nnz, .row_ptr = row_ptr,
                                      .col_idx = col_idx, .values = values, .type = type};
    return CUSPARSE_STATUS_SUCCESS;
}
EXPORT cusparseStatus_t cusparseDestroySpMat(cusparseConstSpMatDescr_t d) {
    free((void *)d);
    return CUSPARSE_STATUS_SUCCESS;
}
EXPORT cusparseStatus_t cusparseSpMatGetSize(cusparseConstSpMatDescr_t d, int64_t *rows,
                                             int64_t *cols, int64_t *nnz) {
    *rows = d->rows;
    *cols = d->cols;
    *nnz = d->nnz;
    return CUSPARSE_STATUS_SUCCESS;
}
EXPORT cusparseStatus_t cusparseCsrSetPointers(cusparseSpMatDescr_t d, void *row_ptr,
                                               void *col_idx, void *values) {
    d->row_ptr = row_ptr;
    d->col_idx = col_idx;
    d->values = values;
    return CUSPARSE_STATUS_SUCCESS;
}
EXPORT cusparseStatus_t cusparseSpGEMM_createDescr(cusparseSpGEMMDescr_t *d) {
    *d = calloc(1, sizeof **d);
    return *d ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
}
EXPORT cusparseStatus_t cusparseSpGEMM_destroyDescr(cusparseSpGEMMDescr_t d) {
    if (d) {
        free(d->c_ptr);
        free(d->c_col);
        free(d->c_val);
    }
    free(d);
    return CUSPARSE_STATUS_SUCCESS;
}


static const char *alg_name(cusparseSpGEMMAlg_t alg, float chunk, char *buf, size_t n) {
    if (alg == CUSPARSE_SPGEMM_ALG3) snprintf(buf, n, "ALG3(%.1f)", (double)chunk);
    else snprintf(buf, n, "ALG%d", alg == CUSPARSE_SPGEMM_ALG1 ? 1 : 2);
    return buf;
}


static cusparseStatus_t check_common(cusparseHandle_t h, cusparseOperation_t opA,
                                     cusparseOperation_t opB, const void *alpha, const void *beta,
                                     cusparseConstSpMatDescr_t A, cusparseConstSpMatDescr_t B,
                                     cusparseSpMatDescr_t C, cudaDataType t) {
    if (!h || !alpha || !beta || !A || !B || !C || opA != CUSPARSE_OPERATION_NON_TRANSPOSE ||
        opB != CUSPARSE_OPERATION_NON_TRANSPOSE || A->cols != B->rows || A->type != t ||
        B->type != t || C->type != t || C->rows != A->rows || C->cols != B->cols)
        return CUSPARSE_STATUS_INVALID_VALUE;
    return CUSPARSE_STATUS_SUCCESS;
}

EXPORT cusparseStatus_t cusparseSpGEMM_workEstimation(
    cusparseHandle_t h, cusparseOperation_t opA, cusparseOperation_t opB, const void *alpha,
    cusparseConstSpMatDescr_t A, cusparseConstSpMatDescr_t B, const void *beta,
    cusparseSpMatDescr_t C, cudaDataType t, cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t d,
    size_t *size1, void *buffer1) {
    (void)alg;
    cusparseStatus_t s = check_common(h, opA, opB, alpha, beta, A, B, C, t);
    if (s || !d || !size1) return s ? s : CUSPARSE_STATUS_INVALID_VALUE;
    if (!buffer1) {
        *size1 = 1024;
        return CUSPARSE_STATUS_SUCCESS;
    }
    if (*size1 < 1024) return CUSPARSE_STATUS_INVALID_VALUE;
    const int32_t *ap = A->row_ptr, *ac = A->col_idx, *bp = B->row_ptr;
    d->products = 0;
    for (int64_t e = 0; e < A->nnz; e++) d->products += bp[ac[e] + 1] - bp[ac[e]];
    (void)ap;
    d->stage = 1;
    return CUSPARSE_STATUS_SUCCESS;
}

EXPORT cusparseStatus_t cusparseSpGEMM_getNumProducts(cusparseSpGEMMDescr_t d, int64_t *n) {
    if (!d || d->stage < 1) return CUSPARSE_STATUS_INVALID_VALUE;
    *n = d->products;
    return CUSPARSE_STATUS_SUCCESS;
}

EXPORT cusparseStatus_t cusparseSpGEMM_estimateMemory(
    cusparseHandle_t h, cusparseOperation_t opA, cusparseOperation_t opB, const void *alpha,
    cusparseConstSpMatDescr_t A, cusparseConstSpMatDescr_t B, const void *beta,
    cusparseSpMatDescr_t C, cudaDataType t, cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t d,
    float chunk_fraction, size_t *size3, void *buffer3, size_t *size2) {
    cusparseStatus_t s = check_common(h, opA, opB, alpha, beta, A, B, C, t);
    if (s) return s;
    if (alg == CUSPARSE_SPGEMM_ALG1) return CUSPARSE_STATUS_NOT_SUPPORTED;
    if (!d || d->stage < 1 || !size3) return CUSPARSE_STATUS_INVALID_VALUE;
    if (!buffer3) {
        *size3 = 512;
        return CUSPARSE_STATUS_SUCCESS;
    }
    if (*size3 < 512 || !size2) return CUSPARSE_STATUS_INVALID_VALUE;
    d->chunk_fraction = chunk_fraction;
    *size2 = 2048;
    d->stage = 2;
    return CUSPARSE_STATUS_SUCCESS;
}

EXPORT cusparseStatus_t cusparseSpGEMM_compute(
    cusparseHandle_t h, cusparseOperation_t opA, cusparseOperation_t opB, const void *alpha,
    cusparseConstSpMatDescr_t A, cusparseConstSpMatDescr_t B, const void *beta,
    cusparseSpMatDescr_t C, cudaDataType t, cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t d,
    size_t *size2, void *buffer2) {
    cusparseStatus_t s = check_common(h, opA, opB, alpha, beta, A, B, C, t);
    if (s || !d || d->stage < 1 || !size2) return s ? s : CUSPARSE_STATUS_INVALID_VALUE;
    /* ALG2 and ALG3 are sized by estimateMemory, ALG1 by this call's query */
    if (alg != CUSPARSE_SPGEMM_ALG1 && d->stage < 2) return CUSPARSE_STATUS_INVALID_VALUE;
    if (!buffer2) {
        if (alg != CUSPARSE_SPGEMM_ALG1) return CUSPARSE_STATUS_INVALID_VALUE;
        *size2 = 2048;
        return CUSPARSE_STATUS_SUCCESS;
    }
    if (*size2 < 2048) return CUSPARSE_STATUS_INVALID_VALUE;
    char name[32];
    if (fake_listed(getenv("FAKE_CUSPARSE_FAIL"), alg_name(alg, d->chunk_fraction, name, sizeof name)))
        return CUSPARSE_STATUS_INSUFFICIENT_RESOURCES;
    const int32_t *ap = A->row_ptr, *ac = A->col_idx, *bp = B->row_ptr, *bc = B->col_idx;
    int64_t m = A->rows, n = B->cols;
    double *acc = calloc((size_t)n + 1, sizeof *acc);
    int32_t *mark = malloc(((size_t)n + 1) * sizeof *mark);
    free(d->c_ptr), free(d->c_col), free(d->c_val);
    d->c_ptr = calloc((size_t)m + 1, sizeof *d->c_ptr);
    d->c_col = malloc(((size_t)d->products + 1) * sizeof *d->c_col);
    d->c_val = malloc(((size_t)d->products + 1) * sizeof *d->c_val);
    if (!acc || !mark || !d->c_ptr || !d->c_col || !d->c_val) {
        free(acc), free(mark);
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    for (int64_t j = 0; j < n; j++) mark[j] = -1;
    int64_t nnz = 0;
    for (int64_t i = 0; i < m; i++) {
        int64_t start = nnz;
        for (int32_t e = ap[i]; e < ap[i + 1]; e++) {
            double a = fake_value(A, e);
            for (int32_t f = bp[ac[e]]; f < bp[ac[e] + 1]; f++) {
                int32_t j = bc[f];
                double p = a * fake_value(B, f);
                if (t == CUDA_R_32F) p = (float)p;
                if (mark[j] != (int32_t)i) {
                    mark[j] = (int32_t)i;
                    acc[j] = 0;
                    d->c_col[nnz++] = j;
                }
                acc[j] = t == CUDA_R_32F ? (double)(float)(acc[j] + p) : acc[j] + p;
            }
        }
        /* sort the row's columns (insertion sort: test inputs are small) */
        for (int64_t x = start + 1; x < nnz; x++)
            for (int64_t y = x; y > start && d->c_col[y - 1] > d->c_col[y]; y--) {
                int32_t tmp = d->c_col[y];
                d->c_col[y] = d->c_col[y - 1];
                d->c_col[y - 1] = tmp;
            }
        for (int64_t x = start; x < nnz; x++) d->c_val[x] = acc[d->c_col[x]];
        d->c_ptr[i + 1] = (int32_t)nnz;
    }
    free(acc);
    free(mark);
    d->c_nnz = nnz;
    C->nnz = nnz;
    d->stage = 3;
    return CUSPARSE_STATUS_SUCCESS;
}

EXPORT cusparseStatus_t cusparseSpGEMM_copy(cusparseHandle_t h, cusparseOperation_t opA,
                                            cusparseOperation_t opB, const void *alpha,
                                            cusparseConstSpMatDescr_t A,
                                            cusparseConstSpMatDescr_t B, const void *beta,
                                            cusparseSpMatDescr_t C, cudaDataType t,
                                            cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t d) {
    (void)alg;
    cusparseStatus_t s = check_common(h, opA, opB, alpha, beta, A, B, C, t);
    if (s || !d || d->stage != 3 || C->nnz != d->c_nnz || (d->c_nnz && (!C->col_idx || !C->values)))
        return s ? s : CUSPARSE_STATUS_INVALID_VALUE;
    memcpy(C->row_ptr, d->c_ptr, ((size_t)C->rows + 1) * sizeof(int32_t));
    if (d->c_nnz) memcpy(C->col_idx, d->c_col, (size_t)d->c_nnz * sizeof(int32_t));
    static long copies;
    const bool even = ++copies % 2 == 0;
    const char *wrong_env = getenv("FAKE_CUSPARSE_WRONG");
    const bool wrong = wrong_env && (strcmp(wrong_env, "even") || even);
    const bool jitter = getenv("FAKE_CUSPARSE_JITTER") && even;
    for (int64_t e = 0; e < d->c_nnz; e++) {
        double v = d->c_val[e] + (wrong && e == d->c_nnz / 2 ? 1.0 : 0.0);
        if (t == CUDA_R_64F) ((double *)C->values)[e] = jitter ? nextafter(v, INFINITY) : v;
        else ((float *)C->values)[e] = jitter ? nextafterf((float)v, INFINITY) : (float)v;
    }
    return CUSPARSE_STATUS_SUCCESS;
}


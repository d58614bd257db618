/*
 * What the parts of the cuSPARSE baseline share (bench_cusparse.c, which says what the baseline
 * runs, runs and times the algorithms; bench_cusparse_lib.c loads libcusparse and resolves its
 * functions; bench_cusparse_memory.c accounts the device memory and moves the matrices to and
 * from it; bench_cusparse_spmv.c and bench_cusparse_sell.c are the SpMV baseline): the
 * baseline's state, a matrix on the device, the status checks. Only where
 * cusparse.h exists (MAGNUS_BENCH_HAVE_CUSPARSE: tools/magnus_bench.cmake).
 */
#ifndef MAGNUS_BENCH_CUSPARSE_INTERNAL_H
#define MAGNUS_BENCH_CUSPARSE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cusparse.h>

#include "bench.h"
#include "bench_cuda.h"

#define BENCH_CUSPARSE_MAX_LIVE 24

/* Every cuSPARSE function the baseline calls, typed by its own declaration. */
#define BENCH_CUSPARSE_FUNCTIONS(X)   \
    X(cusparseCreate)                 \
    X(cusparseDestroy)                \
    X(cusparseGetErrorName)           \
    X(cusparseGetProperty)            \
    X(cusparseCreateCsr)              \
    X(cusparseDestroySpMat)           \
    X(cusparseSpMatGetSize)           \
    X(cusparseCsrSetPointers)         \
    X(cusparseSpGEMM_createDescr)     \
    X(cusparseSpGEMM_destroyDescr)    \
    X(cusparseSpGEMM_workEstimation)  \
    X(cusparseSpGEMM_getNumProducts)  \
    X(cusparseSpGEMM_estimateMemory)  \
    X(cusparseSpGEMM_compute)         \
    X(cusparseSpGEMM_copy)

/* The SpMV baseline's functions (bench_cusparse_spmv.c): resolved when present, NULL otherwise
 * (a library without them still serves the SpGEMM baseline; without the last three the SpMV
 * baseline runs on the handle's default stream, and its sliced-ELL and preprocess rows say
 * why they were skipped). */
#define BENCH_CUSPARSE_SPMV_FUNCTIONS(X) \
    X(cusparseCreateDnVec)               \
    X(cusparseDestroyDnVec)              \
    X(cusparseSpMV_bufferSize)           \
    X(cusparseSpMV)                      \
    X(cusparseCreateCoo)                 \
    X(cusparseGetStream)                 \
    X(cusparseCreateSlicedEll)           \
    X(cusparseSpMV_preprocess)

struct bench_cusparse {
    bench_cuda_api cu;
    void *library;
    char path[256];
#define BENCH_CUSPARSE_MEMBER(name) __typeof__(name) *name;
    BENCH_CUSPARSE_FUNCTIONS(BENCH_CUSPARSE_MEMBER)
    BENCH_CUSPARSE_SPMV_FUNCTIONS(BENCH_CUSPARSE_MEMBER)
#undef BENCH_CUSPARSE_MEMBER
    CUdevice device;
    CUcontext ctx;
    bool ctx_retained;
    cusparseHandle_t handle;
    /* cusparse-pool: every buffer from this pool, on the handle's stream (0, the legacy
     * default stream cuSPARSE runs on), release threshold UINT64_MAX (freed memory stays
     * mapped for the next allocation), as magnus's CUDA backend allocates; NULL: cuMemAlloc */
    CUmemoryPool pool;
    bool warmed;               /* the library's start-up run is done */
    char description[512];
    uint64_t total_memory;
    /* live device allocations, for peak accounting */
    struct {
        CUdeviceptr ptr;
        size_t bytes;
    } live[BENCH_CUSPARSE_MAX_LIVE];
    uint64_t in_use, peak;
};

typedef struct device_csr32 {
    int64_t rows, cols, nnz;
    CUdeviceptr row_ptr, col_idx, values;
    cusparseSpMatDescr_t descr;
} device_csr32;

static inline bool check_status(bench_cusparse *cs, cusparseStatus_t st, const char *what,
                                char *why, size_t n) {
    if (st == CUSPARSE_STATUS_SUCCESS) return true;
    const char *name = cs->cusparseGetErrorName ? cs->cusparseGetErrorName(st) : NULL;
    if (name) snprintf(why, n, "%s: %s", what, name);
    else snprintf(why, n, "%s: cusparseStatus_t %d", what, (int)st);
    return false;
}

static inline bool check_cu(bench_cusparse *cs, CUresult r, const char *what, char *why,
                            size_t n) {
    if (r == CUDA_SUCCESS) return true;
    char name[64];
    snprintf(why, n, "%s: %s", what, bench_cuda_error_name(&cs->cu, r, name, sizeof name));
    return false;
}

static inline cudaDataType data_type(magnus_value_type t) {
    return t == MAGNUS_FLOAT64 ? CUDA_R_64F : CUDA_R_32F;
}

/* ---- device memory, accounted, and the matrices in it (bench_cusparse_memory.c) ------------ */
/* Allocates `bytes` (at least 256) into *out, counted in cs's use and peak (from cs->pool,
 * stream-ordered, when there is one); false with the reason (`what` names the buffer)
 * otherwise. */
bool bench_cusparse_dalloc(bench_cusparse *cs, CUdeviceptr *out, size_t bytes,
                           const char *what, char *why, size_t n);
/* Frees *p (0: nothing) and clears it. */
void bench_cusparse_dfree(bench_cusparse *cs, CUdeviceptr *p);
/* M on the device with 32-bit indices (row pointers converted on the host), and its cuSPARSE
 * descriptor; false with the reason otherwise (release *out either way). */
bool bench_cusparse_upload(bench_cusparse *cs, const magnus_csr_s *M, device_csr32 *out,
                           char *why, size_t n);
/* Frees M's descriptor and arrays, and clears it. */
void bench_cusparse_release(bench_cusparse *cs, device_csr32 *M);
/* The device matrix dC as a new host matrix *out (64-bit row pointers); false with the reason
 * otherwise, *out then freed. */
bool bench_cusparse_download(bench_cusparse *cs, const device_csr32 *dC,
                             magnus_value_type type, magnus_csr *out, char *why, size_t n);

/* ---- sliced ELL on the host (bench_cusparse_sell.c) ------------------------------------------ */
/* cuSPARSE's sliced ELL (cusparseCreateSlicedEll; NVIDIA's spmv_sell sample): rows in slices of
 * `slice` rows, each slice as wide as its longest row; slice s's entries at
 * offsets[s] .. offsets[s + 1], column-major within the slice (entry k of row s*slice + r at
 * offsets[s] + k*slice + r); padding (short rows, and the rows past the last one in the last
 * slice) has column -1 and value 0; values_size = offsets[slices], 32-bit offsets and
 * columns. */
typedef struct bench_sell {
    int64_t slice, slices, values_size;
    int32_t *offsets, *cols;
    void *values; /* A's value type */
} bench_sell;
/* The entries (padding included) A's sliced ELL in slices of `slice` rows would hold. */
int64_t bench_sell_values_size(const magnus_csr_s *A, int64_t slice);
/* Builds it into *out (bench_sell_free it); false with the reason (host memory, 32-bit
 * offsets) otherwise. */
bool bench_sell_build(bench_sell *out, const magnus_csr_s *A, int64_t slice, char *why,
                      size_t n);
void bench_sell_free(bench_sell *s);

#endif

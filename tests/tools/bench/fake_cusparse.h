/*
 * What the two files of the fake CUDA driver + cuSPARSE share (fake_cusparse.c: the driver and
 * the SpGEMM; fake_cusparse_spmv.c: the SpMV): the sparse matrix descriptor, a value of it, the
 * device clock, the environment's comma lists. fake_cusparse.c says what the fake is and how it is steered.
 */
#ifndef MAGNUS_FAKE_CUSPARSE_H
#define MAGNUS_FAKE_CUSPARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <cuda.h>
#include <cusparse.h>

#define EXPORT __attribute__((visibility("default")))

struct cusparseSpMatDescr {
    int64_t rows, cols, nnz;
    void *row_ptr, *col_idx, *values;
    cudaDataType type;
    void *coo_row; /* a COO matrix (cusparseCreateCoo): row index of each entry; else NULL */
    /* a sliced ELL (cusparseCreateSlicedEll): rows per slice (0: not one), its entries
     * (padding included); row_ptr holds the slice offsets */
    int64_t slice, sell_size;
    /* cusparseSpMV_preprocess bound it to this algorithm and buffer */
    bool preprocessed;
    cusparseSpMVAlg_t pre_alg;
    void *pre_buffer;
};

/* The fake device's clock, ms: cuEventRecord reads it, each cusparseSpMV advances it. */
extern double fake_device_clock_ms;

static inline double fake_value(const struct cusparseSpMatDescr *M, int64_t e) {
    return M->type == CUDA_R_64F ? ((const double *)M->values)[e]
                                 : (double)((const float *)M->values)[e];
}

/* Whether `item` is one of the comma list's items (NULL: none). */
static inline bool fake_listed(const char *list, const char *item) {
    if (!list) return false;
    size_t len = strlen(item);
    for (const char *p = list; (p = strstr(p, item)); p += len)
        if ((p == list || p[-1] == ',') && (p[len] == 0 || p[len] == ',')) return true;
    return false;
}

#endif

/*
 * The broken matrices and checks of the test_api_errors executable's files
 * (tests/reliability/reliability.cmake): a valid 4 x 5 matrix and each of its broken variants
 * with the status it calls for, a valid library-made matrix, a described device, EXPECT_STATUS
 * (the status and a detail message) and POISON_CSR (an output that must be set to NULL on
 * failure).
 */
#ifndef MAGNUS_TESTS_RELIABILITY_API_ERRORS_TEST_UTIL_H
#define MAGNUS_TESTS_RELIABILITY_API_ERRORS_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_runtime.h"

/* A described OpenCL device (no hardware behind it) for the entry points that take a
 * magnus_device_info: 64 KiB of local memory, groups of 256, subgroups of 32, 8 compute units. */
static inline magnus_device_info described_device(void) {
    magnus_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.backend = MAGNUS_BACKEND_OPENCL;
    dev.local_mem_bytes = 65536;
    dev.max_work_group_size = 256;
    dev.subgroup_sizes[0] = 32;
    dev.num_subgroup_sizes = 1;
    dev.compute_units = 8;
    return dev;
}

/* ---- a valid matrix and its broken variants ------------------------------------------------ */

/* 4 x 5, rows {0,2}, {}, {1,3,4}, {0}: nnz 6. */
#define M_ROWS 4
#define M_COLS 5
#define M_NNZ 6

typedef struct broken {
    magnus_csr_s m;
    int64_t row_ptr[M_ROWS + 1];
    int32_t col_idx[M_NNZ];
    double values[M_NNZ];
} broken;

static inline void make_valid(broken *b) {
    static const int64_t rp[M_ROWS + 1] = {0, 2, 2, 5, 6};
    static const int32_t ci[M_NNZ] = {0, 2, 1, 3, 4, 0};
    memset(b, 0, sizeof *b);
    memcpy(b->row_ptr, rp, sizeof rp);
    memcpy(b->col_idx, ci, sizeof ci);
    for (int k = 0; k < M_NNZ; k++) b->values[k] = 1.0 + k;
    b->m.magic = MAGNUS_MAGIC_CSR;
    b->m.rows = M_ROWS;
    b->m.cols = M_COLS;
    b->m.nnz = M_NNZ;
    b->m.type = MAGNUS_FLOAT64;
    b->m.row_ptr = b->row_ptr;
    b->m.col_idx = b->col_idx;
    b->m.values = b->values;
}

typedef enum corruption {
    C_NULL_HANDLE,
    C_FREED,
    C_FOREIGN,
    C_BAD_TYPE,
    C_ROWPTR0,
    C_NOT_MONOTONE,
    C_ROWPTR_PAST_NNZ,   /* a middle row pointer beyond nnz: reading it would overrun */
    C_ROWPTR_LAST_BIG,   /* row_ptr[rows] > nnz */
    C_ROWPTR_LAST_SMALL, /* row_ptr[rows] < nnz */
    C_COL_TOO_BIG,
    C_COL_NEGATIVE,
    C_UNSORTED,
    C_DUPLICATE,
    C_NULL_ROWPTR,
    C_NULL_COLS,
    C_NULL_VALUES,
    C_NEGATIVE_NNZ,
    C_COUNT
} corruption;

static const char *const corruption_names[C_COUNT] = {
    "NULL handle", "freed handle", "foreign handle", "value type 7", "row_ptr[0] = 1",
    "row pointers not monotone", "row pointer past nnz", "row_ptr[rows] > nnz",
    "row_ptr[rows] < nnz", "column == cols", "column -1", "unsorted columns",
    "duplicate column", "row_ptr NULL", "col_idx NULL", "values NULL", "nnz -1"};

/* The status every validating entry point must give. */
static const magnus_status corruption_status[C_COUNT] = {
    MAGNUS_ERROR_NULL_POINTER,        MAGNUS_ERROR_INVALID_HANDLE,
    MAGNUS_ERROR_INVALID_HANDLE,      MAGNUS_ERROR_UNSUPPORTED_TYPE,
    MAGNUS_ERROR_ROWPTR_INVALID,      MAGNUS_ERROR_ROWPTR_NOT_MONOTONE,
    MAGNUS_ERROR_ROWPTR_INVALID,      MAGNUS_ERROR_ROWPTR_INVALID,
    MAGNUS_ERROR_ROWPTR_INVALID,      MAGNUS_ERROR_COLUMN_OUT_OF_RANGE,
    MAGNUS_ERROR_COLUMN_OUT_OF_RANGE, MAGNUS_ERROR_COLUMNS_UNSORTED,
    MAGNUS_ERROR_DUPLICATE_COLUMN,    MAGNUS_ERROR_NULL_POINTER,
    MAGNUS_ERROR_NULL_POINTER,        MAGNUS_ERROR_NULL_POINTER,
    MAGNUS_ERROR_INVALID_ARGUMENT};

/*
 * The broken matrix, on the heap with arrays exactly as long as its fields say (so a read
 * past them is caught), or NULL for C_NULL_HANDLE. Free with broken_free.
 */
static inline magnus_csr_s *broken_make(corruption c) {
    if (c == C_NULL_HANDLE) return NULL;
    broken b;
    make_valid(&b);
    switch (c) {
    case C_FREED: b.m.magic = MAGNUS_MAGIC_FREED; break;
    case C_FOREIGN: b.m.magic = 0x0123456789abcdefULL; break;
    case C_BAD_TYPE: b.m.type = (magnus_value_type)7; break;
    case C_ROWPTR0: b.row_ptr[0] = 1; break;
    case C_NOT_MONOTONE: b.row_ptr[2] = 1; break;
    case C_ROWPTR_PAST_NNZ: b.row_ptr[2] = b.row_ptr[3] = 9; break;
    case C_ROWPTR_LAST_BIG: b.row_ptr[M_ROWS] = M_NNZ + 3; break;
    case C_ROWPTR_LAST_SMALL: b.row_ptr[M_ROWS] = M_NNZ - 1; break;
    case C_COL_TOO_BIG: b.col_idx[4] = M_COLS; break;
    case C_COL_NEGATIVE: b.col_idx[1] = -1; break;
    case C_UNSORTED: b.col_idx[2] = 3, b.col_idx[3] = 1; break;
    case C_DUPLICATE: b.col_idx[3] = 1; break;
    case C_NEGATIVE_NNZ: b.m.nnz = -1; break;
    default: break;
    }
    magnus_csr_s *m = malloc(sizeof *m);
    cr_assert_not_null(m);
    *m = b.m;
    m->row_ptr = c == C_NULL_ROWPTR ? NULL : malloc(sizeof b.row_ptr);
    m->col_idx = c == C_NULL_COLS ? NULL : malloc(sizeof b.col_idx);
    m->values = c == C_NULL_VALUES ? NULL : malloc(sizeof b.values);
    if (m->row_ptr) memcpy(m->row_ptr, b.row_ptr, sizeof b.row_ptr);
    if (m->col_idx) memcpy(m->col_idx, b.col_idx, sizeof b.col_idx);
    if (m->values) memcpy(m->values, b.values, sizeof b.values);
    return m;
}

static inline void broken_free(magnus_csr_s *m) {
    if (!m) return;
    free(m->row_ptr);
    free(m->col_idx);
    free(m->values);
    free(m);
}

/* A valid library-made matrix of the given shape, float64, a few entries. */
static inline magnus_csr valid(int64_t rows, int64_t cols) {
    magnus_csr A = NULL;
    cr_assert_eq(magnus_gen_uniform(&A, rows, cols, cols < 2 ? cols : 2, 7, MAGNUS_FLOAT64),
                 MAGNUS_SUCCESS, "%s", magnus_last_error());
    return A;
}

/* Calls `call`, expects status `want` and (on failure) a detail message; the rest of the
 * arguments are a printf label for the messages. */
#define EXPECT_STATUS(call, want, ...)                                                           \
    do {                                                                                         \
        magnus_status got_ = (call);                                                             \
        char label_[256];                                                                        \
        snprintf(label_, sizeof label_, __VA_ARGS__);                                            \
        cr_expect_eq(got_, (want), "%s: got %d (%s), want %d; detail: %s", label_, (int)got_,    \
                     magnus_status_string(got_), (int)(want), magnus_last_error());              \
        if (got_ != MAGNUS_SUCCESS)                                                              \
            cr_expect_neq(magnus_last_error()[0], '\0', "%s: empty detail message", label_);     \
    } while (0)

/* A non-NULL value the outputs start with, so that "set to NULL on failure" is checked. */
#define POISON_CSR ((magnus_csr)(uintptr_t)0x1)

#endif

/*
 * Sizes out of range and sizes whose byte counts overflow 64 bits, in the constructors and
 * generators (part of test_api_errors: test_api_errors.c).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>

#include "api_errors_test_util.h"

/* Sizes out of range and sizes whose byte counts overflow 64 bits. */
Test(api_sizes, out_of_range_and_overflow) {
    magnus_csr out = POISON_CSR;
    EXPECT_STATUS(magnus_csr_new(&out, -1, 1, 0, MAGNUS_FLOAT32), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "rows -1");
    cr_expect_null(out);
    EXPECT_STATUS(magnus_csr_new(&out, 1, (int64_t)INT32_MAX + 1, 0, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "cols 2^31");
    EXPECT_STATUS(magnus_csr_new(&out, 1, 1, -5, MAGNUS_FLOAT32), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "nnz -5");
    /* nnz * 8 bytes of values overflows size_t */
    EXPECT_STATUS(magnus_csr_new(&out, 1, 1, INT64_MAX, MAGNUS_FLOAT64),
                  MAGNUS_ERROR_SIZE_OVERFLOW, "nnz 2^63-1 float64");
    EXPECT_STATUS(magnus_csr_new(&out, 1, 1, INT64_MAX / 2 + 1, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_SIZE_OVERFLOW, "nnz 2^62 float32");
    cr_expect_null(out);
    /* representable but impossible: 2^60 bytes cannot be had */
    EXPECT_STATUS(magnus_csr_new(&out, 1, 1, (int64_t)1 << 58, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "nnz 2^58");
    cr_expect_null(out);
    /* generators: grids whose point count overflows, R-MAT edge counts that overflow */
    EXPECT_STATUS(magnus_gen_laplacian_2d(&out, INT64_MAX / 2, 4, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_SIZE_OVERFLOW, "laplacian 2d overflow");
    EXPECT_STATUS(magnus_gen_laplacian_3d(&out, (int64_t)1 << 22, (int64_t)1 << 22,
                                          (int64_t)1 << 22, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_SIZE_OVERFLOW, "laplacian 3d overflow");
    EXPECT_STATUS(magnus_gen_laplacian_2d(&out, 65536, 65536, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "laplacian 2d beyond 2^31 points");
    EXPECT_STATUS(magnus_gen_laplacian_2d(&out, -1, 3, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "laplacian negative side");
    magnus_rmat_options ro;
    magnus_rmat_options_init(&ro);
    ro.scale = 30;
    ro.nnz_per_row = INT64_MAX / 4;
    EXPECT_STATUS(magnus_gen_rmat(&out, &ro, NULL, NULL), MAGNUS_ERROR_SIZE_OVERFLOW,
                  "rmat edges overflow");
    magnus_rmat_options_init(&ro);
    ro.scale = 31;
    EXPECT_STATUS(magnus_gen_rmat(&out, &ro, NULL, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "rmat scale 31");
    magnus_rmat_options_init(&ro);
    ro.a = NAN;
    EXPECT_STATUS(magnus_gen_rmat(&out, &ro, NULL, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "rmat NaN probability");
    magnus_rmat_options_init(&ro);
    ro.type = (magnus_value_type)5;
    EXPECT_STATUS(magnus_gen_rmat(&out, &ro, NULL, NULL), MAGNUS_ERROR_UNSUPPORTED_TYPE,
                  "rmat type");
    EXPECT_STATUS(magnus_gen_banded(&out, 5, -1, 1, 1, MAGNUS_FLOAT64),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "banded lower -1");
    EXPECT_STATUS(magnus_gen_uniform(&out, 5, 5, NAN, 1, MAGNUS_FLOAT64),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "uniform NaN per row");
    EXPECT_STATUS(magnus_gen_uniform(&out, 5, 5, -1, 1, MAGNUS_FLOAT64),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "uniform negative per row");
    EXPECT_STATUS(magnus_gen_uniform(&out, 5, 5, 1, 1, (magnus_value_type)0),
                  MAGNUS_ERROR_UNSUPPORTED_TYPE, "uniform type");
    cr_expect_null(out);
    /*
     * Not covered here: a product whose intermediate-product count overflows 2^63 (stats,
     * magnus_spgemm's count_products). It needs nnz(A) * nnz(B row) > 2^63 with valid,
     * fully allocated matrices (validation reads every entry), far beyond any memory; the
     * overflow checks are by inspection. Per-row counts up to 2^31 * 2^31 = 2^62 fit.
     */
}

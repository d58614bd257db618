/*
 * magnus_csr_compare: exact structure, values within a tolerance relative to a magnitude,
 * NaN/Inf rules, the first mismatch reported by row and column, and malformed C matrices
 * reported rather than read out of bounds.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "magnus/magnus.h"
#include "reference_test_util.h"

/* The 3x4 matrix used throughout:
 *   row 0: (0, 1.0) (2, -2.0)
 *   row 1: (1, 0.0) (3, 4.0)
 *   row 2: (0, 5.0) (1, 6.0) (3, 7.0) */
static const int64_t base_ptr[] = {0, 2, 4, 7};
static const int32_t base_col[] = {0, 2, 1, 3, 0, 1, 3};
static const double base_val[] = {1.0, -2.0, 0.0, 4.0, 5.0, 6.0, 7.0};

static magnus_csr base(magnus_value_type type) {
    return ref_make(3, 4, base_ptr, base_col, base_val, type);
}

/* Compares and returns the status, with `r` filled. */
static magnus_status compare(magnus_compare_result *r, const magnus_csr_s *C, const magnus_csr_s *E,
                             const magnus_csr_s *M, double tol) {
    memset(r, 0x5a, sizeof *r); /* garbage, to see that every field is written */
    return magnus_csr_compare(r, C, E, M, tol);
}

/* compare() must report a mismatch, first found at (row, col) (-1: no column). */
static void expect_mismatch_at(magnus_compare_result *r, const magnus_csr_s *C,
                               const magnus_csr_s *E, const magnus_csr_s *M, double tol,
                               int64_t row, int64_t col) {
    REF_EXPECT_STATUS(compare(r, C, E, M, tol), MAGNUS_ERROR_MISMATCH);
    cr_assert(r->row == row && r->col == col, "mismatch at (%lld, %lld), expected (%lld, %lld)",
              (long long)r->row, (long long)r->col, (long long)row, (long long)col);
}

Test(compare, identical_matrices_match) {
    magnus_csr C = base(MAGNUS_FLOAT64), E = base(MAGNUS_FLOAT64);
    magnus_compare_result r;
    REF_OK(compare(&r, C, E, NULL, 0));
    cr_assert_eq(r.row, -1);
    cr_assert_eq(r.col, -1);
    cr_assert_eq(r.max_rel_error, 0.0);
    REF_OK(magnus_csr_compare(NULL, C, E, NULL, 0)); /* result is optional */
    magnus_csr_free(&C);
    magnus_csr_free(&E);
}

Test(compare, value_beyond_tolerance_reported_with_position) {
    magnus_csr C = base(MAGNUS_FLOAT64), E = base(MAGNUS_FLOAT64);
    ((double *)C->values)[3] = 4.0 * (1 + 1e-6); /* row 1, col 3 */
    ((double *)C->values)[5] = 6.0 * (1 + 1e-3); /* row 2, col 1: later but larger */
    magnus_compare_result r;
    expect_mismatch_at(&r, C, E, NULL, 1e-8, 1, 3);
    cr_assert_eq(r.value, 4.0 * (1 + 1e-6));
    cr_assert_eq(r.expected, 4.0);
    /* The largest error over all entries, not only up to the first mismatch. */
    cr_assert(fabs(r.max_rel_error - 1e-3) < 1e-9, "max_rel_error %g", r.max_rel_error);
    cr_assert_not_null(strstr(magnus_last_error(), "row 1 col 3"), "%s", magnus_last_error());
    magnus_csr_free(&C);
    magnus_csr_free(&E);
}

Test(compare, within_tolerance_accepted) {
    magnus_csr C = base(MAGNUS_FLOAT64), E = base(MAGNUS_FLOAT64);
    ((double *)C->values)[6] = 7.0 * (1 - 1e-7);
    magnus_compare_result r;
    REF_OK(compare(&r, C, E, NULL, 1e-6));
    cr_assert_eq(r.row, -1);
    cr_assert(fabs(r.max_rel_error - 1e-7) < 1e-12, "max_rel_error %g", r.max_rel_error);
    /* float64's default tolerance is 1e-10: the same difference fails. */
    expect_mismatch_at(&r, C, E, NULL, 0, 2, 3);
    magnus_csr_free(&C);
    magnus_csr_free(&E);
}

Test(compare, default_tolerance_per_type) {
    /* A relative difference of 1e-6: within float32's default 1e-4, beyond float64's 1e-10. */
    magnus_csr C32 = base(MAGNUS_FLOAT32), E64 = base(MAGNUS_FLOAT64), C64 = base(MAGNUS_FLOAT64);
    ((float *)C32->values)[4] = 5.0f * (1 + 1e-6f);
    ((double *)C64->values)[4] = 5.0 * (1 + 1e-6);
    magnus_compare_result r;
    /* Mixed types are compared in double, with float32's default. */
    REF_OK(compare(&r, C32, E64, NULL, 0));
    expect_mismatch_at(&r, C64, E64, NULL, 0, 2, 0);
    magnus_csr_free(&C32);
    magnus_csr_free(&E64);
    magnus_csr_free(&C64);
}

/* The explicit zero at (1,1) came from cancellation: with a magnitude of 2 a rounding-size
 * residue is accepted; without a magnitude (m = |e| = 0) only an exact 0 is. */
Test(compare, magnitude_scales_tolerance) {
    magnus_csr C = base(MAGNUS_FLOAT64), E = base(MAGNUS_FLOAT64), M = base(MAGNUS_FLOAT64);
    for (int p = 0; p < 7; p++) ((double *)M->values)[p] = fabs(base_val[p]);
    ((double *)M->values)[2] = 2.0;
    ((double *)C->values)[2] = 1e-16;
    magnus_compare_result r;
    REF_OK(compare(&r, C, E, M, 0));
    cr_assert(fabs(r.max_rel_error - 0.5e-16) < 1e-30);
    expect_mismatch_at(&r, C, E, NULL, 0, 1, 1);
    cr_assert(isinf(r.max_rel_error));
    /* m == 0: only equality passes, whatever the tolerance. */
    ((double *)M->values)[2] = 0.0;
    REF_EXPECT_STATUS(compare(&r, C, E, M, 0.5), MAGNUS_ERROR_MISMATCH);
    ((double *)C->values)[2] = 0.0;
    REF_OK(compare(&r, C, E, M, 0.5));
    magnus_csr_free(&C);
    magnus_csr_free(&E);
    magnus_csr_free(&M);
}

Test(compare, nan_and_inf_rules) {
    magnus_csr C = base(MAGNUS_FLOAT64), E = base(MAGNUS_FLOAT64);
    double *c = C->values, *e = E->values;
    magnus_compare_result r;
    c[0] = e[0] = NAN;
    REF_OK(compare(&r, C, E, NULL, 0));
    c[1] = e[1] = -INFINITY;
    REF_OK(compare(&r, C, E, NULL, 0));
    cr_assert_eq(r.max_rel_error, 0.0);

    c[0] = 1.0; /* NaN expected, a number computed */
    expect_mismatch_at(&r, C, E, NULL, 0, 0, 0);
    c[0] = NAN;

    c[1] = INFINITY; /* opposite infinity */
    REF_EXPECT_STATUS(compare(&r, C, E, NULL, 1e300), MAGNUS_ERROR_MISMATCH);
    cr_assert_eq(r.col, 2);
    c[1] = -1e308; /* finite against an infinity, even with an enormous tolerance */
    REF_EXPECT_STATUS(compare(&r, C, E, NULL, 1e300), MAGNUS_ERROR_MISMATCH);
    c[1] = -INFINITY;
    c[6] = NAN; /* NaN computed where 7 is expected */
    expect_mismatch_at(&r, C, E, NULL, 1e300, 2, 3);
    magnus_csr_free(&C);
    magnus_csr_free(&E);
}

Test(compare, different_column_is_structural) {
    magnus_csr C = base(MAGNUS_FLOAT64), E = base(MAGNUS_FLOAT64);
    C->col_idx[5] = 2; /* row 2: columns 0 2 3 instead of 0 1 3 */
    magnus_compare_result r;
    expect_mismatch_at(&r, C, E, NULL, 0, 2, 1); /* the first column where the rows differ */
    cr_assert(isnan(r.value) && isnan(r.expected));
    cr_assert_not_null(strstr(magnus_last_error(), "row 2"), "%s", magnus_last_error());
    magnus_csr_free(&C);
    magnus_csr_free(&E);
}

Test(compare, value_mismatch_before_structural_one_comes_first) {
    magnus_csr C = base(MAGNUS_FLOAT64), E = base(MAGNUS_FLOAT64);
    ((double *)C->values)[0] = 1.5;
    C->col_idx[5] = 2;
    magnus_compare_result r;
    expect_mismatch_at(&r, C, E, NULL, 0, 0, 0);
    cr_assert_eq(r.value, 1.5);
    magnus_csr_free(&C);
    magnus_csr_free(&E);
}

Test(compare, missing_and_extra_entries) {
    magnus_csr E = base(MAGNUS_FLOAT64);
    /* C lacks (0,2): row 0 ends early. */
    magnus_csr C = ref_make(3, 4, (int64_t[]){0, 1, 3, 6}, (int32_t[]){0, 1, 3, 0, 1, 3},
                            (double[]){1, 0, 4, 5, 6, 7}, MAGNUS_FLOAT64);
    magnus_compare_result r;
    expect_mismatch_at(&r, C, E, NULL, 0, 0, 2);
    cr_assert_not_null(strstr(magnus_last_error(), "lacks column 2"), "%s", magnus_last_error());
    magnus_csr_free(&C);
    /* C has an extra (1,3)... placed as (0,3) at the end of row 0. */
    C = ref_make(3, 4, (int64_t[]){0, 3, 5, 8}, (int32_t[]){0, 2, 3, 1, 3, 0, 1, 3},
                 (double[]){1, -2, 9, 0, 4, 5, 6, 7}, MAGNUS_FLOAT64);
    expect_mismatch_at(&r, C, E, NULL, 0, 0, 3);
    cr_assert_not_null(strstr(magnus_last_error(), "extra column 3"), "%s", magnus_last_error());
    magnus_csr_free(&C);
    magnus_csr_free(&E);
}

/* A C with a broken row_ptr (as a faulty device path might return) is reported, not read
 * beyond its arrays. */
Test(compare, malformed_c_reported_without_overrun) {
    magnus_csr E = base(MAGNUS_FLOAT64);
    magnus_csr C = base(MAGNUS_FLOAT64);
    magnus_compare_result r;
    C->row_ptr[2] = 1000000; /* beyond nnz */
    REF_EXPECT_STATUS(compare(&r, C, E, NULL, 0), MAGNUS_ERROR_MISMATCH);
    cr_assert_eq(r.row, 1);
    C->row_ptr[2] = 1; /* not monotone */
    expect_mismatch_at(&r, C, E, NULL, 0, 1, -1);
    C->row_ptr[2] = 4;
    C->row_ptr[0] = 1;
    expect_mismatch_at(&r, C, E, NULL, 0, 0, -1);
    magnus_csr_free(&C);
    /* row_ptr consistent with expected's but C's arrays hold fewer entries than it claims. */
    C = base(MAGNUS_FLOAT64);
    C->nnz = 5;
    REF_EXPECT_STATUS(compare(&r, C, E, NULL, 0), MAGNUS_ERROR_MISMATCH);
    cr_assert_eq(r.row, 2);
    C->nnz = 7;
    magnus_csr_free(&C);
    magnus_csr_free(&E);
}

Test(compare, shapes_and_arguments) {
    magnus_csr E = base(MAGNUS_FLOAT64);
    magnus_csr C = NULL;
    REF_OK(magnus_csr_new(&C, 3, 5, 0, MAGNUS_FLOAT64));
    magnus_compare_result r;
    REF_EXPECT_STATUS(compare(&r, C, E, NULL, 0), MAGNUS_ERROR_DIMENSION_MISMATCH);
    cr_assert_not_null(strstr(magnus_last_error(), "C is 3 x 5, expected is 3 x 4"), "%s",
                       magnus_last_error());
    magnus_csr_free(&C);
    C = base(MAGNUS_FLOAT64);
    REF_EXPECT_STATUS(compare(&r, C, E, NULL, NAN), MAGNUS_ERROR_INVALID_ARGUMENT);
    REF_EXPECT_STATUS(compare(&r, NULL, E, NULL, 0), MAGNUS_ERROR_NULL_POINTER);
    REF_EXPECT_STATUS(compare(&r, C, NULL, NULL, 0), MAGNUS_ERROR_NULL_POINTER);
    /* expected must be valid: it is the trusted side. */
    E->col_idx[3] = 0; /* row 1: columns 1, 0 */
    REF_EXPECT_STATUS(compare(&r, C, E, NULL, 0), MAGNUS_ERROR_COLUMNS_UNSORTED);
    E->col_idx[3] = 3;
    /* magnitude must have expected's structure. */
    magnus_csr M = base(MAGNUS_FLOAT64);
    M->col_idx[6] = 2;
    REF_EXPECT_STATUS(compare(&r, C, E, M, 0), MAGNUS_ERROR_INVALID_ARGUMENT);
    magnus_csr_free(&M);
    REF_OK(magnus_csr_new(&M, 3, 3, 0, MAGNUS_FLOAT64));
    REF_EXPECT_STATUS(compare(&r, C, E, M, 0), MAGNUS_ERROR_DIMENSION_MISMATCH);
    magnus_csr_free(&M);
    magnus_csr_free(&C);
    magnus_csr_free(&E);
}

Test(compare, empty_matrices_match) {
    magnus_csr C = NULL, E = NULL;
    REF_OK(magnus_csr_new(&C, 0, 0, 0, MAGNUS_FLOAT32));
    REF_OK(magnus_csr_new(&E, 0, 0, 0, MAGNUS_FLOAT64));
    magnus_compare_result r;
    REF_OK(compare(&r, C, E, NULL, 0));
    magnus_csr_free(&C);
    magnus_csr_free(&E);
    REF_OK(magnus_csr_new(&C, 4, 2, 0, MAGNUS_FLOAT32));
    REF_OK(magnus_csr_new(&E, 4, 2, 0, MAGNUS_FLOAT32));
    REF_OK(compare(&r, C, E, NULL, 0));
    magnus_csr_free(&C);
    magnus_csr_free(&E);
}

/* The reference's output compared with itself after a perturbation within and beyond the
 * magnitude-scaled tolerance: the intended use. */
Test(compare, reference_product_round_trip) {
    magnus_csr A = NULL, C = NULL, M = NULL, D = NULL;
    REF_OK(magnus_gen_uniform(&A, 60, 60, 6, 5, MAGNUS_FLOAT64));
    for (int64_t p = 0; p < A->nnz; p += 2) ref_set_value(A, p, -ref_value(A, p));
    REF_OK(magnus_reference_spgemm(&C, &M, A, A));
    REF_OK(magnus_csr_copy(&D, C));
    magnus_compare_result r;
    for (int64_t p = 0; p < D->nnz; p++)
        ref_set_value(D, p, ref_value(C, p) + 1e-12 * ref_value(M, p));
    REF_OK(compare(&r, D, C, M, 1e-10));
    int64_t last = D->nnz - 1;
    ref_set_value(D, last, ref_value(C, last) + 1e-9 * ref_value(M, last));
    expect_mismatch_at(&r, D, C, M, 1e-10, 59, C->col_idx[last]);
    magnus_csr_free(&A);
    magnus_csr_free(&C);
    magnus_csr_free(&M);
    magnus_csr_free(&D);
}

/*
 * multiply_and_compare(): the check at the heart of every device SpGEMM test (gMAGNUS, hash,
 * the hash work split): C = A·B on the device, compared with the CPU reference with |A|·|B|
 * as the scale. One definition; each test adds its own checks of the report.
 */
#ifndef MAGNUS_TESTS_SPGEMM_TEST_UTIL_H
#define MAGNUS_TESTS_SPGEMM_TEST_UTIL_H

#include <criterion/criterion.h>

#include "magnus/magnus.h"
#include "status_test_util.h"

/* The default options with `algorithm` forced (the default, AUTO, may pick either). */
static inline magnus_spgemm_options algorithm_options(magnus_algorithm algorithm) {
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    opt.algorithm = algorithm;
    return opt;
}

/* C = A·B by `algorithm` (MAGNUS, HASH or AUTO) on ctx, its report in *rep and the
 * reference's entry count in *reference_nnz (an independent count to check the report with).
 * Returns C (the caller frees it); failures name `label`, the shapes, the type and the first
 * difference. */
static inline magnus_csr multiply_and_compare(magnus_report *rep, int64_t *reference_nnz,
                                              magnus_context ctx, const magnus_csr_s *A,
                                              const magnus_csr_s *B, magnus_algorithm algorithm,
                                              const char *label) {
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    opt.algorithm = algorithm;
    magnus_csr C = NULL, R = NULL, M = NULL;
    magnus_status s = magnus_spgemm(&C, ctx, A, B, &opt, rep);
    cr_assert_eq(s, MAGNUS_SUCCESS, "%s: magnus_spgemm: %s (%s)", label, magnus_status_string(s),
                 magnus_last_error());
    /* the algorithm asked for is the one sent, and a forced one is the one that ran (AUTO,
     * the default, runs one of the two and says why) */
    cr_assert_eq(rep->algorithm_requested, algorithm, "%s: algorithm %d requested, %d sent",
                 label, (int)algorithm, (int)rep->algorithm_requested);
    if (algorithm != MAGNUS_ALGORITHM_AUTO)
        cr_assert_eq(rep->algorithm, algorithm, "%s: algorithm %d requested, %d ran", label,
                     (int)algorithm, (int)rep->algorithm);
    else
        cr_assert(rep->algorithm == MAGNUS_ALGORITHM_MAGNUS ||
                      rep->algorithm == MAGNUS_ALGORITHM_HASH,
                  "%s: AUTO ran algorithm %d", label, (int)rep->algorithm);
    cr_assert(rep->algorithm_reason && rep->algorithm_reason[0], "%s: no algorithm_reason",
              label);
    ASSERT_OK(magnus_reference_spgemm(&R, &M, A, B));
    magnus_compare_result cmp;
    s = magnus_csr_compare(&cmp, C, R, M, 0);
    cr_assert_eq(s, MAGNUS_SUCCESS,
                 "%s (%lldx%lld * %lldx%lld, %s): %s (first difference row %lld col %lld: %g vs "
                 "%g)",
                 label, (long long)A->rows, (long long)A->cols, (long long)B->rows,
                 (long long)B->cols, A->type == MAGNUS_FLOAT64 ? "f64" : "f32",
                 magnus_last_error(), (long long)cmp.row, (long long)cmp.col, cmp.value,
                 cmp.expected);
    *reference_nnz = R->nnz;
    magnus_csr_free(&R);
    magnus_csr_free(&M);
    return C;
}

#endif

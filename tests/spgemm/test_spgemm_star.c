/*
 * Star mixtures (magnus_gen_star, issue 34): a few rows of thousands of entries among rows of
 * three, each long row's index a column of some short rows, so C = A·A has rows of many
 * thousand products and rows wider than a work group's dense accumulator, beside a bulk of
 * tiny rows. Every algorithm (AUTO, gMAGNUS, hash) and both value types, against the CPU
 * reference (multiply_and_compare).
 */
#include "device_test_main.h"
#include "reference_test_util.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

#define STAR_N 20000
#define STAR_LONG 2
#define STAR_LEN 8000 /* the long rows' entries: C's widest rows are wider still */
#define STAR_DEG 3

static void multiply_star(magnus_value_type type) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = NULL;
    uint64_t seed = magnus_test_seed(34);
    ASSERT_OK(magnus_gen_star(&A, STAR_N, STAR_LONG, STAR_LEN, STAR_DEG, seed, type));
    const magnus_algorithm algorithms[] = {MAGNUS_ALGORITHM_AUTO, MAGNUS_ALGORITHM_MAGNUS,
                                           MAGNUS_ALGORITHM_HASH};
    const char *names[] = {"auto", "gmagnus", "hash"};
    for (size_t a = 0; a < 3; a++) {
        char label[96];
        snprintf(label, sizeof label, "star %d:%d:%d:%d seed %llu, %s", STAR_N, STAR_LONG,
                 STAR_LEN, STAR_DEG, (unsigned long long)seed, names[a]);
        magnus_report rep;
        int64_t reference_nnz = 0;
        magnus_csr C = multiply_and_compare(&rep, &reference_nnz, ctx, A, A, algorithms[a],
                                            label);
        cr_assert_eq(C->nnz, reference_nnz, "%s", label);
        /* the shape the generator promises: the long rows and their spokes are LEN wide */
        int64_t wide = 0;
        for (int64_t i = 0; i < C->rows; i++) wide += C->row_ptr[i + 1] - C->row_ptr[i] >= STAR_LEN;
        cr_assert_geq(wide, STAR_LONG * (1 + STAR_DEG), "%s: %lld rows of C >= %d wide", label,
                      (long long)wide, STAR_LEN);
        magnus_csr_free(&C);
    }
    magnus_csr_free(&A);
}

Test(spgemm_star, f32) { multiply_star(MAGNUS_FLOAT32); }

Test(spgemm_star, f64) {
    magnus_test_require_fp64(magnus_test_context());
    multiply_star(MAGNUS_FLOAT64);
}

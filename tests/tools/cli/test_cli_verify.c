/*
 * The `magnus` tool's verification (tools/cli_verify.c, tools/cli_verify_random.c): a correct
 * product passes both methods; a product with one value off, one entry missing, one column
 * moved, an invalid structure or the wrong shape fails, each with the check that should catch
 * it. Products come from the CPU reference, perturbed here by hand.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "tools/cli_verify.h"

static magnus_csr rmat(int scale, int64_t per_row, uint64_t seed, magnus_value_type type) {
    magnus_rmat_options opt;
    cr_assert_eq(magnus_rmat_options_init(&opt), MAGNUS_SUCCESS);
    opt.scale = scale;
    opt.nnz_per_row = per_row;
    opt.seed = seed;
    opt.type = type;
    magnus_csr M = NULL;
    cr_assert_eq(magnus_gen_rmat(&M, &opt, NULL, NULL), MAGNUS_SUCCESS);
    return M;
}

typedef struct fixture {
    magnus_csr A, B, C;
} fixture;

static fixture make(magnus_value_type type) {
    fixture f = {rmat(10, 4, 1, type), rmat(10, 8, 2, type), NULL};
    cr_assert_eq(magnus_reference_spgemm(&f.C, NULL, f.A, f.B), MAGNUS_SUCCESS);
    cr_assert_gt(f.C->nnz, 1000);
    return f;
}

static void release(fixture *f) {
    magnus_csr_free(&f->A);
    magnus_csr_free(&f->B);
    magnus_csr_free(&f->C);
}

static magnus_status random_check(verify_report *r, const fixture *f) {
    verify_options opt;
    verify_options_init(&opt);
    opt.mode = VERIFY_RANDOM;
    return verify_product(r, f->C, f->A, f->B, 0, &opt, NULL);
}

/* The longest row of C: the hardest place for the random check to see one wrong entry. */
static int64_t longest_row(const magnus_csr_s *C) {
    int64_t best = 0;
    for (int64_t i = 1; i < C->rows; i++)
        if (C->row_ptr[i + 1] - C->row_ptr[i] > C->row_ptr[best + 1] - C->row_ptr[best]) best = i;
    return best;
}

/* A row of C with at least `min` entries, scanning from the last row (light rows). */
static int64_t row_with(const magnus_csr_s *C, int64_t min) {
    for (int64_t i = C->rows - 1; i >= 0; i--)
        if (C->row_ptr[i + 1] - C->row_ptr[i] >= min) return i;
    cr_assert_fail("no row with %lld entries", (long long)min);
    return -1;
}

static void scale_value(magnus_csr C, int64_t k, double factor) {
    if (C->type == MAGNUS_FLOAT64)
        ((double *)C->values)[k] *= factor;
    else
        ((float *)C->values)[k] = (float)(((float *)C->values)[k] * factor);
}

Test(cli_verify, correct_products_pass_both_methods) {
    magnus_value_type types[] = {MAGNUS_FLOAT32, MAGNUS_FLOAT64};
    for (int t = 0; t < 2; t++) {
        fixture f = make(types[t]);
        verify_report r;
        cr_expect_eq(random_check(&r, &f), MAGNUS_SUCCESS, "%s", r.detail);
        cr_expect(r.matched);
        cr_expect_eq(r.method, VERIFY_RANDOM);
        cr_expect(r.structure_checked && r.structure_matched);
        cr_expect_eq(r.structure_nnz, f.C->nnz);
        cr_expect_eq(r.structure_bad_row, -1);
        cr_expect_eq(r.tolerance, types[t] == MAGNUS_FLOAT64 ? 1e-10 : 1e-4);
        /* The reference rounds once from double: errors of the type's rounding. */
        cr_expect_leq(r.rel_error_row, types[t] == MAGNUS_FLOAT64 ? 1e-15 : 1e-7);
        cr_expect_leq(r.rel_error, r.rel_error_row);

        verify_options opt;
        verify_options_init(&opt);
        cr_expect_eq(verify_product(&r, f.C, f.A, f.B, 1000, &opt, NULL), MAGNUS_SUCCESS);
        cr_expect_eq(r.method, VERIFY_EXACT);
        cr_expect(r.matched);
        opt.exact_limit = 999;
        cr_expect_eq(verify_product(&r, f.C, f.A, f.B, 1000, &opt, NULL), MAGNUS_SUCCESS);
        cr_expect_eq(r.method, VERIFY_RANDOM);
        release(&f);
    }
}

Test(cli_verify, one_value_off_fails_on_its_row) {
    fixture f = make(MAGNUS_FLOAT32);
    int64_t row = longest_row(f.C);
    int64_t k = f.C->row_ptr[row] + (f.C->row_ptr[row + 1] - f.C->row_ptr[row]) / 2;
    scale_value(f.C, k, 1.5);
    verify_report r;
    cr_expect_eq(random_check(&r, &f), MAGNUS_ERROR_MISMATCH);
    cr_expect(!r.matched);
    cr_expect(r.structure_matched, "the structure is still right");
    cr_expect_gt(r.rel_error_row, 1e-4);
    cr_expect_eq(r.worst_row, row);
    cr_expect_neq(r.detail[0], '\0');

    verify_options opt;
    verify_options_init(&opt);
    opt.mode = VERIFY_EXACT;
    cr_expect_eq(verify_product(&r, f.C, f.A, f.B, 0, &opt, NULL), MAGNUS_ERROR_MISMATCH);
    cr_expect_eq(r.compare.row, row);
    cr_expect_neq(r.detail[0], '\0');
    release(&f);
}

Test(cli_verify, a_small_error_in_the_heaviest_row_is_caught_by_the_sampled_rows) {
    /* 0.5 % off in one of ~600 entries: ~1e-5 of the row's C·x (below float32's 1e-4), but
     * 5e-3 of the entry's own |A|·|B| (values are positive, so |A|·|B| = C). */
    fixture f = make(MAGNUS_FLOAT32);
    int64_t row = longest_row(f.C);
    scale_value(f.C, f.C->row_ptr[row] + 1, 1.005);
    verify_report r;
    cr_expect_eq(random_check(&r, &f), MAGNUS_ERROR_MISMATCH);
    cr_expect_leq(r.rel_error_row, r.tolerance, "the vectors alone would pass");
    cr_expect_eq(r.rows_sample_bad_row, row);
    cr_expect_gt(r.rows_sample_error, 4e-3);
    cr_expect(r.rows_sampled > 32 && r.rows_sampled <= 64); /* random ones may repeat heavy ones */
    cr_expect_neq(strstr(r.detail, "recomputed on the host"), NULL, "%s", r.detail);
    release(&f);
}

Test(cli_verify, tolerance_follows_the_type) {
    /* A relative change of 1e-6 in one entry is within float32's tolerance, not float64's. */
    magnus_value_type types[] = {MAGNUS_FLOAT32, MAGNUS_FLOAT64};
    for (int t = 0; t < 2; t++) {
        fixture f = make(types[t]);
        int64_t row = row_with(f.C, 1);
        scale_value(f.C, f.C->row_ptr[row], 1 + 1e-6);
        verify_report r;
        magnus_status s = random_check(&r, &f);
        cr_expect_eq(s, types[t] == MAGNUS_FLOAT32 ? MAGNUS_SUCCESS : MAGNUS_ERROR_MISMATCH,
                     "type %d: %s", t, r.detail);
        release(&f);
    }
}

/* Removes entry k of C (its row gets one entry fewer). */
static void drop_entry(magnus_csr C, int64_t k) {
    size_t vs = magnus_value_size(C->type);
    int64_t tail = C->nnz - k - 1;
    memmove(C->col_idx + k, C->col_idx + k + 1, (size_t)tail * sizeof *C->col_idx);
    memmove((char *)C->values + (size_t)k * vs, (char *)C->values + (size_t)(k + 1) * vs,
            (size_t)tail * vs);
    for (int64_t i = 0; i < C->rows; i++)
        if (C->row_ptr[i + 1] > k) C->row_ptr[i + 1]--;
    C->nnz--;
}

Test(cli_verify, a_missing_entry_is_a_structure_error) {
    fixture f = make(MAGNUS_FLOAT64);
    int64_t row = row_with(f.C, 3);
    drop_entry(f.C, f.C->row_ptr[row] + 1);
    verify_report r;
    cr_expect_eq(random_check(&r, &f), MAGNUS_ERROR_MISMATCH);
    cr_expect(r.structure_checked && !r.structure_matched);
    cr_expect_eq(r.structure_bad_row, row);
    cr_expect_eq(r.structure_nnz, f.C->nnz + 1);
    cr_expect_neq(strstr(r.detail, "does not hold the columns"), NULL, "%s", r.detail);
    release(&f);
}

Test(cli_verify, a_moved_column_is_a_structure_error) {
    /* Same count per row, one column replaced by one that A·B does not have in that row. */
    fixture f = make(MAGNUS_FLOAT32);
    int64_t row = -1, k = -1;
    for (int64_t i = f.C->rows - 1; i >= 0 && row < 0; i--)
        for (int64_t e = f.C->row_ptr[i]; e + 1 < f.C->row_ptr[i + 1]; e++)
            if (f.C->col_idx[e + 1] - f.C->col_idx[e] > 1) { /* a gap after column e */
                row = i;
                k = e;
                break;
            }
    cr_assert_geq(row, 0);
    f.C->col_idx[k]++; /* still sorted and unique, now a column not in the product's row */
    verify_report r;
    cr_expect_eq(random_check(&r, &f), MAGNUS_ERROR_MISMATCH);
    cr_expect_eq(r.structure_bad_row, row);
    cr_expect_eq(r.structure_nnz, f.C->nnz);
    release(&f);
}

Test(cli_verify, invalid_or_misshapen_products_fail_without_reading_out_of_bounds) {
    fixture f = make(MAGNUS_FLOAT32);
    int64_t row = row_with(f.C, 2);
    int64_t k = f.C->row_ptr[row];
    int32_t saved = f.C->col_idx[k];
    f.C->col_idx[k] = f.C->col_idx[k + 1]; /* duplicate column */
    verify_report r;
    cr_expect_eq(random_check(&r, &f), MAGNUS_ERROR_MISMATCH);
    cr_expect_neq(strstr(r.detail, "not a valid CSR"), NULL, "%s", r.detail);
    f.C->col_idx[k] = saved;

    /* A valid matrix of another shape: C times a 1024 x 7 matrix. */
    magnus_csr wrong = NULL, narrow = NULL;
    cr_assert_eq(magnus_gen_uniform(&narrow, f.B->cols, 7, 2, 3, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_reference_spgemm(&wrong, NULL, f.C, narrow), MAGNUS_SUCCESS);
    verify_options opt;
    verify_options_init(&opt);
    opt.mode = VERIFY_RANDOM;
    cr_expect_eq(verify_product(&r, wrong, f.A, f.B, 0, &opt, NULL), MAGNUS_ERROR_MISMATCH);
    cr_expect_neq(strstr(r.detail, "C is 1024 x 7"), NULL, "%s", r.detail);
    magnus_csr_free(&wrong);
    magnus_csr_free(&narrow);
    release(&f);
}

Test(cli_verify, cancellation_and_empty_products) {
    /* A = [1 1], B = [1; -1]: C = [0] stored explicitly; y = z = 0 against w = 2. */
    magnus_csr A = NULL, B = NULL, C = NULL;
    cr_assert_eq(magnus_csr_new(&A, 1, 2, 2, MAGNUS_FLOAT64), MAGNUS_SUCCESS);
    A->row_ptr[1] = 2;
    A->col_idx[0] = 0;
    A->col_idx[1] = 1;
    ((double *)A->values)[0] = ((double *)A->values)[1] = 1;
    cr_assert_eq(magnus_csr_new(&B, 2, 1, 2, MAGNUS_FLOAT64), MAGNUS_SUCCESS);
    B->row_ptr[1] = 1;
    B->row_ptr[2] = 2;
    B->col_idx[0] = B->col_idx[1] = 0;
    ((double *)B->values)[0] = 1;
    ((double *)B->values)[1] = -1;
    cr_assert_eq(magnus_reference_spgemm(&C, NULL, A, B), MAGNUS_SUCCESS);
    cr_assert_eq(C->nnz, 1);
    fixture f = {A, B, C};
    verify_report r;
    cr_expect_eq(random_check(&r, &f), MAGNUS_SUCCESS, "%s", r.detail);
    cr_expect_eq(r.rel_error, 0);
    ((double *)C->values)[0] = 1e-3; /* not zero: 1e-3 / 2 of the scale */
    cr_expect_eq(random_check(&r, &f), MAGNUS_ERROR_MISMATCH);
    release(&f);

    /* 0 x 0 times 0 x 0, and an all-empty 5 x 5 product. */
    magnus_csr E = NULL, Z = NULL, P = NULL;
    cr_assert_eq(magnus_csr_new(&E, 0, 0, 0, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_reference_spgemm(&P, NULL, E, E), MAGNUS_SUCCESS);
    fixture g = {E, NULL, P};
    g.B = E;
    cr_expect_eq(random_check(&r, &g), MAGNUS_SUCCESS);
    magnus_csr_free(&P);
    cr_assert_eq(magnus_csr_new(&Z, 5, 5, 0, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_reference_spgemm(&P, NULL, Z, Z), MAGNUS_SUCCESS);
    fixture h = {Z, Z, P};
    cr_expect_eq(random_check(&r, &h), MAGNUS_SUCCESS);
    cr_expect_eq(r.structure_nnz, 0);
    magnus_csr_free(&P);
    magnus_csr_free(&E);
    magnus_csr_free(&Z);
}

/* ---- NaN and infinities ------------------------------------------------------------------ */

static void set_value(magnus_csr M, int64_t k, double v) {
    if (M->type == MAGNUS_FLOAT64) ((double *)M->values)[k] = v;
    else ((float *)M->values)[k] = (float)v;
}
static double get_value(const magnus_csr_s *M, int64_t k) {
    return M->type == MAGNUS_FLOAT64 ? ((const double *)M->values)[k]
                                     : (double)((const float *)M->values)[k];
}
/* The first entry of C from row `from` on whose value satisfies `want` (a row that has one). */
static int64_t entry_where(const magnus_csr_s *C, int64_t from, int (*want)(double)) {
    for (int64_t k = C->row_ptr[from]; k < C->nnz; k++)
        if (want(get_value(C, k))) return k;
    cr_assert_fail("no such entry of C");
    return -1;
}
/* An entry of A from `from` on whose B row is not empty: its value reaches C. */
static int64_t a_entry_used(const magnus_csr_s *A, const magnus_csr_s *B, int64_t from) {
    for (int64_t k = from; k < A->nnz; k++)
        if (B->row_ptr[A->col_idx[k] + 1] > B->row_ptr[A->col_idx[k]]) return k;
    cr_assert_fail("no entry of A meets a row of B");
    return -1;
}
static int is_nan(double v) { return isnan(v); }
static int is_inf(double v) { return isinf(v); }
static int is_finite(double v) { return isfinite(v); }
static int64_t row_of(const magnus_csr_s *C, int64_t k) {
    int64_t i = 0;
    while (C->row_ptr[i + 1] <= k) i++;
    return i;
}

/* A product holding NaN and infinities (from a NaN, +inf and -inf in A and an infinity in B),
 * computed by the CPU reference: correct, so the random check passes as the exact one does,
 * the rows with non-finite sums compared entry by entry. Then each kind of wrong value fails:
 * a NaN where the product has a number, a number where it has NaN, the wrong infinity, and a
 * finite value off in a row that holds infinities. */
Test(cli_verify, nan_and_infinities_compared_exactly) {
    magnus_value_type types[] = {MAGNUS_FLOAT32, MAGNUS_FLOAT64};
    for (int t = 0; t < 2; t++) {
        fixture f = make(types[t]);
        magnus_csr_free(&f.C);
        set_value(f.A, a_entry_used(f.A, f.B, f.A->nnz / 5), NAN);
        set_value(f.A, a_entry_used(f.A, f.B, f.A->nnz / 3), INFINITY);
        set_value(f.A, a_entry_used(f.A, f.B, f.A->nnz / 2), -INFINITY);
        /* in a row of B that some row of A names */
        const int32_t named = f.A->col_idx[a_entry_used(f.A, f.B, 2 * f.A->nnz / 3)];
        set_value(f.B, f.B->row_ptr[named], INFINITY);
        cr_assert_eq(magnus_reference_spgemm(&f.C, NULL, f.A, f.B), MAGNUS_SUCCESS);
        verify_report r;
        verify_options opt;
        verify_options_init(&opt);
        opt.mode = VERIFY_EXACT;
        cr_assert_eq(verify_product(&r, f.C, f.A, f.B, 0, &opt, NULL), MAGNUS_SUCCESS, "%s",
                     r.detail);
        cr_expect_eq(random_check(&r, &f), MAGNUS_SUCCESS, "%s", r.detail);
        cr_expect(r.matched);
        cr_expect_gt(r.nonfinite_rows, 0);
        cr_expect_lt(r.nonfinite_rows, f.C->rows, "rows without them keep the vector check");
        cr_expect_eq(r.nonfinite_bad_row, -1);
        cr_expect_leq(r.rel_error_row, types[t] == MAGNUS_FLOAT64 ? 1e-15 : 1e-7);
        cr_expect(r.structure_matched);

        /* a number where C has NaN, NaN where it has a number, -inf for inf */
        int64_t nan_at = entry_where(f.C, 0, is_nan);
        int64_t inf_at = entry_where(f.C, 0, is_inf);
        int64_t fin_at = entry_where(f.C, f.C->rows - 1 > 0 ? f.C->rows / 2 : 0, is_finite);
        const double replace[3][2] = {{NAN, 1.0}, {0, NAN}, {0, 0}};
        const int64_t at[3] = {nan_at, fin_at, inf_at};
        for (int c = 0; c < 3; c++) {
            double saved = get_value(f.C, at[c]);
            set_value(f.C, at[c], c == 2 ? -saved : replace[c][1]);
            cr_expect_eq(random_check(&r, &f), MAGNUS_ERROR_MISMATCH, "case %d", c);
            cr_expect_eq(r.nonfinite_bad_row, row_of(f.C, at[c]), "case %d", c);
            cr_expect_neq(strstr(r.detail, "NaN or an infinity"), NULL, "%s", r.detail);
            set_value(f.C, at[c], saved);
        }
        /* a finite value off by half in a row that also holds an infinity */
        int64_t row = row_of(f.C, inf_at), k = -1;
        for (int64_t q = f.C->row_ptr[row]; q < f.C->row_ptr[row + 1] && k < 0; q++)
            if (isfinite(get_value(f.C, q)) && get_value(f.C, q) != 0) k = q;
        if (k >= 0) {
            scale_value(f.C, k, 1.5);
            cr_expect_eq(random_check(&r, &f), MAGNUS_ERROR_MISMATCH);
            cr_expect_eq(r.nonfinite_bad_row, row);
            scale_value(f.C, k, 1 / 1.5);
        }
        cr_expect_eq(random_check(&r, &f), MAGNUS_SUCCESS, "%s", r.detail);
        release(&f);
    }
}

/* A float32 sum past FLT_MAX: 1e38 * 3 + 1e38 * 3 is +inf in float32 (the reference rounds
 * its double sum so), C·x and A·(B·x) are infinite; the check compares the entry: inf == inf. */
Test(cli_verify, a_float32_overflow_is_an_infinity_on_both_sides) {
    magnus_csr A = NULL, B = NULL, C = NULL;
    cr_assert_eq(magnus_csr_new(&A, 1, 2, 2, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    A->row_ptr[1] = 2;
    A->col_idx[0] = 0;
    A->col_idx[1] = 1;
    ((float *)A->values)[0] = ((float *)A->values)[1] = 1e38f;
    cr_assert_eq(magnus_csr_new(&B, 2, 1, 2, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    B->row_ptr[1] = 1;
    B->row_ptr[2] = 2;
    B->col_idx[0] = B->col_idx[1] = 0;
    ((float *)B->values)[0] = ((float *)B->values)[1] = 3;
    cr_assert_eq(magnus_reference_spgemm(&C, NULL, A, B), MAGNUS_SUCCESS);
    cr_assert(isinf(((float *)C->values)[0]) && ((float *)C->values)[0] > 0);
    fixture f = {A, B, C};
    verify_report r;
    cr_expect_eq(random_check(&r, &f), MAGNUS_SUCCESS, "%s", r.detail);
    cr_expect_eq(r.nonfinite_rows, 1);
    ((float *)C->values)[0] = 3.4e38f; /* finite where the sum overflows: wrong */
    cr_expect_eq(random_check(&r, &f), MAGNUS_ERROR_MISMATCH);
    release(&f);
}

Test(cli_verify, mode_names) {
    verify_mode m;
    cr_expect(verify_mode_parse("", &m) && m == VERIFY_AUTO);
    cr_expect(verify_mode_parse(NULL, &m) && m == VERIFY_AUTO);
    cr_expect(verify_mode_parse("exact", &m) && m == VERIFY_EXACT);
    cr_expect(verify_mode_parse("random", &m) && m == VERIFY_RANDOM);
    cr_expect(!verify_mode_parse("Random", &m));
    cr_expect_str_eq(verify_method_name(VERIFY_RANDOM), "random");
}

/* The random check's C·x on the device, with C as a device matrix (as `magnus multiply` leaves
 * it), in C's own type: a correct product passes there, a value off in C's longest row fails on
 * that row, the report says where C·x ran, and VERIFY_ON_HOST keeps it on the host. Both
 * types (float64 where the device has it). Skipped without a device. */
Test(cli_verify, vectors_on_a_device) {
    magnus_device_info dev;
    if (magnus_device_select(&dev) != MAGNUS_SUCCESS) cr_skip_test("no device");
    magnus_context ctx = NULL;
    cr_assert_eq(magnus_context_create(&ctx, &dev, NULL), MAGNUS_SUCCESS);
    const magnus_value_type types[] = {MAGNUS_FLOAT32, MAGNUS_FLOAT64};
    for (int t = 0; t < (dev.fp64 ? 2 : 1); t++)
        for (int off = 0; off < 3; off++) {
            fixture f = make(types[t]);
            int64_t row = longest_row(f.C);
            if (off == 1) scale_value(f.C, f.C->row_ptr[row], 1.5);
            magnus_device_csr dC = NULL;
            cr_assert_eq(magnus_device_csr_upload(&dC, ctx, f.C), MAGNUS_SUCCESS);
            verify_options opt;
            verify_options_init(&opt);
            opt.mode = VERIFY_RANDOM;
            opt.ctx = ctx;
            opt.dC = dC;
            opt.where = off == 2 ? VERIFY_ON_HOST : VERIFY_ON_AUTO;
            verify_report r;
            magnus_status s = verify_product(&r, f.C, f.A, f.B, 0, &opt, NULL);
            if (off == 2) cr_expect_str_eq(r.vectors_where, "host");
            else cr_expect(strncmp(r.vectors_where, "device ", 7) == 0, "C·x on '%s'",
                           r.vectors_where);
            if (off == 1) {
                cr_expect_eq(s, MAGNUS_ERROR_MISMATCH);
                cr_expect_eq(r.worst_row, row);
                cr_expect_gt(r.rel_error_row, 1e-4);
            } else {
                cr_expect_eq(s, MAGNUS_SUCCESS, "%s", r.detail);
                cr_expect_leq(r.rel_error_row, types[t] == MAGNUS_FLOAT64 ? 1e-12 : 1e-6);
            }
            magnus_device_csr_free(&dC);
            release(&f);
        }
    magnus_context_free(&ctx);
}

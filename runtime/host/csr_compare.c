/*
 * Comparison of a computed CSR matrix with an expected one (normally the CPU reference).
 *
 * Structure must match exactly: the same shape, row pointers and column indices, explicit
 * zeros included (every magnus path keeps the structural entries of cancelled sums).
 *
 * Values are compared in double (C and expected may have different value types) with a
 * tolerance relative to a magnitude m:
 *     |c - e| <= rel_tol * m
 * where m is the entry of `magnitude` (= |A|·|B|, the sum of the absolute products, which
 * bounds the rounding error of any summation order) or |e| when magnitude is NULL. With
 * m == 0 the rule asks for c == e exactly; without a magnitude this makes an explicit zero
 * left by cancellation strict, which a different summation order may miss by a rounding
 * error: pass the magnitude for such products. Non-finite values: NaN matches only NaN at
 * the same position, and an infinity matches only the same infinity.
 *
 * The C matrix is not trusted: it may come from a device with a broken row_ptr, so it is
 * read only where it agrees with `expected` (which must be valid), and an inconsistent C is
 * reported as a mismatch rather than read out of bounds.
 */
#include <math.h>
#include <stdio.h>

#include "internal.h"

#define COMPARE_DEFAULT_TOL_FLOAT32 1e-4
#define COMPARE_DEFAULT_TOL_FLOAT64 1e-10

static inline double value_at(const magnus_csr_s *M, int64_t p) {
    return M->type == MAGNUS_FLOAT32 ? (double)((const float *)M->values)[p]
                                     : ((const double *)M->values)[p];
}

/* Whether c matches e within tol*m; *rel gets |c-e|/m (0 for a match of non-finite values,
 * infinity for a non-finite mismatch or a difference against m == 0). */
static bool values_match(double c, double e, double m, double tol, double *rel) {
    if (isnan(c) || isnan(e)) {
        bool ok = isnan(c) && isnan(e);
        *rel = ok ? 0.0 : INFINITY;
        return ok;
    }
    if (isinf(c) || isinf(e)) {
        bool ok = c == e;
        *rel = ok ? 0.0 : INFINITY;
        return ok;
    }
    double diff = fabs(c - e);
    m = fabs(m);
    if (diff == 0) {
        *rel = 0.0;
        return true;
    }
    *rel = m > 0 ? diff / m : INFINITY; /* NaN magnitude: no scale, so any difference fails */
    return diff <= tol * m;
}

typedef struct compare_state {
    magnus_compare_result r;
    bool mismatch;
    bool structural; /* a structural difference ended the comparison */
    char detail[512];
} compare_state;

static void record_first(compare_state *st, int64_t row, int64_t col, double value,
                         double expected) {
    if (st->mismatch) return;
    st->mismatch = true;
    st->r.row = row;
    st->r.col = col;
    st->r.value = value;
    st->r.expected = expected;
}

/* A difference in row i's structure; ends the comparison (later rows would be misaligned). */
static void structural_mismatch(compare_state *st, const magnus_csr_s *C, const magnus_csr_s *E,
                                int64_t i, int64_t p) {
    int64_t cb = C->row_ptr[i], ce = C->row_ptr[i + 1], ee = E->row_ptr[i + 1];
    int64_t col = -1;
    if (ce == ee && ee > C->nnz) {
        if (!st->mismatch)
            snprintf(st->detail, sizeof st->detail,
                     "row %lld: C.row_ptr[%lld] = %lld exceeds C.nnz = %lld", (long long)i,
                     (long long)(i + 1), (long long)ce, (long long)C->nnz);
    } else if (p < ee && p < ce && p < C->nnz) {
        int32_t cc = C->col_idx[p], ec = E->col_idx[p];
        col = cc < ec ? cc : ec;
        if (!st->mismatch)
            snprintf(st->detail, sizeof st->detail,
                     "row %lld entry %lld: C has column %d where expected has column %d",
                     (long long)i, (long long)(p - E->row_ptr[i]), cc, ec);
    } else if (p < ee && ce >= cb) {
        col = E->col_idx[p];
        if (!st->mismatch)
            snprintf(st->detail, sizeof st->detail,
                     "row %lld: C lacks column %lld (C has %lld entries in the row, expected %lld)",
                     (long long)i, (long long)col, (long long)(ce - cb),
                     (long long)(ee - E->row_ptr[i]));
    } else if (p < ce && p < C->nnz && ce >= cb) {
        col = C->col_idx[p];
        if (!st->mismatch)
            snprintf(st->detail, sizeof st->detail,
                     "row %lld: C has extra column %lld (C has %lld entries in the row, "
                     "expected %lld)",
                     (long long)i, (long long)col, (long long)(ce - cb),
                     (long long)(ee - E->row_ptr[i]));
    } else if (!st->mismatch) {
        snprintf(st->detail, sizeof st->detail,
                 "row %lld: C.row_ptr[%lld] = %lld, expected %lld (C has nnz %lld)", (long long)i,
                 (long long)(i + 1), (long long)ce, (long long)ee, (long long)C->nnz);
    }
    record_first(st, i, col, NAN, NAN);
    st->structural = true;
}

static magnus_status check_magnitude(const magnus_csr_s *M, const magnus_csr_s *E) {
    magnus_status s = magnus_csr_check_handle(M, "magnitude");
    if (s) return s;
    if (M->rows != E->rows || M->cols != E->cols)
        return magnus_error(MAGNUS_ERROR_DIMENSION_MISMATCH,
                            "compare: magnitude is %lld x %lld, expected is %lld x %lld",
                            (long long)M->rows, (long long)M->cols, (long long)E->rows,
                            (long long)E->cols);
    if (!M->row_ptr || ((!M->col_idx || !M->values) && M->nnz > 0))
        return magnus_error(MAGNUS_ERROR_NULL_POINTER,
                            "magnus_csr_compare: magnitude arrays are NULL");
    if (M->nnz != E->nnz)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "compare: magnitude has %lld entries, expected has %lld "
                            "(it must have expected's structure)",
                            (long long)M->nnz, (long long)E->nnz);
    for (int64_t i = 0; i <= E->rows; i++)
        if (M->row_ptr[i] != E->row_ptr[i])
            return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                                "compare: magnitude.row_ptr[%lld] = %lld, expected's "
                                "is %lld (it must have expected's structure)",
                                (long long)i, (long long)M->row_ptr[i], (long long)E->row_ptr[i]);
    for (int64_t p = 0; p < E->nnz; p++)
        if (M->col_idx[p] != E->col_idx[p])
            return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                                "compare: magnitude entry %lld has column %d, "
                                "expected's has %d (it must have expected's structure)",
                                (long long)p, M->col_idx[p], E->col_idx[p]);
    return MAGNUS_SUCCESS;
}

static magnus_status check_arguments(const magnus_csr_s *C, const magnus_csr_s *E,
                                     const magnus_csr_s *M, double rel_tol) {
    magnus_status s;
    if ((s = magnus_csr_check_handle(C, "C"))) return s;
    if ((s = magnus_csr_check_handle(E, "expected"))) return s;
    if (isnan(rel_tol) || isinf(rel_tol))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "compare: rel_tol is %g",
                            rel_tol);
    if ((s = magnus_csr_validate(E))) {
        magnus_error_prefix("compare: expected: ");
        return s;
    }
    if (!C->row_ptr || ((!C->col_idx || !C->values) && C->nnz > 0))
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_csr_compare: C arrays are NULL");
    if (C->rows != E->rows || C->cols != E->cols)
        return magnus_error(MAGNUS_ERROR_DIMENSION_MISMATCH,
                            "compare: C is %lld x %lld, expected is %lld x %lld",
                            (long long)C->rows, (long long)C->cols, (long long)E->rows,
                            (long long)E->cols);
    if (M && (s = check_magnitude(M, E))) return s;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_csr_compare(magnus_compare_result *result, const magnus_csr_s *C,
                                 const magnus_csr_s *expected, const magnus_csr_s *magnitude,
                                 double rel_tol) {
    magnus_error_clear();
    compare_state st = {.r = {.row = -1, .col = -1, .value = 0, .expected = 0, .max_rel_error = 0}};
    if (result) *result = st.r;
    magnus_status s = check_arguments(C, expected, magnitude, rel_tol);
    if (s) return s;
    const magnus_csr_s *E = expected;
    if (rel_tol <= 0)
        rel_tol = (C->type == MAGNUS_FLOAT32 || E->type == MAGNUS_FLOAT32)
                      ? COMPARE_DEFAULT_TOL_FLOAT32
                      : COMPARE_DEFAULT_TOL_FLOAT64;

    if (C->row_ptr[0] != 0) {
        snprintf(st.detail, sizeof st.detail, "C.row_ptr[0] = %lld, expected 0",
                 (long long)C->row_ptr[0]);
        record_first(&st, 0, -1, NAN, NAN);
        st.structural = true;
    }
    for (int64_t i = 0; i < E->rows && !st.structural; i++) {
        /* Here C->row_ptr[i] == E->row_ptr[i], checked at the previous row. */
        int64_t b = E->row_ptr[i], ee = E->row_ptr[i + 1], ce = C->row_ptr[i + 1];
        int64_t end = ee < ce ? ee : ce;
        if (end > C->nnz) end = C->nnz;
        for (int64_t p = b; p < end; p++) {
            if (C->col_idx[p] != E->col_idx[p]) {
                structural_mismatch(&st, C, E, i, p);
                break;
            }
            double c = value_at(C, p), e = value_at(E, p);
            double m = magnitude ? value_at(magnitude, p) : e;
            double rel;
            bool ok = values_match(c, e, m, rel_tol, &rel);
            if (rel > st.r.max_rel_error) st.r.max_rel_error = rel;
            if (!ok && !st.mismatch) {
                snprintf(st.detail, sizeof st.detail,
                         "row %lld col %d: value %.17g, expected %.17g (|difference| %.3g > "
                         "tolerance %.3g x magnitude %.3g)",
                         (long long)i, E->col_idx[p], c, e, fabs(c - e), rel_tol, fabs(m));
                record_first(&st, i, E->col_idx[p], c, e);
            }
        }
        /* The row's entries agree so far; C's row may still end elsewhere or C's arrays may be
         * shorter than its row_ptr claims. */
        if (!st.structural && (ce != ee || end < ee))
            structural_mismatch(&st, C, E, i, end > b ? end : b);
    }
    if (!st.structural && C->nnz != E->nnz) {
        snprintf(st.detail, sizeof st.detail,
                 "C.nnz = %lld but its row_ptr[%lld] = %lld (expected nnz %lld)", (long long)C->nnz,
                 (long long)C->rows, (long long)C->row_ptr[C->rows], (long long)E->nnz);
        record_first(&st, E->rows, -1, NAN, NAN);
    }
    if (result) *result = st.r;
    if (st.mismatch)
        return magnus_error(MAGNUS_ERROR_MISMATCH, "%s", st.detail);
    return MAGNUS_SUCCESS;
}

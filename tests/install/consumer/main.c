/*
 * A program that uses an installed magnus the way a user's would: builds a matrix through
 * the public API, validates it, squares it with the CPU reference and checks the result
 * against closed forms. Built by tests/install/test_install.sh with find_package(magnus) and
 * with pkg-config.
 */
#include <magnus/magnus.h>
#include <stdio.h>
#include <string.h>

/* The n x n second-difference matrix: 2 on the diagonal, -1 beside it. */
static magnus_status tridiagonal(magnus_csr *out, int64_t n) {
    magnus_status s = magnus_csr_new(out, n, n, 3 * n - 2, MAGNUS_FLOAT64);
    if (s) return s;
    magnus_csr A = *out;
    double *values = A->values;
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        for (int64_t j = i - 1; j <= i + 1; j++) {
            if (j < 0 || j >= n) continue;
            A->col_idx[k] = (int32_t)j;
            values[k] = i == j ? 2.0 : -1.0;
            k++;
        }
        A->row_ptr[i + 1] = k;
    }
    return MAGNUS_SUCCESS;
}

static int fail(const char *what, magnus_status s) {
    fprintf(stderr, "consumer: %s: %s: %s\n", what, magnus_status_string(s), magnus_last_error());
    return 1;
}

int main(void) {
    char header_version[32];
    snprintf(header_version, sizeof header_version, "%d.%d.%d", MAGNUS_VERSION_MAJOR,
             MAGNUS_VERSION_MINOR, MAGNUS_VERSION_PATCH);
    if (strcmp(header_version, magnus_version()) != 0) {
        fprintf(stderr, "consumer: header %s but library %s\n", header_version, magnus_version());
        return 1;
    }
    const int64_t n = 100;
    magnus_csr A = NULL, C = NULL;
    magnus_status s = tridiagonal(&A, n);
    if (s) return fail("building A", s);
    if ((s = magnus_csr_validate(A))) return fail("validating A", s);
    if ((s = magnus_reference_spgemm(&C, NULL, A, A))) return fail("A*A", s);
    /* A*A is pentadiagonal: 5n - 6 entries; its first row is [5, -4, 1]. */
    const double *c = C->values;
    int ok = C->rows == n && C->cols == n && C->nnz == 5 * n - 6 && C->row_ptr[1] == 3 &&
             c[0] == 5.0 && c[1] == -4.0 && c[2] == 1.0;
    printf("consumer: magnus %s, nnz(A*A) = %lld, %s\n", magnus_version(), (long long)C->nnz,
           ok ? "ok" : "WRONG");
    magnus_csr_free(&C);
    magnus_csr_free(&A);
    return ok ? 0 : 1;
}

/*
 * Every public entry point rejects bad input with its own status and a detail message, and
 * never reads what it was not given.
 *
 * The core is a table: each public function that takes a host matrix is called with every
 * kind of broken matrix (NULL, freed, foreign, unsupported type, each invalid-CSR case, NULL
 * arrays, impossible sizes) in every operand position, and must answer with the status that
 * the broken matrix calls for (magnus_csr_validate's, for content), a non-empty message, and
 * a NULL output. The broken matrices are built so that reading past what they claim is an
 * out-of-bounds read the sanitizer build reports. Then NULL outputs, shapes and value types
 * that do not fit, sizes whose products overflow, device handles, and how NaN, Inf and
 * explicit zeros go through a product (IEEE rules; an entry is never dropped for its value).
 *
 * One executable (test_api_errors), a file per job: this one (every host entry point with
 * every broken matrix; shapes and value types), test_api_null.c (NULL outputs and arguments),
 * test_api_sizes.c (sizes out of range and overflowing), test_api_ieee.c (NaN, Inf and
 * explicit zeros, on the host and the device), test_api_device.c (the device entry points);
 * the broken matrices and checks they share are in api_errors_test_util.h.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "api_errors_test_util.h"
#include "device_runtime.h"

static char write_path[256];

static const char *scratch_path(void) {
    snprintf(write_path, sizeof write_path, "%s/api_errors_%d.mtx", MAGNUS_BINARY_DIR,
             (int)getpid());
    return write_path;
}

/* Every host entry point, each operand position, every corruption. */
Test(api_invalid_csr, every_host_entry_point_every_corruption) {
    magnus_csr A24 = valid(2, M_ROWS); /* left operand for a broken B (A.cols == B.rows) */
    magnus_csr B53 = valid(M_COLS, 3); /* right operand for a broken A */
    magnus_device_info dev = described_device();
    dev.fp64 = 1;
    for (int c = 0; c < C_COUNT; c++) {
        const char *name = corruption_names[c];
        magnus_status want = corruption_status[c];
        magnus_csr_s *X = broken_make((corruption)c);
        magnus_csr out;
        magnus_csr_stats st;

        EXPECT_STATUS(magnus_csr_validate(X), want, "validate(%s)", name);

        out = POISON_CSR;
        EXPECT_STATUS(magnus_csr_copy(&out, X), want, "copy(%s)", name);
        cr_expect_null(out, "copy(%s) left an output", name);
        out = POISON_CSR;
        EXPECT_STATUS(magnus_csr_convert(&out, X, MAGNUS_FLOAT32), want, "convert(%s)", name);
        cr_expect_null(out, "convert(%s) left an output", name);

        /* stats: a NULL B means B = A, so a NULL B is no error */
        EXPECT_STATUS(magnus_csr_stats_compute(&st, X, B53), want, "stats(A = %s)", name);
        if (c != C_NULL_HANDLE)
            EXPECT_STATUS(magnus_csr_stats_compute(&st, A24, X), want, "stats(B = %s)", name);

        EXPECT_STATUS(magnus_mm_write(scratch_path(), X), want, "mm_write(%s)", name);
        cr_expect_neq(access(scratch_path(), F_OK), 0, "mm_write(%s) left a file", name);
        EXPECT_STATUS(magnus_mm_write_pattern(scratch_path(), X), want, "mm_write_pattern(%s)",
                      name);
        cr_expect_neq(access(scratch_path(), F_OK), 0, "mm_write_pattern(%s) left a file", name);

        magnus_csr C = POISON_CSR, Mag = POISON_CSR;
        EXPECT_STATUS(magnus_reference_spgemm(&C, &Mag, X, B53), want, "reference(A = %s)",
                      name);
        cr_expect(C == NULL && Mag == NULL, "reference(A = %s) left an output", name);
        C = Mag = POISON_CSR;
        EXPECT_STATUS(magnus_reference_spgemm(&C, &Mag, A24, X), want, "reference(B = %s)",
                      name);
        cr_expect(C == NULL && Mag == NULL, "reference(B = %s) left an output", name);

        magnus_gmagnus_plan plan;
        EXPECT_STATUS(magnus_gmagnus_plan_compute(&plan, &dev, X, B53), want, "plan(A = %s)",
                      name);
        EXPECT_STATUS(magnus_gmagnus_plan_compute(&plan, &dev, A24, X), want, "plan(B = %s)",
                      name);

        /* compare: `expected` is validated; C is only read where it agrees with expected,
         * so broken content in C is a mismatch (NULL arrays and handles are still errors) */
        magnus_csr V = NULL;
        broken vb;
        make_valid(&vb);
        cr_assert_eq(magnus_csr_copy(&V, &vb.m), MAGNUS_SUCCESS);
        magnus_compare_result res;
        EXPECT_STATUS(magnus_csr_compare(&res, V, X, NULL, 0), want, "compare(expected = %s)",
                      name);
        magnus_status want_c = want;
        if (c >= C_ROWPTR0 && c <= C_DUPLICATE) want_c = MAGNUS_ERROR_MISMATCH;
        if (c == C_NEGATIVE_NNZ) want_c = MAGNUS_ERROR_MISMATCH;
        EXPECT_STATUS(magnus_csr_compare(&res, X, V, NULL, 0), want_c, "compare(C = %s)", name);
        magnus_csr_free(&V);
        broken_free(X);
    }
    magnus_csr_free(&A24);
    magnus_csr_free(&B53);
    unlink(scratch_path());
}

/* Shapes that do not chain and value types that differ. */
Test(api_invalid_csr, shapes_and_value_types) {
    magnus_csr A = valid(3, 4), B = valid(5, 2), B32 = NULL, C = POISON_CSR, M = POISON_CSR;
    cr_assert_eq(magnus_csr_convert(&B32, A, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    magnus_csr_stats st;
    EXPECT_STATUS(magnus_csr_stats_compute(&st, A, B), MAGNUS_ERROR_DIMENSION_MISMATCH, "stats");
    EXPECT_STATUS(magnus_reference_spgemm(&C, &M, A, B), MAGNUS_ERROR_DIMENSION_MISMATCH,
                  "reference");
    cr_expect(C == NULL && M == NULL);
    /* 3x4 times 3x4 (float32) does not chain either; 4x? is needed. Same shape, other type: */
    magnus_csr A43 = valid(4, 3), A43f = NULL;
    cr_assert_eq(magnus_csr_convert(&A43f, A43, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    C = M = POISON_CSR;
    EXPECT_STATUS(magnus_reference_spgemm(&C, &M, A, A43f), MAGNUS_ERROR_UNSUPPORTED_TYPE,
                  "reference mixed types");
    cr_expect(C == NULL && M == NULL);
    magnus_compare_result res;
    EXPECT_STATUS(magnus_csr_compare(&res, A, B, NULL, 0), MAGNUS_ERROR_DIMENSION_MISMATCH,
                  "compare shapes");
    EXPECT_STATUS(magnus_csr_compare(&res, A, A, NULL, NAN), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "compare NaN tolerance");
    EXPECT_STATUS(magnus_csr_compare(&res, A, A, B, 0), MAGNUS_ERROR_DIMENSION_MISMATCH,
                  "compare magnitude of another shape");
    magnus_csr A34other = valid(3, 4); /* same shape, other columns (another seed) */
    magnus_csr_free(&A34other);
    cr_assert_eq(magnus_gen_uniform(&A34other, 3, 4, 3, 99, MAGNUS_FLOAT64), MAGNUS_SUCCESS);
    EXPECT_STATUS(magnus_csr_compare(&res, A, A, A34other, 0), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "compare magnitude of another structure");
    magnus_csr_free(&A34other);
    magnus_device_info dev = described_device();
    magnus_gmagnus_plan plan;
    EXPECT_STATUS(magnus_gmagnus_plan_compute(&plan, &dev, A, B), MAGNUS_ERROR_DIMENSION_MISMATCH,
                  "plan shapes");
    EXPECT_STATUS(magnus_gmagnus_plan_compute(&plan, &dev, A, A43f), MAGNUS_ERROR_UNSUPPORTED_TYPE,
                  "plan mixed types");
    magnus_gmagnus_params params;
    EXPECT_STATUS(magnus_gmagnus_params_compute(&params, &dev, 10, (magnus_value_type)9),
                  MAGNUS_ERROR_UNSUPPORTED_TYPE, "params type");
    EXPECT_STATUS(magnus_gmagnus_params_compute(&params, &dev, -1, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_INVALID_ARGUMENT, "params negative columns");
    magnus_csr out = POISON_CSR;
    EXPECT_STATUS(magnus_csr_convert(&out, A, (magnus_value_type)0), MAGNUS_ERROR_UNSUPPORTED_TYPE,
                  "convert to type 0");
    cr_expect_null(out);
    out = POISON_CSR;
    EXPECT_STATUS(magnus_mm_read(&out, "/nonexistent/x.mtx", (magnus_value_type)3, NULL, NULL),
                  MAGNUS_ERROR_UNSUPPORTED_TYPE, "mm_read type 3");
    cr_expect_null(out);
    out = POISON_CSR;
    EXPECT_STATUS(magnus_mm_read(&out, "/nonexistent/x.mtx", MAGNUS_FLOAT32, NULL, NULL),
                  MAGNUS_ERROR_FILE_OPEN, "mm_read missing file");
    cr_expect_null(out);
    cr_expect_eq(magnus_value_size((magnus_value_type)3), 0);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&B32);
    magnus_csr_free(&A43);
    magnus_csr_free(&A43f);
}

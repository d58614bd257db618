/*
 * NULL where an output or a required argument goes, frees of NULL and of foreign handles,
 * strings that are never NULL (part of test_api_errors: test_api_errors.c).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "api_errors_test_util.h"
#include "device_runtime.h"

/* NULL where an output or a required argument goes. */
Test(api_null, outputs_and_arguments) {
    magnus_csr A = valid(3, 3);
    magnus_csr out = POISON_CSR;
    EXPECT_STATUS(magnus_csr_new(NULL, 1, 1, 1, MAGNUS_FLOAT32), MAGNUS_ERROR_NULL_POINTER,
                  "csr_new");
    EXPECT_STATUS(magnus_csr_copy(NULL, A), MAGNUS_ERROR_NULL_POINTER, "copy");
    EXPECT_STATUS(magnus_csr_convert(NULL, A, MAGNUS_FLOAT32), MAGNUS_ERROR_NULL_POINTER,
                  "convert");
    EXPECT_STATUS(magnus_csr_stats_compute(NULL, A, A), MAGNUS_ERROR_NULL_POINTER, "stats");
    EXPECT_STATUS(magnus_mm_read(NULL, "x.mtx", MAGNUS_FLOAT32, NULL, NULL),
                  MAGNUS_ERROR_NULL_POINTER, "mm_read out");
    EXPECT_STATUS(magnus_mm_read(&out, NULL, MAGNUS_FLOAT32, NULL, NULL),
                  MAGNUS_ERROR_NULL_POINTER, "mm_read path");
    cr_expect_null(out);
    EXPECT_STATUS(magnus_mm_write(NULL, A), MAGNUS_ERROR_NULL_POINTER, "mm_write path");
    EXPECT_STATUS(magnus_mm_write_pattern(NULL, A), MAGNUS_ERROR_NULL_POINTER,
                  "mm_write_pattern path");
    EXPECT_STATUS(magnus_reference_spgemm(NULL, NULL, A, A), MAGNUS_ERROR_NULL_POINTER,
                  "reference C");
    /* compare's result may be NULL */
    EXPECT_STATUS(magnus_csr_compare(NULL, A, A, NULL, 0), MAGNUS_SUCCESS, "compare result");
    EXPECT_STATUS(magnus_rmat_options_init(NULL), MAGNUS_ERROR_NULL_POINTER, "rmat init");
    magnus_rmat_options ro;
    magnus_rmat_options_init(&ro);
    EXPECT_STATUS(magnus_gen_rmat(NULL, &ro, NULL, NULL), MAGNUS_ERROR_NULL_POINTER, "rmat out");
    out = POISON_CSR;
    EXPECT_STATUS(magnus_gen_rmat(&out, NULL, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "rmat options");
    cr_expect_null(out);
    EXPECT_STATUS(magnus_gen_laplacian_2d(NULL, 2, 2, MAGNUS_FLOAT32), MAGNUS_ERROR_NULL_POINTER,
                  "lap2");
    EXPECT_STATUS(magnus_gen_laplacian_3d(NULL, 2, 2, 2, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_NULL_POINTER, "lap3");
    EXPECT_STATUS(magnus_gen_banded(NULL, 4, 1, 1, 1, MAGNUS_FLOAT32), MAGNUS_ERROR_NULL_POINTER,
                  "banded");
    EXPECT_STATUS(magnus_gen_uniform(NULL, 4, 4, 1, 1, MAGNUS_FLOAT32), MAGNUS_ERROR_NULL_POINTER,
                  "uniform");
    EXPECT_STATUS(magnus_gen_star(NULL, 8, 1, 4, 2, 1, MAGNUS_FLOAT32), MAGNUS_ERROR_NULL_POINTER,
                  "star");
    size_t count = 99;
    EXPECT_STATUS(magnus_device_probe(NULL, 0, NULL), MAGNUS_ERROR_NULL_POINTER, "probe count");
    EXPECT_STATUS(magnus_device_probe(NULL, 4, &count), MAGNUS_ERROR_NULL_POINTER,
                  "probe devices");
    EXPECT_STATUS(magnus_device_select(NULL), MAGNUS_ERROR_NULL_POINTER, "select");
    EXPECT_STATUS(magnus_context_options_init(NULL), MAGNUS_ERROR_NULL_POINTER, "ctx options");
    EXPECT_STATUS(magnus_context_create(NULL, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "ctx create");
    EXPECT_STATUS(magnus_spgemm_options_init(NULL), MAGNUS_ERROR_NULL_POINTER, "spgemm options");
    magnus_gmagnus_params params;
    magnus_gmagnus_plan plan;
    magnus_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.local_mem_bytes = 65536;
    EXPECT_STATUS(magnus_gmagnus_params_compute(NULL, &dev, 3, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_NULL_POINTER, "params out");
    EXPECT_STATUS(magnus_gmagnus_params_compute(&params, NULL, 3, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_NULL_POINTER, "params device");
    EXPECT_STATUS(magnus_gmagnus_plan_compute(NULL, &dev, A, A), MAGNUS_ERROR_NULL_POINTER,
                  "plan out");
    EXPECT_STATUS(magnus_gmagnus_plan_compute(&plan, NULL, A, A), MAGNUS_ERROR_NULL_POINTER,
                  "plan device");
    magnus_hash_params hash;
    EXPECT_STATUS(magnus_hash_params_compute(NULL, &dev, NULL, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_NULL_POINTER, "hash params out");
    EXPECT_STATUS(magnus_hash_params_compute(&hash, NULL, NULL, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_NULL_POINTER, "hash params device");
    /* frees accept NULL and a pointer to NULL */
    EXPECT_STATUS(magnus_csr_free(NULL), MAGNUS_SUCCESS, "csr_free(NULL)");
    magnus_csr none = NULL;
    EXPECT_STATUS(magnus_csr_free(&none), MAGNUS_SUCCESS, "csr_free(&NULL)");
    EXPECT_STATUS(magnus_context_free(NULL), MAGNUS_SUCCESS, "context_free(NULL)");
    EXPECT_STATUS(magnus_device_csr_free(NULL), MAGNUS_SUCCESS, "device_csr_free(NULL)");
    /* a foreign handle is refused, not freed */
    broken fb;
    make_valid(&fb);
    fb.m.magic = MAGNUS_MAGIC_FREED;
    magnus_csr fake = &fb.m;
    EXPECT_STATUS(magnus_csr_free(&fake), MAGNUS_ERROR_INVALID_HANDLE, "csr_free(freed)");
    cr_expect_eq(fake, &fb.m, "a refused free must leave the handle");
    /* strings are never NULL */
    cr_expect_not_null(magnus_status_string((magnus_status)12345));
    cr_expect_not_null(magnus_backend_name((magnus_backend_kind)77));
    cr_expect_not_null(magnus_version());
    EXPECT_STATUS(magnus_version_numbers(NULL, NULL, NULL), MAGNUS_SUCCESS, "version numbers");
    magnus_csr_free(&A);
}

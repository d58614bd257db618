/*
 * MAGNUS_SPMV_CARVEOUT (runtime/spmv/spmv_plan.c, magnus_spmv_carveout_knob): read when an
 * SpMV plan is made, like SpMV's other knobs; -1 or unset the driver's choice, 0..100 the
 * percent of local memory SpMV's product kernels prefer; anything else refused by name. Set,
 * it reaches every product kernel of the value type before the product runs (the context's
 * kernel cache says what was asked, whatever the backend made of it: OpenCL drops it) and
 * leaves y as it was bit for bit. The whole SpMV set also runs with the knob at 0
 * (tests/spmv/spmv.cmake, the `carveout` entries).
 */
#include <stdlib.h>
#include <string.h>

#include "device_test_util.h"
#include "spmv_internal.h"
#include "status_test_util.h"

static const magnus_kernel_id products[] = {
    MAGNUS_KERNEL_spmv_scale,   MAGNUS_KERNEL_spmv_csr_vector, MAGNUS_KERNEL_spmv_merge,
    MAGNUS_KERNEL_spmv_combine, MAGNUS_KERNEL_spmv_coo,        MAGNUS_KERNEL_spmv_ell,
    MAGNUS_KERNEL_spmv_sellp};

/* MAGNUS_SPMV_CARVEOUT = value (unset when NULL). */
static void knob_set(const char *value) {
    if (value) setenv("MAGNUS_SPMV_CARVEOUT", value, 1);
    else unsetenv("MAGNUS_SPMV_CARVEOUT");
}

Test(spmv_carveout, knob_values) {
    const struct {
        const char *value;
        int want;
    } ok[] = {{NULL, -1}, {"", -1}, {"-1", -1}, {"0", 0}, {"25", 25}, {"100", 100}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int share = -7;
        knob_set(ok[i].value);
        ASSERT_OK(magnus_spmv_carveout_knob(&share));
        cr_assert_eq(share, ok[i].want, "MAGNUS_SPMV_CARVEOUT=%s: %d",
                     ok[i].value ? ok[i].value : "(unset)", share);
    }
    knob_set(NULL);
}

/* Refused by the reader, and so by the product, which names the variable. */
Test(spmv_carveout, refused_by_name) {
    const char *bad[] = {"101", "-2", "25%", "max", " 5", "1e2", "99999999999999999999"};
    magnus_context c = magnus_test_context();
    magnus_csr A;
    ASSERT_OK(magnus_csr_new(&A, 2, 2, 0, MAGNUS_FLOAT32));
    const float x[2] = {1.0f, 2.0f};
    float y[2] = {0.0f, 0.0f};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int share;
        knob_set(bad[i]);
        magnus_status s = magnus_spmv_carveout_knob(&share);
        cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "MAGNUS_SPMV_CARVEOUT=%s: %s", bad[i],
                     magnus_status_string(s));
        cr_assert(strstr(magnus_last_error(), "MAGNUS_SPMV_CARVEOUT"), "%s", magnus_last_error());
        s = magnus_spmv_host(y, c, 1.0, A, x, 0.0, NULL, NULL);
        cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "SpMV with MAGNUS_SPMV_CARVEOUT=%s: %s",
                     bad[i], magnus_status_string(s));
        cr_assert(strstr(magnus_last_error(), "MAGNUS_SPMV_CARVEOUT"), "%s", magnus_last_error());
    }
    knob_set(NULL);
    magnus_csr_free(&A);
}

/* The share last asked of kernel `kernel` in `variant` (its cache entry), or -2 when the
 * kernel was never loaded. */
static int asked_share(const magnus_context_s *c, magnus_kernel_variant variant,
                       magnus_kernel_id kernel) {
    return c->kernels[variant][kernel].kernel ? c->kernels[variant][kernel].local_share : -2;
}

/* 3000 x 2500, rows of 0 to 40 entries, one of 2500 (csr-balanced splits it). */
static magnus_csr matrix(magnus_value_type t) {
    int64_t nnz = 0;
    for (int64_t r = 0; r < 3000; r++) nnz += r == 17 ? 2500 : (r * 13) % 41;
    magnus_csr A;
    ASSERT_OK(magnus_csr_new(&A, 3000, 2500, nnz, t));
    int64_t k = 0;
    for (int64_t r = 0; r < 3000; r++) {
        const int64_t n = r == 17 ? 2500 : (r * 13) % 41;
        for (int64_t j = 0; j < n; j++, k++) {
            A->col_idx[k] = (int32_t)(n == 2500 ? j : (r * 7 + j * 61) % 2500);
            const double v = (double)((r + 3 * j) % 17) / 8.0 - 1.0;
            if (t == MAGNUS_FLOAT64) ((double *)A->values)[k] = v;
            else ((float *)A->values)[k] = (float)v;
        }
        A->row_ptr[r + 1] = k;
    }
    /* columns of a row ascending */
    for (int64_t r = 0; r < 3000; r++) {
        int32_t *c = A->col_idx + A->row_ptr[r];
        const int64_t n = A->row_ptr[r + 1] - A->row_ptr[r];
        for (int64_t a = 1; a < n; a++)
            for (int64_t b = a; b > 0 && c[b - 1] > c[b]; b--) {
                int32_t tmp = c[b];
                c[b] = c[b - 1];
                c[b - 1] = tmp;
            }
    }
    ASSERT_OK(magnus_csr_validate(A));
    return A;
}

/* y by every format in a fresh context with the knob at `value`, the product kernels'
 * entries checked against `want` (what the context asked of the backend). */
static void products_with(const char *value, int want, magnus_value_type t, void *y) {
    const magnus_device_info device = magnus_test_context()->device;
    magnus_context c = NULL;
    ASSERT_OK(magnus_context_create(&c, &device, NULL));
    if (t == MAGNUS_FLOAT64 && !c->device.fp64) {
        magnus_context_free(&c);
        return;
    }
    magnus_csr A = matrix(t);
    const size_t vb = magnus_value_size(t);
    unsigned char *x = malloc(2500 * vb);
    cr_assert_not_null(x);
    for (int i = 0; i < 2500; i++) {
        if (t == MAGNUS_FLOAT64) ((double *)x)[i] = 1.0 + (i % 5) * 0.25;
        else ((float *)x)[i] = 1.0f + (float)(i % 5) * 0.25f;
    }
    const magnus_spmv_format fs[] = {MAGNUS_SPMV_CSR, MAGNUS_SPMV_CSR_BALANCED, MAGNUS_SPMV_COO,
                                     MAGNUS_SPMV_HYBRID, MAGNUS_SPMV_SELL_P};
    knob_set(value);
    for (size_t f = 0; f < sizeof fs / sizeof fs[0]; f++) {
        magnus_spmv_options o;
        ASSERT_OK(magnus_spmv_options_init(&o));
        o.format = fs[f];
        unsigned char *yf = (unsigned char *)y + f * 3000 * vb;
        memset(yf, 0, 3000 * vb);
        ASSERT_OK(magnus_spmv_host(yf, c, 1.5, A, x, 0.5, &o, NULL));
    }
    knob_set(NULL);
    const magnus_kernel_variant v = magnus_variant_of(t);
    for (size_t k = 0; k < sizeof products / sizeof products[0]; k++) {
        const int asked = asked_share(c, v, products[k]); /* -2: never loaded */
        cr_assert(want < 0 ? asked <= -1 : asked == want, "MAGNUS_SPMV_CARVEOUT=%s: %s asked %d",
                  value ? value : "(unset)", magnus_kernel_name(products[k]), asked);
    }
    /* a kernel of another phase keeps the driver's choice */
    cr_assert(asked_share(c, v, MAGNUS_KERNEL_spmv_row_keys) <= -1,
              "spmv_row_keys was asked for a share");
    free(x);
    magnus_csr_free(&A);
    magnus_context_free(&c);
}

static void same_products(magnus_value_type t) {
    const size_t bytes = 5 * 3000 * magnus_value_size(t);
    unsigned char *y0 = malloc(bytes), *y1 = malloc(bytes), *y2 = malloc(bytes);
    cr_assert(y0 && y1 && y2);
    memset(y0, 0, bytes);
    memset(y1, 0, bytes);
    memset(y2, 0, bytes);
    products_with(NULL, -1, t, y0);
    products_with("0", 0, t, y1);
    products_with("25", 25, t, y2);
    cr_assert(memcmp(y0, y1, bytes) == 0, "y differs with MAGNUS_SPMV_CARVEOUT=0");
    cr_assert(memcmp(y0, y2, bytes) == 0, "y differs with MAGNUS_SPMV_CARVEOUT=25");
    free(y0);
    free(y1);
    free(y2);
}
Test(spmv_carveout, asked_of_the_products_f32) { same_products(MAGNUS_FLOAT32); }
Test(spmv_carveout, asked_of_the_products_f64) { same_products(MAGNUS_FLOAT64); }

/* The device runtime's call: out-of-range shares, ids and variants refused; the value kept
 * beside the kernel's cache entry (asked again only when it changes). */
Test(spmv_carveout, kernel_local_share_checks) {
    magnus_context c = magnus_test_context();
    cr_assert_eq(magnus_kernel_local_share(c, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_spmv_merge, 101),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_kernel_local_share(c, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_spmv_merge, -2),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_kernel_local_share(c, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_COUNT, 0),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_kernel_local_share(c, MAGNUS_VARIANT_COUNT, MAGNUS_KERNEL_spmv_merge, 0),
                 MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(magnus_kernel_local_share(NULL, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_spmv_merge, 0),
                 MAGNUS_ERROR_NULL_POINTER);
    ASSERT_OK(magnus_kernel_local_share(c, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_spmv_merge, 0));
    cr_assert_eq(asked_share(c, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_spmv_merge), 0);
    ASSERT_OK(magnus_kernel_local_share(c, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_spmv_merge, 0));
    cr_assert_eq(asked_share(c, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_spmv_merge), 0);
    ASSERT_OK(magnus_kernel_local_share(c, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_spmv_merge, -1));
    cr_assert_eq(asked_share(c, MAGNUS_VARIANT_F32, MAGNUS_KERNEL_spmv_merge), -1);
}

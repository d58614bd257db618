/*
 * The device fingerprint of a magnus C (issue 34): y = C·x for one fixed random x, computed
 * on C's device by the library's SpMV (balanced CSR: it reads C's arrays as they are, adds in
 * a fixed order with no float atomics, so the same C gives the same y bit for bit), and only
 * y (C.rows values) is downloaded. A timed run whose y is bit for bit the verified C's y, with
 * the same nnz(C), counts as the same product; any other run's C is downloaded and checked in
 * full (bench_runs_check_add). This replaces downloading and checksumming every run's C,
 * which cost 0.1-2 s a run (hundreds of MB each) against multiplies of a few ms.
 * x's entries are ±[0.5, 1] with every mantissa bit random, so a changed value, a moved
 * entry or a missing one changes some y_i unless it is below y_i's rounding: such a C is the
 * verified one within rounding, which is all the randomized check asks of any C.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli_verify_random.h"

void bench_fingerprint_free(bench_fingerprint *f) {
    magnus_device_vector_free(&f->x);
    magnus_device_vector_free(&f->y);
    free(f->verified);
    free(f->run);
    memset(f, 0, sizeof *f);
}

/* y = C·x of dC into `host` (rows values of the type). */
static magnus_status take(bench_fingerprint *f, void *host, const magnus_device_csr dC) {
    magnus_spmv_options opt;
    magnus_status s = magnus_spmv_options_init(&opt);
    if (s) return s;
    opt.format = MAGNUS_SPMV_CSR_BALANCED;
    if ((s = magnus_spmv(f->ctx, f->y, 1.0, dC, f->x, 0.0, &opt, NULL))) return s;
    return magnus_device_vector_download(host, f->rows, f->y);
}

magnus_status bench_fingerprint_init(bench_fingerprint *f, magnus_context ctx,
                                     const magnus_device_csr dC, magnus_value_type type,
                                     uint64_t seed) {
    memset(f, 0, sizeof *f);
    f->ctx = ctx;
    int64_t cols = 0;
    magnus_status s = magnus_device_csr_shape(&f->rows, &cols, &f->nnz, dC);
    if (s) return s;
    const size_t vb = magnus_value_size(type);
    f->bytes = (size_t)(f->rows > 0 ? f->rows : 1) * vb;
    const size_t xb = (size_t)(cols > 0 ? cols : 1) * vb;
    if ((s = magnus_host_memory_check(2 * f->bytes + xb, "the bench's C·x fingerprints")))
        return s;
    void *hx = malloc(xb);
    f->verified = malloc(f->bytes);
    f->run = malloc(f->bytes);
    if (!hx || !f->verified || !f->run) {
        free(hx);
        bench_fingerprint_free(f);
        return MAGNUS_ERROR_OUT_OF_HOST_MEMORY;
    }
    uint64_t state = seed;
    for (int64_t j = 0; j < cols; j++) {
        const double v = verify_random_entry(&state);
        if (type == MAGNUS_FLOAT64) ((double *)hx)[j] = v;
        else ((float *)hx)[j] = (float)v;
    }
    s = magnus_device_vector_upload(&f->x, ctx, type, cols, hx);
    free(hx);
    if (!s) s = magnus_device_vector_zeros(&f->y, ctx, type, f->rows);
    if (!s) s = take(f, f->verified, dC);
    if (s) bench_fingerprint_free(f);
    return s;
}

magnus_status bench_fingerprint_same(bool *same, bench_fingerprint *f, const magnus_device_csr dC) {
    *same = false;
    int64_t rows = 0, cols = 0, nnz = 0;
    magnus_status s = magnus_device_csr_shape(&rows, &cols, &nnz, dC);
    if (s) return s;
    if (rows != f->rows || nnz != f->nnz) return MAGNUS_SUCCESS;
    if ((s = take(f, f->run, dC))) return s;
    *same = !memcmp(f->run, f->verified, f->bytes);
    return MAGNUS_SUCCESS;
}

/*
 * The SpGEMM entry points: argument checks, host<->device transfers, timing of the whole
 * call, and the dispatch to an algorithm through its table (spgemm_algorithm.h). The
 * algorithms see only valid device matrices of one value type with A.cols == B.rows.
 */
#include <math.h>
#include <string.h>

#include "csr_products.h"
#include "device_csr.h"
#include "spgemm_dispatch.h"

magnus_status magnus_spgemm_options_init(magnus_spgemm_options *opt) {
    magnus_error_clear();
    if (!opt) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_spgemm_options_init: NULL");
    memset(opt, 0, sizeof *opt);
    opt->algorithm = MAGNUS_ALGORITHM_AUTO;
    opt->alpha = 1.0;
    return MAGNUS_SUCCESS;
}

static magnus_status check_options(const magnus_spgemm_options *opt) {
    if (opt && !magnus_algorithm_name(opt->algorithm))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "unknown SpGEMM algorithm %d",
                            (int)opt->algorithm);
    if (opt && !isfinite(opt->alpha))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "alpha is %g; C = alpha*A*B needs a finite alpha", opt->alpha);
    return MAGNUS_SUCCESS;
}

/* Shapes, value types and device features, common to both entry points. */
static magnus_status check_operands(magnus_context ctx, int64_t a_rows, int64_t a_cols,
                                    magnus_value_type a_type, int64_t b_rows, int64_t b_cols,
                                    magnus_value_type b_type) {
    if (a_cols != b_rows)
        return magnus_error(MAGNUS_ERROR_DIMENSION_MISMATCH,
                            "A is %lld x %lld but B is %lld x %lld (A.cols must equal B.rows)",
                            (long long)a_rows, (long long)a_cols, (long long)b_rows,
                            (long long)b_cols);
    if (a_type != b_type)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE,
                            "A holds %s and B holds %s values; convert one of them",
                            a_type == MAGNUS_FLOAT64 ? "float64" : "float32",
                            b_type == MAGNUS_FLOAT64 ? "float64" : "float32");
    if (a_type == MAGNUS_FLOAT64 && !ctx->device.fp64)
        return magnus_error(MAGNUS_ERROR_FEATURE_UNSUPPORTED,
                            "device \"%s\" has no double precision; use float32 matrices",
                            ctx->device.name);
    return MAGNUS_SUCCESS;
}

/* Every algorithm's table; the one place that lists them. */
static const magnus_spgemm_algorithm *const algorithms[] = {
    &magnus_spgemm_algorithm_hash,
    &magnus_spgemm_algorithm_gmagnus,
};

const magnus_spgemm_algorithm *magnus_spgemm_algorithm_of(magnus_algorithm id) {
    for (size_t i = 0; i < sizeof algorithms / sizeof algorithms[0]; i++)
        if (algorithms[i]->id == id) return algorithms[i];
    return NULL;
}

magnus_status magnus_spgemm_dispatch(magnus_device_csr *C, magnus_context ctx,
                              const struct magnus_device_csr_s *A,
                              const struct magnus_device_csr_s *B,
                              const magnus_spgemm_options *opt, magnus_report *rep,
                              bool phase_times, const magnus_spgemm_progress *progress) {
    magnus_algorithm algorithm = opt ? opt->algorithm : MAGNUS_ALGORITHM_AUTO;
    const double load0 = ctx->kernel_load_ms;
    rep->algorithm_requested = algorithm;
    rep->local_mem_bytes = ctx->device.local_mem_bytes;
    /* The API is synchronous, so the queues are idle here: saying so lets the blocks freed
     * since the last multiply (C's, the caller's) be reused by this one. */
    magnus_status s = magnus_context_finish(ctx);
    if (s) return s;
    /* a C that cannot fit fails now, not after the symbolic phase */
    if ((s = magnus_spgemm_c_fits(ctx, A, B))) return s;
    magnus_row_products counted;
    memset(&counted, 0, sizeof counted); /* AUTO's count of products per row, handed on */
    if (algorithm == MAGNUS_ALGORITHM_AUTO) {
        if ((s = magnus_spgemm_choose(&algorithm, &counted, ctx, A, B, rep))) return s;
    } else {
        rep->algorithm_reason = "requested by the options";
    }
    rep->algorithm = algorithm;
    const magnus_spgemm_algorithm *run = magnus_spgemm_algorithm_of(algorithm);
    if (!run) { /* check_options and the choice name only listed algorithms */
        magnus_row_products_free(ctx, &counted);
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "unknown SpGEMM algorithm %d",
                            (int)algorithm);
    }
    magnus_trace_mark(ctx, run->mark);
    const magnus_row_products *pre = counted.products.mem ? &counted : NULL;
    /* the algorithm fills its sections alone; they enter the report here, on failure too */
    magnus_spgemm_section section;
    magnus_spgemm_section_begin(&section, ctx);
    section.phase_times = phase_times;
    s = run->run(C, ctx, A, B, &section, pre, progress);
    magnus_spgemm_section_end(rep, &section, ctx, algorithm);
    magnus_row_products_free(ctx, &counted); /* the algorithms return with every queue idle */
    /* C = alpha * (A.B): one pass over C's values after either algorithm */
    if (!s && opt && opt->alpha != 1.0) {
        double t = magnus_now_ms();
        if ((s = magnus_device_csr_scale(*C, MAGNUS_QUEUE_MAIN, opt->alpha)))
            magnus_device_csr_destroy(C);
        rep->time_numeric_ms += magnus_now_ms() - t;
    }
    rep->time_kernel_load_ms = ctx->kernel_load_ms - load0;
    magnus_trace_event(ctx, "mark", "end", magnus_now_ms(), 0);
    magnus_trace_device_flush(ctx); /* the queues are idle */
    return s;
}

/* Refuses a product whose intermediate count passes 2^63 (no algorithm could index it). */
static magnus_status count_products(const magnus_csr_s *A, const magnus_csr_s *B) {
    magnus_products n;
    return magnus_products_count(&n, A, B, INT64_MAX);
}

magnus_report *magnus_spgemm_entry_begin(magnus_report *report, magnus_report *local) {
    magnus_error_clear();
    magnus_report *rep = report ? report : local;
    memset(rep, 0, sizeof *rep);
    return rep;
}

magnus_status magnus_spgemm(magnus_csr *C, magnus_context ctx, const magnus_csr_s *A,
                            const magnus_csr_s *B, const magnus_spgemm_options *opt,
                            magnus_report *report) {
    double t0 = magnus_now_ms();
    magnus_report local, *rep = magnus_spgemm_entry_begin(report, &local);
    if (!C) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_spgemm: output C is NULL");
    *C = NULL;
    magnus_status s;
    if ((s = magnus_context_check(ctx)) || (s = check_options(opt))) return s;
    if ((s = magnus_csr_check_handle(A, "A")) || (s = magnus_csr_check_handle(B, "B"))) return s;
    if ((s = magnus_csr_validate_operands(A, B, "matrix ")) ||
        (s = check_operands(ctx, A->rows, A->cols, A->type, B->rows, B->cols, B->type)) ||
        (s = count_products(A, B)) || (s = magnus_spgemm_progress_call(opt, 0.0, "upload")))
        return s;

    magnus_device_csr dA = NULL, dB = NULL, dC = NULL;
    const magnus_spgemm_progress window = {opt, 0.1, 0.9}; /* the multiply's share */
    double t = magnus_now_ms();
    if ((s = magnus_device_csr_upload_on(&dA, ctx, MAGNUS_QUEUE_MAIN, A)) ||
        (s = magnus_device_csr_upload_on(&dB, ctx, MAGNUS_QUEUE_MAIN, B)))
        goto done;
    rep->time_upload_ms = magnus_now_ms() - t;
    if ((s = magnus_spgemm_progress_call(opt, 0.1, "multiply")) ||
        (s = magnus_spgemm_dispatch(&dC, ctx, dA, dB, opt, rep, report != NULL, &window)) ||
        (s = magnus_spgemm_progress_call(opt, 0.9, "download")))
        goto done;
    t = magnus_now_ms();
    if ((s = magnus_device_csr_download_on(C, dC, MAGNUS_QUEUE_MAIN))) goto done;
    rep->time_download_ms = magnus_now_ms() - t;
    s = magnus_spgemm_progress_call(opt, 1.0, "done");
    if (s) magnus_csr_free(C);
done:
    magnus_device_csr_destroy(&dA);
    magnus_device_csr_destroy(&dB);
    magnus_device_csr_destroy(&dC);
    rep->time_total_ms = magnus_now_ms() - t0;
    return s;
}

magnus_status magnus_spgemm_device(magnus_device_csr *C, magnus_context ctx,
                                   const magnus_device_csr A, const magnus_device_csr B,
                                   const magnus_spgemm_options *opt, magnus_report *report) {
    double t0 = magnus_now_ms();
    magnus_report local, *rep = magnus_spgemm_entry_begin(report, &local);
    if (!C)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_spgemm_device: output C is NULL");
    *C = NULL;
    magnus_status s;
    if ((s = magnus_context_check(ctx)) || (s = check_options(opt)) ||
        (s = magnus_device_csr_check(A, ctx, "A")) || (s = magnus_device_csr_check(B, ctx, "B")) ||
        (s = check_operands(ctx, A->rows, A->cols, A->type, B->rows, B->cols, B->type)) ||
        (s = magnus_spgemm_progress_call(opt, 0.0, "multiply")))
        return s;
    const magnus_spgemm_progress window = {opt, 0.0, 1.0};
    if (!(s = magnus_spgemm_dispatch(C, ctx, A, B, opt, rep, report != NULL, &window)) &&
        (s = magnus_spgemm_progress_call(opt, 1.0, "done")))
        magnus_device_csr_destroy(C);
    rep->time_total_ms = magnus_now_ms() - t0;
    return s;
}

/*
 * SpGEMM plans: symbolic once, numeric many (magnus.h, "SpGEMM plans"). A plan keeps C's row
 * pointers and nnz, the operands' shapes, value type and structure fingerprints
 * (magnus_device_csr_fingerprint), and alpha; executing it checks the new operands against
 * those and computes only C's values. Two kinds:
 *   positions  (the default) create runs a whole multiply with the options' algorithm and
 *              keeps every product's position in C (spgemm_plan_positions.h: about 4 bytes
 *              per product beside C's structure); execute is one pass over the products.
 *   hash       create runs the hash algorithm's symbolic phase and keeps C's row pointers
 *              only; execute runs its numeric phase. Made when MAGNUS_PLAN_POSITIONS=0, when
 *              nnz(C) reaches 2^32 (positions are 32-bit), or when the device has no room
 *              for the positions (create then keeps the multiply's row pointers).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "device_csr.h"
#include "spgemm_dispatch.h"
#include "spgemm_plan_positions.h"

#define MAGNUS_MAGIC_SPGEMM_PLAN 0x6d61676e706c616eULL /* "magnplan" */

struct magnus_spgemm_plan_s {
    uint64_t magic;
    magnus_context ctx;
    int64_t a_rows, a_cols, a_nnz, b_rows, b_cols, b_nnz;
    magnus_value_type type;
    uint64_t a_fingerprint, b_fingerprint;
    double alpha;
    magnus_algorithm requested; /* what the options asked for (the reports say so) */
    magnus_dbuf row_ptr; /* C's, int64, a_rows + 1 */
    int64_t nnz;         /* C's */
    int by_positions;    /* the positions kind (pos), else the hash kind */
    magnus_plan_positions pos;
    magnus_algorithm algorithm; /* what made C's structure at create */
    const char *reason;         /* why the plan is of its kind (the reports' algorithm_reason) */
    magnus_report symbolic;
};

static magnus_status plan_check(const struct magnus_spgemm_plan_s *p) {
    if (!p) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "the SpGEMM plan is NULL");
    if (p->magic != MAGNUS_MAGIC_SPGEMM_PLAN)
        return magnus_error(MAGNUS_ERROR_INVALID_HANDLE,
                            "the SpGEMM plan is not a live magnus_spgemm_plan (freed or never "
                            "created)");
    return magnus_context_check(p->ctx);
}

/* What a plan's reports say of the algorithm: the one that made C's structure at create
 * (the hash algorithm for a plan of the hash kind), and the plan's kind in the reason. */
static void plan_report_algorithm(magnus_report *rep, const struct magnus_spgemm_plan_s *p) {
    rep->algorithm = p->algorithm;
    rep->algorithm_requested = p->requested;
    rep->algorithm_reason = p->reason;
}

/* The hash kind's structure: the algorithm's symbolic phase into the plan's row pointers, its
 * section into the plan's symbolic report. */
static magnus_status plan_symbolic(struct magnus_spgemm_plan_s *p,
                                   const struct magnus_device_csr_s *A,
                                   const struct magnus_device_csr_s *B) {
    magnus_spgemm_section section;
    magnus_spgemm_section_begin(&section, p->ctx);
    magnus_status s = magnus_spgemm_algorithm_of(p->algorithm)
                          ->symbolic(&p->row_ptr, &p->nnz, p->ctx, A, B, &section);
    magnus_spgemm_section_end(&p->symbolic, &section, p->ctx, p->algorithm);
    return s;
}

/* The positions kind: a whole multiply (the options' algorithm, alpha 1), whose row pointers
 * the plan keeps, then the products' positions in its C. Falls back to the hash kind, keeping
 * the row pointers, when nnz(C) reaches 2^32 or the positions find no device memory. */
static magnus_status plan_create_positions(struct magnus_spgemm_plan_s *p,
                                           const struct magnus_device_csr_s *A,
                                           const struct magnus_device_csr_s *B,
                                           const magnus_spgemm_options *opt) {
    magnus_spgemm_options o;
    magnus_spgemm_options_init(&o);
    if (opt) o.algorithm = opt->algorithm;
    magnus_device_csr C = NULL;
    magnus_status s = magnus_spgemm_dispatch(&C, p->ctx, A, B, &o, &p->symbolic, true, NULL);
    if (s) return s;
    p->algorithm = p->symbolic.algorithm;
    p->nnz = C->nnz;
    p->reason = "a plan of product positions: one pass over the products per execution";
    if ((uint64_t)C->nnz > UINT32_MAX) { /* positions up to nnz(C) - 1 must fit 32 bits */
        p->reason = "a plan of the hash numeric phase: nnz(C) reaches 2^32, past 32-bit "
                    "positions";
    } else if ((s = magnus_plan_positions_build(&p->pos, p->ctx, A, B, C)) ==
               MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY) {
        magnus_error_clear();
        s = MAGNUS_SUCCESS;
        p->reason = "a plan of the hash numeric phase: no device memory for the products' "
                    "positions";
    } else if (!s) {
        p->by_positions = 1;
    }
    if (!s) {
        p->row_ptr = C->row_ptr; /* C's row pointers are the plan's now */
        memset(&C->row_ptr, 0, sizeof C->row_ptr);
        if (!p->by_positions) p->algorithm = MAGNUS_ALGORITHM_HASH; /* what execute runs */
    }
    magnus_device_csr_destroy(&C);
    return s;
}

magnus_status magnus_spgemm_plan_create(magnus_spgemm_plan *plan, magnus_context ctx,
                                        const magnus_device_csr A, const magnus_device_csr B,
                                        const magnus_spgemm_options *opt) {
    magnus_error_clear();
    if (!plan)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_spgemm_plan_create: plan is NULL");
    *plan = NULL;
    magnus_status s;
    if ((s = magnus_context_check(ctx)) || (s = magnus_device_csr_check(A, ctx, "A")) ||
        (s = magnus_device_csr_check(B, ctx, "B")))
        return s;
    /* any algorithm the options may name (AUTO, the default, included): it makes C's structure
     * for a plan of positions */
    if (opt && !magnus_algorithm_name(opt->algorithm))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "unknown SpGEMM algorithm %d",
                            (int)opt->algorithm);
    double alpha = opt ? opt->alpha : 1.0;
    if (!isfinite(alpha))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "alpha is %g; C = alpha*A*B needs a finite alpha", alpha);
    if (A->cols != B->rows)
        return magnus_error(MAGNUS_ERROR_DIMENSION_MISMATCH,
                            "A is %lld x %lld but B is %lld x %lld (A.cols must equal B.rows)",
                            (long long)A->rows, (long long)A->cols, (long long)B->rows,
                            (long long)B->cols);
    if (A->type != B->type)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE,
                            "A and B hold different value types; convert one of them");
    if (A->type == MAGNUS_FLOAT64 && !ctx->device.fp64)
        return magnus_error(MAGNUS_ERROR_FEATURE_UNSUPPORTED,
                            "device \"%s\" has no double precision; use float32 matrices",
                            ctx->device.name);
    struct magnus_spgemm_plan_s *p = magnus_host_calloc(1, sizeof *p);
    if (!p) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "SpGEMM plan handle");
    p->ctx = ctx;
    p->a_rows = A->rows, p->a_cols = A->cols, p->a_nnz = A->nnz;
    p->b_rows = B->rows, p->b_cols = B->cols, p->b_nnz = B->nnz;
    p->type = A->type;
    p->alpha = alpha;
    p->requested = opt ? opt->algorithm : MAGNUS_ALGORITHM_AUTO;
    uint64_t positions = 1;
    double t0 = magnus_now_ms();
    if ((s = magnus_env_uint("MAGNUS_PLAN_POSITIONS", 0, 1, true, &positions)) ||
        (s = magnus_device_csr_fingerprint(&p->a_fingerprint, A)) ||
        (s = magnus_device_csr_fingerprint(&p->b_fingerprint, B)) ||
        (s = magnus_context_finish(ctx)))
        goto fail;
    if (positions) {
        s = plan_create_positions(p, A, B, opt);
    } else {
        p->algorithm = MAGNUS_ALGORITHM_HASH;
        p->reason = "a plan of the hash algorithm's phases (MAGNUS_PLAN_POSITIONS=0)";
        s = magnus_spgemm_c_fits(ctx, A, B); /* the positions' plan checks it in its multiply */
        if (!s) s = plan_symbolic(p, A, B);
    }
    if (s) goto fail;
    p->symbolic.time_total_ms = magnus_now_ms() - t0;
    plan_report_algorithm(&p->symbolic, p);
    p->symbolic.nnz_c = p->nnz;
    p->magic = MAGNUS_MAGIC_SPGEMM_PLAN;
    *plan = p;
    return MAGNUS_SUCCESS;
fail:
    magnus_host_free(p);
    return s;
}

/* The positions kind's numeric phase: one pass over the products into `into` or a new C. */
static magnus_status positions_numeric(magnus_device_csr *C, const struct magnus_spgemm_plan_s *p,
                                       const struct magnus_device_csr_s *A,
                                       const struct magnus_device_csr_s *B,
                                       struct magnus_device_csr_s *into,
                                       magnus_report_run_section *rep) {
    magnus_context ctx = p->ctx;
    magnus_device_csr dC = NULL;
    if (C) *C = NULL;
    rep->rows_total = A->rows;
    double t = magnus_now_ms();
    magnus_status s =
        magnus_spgemm_numeric_target(&dC, into, ctx, p->a_rows, p->b_cols, p->type, p->nnz);
    rep->time_alloc_ms = magnus_now_ms() - t;
    t = magnus_now_ms();
    if (!s && !(s = magnus_plan_positions_numeric(ctx, &p->pos, A, B, &p->row_ptr, dC)))
        s = magnus_context_finish(ctx);
    rep->time_numeric_ms = magnus_now_ms() - t;
    rep->nnz_c = s ? 0 : p->nnz;
    return magnus_spgemm_numeric_done(C, &dC, into, ctx, s);
}

/* C's values (and a copy of the plan's structure) by the plan's kind: into `into` when not
 * NULL, else into a new matrix *C; the phase's section into rep. Returns with the queues
 * idle. */
static magnus_status plan_numeric(magnus_device_csr *C, const struct magnus_spgemm_plan_s *p,
                                  const struct magnus_device_csr_s *A,
                                  const struct magnus_device_csr_s *B,
                                  struct magnus_device_csr_s *into, magnus_report *rep) {
    magnus_spgemm_section section;
    magnus_spgemm_section_begin(&section, p->ctx);
    magnus_status s =
        p->by_positions
            ? positions_numeric(C, p, A, B, into, &section.run)
            : magnus_spgemm_algorithm_of(p->algorithm)
                  ->numeric(C, p->ctx, A, B, &p->row_ptr, p->nnz, into, &section);
    magnus_spgemm_section_end(rep, &section, p->ctx, p->algorithm);
    return s;
}

/* The operand has the structure the plan was made for. */
static magnus_status operand_matches(struct magnus_device_csr_s *X, const char *name,
                                     int64_t rows, int64_t cols, int64_t nnz,
                                     magnus_value_type type, uint64_t fingerprint) {
    if (X->rows != rows || X->cols != cols)
        return magnus_error(MAGNUS_ERROR_DIMENSION_MISMATCH,
                            "%s is %lld x %lld but the plan was made for %lld x %lld", name,
                            (long long)X->rows, (long long)X->cols, (long long)rows,
                            (long long)cols);
    if (X->type != type)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE,
                            "%s holds %s values but the plan was made for %s", name,
                            X->type == MAGNUS_FLOAT64 ? "float64" : "float32",
                            type == MAGNUS_FLOAT64 ? "float64" : "float32");
    if (X->nnz != nnz)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s has %lld entries but the plan was made for a structure of %lld",
                            name, (long long)X->nnz, (long long)nnz);
    uint64_t f;
    magnus_status s = magnus_device_csr_fingerprint(&f, X);
    if (s) return s;
    if (f != fingerprint)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s's structure (row pointers or column indices) differs from the "
                            "one the plan was made for; make a new plan",
                            name);
    return MAGNUS_SUCCESS;
}

/* The plan is live and A, B are on its context with the structure it was made for. */
static magnus_status plan_operands_check(const magnus_spgemm_plan plan, const magnus_device_csr A,
                                         const magnus_device_csr B) {
    magnus_status s;
    if ((s = plan_check(plan)) || (s = magnus_device_csr_check(A, plan->ctx, "A")) ||
        (s = magnus_device_csr_check(B, plan->ctx, "B")) ||
        (s = operand_matches(A, "A", plan->a_rows, plan->a_cols, plan->a_nnz, plan->type,
                             plan->a_fingerprint)) ||
        (s = operand_matches(B, "B", plan->b_rows, plan->b_cols, plan->b_nnz, plan->type,
                             plan->b_fingerprint)))
        return s;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_spgemm_plan_execute(magnus_device_csr *C, const magnus_spgemm_plan plan,
                                         const magnus_device_csr A, const magnus_device_csr B,
                                         magnus_report *report) {
    double t0 = magnus_now_ms();
    magnus_report local, *rep = magnus_spgemm_entry_begin(report, &local);
    if (!C)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_spgemm_plan_execute: C is NULL");
    *C = NULL;
    magnus_status s;
    if ((s = plan_operands_check(plan, A, B))) return s;
    magnus_trace_mark(plan->ctx, "plan execute");
    if ((s = magnus_context_finish(plan->ctx)) || (s = plan_numeric(C, plan, A, B, NULL, rep)))
        goto done;
    if (plan->alpha != 1.0) {
        double t = magnus_now_ms();
        if ((s = magnus_device_csr_scale(*C, MAGNUS_QUEUE_MAIN, plan->alpha)))
            magnus_device_csr_destroy(C);
        rep->time_numeric_ms += magnus_now_ms() - t;
    }
done:
    plan_report_algorithm(rep, plan);
    magnus_trace_event(plan->ctx, "mark", "end", magnus_now_ms(), 0);
    rep->time_total_ms = magnus_now_ms() - t0;
    return s;
}

magnus_status magnus_spgemm_plan_execute_into(magnus_device_csr C, const magnus_spgemm_plan plan,
                                              const magnus_device_csr A,
                                              const magnus_device_csr B, magnus_report *report) {
    double t0 = magnus_now_ms();
    magnus_report local, *rep = magnus_spgemm_entry_begin(report, &local);
    magnus_status s;
    if ((s = plan_check(plan)) || (s = magnus_device_csr_check(C, plan->ctx, "C")) ||
        (s = plan_operands_check(plan, A, B)))
        return s;
    if (C->rows != plan->a_rows || C->cols != plan->b_cols)
        return magnus_error(MAGNUS_ERROR_DIMENSION_MISMATCH,
                            "C is %lld x %lld but the plan makes %lld x %lld", (long long)C->rows,
                            (long long)C->cols, (long long)plan->a_rows, (long long)plan->b_cols);
    if (C->type != plan->type)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "C holds another value type than the "
                                                           "plan's");
    if (C->nnz != plan->nnz)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "C has room for %lld entries but the plan's product has %lld",
                            (long long)C->nnz, (long long)plan->nnz);
    if (C == A || C == B)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "C must not be one of the operands");
    magnus_trace_mark(plan->ctx, "plan execute into");
    /* C's structure is rewritten (to the plan's, the same when C came from this plan) */
    C->fingerprint_known = 0;
    if (!(s = magnus_context_finish(plan->ctx)) &&
        !(s = plan_numeric(NULL, plan, A, B, C, rep)) &&
        plan->alpha != 1.0) {
        double t = magnus_now_ms();
        s = magnus_device_csr_scale(C, MAGNUS_QUEUE_MAIN, plan->alpha);
        rep->time_numeric_ms += magnus_now_ms() - t;
    }
    plan_report_algorithm(rep, plan);
    magnus_trace_event(plan->ctx, "mark", "end", magnus_now_ms(), 0);
    rep->time_total_ms = magnus_now_ms() - t0;
    return s;
}

magnus_status magnus_spgemm_plan_info_get(magnus_spgemm_plan_info *out,
                                          const magnus_spgemm_plan plan) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_spgemm_plan_info_get: NULL");
    magnus_status s = plan_check(plan);
    if (s) return s;
    memset(out, 0, sizeof *out);
    out->rows = plan->a_rows;
    out->cols = plan->b_cols;
    out->nnz = plan->nnz;
    out->type = plan->type;
    out->algorithm = plan->algorithm;
    out->alpha = plan->alpha;
    out->device_bytes = plan->row_ptr.bytes + magnus_plan_positions_bytes(&plan->pos);
    out->positions = plan->by_positions ? plan->pos.products : 0;
    out->symbolic = plan->symbolic;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_spgemm_plan_free(magnus_spgemm_plan *plan) {
    if (!plan || !*plan) return MAGNUS_SUCCESS;
    struct magnus_spgemm_plan_s *p = *plan;
    if (p->magic != MAGNUS_MAGIC_SPGEMM_PLAN)
        return magnus_error(MAGNUS_ERROR_INVALID_HANDLE,
                            "the SpGEMM plan is not a live magnus_spgemm_plan (freed or never "
                            "created)");
    magnus_dbuf_free(p->ctx, &p->row_ptr);
    magnus_plan_positions_free(p->ctx, &p->pos);
    p->magic = MAGNUS_MAGIC_FREED;
    magnus_host_free(p);
    *plan = NULL;
    return MAGNUS_SUCCESS;
}

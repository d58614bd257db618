/*
 * `magnus bench --plan`: what a re-execution of a SpGEMM plan costs against a full multiply,
 * for one magnus system on one input (issue 16). Timed the way bench_magnus.c times the
 * multiply: A and B uploaded once (not timed), the plan made once (plan_create_ms, host clock),
 * one warm-up, then the runs, each the host wall clock around one call that returns once the
 * device is done.
 *
 * A reuse workload (an iterative method, a time step, a Newton iteration) keeps its C and
 * overwrites it, so the timed call is magnus_spgemm_plan_execute_into into the warm-up's C:
 * the numeric phase alone, nothing allocated.
 *
 * So that a plan that does not really recompute cannot pass: the warm-up runs on the uploaded
 * values, then new values (A times A_SCALE, B times B_SCALE) are written with
 * magnus_device_csr_write_values, and the C of the last timed run is verified against the
 * product of the new values. The warm-up's C, left unchanged, would be off by that factor.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* Powers of two: scaling by them is exact in binary floating point, so the product of the
 * scaled operands, summed in any order, is exactly A_SCALE·B_SCALE times the product of the
 * originals summed in that order. Dividing the plan's C by the factor (exact too) and checking
 * it against the input's reference and |A|·|B| is therefore the same check as against the
 * reference of the new values, without a second CPU multiply. */
#define A_SCALE 2.0
#define B_SCALE 4.0

typedef struct plan_state {
    magnus_device_csr dA, dB, dC; /* dB == dA for squares, as in the timed multiplies */
    magnus_spgemm_plan plan;
} plan_state;

static bool plan_fail(bench_plan_result *p, const char *what, magnus_status s) {
    snprintf(p->note, sizeof p->note, "plan %s: %s: %s", what, magnus_status_string(s),
             magnus_last_error());
    return false;
}

static void progress_update(const bench_plan *timing, const bench_system *sys, int run, int runs) {
    if (!timing->progress) return;
    char what[256];
    if (run == 0)
        snprintf(what, sizeof what, "%.90s: %s plan warm-up", timing->label, sys->id);
    else
        snprintf(what, sizeof what, "%.90s: %s plan run %d/%d", timing->label, sys->id, run, runs);
    cli_progress_update(timing->progress, runs ? (double)run / runs : 1.0, what);
}

/* Multiplies nnz host values by k. */
static void scale_values(void *values, int64_t nnz, magnus_value_type type, double k) {
    if (type == MAGNUS_FLOAT64) {
        double *v = values;
        for (int64_t e = 0; e < nnz; e++) v[e] *= k;
    } else {
        float *v = values;
        for (int64_t e = 0; e < nnz; e++) v[e] *= (float)k;
    }
}

/* dM's values become M's times k (M itself is left as it is: other systems use it). */
static bool write_scaled(bench_plan_result *p, magnus_device_csr dM, const magnus_csr_s *M,
                         double k, const char *name) {
    size_t bytes = (size_t)M->nnz * magnus_value_size(M->type);
    void *values = malloc(bytes ? bytes : 1);
    if (!values) {
        snprintf(p->note, sizeof p->note, "plan: out of host memory for %s's new values", name);
        return false;
    }
    if (bytes) memcpy(values, M->values, bytes);
    scale_values(values, M->nnz, M->type, k);
    magnus_status s = magnus_device_csr_write_values(dM, values, M->nnz, M->type);
    free(values);
    if (s) {
        char what[64];
        snprintf(what, sizeof what, "writing %s's new values", name);
        return plan_fail(p, what, s);
    }
    return true;
}

static bool upload(bench_plan_result *p, plan_state *st, bench_system *sys, const bench_data *d) {
    magnus_status s;
    if ((s = magnus_device_csr_upload(&st->dA, sys->ctx, d->A))) return plan_fail(p, "upload A", s);
    if (d->B == d->A) st->dB = st->dA;
    else if ((s = magnus_device_csr_upload(&st->dB, sys->ctx, d->B)))
        return plan_fail(p, "upload B", s);
    return true;
}

static bool create(bench_plan_result *p, plan_state *st, bench_system *sys) {
    magnus_spgemm_options opt;
    magnus_spgemm_options_init(&opt);
    opt.algorithm = sys->algorithm;
    double t0 = cli_now();
    magnus_status s = magnus_spgemm_plan_create(&st->plan, sys->ctx, st->dA, st->dB, &opt);
    p->create_ms = (cli_now() - t0) * 1e3;
    if (s) {
        p->create_ms = NAN;
        return plan_fail(p, "create", s);
    }
    magnus_spgemm_plan_info info;
    if ((s = magnus_spgemm_plan_info_get(&info, st->plan))) return plan_fail(p, "info", s);
    p->device_bytes = info.device_bytes;
    return true;
}

/* The warm-up (on the uploaded values) makes the C the timed runs overwrite. */
static bool warm_up(bench_plan_result *p, plan_state *st) {
    magnus_status s = magnus_spgemm_plan_execute(&st->dC, st->plan, st->dA, st->dB, NULL);
    return s ? plan_fail(p, "execute (warm-up)", s) : true;
}

static bool write_new_values(bench_plan_result *p, plan_state *st, const bench_data *d) {
    if (!write_scaled(p, st->dA, d->A, A_SCALE, "A")) return false;
    return st->dB == st->dA || write_scaled(p, st->dB, d->B, B_SCALE, "B");
}

static bool time_runs(bench_plan_result *p, plan_state *st, const bench_system *sys,
                      const bench_plan *timing) {
    bench_samples samples = {0};
    bool ok = true;
    double timed = 0;
    for (int r = 1; ok && r <= timing->runs; r++) {
        progress_update(timing, sys, r, timing->runs);
        double t0 = cli_now();
        magnus_status s = magnus_spgemm_plan_execute_into(st->dC, st->plan, st->dA, st->dB, NULL);
        double ms = (cli_now() - t0) * 1e3;
        if (s) ok = plan_fail(p, "execute_into (timed run)", s);
        else if (!bench_samples_add(&samples, ms)) {
            snprintf(p->note, sizeof p->note, "plan: out of host memory");
            ok = false;
        }
        timed += ms * 1e-3;
        if (bench_plan_stop(timing, r, timed)) break;
    }
    if (ok) {
        p->runs = samples.count;
        p->execute = bench_samples_stats(&samples);
    }
    bench_samples_free(&samples);
    return ok;
}

/* The last run's C, divided by the operands' scale, against the input's product. */
static void verify(bench_plan_result *p, const plan_state *st, const bench_data *d,
                   bool use_reference, double rtol, uint64_t seed) {
    magnus_csr C = NULL;
    magnus_status s = magnus_device_csr_download(&C, st->dC);
    if (s) {
        plan_fail(p, "download C", s);
        return;
    }
    const double factor = st->dB == st->dA ? A_SCALE * A_SCALE : A_SCALE * B_SCALE;
    scale_values(C->values, C->nnz, C->type, 1.0 / factor);
    bench_check c;
    if (use_reference) bench_check_reference(&c, C, d->ref, d->magnitude, rtol);
    else bench_check_random(&c, NULL, NULL, C, d->A, d->B, rtol, seed);
    magnus_csr_free(&C);
    p->verified = c.passed ? "yes" : "no";
    snprintf(p->verify_method, sizeof p->verify_method, "%s", c.method);
    p->max_rel_error = c.max_rel_error;
    if (!c.passed) snprintf(p->note, sizeof p->note, "%s", c.note);
}

static void plan_result_init(bench_plan_result *p) {
    memset(p, 0, sizeof *p);
    p->ran = true;
    p->create_ms = p->max_rel_error = p->ratio = NAN;
    p->execute = (bench_stats){NAN, NAN, NAN, NAN};
    p->verified = "n/a";
}

void bench_plan_measure(bench_row *row, bench_system *sys, const bench_data *d,
                        const bench_plan *timing, bool use_reference, double rtol, uint64_t seed) {
    bench_plan_result *p = &row->plan;
    plan_result_init(p);
    plan_state st = {0};
    progress_update(timing, sys, 0, timing->runs);
    if (upload(p, &st, sys, d) && create(p, &st, sys) && warm_up(p, &st) &&
        write_new_values(p, &st, d) && time_runs(p, &st, sys, timing)) {
        p->ratio = row->time.mean > 0 ? p->execute.mean / row->time.mean : NAN;
        verify(p, &st, d, use_reference, rtol, seed);
    }
    if (timing->progress) cli_progress_done(timing->progress);
    magnus_device_csr_free(&st.dC);
    magnus_spgemm_plan_free(&st.plan);
    if (st.dB != st.dA) magnus_device_csr_free(&st.dB);
    magnus_device_csr_free(&st.dA);
    /* as after the multiply: the kept memory goes back before the next system runs */
    magnus_status s = magnus_context_trim(sys->ctx);
    if (s && !p->note[0]) plan_fail(p, "giving back kept device memory", s);
}

/*
 * One magnus system on one input, timed as the paper did: A and B uploaded once (not timed),
 * one warm-up multiply, then `runs` multiplies of device-resident inputs, each timed end to
 * end on the host clock around magnus_spgemm_device (which returns once the device is done:
 * setup, symbolic, numeric, allocation of C and of every work buffer, freeing the work
 * buffers). C is freed between runs, outside the timed region. The report's phase times are
 * averaged over the timed runs; with --unreported the timed runs pass no report (a library
 * caller's multiply, without the phases' device timers) and the report is that of one more,
 * untimed run after them. Every timed run's C, after its timing, is compared with the
 * warm-up's (the verified C) by its device fingerprint C·x (bench_fingerprint.c: only C.rows
 * values downloaded); one that differs is downloaded and compared by checksum, or checked on
 * its own (bench_runs_check_add).
 */
#include <math.h>
#include <string.h>

#include "bench.h"

static void fail(bench_row *row, const char *what, magnus_status s) {
    row->status = "failed";
    snprintf(row->failure, sizeof row->failure, "%s: %s: %s", what, magnus_status_string(s),
             magnus_last_error());
}

static int progress_update(const bench_plan *plan, const bench_system *sys, int run, int runs) {
    if (!plan->progress) return 1;
    char what[256];
    if (run == 0)
        snprintf(what, sizeof what, "%.90s: %s warm-up", plan->label, sys->id);
    else
        snprintf(what, sizeof what, "%.90s: %s run %d/%d", plan->label, sys->id, run, runs);
    return cli_progress_update(plan->progress, runs ? (double)run / runs : 1.0, what);
}

/* Adds the phase times of `r` into `sum` (parameters and sizes: the latest run's). */
static void accumulate(magnus_report *sum, const magnus_report *r) {
    magnus_report t = *sum;
    *sum = *r;
    sum->time_total_ms += t.time_total_ms;
    sum->time_setup_ms += t.time_setup_ms;
    sum->time_csr2csc_ms += t.time_csr2csc_ms;
    sum->time_outer_product_ms += t.time_outer_product_ms;
    for (int L = 0; L < MAGNUS_MAX_LEVELS; L++) {
        sum->time_histogram_ms[L] += t.time_histogram_ms[L];
        sum->time_multisplit_ms[L] += t.time_multisplit_ms[L];
    }
    sum->time_symbolic_ms += t.time_symbolic_ms;
    sum->time_numeric_ms += t.time_numeric_ms;
    sum->time_alloc_ms += t.time_alloc_ms;
    sum->time_batch_ms += t.time_batch_ms;
    sum->peak_device_bytes = r->peak_device_bytes > t.peak_device_bytes ? r->peak_device_bytes
                                                                         : t.peak_device_bytes;
    sum->reserved_device_bytes = r->reserved_device_bytes > t.reserved_device_bytes
                                     ? r->reserved_device_bytes
                                     : t.reserved_device_bytes;
}

static void divide(magnus_report *r, int runs) {
    double k = 1.0 / runs;
    r->time_total_ms *= k;
    r->time_setup_ms *= k;
    r->time_csr2csc_ms *= k;
    r->time_outer_product_ms *= k;
    for (int L = 0; L < MAGNUS_MAX_LEVELS; L++) {
        r->time_histogram_ms[L] *= k;
        r->time_multisplit_ms[L] *= k;
    }
    r->time_symbolic_ms *= k;
    r->time_numeric_ms *= k;
    r->time_alloc_ms *= k;
    r->time_batch_ms *= k;
}

void bench_magnus_run(bench_row *row, bench_system *sys, const bench_data *d,
                      const bench_plan *plan, magnus_csr *C) {
    magnus_device_csr dA = NULL, dB = NULL, dC = NULL;
    bench_fingerprint fp = {0};
    bench_samples samples = {0};
    magnus_spgemm_options opt;
    magnus_spgemm_options_init(&opt);
    opt.algorithm = sys->algorithm;
    magnus_status s;
    const double t_upload = cli_now();
    if ((s = magnus_device_csr_upload(&dA, sys->ctx, d->A))) {
        fail(row, "upload A", s);
        goto done;
    }
    if (d->B == d->A) {
        dB = dA;
    } else if ((s = magnus_device_csr_upload(&dB, sys->ctx, d->B))) {
        fail(row, "upload B", s);
        goto done;
    }
    row->upload_ms = (cli_now() - t_upload) * 1e3;

    magnus_report report;
    progress_update(plan, sys, 0, plan->runs);
    double t_first = cli_now();
    s = magnus_spgemm_device(&dC, sys->ctx, dA, dB, &opt, &report);
    row->first_ms = (cli_now() - t_first) * 1e3;
    row->first_kernel_load_ms = s ? NAN : report.time_kernel_load_ms;
    if (s) {
        fail(row, "multiply", s);
        goto done;
    }
    int64_t nnz_c = 0;
    magnus_device_csr_shape(NULL, NULL, &nnz_c, dC);
    row->nnz_c = nnz_c;
    const double t_download = cli_now();
    if (C && (s = magnus_device_csr_download(C, dC))) {
        fail(row, "download C", s);
        goto done;
    }
    if (C) row->download_ms = (cli_now() - t_download) * 1e3;
    if (C) bench_runs_check_first(&row->runs_check, *C, false);
    /* the randomized check's C·x while C is still on the device (freed before the timed runs,
     * so it does not count in their peak) */
    if (C && plan->random_check) {
        const double t_check = cli_now();
        bench_check_random(&row->device_check, sys->ctx, dC, *C, d->A, d->B, plan->rtol,
                           plan->seed);
        row->has_device_check = true;
        row->verify_seconds += cli_now() - t_check;
    }
    /* the verified C's device fingerprint, against which each timed run's C is compared */
    bool fingerprint = false;
    if (C) {
        const double t_check = cli_now();
        magnus_status fs = bench_fingerprint_init(&fp, sys->ctx, dC, (*C)->type, plan->seed);
        fingerprint = fs == MAGNUS_SUCCESS;
        if (!fingerprint)
            snprintf(row->runs_check.fingerprint_note, sizeof row->runs_check.fingerprint_note,
                     "no device fingerprint (%s: %.80s): every run's C downloaded",
                     magnus_status_string(fs), magnus_last_error());
        row->runs_check.seconds += cli_now() - t_check;
    }
    magnus_device_csr_free(&dC);

    magnus_report sum;
    memset(&sum, 0, sizeof sum);
    double timed = 0;
    for (int r = 1; r <= plan->runs; r++) {
        progress_update(plan, sys, r, plan->runs);
        double t0 = cli_now();
        s = magnus_spgemm_device(&dC, sys->ctx, dA, dB, &opt, plan->unreported ? NULL : &report);
        double ms = (cli_now() - t0) * 1e3;
        if (s) {
            fail(row, "multiply (timed run)", s);
            goto done;
        }
        int64_t nnz_run = 0;
        magnus_device_csr_shape(NULL, NULL, &nnz_run, dC);
        if (C) { /* this run's C, untimed: the warm-up's bit for bit, or checked on its own */
            const double t_check = cli_now();
            bool same = false;
            if (fingerprint && (s = bench_fingerprint_same(&same, &fp, dC))) {
                fail(row, "C·x fingerprint of a timed run's C", s);
                goto done;
            }
            if (same) {
                bench_runs_check_same(&row->runs_check);
            } else { /* downloaded: the same checksum, or its own check */
                magnus_csr Crun = NULL;
                if ((s = magnus_device_csr_download(&Crun, dC))) {
                    fail(row, "download C (timed run)", s);
                    goto done;
                }
                bench_runs_check_add(&row->runs_check, Crun, d, plan, r);
                magnus_csr_free(&Crun);
            }
            row->runs_check.seconds += cli_now() - t_check;
        }
        magnus_device_csr_free(&dC);
        if (nnz_run != nnz_c) {
            row->status = "failed";
            snprintf(row->failure, sizeof row->failure,
                     "run %d gave nnz(C) = %lld, the warm-up %lld (not deterministic)", r,
                     (long long)nnz_run, (long long)nnz_c);
            row->verified = "no";
            goto done;
        }
        if (!bench_samples_add(&samples, ms)) {
            snprintf(row->failure, sizeof row->failure, "out of host memory");
            goto done;
        }
        if (!plan->unreported) accumulate(&sum, &report);
        timed += ms * 1e-3;
        if (bench_plan_stop(plan, r, timed)) break;
    }
    row->runs = samples.count;
    row->time = bench_samples_stats(&samples);
    int reported = row->runs;
    if (plan->unreported && row->runs > 0) { /* the report's run, untimed, its C unchecked */
        if ((s = magnus_spgemm_device(&dC, sys->ctx, dA, dB, &opt, &report))) {
            fail(row, "multiply (the report's run after --unreported)", s);
            goto done;
        }
        magnus_device_csr_free(&dC);
        accumulate(&sum, &report);
        reported = 1;
    }
    if (reported > 0) divide(&sum, reported);
    row->report = sum;
    row->has_report = row->runs > 0;
    /* the device footprint: what the allocator held, when it kept more than the buffers */
    row->peak_device_bytes = sum.peak_device_bytes > sum.reserved_device_bytes
                                 ? sum.peak_device_bytes
                                 : sum.reserved_device_bytes;
    row->gflops = row->time.mean > 0 ? 2.0 * (double)d->products / (row->time.mean * 1e6) : NAN;
    row->status = "ok";
    row->failure[0] = 0;
    bench_floors_fill(row, d);
done:
    if (plan->progress) cli_progress_done(plan->progress);
    magnus_device_csr_free(&dC);
    bench_fingerprint_free(&fp);
    if (dB != dA) magnus_device_csr_free(&dB);
    magnus_device_csr_free(&dA);
    /* the memory kept for reuse goes back before the next system (cuSPARSE in the same
     * process, or the next input) runs; its bytes were in this system's peak */
    if ((s = magnus_context_trim(sys->ctx)) && row->status && !strcmp(row->status, "ok"))
        fail(row, "giving back kept device memory", s);
    bench_samples_free(&samples);
}

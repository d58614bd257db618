/*
 * One input through every system: load (or generate), decide what runs (product filters, the
 * device-memory estimate, the time limit), run the magnus systems then the baselines, check
 * every C, compute speedups, write the rows.
 *
 * Verification order for each C: the CPU reference when the input has at most --verify-limit
 * products; otherwise the baseline's C (when a baseline ran, and the magnus C could be kept
 * on the host until then) plus the randomized check; otherwise the randomized check alone.
 * A baseline's own C is checked against the reference, or by the randomized check. Every
 * timed run's C is compared with the verified one by checksum, or checked on its own
 * (bench_runs_check). Speedups are set last, between rows whose every C verified.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define ONE_GIB (1024.0 * 1024.0 * 1024.0)

typedef struct pending {
    magnus_csr C; /* a magnus C waiting for the baseline's */
} pending;

static bool is_ok(const bench_row *r) { return !strcmp(r->status, "ok"); }

static void skip(bench_row *row, const char *fmt, const char *why) {
    row->status = "skipped";
    snprintf(row->failure, sizeof row->failure, fmt, why);
}

/* Host seconds since `t0`, added to the row's verification time. */
static void add_verify_time(bench_row *row, double t0) { row->verify_seconds += cli_now() - t0; }

static void record_check(bench_session *s, bench_row *row, const bench_check *c) {
    row->verified = c->passed ? "yes" : "no";
    snprintf(row->verify_method, sizeof row->verify_method, "%s", c->method);
    row->max_rel_error = c->max_rel_error;
    snprintf(row->verify_note, sizeof row->verify_note, "%s", c->note);
    if (!c->passed) {
        s->mismatches++;
        fprintf(stderr, "magnus bench: MISMATCH: %s on %s (%s check): %s\n", row->system->id,
                row->input->name, c->method, c->note);
    }
}

/* Every timed run's C (bench_runs_check): one that differs from the verified C and fails its
 * own check makes the row verified=no, as a wrong warm-up C would. */
static void record_timed_runs(bench_session *s, bench_row *row) {
    const bench_runs_check *rc = &row->runs_check;
    if (!is_ok(row) || rc->failed == 0 || !strcmp(row->verified, "no")) return;
    row->verified = "no";
    snprintf(row->verify_note, sizeof row->verify_note, "%s", rc->note);
    s->mismatches++;
    fprintf(stderr, "magnus bench: MISMATCH: %s on %s: %s\n", row->system->id, row->input->name,
            rc->note);
}

static bool verified(const bench_row *r) { return is_ok(r) && !strcmp(r->verified, "yes"); }

/* The speedups of the magnus rows over each kind of baseline (cusparse@: baseline, speedup;
 * cusparse-pool@: baseline_pool, speedup_pool), of the mean, median and fastest runs. Only
 * between rows whose every C verified: another row gets none, and speedup_note says why. */
static void set_speedups(bench_row *rows, int n) {
    for (int k = 0; k < n; k++) {
        bench_row *m = &rows[k];
        if (m->system->kind != BENCH_SYSTEM_MAGNUS || !is_ok(m)) continue;
        size_t used = 0;
        for (int b = 0; b < n; b++) {
            const bench_row *q = &rows[b];
            if (q->system->kind != BENCH_SYSTEM_CUSPARSE || !is_ok(q)) continue;
            const char *why = !verified(m) ? "this row's C did not verify"
                              : !verified(q) ? "the baseline's C did not verify"
                              : !(q->time.mean > 0 && m->time.mean > 0) ? "no time"
                                                                        : NULL;
            if (why) {
                if (used < sizeof m->speedup_note)
                    used += (size_t)snprintf(m->speedup_note + used, sizeof m->speedup_note - used,
                                             "%sno speedup over %s: %s", used ? "; " : "",
                                             q->system->id, why);
                continue;
            }
            const bool pool = q->system->pool;
            char *name = pool ? m->baseline_pool : m->baseline;
            if (name[0]) continue; /* the first of its kind */
            snprintf(name, sizeof m->baseline, "%s", q->system->id);
            *(pool ? &m->speedup_pool : &m->speedup) = q->time.mean / m->time.mean;
            *(pool ? &m->speedup_pool_median : &m->speedup_median) =
                q->time.median / m->time.median;
            *(pool ? &m->speedup_pool_min : &m->speedup_min) = q->time.min / m->time.min;
        }
    }
}

/* Randomized check of C, recorded under `method` (a prefix naming the checks combined). */
static void check_random(bench_session *s, bench_row *row, const bench_data *d,
                         const magnus_csr_s *C, double rtol, uint64_t seed, const char *method) {
    bench_check c;
    const double t0 = cli_now();
    if (row->has_device_check) c = row->device_check; /* C·x ran on the warm-up's device C */
    else bench_check_random(&c, NULL, NULL, C, d->A, d->B, rtol, seed);
    add_verify_time(row, t0);
    if (method) snprintf(c.method, sizeof c.method, "%.60s", method);
    record_check(s, row, &c);
}

/* --plan after the row's multiply; a wrong plan C counts as a mismatch (exit status 1), a
 * plan that fails only leaves its note: the multiply's row stands. */
static void measure_plan(bench_session *s, bench_row *row, bench_system *sys, bench_data *d,
                         const bench_plan *plan, bool use_reference, double rtol, uint64_t seed) {
    const bool reference = use_reference && bench_data_reference(d);
    bench_plan_measure(row, sys, d, plan, reference, rtol, seed + 1);
    if (strcmp(row->plan.verified, "no")) return;
    s->mismatches++;
    fprintf(stderr, "magnus bench: MISMATCH: %s on %s (plan, %s check): %s\n", sys->id,
            row->input->name, row->plan.verify_method, row->plan.note);
}

static double csr_host_bytes(const magnus_csr_s *C) {
    return (double)(C->rows + 1) * 8 + (double)C->nnz * (4.0 + (double)magnus_value_size(C->type));
}

/* --plan on the row's line: the re-execution's time and its ratio to the full multiply. */
static void print_plan(const bench_plan_result *p) {
    if (!p->ran) return;
    if (isfinite(p->execute.mean))
        fprintf(stderr, "; plan %.3f ms (median %.3f; create %.3f ms) = %.3fx the multiply, "
                        "verified %s",
                p->execute.mean, p->execute.median, p->create_ms, p->ratio, p->verified);
    if (p->note[0]) fprintf(stderr, "; plan: %.300s", p->note);
}

/* The bench's own host time on the row, outside every timed region: checking the verified C,
 * and downloading and checking every timed run's C. */
static void print_host_time(const bench_row *r) {
    const bench_runs_check *rc = &r->runs_check;
    fprintf(stderr, "; host: check %.2f s, timed runs' C %.2f s", r->verify_seconds, rc->seconds);
    if (rc->fingerprinted)
        fprintf(stderr, " (%d of %d the verified C's by device C·x fingerprint)",
                rc->fingerprinted, rc->checked);
    if (rc->own) fprintf(stderr, " (%d of %d not bit for bit, checked on their own)", rc->own,
                         rc->checked);
    if (rc->fingerprint_note[0]) fprintf(stderr, " (%s)", rc->fingerprint_note);
}

static void print_row(const bench_row *r, int index, int count) {
    fprintf(stderr, "[%d/%d] %-28s %-20s %-7s", index + 1, count, r->input->name, r->system->id,
            r->status);
    if (is_ok(r)) {
        fprintf(stderr, " %10.3f ms (median %.3f, min %.3f; %d runs) %8.2f GFLOP/s", r->time.mean,
                r->time.median, r->time.min, r->runs, r->gflops);
        if (r->variant[0]) fprintf(stderr, " [%s]", r->variant);
        if (isfinite(r->speedup)) fprintf(stderr, " speedup %.3fx", r->speedup);
        if (isfinite(r->speedup_pool)) fprintf(stderr, " (pool %.3fx)", r->speedup_pool);
        fprintf(stderr, " verified %s (%s)", r->verified, r->verify_method);
        print_plan(&r->plan);
        print_host_time(r);
    } else {
        fprintf(stderr, " %.300s", r->failure);
    }
    fputc('\n', stderr);
}

static void emit(bench_session *s, bench_row *rows, int index, int count) {
    for (int k = 0; k < s->nsystems; k++) {
        if (rows[k].system->kind == BENCH_SYSTEM_MAGNUS && !strcmp(rows[k].status, "failed"))
            s->magnus_failures++;
        print_row(&rows[k], index, count);
        if (!bench_output_add(&s->output, &rows[k]))
            fprintf(stderr, "magnus bench: out of host memory keeping the rows\n");
    }
    /* The JSON file is rewritten after every input, so a run cut short keeps its rows. */
    bench_output_write_json(&s->output, s->systems, s->nsystems, s->command, false);
    /* A failed write is told once, when it happens; the run goes on (the summary still
     * shows every row) and ends with exit status 1. */
    char why[BENCH_TEXT];
    if (!s->output.failure_told && bench_output_failure(&s->output, why, sizeof why)) {
        s->output.failure_told = true;
        cli_failf("%s (the run goes on; it will exit with status 1)", why);
    }
}

void bench_run_input(bench_session *s, const bench_input *in, int index, int count) {
    bench_row *rows = calloc((size_t)s->nsystems, sizeof *rows);
    pending *kept = calloc((size_t)s->nsystems, sizeof *kept);
    if (!rows || !kept) {
        fprintf(stderr, "magnus bench: out of host memory\n");
        free(rows);
        free(kept);
        return;
    }
    for (int k = 0; k < s->nsystems; k++) bench_row_init(&rows[k], in, &s->systems[k]);

    if (s->time_limit > 0 && cli_now() - s->started > s->time_limit) {
        char why[64];
        snprintf(why, sizeof why, "%g s", s->time_limit);
        for (int k = 0; k < s->nsystems; k++)
            skip(&rows[k], "time limit (--time-limit %.32s) reached before this input", why);
        emit(s, rows, index, count);
        free(rows);
        free(kept);
        return;
    }

    bench_data d;
    char why[BENCH_TEXT];
    fprintf(stderr, "[%d/%d] %s: loading\n", index + 1, count, in->name);
    if (!bench_data_load(&d, in, s->type, &s->cache, &s->progress, why, sizeof why)) {
        for (int k = 0; k < s->nsystems; k++) {
            rows[k].status = "failed";
            snprintf(rows[k].failure, sizeof rows[k].failure, "input: %.480s", why);
        }
        emit(s, rows, index, count);
        bench_data_free(&d, &s->cache);
        free(rows);
        free(kept);
        return;
    }
    for (int k = 0; k < s->nsystems; k++) bench_row_set_facts(&rows[k], &d);
    if ((double)d.products < s->min_products) {
        fprintf(stderr, "[%d/%d] %s: %lld products, fewer than --min-products: left out\n",
                index + 1, count, in->name, (long long)d.products);
        bench_data_free(&d, &s->cache);
        free(rows);
        free(kept);
        return;
    }
    fprintf(stderr, "[%d/%d] %s: %lld x %lld, nnz(A) %lld, nnz(B) %lld, %lld products (%.1f s)\n",
            index + 1, count, in->name, (long long)d.A->rows, (long long)d.B->cols,
            (long long)d.A->nnz, (long long)d.B->nnz, (long long)d.products, d.load_seconds);

    const uint64_t need = bench_data_need_bytes(&d);
    const double rtol = s->rtol > 0 ? s->rtol : bench_default_rtol(d.type);
    const uint64_t seed = 0x6d61676eull + (uint64_t)index;
    char label[200];
    snprintf(label, sizeof label, "input %d/%d %.120s", index + 1, count, in->name);
    bench_plan plan = {
        .runs = (double)d.products > s->large_products ? s->runs_large : s->runs,
        .max_timed_seconds = s->max_timed_seconds,
        .deadline = s->time_limit > 0 ? s->started + s->time_limit : 0,
        .progress = &s->progress,
        .label = label,
        .cusparse_time_all = s->cusparse_time_all,
        .unreported = s->unreported,
        .rtol = rtol,
        .seed = seed,
    };
    const bool use_reference = (double)d.products <= s->verify_limit;
    if (use_reference) { /* once per input, shared by every system: seconds on large inputs */
        fprintf(stderr, "[%d/%d] %s: CPU reference of %lld products (--verify-limit %.3g)\n",
                index + 1, count, in->name, (long long)d.products, s->verify_limit);
        bench_data_reference(&d);
        fprintf(stderr, "[%d/%d] %s: CPU reference %s (%.1f s)\n", index + 1, count, in->name,
                d.ref_status ? "failed: randomized checks instead" : "ready", d.ref_seconds);
    }
    plan.random_check = !use_reference || !bench_data_reference(&d);

    /* Which systems run at all. */
    bool will_run[BENCH_MAX_SYSTEMS] = {false};
    bool baseline_may_run = false;
    for (int k = 0; k < s->nsystems; k++) {
        const bench_system *sys = &s->systems[k];
        bench_row *row = &rows[k];
        if (sys->unavailable[0]) {
            row->status = "failed";
            snprintf(row->failure, sizeof row->failure, "unavailable: %.400s", sys->unavailable);
        } else if (s->max_products > 0 && (double)d.products > s->max_products) {
            snprintf(why, sizeof why, "%.3g", s->max_products);
            skip(row, "more products than --max-products %.64s", why);
        } else if (s->fit_check && sys->device_memory && (double)need > 0.95 * (double)sys->device_memory) {
            snprintf(why, sizeof why,
                     "estimated need %.1f GiB (inputs, C with nnz(C) <= %lld, C-hat of %lld "
                     "products) exceeds 95%% of device memory %.1f GiB",
                     (double)need / ONE_GIB, (long long)d.nnz_c_upper, (long long)d.products,
                     (double)sys->device_memory / ONE_GIB);
            skip(row, "C may not fit: %.400s (--no-fit-check to try)", why);
        } else {
            will_run[k] = true;
            if (sys->kind == BENCH_SYSTEM_CUSPARSE) baseline_may_run = true;
        }
    }

    /* magnus systems */
    double kept_bytes = 0;
    int64_t nnz_hint = -1;
    for (int k = 0; k < s->nsystems; k++) {
        bench_system *sys = &s->systems[k];
        bench_row *row = &rows[k];
        if (!will_run[k] || sys->kind != BENCH_SYSTEM_MAGNUS) continue;
        magnus_csr C = NULL;
        bench_magnus_run(row, sys, &d, &plan, &C);
        if (!is_ok(row)) {
            magnus_csr_free(&C);
            continue;
        }
        nnz_hint = row->nnz_c;
        if (use_reference && bench_data_reference(&d)) {
            bench_check c;
            const double t0 = cli_now();
            bench_check_reference(&c, C, d.ref, d.magnitude, rtol);
            add_verify_time(row, t0);
            record_check(s, row, &c);
        } else if (baseline_may_run && kept_bytes + csr_host_bytes(C) <= (double)s->host_limit) {
            kept_bytes += csr_host_bytes(C);
            kept[k].C = C; /* checked once the baseline's C exists */
            C = NULL;
        } else {
            check_random(s, row, &d, C, rtol, seed, NULL);
        }
        magnus_csr_free(&C);
        if (s->plan) measure_plan(s, row, sys, &d, &plan, use_reference, rtol, seed);
    }

    /* baselines */
    bool compared = false;
    for (int b = 0; b < s->nsystems; b++) {
        bench_system *sys = &s->systems[b];
        bench_row *row = &rows[b];
        if (!will_run[b] || sys->kind != BENCH_SYSTEM_CUSPARSE) continue;
        magnus_csr Cb = NULL;
        bench_cusparse_run(row, sys->cusparse, &d, &plan, nnz_hint, &Cb);
        if (is_ok(row) && Cb) {
            if (use_reference && bench_data_reference(&d)) {
                bench_check c;
                const double t0 = cli_now();
                bench_check_reference(&c, Cb, d.ref, d.magnitude, rtol);
                add_verify_time(row, t0);
                record_check(s, row, &c);
            } else {
                check_random(s, row, &d, Cb, rtol, seed, NULL);
            }
        }
        /* A baseline whose own C failed its check is no yardstick for magnus's. */
        const bool yardstick = is_ok(row) && Cb && !strcmp(row->verified, "yes");
        for (int k = 0; k < s->nsystems; k++) {
            bench_row *mr = &rows[k];
            if (s->systems[k].kind != BENCH_SYSTEM_MAGNUS || !is_ok(mr)) continue;
            if (!kept[k].C || compared || !yardstick) continue;
            bench_check c;
            const double t0 = cli_now();
            bench_check_baseline(&c, kept[k].C, Cb, d.nonnegative, rtol);
            add_verify_time(mr, t0);
            if (!c.passed) {
                record_check(s, mr, &c);
            } else {
                char method[80];
                snprintf(method, sizeof method, "%.48s+random", c.method);
                check_random(s, mr, &d, kept[k].C, rtol, seed, method);
                if (c.note[0] && !mr->verify_note[0])
                    snprintf(mr->verify_note, sizeof mr->verify_note, "%s", c.note);
            }
            magnus_csr_free(&kept[k].C);
        }
        if (yardstick) compared = true;
        magnus_csr_free(&Cb);
    }
    /* magnus C kept for a baseline that did not complete */
    for (int k = 0; k < s->nsystems; k++)
        if (kept[k].C) {
            check_random(s, &rows[k], &d, kept[k].C, rtol, seed, NULL);
            magnus_csr_free(&kept[k].C);
        }
    for (int k = 0; k < s->nsystems; k++) record_timed_runs(s, &rows[k]);
    set_speedups(rows, s->nsystems);

    emit(s, rows, index, count);
    bench_data_free(&d, &s->cache);
    free(rows);
    free(kept);
}

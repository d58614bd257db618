/*
 * The terminal summary of a bench: per system, how many inputs completed, failed, were
 * skipped or mismatched; per magnus system and baseline (cusparse@ and cusparse-pool@), the
 * geometric mean of the speedup (baseline time / magnus time) of the mean, median and fastest
 * runs, and the minimum and maximum of the means, over the inputs both completed with every C
 * verified (the others are counted as left out); with --plan, the same statistics of plan_ratio per magnus system. bench_ratios
 * (those statistics of a set of ratios) serves `--op spmv`'s summary too (bench_spmv_output.c).
 */
#include <math.h>
#include <string.h>

#include "bench.h"

static bool is_ok(const bench_row *r) { return !strcmp(r->status, "ok"); }
static bool verified(const bench_row *r) { return is_ok(r) && !strcmp(r->verified, "yes"); }

void bench_ratios_add(bench_ratios *r, double ratio, const char *at) {
    r->n++;
    r->log_sum += log(ratio);
    if (r->n == 1 || ratio < r->min) {
        r->min = ratio;
        r->min_at = at;
    }
    if (r->n == 1 || ratio > r->max) r->max = ratio;
}

void bench_ratios_print(FILE *out, const bench_ratios *r) {
    if (r->n == 0) fprintf(out, " %6d %9s\n", 0, "-");
    else
        fprintf(out, " %6d %8.3fx %8.3fx  %-28.28s %8.3fx\n", r->n, exp(r->log_sum / r->n),
                r->min, r->min_at ? r->min_at : "", r->max);
}

/* --plan: per magnus system, a re-execution's time over the full multiply's (plan_ratio),
 * over the inputs whose plan verified; nothing without --plan. */
static void print_plan_ratios(FILE *out, const bench_output *o, const bench_system *systems,
                              int nsystems) {
    bool any = false;
    for (int i = 0; i < o->count; i++) any = any || o->rows[i].plan.ran;
    if (!any) return;
    fprintf(out, "plan re-execution / full multiply of the same system (plan_ratio, verified "
                 "plans):\n");
    fprintf(out, "  %-22s %6s %9s %9s  %-28s %9s\n", "system", "inputs", "geomean", "min",
            "(at)", "max");
    for (int s = 0; s < nsystems; s++) {
        if (systems[s].kind != BENCH_SYSTEM_MAGNUS) continue;
        bench_ratios ratios = {0};
        for (int i = 0; i < o->count; i++) {
            const bench_row *r = &o->rows[i];
            if (r->system != &systems[s] || !r->plan.ran || strcmp(r->plan.verified, "yes") ||
                !(r->plan.ratio > 0))
                continue;
            bench_ratios_add(&ratios, r->plan.ratio, r->input->name);
        }
        fprintf(out, "  %-22s", systems[s].id);
        bench_ratios_print(out, &ratios);
    }
}

int bench_summary_print(FILE *out, const bench_output *o, const bench_system *systems,
                        int nsystems) {
    int mismatches = 0;
    int inputs = 0;
    for (int i = 0; i < o->count; i++)
        if (i == 0 || o->rows[i].input != o->rows[i - 1].input) inputs++;
    fprintf(out, "\nmagnus bench: %d input%s, %d system%s (time: mean of the runs, end to end, "
                 "inputs on the device)\n",
            inputs, inputs == 1 ? "" : "s", nsystems, nsystems == 1 ? "" : "s");
    fprintf(out, "  %-22s %-44s %5s %7s %8s %12s\n", "system", "device", "ok", "failed",
            "skipped", "verified=no");
    for (int s = 0; s < nsystems; s++) {
        int ok = 0, failed = 0, skipped = 0, bad = 0;
        for (int i = 0; i < o->count; i++) {
            const bench_row *r = &o->rows[i];
            if (r->system != &systems[s]) continue;
            if (is_ok(r)) ok++;
            else if (!strcmp(r->status, "skipped")) skipped++;
            else failed++;
            if (!strcmp(r->verified, "no")) bad++;
        }
        mismatches += bad;
        fprintf(out, "  %-22s %-44.44s %5d %7d %8d %12d\n", systems[s].id, systems[s].device_name,
                ok, failed, skipped, bad);
        if (systems[s].unavailable[0])
            fprintf(out, "    unavailable: %.300s\n", systems[s].unavailable);
    }
    print_plan_ratios(out, o, systems, nsystems);

    bool any_baseline = false;
    for (int b = 0; b < nsystems; b++)
        if (systems[b].kind == BENCH_SYSTEM_CUSPARSE) any_baseline = true;
    if (!any_baseline) {
        fprintf(out, "no baseline system: no speedups (cuSPARSE runs on CUDA devices only)\n");
        return mismatches;
    }
    fprintf(out, "speedup of magnus over each baseline = baseline time / magnus time, over the "
                 "inputs both completed with every C verified (a row that did not verify has "
                 "no speedup and is left out).\n"
                 "Headline: geomean of the MEAN run times; beside it the geomeans of the MEDIAN "
                 "and of the MINIMUM (fastest) runs; min/max of the means:\n");
    fprintf(out, "  %-22s %-24s %6s %9s %9s %9s %9s  %-28s %9s %9s\n", "system", "baseline",
            "inputs", "mean", "median", "minimum", "min", "(at)", "max", "left out");
    for (int s = 0; s < nsystems; s++) {
        if (systems[s].kind != BENCH_SYSTEM_MAGNUS) continue;
        for (int b = 0; b < nsystems; b++) {
            if (systems[b].kind != BENCH_SYSTEM_CUSPARSE) continue;
            bench_ratios mean = {0}, median = {0}, fastest = {0};
            int left_out = 0;
            for (int i = 0; i < o->count; i++) {
                const bench_row *r = &o->rows[i];
                if (r->system != &systems[s] || !is_ok(r)) continue;
                for (int j = 0; j < o->count; j++) {
                    const bench_row *q = &o->rows[j];
                    if (q->system != &systems[b] || q->input != r->input || !is_ok(q)) continue;
                    if (!verified(r) || !verified(q) || !(q->time.mean > 0) ||
                        !(r->time.mean > 0)) {
                        left_out++;
                        continue;
                    }
                    bench_ratios_add(&mean, q->time.mean / r->time.mean, r->input->name);
                    bench_ratios_add(&median, q->time.median / r->time.median, r->input->name);
                    bench_ratios_add(&fastest, q->time.min / r->time.min, r->input->name);
                }
            }
            fprintf(out, "  %-22s %-24s", systems[s].id, systems[b].id);
            if (mean.n == 0) {
                fprintf(out, " %6d %9s %9s %9s %9s  %-28s %9s %9d\n", 0, "-", "-", "-", "-", "",
                        "-", left_out);
                continue;
            }
            fprintf(out, " %6d %8.3fx %8.3fx %8.3fx %8.3fx  %-28.28s %8.3fx %9d\n", mean.n,
                    exp(mean.log_sum / mean.n), exp(median.log_sum / median.n),
                    exp(fastest.log_sum / fastest.n), mean.min, mean.min_at ? mean.min_at : "",
                    mean.max, left_out);
        }
    }
    return mismatches;
}

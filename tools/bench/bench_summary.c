/*
 * The terminal summary of a bench: per system, how many inputs completed, failed, were
 * skipped or mismatched; per magnus system and baseline, the geometric mean, minimum and
 * maximum of the speedup (baseline mean time / magnus mean time) over the inputs both
 * completed; with --plan, the same statistics of plan_ratio per magnus system. bench_ratios
 * (those statistics of a set of ratios) serves `--op spmv`'s summary too (bench_spmv_output.c).
 */
#include <math.h>
#include <string.h>

#include "bench.h"

static bool is_ok(const bench_row *r) { return !strcmp(r->status, "ok"); }

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
    fprintf(out, "speedup of magnus over each baseline (inputs both completed):\n");
    fprintf(out, "  %-22s %-18s %6s %9s %9s  %-28s %9s\n", "system", "baseline", "inputs",
            "geomean", "min", "(at)", "max");
    for (int s = 0; s < nsystems; s++) {
        if (systems[s].kind != BENCH_SYSTEM_MAGNUS) continue;
        for (int b = 0; b < nsystems; b++) {
            if (systems[b].kind != BENCH_SYSTEM_CUSPARSE) continue;
            bench_ratios ratios = {0};
            for (int i = 0; i < o->count; i++) {
                const bench_row *r = &o->rows[i];
                if (r->system != &systems[s] || !is_ok(r) || !(r->time.mean > 0)) continue;
                for (int j = 0; j < o->count; j++) {
                    const bench_row *q = &o->rows[j];
                    if (q->system != &systems[b] || q->input != r->input || !is_ok(q) ||
                        !(q->time.mean > 0))
                        continue;
                    bench_ratios_add(&ratios, q->time.mean / r->time.mean, r->input->name);
                }
            }
            fprintf(out, "  %-22s %-18s", systems[s].id, systems[b].id);
            bench_ratios_print(out, &ratios);
        }
    }
    return mismatches;
}

/*
 * The terminal summary of a bench: per system, how many inputs completed, failed, were
 * skipped or mismatched; per magnus system and baseline, the geometric mean, minimum and
 * maximum of the speedup (baseline mean time / magnus mean time) over the inputs both
 * completed; with --plan, the same statistics of plan_ratio per magnus system.
 */
#include <math.h>
#include <string.h>

#include "bench.h"

static bool is_ok(const bench_row *r) { return !strcmp(r->status, "ok"); }

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
        int n = 0;
        double log_sum = 0, min = INFINITY, max = 0;
        const char *min_at = "";
        for (int i = 0; i < o->count; i++) {
            const bench_row *r = &o->rows[i];
            if (r->system != &systems[s] || !r->plan.ran || strcmp(r->plan.verified, "yes") ||
                !(r->plan.ratio > 0))
                continue;
            n++;
            log_sum += log(r->plan.ratio);
            if (r->plan.ratio < min) {
                min = r->plan.ratio;
                min_at = r->input->name;
            }
            if (r->plan.ratio > max) max = r->plan.ratio;
        }
        if (n == 0) fprintf(out, "  %-22s %6d %9s\n", systems[s].id, 0, "-");
        else
            fprintf(out, "  %-22s %6d %8.3fx %8.3fx  %-28.28s %8.3fx\n", systems[s].id, n,
                    exp(log_sum / n), min, min_at, max);
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
            int n = 0;
            double log_sum = 0, min = INFINITY, max = 0;
            const char *min_at = "";
            for (int i = 0; i < o->count; i++) {
                const bench_row *r = &o->rows[i];
                if (r->system != &systems[s] || !is_ok(r) || !(r->time.mean > 0)) continue;
                for (int j = 0; j < o->count; j++) {
                    const bench_row *q = &o->rows[j];
                    if (q->system != &systems[b] || q->input != r->input || !is_ok(q) ||
                        !(q->time.mean > 0))
                        continue;
                    double speedup = q->time.mean / r->time.mean;
                    n++;
                    log_sum += log(speedup);
                    if (speedup < min) {
                        min = speedup;
                        min_at = r->input->name;
                    }
                    if (speedup > max) max = speedup;
                }
            }
            if (n == 0) {
                fprintf(out, "  %-22s %-18s %6d %9s\n", systems[s].id, systems[b].id, 0, "-");
                continue;
            }
            fprintf(out, "  %-22s %-18s %6d %8.3fx %8.3fx  %-28.28s %8.3fx\n", systems[s].id,
                    systems[b].id, n, exp(log_sum / n), min, min_at, max);
        }
    }
    return mismatches;
}

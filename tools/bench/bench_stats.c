/* Timed samples (mean, median, min, max), a blank result row and the growing arrays they and
 * the outputs keep. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void *bench_grow(void *items, int *capacity, int count, size_t item_size, int first) {
    if (count < *capacity) return items;
    int grown_capacity = *capacity ? 2 * *capacity : first;
    void *grown = realloc(items, (size_t)grown_capacity * item_size);
    if (grown) *capacity = grown_capacity;
    return grown;
}

bool bench_samples_add(bench_samples *s, double ms) {
    double *grown = bench_grow(s->ms, &s->capacity, s->count, sizeof *grown, 32);
    if (!grown) return false;
    s->ms = grown;
    s->ms[s->count++] = ms;
    return true;
}

void bench_samples_free(bench_samples *s) {
    free(s->ms);
    memset(s, 0, sizeof *s);
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bench_stats bench_samples_stats(const bench_samples *s) {
    bench_stats st = {NAN, NAN, NAN, NAN};
    if (s->count == 0) return st;
    double *sorted = malloc((size_t)s->count * sizeof *sorted);
    if (!sorted) return st;
    memcpy(sorted, s->ms, (size_t)s->count * sizeof *sorted);
    qsort(sorted, (size_t)s->count, sizeof *sorted, compare_double);
    double sum = 0;
    for (int i = 0; i < s->count; i++) sum += sorted[i];
    int n = s->count;
    st.mean = sum / n;
    st.median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    st.min = sorted[0];
    st.max = sorted[n - 1];
    free(sorted);
    return st;
}

void bench_row_init(bench_row *row, const bench_input *in, const bench_system *sys) {
    memset(row, 0, sizeof *row);
    row->input = in;
    row->system = sys;
    row->status = "failed";
    row->time = (bench_stats){NAN, NAN, NAN, NAN};
    row->upload_ms = row->download_ms = NAN;
    row->gflops = NAN;
    row->first_ms = NAN;
    row->first_kernel_load_ms = NAN;
    row->nnz_c = -1;
    row->verified = "n/a";
    row->max_rel_error = NAN;
    row->copy_gbps = sys && sys->copy_gbps > 0 ? sys->copy_gbps : NAN;
    row->floor_outer_bytes = row->floor_histogram_bytes = row->floor_multisplit_bytes = NAN;
    row->sol_outer_pct = row->sol_histogram_pct = row->sol_multisplit_pct = NAN;
    row->speedup = NAN;
    row->speedup_median = row->speedup_min = NAN;
    row->speedup_pool = row->speedup_pool_median = row->speedup_pool_min = NAN;
}

void bench_row_set_facts(bench_row *row, const bench_data *d) {
    row->facts = (bench_facts){
        .known = true,
        .rows = d->A->rows,
        .cols = d->B->cols,
        .a_nnz = d->A->nnz,
        .b_nnz = d->B->nnz,
        .products = d->products,
        .nnz_c_upper = d->nnz_c_upper,
        .type = d->type,
    };
}

bool bench_plan_stop(const bench_plan *plan, int run, double timed) {
    const int min_runs = plan->runs < 3 ? plan->runs : 3;
    if (run < min_runs) return false;
    if (plan->max_timed_seconds > 0 && timed > plan->max_timed_seconds) return true;
    return plan->deadline > 0 && cli_now() > plan->deadline;
}

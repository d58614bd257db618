/* compute_product(): magnus_spgemm on the chosen device, or the CPU reference, timed. */
#include "cli_compute.h"

#include <stdlib.h>
#include <string.h>

static bool parse_algorithm(const char *name, magnus_algorithm *out) {
    if (name && !strcmp(name, "magnus")) name = "gmagnus"; /* gMAGNUS's former name */
    magnus_algorithm all[] = {MAGNUS_ALGORITHM_AUTO, MAGNUS_ALGORITHM_GMAGNUS,
                              MAGNUS_ALGORITHM_HASH};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (!name || !strcmp(name, magnus_algorithm_name(all[i]))) {
            *out = all[i];
            return true;
        }
    return false;
}

const char *cli_local_mem_problem(int64_t bytes, bool given) {
    static char text[256];
    if (bytes < 0) return "--local-mem must be positive";
    /* 0 would silently mean "the default": say so rather than ignore it */
    if (given && bytes < CLI_LOCAL_MEM_MIN) {
        snprintf(text, sizeof text,
                 "--local-mem %lld is below the minimum: a budget is %d bytes (1K) up to the "
                 "device's local memory per work group%s",
                 (long long)bytes, CLI_LOCAL_MEM_MIN,
                 bytes == 0 ? " (leave the option out for the default)" : "");
        return text;
    }
    return NULL;
}

const char *cli_local_mem_device_problem(int64_t bytes, const magnus_device_info *device) {
    static char text[512];
    if (bytes <= 0 || (uint64_t)bytes <= device->local_mem_bytes) return NULL;
    snprintf(text, sizeof text,
             "--local-mem %lld is above the device's local memory: a budget is %d bytes (1K) "
             "up to %llu (%s per work group on %s:%d %s)",
             (long long)bytes, CLI_LOCAL_MEM_MIN, (unsigned long long)device->local_mem_bytes,
             cli_bytes(device->local_mem_bytes).s, magnus_backend_name(device->backend),
             device->index, device->name);
    return text;
}

bool compute_options_check(const compute_options *opt, char *why, size_t why_size) {
    magnus_algorithm algorithm;
    if (!parse_algorithm(opt->algorithm, &algorithm)) {
        snprintf(why, why_size, "unknown algorithm '%s' (expected auto, magnus or hash)", opt->algorithm);
        return false;
    }
    if (!cli_device_check(opt->backend, opt->device, why, why_size)) return false;
    const char *problem =
        cli_local_mem_problem(opt->local_mem_bytes, cli_option_given(&opt->local_mem_bytes));
    if (problem) {
        snprintf(why, why_size, "%s", problem);
        return false;
    }
    if (opt->cpu && (opt->backend || opt->device || opt->algorithm ||
                     cli_option_given(&opt->local_mem_bytes))) {
        snprintf(why, why_size, "--cpu takes no device options (--backend, --device, "
                                "--algorithm, --local-mem)");
        return false;
    }
    return true;
}

static magnus_status compute_on_cpu(magnus_csr *C, compute_report *report, const magnus_csr_s *A,
                                    const magnus_csr_s *B, cli_progress *progress) {
    report->engine = "CPU reference";
    cli_progress_update(progress, -1, "multiplying (CPU reference)");
    double start = cli_now();
    magnus_status s = magnus_reference_spgemm(C, NULL, A, B);
    report->seconds = cli_now() - start;
    cli_progress_done(progress);
    return s;
}

/* Rows of A the warm-up multiplies: the WARM_HEAVIEST with the most products and WARM_SPREAD
 * spread evenly over A, so that every class of row the real multiply has (heavy rows through
 * the outer product and multisplit, light rows of each hash bin) is met once. */
enum { WARM_HEAVIEST = 16, WARM_SPREAD = 48, WARM_ROWS = WARM_HEAVIEST + WARM_SPREAD };

static int64_t row_products(const magnus_csr_s *A, const magnus_csr_s *B, int64_t i) {
    int64_t p = 0;
    for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
        const int32_t j = A->col_idx[k];
        p += B->row_ptr[j + 1] - B->row_ptr[j];
    }
    return p;
}

static bool chosen_already(const int64_t *rows, int n, int64_t i) {
    for (int k = 0; k < n; k++)
        if (rows[k] == i) return true;
    return false;
}

static int compare_i64(const void *a, const void *b) {
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The sample of A's rows (all of A when it has at most WARM_ROWS rows), as a matrix. */
static magnus_status sample_rows(magnus_csr *out, const magnus_csr_s *A, const magnus_csr_s *B) {
    if (A->rows <= WARM_ROWS) return magnus_csr_copy(out, A);
    int64_t rows[WARM_ROWS], best[WARM_HEAVIEST];
    int n = 0, nbest = 0;
    int64_t best_products[WARM_HEAVIEST];
    for (int64_t i = 0; i < A->rows; i++) { /* the heaviest, kept sorted by products */
        const int64_t p = row_products(A, B, i);
        if (nbest == WARM_HEAVIEST && p <= best_products[nbest - 1]) continue;
        int k = nbest < WARM_HEAVIEST ? nbest++ : nbest - 1;
        while (k > 0 && best_products[k - 1] < p) {
            best_products[k] = best_products[k - 1];
            best[k] = best[k - 1];
            k--;
        }
        best_products[k] = p;
        best[k] = i;
    }
    for (int k = 0; k < nbest; k++) rows[n++] = best[k];
    for (int k = 0; k < WARM_SPREAD; k++) {
        const int64_t i = (int64_t)((double)k * (double)(A->rows - 1) / (WARM_SPREAD - 1));
        if (!chosen_already(rows, n, i)) rows[n++] = i;
    }
    qsort(rows, (size_t)n, sizeof *rows, compare_i64);
    int64_t nnz = 0;
    for (int k = 0; k < n; k++) nnz += A->row_ptr[rows[k] + 1] - A->row_ptr[rows[k]];
    magnus_status s = magnus_csr_new(out, n, A->cols, nnz, A->type);
    if (s) return s;
    const size_t vsize = magnus_value_size(A->type);
    int64_t at = 0;
    for (int k = 0; k < n; k++) {
        const int64_t from = A->row_ptr[rows[k]], len = A->row_ptr[rows[k] + 1] - from;
        memcpy((*out)->col_idx + at, A->col_idx + from, (size_t)len * sizeof(int32_t));
        memcpy((char *)(*out)->values + (size_t)at * vsize,
               (const char *)A->values + (size_t)from * vsize, (size_t)len * vsize);
        at += len;
        (*out)->row_ptr[k + 1] = at;
    }
    return MAGNUS_SUCCESS;
}

/* A multiply of a sample of A's rows by B before the measured one: the context builds or
 * loads its kernels (PoCL builds them for tens of seconds when its disk cache is cold;
 * NVIDIA's OpenCL compiles at first use), and every kernel the real multiply will launch is
 * launched once (PoCL also compiles each kernel for each work-group size at its first launch:
 * a 1x1 warm-up left ~2.9 s of that inside the measured time), so that the measured multiply
 * does not include first-use work. */
static magnus_status warm_up(magnus_context ctx, const magnus_csr_s *A, const magnus_csr_s *B,
                             const magnus_spgemm_options *opt) {
    magnus_csr sample = NULL, product = NULL;
    magnus_status s = sample_rows(&sample, A, B);
    if (s) return s;
    magnus_spgemm_options quiet = *opt;
    quiet.progress = NULL;
    s = magnus_spgemm(&product, ctx, sample, B, &quiet, NULL);
    magnus_csr_free(&product);
    magnus_csr_free(&sample);
    return s;
}

/* magnus_spgemm's steps with the device matrices at hand: upload, multiply, download, the
 * report's upload, download and total times set as magnus_spgemm sets them; *dC kept when
 * keep is set (else freed). */
static magnus_status multiply_on_device(magnus_csr *C, magnus_device_csr *dC, magnus_context ctx,
                                        const magnus_csr_s *A, const magnus_csr_s *B,
                                        const magnus_spgemm_options *opt, magnus_report *rep,
                                        bool keep) {
    magnus_device_csr dA = NULL, dB = NULL;
    double t0 = cli_now(), t;
    magnus_status s;
    if ((s = magnus_device_csr_upload(&dA, ctx, A)) ||
        (B != A && (s = magnus_device_csr_upload(&dB, ctx, B))))
        goto done;
    const double upload_ms = (cli_now() - t0) * 1e3;
    if ((s = magnus_spgemm_device(dC, ctx, dA, B == A ? dA : dB, opt, rep))) goto done;
    rep->time_upload_ms = upload_ms;
    t = cli_now();
    if ((s = magnus_device_csr_download(C, *dC))) goto done;
    rep->time_download_ms = (cli_now() - t) * 1e3;
    rep->time_total_ms = (cli_now() - t0) * 1e3;
done:
    magnus_device_csr_free(&dA);
    magnus_device_csr_free(&dB);
    if (s || !keep) magnus_device_csr_free(dC);
    return s;
}

void compute_report_release(compute_report *report) {
    magnus_device_csr_free(&report->dC);
    magnus_context_free(&report->ctx);
}

static magnus_status compute_on_device(magnus_csr *C, compute_report *report,
                                       const magnus_csr_s *A, const magnus_csr_s *B,
                                       const compute_options *opt, cli_progress *progress) {
    magnus_spgemm_options sopt;
    magnus_status s = magnus_spgemm_options_init(&sopt);
    if (s) return s;
    if (!parse_algorithm(opt->algorithm, &sopt.algorithm))
        return MAGNUS_ERROR_INVALID_ARGUMENT; /* compute_options_check refused it already */
    report->engine = sopt.algorithm == MAGNUS_ALGORITHM_HASH ? "hash" : "gMAGNUS";
    report->on_device = true;

    magnus_device_info chosen;
    if ((s = cli_device_choose(&chosen, opt->backend, opt->device, report->device_flags,
                               sizeof report->device_flags)))
        return s;
    report->device_local_mem_bytes = chosen.local_mem_bytes; /* the probe's: the maximum */
    const char *problem = cli_local_mem_device_problem(opt->local_mem_bytes, &chosen);
    if (problem) {
        snprintf(report->usage_problem, sizeof report->usage_problem, "%s", problem);
        return MAGNUS_ERROR_INVALID_ARGUMENT;
    }
    magnus_context_options copt;
    if ((s = magnus_context_options_init(&copt))) return s;
    copt.local_mem_bytes = (uint64_t)opt->local_mem_bytes;
    bool built = false; /* kernels compiled in this process: their first use */
    copt.build_progress = cli_build_notice;
    copt.build_progress_user = &built;
    magnus_context ctx = NULL;
    cli_progress_update(progress, -1, "preparing the device (kernels)");
    double start = cli_now();
    if ((s = magnus_context_create(&ctx, &chosen, &copt))) goto done;
    if ((s = magnus_context_device(&report->device, ctx))) goto done;
    if ((s = warm_up(ctx, A, B, &sopt))) goto done;
    if (built) {
        /* First use: some implementations compile again at a kernel's first launch with a
         * grid of a new size class (PoCL specialises work-group functions for grids below
         * 65535 items; the sample's grids are small), so the product itself runs once,
         * untimed, and the timed run is the second. */
        magnus_csr first = NULL;
        magnus_spgemm_options quiet = sopt;
        quiet.progress = NULL;
        cli_progress_update(progress, -1, "first use: computing the product once untimed");
        s = magnus_spgemm(&first, ctx, A, B, &quiet, NULL);
        magnus_csr_free(&first);
        if (s) goto done;
        report->first_use = true;
    }
    report->setup_seconds = cli_now() - start;

    sopt.progress = cli_progress_update;
    sopt.progress_user = progress;
    start = cli_now();
    s = multiply_on_device(C, &report->dC, ctx, A, B, &sopt, &report->report, opt->keep_device);
    report->seconds = cli_now() - start;
    if (!s) /* what ran (AUTO picks one) */
        report->engine = report->report.algorithm == MAGNUS_ALGORITHM_HASH ? "hash" : "gMAGNUS";
    if (!s && opt->keep_device) {
        report->ctx = ctx; /* the randomized check multiplies with C where it is */
        ctx = NULL;
    }
done:
    cli_progress_done(progress);
    /* Freeing a live context succeeds and keeps the detail message of a failure in place. */
    magnus_context_free(&ctx);
    return s;
}

magnus_status compute_product(magnus_csr *C, compute_report *report, const magnus_csr_s *A,
                              const magnus_csr_s *B, const compute_options *opt,
                              cli_progress *progress) {
    memset(report, 0, sizeof *report);
    if (opt->cpu) return compute_on_cpu(C, report, A, B, progress);
    return compute_on_device(C, report, A, B, opt, progress);
}

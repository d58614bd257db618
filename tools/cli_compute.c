/* compute_product(): magnus_spgemm on the chosen device, or the CPU reference, timed. */
#include "cli_compute.h"

#include <string.h>

static bool parse_algorithm(const char *name, magnus_algorithm *out) {
    if (!name || !strcmp(name, "magnus") || !strcmp(name, "gmagnus")) {
        *out = MAGNUS_ALGORITHM_MAGNUS;
        return true;
    }
    if (!strcmp(name, "hash")) {
        *out = MAGNUS_ALGORITHM_HASH;
        return true;
    }
    return false;
}

const char *cli_local_mem_problem(int64_t bytes, bool given) {
    if (bytes < 0) return "--local-mem must be positive";
    /* 0 would silently mean "the default": say so rather than ignore it */
    if (given && bytes == 0)
        return "--local-mem 0: a budget is at least 1 byte (leave the option out for the default)";
    return NULL;
}

bool compute_options_check(const compute_options *opt, char *why, size_t why_size) {
    magnus_algorithm algorithm;
    if (!parse_algorithm(opt->algorithm, &algorithm)) {
        snprintf(why, why_size, "unknown algorithm '%s' (expected magnus or hash)", opt->algorithm);
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

/* A 1x1 product: makes the context build or load its kernels (PoCL builds them for tens of
 * seconds when its disk cache is cold; NVIDIA's OpenCL compiles at first use), so that the
 * measured multiply does not include it. */
static magnus_status warm_up(magnus_context ctx, magnus_value_type type,
                             const magnus_spgemm_options *opt) {
    magnus_csr one = NULL, product = NULL;
    magnus_status s = magnus_csr_new(&one, 1, 1, 1, type);
    if (s) return s;
    one->row_ptr[1] = 1;
    one->col_idx[0] = 0;
    if (type == MAGNUS_FLOAT64)
        ((double *)one->values)[0] = 1.0;
    else
        ((float *)one->values)[0] = 1.0f;
    magnus_spgemm_options quiet = *opt;
    quiet.progress = NULL;
    s = magnus_spgemm(&product, ctx, one, one, &quiet, NULL);
    magnus_csr_free(&product);
    magnus_csr_free(&one);
    return s;
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
    magnus_context_options copt;
    if ((s = magnus_context_options_init(&copt))) return s;
    copt.local_mem_bytes = (uint64_t)opt->local_mem_bytes;
    magnus_context ctx = NULL;
    cli_progress_update(progress, -1, "preparing the device (kernels)");
    double start = cli_now();
    if ((s = magnus_context_create(&ctx, &chosen, &copt))) goto done;
    if ((s = magnus_context_device(&report->device, ctx))) goto done;
    if ((s = warm_up(ctx, A->type, &sopt))) goto done;
    report->setup_seconds = cli_now() - start;

    sopt.progress = cli_progress_update;
    sopt.progress_user = progress;
    start = cli_now();
    s = magnus_spgemm(C, ctx, A, B, &sopt, &report->report);
    report->seconds = cli_now() - start;
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

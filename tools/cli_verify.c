/* verify_product(): the choice of method, and the exact method (reference recomputation). */
#include "cli_verify.h"

#include <string.h>

void verify_options_init(verify_options *opt) {
    memset(opt, 0, sizeof *opt); /* no device C: the vectors' products on the host */
    opt->mode = VERIFY_AUTO;
    opt->exact_limit = VERIFY_DEFAULT_EXACT_LIMIT;
    opt->vectors = VERIFY_DEFAULT_VECTORS;
    opt->seed = 1;
}

bool verify_where_parse(const char *text, verify_where *out) {
    if (!text || !strcmp(text, "auto")) *out = VERIFY_ON_AUTO;
    else if (!strcmp(text, "host")) *out = VERIFY_ON_HOST;
    else if (!strcmp(text, "device")) *out = VERIFY_ON_DEVICE;
    else return false;
    return true;
}

bool verify_mode_parse(const char *text, verify_mode *out) {
    if (!text || !*text || !strcmp(text, "auto")) *out = VERIFY_AUTO;
    else if (!strcmp(text, "exact")) *out = VERIFY_EXACT;
    else if (!strcmp(text, "random")) *out = VERIFY_RANDOM;
    else return false;
    return true;
}

const char *verify_method_name(verify_mode method) {
    switch (method) {
    case VERIFY_EXACT: return "exact";
    case VERIFY_RANDOM: return "random";
    case VERIFY_AUTO: break;
    }
    return "auto";
}

magnus_status verify_exact(verify_report *report, const magnus_csr_s *C, const magnus_csr_s *A,
                           const magnus_csr_s *B, cli_progress *progress) {
    report->method = VERIFY_EXACT;
    cli_progress_update(progress, -1, "verifying (CPU reference)");
    double start = cli_now();
    magnus_csr expected = NULL, magnitude = NULL;
    magnus_status s = magnus_reference_spgemm(&expected, &magnitude, A, B);
    report->reference_seconds = cli_now() - start;
    if (!s) {
        s = magnus_csr_compare(&report->compare, C, expected, magnitude, 0);
        report->matched = s == MAGNUS_SUCCESS;
        if (s == MAGNUS_ERROR_MISMATCH)
            snprintf(report->detail, sizeof report->detail, "%s", magnus_last_error());
    }
    report->seconds = cli_now() - start;
    cli_progress_done(progress);
    /* Freeing succeeds on live handles and leaves the detail message of `s` in place. */
    magnus_csr_free(&expected);
    magnus_csr_free(&magnitude);
    return s;
}

magnus_status verify_product(verify_report *report, const magnus_csr_s *C, const magnus_csr_s *A,
                             const magnus_csr_s *B, int64_t products, const verify_options *opt,
                             cli_progress *progress) {
    memset(report, 0, sizeof *report);
    report->compare.row = -1;
    report->compare.col = -1;
    report->worst_row = -1;
    report->structure_bad_row = -1;
    report->rows_sample_bad_row = -1;
    report->nonfinite_bad_row = -1;
    bool exact = opt->mode == VERIFY_EXACT ||
                 (opt->mode == VERIFY_AUTO && products <= opt->exact_limit);
    if (exact) return verify_exact(report, C, A, B, progress);
    verify_random_settings random = {.vectors = opt->vectors,
                                     .seed = opt->seed,
                                     .tolerance = verify_random_tolerance(C, A),
                                     .ctx = opt->ctx,
                                     .dC = opt->dC,
                                     .where = opt->where};
    return verify_random(report, C, A, B, &random, progress);
}

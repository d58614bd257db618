/* The measured multiply shared by `magnus multiply` and `magnus demo`. */
#include "cli_product.h"

#include <string.h>

double cli_gflops(int64_t products, double seconds) {
    return seconds > 0 ? 2.0 * (double)products / seconds * 1e-9 : 0;
}

void cli_verify_choice_init(cli_verify_choice *v) {
    verify_options d;
    verify_options_init(&d);
    v->mode = NULL;
    v->where = NULL;
    v->always = false;
    v->exact_limit = d.exact_limit;
    v->vectors_option = d.vectors;
    v->seed = d.seed;
}

bool cli_verify_choice_get(verify_options *out, const cli_verify_choice *v, char *why,
                           size_t why_size) {
    verify_options_init(out);
    if (v->mode && !verify_mode_parse(v->mode, &out->mode)) {
        snprintf(why, why_size, "unknown verification '%s' (expected --verify, --verify=exact "
                                "or --verify=random)", v->mode);
        return false;
    }
    if (v->exact_limit < 0) {
        snprintf(why, why_size, "--verify-limit must not be negative");
        return false;
    }
    if (v->where && !verify_where_parse(v->where, &out->where)) {
        snprintf(why, why_size, "unknown --verify-on '%s' (expected auto, host or device)",
                 v->where);
        return false;
    }
    if (v->vectors_option < 1 || v->vectors_option > 64) {
        snprintf(why, why_size, "--verify-vectors must be in 1..64");
        return false;
    }
    out->exact_limit = v->exact_limit;
    out->vectors = (int)v->vectors_option;
    out->seed = v->seed;
    return true;
}

int product_options_check(verify_options *verify, const cli_spec *spec,
                          const compute_options *how, const cli_verify_choice *choice) {
    char why[512];
    if (!compute_options_check(how, why, sizeof why) ||
        !cli_verify_choice_get(verify, choice, why, sizeof why))
        return cli_usage_error(spec, "%s", why);
    /* without --verify nothing is checked: an option of the check would be ignored */
    const struct {
        const void *target;
        const char *name;
    } checks[] = {{&choice->exact_limit, "--verify-limit"},
                  {&choice->vectors_option, "--verify-vectors"},
                  {&choice->seed, "--verify-seed"},
                  {&choice->where, "--verify-on"}};
    for (size_t i = 0; i < sizeof checks / sizeof checks[0] && !choice->always && !choice->mode;
         i++)
        if (cli_option_given(checks[i].target))
            return cli_usage_error(spec, "%s needs --verify (without it C is not checked)",
                                   checks[i].name);
    return CLI_CONTINUE;
}

const char *product_cpu_note(const compute_report *c) {
    static char note[512];
    if (!c->on_device || !c->device.is_cpu) return NULL;
    snprintf(note, sizeof note,
             "%s:%d (%s) is a CPU OpenCL device: a functional stand-in for a GPU, not a fast "
             "CPU SpGEMM (--cpu multiplies with the CPU reference)",
             magnus_backend_name(c->device.backend), c->device.index, c->device.name);
    return note;
}

int product_run_execute(product_run *run, const magnus_csr_s *A, const magnus_csr_s *B,
                        const compute_options *how, const verify_options *verify,
                        cli_progress *progress) {
    memset(run, 0, sizeof *run);
    run->verify_requested = verify != NULL;
    magnus_status s = magnus_csr_stats_compute(&run->stats, A, B);
    if (s) return cli_fail(s);
    /* the randomized check multiplies with C where the multiply left it: keep it there */
    compute_options keep = *how;
    keep.keep_device = verify && verify->where != VERIFY_ON_HOST &&
                       (verify->mode == VERIFY_RANDOM ||
                        (verify->mode == VERIFY_AUTO && run->stats.products > verify->exact_limit));
    if (verify && verify->where == VERIFY_ON_DEVICE && how->cpu)
        return cli_failf("--verify-on device needs a device multiply, not --cpu");
    s = compute_product(&run->C, &run->compute, A, B, &keep, progress);
    if (s && run->compute.usage_problem[0]) return cli_usage_errorf("%s", run->compute.usage_problem);
    if (s) {
        int rc = cli_fail_in(s, run->compute.device_flags);
        if (s == MAGNUS_ERROR_NO_DEVICE || s == MAGNUS_ERROR_BACKEND_UNAVAILABLE)
            fprintf(stderr, "%s: 'magnus probe' lists the devices; --cpu multiplies with the "
                            "CPU reference\n",
                    cli_prefix());
        return rc;
    }
    /* PoCL's CPU device runs the GPU algorithm to be correct everywhere, not to be fast:
     * the user comparing its time with a CPU SpGEMM should know */
    if (run->compute.on_device && run->compute.device.is_cpu)
        cli_note("%s", product_cpu_note(&run->compute));
    if (!verify) return CLI_EXIT_OK;
    /* the random check's C·x runs where C is */
    verify_options vopt = *verify;
    vopt.ctx = run->compute.ctx;
    vopt.dC = run->compute.dC;
    s = verify_product(&run->verify, run->C, A, B, run->stats.products, &vopt, progress);
    compute_report_release(&run->compute);
    if ((s == MAGNUS_SUCCESS || s == MAGNUS_ERROR_MISMATCH) && verify->where == VERIFY_ON_DEVICE &&
        run->verify.method == VERIFY_RANDOM && strncmp(run->verify.vectors_where, "device", 6))
        return cli_failf("--verify-on device: C*x did not run on the device (%s)",
                         run->verify.vectors_where);
    run->verified = s == MAGNUS_SUCCESS || s == MAGNUS_ERROR_MISMATCH;
    if (s == MAGNUS_ERROR_MISMATCH)
        return cli_failf("verification failed (%s): %s", verify_method_name(run->verify.method),
                         run->verify.detail);
    /* an allocation of the check that failed says what it was in the report's detail */
    if (s && !magnus_last_error()[0] && run->verify.detail[0])
        return cli_failf("%s: %s", magnus_status_string(s), run->verify.detail);
    if (s) return cli_fail(s);
    return CLI_EXIT_OK;
}

static double percent(int64_t part, int64_t whole) {
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static double sum(const double *v, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}

/* ", the allocator held 7.10 GB" when the backend's pool held more than the buffers. */
typedef struct reserved_text {
    char s[sizeof(cli_text) + 32];
} reserved_text;
static reserved_text reserved_note(const magnus_report *r) {
    reserved_text t = {{0}};
    if (r->reserved_device_bytes > r->peak_device_bytes)
        snprintf(t.s, sizeof t.s, ", the allocator held %s", cli_bytes(r->reserved_device_bytes).s);
    return t;
}

/* "48.00 KiB per work group (device maximum 2.00 MiB)", and where the dense rows may take
 * more than the budget (they take the device's whole local memory unless a budget was set),
 * that budget too: the hash tables and gMAGNUS keep to the first, the dense rows do not. */
typedef struct budget_text {
    char s[3 * sizeof(cli_text) + 96];
} budget_text;
static budget_text local_memory_text(const compute_report *c) {
    const magnus_report *r = &c->report;
    budget_text t;
    int n = snprintf(t.s, sizeof t.s, "%s per work group", cli_bytes(c->device.local_mem_bytes).s);
    if (r->dense_rows_local_bytes > c->device.local_mem_bytes)
        n += snprintf(t.s + n, sizeof t.s - (size_t)n, ", dense rows up to %s",
                      cli_bytes(r->dense_rows_local_bytes).s);
    snprintf(t.s + n, sizeof t.s - (size_t)n, " (device maximum %s)",
             cli_bytes(c->device_local_mem_bytes).s);
    return t;
}

static void print_device_report(const compute_report *c, FILE *out) {
    const magnus_device_info *d = &c->device;
    const magnus_report *r = &c->report;
    fprintf(out, "%-10s%s:%d %s (%s), local memory %s; ready in %s%s\n", "device:",
            magnus_backend_name(d->backend), d->index, d->name, d->is_cpu ? "CPU" : "GPU",
            local_memory_text(c).s, cli_duration(c->setup_seconds).s,
            c->first_use ? " (first use: kernels built, the product computed once untimed)" : "");
    int levels = r->levels < 0 ? 0 : r->levels > MAGNUS_MAX_LEVELS ? MAGNUS_MAX_LEVELS : r->levels;
    /* Phase times in ms; those an algorithm does not have are 0 and left out. */
    struct {
        const char *name;
        double ms;
    } phases[] = {
        {"upload", r->time_upload_ms},
        {"setup", r->time_setup_ms},
        {"csr2csc", r->time_csr2csc_ms},
        {"outer product", r->time_outer_product_ms},
        {"histogram", sum(r->time_histogram_ms, levels)},
        {"multisplit", sum(r->time_multisplit_ms, levels)},
        {"symbolic", r->time_symbolic_ms},
        {"alloc", r->time_alloc_ms},
        {"numeric", r->time_numeric_ms},
        {"download", r->time_download_ms},
    };
    fprintf(out, "%-10s", "phases:");
    bool first = true;
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
        if (phases[i].ms <= 0) continue;
        fprintf(out, "%s%s %s", first ? "" : ", ", phases[i].name,
                cli_duration(phases[i].ms * 1e-3).s);
        first = false;
    }
    fprintf(out, "%s\n", first ? "none timed" : "");
    if (r->algorithm_requested == MAGNUS_ALGORITHM_AUTO && r->auto_dense_rows)
        fprintf(out, "%-10shash: C's columns fit a dense row in local memory (up to %s), which "
                     "takes the rows past the hash tables, chosen in %s\n",
                "method:", cli_count(r->dense_row_columns).s,
                cli_duration(r->time_choice_ms * 1e-3).s);
    else if (r->algorithm_requested == MAGNUS_ALGORITHM_AUTO)
        fprintf(out, "%-10s%s: rows of more than %s products carry %.1f%% of the products, "
                     "rows of more than %s entries about %.1f%% (the limit: %.0f%% for the "
                     "first plus %d times the second), chosen in %s\n",
                "method:", r->algorithm == MAGNUS_ALGORITHM_HASH ? "hash" : "gMAGNUS",
                cli_count(r->auto_long_row_products).s, 100.0 * r->auto_long_share,
                cli_count(r->auto_numeric_row_nnz).s, 100.0 * r->auto_overflow_share,
                100.0 * MAGNUS_AUTO_HASH_MAX_LONG_SHARE, MAGNUS_AUTO_OVERFLOW_WEIGHT,
                cli_duration(r->time_choice_ms * 1e-3).s);
    else
        fprintf(out, "%-10s%s, %s\n", "method:",
                r->algorithm == MAGNUS_ALGORITHM_HASH ? "hash" : "gMAGNUS",
                r->algorithm_reason ? r->algorithm_reason : "requested");
    if (r->algorithm == MAGNUS_ALGORITHM_GMAGNUS) {
        fprintf(out, "%-10stau %s products, levels %d, chunks per heavy row %s", "gMAGNUS:",
                cli_count(r->tau).s, r->levels, cli_count(r->chunks_required).s);
        if (levels > 0) {
            fprintf(out, " (required: ");
            for (int i = 0; i < levels; i++)
                fprintf(out, "%s%lld", i ? ", " : "", (long long)r->chunks_per_level[i]);
            fprintf(out, "), chunk width %s", cli_count(r->chunk_width).s);
        }
        fputc('\n', out);
        if (r->rows_heavy > 0)
            fprintf(out, "%-10schunks: %s dense (more than %s elements), %s hash\n", "",
                    cli_count(r->chunks_dense).s, cli_count(r->dense_min_elements).s,
                    cli_count(r->chunks_hash).s);
        fprintf(out, "%-10sheavy rows: more than %s products (%s)%s%s\n", "",
                cli_count(r->heavy_row_products).s,
                r->heavy_row_rule ? r->heavy_row_rule : "tau",
                r->light_rows_global ? "; light rows in global tables: " : "",
                r->light_rows_global ? cli_count(r->light_rows_global).s : "");
        fprintf(out, "%-10sheavy rows %s of %s (%.2f%%), heavy products %s of %s (%.2f%%)\n", "",
                cli_count(r->rows_heavy).s, cli_count(r->rows_total).s,
                percent(r->rows_heavy, r->rows_total), cli_count(r->products_heavy).s,
                cli_count(r->products_total).s, percent(r->products_heavy, r->products_total));
        fprintf(out, "%-10sC-hat %s (%s bytes)%s%s, peak device memory %s%s\n", "memory:",
                cli_bytes(r->chat_bytes).s, cli_count((int64_t)r->chat_bytes).s,
                r->chat_gap_bytes ? ", multisplit in place with a gap of " : "",
                r->chat_gap_bytes ? cli_bytes(r->chat_gap_bytes).s : "",
                cli_bytes(r->peak_device_bytes).s, reserved_note(r).s);
        if (r->batches > 1)
            fprintf(out, "%-10s%s row blocks, one after another (C-hat past the batch budget), "
                         "stacked into C: %.3f ms\n",
                    "batches:", cli_count(r->batches).s, r->time_batch_ms);
    } else {
        fprintf(out, "%-10slocal tables hold up to %s products; rows in global tables: %s\n",
                "hash:", cli_count(r->tau).s, cli_count(r->rows_heavy).s);
        if (r->dense_row_columns > 0)
            fprintf(out, "%-10sdense rows (C up to %s columns, in %s of local memory): %s\n", "",
                    cli_count(r->dense_row_columns).s, cli_bytes(r->dense_rows_local_bytes).s,
                    cli_count(r->rows_dense).s);
        fprintf(out, "%-10speak device memory %s%s\n", "memory:",
                cli_bytes(r->peak_device_bytes).s, reserved_note(r).s);
    }
}

static void print_verification(const product_run *run, FILE *out) {
    const verify_report *v = &run->verify;
    if (!run->verified) {
        fprintf(out, "%-10sNO (could not verify)\n", "verified:");
        return;
    }
    if (v->method == VERIFY_EXACT) {
        if (v->matched)
            fprintf(out, "%-10syes (exact: max relative error %.3g; reference recomputed in %s)\n",
                    "verified:", v->compare.max_rel_error, cli_duration(v->seconds).s);
        else
            fprintf(out,
                    "%-10sNO (first difference at row %lld, column %lld: %.17g, expected %.17g)\n",
                    "verified:", (long long)v->compare.row, (long long)v->compare.col,
                    v->compare.value, v->compare.expected);
        return;
    }
    fprintf(out, "%-10s%s (random: %d vectors, seed %llu, checked in %s)\n", "verified:",
            v->matched ? "yes" : "NO", v->vectors, (unsigned long long)v->seed,
            cli_duration(v->seconds).s);
    if (v->detail[0] && !v->matched) fprintf(out, "%-10s%s\n", "", v->detail);
    fprintf(out, "%-10s|Cx - A(Bx)| / |A|(|B||x|): %.3g normwise, %.3g largest row; "
                 "tolerance %.0e\n",
            "", v->rel_error, v->rel_error_row, v->tolerance);
    if (v->vectors_where[0])
        fprintf(out, "%-10sC·x on %s; the vectors took %.3f s\n", "", v->vectors_where,
                v->vectors_seconds);
    fprintf(out, "%-10s%d rows recomputed on the host (the %s): largest relative error %.3g\n",
            "", v->rows_sampled, "heaviest and random ones", v->rows_sample_error);
    if (v->nonfinite_rows > 0)
        fprintf(out, "%-10s%s rows with NaN or infinities (in C or among the products) compared "
                     "entry by entry instead, those exactly\n",
                "", cli_count(v->nonfinite_rows).s);
    if (!v->structure_checked)
        fprintf(out, "%-10sstructure not checked (no memory for the column markers)\n", "");
    else if (v->structure_matched)
        fprintf(out, "%-10sstructure: every row has the columns of an independent symbolic "
                     "product (nnz %s)\n",
                "", cli_count(v->structure_nnz).s);
    else
        fprintf(out, "%-10sstructure differs: first row %lld; independent nnz(A*B) = %s\n", "",
                (long long)v->structure_bad_row, cli_count(v->structure_nnz).s);
}

void product_run_print(const product_run *run, FILE *out) {
    if (!run->C) return;
    fprintf(out, "%-10s%s x %s, %s entries\n", "C = A*B:", cli_count(run->C->rows).s,
            cli_count(run->C->cols).s, cli_count(run->C->nnz).s);
    fprintf(out, "%-10s%s", "products:", cli_count(run->stats.products).s);
    if (run->C->nnz > 0)
        fprintf(out, " (%.2f per entry of C)", (double)run->stats.products / (double)run->C->nnz);
    fputc('\n', out);
    if (run->compute.on_device) print_device_report(&run->compute, out);
    fprintf(out, "%-10s%s by %s, %.3f GFLOP/s", "compute:", cli_duration(run->compute.seconds).s,
            run->compute.engine, cli_gflops(run->stats.products, run->compute.seconds));
    /* beside a device's time, the CPU reference's, when the exact check measured it */
    if (run->compute.on_device && run->verified && run->verify.method == VERIFY_EXACT)
        fprintf(out, " (CPU reference: %s)", cli_duration(run->verify.reference_seconds).s);
    fputc('\n', out);
    if (run->verify_requested) print_verification(run, out);
}

/* One report field in JSON, by its kind (magnus_report_fields.h); arrays show their first
 * `levels` entries. */
static void report_json_ALGORITHM(cli_json *j, const char *key, magnus_algorithm v, int levels) {
    (void)levels;
    cli_json_string(j, key, magnus_algorithm_name(v));
}
static void report_json_TEXT(cli_json *j, const char *key, const char *v, int levels) {
    (void)levels;
    cli_json_string(j, key, v);
}
static void report_json_INT(cli_json *j, const char *key, int v, int levels) {
    (void)levels;
    cli_json_int(j, key, v);
}
static void report_json_I64(cli_json *j, const char *key, int64_t v, int levels) {
    (void)levels;
    cli_json_int(j, key, v);
}
static void report_json_U64(cli_json *j, const char *key, uint64_t v, int levels) {
    (void)levels;
    cli_json_int(j, key, (int64_t)v);
}
static void report_json_F64(cli_json *j, const char *key, double v, int levels) {
    (void)levels;
    cli_json_real(j, key, v);
}
static void report_json_F64_LEVELS(cli_json *j, const char *key, const double *v, int levels) {
    cli_json_real_array(j, key, v, levels);
}
static void report_json_I64_LEVELS(cli_json *j, const char *key, const int64_t *v, int levels) {
    cli_json_int_array(j, key, v, levels);
}

static void device_report_json(const compute_report *c, cli_json *j) {
    const magnus_device_info *d = &c->device;
    const magnus_report *r = &c->report;
    int levels = r->levels < 0 ? 0 : r->levels > MAGNUS_MAX_LEVELS ? MAGNUS_MAX_LEVELS : r->levels;
    char id[64];
    snprintf(id, sizeof id, "%s:%d", magnus_backend_name(d->backend), d->index);
    cli_json_object(j, "device");
    cli_json_string(j, "id", id);
    cli_json_string(j, "backend", magnus_backend_name(d->backend));
    cli_json_int(j, "index", d->index);
    cli_json_string(j, "name", d->name);
    cli_json_bool(j, "is_cpu", d->is_cpu != 0);
    cli_json_int(j, "local_mem_bytes", (int64_t)d->local_mem_bytes); /* the budget in effect */
    cli_json_int(j, "device_local_mem_bytes", (int64_t)c->device_local_mem_bytes);
    cli_json_close(j);
    cli_json_real(j, "setup_seconds", c->setup_seconds);
    cli_json_bool(j, "first_use", c->first_use);
    cli_json_object(j, "report");
    /* every field of the list (magnus_report_fields.h) its `shown` rule shows, under its own
     * name, then the two fractions derived from them */
#define REPORT_JSON_FIELD(kind, name, merge, shown, section, meaning)                              \
    if (MAGNUS_REPORT_SHOWN_##shown(r)) report_json_##kind(j, #name, r->name, levels);
    MAGNUS_REPORT_FIELDS(REPORT_JSON_FIELD)
#undef REPORT_JSON_FIELD
    cli_json_real(j, "heavy_row_fraction",
                  r->rows_total > 0 ? (double)r->rows_heavy / (double)r->rows_total : 0);
    cli_json_real(j, "heavy_product_fraction",
                  r->products_total > 0 ? (double)r->products_heavy / (double)r->products_total
                                        : 0);
    cli_json_close(j);
}

static void verification_json(const verify_report *v, cli_json *j) {
    cli_json_object(j, "verification");
    cli_json_string(j, "method", verify_method_name(v->method));
    cli_json_bool(j, "passed", v->matched);
    cli_json_real(j, "seconds", v->seconds);
    if (v->method == VERIFY_EXACT) {
        cli_json_real(j, "max_rel_error", v->compare.max_rel_error);
    } else {
        cli_json_int(j, "vectors", v->vectors);
        cli_json_int(j, "seed", (int64_t)v->seed);
        cli_json_real(j, "rel_error", v->rel_error);
        cli_json_real(j, "rel_error_row", v->rel_error_row);
        cli_json_int(j, "worst_row", v->worst_row);
        cli_json_real(j, "tolerance", v->tolerance);
        cli_json_string(j, "vectors_on", v->vectors_where[0] ? v->vectors_where : NULL);
        cli_json_real(j, "vectors_seconds", v->vectors_seconds);
        cli_json_int(j, "rows_sampled", v->rows_sampled);
        cli_json_real(j, "rows_sample_error", v->rows_sample_error);
        cli_json_int(j, "rows_sample_bad_row", v->rows_sample_bad_row);
        cli_json_int(j, "nonfinite_rows", v->nonfinite_rows);
        cli_json_int(j, "nonfinite_bad_row", v->nonfinite_bad_row);
        cli_json_bool(j, "structure_checked", v->structure_checked);
        if (v->structure_checked) {
            cli_json_bool(j, "structure_matched", v->structure_matched);
            cli_json_int(j, "structure_nnz", v->structure_nnz);
            cli_json_int(j, "structure_bad_row", v->structure_bad_row);
        }
    }
    if (!v->matched) cli_json_string(j, "detail", v->detail);
    cli_json_close(j);
}

void product_run_json(const product_run *run, cli_json *j) {
    if (!run->C) return;
    cli_json_object(j, "C");
    cli_json_int(j, "rows", run->C->rows);
    cli_json_int(j, "cols", run->C->cols);
    cli_json_int(j, "nnz", run->C->nnz);
    cli_json_close(j);
    cli_json_int(j, "products", run->stats.products);
    cli_json_int(j, "row_products_max", run->stats.row_products_max);
    cli_json_string(j, "engine", run->compute.engine);
    if (product_cpu_note(&run->compute)) cli_json_string(j, "note", product_cpu_note(&run->compute));
    if (run->compute.on_device) device_report_json(&run->compute, j);
    cli_json_real(j, "compute_seconds", run->compute.seconds);
    cli_json_real(j, "gflops", cli_gflops(run->stats.products, run->compute.seconds));
    if (!run->verify_requested) {
        cli_json_null(j, "verified");
        return;
    }
    cli_json_bool(j, "verified", run->verified && run->verify.matched);
    if (!run->verified) return;
    if (run->verify.method == VERIFY_EXACT)
        cli_json_real(j, "max_rel_error", run->verify.compare.max_rel_error);
    else
        cli_json_real(j, "rel_error", run->verify.rel_error);
    cli_json_real(j, "verify_seconds", run->verify.seconds);
    if (run->verify.method == VERIFY_EXACT)
        cli_json_real(j, "reference_seconds", run->verify.reference_seconds);
    verification_json(&run->verify, j);
    if (run->verify.method == VERIFY_EXACT && !run->verify.matched) {
        cli_json_object(j, "first_mismatch");
        cli_json_int(j, "row", run->verify.compare.row);
        cli_json_int(j, "col", run->verify.compare.col);
        cli_json_real(j, "value", run->verify.compare.value);
        cli_json_real(j, "expected", run->verify.compare.expected);
        cli_json_close(j);
    }
}

void product_run_free(product_run *run) {
    compute_report_release(&run->compute);
    magnus_csr_free(&run->C);
}

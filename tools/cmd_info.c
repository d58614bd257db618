/* `magnus info`: what the file says (field, symmetry, stored entries, explicit zeros,
 * non-finite values), shape, row-length statistics and product counts of a matrix. */
#include "cli_commands.h"
#include "cli_common.h"
#include "cli_matrix.h"

typedef struct info_result {
    const char *source;
    magnus_value_type type;
    cli_input input; /* the matrix (input.M) and what the file says */
    magnus_csr A;
    double read_seconds;
    magnus_csr_stats stats; /* products are those of A*A when A is square, else 0 */
    bool square;
    bool have_product; /* --square ran */
    int64_t product_nnz;
    double product_seconds;
} info_result;

/* Row statistics need a right-hand side; a non-square A gets an empty cols x 0 one so the
 * row statistics still come from magnus_csr_stats_compute (its product counts are then 0). */
static magnus_status compute_stats(info_result *r) {
    if (r->square) return magnus_csr_stats_compute(&r->stats, r->A, r->A);
    magnus_csr empty;
    magnus_status s = magnus_csr_new(&empty, r->A->cols, 0, 0, r->type);
    if (s) return s;
    s = magnus_csr_stats_compute(&r->stats, r->A, empty);
    magnus_csr_free(&empty); /* leaves the detail message of a failure in place */
    return s;
}

static double density(const magnus_csr_s *A) {
    double cells = (double)A->rows * (double)A->cols;
    return cells > 0 ? (double)A->nnz / cells : 0;
}

/* How far the longest row stands out (a star mixture's is 1,000 and more); 0 when empty. */
static double max_over_mean(const magnus_csr_stats *st) {
    return st->row_nnz_mean > 0 ? (double)st->row_nnz_max / st->row_nnz_mean : 0;
}

static void print_text(const info_result *r) {
    const magnus_csr_stats *st = &r->stats;
    const magnus_mm_facts *f = &r->input.facts;
    printf("%-12s%s\n", "matrix:", r->source);
    if (r->input.is_file)
        printf("%-12s%s %s\n", "file:", magnus_mm_field_name(f->header.field),
               magnus_mm_symmetry_name(f->header.symmetry));
    cli_inputs_print_type(stdout, &r->input, 1, 12);
    printf("%-12s%s x %s%s, %s\n", "shape:", cli_count(r->A->rows).s, cli_count(r->A->cols).s,
           r->square ? " (square)" : "", cli_type_name(r->type));
    printf("%-12s%s (density %.3g)", "entries:", cli_count(r->A->nnz).s, density(r->A));
    if (r->input.is_file && f->header.symmetry != MAGNUS_MM_GENERAL)
        printf("; %s stored in the file, expanded by symmetry", cli_count(f->header.stored).s);
    else if (r->input.is_file && f->header.stored != r->A->nnz)
        printf("; %s stored in the file, duplicates summed", cli_count(f->header.stored).s);
    printf("\n");
    if (r->input.is_file && cli_mm_both_triangles(f))
        printf("%-12s%s: each entry is mirrored, so one stored on both sides is summed\n",
               "warning:", cli_mm_both_triangles_text(f).s);
    if (r->input.is_file && f->header.field != MAGNUS_MM_PATTERN) {
        printf("%-12s%s of the stored values\n", "zeros:", cli_count(f->explicit_zeros).s);
        printf("%-12s%s", "non-finite:", cli_count(f->nonfinite).s);
        if (f->nonfinite > 0)
            printf(" (NaN or inf; %s out of %s's range)", cli_count(f->overflowed).s,
                   cli_type_name(r->type));
        printf("\n");
    }
    printf("%-12smin %s, max %s, mean %.2f, std %.2f, max/mean %.1f\n", "row nnz:",
           cli_count(st->row_nnz_min).s, cli_count(st->row_nnz_max).s, st->row_nnz_mean,
           st->row_nnz_std, max_over_mean(st));
    printf("%-12s%s\n", "empty rows:", cli_count(st->empty_rows).s);
    if (r->square)
        printf("%-12s%s products, largest row %s\n", "A*A:", cli_count(st->products).s,
               cli_count(st->row_products_max).s);
    else
        printf("%-12snot defined (not square)\n", "A*A:");
    printf("%-12s%s\n", cli_is_generator_spec(r->source) ? "gen time:" : "read time:",
           cli_duration(r->read_seconds).s);
    if (r->have_product) {
        printf("%-12s%s (C = A*A by the CPU reference in %s", "nnz(C):",
               cli_count(r->product_nnz).s, cli_duration(r->product_seconds).s);
        if (r->product_nnz > 0)
            printf(", %.2f products per entry", (double)st->products / (double)r->product_nnz);
        printf(")\n");
    }
}

/* One object, also on failure: the source and "error" (the message on stderr) when the matrix
 * could not be read; what is known and "error" when a later step failed; "error": null on
 * success. */
static void print_json_error(const info_result *r, const char *error) {
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_string(&j, "source", r->source);
    cli_json_string(&j, "error", error);
    cli_json_end(&j);
}

static void print_json(const info_result *r, const char *error) {
    const magnus_csr_stats *st = &r->stats;
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_string(&j, "source", r->source);
    cli_json_string(&j, "type", cli_type_name(r->type));
    cli_json_string(&j, "type_note", r->input.type_note);
    const magnus_mm_facts *f = &r->input.facts;
    if (r->input.is_file) {
        cli_json_string(&j, "field", magnus_mm_field_name(f->header.field));
        cli_json_string(&j, "symmetry", magnus_mm_symmetry_name(f->header.symmetry));
        cli_json_int(&j, "stored_entries", f->header.stored);
        cli_json_int(&j, "explicit_zeros", f->explicit_zeros);
        cli_json_int(&j, "nonfinite", f->nonfinite);
        cli_json_int(&j, "overflowed", f->overflowed);
        cli_json_int(&j, "stored_below_diagonal", f->stored_below);
        cli_json_int(&j, "stored_above_diagonal", f->stored_above);
        cli_json_bool(&j, "both_triangles", cli_mm_both_triangles(f));
    } else {
        cli_json_null(&j, "field");
        cli_json_null(&j, "symmetry");
        cli_json_null(&j, "stored_entries");
        cli_json_null(&j, "explicit_zeros");
        cli_json_null(&j, "nonfinite");
        cli_json_null(&j, "overflowed");
        cli_json_null(&j, "stored_below_diagonal");
        cli_json_null(&j, "stored_above_diagonal");
        cli_json_null(&j, "both_triangles");
    }
    cli_json_int(&j, "rows", r->A->rows);
    cli_json_int(&j, "cols", r->A->cols);
    cli_json_int(&j, "nnz", r->A->nnz);
    cli_json_real(&j, "density", density(r->A));
    cli_json_bool(&j, "square", r->square);
    cli_json_object(&j, "row_nnz");
    cli_json_int(&j, "min", st->row_nnz_min);
    cli_json_int(&j, "max", st->row_nnz_max);
    cli_json_real(&j, "mean", st->row_nnz_mean);
    cli_json_real(&j, "std", st->row_nnz_std);
    cli_json_real(&j, "max_over_mean", max_over_mean(st));
    cli_json_close(&j);
    cli_json_int(&j, "empty_rows", st->empty_rows);
    cli_json_real(&j, "read_seconds", r->read_seconds);
    if (r->square) {
        cli_json_object(&j, "AxA");
        cli_json_int(&j, "products", st->products);
        cli_json_int(&j, "row_products_max", st->row_products_max);
        if (r->have_product) {
            cli_json_int(&j, "nnz", r->product_nnz);
            cli_json_real(&j, "seconds", r->product_seconds);
        }
        cli_json_close(&j);
    } else {
        cli_json_null(&j, "AxA");
    }
    cli_json_string(&j, "error", error);
    cli_json_end(&j);
}

int cmd_info(int argc, char **argv) {
    bool json = false, want_product = false, progress_forced = false;
    magnus_value_type type = MAGNUS_MM_TYPE_AUTO;
    cli_args args = {.min = 1, .max = 1};
    const cli_option options[] = {
        CLI_JSON_OPTION(&json),
        {"--type", NULL, CLI_TYPE_OR_AUTO, &type, "auto|f32|f64",
         "value type to read into (default auto: f64 for real and integer files, f32 for "
         "pattern files and generators)"},
        {"--square", NULL, CLI_FLAG, &want_product, NULL,
         "also report nnz(C) of C = A*A (costs a CPU reference multiply)"},
        CLI_PROGRESS_OPTION(&progress_forced),
        {0},
    };
    const cli_spec spec = {
        .command = "info",
        .synopsis = "FILE [--json] [--type auto|f32|f64] [--square]",
        .description =
            "Reads a Matrix Market file (.mtx or .mtx.gz; - or a pipe is read as it comes; a\n"
            "generator spec such as rmat:12:8 works too) and reports what the file says\n"
            "(field, symmetry, entries stored against entries after expansion, explicit\n"
            "zeros, NaN/inf values including numbers out of range), its shape, row-length\n"
            "statistics, the intermediate products of A*A and the largest row of them, and\n"
            "the read time. It uses no device (--square multiplies with the CPU reference), so it\n"
            "has no --device.",
        .options = options,
    };
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != CLI_CONTINUE) return rc;

    info_result r = {.source = args.at[0], .input = {.source = args.at[0]}};
    cli_progress progress;
    cli_progress_init(&progress, progress_forced);
    rc = cli_inputs_load(&r.input, 1, type, &progress);
    if (rc) {
        if (json) print_json_error(&r, cli_last_failure());
        cli_inputs_free(&r.input, 1);
        return rc;
    }
    r.A = r.input.M;
    r.type = r.A->type;
    r.read_seconds = r.input.seconds;
    r.square = r.A->rows == r.A->cols;
    magnus_status s = compute_stats(&r);
    if (s) {
        rc = cli_fail(s);
        if (json) print_json_error(&r, cli_last_failure());
        goto done;
    }
    if (want_product) {
        if (!r.square) {
            rc = cli_failf("--square needs a square matrix; %s is %s x %s", r.source,
                           cli_count(r.A->rows).s, cli_count(r.A->cols).s);
        } else {
            magnus_csr C = NULL;
            cli_progress_update(&progress, -1, "multiplying A*A");
            double start = cli_now();
            s = magnus_reference_spgemm(&C, NULL, r.A, r.A);
            r.product_seconds = cli_now() - start;
            cli_progress_done(&progress);
            if (s) {
                rc = cli_fail(s);
            } else {
                r.have_product = true;
                r.product_nnz = C->nnz;
            }
            magnus_csr_free(&C);
        }
    }
    /* the statistics are known: the whole object, with --square's failure if it failed */
    if (json) print_json(&r, rc ? cli_last_failure() : NULL);
    else if (!rc) print_text(&r);
done:
    cli_progress_done(&progress);
    cli_inputs_free(&r.input, 1);
    return rc;
}

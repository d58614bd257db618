/* `magnus info`: shape, row-length statistics and product counts of a matrix. */
#include "cli_commands.h"
#include "cli_common.h"
#include "cli_matrix.h"

typedef struct info_result {
    const char *source;
    magnus_value_type type;
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

static void print_text(const info_result *r) {
    const magnus_csr_stats *st = &r->stats;
    printf("%-12s%s\n", "matrix:", r->source);
    printf("%-12s%s x %s%s, %s\n", "shape:", cli_count(r->A->rows).s, cli_count(r->A->cols).s,
           r->square ? " (square)" : "", cli_type_name(r->type));
    printf("%-12s%s (density %.3g)\n", "entries:", cli_count(r->A->nnz).s, density(r->A));
    printf("%-12smin %s, max %s, mean %.2f, std %.2f\n", "row nnz:", cli_count(st->row_nnz_min).s,
           cli_count(st->row_nnz_max).s, st->row_nnz_mean, st->row_nnz_std);
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

static void print_json(const info_result *r) {
    const magnus_csr_stats *st = &r->stats;
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_string(&j, "source", r->source);
    cli_json_string(&j, "type", cli_type_name(r->type));
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
    cli_json_end(&j);
}

int cmd_info(int argc, char **argv) {
    bool json = false, want_product = false, progress_forced = false;
    magnus_value_type type = MAGNUS_FLOAT32;
    const cli_option options[] = {
        CLI_JSON_OPTION(&json),
        {"--type", NULL, CLI_TYPE, &type, "f32|f64", "value type to read into (default f32)"},
        {"--square", NULL, CLI_FLAG, &want_product, NULL,
         "also report nnz(C) of C = A*A (costs a CPU reference multiply)"},
        CLI_PROGRESS_OPTION(&progress_forced),
        {0},
    };
    const cli_spec spec = {
        .command = "info",
        .synopsis = "FILE [--json] [--type f32|f64] [--square]",
        .description =
            "Reads a Matrix Market file (.mtx or .mtx.gz; a generator spec such as rmat:12:8\n"
            "works too) and reports its shape, row-length statistics, the intermediate\n"
            "products of A*A and the largest row of them, and the read time. It uses no\n"
            "device (--square multiplies with the CPU reference), so it has no --device.",
        .options = options,
        .min_positional = 1,
        .max_positional = 1,
    };
    const char *positional[1];
    int npositional;
    int rc = cli_parse(&spec, argc, argv, positional, &npositional);
    if (rc != CLI_CONTINUE) return rc;

    info_result r = {.source = positional[0], .type = type};
    cli_progress progress;
    cli_progress_init(&progress, progress_forced);
    rc = cli_matrix_load(&r.A, &r.read_seconds, r.source, type, &progress);
    if (rc) return rc;
    r.square = r.A->rows == r.A->cols;
    magnus_status s = compute_stats(&r);
    if (s) {
        rc = cli_fail(s);
        goto done;
    }
    if (want_product) {
        if (!r.square) {
            rc = cli_failf("--square needs a square matrix; %s is %s x %s", r.source,
                           cli_count(r.A->rows).s, cli_count(r.A->cols).s);
            goto done;
        }
        magnus_csr C = NULL;
        cli_progress_update(&progress, -1, "multiplying A*A");
        double start = cli_now();
        s = magnus_reference_spgemm(&C, NULL, r.A, r.A);
        r.product_seconds = cli_now() - start;
        cli_progress_done(&progress);
        if (s) {
            rc = cli_fail(s);
            goto done;
        }
        r.have_product = true;
        r.product_nnz = C->nnz;
        magnus_csr_free(&C);
    }
    if (json)
        print_json(&r);
    else
        print_text(&r);
done:
    cli_progress_done(&progress);
    magnus_csr_free(&r.A);
    return rc;
}

/* Loading a matrix from a Matrix Market file or from a generator spec. */
#include "cli_matrix.h"

#include "cli_gen_limits.h"

#include <string.h>
#include <sys/stat.h>

typedef struct generator_info {
    const char *kind;
    int nargs;            /* required arguments */
    bool seeded;          /* takes a seed */
    const char *arg_names;
} generator_info;

static const generator_info generators[] = {
    {"rmat", 2, true, "SCALE PER_ROW"},
    {"laplace2d", 2, false, "NX NY"},
    {"laplace3d", 3, false, "NX NY NZ"},
    {"banded", 3, true, "N LOWER UPPER"},
    {"uniform", 3, true, "ROWS COLS PER_ROW"},
    {"star", 4, true, "N LONG LEN DEG"},
};
#define GENERATOR_COUNT (sizeof generators / sizeof generators[0])

static const generator_info *find_generator(const char *kind, size_t len) {
    for (size_t i = 0; i < GENERATOR_COUNT; i++)
        if (strlen(generators[i].kind) == len && !strncmp(generators[i].kind, kind, len))
            return &generators[i];
    return NULL;
}

bool cli_gen_parse(cli_gen_request *req, const char *kind, int nargs, const char *const *args,
                   bool allow_seed, char *why, size_t why_size) {
    const generator_info *g = find_generator(kind, strlen(kind));
    if (!g) {
        snprintf(why, why_size,
                 "unknown generator '%s' (rmat, laplace2d, laplace3d, banded, uniform, star)", kind);
        return false;
    }
    int most = g->nargs + (allow_seed && g->seeded ? 1 : 0);
    if (nargs < g->nargs || nargs > most) {
        snprintf(why, why_size, "%s takes %s%s", g->kind, g->arg_names,
                 most > g->nargs ? " [SEED]" : "");
        return false;
    }
    req->kind = g->kind;
    for (int i = 0; i < g->nargs; i++) {
        bool is_per_row = !strcmp(g->kind, "uniform") && i == 2;
        bool ok = is_per_row ? cli_to_double(args[i], &req->per_row)
                             : cli_to_int64(args[i], &req->n[i]);
        if (!ok || (is_per_row ? req->per_row < 0 : req->n[i] < 0)) {
            snprintf(why, why_size, "%s: argument %d ('%s') must be a non-negative %s", g->kind,
                     i + 1, args[i], is_per_row ? "number" : "integer");
            return false;
        }
    }
    if (nargs > g->nargs && !cli_to_uint64(args[g->nargs], &req->seed)) {
        snprintf(why, why_size, "%s: seed '%s' must be a non-negative integer", g->kind,
                 args[g->nargs]);
        return false;
    }
    return cli_gen_check_limits(req, why, why_size);
}

magnus_status cli_gen_run(magnus_csr *out, const cli_gen_request *req, cli_progress *progress) {
    if (!strcmp(req->kind, "rmat")) {
        magnus_rmat_options opt;
        if (req->rmat) {
            opt = *req->rmat;
        } else {
            magnus_status s = magnus_rmat_options_init(&opt);
            if (s) return s;
        }
        /* The library checks the range of scale; keep an out-of-int value out of range. */
        opt.scale = req->n[0] > 64 ? 64 : (int)req->n[0];
        opt.nnz_per_row = req->n[1];
        opt.seed = req->seed;
        opt.type = req->type;
        return magnus_gen_rmat(out, &opt, cli_progress_update, progress);
    }
    /* The other generators report no progress; show at least what is running. */
    cli_progress_update(progress, -1, "generating");
    if (!strcmp(req->kind, "laplace2d"))
        return magnus_gen_laplacian_2d(out, req->n[0], req->n[1], req->type);
    if (!strcmp(req->kind, "laplace3d"))
        return magnus_gen_laplacian_3d(out, req->n[0], req->n[1], req->n[2], req->type);
    if (!strcmp(req->kind, "banded"))
        return magnus_gen_banded(out, req->n[0], req->n[1], req->n[2], req->seed, req->type);
    if (!strcmp(req->kind, "star"))
        return magnus_gen_star(out, req->n[0], req->n[1], req->n[2], req->n[3], req->seed,
                               req->type);
    return magnus_gen_uniform(out, req->n[0], req->n[1], req->per_row, req->seed, req->type);
}

magnus_status cli_gen_run_timed(magnus_csr *out, double *seconds, const cli_gen_request *req,
                                cli_progress *progress) {
    double start = cli_now();
    magnus_status s = cli_gen_run(out, req, progress);
    *seconds = cli_now() - start;
    cli_progress_done(progress);
    return s;
}

cli_text cli_gen_describe(const cli_gen_request *req) {
    cli_text t;
    unsigned long long seed = (unsigned long long)req->seed;
    long long a = (long long)req->n[0], b = (long long)req->n[1], c = (long long)req->n[2];
    if (!strcmp(req->kind, "rmat"))
        snprintf(t.s, sizeof t.s, "rmat scale %lld, %lld per row, seed %llu%s", a, b, seed,
                 req->rmat && req->rmat->pattern ? ", pattern" : "");
    else if (!strcmp(req->kind, "laplace2d"))
        snprintf(t.s, sizeof t.s, "laplace2d %lld x %lld grid", a, b);
    else if (!strcmp(req->kind, "laplace3d"))
        snprintf(t.s, sizeof t.s, "laplace3d %lld x %lld x %lld grid", a, b, c);
    else if (!strcmp(req->kind, "banded"))
        snprintf(t.s, sizeof t.s, "banded n %lld, band -%lld..+%lld, seed %llu", a, b, c, seed);
    else if (!strcmp(req->kind, "star"))
        snprintf(t.s, sizeof t.s, "star n %lld, %lld long rows of %lld, others %lld, seed %llu", a, b, c, (long long)req->n[3], seed);
    else
        snprintf(t.s, sizeof t.s, "uniform %lld x %lld, %g per row, seed %llu", a, b,
                 req->per_row, seed);
    return t;
}

bool cli_is_generator_spec(const char *source) {
    const char *colon = strchr(source, ':');
    return colon && find_generator(source, (size_t)(colon - source)) != NULL;
}

int cli_matrix_load(magnus_csr *out, double *seconds, const char *source, magnus_value_type type,
                    cli_progress *progress) {
    *out = NULL;
    double start = cli_now();
    magnus_status s;
    if (cli_is_generator_spec(source)) {
        /* "kind:a:b[:c[:seed]]" -> kind and up to four arguments. */
        char buf[256];
        if (strlen(source) >= sizeof buf) return cli_failf("matrix spec too long: '%s'", source);
        strcpy(buf, source);
        const char *parts[6];
        int nparts = 0;
        for (char *p = buf;; p++) {
            if (nparts < 6) parts[nparts] = p;
            nparts++;
            p = strchr(p, ':');
            if (!p) break;
            *p = '\0';
        }
        cli_gen_request req = {.seed = 1, .type = type};
        char why[160];
        if (nparts > 6 ||
            !cli_gen_parse(&req, parts[0], nparts - 1, parts + 1, true, why, sizeof why)) {
            if (nparts > 6) snprintf(why, sizeof why, "too many fields");
            cli_failf("bad matrix spec '%s': %s", source, why); /* also a --json "error" */
            fprintf(stderr, "specs:\n%s\n", CLI_GENERATOR_SPECS);
            return CLI_EXIT_USAGE;
        }
        s = cli_gen_run(out, &req, progress);
    } else {
        if (type == MAGNUS_MM_TYPE_AUTO) { /* the file's field decides */
            magnus_mm_facts facts;
            s = magnus_mm_read_facts(out, &facts, source, type, cli_progress_update, progress);
        } else {
            s = magnus_mm_read(out, source, type, cli_progress_update, progress);
        }
    }
    if (s) return cli_fail(s);
    cli_progress_done(progress);
    *seconds = cli_now() - start;
    return CLI_EXIT_OK;
}

void cli_matrix_print(FILE *out, const char *label, const magnus_csr_s *M, const char *source,
                      const char *how, double seconds) {
    char head[32];
    snprintf(head, sizeof head, "%s:", label);
    fprintf(out, "%-10s%s x %s, %s entries", head, cli_count(M->rows).s, cli_count(M->cols).s,
            cli_count(M->nnz).s);
    if (source && how)
        fprintf(out, " (%s, %s in %s)", source, how, cli_duration(seconds).s);
    else if (source)
        fprintf(out, " (%s)", source);
    fputc('\n', out);
}

void cli_matrix_json(cli_json *j, const char *key, const magnus_csr_s *M, const char *source,
                     double seconds) {
    cli_json_object(j, key);
    if (source) cli_json_string(j, "source", source);
    cli_json_int(j, "rows", M->rows);
    cli_json_int(j, "cols", M->cols);
    cli_json_int(j, "nnz", M->nnz);
    if (seconds >= 0) cli_json_real(j, "seconds", seconds);
    cli_json_close(j);
}

/* ---- inputs and their value type ----------------------------------------------------------- */

/* A file that can be read twice: a regular file by name (not "-", a pipe or a device). */
static bool rereadable_file(const char *source) {
    struct stat st;
    return strcmp(source, "-") != 0 && stat(source, &st) == 0 && S_ISREG(st.st_mode);
}

static void note_field(cli_input *in, magnus_mm_field field) {
    if (field == MAGNUS_MM_PATTERN)
        snprintf(in->type_note, sizeof in->type_note,
                 "from the file's 'pattern' field: values 1, products are integer counts, exact "
                 "in f32 up to 2^24");
    else
        snprintf(in->type_note, sizeof in->type_note, "from the file's '%s' field",
                 magnus_mm_field_name(field));
}

bool cli_mm_both_triangles(const magnus_mm_facts *f) {
    return f->header.symmetry != MAGNUS_MM_GENERAL && f->stored_below > 0 && f->stored_above > 0;
}

cli_triangles_text cli_mm_both_triangles_text(const magnus_mm_facts *f) {
    cli_triangles_text t;
    snprintf(t.s, sizeof t.s, "a %s file holding both triangles (%s entries below the diagonal, "
             "%s above)", magnus_mm_symmetry_name(f->header.symmetry),
             cli_count(f->stored_below).s, cli_count(f->stored_above).s);
    return t;
}

/* Reads or generates one input as `type` (MAGNUS_MM_TYPE_AUTO: the file decides). */
static int load_input(cli_input *in, magnus_value_type type, cli_progress *progress) {
    in->is_file = !cli_is_generator_spec(in->source);
    if (!in->is_file)
        return cli_matrix_load(&in->M, &in->seconds, in->source,
                               type == MAGNUS_MM_TYPE_AUTO ? MAGNUS_FLOAT32 : type, progress);
    double start = cli_now();
    magnus_status s = magnus_mm_read_facts(&in->M, &in->facts, in->source, type,
                                           cli_progress_update, progress);
    cli_progress_done(progress);
    if (s) return cli_fail(s);
    in->seconds = cli_now() - start;
    /* Such a file is mirrored as the format says: an entry stored on both sides is summed,
     * which is seldom what its writer meant (it is most likely a general matrix). */
    if (cli_mm_both_triangles(&in->facts))
        cli_warning("%s: %s: each entry is mirrored, so one stored on both sides is summed",
                    in->source, cli_mm_both_triangles_text(&in->facts).s);
    if (in->facts.nonfinite > 0)
        cli_warning("%s: %lld value%s not finite (NaN or inf; %lld number%s out of "
                    "%s's range, read as inf)",
                    in->source, (long long)in->facts.nonfinite,
                    in->facts.nonfinite == 1 ? " is" : "s are", (long long)in->facts.overflowed,
                    in->facts.overflowed == 1 ? "" : "s", cli_type_name(in->facts.type));
    return CLI_EXIT_OK;
}

int cli_inputs_load(cli_input *inputs, int n, magnus_value_type requested,
                    cli_progress *progress) {
    for (int i = 0; i < n; i++) {
        inputs[i].M = NULL;
        inputs[i].is_file = false;
        inputs[i].type_note[0] = '\0';
        memset(&inputs[i].facts, 0, sizeof inputs[i].facts);
    }
    if (requested != MAGNUS_MM_TYPE_AUTO) {
        for (int i = 0; i < n; i++) {
            snprintf(inputs[i].type_note, sizeof inputs[i].type_note, "--type");
            int rc = load_input(&inputs[i], requested, progress);
            if (rc) return rc;
        }
        return CLI_EXIT_OK;
    }
    /* Each input's own type where it can be known before reading, and whether any is f64. */
    magnus_value_type own[2] = {MAGNUS_MM_TYPE_AUTO, MAGNUS_MM_TYPE_AUTO};
    bool any_f64 = false;
    for (int i = 0; i < n && i < 2; i++) {
        if (cli_is_generator_spec(inputs[i].source)) {
            own[i] = MAGNUS_FLOAT32;
            snprintf(inputs[i].type_note, sizeof inputs[i].type_note, "generator default");
        } else if (rereadable_file(inputs[i].source)) {
            magnus_mm_header h;
            magnus_status s = magnus_mm_header_read(&h, inputs[i].source);
            if (s) return cli_fail(s);
            own[i] = magnus_mm_field_type(h.field);
            note_field(&inputs[i], h.field);
        }
        any_f64 |= own[i] == MAGNUS_FLOAT64;
    }
    /* Streams first (they decide their own type), then the rest. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n && i < 2; i++) {
            bool stream = own[i] == MAGNUS_MM_TYPE_AUTO;
            if (stream != (pass == 0)) continue;
            int rc = load_input(&inputs[i], any_f64 ? MAGNUS_FLOAT64 : own[i], progress);
            if (rc) return rc;
            if (stream) note_field(&inputs[i], inputs[i].facts.header.field);
            any_f64 |= inputs[i].M->type == MAGNUS_FLOAT64;
        }
    /* Inputs of different types (an f32 one loaded before an f64 stream was seen): widen. */
    for (int i = 0; i < n && i < 2; i++) {
        if (inputs[i].M->type == MAGNUS_FLOAT64 || !any_f64) continue;
        magnus_csr wide = NULL;
        magnus_status s = magnus_csr_convert(&wide, inputs[i].M, MAGNUS_FLOAT64);
        if (s) return cli_fail(s);
        magnus_csr_free(&inputs[i].M);
        inputs[i].M = wide;
    }
    if (any_f64)
        for (int i = 0; i < n && i < 2; i++)
            if (own[i] != MAGNUS_FLOAT64 && (!inputs[i].is_file ||
                                             inputs[i].facts.header.field == MAGNUS_MM_PATTERN))
                snprintf(inputs[i].type_note, sizeof inputs[i].type_note,
                         "the other input is f64; its own type would be f32");
    return CLI_EXIT_OK;
}

void cli_inputs_free(cli_input *inputs, int n) {
    for (int i = 0; i < n; i++) magnus_csr_free(&inputs[i].M);
}

void cli_inputs_print_type(FILE *out, const cli_input *inputs, int n, int width) {
    bool same = n < 2 || !strcmp(inputs[0].type_note, inputs[1].type_note);
    for (int i = 0; i < n; i++) {
        if (!inputs[i].M) continue;
        if (same && i > 0) break;
        char head[32];
        snprintf(head, sizeof head, same || n < 2 ? "type:" : i == 0 ? "type A:" : "type B:");
        fprintf(out, "%-*s%s (%s)\n", width, head, cli_type_name(inputs[i].M->type),
                inputs[i].type_note);
    }
}

void cli_input_json(cli_json *j, const char *key, const cli_input *in) {
    cli_json_object(j, key);
    cli_json_string(j, "source", in->source);
    cli_json_int(j, "rows", in->M->rows);
    cli_json_int(j, "cols", in->M->cols);
    cli_json_int(j, "nnz", in->M->nnz);
    cli_json_real(j, "seconds", in->seconds);
    cli_json_string(j, "type", cli_type_name(in->M->type));
    cli_json_string(j, "type_note", in->type_note);
    if (in->is_file) {
        cli_json_string(j, "field", magnus_mm_field_name(in->facts.header.field));
        cli_json_string(j, "symmetry", magnus_mm_symmetry_name(in->facts.header.symmetry));
        cli_json_int(j, "stored", in->facts.header.stored);
    }
    cli_json_close(j);
}

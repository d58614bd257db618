/*
 * Where the tool's matrices come from: a Matrix Market file, or a generator written as a spec
 * ("rmat:14:4", "laplace2d:100:100", ...), so a multiply can run with no files at all.
 */
#ifndef MAGNUS_CLI_MATRIX_H
#define MAGNUS_CLI_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_common.h"

/* Specs and `magnus gen` share this list of kinds and arguments. */
#define CLI_GENERATOR_SPECS                                                                      \
    "  rmat:SCALE:PER_ROW[:SEED]          R-MAT graph, 2^SCALE rows (Graph500 a,b,c)\n"         \
    "  laplace2d:NX:NY                    5-point Laplacian on an NX x NY grid\n"               \
    "  laplace3d:NX:NY:NZ                 7-point Laplacian on an NX x NY x NZ grid\n"          \
    "  banded:N:LOWER:UPPER[:SEED]        N x N band with random values\n"                      \
    "  uniform:ROWS:COLS:PER_ROW[:SEED]   uniformly random columns, about PER_ROW per row\n"   \
    "  star:N:LONG:LEN:DEG[:SEED]         N x N star mixture: LONG rows of LEN entries among\n" \
    "                                     rows of DEG, each long row a column of DEG short rows"

/* A generator call, parsed and range-checked by the caller's rules only (the library checks
 * the rest and reports through its status). */
typedef struct cli_gen_request {
    const char *kind; /* "rmat", "laplace2d", "laplace3d", "banded", "uniform", "star" */
    int64_t n[4];     /* the integer arguments in order */
    double per_row;   /* uniform's PER_ROW (may be fractional) */
    uint64_t seed;
    magnus_value_type type;
    /* rmat: a, b, c and pattern (`magnus rmat`'s options); NULL for the Graph500 defaults */
    const magnus_rmat_options *rmat;
} cli_gen_request;

/*
 * Fills `req` from a kind name and its arguments (as text). With allow_seed, one extra
 * argument after the required ones is the seed (for seeded kinds). On failure returns false
 * and writes the reason to why[why_size].
 */
bool cli_gen_parse(cli_gen_request *req, const char *kind, int nargs, const char *const *args,
                   bool allow_seed, char *why, size_t why_size);
/* Runs the generator. */
magnus_status cli_gen_run(magnus_csr *out, const cli_gen_request *req, cli_progress *progress);
/* The same as the commands that report generation times run it (gen, rmat, demo): *seconds
 * receives the time, and the progress line is ended either way. */
magnus_status cli_gen_run_timed(magnus_csr *out, double *seconds, const cli_gen_request *req,
                                cli_progress *progress);
/* One-line description of the request, e.g. "rmat scale 14, 4 per row, seed 1" (", pattern"
 * after it for a pattern R-MAT). */
cli_text cli_gen_describe(const cli_gen_request *req);

/* True when `source` names a generator ("kind:..."), not a file. */
bool cli_is_generator_spec(const char *source);

/*
 * Loads `source` (file or spec) with values of `type` (MAGNUS_MM_TYPE_AUTO: a file's field
 * decides; generators need a concrete type). Prints any error itself and returns an
 * exit code: CLI_EXIT_OK, CLI_EXIT_FAILURE (library/file error) or CLI_EXIT_USAGE (malformed
 * spec). *seconds receives the time taken to read or generate.
 */
int cli_matrix_load(magnus_csr *out, double *seconds, const char *source, magnus_value_type type,
                    cli_progress *progress);

/*
 * The inputs of one command (A, or A and B) with the value type rule of `multiply`, `info`,
 * `params` and `bench`:
 *   --type f32|f64  every input is read as that type;
 *   auto (default)  a file's field decides: real and integer -> f64 (the text is double
 *                   precision), pattern -> f32 (values are 1 and products are integer counts,
 *                   exact in f32 up to 2^24); a generator spec gives f32. When the inputs differ,
 *                   all are f64 (an f32 one read or generated as f64, or a pattern matrix
 *                   widened exactly).
 * Files are sized up with magnus_mm_header_read first; a pipe or "-" cannot be read twice, so
 * it is read first, with the type its own field calls for.
 */
typedef struct cli_input {
    const char *source;
    magnus_csr M;
    double seconds;          /* read or generation time */
    bool is_file;            /* a Matrix Market file: facts are valid (a warning on stderr
                                when it is not finite or holds both triangles of a symmetric
                                kind) */
    magnus_mm_facts facts;
    char type_note[128];     /* why M has its type: "from the file's 'real' field", ... */
} cli_input;

/* Loads inputs[0..n) (their source set by the caller). Prints any error itself and returns an
 * exit code as cli_matrix_load does; a warning goes to stderr for a file with non-finite
 * values. Free the matrices with cli_inputs_free. */
int cli_inputs_load(cli_input *inputs, int n, magnus_value_type requested,
                    cli_progress *progress);
void cli_inputs_free(cli_input *inputs, int n);
/* "type:     f64 (from the file's 'real' field)" lines, one per input (one line when the
 * inputs agree), as label "type:" padded to `width`. */
void cli_inputs_print_type(FILE *out, const cli_input *inputs, int n, int width);

/* Report helpers: "A:          82,168 x 82,168, 948,464 entries (file.mtx.gz, read in 1.20 s)";
 * `how` is "read" or "generated", source/how may be NULL. */
void cli_matrix_print(FILE *out, const char *label, const magnus_csr_s *M, const char *source,
                      const char *how, double seconds);
/* The same as a JSON object member: {"source", "rows", "cols", "nnz", "seconds"}. */
void cli_matrix_json(cli_json *j, const char *key, const magnus_csr_s *M, const char *source,
                     double seconds);
/* An input as a JSON member: cli_matrix_json's fields plus "type", "type_note" and, for
 * files, "field", "symmetry" and "stored". */
void cli_input_json(cli_json *j, const char *key, const cli_input *in);

/* Whether a symmetric or skew-symmetric file stores entries on both sides of the diagonal
 * (the format stores one triangle; each entry is mirrored, so a pair stored twice is summed),
 * and its description: "a symmetric file holding both triangles (3 entries below the
 * diagonal, 2 above)". */
bool cli_mm_both_triangles(const magnus_mm_facts *facts);
typedef struct cli_triangles_text {
    char s[2 * sizeof(cli_text) + 128];
} cli_triangles_text;
cli_triangles_text cli_mm_both_triangles_text(const magnus_mm_facts *facts);

#endif

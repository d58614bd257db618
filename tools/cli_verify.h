/*
 * Verification of a computed product C = A·B, independent of how C was computed:
 *   exact   recomputes A·B with the CPU reference and compares structure (exactly) and values
 *           (|c - e| <= tol · (|A|·|B|) entry by entry); needs the reference's memory and time,
 *           so it is for products up to a limit;
 *   random  for any size, in time and memory linear in nnz: for k random vectors x (fp64,
 *           entries ±[0.5, 1], seeded) compares y = C·x with z = A·(B·x), both in fp64 on
 *           the host, against the scale w = |A|·(|B|·|x|):
 *             normwise error   ||y - z||_2 / ||w||_2   (the figure reported as "rel. error")
 *             rowwise error    max_i |y_i - z_i| / w_i (0/0 counts as 0, x/0 as infinite)
 *           both must stay below the type's tolerance (float32 1e-4, float64 1e-10, as
 *           magnus_csr_compare's defaults: C's entries are accurate to tol · (|A|·|B|), so
 *           both errors are bounded by tol). Plus the structure, exactly: every row of C must
 *           hold exactly the columns of an independent symbolic product (a marker per column,
 *           threads over rows), which also gives nnz(A·B). Plus 64 rows compared entry by
 *           entry with the same rows recomputed on the host: the 32 with most products and 32
 *           random ones (one wrong entry of a long row hardly moves that row's C·x). Rows
 *           whose vector sums are not finite (NaN or infinities in C or among the products)
 *           leave the vector errors and are compared entry by entry: NaN and infinities
 *           exactly (same position, same value), finite values with the tolerance.
 * Values that cancel to zero stay explicit entries on both sides (magnus keeps every product's
 * column), so structures compare exactly.
 */
#ifndef MAGNUS_CLI_VERIFY_H
#define MAGNUS_CLI_VERIFY_H

#include "cli_common.h"

typedef enum verify_mode {
    VERIFY_AUTO,  /* exact up to exact_limit products, random beyond */
    VERIFY_EXACT,
    VERIFY_RANDOM
} verify_mode;

/* Where the randomized check's C·x runs (--verify-on). */
typedef enum verify_where {
    VERIFY_ON_AUTO,   /* on the device that multiplied when C is still there, else the host */
    VERIFY_ON_HOST,
    VERIFY_ON_DEVICE  /* on the device, an error when C is not there */
} verify_where;
/* Parses --verify-on's value ("auto", "host", "device"); false if unknown. */
bool verify_where_parse(const char *text, verify_where *out);

#define VERIFY_DEFAULT_EXACT_LIMIT 300000000 /* products: ~3 x 10^8 */
#define VERIFY_DEFAULT_VECTORS 4

typedef struct verify_options {
    verify_mode mode;
    int64_t exact_limit; /* VERIFY_AUTO: products up to which the exact check runs */
    int vectors;         /* random: how many vectors x (1..64) */
    uint64_t seed;       /* random: seed of the vectors */
    /* random: C where the multiply left it (ctx and dC, NULL when it is not kept): the
     * vectors' products C·x, the pass over the largest matrix, run there by SpMV in C's
     * type, with that SpMV's rounding bound taken off each row's error; B·x, A·(B·x) and the
     * scales stay on the host (a pass over A and B). NULL, or where = VERIFY_ON_HOST: all on
     * the host. The report says where. */
    magnus_context ctx;
    const struct magnus_device_csr_s *dC;
    verify_where where;
} verify_options;

/* Defaults: AUTO, VERIFY_DEFAULT_EXACT_LIMIT, VERIFY_DEFAULT_VECTORS, seed 1. */
void verify_options_init(verify_options *opt);
/* Parses the value of --verify[=MODE] ("" or "auto", "exact", "random"); false if unknown. */
bool verify_mode_parse(const char *text, verify_mode *out);

typedef struct verify_report {
    verify_mode method; /* what ran: VERIFY_EXACT or VERIFY_RANDOM */
    bool matched;       /* every check passed */
    double seconds;     /* the whole verification */
    double reference_seconds; /* exact: the CPU reference's multiply alone (with |A|·|B|,
                                 which it forms alongside), to set beside the device's time */
    /* exact */
    magnus_compare_result compare; /* first mismatch (row -1 when none) and max relative error */
    /* random */
    int vectors;
    uint64_t seed;
    double tolerance;
    bool vectors_checked; /* false if C was invalid or misshapen, or memory ran out */
    char vectors_where[256]; /* where C·x ran: "host", or "device BACKEND:N NAME (...)", or
                                "host (device: why not)" */
    double vectors_seconds;  /* the vectors' products and errors, end to end */
    double rel_error;     /* normwise, largest over the vectors */
    double rel_error_row; /* rowwise, largest over the vectors and rows */
    int64_t worst_row;    /* the row of rel_error_row (-1 if all errors are 0) */
    bool structure_checked;  /* false if the marker arrays could not be allocated */
    bool structure_matched;
    int64_t structure_nnz;   /* nnz(A·B) by the independent count */
    int64_t structure_bad_row; /* first row of C whose columns differ (-1: none) */
    int rows_sampled;          /* rows recomputed on the host and compared entry by entry */
    double rows_sample_error;  /* largest |c - e| / (|A|·|B|) over them (inf: columns differ) */
    int64_t rows_sample_bad_row; /* first of them beyond the tolerance (-1: none) */
    int64_t nonfinite_rows;    /* rows whose C·x, A·(B·x) or |A|·(|B|·|x|) was not finite
                                  (a NaN or an infinity in C or among the products): out of
                                  the vector errors, compared entry by entry instead */
    int64_t nonfinite_bad_row; /* the first of them that differs (-1: none) */
    char detail[512];          /* when not matched: the first problem, one line */
} verify_report;

/* "exact" or "random" (what ran). */
const char *verify_method_name(verify_mode method);

/*
 * Checks C against A·B by the options' method (AUTO chooses by `products`, the intermediate
 * products of A·B). Returns success, MAGNUS_ERROR_MISMATCH (report->matched false; detail
 * names the first problem) or an error of the check itself (e.g. out of host memory).
 */
magnus_status verify_product(verify_report *report, const magnus_csr_s *C, const magnus_csr_s *A,
                             const magnus_csr_s *B, int64_t products, const verify_options *opt,
                             cli_progress *progress);

/* The two methods (cli_verify.c, cli_verify_random.c). */
magnus_status verify_exact(verify_report *report, const magnus_csr_s *C, const magnus_csr_s *A,
                           const magnus_csr_s *B, cli_progress *progress);

/* What the random method checks. `magnus multiply --verify` runs all of it at the type's
 * tolerance; `magnus bench` (tools/bench/bench_verify.c) runs the vectors alone at its --rtol,
 * so that both binaries' C·x checks are one implementation. */
typedef struct verify_random_settings {
    int vectors;       /* random vectors x (clamped to 1..64) */
    uint64_t seed;     /* of the vectors and of the randomly sampled rows */
    double tolerance;  /* relative to |A|·|B|: verify_random_tolerance() for the CLI */
    /* Only the random vectors: no structure pass and no sampled rows. The structure pass
     * takes time in proportion to the products of A·B, not to nnz, and the sampled heaviest
     * rows are recomputed on one thread: too slow beside the bench's timed runs. */
    bool vectors_only;
    magnus_context ctx; /* verify_options.ctx, .dC and .where */
    const struct magnus_device_csr_s *dC;
    verify_where where;
} verify_random_settings;

/* The CLI's tolerance for C = A·B: float64 (A and C) 1e-10, otherwise 1e-4. */
double verify_random_tolerance(const magnus_csr_s *C, const magnus_csr_s *A);
/* Expects a zeroed report (verify_product clears it); fills the random fields. */
magnus_status verify_random(verify_report *report, const magnus_csr_s *C, const magnus_csr_s *A,
                            const magnus_csr_s *B, const verify_random_settings *settings,
                            cli_progress *progress);

#endif

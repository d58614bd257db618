/*
 * magnus-rmat-table3: regenerates the gMAGNUS paper's Table III (properties of R-MAT pairs)
 * with magnus_gen_rmat and the CPU reference, to check that our R-MAT matches the paper's.
 *
 * For each scale, A (a_per_row edges per row, seed_a) and B (b_per_row, seed_b) are drawn with
 * the Graph500 probabilities; the table gives nnz/n of A and B, the intermediate products per
 * row (the paper's Ĉ.nnz/Ĉ.n) and C.nnz/C.n, next to the paper's values where it has them
 * (A 4/row, B 8/row). nnz(C) comes from the reference's symbolic pass only, since C itself
 * (2·10^9 entries at scale 20) would not fit in memory. Timings go to stderr so stdout is
 * reproducible. See docs/rmat.md.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "magnus/magnus.h"
#include "reference_spgemm.h"

/* Table III of the paper, A.nnz/A.n = 4 and B.nnz/B.n = 8, scales 15..20. */
static const double paper_c_per_row[] = {477.6, 633.5, 835.0, 1112.7, 1471.9, 1944.1};
static const double paper_products_per_row[] = {819.9, 1068.2, 1382.7, 1802.7, 2342.3, 3043.1};
#define PAPER_FIRST_SCALE 15
#define PAPER_LAST_SCALE 20

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void usage(FILE *f) {
    fprintf(f, "usage: magnus-rmat-table3 [--scales FIRST-LAST] [--a-per-row N] [--b-per-row N]\n"
               "                          [--seed-a S] [--seed-b S] [--threads T]\n"
               "defaults: --scales 15-18 --a-per-row 4 --b-per-row 8 --seed-a 1 --seed-b 2\n");
}

static int fail(const char *what, magnus_status s) {
    fprintf(stderr, "magnus-rmat-table3: %s: %s: %s\n", what, magnus_status_string(s),
            magnus_last_error());
    return 1;
}

int main(int argc, char **argv) {
    int first = 15, last = 18, threads = 0;
    long long a_per_row = 4, b_per_row = 8;
    unsigned long long seed_a = 1, seed_b = 2;
    for (int i = 1; i < argc; i += 2) { /* options come in pairs: --name value */
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!val) {
            usage(stderr);
            return 2;
        }
        int ok = 1;
        if (!strcmp(arg, "--scales"))
            ok = sscanf(val, "%d-%d", &first, &last) == 2 ||
                 (sscanf(val, "%d", &first) == 1 && (last = first, 1));
        else if (!strcmp(arg, "--a-per-row"))
            ok = sscanf(val, "%lld", &a_per_row) == 1;
        else if (!strcmp(arg, "--b-per-row"))
            ok = sscanf(val, "%lld", &b_per_row) == 1;
        else if (!strcmp(arg, "--seed-a"))
            ok = sscanf(val, "%llu", &seed_a) == 1;
        else if (!strcmp(arg, "--seed-b"))
            ok = sscanf(val, "%llu", &seed_b) == 1;
        else if (!strcmp(arg, "--threads"))
            ok = sscanf(val, "%d", &threads) == 1;
        else
            ok = 0;
        if (!ok || first > last) {
            fprintf(stderr, "magnus-rmat-table3: bad option %s %s\n", arg, val);
            usage(stderr);
            return 2;
        }
    }
    bool paper_set = a_per_row == 4 && b_per_row == 8;

    printf("R-MAT a=0.57 b=0.19 c=0.19, A %lld/row seed %llu, B %lld/row seed %llu "
           "(edges drawn per row, before merging duplicates)\n\n",
           a_per_row, seed_a, b_per_row, seed_b);
    printf(
        "| scale | n | A.nnz/n | B.nnz/n | products/n | paper | C.nnz/n | paper | C vs paper |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int scale = first; scale <= last; scale++) {
        double t0 = now_seconds();
        magnus_rmat_options opt;
        magnus_rmat_options_init(&opt);
        opt.scale = scale;
        opt.pattern = 1;
        magnus_csr A = NULL, B = NULL;
        magnus_status s;
        opt.nnz_per_row = a_per_row;
        opt.seed = seed_a;
        if ((s = magnus_gen_rmat(&A, &opt, NULL, NULL))) return fail("generating A", s);
        opt.nnz_per_row = b_per_row;
        opt.seed = seed_b;
        if ((s = magnus_gen_rmat(&B, &opt, NULL, NULL))) {
            magnus_csr_free(&A);
            return fail("generating B", s);
        }
        double t1 = now_seconds();
        magnus_csr_stats stats;
        int64_t nnz_c = 0;
        if ((s = magnus_csr_stats_compute(&stats, A, B)) ||
            (s = magnus_reference_count(&nnz_c, A, B, threads))) {
            magnus_csr_free(&A);
            magnus_csr_free(&B);
            return fail("multiplying", s);
        }
        double t2 = now_seconds();
        double n = (double)A->rows;
        char paper_p[32] = "-", paper_c[32] = "-", diff[32] = "-";
        if (paper_set && scale >= PAPER_FIRST_SCALE && scale <= PAPER_LAST_SCALE) {
            double pc = paper_c_per_row[scale - PAPER_FIRST_SCALE];
            snprintf(paper_p, sizeof paper_p, "%.1f",
                     paper_products_per_row[scale - PAPER_FIRST_SCALE]);
            snprintf(paper_c, sizeof paper_c, "%.1f", pc);
            snprintf(diff, sizeof diff, "%+.1f%%", 100.0 * ((double)nnz_c / n - pc) / pc);
        }
        printf("| %d | %lld | %.2f | %.2f | %.1f | %s | %.1f | %s | %s |\n", scale,
               (long long)A->rows, (double)A->nnz / n, (double)B->nnz / n,
               (double)stats.products / n, paper_p, (double)nnz_c / n, paper_c, diff);
        fflush(stdout);
        fprintf(stderr, "scale %d: generated in %.2f s, nnz(C) counted in %.2f s\n", scale, t1 - t0,
                t2 - t1);
        magnus_csr_free(&A);
        magnus_csr_free(&B);
    }
    return 0;
}

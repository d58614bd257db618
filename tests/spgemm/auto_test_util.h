/*
 * What the tests of AUTO share (test_spgemm_auto.c, test_spgemm_auto_rows.c; the rule itself
 * is described there): the rule recomputed on the host, the built inputs, the check of one
 * product. auto_test_util.c defines them.
 */
#ifndef MAGNUS_AUTO_TEST_UTIL_H
#define MAGNUS_AUTO_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "device_test_util.h"

#define FULL 8      /* entries of B's full rows */
#define B_COLS 512  /* columns of B (and C) */
#define SHORT 40    /* products of the short rows of the built inputs */

typedef struct host_share {
    int64_t total;         /* products of A·B */
    int64_t long_products; /* those of rows with more than the threshold */
    int64_t long_rows;
    double share;          /* long_products / total (0 without products) */
} host_share;

/* The overflow rows of A·B from C: rows of (N, L] products with more than N entries. `share`
 * is their products over the total; `bound` what the device's sample of S evenly spaced
 * product positions may differ from it by: each maximal run of consecutive overflow rows is
 * one interval of positions, whose sample count is within one of its length times S / total,
    * and the positions are rounded to whole products (one more each side). */
typedef struct host_overflow {
    int64_t rows;
    double share, bound;
} host_overflow;

/* Rows of A (each its number of products in A·B) and B: B has k_full rows of FULL entries,
    * then rows of 1 .. FULL - 1 entries; a row of p products takes p / FULL consecutive full rows
 * (from a start that moves with the row, so that C's rows differ) and the row of p % FULL.
 * build_pair spreads B's rows over B_COLS columns (C's rows have at most B_COLS entries);
 * build_tiled_pair tiles `width` columns with them, B's row r at columns r * FULL + j (mod
 * width), so that a row of p consecutive full rows has min(p, width) entries. */
typedef struct pair {
    magnus_csr A, B;
} pair;

int type_supported(magnus_context ctx, magnus_value_type t);
double value_of(uint64_t a, uint64_t b);
int64_t row_products(const magnus_csr_s *A, const magnus_csr_s *B, int64_t i);
host_share share_of(const magnus_csr_s *A, const magnus_csr_s *B, int64_t threshold);
magnus_algorithm rule_for(const host_share *h);
int64_t binned_capacity(const magnus_context_s *ctx, magnus_value_type type);
int64_t numeric_capacity(const magnus_context_s *ctx, magnus_value_type type);
host_overflow overflow_of(const magnus_csr_s *A, const magnus_csr_s *B,
    const magnus_csr_s *C, int64_t N, int64_t L, int64_t total);
int64_t rule_capacity(uint64_t budget);
pair build_pair_in(const int64_t *products, int64_t rows, magnus_value_type type,
    int64_t width, bool tiled);
pair build_pair(const int64_t *products, int64_t rows, magnus_value_type type);
pair build_tiled_pair(const int64_t *products, int64_t rows, magnus_value_type type,
    int64_t width);
void pair_free(pair *P);
int64_t *row_plan(int64_t n_long, int64_t long_products, int64_t short_total,
    int64_t *rows);
pair planned_pair(int64_t n_long, int64_t long_products, int64_t short_total,
    magnus_value_type type);
void for_each_type_on_share_rule(void (*body)(magnus_context ctx, magnus_value_type type,
    int64_t L));
magnus_report check_auto_overflow(magnus_context ctx, const magnus_csr_s *A,
    const magnus_csr_s *B, host_share *out,
    host_overflow *over_out, const char *label);
magnus_report check_auto(magnus_context ctx, const magnus_csr_s *A, const magnus_csr_s *B,
    host_share *out, const char *label);
void share_rule_only(void);

#endif /* MAGNUS_AUTO_TEST_UTIL_H */

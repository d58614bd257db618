/*
 * Matrix Market reading, shared between the parser (mm_read.c) and the CSR assembly
 * (mm_build.c).
 */
#ifndef MAGNUS_MM_INTERNAL_H
#define MAGNUS_MM_INTERNAL_H

#include <stdint.h>

#include "magnus/magnus.h"

/* The banner's field and symmetry are the public magnus_mm_field / magnus_mm_symmetry. */

/*
 * Entries in file order, 0-based. val is NULL for pattern files; otherwise each value is
 * already rounded to the requested type (and widened to double without loss).
 */
typedef struct mm_triplets {
    int32_t *row;
    int32_t *col;
    double *val;
    int64_t count;
    int64_t capacity;
} mm_triplets;

/*
 * Builds the CSR matrix from the triplets: mirrors off-diagonal entries of symmetric (same
 * value) and skew-symmetric (negated value) files, sorts each row by column, sums duplicate
 * entries in file order (a pattern entry counts 1: duplicates sum to their count) and keeps explicit
 * zeros. Frees the triplets' arrays as soon as they are no longer needed (always, even on
 * error). Only MAGNUS_ERROR_OUT_OF_HOST_MEMORY can fail; the detail message names `path`.
 */
magnus_status magnus_mm_build_csr(magnus_csr *out, mm_triplets *t, int64_t rows, int64_t cols,
                                  magnus_mm_symmetry symmetry, magnus_value_type type, const char *path);

void magnus_mm_triplets_free(mm_triplets *t);

#endif

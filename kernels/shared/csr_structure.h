/*
 * A CSR matrix's structure on the device: the structure fingerprint, which the host
 * (magnus_csr_structure_fingerprint, runtime/device/device_csr_structure.c) and the kernel
 * prim_csr_structure (kernels/primitives.cl) compute alike from these functions, and the
 * kernel's check of magnus_csr_validate's rules (runtime/core/csr_rules.h): its reason codes
 * and the layout of its result.
 */
#ifndef MAGNUS_SHARED_CSR_STRUCTURE_H
#define MAGNUS_SHARED_CSR_STRUCTURE_H

#include "mg_shared.h"

/*
 * The fingerprint of rows, cols, nnz, row_ptr and col_idx is
 *
 *   mg_fp_finish(rows, cols, nnz, S), where
 *   S = sum over j <= rows      of mg_fp_term(MG_FP_ROW_PTR, j, row_ptr[j])
 *     + sum over q < (nnz+1)/2  of mg_fp_term(MG_FP_COL_PAIR, q,
 *                                             mg_fp_pair(col_idx[2q], col_idx[2q + 1]))
 *
 * in arithmetic modulo 2^64, the columns taken two by two (their 32 bits each; an odd nnz's
 * last pair is completed with MG_FP_PAD, which no column is). A sum, because addition modulo
 * 2^64 does not depend on the order of its terms: work items and groups add their partial
 * sums in whatever order the reduction takes, the host adds the groups' sums, and the value is
 * bit for bit the host's sequential loop's. The order of the entries still counts, because
 * each term mixes its position with its value: a column moved, two entries swapped or a row
 * pointer shifted change terms, not just their order. A term is splitmix64 (its finalizer, a
 * bijection of 64 bits with full avalanche) of the value offset by the position's step of
 * its Weyl sequence, ((index << 2) | array) times the golden-ratio constant: for one position
 * distinct values give distinct terms, the positions' offsets are distinct and spread evenly
 * (indices stay below 2^62: nnz * 4 bytes of columns fit in 64 bits), so the terms of
 * different positions look independent and two different structures share a fingerprint
 * with a chance of about 2^-64. The columns go in pairs to halve the mixing (the host pass
 * costs about what the earlier sequential hash did).
 */
#define MG_FP_ROW_PTR 1u
#define MG_FP_COL_PAIR 2u
#define MG_FP_SHAPE 3u
#define MG_FP_PAD 0xffffffffu

/* splitmix64's finalizer (Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014; the constants of Vigna's splitmix64.c). */
MG_SHARED_FN mg_u64 mg_fp_mix(mg_u64 x) {
    x ^= x >> 30;
    x *= (mg_u64)0xbf58476d1ce4e5b9;
    x ^= x >> 27;
    x *= (mg_u64)0x94d049bb133111eb;
    return x ^ (x >> 31);
}

/* The term of element `index` of array `array` (MG_FP_*) holding `value`. */
MG_SHARED_FN mg_u64 mg_fp_term(mg_u32 array, mg_u64 index, mg_u64 value) {
    return mg_fp_mix(value + ((index << 2) | array) * (mg_u64)0x9e3779b97f4a7c15 +
                     (mg_u64)0x6d61676e75730002);
}

/* Two columns (or a column and MG_FP_PAD) as one value. */
MG_SHARED_FN mg_u64 mg_fp_pair(mg_u32 first, mg_u32 second) {
    return (mg_u64)first | (mg_u64)second << 32;
}

/* The fingerprint from the arrays' sum S: the shape's terms added, then mixed once more. */
MG_SHARED_FN mg_u64 mg_fp_finish(mg_u64 rows, mg_u64 cols, mg_u64 nnz, mg_u64 sum) {
    sum += mg_fp_term(MG_FP_SHAPE, 0, rows);
    sum += mg_fp_term(MG_FP_SHAPE, 1, cols);
    sum += mg_fp_term(MG_FP_SHAPE, 2, nnz);
    return mg_fp_mix(sum);
}

/*
 * The check's result. Positions follow magnus_csr_validate's order: 0 is row_ptr[0], 1 + i
 * row i (its pointers, then its entries), rows + 1 row_ptr[rows]; MG_CSR_NONE when nothing is
 * broken. The first broken rule is the one of the lowest (position, entry), entry being the
 * index into col_idx for a column's rule and 0 otherwise (a row whose pointers are broken has
 * its entries unchecked, so one row never has both).
 */
#define MG_CSR_OK 0u
#define MG_CSR_FIRST 1u        /* row_ptr[0] != 0 */
#define MG_CSR_NOT_MONOTONE 2u /* row_ptr[i + 1] < row_ptr[i] */
#define MG_CSR_PAST_NNZ 3u     /* row_ptr[i + 1] > nnz */
#define MG_CSR_COLUMN 4u       /* a column outside 0..cols-1 */
#define MG_CSR_DUPLICATE 5u    /* a column equal to the one before it in its row */
#define MG_CSR_UNSORTED 6u     /* a column below the one before it in its row */
#define MG_CSR_LAST 7u         /* row_ptr[rows] != nnz */
#define MG_CSR_NONE (~(mg_u64)0)

/* Per work group, MG_CSR_PART_WORDS mg_u64 in the result buffer: the group's first broken
 * rule (position, entry, reason) and its part of the fingerprint's sum S. */
#define MG_CSR_PART_WORDS 4u
#define MG_CSR_PART_AT 0u
#define MG_CSR_PART_ENTRY 1u
#define MG_CSR_PART_REASON 2u
#define MG_CSR_PART_SUM 3u

/* Local memory: the same four words per work item, as four arrays of gs, then the long rows
 * the group found in one step (gs words) and their count (one word). */
MG_SHARED_FN mg_u64 mg_csr_structure_bytes(mg_u64 gs) {
    return (gs * (MG_CSR_PART_WORDS + 1u) + 1u) * 8u;
}

/* Rows with more entries than this are checked by a whole work group, not a team of `lanes`
 * (so a hub row of a power-law matrix does not leave one team walking it alone while the
 * rest of the device waits: 1.3 ms of 2^18 rows' check on the H200, 2026-12-02). */
MG_SHARED_FN mg_u64 mg_csr_long_row(mg_u64 lanes) { return 16u * lanes; }

#endif /* MAGNUS_SHARED_CSR_STRUCTURE_H */

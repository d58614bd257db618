/*
 * Distinct random columns for the host generators (uniform, star): a small open-addressing
 * set and Floyd's sampling of k distinct values of [0, cols).
 */
#ifndef MAGNUS_SAMPLE_COLUMNS_H
#define MAGNUS_SAMPLE_COLUMNS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "prng.h"

/* A set of distinct columns by open addressing: table of 2^bits slots, -1 empty. */
typedef struct column_set {
    int32_t *slots;
    uint64_t mask;
} column_set;

/* Inserts col; returns false if it was already present. */
static inline bool column_set_insert(column_set *set, int32_t col) {
    uint64_t h = ((uint64_t)(uint32_t)col * 0x9e3779b97f4a7c15ULL) >> 20;
    for (;;) {
        h &= set->mask;
        if (set->slots[h] == col) return false;
        if (set->slots[h] < 0) {
            set->slots[h] = col;
            return true;
        }
        h++;
    }
}

/*
 * Writes k distinct columns of [0, cols), each k-subset equally likely, by Floyd's sampling
 * algorithm (Bentley & Floyd, CACM 1987): for j = cols-k .. cols-1 pick t in [0, j]; take t,
 * or j if t is taken already. Needs k draws, whatever k is. The set must have more than k
 * slots; it is cleared first, so keep it near 2k for rows much shorter than the longest.
 */
static inline void sample_columns(int32_t *row, int64_t k, int64_t cols, column_set *set,
                                  magnus_prng *g) {
    int64_t slots = (int64_t)set->mask + 1;
    memset(set->slots, 0xff, (size_t)slots * sizeof *set->slots);
    int64_t n = 0;
    for (int64_t j = cols - k; j < cols; j++) {
        int32_t t = (int32_t)magnus_prng_below(g, (uint64_t)j + 1);
        int32_t pick = column_set_insert(set, t) ? t : (int32_t)j;
        if (pick != t) column_set_insert(set, pick);
        row[n++] = pick;
    }
}

#endif

/*
 * Sorting the column indices of one CSR row on the host (CPU reference and generators).
 *
 * Rows are short on average but some are long (a power-law row of C can hold 10^5 columns),
 * so short rows use insertion sort and long rows an LSD radix sort on 8-bit digits, which is
 * linear in the row length and needs no comparator calls (qsort was the bottleneck of the
 * reference SpGEMM). Keys are column indices: non-negative int32.
 */
#ifndef MAGNUS_SORT_COLUMNS_H
#define MAGNUS_SORT_COLUMNS_H

#include <stdint.h>
#include <string.h>

/* Below this length insertion sort beats the radix sort's fixed cost of 256 counters. */
#define MAGNUS_SORT_COLUMNS_INSERTION_MAX 48

static inline void magnus_insertion_sort_i32(int32_t *keys, int64_t n) {
    for (int64_t i = 1; i < n; i++) {
        int32_t key = keys[i];
        int64_t j = i - 1;
        while (j >= 0 && keys[j] > key) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = key;
    }
}

/* Number of bits needed for keys in [0, bound): what the radix sort must look at. */
static inline int magnus_key_bits(int64_t bound) {
    int bits = 0;
    while (bits < 63 && ((int64_t)1 << bits) < bound) bits++;
    return bits;
}

/*
 * Sorts keys[0..n) ascending; all keys lie in [0, 2^key_bits). tmp has room for n keys and is
 * scratch. The result is in keys.
 */
static inline void magnus_sort_columns(int32_t *keys, int32_t *tmp, int64_t n, int key_bits) {
    if (n <= MAGNUS_SORT_COLUMNS_INSERTION_MAX) {
        magnus_insertion_sort_i32(keys, n);
        return;
    }
    int32_t *src = keys, *dst = tmp;
    for (int shift = 0; shift < key_bits; shift += 8) {
        int64_t count[256] = {0};
        for (int64_t i = 0; i < n; i++) count[((uint32_t)src[i] >> shift) & 255u]++;
        /* A digit shared by every key leaves the order unchanged: skip the pass. */
        if (count[((uint32_t)src[0] >> shift) & 255u] == n) continue;
        int64_t sum = 0;
        for (int d = 0; d < 256; d++) {
            int64_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (int64_t i = 0; i < n; i++) dst[count[((uint32_t)src[i] >> shift) & 255u]++] = src[i];
        int32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys) memcpy(keys, src, (size_t)n * sizeof *keys);
}

#endif

/*
 * The library's own pseudo-random numbers, so a generator seeded alike gives bit-identical
 * matrices on every machine, compiler and C library (rand() and random() differ between C
 * libraries, and their state is global).
 *
 * splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number generators", 2014)
 * turns a 64-bit seed, however regular (0, 1, 2...), into well-mixed state words;
 * xoshiro256** (Blackman, Vigna: "Scrambled linear pseudorandom number generators", 2018)
 * produces the stream. Both are written here from their published definitions.
 *
 * Independent streams for the parts of one generation (edges, values) come from seeding with
 * magnus_prng_derive(seed, purpose), never from sharing one stream, so that changing how many
 * numbers one part draws cannot shift the numbers of another.
 */
#ifndef MAGNUS_PRNG_H
#define MAGNUS_PRNG_H

#include <stdint.h>

typedef struct magnus_prng {
    uint64_t s[4];
} magnus_prng;

/* One step of splitmix64: advances *state and returns the next mixed word. */
static inline uint64_t magnus_splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A seed for an independent stream, from a user seed and a small constant naming its use. */
static inline uint64_t magnus_prng_derive(uint64_t seed, uint64_t purpose) {
    uint64_t state = seed ^ (purpose * 0xd1342543de82ef95ULL);
    return magnus_splitmix64(&state);
}

static inline void magnus_prng_seed(magnus_prng *g, uint64_t seed) {
    uint64_t state = seed;
    for (int i = 0; i < 4; i++) g->s[i] = magnus_splitmix64(&state);
    /* splitmix64 is a bijection of distinct counters, so the four words are never all zero
     * (the one state xoshiro must avoid) unless by a 2^-256 coincidence; guard anyway. */
    if ((g->s[0] | g->s[1] | g->s[2] | g->s[3]) == 0) g->s[0] = 1;
}

static inline uint64_t magnus_prng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256**: next 64 uniformly distributed bits. */
static inline uint64_t magnus_prng_next(magnus_prng *g) {
    uint64_t *s = g->s;
    uint64_t result = magnus_prng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = magnus_prng_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, bound) for bound >= 1, by Lemire's multiply-shift with rejection, so
 * every value is exactly equally likely. */
static inline uint64_t magnus_prng_below(magnus_prng *g, uint64_t bound) {
    uint64_t x = magnus_prng_next(g);
    __uint128_t m = (__uint128_t)x * bound;
    uint64_t low = (uint64_t)m;
    if (low < bound) {
        uint64_t threshold = -bound % bound;
        while (low < threshold) {
            x = magnus_prng_next(g);
            m = (__uint128_t)x * bound;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double magnus_prng_unit(magnus_prng *g) {
    return (double)(magnus_prng_next(g) >> 11) * 0x1.0p-53;
}

/*
 * A matrix value uniform in [0.5, 1.5), from one 64-bit draw `bits`. The float64 value keeps
 * 52 random bits and the float32 value the top 23 of the same bits: both are exact sums
 * 0.5 + k*2^-p (no rounding, so never 1.5), and a float32 matrix equals its float64 twin
 * truncated to float precision.
 */
static inline double magnus_prng_value64(uint64_t bits) {
    return 0.5 + (double)(bits >> 12) * 0x1.0p-52;
}
static inline float magnus_prng_value32(uint64_t bits) {
    return 0.5f + (float)(bits >> 41) * 0x1.0p-23f;
}

#endif

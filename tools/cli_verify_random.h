/*
 * What the two parts of verify_random() share: cli_verify_random.c (structure and vectors)
 * and cli_verify_rows.c (rows checked entry by entry). Not part of the CLI's interface
 * (cli_verify.h is).
 */
#ifndef MAGNUS_CLI_VERIFY_RANDOM_H
#define MAGNUS_CLI_VERIFY_RANDOM_H

#include <stdbool.h>
#include <stdint.h>

#include "cli_verify.h"

static inline double value_at(const magnus_csr_s *M, int64_t k) {
    return M->type == MAGNUS_FLOAT64 ? ((const double *)M->values)[k]
                                     : (double)((const float *)M->values)[k];
}

/* The random vectors' and the sampled rows' generator (seeded by the caller). */
static inline uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* An entry of a random vector x: ±[0.5, 1], a random sign and every mantissa bit random
 * (errors cancel no more often than chance, and every column counts); the randomized check's
 * vectors and the bench's C·x fingerprints (tools/bench/bench_fingerprint.c). */
static inline double verify_random_entry(uint64_t *state) {
    const uint64_t bits = splitmix64(state);
    return (bits & 1 ? -1.0 : 1.0) * (0.5 + 0.5 * (double)(bits >> 11) * 0x1.0p-53);
}

/* The rows checked entry by entry: a sample (the rows with most products and random ones,
 * drawn from seed) when `sample`, and every row marked in nonfinite[] (may be NULL). Fills
 * the report's rows_sample_* and nonfinite_* fields; a status (with its message) when the
 * arrays do not fit. */
magnus_status verify_random_rows(verify_report *r, const magnus_csr_s *C, const magnus_csr_s *A,
                                 const magnus_csr_s *B, uint64_t seed, bool sample,
                                 const uint8_t *nonfinite);

#endif /* MAGNUS_CLI_VERIFY_RANDOM_H */

/*
 * gMAGNUS's knobs: the context options and environment variables only gMAGNUS reads, parsed
 * once at context creation by magnus_knobs_gmagnus (gmagnus_knobs.c, listed in
 * runtime/device/device_runtime.h) into the context's slot for them, and read back here.
 */
#ifndef MAGNUS_GMAGNUS_KNOBS_H
#define MAGNUS_GMAGNUS_KNOBS_H

#include "device_runtime.h"

typedef struct magnus_gmagnus_knobs {
    int64_t dense_min_elements;  /* the last-level split (option or MAGNUS_DENSE_MIN_ELEMENTS);
                                    0: tau */
    uint32_t multisplit_group;   /* work items per histogram and multisplit group (option or
                                    MAGNUS_MULTISPLIT_GROUP); 0: the default */
    uint32_t chat_gap_divisor;   /* in-place multisplit: gap = C-hat / this; 0: off */
    uint64_t chat_gap_min_bytes; /* ... for C-hats of at least this many bytes */
    uint64_t chat_batch_bytes;   /* most C-hat bytes per row block (the option,
                                    MAGNUS_CHAT_BATCH_BYTES, or the device's memory or limit /
                                    MAGNUS_CHAT_BATCH_FRACTION) */
    uint64_t heavy_row_products; /* rows with more products take the heavy path (at least
                                    tau; MAGNUS_HEAVY_ROW_PRODUCTS); 0: the default rule of
                                    gmagnus_rows.c */
} magnus_gmagnus_knobs;
_Static_assert(sizeof(magnus_gmagnus_knobs) <= MAGNUS_KNOB_BYTES,
               "gMAGNUS's knobs must fit the context's slot");

/* ctx's gMAGNUS knobs, as magnus_context_create read them; _edit: to change them on a live
 * context (the tests' way to vary a knob without a context, and its kernels, per value). */
static inline const magnus_gmagnus_knobs *
magnus_gmagnus_knobs_of(const struct magnus_context_s *ctx) {
    return (const magnus_gmagnus_knobs *)(const void *)ctx->knobs[MAGNUS_KNOBS_GMAGNUS].bytes;
}
static inline magnus_gmagnus_knobs *magnus_gmagnus_knobs_edit(struct magnus_context_s *ctx) {
    return (magnus_gmagnus_knobs *)(void *)ctx->knobs[MAGNUS_KNOBS_GMAGNUS].bytes;
}

/* The option when nonzero, else the environment variable when set, else 0 (the default);
 * MAGNUS_ERROR_INVALID_ARGUMENT, naming the option or the variable, for a value that is not
 * an integer >= 1 (MAGNUS_DENSE_MIN_ELEMENTS; a negative option) or not a power of two from 8
 * to device_limit (MAGNUS_MULTISPLIT_GROUP). magnus_gmagnus_params_compute, which has no
 * context, reads them here too, so both apply the variables alike. */
magnus_status magnus_knob_dense_min_elements(int64_t option, int64_t *out);
magnus_status magnus_knob_multisplit_group(uint64_t option, uint64_t device_limit,
                                           uint32_t *out);

/* The in-place multisplit (gmagnus_levels.c): MAGNUS_CHAT_GAP (the gap in front of C-hat is
 * 1/divisor of it; 0 turns the in-place layout off; default MAGNUS_CHAT_GAP_DEFAULT) and
 * MAGNUS_CHAT_GAP_MIN_BYTES (C-hats smaller than this use two buffers; default
 * MAGNUS_CHAT_GAP_MIN_BYTES_DEFAULT). MAGNUS_ERROR_INVALID_ARGUMENT, naming the variable,
 * for a value that is not an integer in range (divisor 0 or 2..1024). */
#define MAGNUS_CHAT_GAP_DEFAULT 8u
/* 2 GiB: its 17 launches in order cost 4-10 % of the multiply on C-hats of 0.5-1.4 GB (f64
 * ca-HepPh, vsp_sctap1-2b, soc-Slashdot0902, vsp_befref on the H200, 2026-12-02) and about
 * 1 % on those of 3.7 GB and more, where the peak it saves is what stays below cuSPARSE's
 * (docs/performance.md, "The in-place multisplit only for large C-hats"). */
#define MAGNUS_CHAT_GAP_MIN_BYTES_DEFAULT (2ull << 30)
/* The default batch budget: this fraction of the device's memory (or of the context's
 * memory limit) for C-hat, so that one multiply leaves most of the device to the matrices an
 * application keeps (an AMG hierarchy, say) and to C; products whose C-hat would take more
 * run in row blocks (gmagnus_batches.c, docs/performance.md "Heavy rows in batches"). */
#define MAGNUS_CHAT_BATCH_FRACTION 8u

#endif

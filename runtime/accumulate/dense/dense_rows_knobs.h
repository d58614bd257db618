/*
 * The dense rows' knobs (dense_rows.h): parsed once at context creation by
 * magnus_knobs_dense_rows (dense_rows_knobs.c, listed in runtime/device/device_runtime.h)
 * into the context's slot for them, and read back here.
 */
#ifndef MAGNUS_DENSE_ROWS_KNOBS_H
#define MAGNUS_DENSE_ROWS_KNOBS_H

#include "device_runtime.h"

typedef struct magnus_dense_rows_knobs {
    uint64_t dense_rows_local_bytes; /* the local bytes a dense row's group may take, the
                                        device's unless a budget was set (option or
                                        MAGNUS_LOCAL_MEM_BYTES); 0: off (MAGNUS_DENSE_ROWS=0) */
    uint32_t dense_row_share;        /* numeric rows of more entries than C's width / this are
                                        dense rows too (0: only those past the tables;
                                        MAGNUS_DENSE_ROW_SHARE) */
    uint32_t dense_row_stripes;      /* dense rows of a C wider than they hold are done in up
                                        to this many column stripes (0: never;
                                        MAGNUS_DENSE_STRIPES) */
    uint32_t dense_row_items;        /* the dense rows' launch puts at least this many items
                                        on each compute unit (MAGNUS_DENSE_ROW_ITEMS; 0: the
                                        local memory's fit alone) */
    uint32_t auto_stripes;           /* AUTO runs the hash algorithm outright when C fits this
                                        many column stripes of a dense row (MAGNUS_AUTO_STRIPES;
                                        0: only when it fits one) */
} magnus_dense_rows_knobs;
_Static_assert(sizeof(magnus_dense_rows_knobs) <= MAGNUS_KNOB_BYTES,
               "the dense rows' knobs must fit the context's slot");

/* ctx's dense-row knobs, as magnus_context_create read them; _edit: to change them on a live
 * context (the tests' way to vary a knob without a context, and its kernels, per value). */
static inline const magnus_dense_rows_knobs *
magnus_dense_rows_knobs_of(const struct magnus_context_s *ctx) {
    return (const magnus_dense_rows_knobs *)(const void *)ctx->knobs[MAGNUS_KNOBS_DENSE_ROWS]
        .bytes;
}
static inline magnus_dense_rows_knobs *magnus_dense_rows_knobs_edit(struct magnus_context_s *ctx) {
    return (magnus_dense_rows_knobs *)(void *)ctx->knobs[MAGNUS_KNOBS_DENSE_ROWS].bytes;
}

/* What the reader parses, validated (MAGNUS_ERROR_INVALID_ARGUMENT naming the variable for a
 * value out of range):
 * MAGNUS_DENSE_ROWS (0 or 1, default 1): whether rows that no local hash table holds are
 * accumulated over C's whole width in local memory when it fits (dense rows), instead of in
 * global-memory tables; and whether MAGNUS_ALGORITHM_AUTO counts on them (docs/performance.md,
 * "Dense rows").
 * MAGNUS_DENSE_ROW_SHARE (0 .. 2^20; default MAGNUS_DENSE_ROW_SHARE_DEFAULT): in the numeric
 * phase, rows of more entries than C's width W / share (and than 512) are dense rows even
 * where a local hash table would hold them; 0: only the rows no local table holds
 * (docs/performance.md, "Dense rows": shares 0, 2, 8 and 32 measured). */
#define MAGNUS_DENSE_ROW_SHARE_DEFAULT 32u
/* MAGNUS_DENSE_STRIPES (0 .. MAGNUS_DENSE_STRIPES_MAX; default MAGNUS_DENSE_STRIPES_DEFAULT):
 * where C is wider than a dense row holds, the hash algorithm's rows past its tables are done
 * as dense rows in ceil(W / width) column stripes, each a pass over the row's A entries, when
 * that is at most this many, instead of in global-memory tables. MAGNUS_ALGORITHM_AUTO still
 * chooses by its shares there (only a C that fits one dense row makes it hash outright): on
 * the H200, stripes beat the global tables on every input that ran hash, and lost to gMAGNUS
 * where the shares chose gMAGNUS (docs/performance.md, "Dense rows in column stripes").
 * 0: no stripes. */
#define MAGNUS_DENSE_STRIPES_DEFAULT 8u
#define MAGNUS_DENSE_STRIPES_MAX 64u
/* MAGNUS_DENSE_ROW_ITEMS (0 .. MAGNUS_DENSE_ROW_ITEMS_MAX; default
 * MAGNUS_DENSE_ROW_ITEMS_DEFAULT): the dense rows' launch puts at least this many work items
 * per compute unit (whole groups), beyond the groups the local memory of one unit is known to
 * hold (at most MAGNUS_DENSE_GROUPS_PER_UNIT). A device whose groups are narrow (OpenCL's 256
 * items) and that reports only a group's local memory would otherwise run 2 groups, 512
 * items, a unit: NVIDIA's OpenCL ran the same dense rows 3.7-4.6 times as long as CUDA's 2048
 * items a unit. Groups that do not fit at once run when others end. 0: the local fit alone
 * (docs/performance.md, "Dense rows in column stripes"). */
#define MAGNUS_DENSE_ROW_ITEMS_DEFAULT 2048u
/* MAGNUS_AUTO_STRIPES (0 .. MAGNUS_DENSE_STRIPES_MAX; default 0): MAGNUS_ALGORITHM_AUTO runs
 * the hash algorithm whatever its shares when C fits at most this many column stripes of a
 * dense row (and MAGNUS_DENSE_STRIPES allows that many), as it does when C fits one. An
 * experiment for local-memory-poor devices (NVIDIA's OpenCL, 48 KiB): there, on an H100, hash
 * with 2-3 stripes beat the gMAGNUS the shares chose on 5 of 6 real inputs (up to 1.58x) and
 * lost on one (ca-HepPh f32, 0.72x); 4 stripes lost on CUDA (soc-Slashdot0902 f64, 1.24x). 0,
 * the default, keeps the rule as measured until a held-out sweep says otherwise
 * (docs/performance.md, "AUTO and the stripes"). */
#define MAGNUS_DENSE_ROW_ITEMS_MAX 65536u

#endif

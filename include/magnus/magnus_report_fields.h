/*
 * magnus_report's fields, described once (included by magnus.h; not a header of its own).
 *
 * MAGNUS_REPORT_FIELDS(X) calls X(kind, name, merge, shown, section, meaning) once per field,
 * in the struct's order. From this list come the struct magnus_report (magnus.h), the merge
 * of a batch's blocks (runtime/spgemm/gmagnus/gmagnus_batches.c), the report in the CLI's JSON
 * (tools/cli_product.c) and the layout the Python bindings are checked against
 * (tests/python/report_layout.c, python/tests/test_report_layout.py). A field added here
 * reaches all of them (the bench's columns are a table beside it, named by these fields:
 * tools/bench/bench_report_columns.h); the Python mirror (python/magnus/_lib.py) must be
 * updated by hand, and its test fails until it is.
 *
 *   kind     the C type: ALGORITHM (magnus_algorithm), TEXT (const char *, static text or
 *            NULL), INT (int), I64 (int64_t), U64 (uint64_t), F64 (double), and arrays of
 *            MAGNUS_MAX_LEVELS: F64_LEVELS, I64_LEVELS (the first `levels` entries are used).
 *            MAGNUS_REPORT_CTYPE_<kind>, _DIM_<kind> and _COUNT_<kind> say what each is.
 *   merge    how a product multiplied in row blocks (batches) makes its report from theirs:
 *            SUM (counts and times add up), MAX (peaks: the largest), FIRST (parameters, the
 *            same for every block: the first block's), LAST (the last block's), PRODUCT (the
 *            product's own: written by the dispatcher or the batching, never by a block).
 *   shown    when the outputs (the CLI's JSON) show it: ALWAYS, AUTO (when AUTO was
 *            requested), GMAGNUS (when gMAGNUS ran); MAGNUS_REPORT_SHOWN_<shown>(r) says.
 *   section  who writes it (issue 35): DISPATCH (the dispatcher, runtime/spgemm: what ran and
 *            why, the end-to-end, transfer and kernel-loading times, and the device memory
 *            peaks of the algorithm's run, from the context's counters), AUTO (the
 *            dispatcher's AUTO choice), RUN (every algorithm: its phases' times, parameters
 *            and sizes, whichever algorithm ran), GMAGNUS (gMAGNUS alone). An algorithm fills only
 *            the sections made from this list (runtime/spgemm/algorithm/spgemm_section.h:
 *            RUN, and GMAGNUS for gMAGNUS) and the dispatcher copies them into the report.
 *   meaning  what it is, in the report's words. Times are in ms.
 */
#ifndef MAGNUS_REPORT_FIELDS_H
#define MAGNUS_REPORT_FIELDS_H

/* clang-format off */
#define MAGNUS_REPORT_FIELDS(X) \
    X(ALGORITHM, algorithm, PRODUCT, ALWAYS, DISPATCH, \
      "what ran: MAGNUS or HASH (never AUTO)") \
    X(ALGORITHM, algorithm_requested, PRODUCT, ALWAYS, DISPATCH, \
      "what the options asked for (AUTO by default)") \
    X(TEXT, algorithm_reason, PRODUCT, ALWAYS, DISPATCH, \
      "why that algorithm ran (static text)") \
    X(I64, auto_long_row_products, PRODUCT, AUTO, AUTO, \
      "AUTO: rows with more products are \"long\" ...") \
    X(F64, auto_long_share, PRODUCT, AUTO, AUTO, \
      "... and carry this fraction of the products") \
    X(I64, auto_numeric_row_nnz, PRODUCT, AUTO, AUTO, \
      "AUTO: rows of fewer products but more entries than this \"overflow\" the hash " \
      "algorithm's numeric tables ...") \
    X(F64, auto_overflow_share, PRODUCT, AUTO, AUTO, \
      "... and carry about this fraction of the products (estimated from " \
      "MAGNUS_AUTO_OVERFLOW_SAMPLES rows)") \
    X(INT, auto_dense_rows, PRODUCT, ALWAYS, AUTO, \
      "AUTO: 1 when C's columns fit a dense row (dense_row_columns; or MAGNUS_AUTO_STRIPES " \
      "column stripes of one), which made the choice hash whatever the shares") \
    X(F64, time_choice_ms, PRODUCT, AUTO, AUTO, \
      "AUTO: the statistics of the choice (in time_total_ms)") \
    X(F64, time_kernel_load_ms, PRODUCT, ALWAYS, DISPATCH, \
      "loading kernels on their first use in this context (host time, in time_total_ms): " \
      "nonzero on a context's first multiplies, unless the context loaded them all when it " \
      "was created (CUDA's default; MAGNUS_PRELOAD_KERNELS=0/1)") \
    X(F64, time_total_ms, PRODUCT, ALWAYS, DISPATCH, \
      "end to end, as the caller sees it") \
    X(F64, time_upload_ms, PRODUCT, ALWAYS, DISPATCH, \
      "copying A and B to the device (magnus_spgemm)") \
    X(F64, time_download_ms, PRODUCT, ALWAYS, DISPATCH, \
      "copying C back to the host (magnus_spgemm)") \
    X(F64, time_setup_ms, SUM, ALWAYS, RUN, \
      "products per row, scan, threshold partition") \
    X(F64, time_csr2csc_ms, SUM, ALWAYS, GMAGNUS, \
      "masked CSR->CSC of A's heavy rows") \
    X(F64, time_outer_product_ms, SUM, ALWAYS, GMAGNUS, \
      "gMAGNUS: expanding the heavy rows' products into C-hat") \
    X(F64_LEVELS, time_histogram_ms, SUM, ALWAYS, GMAGNUS, \
      "gMAGNUS: each multisplit level's histogram") \
    X(F64_LEVELS, time_multisplit_ms, SUM, ALWAYS, GMAGNUS, \
      "gMAGNUS: each multisplit level's reordering of C-hat") \
    X(F64, time_symbolic_ms, SUM, ALWAYS, RUN, \
      "the symbolic phase (C's row sizes)") \
    X(F64, time_numeric_ms, SUM, ALWAYS, RUN, \
      "the numeric phase (C's columns and values)") \
    X(F64, time_alloc_ms, SUM, ALWAYS, RUN, \
      "allocation of C and work buffers") \
    /* parameters (paper's Table V / VI) */ \
    X(U64, local_mem_bytes, FIRST, ALWAYS, RUN, \
      "local memory budget per work group used") \
    X(I64, tau, FIRST, ALWAYS, RUN, \
      "gMAGNUS: products above which a chunk is heavy; hash: the products a row's local " \
      "table holds") \
    X(I64, heavy_row_products, FIRST, GMAGNUS, GMAGNUS, \
      "gMAGNUS: rows with more products took the heavy path (tau or more: " \
      "MAGNUS_HEAVY_ROW_PRODUCTS, else the default rule)") \
    X(TEXT, heavy_row_rule, FIRST, GMAGNUS, GMAGNUS, \
      "gMAGNUS: why that threshold (static text)") \
    X(I64, light_rows_global, SUM, GMAGNUS, GMAGNUS, \
      "gMAGNUS: light rows the hash accumulator counted or filled in a global-memory table " \
      "(symbolic and numeric added)") \
    X(I64, chunks_required, FIRST, ALWAYS, GMAGNUS, \
      "gMAGNUS: chunks per heavy row after the last level") \
    X(INT, levels, MAX, ALWAYS, GMAGNUS, \
      "gMAGNUS: multisplit levels run (0: no heavy rows)") \
    X(I64_LEVELS, chunks_per_level, FIRST, ALWAYS, GMAGNUS, \
      "gMAGNUS: chunks per heavy row each level required") \
    X(I64, chunk_width, FIRST, ALWAYS, GMAGNUS, \
      "gMAGNUS: columns per chunk at the last level") \
    X(I64, dense_min_elements, FIRST, ALWAYS, GMAGNUS, \
      "gMAGNUS: last-level chunks with more elements are accumulated densely") \
    X(I64, chunks_dense, SUM, ALWAYS, GMAGNUS, \
      "gMAGNUS: chunks accumulated by the dense accumulator") \
    X(I64, chunks_hash, SUM, ALWAYS, GMAGNUS, \
      "gMAGNUS: chunks (of every level) accumulated by the hash accumulator") \
    /* sizes */ \
    X(I64, rows_total, SUM, ALWAYS, RUN, \
      "rows of A (and C)") \
    X(I64, rows_heavy, SUM, ALWAYS, RUN, \
      "gMAGNUS: rows that took the heavy path; hash: rows past the local tables filled in " \
      "global-memory tables (the larger of the symbolic and the numeric phase's count)") \
    X(I64, rows_dense, SUM, ALWAYS, RUN, \
      "hash (and gMAGNUS's light rows): rows past the local hash tables accumulated over C's " \
      "whole width in local memory (dense rows) instead of in global tables (the larger of " \
      "the symbolic and the numeric phase's count)") \
    X(I64, dense_row_columns, LAST, ALWAYS, RUN, \
      "the widest C whose rows can be dense rows on this context and value type (0: none; " \
      "MAGNUS_DENSE_ROWS=0)") \
    X(I64, products_total, SUM, ALWAYS, RUN, \
      "products a_ik*b_kj of A*B") \
    X(I64, products_heavy, SUM, ALWAYS, GMAGNUS, \
      "gMAGNUS: products of the heavy rows (expanded into C-hat)") \
    X(I64, nnz_c, SUM, ALWAYS, RUN, \
      "entries of C") \
    X(U64, chat_bytes, SUM, ALWAYS, GMAGNUS, \
      "gMAGNUS: bytes of the intermediate matrix C-hat") \
    X(U64, peak_device_bytes, MAX, ALWAYS, DISPATCH, \
      "peak device memory held during the multiply: buffers in use and blocks kept for " \
      "reuse (what a memory limit governs)") \
    X(U64, reserved_device_bytes, MAX, ALWAYS, DISPATCH, \
      "the most the backend's allocator held for the context during the multiply, when it " \
      "keeps freed memory mapped for reuse (CUDA's stream-ordered pool; its rounding and " \
      "kept memory included); 0 when it keeps nothing of its own. The device footprint is " \
      "the larger of the two.") \
    X(U64, chat_gap_bytes, MAX, ALWAYS, GMAGNUS, \
      "gMAGNUS: > 0 when the multisplit ran in place, C-hat held once plus this gap in " \
      "front of it instead of twice (one level, C-hat of MAGNUS_CHAT_GAP_MIN_BYTES or more, " \
      "no heavy row longer than the gap: 1/MAGNUS_CHAT_GAP of C-hat)") \
    X(I64, batches, PRODUCT, ALWAYS, GMAGNUS, \
      "gMAGNUS: row blocks multiplied one after another (1: the whole product at once; " \
      "magnus_context_options's chat_batch_bytes); 0 for the hash algorithm") \
    X(F64, time_batch_ms, PRODUCT, GMAGNUS, GMAGNUS, \
      "gMAGNUS in batches: host time cutting A into row blocks and stacking the blocks' " \
      "products into C (in time_total_ms)") \
    X(U64, dense_rows_local_bytes, LAST, ALWAYS, RUN, \
      "local memory per work group the dense rows may take (dense_row_columns comes from " \
      "it): the device's whole local memory unless a budget was set (the options' " \
      "local_mem_bytes or MAGNUS_LOCAL_MEM_BYTES), then local_mem_bytes; 0 without dense " \
      "rows") \
    X(I64, dense_stripes, MAX, ALWAYS, RUN, \
      "the most column stripes a dense row was done in (1: C fit one dense row; more: C was " \
      "wider, MAGNUS_DENSE_STRIPES; 0: no dense rows ran)")
/* clang-format on */

/* Each kind's C type, declarator suffix and number of elements. */
#define MAGNUS_REPORT_CTYPE_ALGORITHM magnus_algorithm
#define MAGNUS_REPORT_CTYPE_TEXT const char *
#define MAGNUS_REPORT_CTYPE_INT int
#define MAGNUS_REPORT_CTYPE_I64 int64_t
#define MAGNUS_REPORT_CTYPE_U64 uint64_t
#define MAGNUS_REPORT_CTYPE_F64 double
#define MAGNUS_REPORT_CTYPE_F64_LEVELS double
#define MAGNUS_REPORT_CTYPE_I64_LEVELS int64_t
#define MAGNUS_REPORT_DIM_ALGORITHM
#define MAGNUS_REPORT_DIM_TEXT
#define MAGNUS_REPORT_DIM_INT
#define MAGNUS_REPORT_DIM_I64
#define MAGNUS_REPORT_DIM_U64
#define MAGNUS_REPORT_DIM_F64
#define MAGNUS_REPORT_DIM_F64_LEVELS [MAGNUS_MAX_LEVELS]
#define MAGNUS_REPORT_DIM_I64_LEVELS [MAGNUS_MAX_LEVELS]
#define MAGNUS_REPORT_COUNT_ALGORITHM 1
#define MAGNUS_REPORT_COUNT_TEXT 1
#define MAGNUS_REPORT_COUNT_INT 1
#define MAGNUS_REPORT_COUNT_I64 1
#define MAGNUS_REPORT_COUNT_U64 1
#define MAGNUS_REPORT_COUNT_F64 1
#define MAGNUS_REPORT_COUNT_F64_LEVELS MAGNUS_MAX_LEVELS
#define MAGNUS_REPORT_COUNT_I64_LEVELS MAGNUS_MAX_LEVELS

/* The struct member X makes of a field (magnus.h) */
#define MAGNUS_REPORT_MEMBER(kind, name, merge, shown, section, meaning) \
    MAGNUS_REPORT_CTYPE_##kind name MAGNUS_REPORT_DIM_##kind;

/* Whether a report r (const magnus_report *) shows a field of this `shown` */
#define MAGNUS_REPORT_SHOWN_ALWAYS(r) ((void)(r), 1)
#define MAGNUS_REPORT_SHOWN_AUTO(r) ((r)->algorithm_requested == MAGNUS_ALGORITHM_AUTO)
#define MAGNUS_REPORT_SHOWN_GMAGNUS(r) ((r)->algorithm == MAGNUS_ALGORITHM_GMAGNUS)

#endif

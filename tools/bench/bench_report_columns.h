/*
 * The bench's report columns (issue 35): which magnus_report field each comes from, in the
 * order bench/README.md documents them. The names are today's bench names (setup_ms, not
 * time_setup_ms): committed results and bench/compare.py read them. Each field is named as in
 * the report's list (include/magnus/magnus_report_fields.h), so a field renamed or removed there
 * fails to compile here; bench_output.c makes the columns from this table alone.
 *
 * BENCH_REPORT_COLUMNS(X) calls X(column, field, form, when) once per column:
 *   form   VALUE (the field as a number: real for double, integer otherwise), LEVELS_SUM (the
 *          sum of a levels array), LEVEL0 (its level 0), LEVELS_TEXT ("a;b" for the levels
 *          run), ALGORITHM (its name, text)
 *   when   when the column has a value (else empty / null): ALWAYS (the row has a report),
 *          AUTO (AUTO was requested), GMAGNUS (gMAGNUS ran), NONZERO (the field is not 0),
 *          BATCHED (gMAGNUS ran in more than one row block)
 * Fields the bench leaves out (time_kernel_load_ms, time_upload_ms and time_download_ms: the
 * bench times those itself; the rest: see the CLI's JSON) are simply not listed.
 */
#ifndef BENCH_REPORT_COLUMNS_H
#define BENCH_REPORT_COLUMNS_H

/* clang-format off */
#define BENCH_REPORT_COLUMNS(X) \
    X(setup_ms, time_setup_ms, VALUE, ALWAYS) \
    X(csr2csc_ms, time_csr2csc_ms, VALUE, ALWAYS) \
    X(outer_product_ms, time_outer_product_ms, VALUE, ALWAYS) \
    X(histogram_ms, time_histogram_ms, LEVELS_SUM, ALWAYS) \
    X(multisplit_ms, time_multisplit_ms, LEVELS_SUM, ALWAYS) \
    X(histogram0_ms, time_histogram_ms, LEVEL0, ALWAYS) \
    X(multisplit0_ms, time_multisplit_ms, LEVEL0, ALWAYS) \
    X(symbolic_ms, time_symbolic_ms, VALUE, ALWAYS) \
    X(numeric_ms, time_numeric_ms, VALUE, ALWAYS) \
    X(alloc_ms, time_alloc_ms, VALUE, ALWAYS) \
    X(report_total_ms, time_total_ms, VALUE, ALWAYS) \
    X(local_mem_bytes, local_mem_bytes, VALUE, ALWAYS) \
    X(tau, tau, VALUE, ALWAYS) \
    X(algorithm_ran, algorithm, ALGORITHM, ALWAYS) \
    X(auto_long_share, auto_long_share, VALUE, AUTO) \
    X(auto_overflow_share, auto_overflow_share, VALUE, AUTO) \
    X(choice_ms, time_choice_ms, VALUE, AUTO) \
    X(auto_dense_rows, auto_dense_rows, VALUE, AUTO) \
    X(heavy_row_products, heavy_row_products, VALUE, NONZERO) \
    X(light_rows_global, light_rows_global, VALUE, GMAGNUS) \
    X(levels, levels, VALUE, ALWAYS) \
    X(chunks_required, chunks_required, VALUE, ALWAYS) \
    X(chunks_level0, chunks_per_level, LEVEL0, ALWAYS) \
    X(chunks_per_level, chunks_per_level, LEVELS_TEXT, ALWAYS) \
    X(histogram_levels_ms, time_histogram_ms, LEVELS_TEXT, ALWAYS) \
    X(multisplit_levels_ms, time_multisplit_ms, LEVELS_TEXT, ALWAYS) \
    X(chunk_width, chunk_width, VALUE, ALWAYS) \
    X(dense_min_elements, dense_min_elements, VALUE, ALWAYS) \
    X(chunks_dense, chunks_dense, VALUE, ALWAYS) \
    X(chunks_hash, chunks_hash, VALUE, ALWAYS) \
    X(rows_heavy, rows_heavy, VALUE, ALWAYS) \
    X(rows_dense, rows_dense, VALUE, ALWAYS) \
    X(dense_stripes, dense_stripes, VALUE, ALWAYS) \
    X(products_heavy, products_heavy, VALUE, ALWAYS) \
    X(chat_bytes, chat_bytes, VALUE, ALWAYS) \
    X(batches, batches, VALUE, GMAGNUS) \
    X(batch_ms, time_batch_ms, VALUE, BATCHED)
/* clang-format on */

#endif

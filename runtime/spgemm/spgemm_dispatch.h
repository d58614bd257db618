/*
 * The dispatcher's own interface (runtime/spgemm): AUTO's choice, the early check that C can
 * fit, and the dispatch through the algorithms' tables (spgemm_algorithm.h, in the layer
 * below, which is all an algorithm sees). runtime/spgemm/spgemm.c does validation, transfers,
 * the total time and the dispatch; only the dispatcher writes the report's shared fields
 * (algorithm_requested, algorithm_reason, alpha's time, time_kernel_load_ms).
 */
#ifndef MAGNUS_SPGEMM_DISPATCH_H
#define MAGNUS_SPGEMM_DISPATCH_H

#include "spgemm_algorithm.h"

/* The table of the algorithm that `id` asks for; NULL for AUTO or an unknown value. */
const magnus_spgemm_algorithm *magnus_spgemm_algorithm_of(magnus_algorithm id);

/* MAGNUS_ALGORITHM_AUTO's choice for A·B (runtime/spgemm/spgemm_choice.c): *out is MAGNUS
 * or HASH; *counted what it counted, for that algorithm (the caller frees it with
 * magnus_row_products_free); fills the report's auto_* fields, algorithm_reason and
 * time_choice_ms. Waits for the main queue; on error *counted is empty. */
magnus_status magnus_spgemm_choose(magnus_algorithm *out, magnus_row_products *counted,
                                   magnus_context ctx, const struct magnus_device_csr_s *A,
                                   const struct magnus_device_csr_s *B, magnus_report *report);

/* MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY, naming C and the bytes it needs at least against those
 * the device can still give, when a lower bound on C's size cannot fit beside what is in use
 * (runtime/spgemm/spgemm_c_bound.c); checked before any phase, so such a product fails at
 * once. A pass over A on the device only when a bound from the shapes alone does not fit.
 * Returns with the queues as they were (idle after its own work). */
magnus_status magnus_spgemm_c_fits(magnus_context ctx, const struct magnus_device_csr_s *A,
                                   const struct magnus_device_csr_s *B);

/* The algorithm of opt (NULL: defaults; AUTO asks spgemm_choice.c) on checked operands, then
 * the alpha scaling: what magnus_spgemm_device runs after its checks (runtime/spgemm/spgemm.c).
 * Fills the report's algorithm fields; returns with every queue idle. phase_times: whether
 * the caller asked for a report, so that the phases' device timers run (they cost the host
 * two recorded events a phase). */
magnus_status magnus_spgemm_dispatch(magnus_device_csr *C, magnus_context ctx,
                                     const struct magnus_device_csr_s *A,
                                     const struct magnus_device_csr_s *B,
                                     const magnus_spgemm_options *opt, magnus_report *rep,
                                     bool phase_times, const magnus_spgemm_progress *progress);

/* Where every SpGEMM entry point starts (spgemm.c, spgemm_plan.c): the last error cleared and
 * the report zeroed, the caller's or, where it passed none, *local; returns the one in use. */
magnus_report *magnus_spgemm_entry_begin(magnus_report *report, magnus_report *local);

#endif

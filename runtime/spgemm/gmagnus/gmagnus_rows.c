/*
 * Which rows gMAGNUS sends down its heavy path (outer product, multisplit, chunks) and which
 * it leaves to the hash accumulator as light rows: rows with more than `heavy_row_products`
 * products are heavy. The paper's threshold is tau, what one light row's numeric table holds
 * within the budget. Rows a little longer than tau are cheap for the hash accumulator when
 * their columns fit its symbolic table (4-byte keys, twice tau's entries at 8-byte numeric
 * slots) and, after the count, their entries fit a numeric table (the budget's, a wide bin's,
 * or a global one); the heavy path pays the outer product, the multisplit and the chunk
 * accumulation for them. That was measured slower on every input with long rows
 * (docs/performance.md, "Which rows take the heavy path"), so tau stays the default and
 * MAGNUS_HEAVY_ROW_PRODUCTS sets another threshold for studies.
 */
#include "gmagnus_internal.h"

void magnus_gm_choose_heavy_rows(magnus_gm *g) {
    const int64_t tau = g->p.tau;
    int64_t t = (int64_t)magnus_gmagnus_knobs_of(g->ctx)->heavy_row_products;
    if (!t) { /* the default: raising it measured slower on every input with long rows */
        g->heavy_row_products = tau;
        g->heavy_row_rule = "tau (the paper's rule)";
    } else if (t < tau) { /* a heavy row must have more than tau products (the multisplit's bound) */
        g->heavy_row_products = tau;
        g->heavy_row_rule = "MAGNUS_HEAVY_ROW_PRODUCTS, raised to tau";
    } else {
        g->heavy_row_products = t;
        g->heavy_row_rule = "MAGNUS_HEAVY_ROW_PRODUCTS";
    }
}

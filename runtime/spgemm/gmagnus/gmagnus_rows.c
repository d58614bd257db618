/*
 * Which rows gMAGNUS sends down its heavy path (outer product, multisplit, chunks) and which
 * it leaves to the hash accumulator as light rows: rows with more than `heavy_row_products`
 * products are heavy. The paper's threshold is tau, what one light row's numeric table holds
 * within the budget. Rows a little longer than tau are cheap for the hash accumulator when
 * their columns fit its symbolic table (4-byte keys, twice tau's entries at 8-byte numeric
 * slots) and, after the count, their entries fit a numeric table (the budget's, a wide bin's,
 * or a global one); the heavy path pays the outer product, the multisplit and the chunk
 * accumulation for them. docs/performance.md, "The method per row", has the measurements.
 */
#include "gmagnus_internal.h"
#include "hash_accumulate.h"

/* The default rule, from the measurements: see MAGNUS_GM_HEAVY_ROW_RULE in
 * gmagnus_internal.h. */
static int64_t default_threshold(const magnus_gm *g, const char **why) {
    const int64_t tau = g->p.tau;
    if (MAGNUS_GM_HEAVY_ROW_RULE == 0) {
        *why = "tau (the paper's rule)";
        return tau;
    }
    int64_t symbolic = 0, numeric = 0;
    magnus_hash_budget_capacity(g->ctx, g->A->type, &symbolic, &numeric);
    *why = "the hash accumulator's symbolic capacity";
    return symbolic > tau ? symbolic : tau;
}

void magnus_gm_choose_heavy_rows(magnus_gm *g) {
    const int64_t tau = g->p.tau;
    const char *why;
    int64_t t;
    if (g->ctx->heavy_row_products) {
        t = (int64_t)g->ctx->heavy_row_products;
        why = "MAGNUS_HEAVY_ROW_PRODUCTS";
        if (t < tau) { /* a heavy row must have more than tau products (the multisplit's bound) */
            t = tau;
            why = "MAGNUS_HEAVY_ROW_PRODUCTS, raised to tau";
        }
    } else {
        t = default_threshold(g, &why);
    }
    g->heavy_row_products = t;
    g->heavy_row_rule = why;
}

/*
 * "Speed of light" of the three gMAGNUS kernels the paper measures (§V, Fig. 6): the fewest
 * bytes a kernel must move through device memory, divided by the device-to-device copy
 * bandwidth measured in the same run (read + write), against the kernel's measured time.
 *
 *   outer product   read Atil (the CSC of A's heavy rows: a row index and a value per entry
 *                   whose B row is not empty, and a slice offset per non-empty column) and the
 *                   B rows those columns select (column and value per entry, a row pointer
 *                   each); write C-hat (column and value per heavy product) and its row
 *                   pointer
 *   histogram       the paper's floor for level 0: Chat.nnz*sChat.col + (Chat.n+1)*sChat.rowPtr
 *                   + Creord.n*sCreord.rowPtr, where Creord.n = heavy rows x chunks of level 0
 *   multisplit      level 0: read C-hat (column and value), write Creord (column and value),
 *                   read both row pointers
 * Levels after the first are not counted: their inputs (the heavy chunks of the previous
 * level) are not in the report; the % columns compare level 0's floor with level 0's time.
 */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

/* Atil and the B rows it selects, from the heavy rows (more than tau products). */
static double outer_input_bytes(const bench_data *d, int64_t tau, size_t value_bytes) {
    const magnus_csr_s *A = d->A, *B = d->B;
    unsigned char *used = calloc((size_t)A->cols + 1, 1);
    if (!used) return NAN;
    double entries = 0, slices = 0, b_entries = 0;
    for (int64_t i = 0; i < A->rows; i++) {
        if (d->row_products[i] <= tau) continue;
        for (int64_t e = A->row_ptr[i]; e < A->row_ptr[i + 1]; e++) {
            int32_t k = A->col_idx[e];
            int64_t len = B->row_ptr[k + 1] - B->row_ptr[k];
            if (len == 0) continue;
            entries += 1;
            if (!used[k]) {
                used[k] = 1;
                slices += 1;
                b_entries += (double)len;
            }
        }
    }
    free(used);
    double entry = 4.0 + (double)value_bytes;
    return entries * entry + (slices + 1) * 8.0 + b_entries * entry + slices * 8.0;
}

static double percent(double floor_bytes, double gbps, double ms) {
    if (!(floor_bytes > 0) || !(gbps > 0) || !(ms > 0)) return NAN;
    return 100.0 * (floor_bytes / (gbps * 1e9)) / (ms * 1e-3);
}

void bench_floors_fill(bench_row *row, const bench_data *d) {
    const magnus_report *r = &row->report;
    if (!row->has_report || r->algorithm != MAGNUS_ALGORITHM_GMAGNUS || r->rows_heavy <= 0) return;
    double vb = (double)magnus_value_size(d->type);
    double heavy = (double)r->rows_heavy, products = (double)r->products_heavy;
    double chat_write = products * (4.0 + vb) + (heavy + 1) * 8.0;
    row->floor_outer_bytes = outer_input_bytes(d, r->tau, (size_t)vb) + chat_write;
    if (r->levels > 0 && r->chunks_per_level[0] > 0) {
        double creord_rows = heavy * (double)r->chunks_per_level[0];
        row->floor_histogram_bytes = products * 4.0 + (heavy + 1) * 8.0 + creord_rows * 8.0;
        row->floor_multisplit_bytes =
            2.0 * products * (4.0 + vb) + (heavy + 1) * 8.0 + (creord_rows + 1) * 8.0;
    }
    double gbps = row->copy_gbps;
    row->sol_outer_pct = percent(row->floor_outer_bytes, gbps, r->time_outer_product_ms);
    row->sol_histogram_pct = percent(row->floor_histogram_bytes, gbps, r->time_histogram_ms[0]);
    row->sol_multisplit_pct = percent(row->floor_multisplit_bytes, gbps, r->time_multisplit_ms[0]);
}

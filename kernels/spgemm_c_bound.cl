/*
 * A lower bound on nnz(C) for C = A·B, so that a product whose C cannot fit the device is
 * refused before any phase runs (runtime/spgemm/spgemm_c_bound.c). Row i of C holds every
 * column of each B row its A row selects (every product leaves an entry, cancelled or not),
 * so nnz(C[i,:]) >= nnz(B[k,:]) for every k in A[i,:].
 */
#include "magnus_dialect.h"

/* out[i] = the longest B row among the first `scan` entries of A's row i, for i < rows, and
 * out[rows] = 0 (for the scan that sums them). Only the first entries: a hub row of A (10^4
 * entries in R-MAT) would hold one work item as long as the rest of the launch takes; fewer
 * entries give a smaller bound, still a bound. Work items stride over the rows. */
MG_KERNEL void spgemm_row_nnz_floor(mg_i64 rows, mg_u32 scan, MG_GLOBAL const mg_i64 *A_rp,
                                    MG_GLOBAL const mg_i32 *A_col, MG_GLOBAL const mg_i64 *B_rp,
                                    MG_GLOBAL mg_u64 *out, MG_DYN_LOCAL_PARAM) {
    const mg_u64 stride = mg_num_groups() * mg_local_size();
    for (mg_u64 i = mg_global_id(); i <= (mg_u64)rows; i += stride) {
        mg_i64 longest = 0;
        if (i < (mg_u64)rows) {
            const mg_i64 a0 = A_rp[i], a1 = A_rp[i + 1];
            const mg_i64 end = a1 - a0 > (mg_i64)scan ? a0 + (mg_i64)scan : a1;
            for (mg_i64 a = a0; a < end; a++) {
                const mg_i32 k = A_col[a];
                const mg_i64 len = B_rp[k + 1] - B_rp[k];
                if (len > longest) longest = len;
            }
        }
        out[i] = (mg_u64)longest;
    }
}

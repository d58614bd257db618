/* The host-side gMAGNUS plan: parameters plus the heavy/light split of A·B (Table V columns),
 * for `magnus params` and for anyone sizing a problem before sending it to a device. */
#include "csr_products.h"
#include "gmagnus_params.h"
#include "internal.h"

#include <string.h>

magnus_status magnus_gmagnus_plan_compute(magnus_gmagnus_plan *out,
                                          const magnus_device_info *device,
                                          const magnus_csr_s *A, const magnus_csr_s *B) {
    magnus_error_clear();
    if (!out)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_gmagnus_plan_compute: output is NULL");
    memset(out, 0, sizeof *out);
    if (!device)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_gmagnus_plan_compute: device is NULL");
    magnus_status s;
    if ((s = magnus_csr_check_handle(A, "A")) || (s = magnus_csr_check_handle(B, "B"))) return s;
    if ((s = magnus_csr_validate(A)) || (s = magnus_csr_validate(B))) return s;
    if (A->type != B->type)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE,
                            "gMAGNUS plan: A and B have different value types");
    if (A->cols != B->rows)
        return magnus_error(MAGNUS_ERROR_DIMENSION_MISMATCH,
                            "gMAGNUS plan: A is %lld x %lld, B is %lld x %lld",
                            (long long)A->rows, (long long)A->cols, (long long)B->rows,
                            (long long)B->cols);
    if ((s = magnus_gmagnus_params_compute(&out->params, device, B->cols, A->type))) return s;
    const int64_t tau = out->params.tau;
    out->rows = A->rows;
    magnus_products n;
    if ((s = magnus_products_count(&n, A, B, tau))) return s;
    out->products = n.total;
    out->rows_heavy = n.rows_above;
    out->products_heavy = n.products_above;
    if (out->rows_heavy > 0) /* no heavy row, no C-hat */
        out->chat_bytes =
            (uint64_t)out->products_heavy * (MAGNUS_GM_COL_BYTES + out->params.value_bytes) +
            ((uint64_t)out->rows_heavy + 1) * MAGNUS_GM_ROWPTR_BYTES;
    return MAGNUS_SUCCESS;
}

/* Generator arguments out of range, caught before any work (cli_gen_limits.h). */
#include "cli_gen_limits.h"

#include <string.h>

#define ROWS_MAX 2147483647LL /* column indices are 32-bit */

bool cli_gen_check_limits(const cli_gen_request *req, char *why, size_t why_size) {
    const int64_t *n = req->n;
    if (!strcmp(req->kind, "rmat")) {
        if (n[0] < 1 || n[0] > CLI_RMAT_SCALE_MAX) {
            snprintf(why, why_size, "rmat: SCALE %lld outside 1..%d", (long long)n[0],
                     CLI_RMAT_SCALE_MAX);
            return false;
        }
        return true;
    }
    const char *too_large = NULL;
    if (!strcmp(req->kind, "laplace2d") || !strcmp(req->kind, "laplace3d")) {
        /* sides are non-negative; their product, in steps that cannot overflow */
        int sides = !strcmp(req->kind, "laplace2d") ? 2 : 3;
        int64_t points = 1;
        bool empty = false;
        for (int i = 0; i < sides; i++) empty |= n[i] == 0;
        for (int i = 0; i < sides && !empty && !too_large; i++) {
            if (n[i] > ROWS_MAX / points) too_large = "the grid's points";
            else points *= n[i];
        }
    } else if (!strcmp(req->kind, "banded")) {
        if (n[0] > ROWS_MAX) too_large = "N";
    } else if (!strcmp(req->kind, "uniform")) {
        if (n[0] > ROWS_MAX) too_large = "ROWS";
        else if (n[1] > ROWS_MAX) too_large = "COLS";
    } else if (!strcmp(req->kind, "star")) {
        if (n[0] > ROWS_MAX) too_large = "N";
        /* a count or length past N cannot be drawn: N rows hold at most N distinct columns */
        static const char *const names[] = {"LONG (the long rows)", "LEN (their length)",
                                            "DEG (the short rows' degree)"};
        for (int i = 1; i <= 3 && !too_large; i++)
            if (n[i] > n[0]) {
                snprintf(why, why_size, "star: %s = %lld exceeds N = %lld", names[i - 1],
                         (long long)n[i], (long long)n[0]);
                return false;
            }
    }
    if (too_large) {
        snprintf(why, why_size, "%s: %s exceed 2^31-1 (rows and columns are 32-bit)", req->kind,
                 too_large);
        return false;
    }
    return true;
}

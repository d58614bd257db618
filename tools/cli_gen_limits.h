/*
 * The ranges of generator arguments that are known from the arguments alone (an R-MAT scale,
 * a grid or matrix beyond 2^31-1 rows), so that the tool refuses them as usage errors naming
 * the argument, before any work; the library checks them too, and everything else.
 */
#ifndef MAGNUS_CLI_GEN_LIMITS_H
#define MAGNUS_CLI_GEN_LIMITS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli_matrix.h"

#define CLI_RMAT_SCALE_MAX 30 /* magnus_gen_rmat's limit: 2^30 rows */

/* False, with the argument and its range in why, when req's arguments are out of range. */
bool cli_gen_check_limits(const cli_gen_request *req, char *why, size_t why_size);

#endif

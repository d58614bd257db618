/*
 * Device-description files (`magnus params --describe FILE`): a device that is not present,
 * written as "key = value" lines, read into the magnus_device_info a probe would give, so that
 * its parameters can be computed without it (tools/cli_describe.c lists the keys;
 * docs/devices/ has examples).
 */
#ifndef MAGNUS_CLI_DESCRIBE_H
#define MAGNUS_CLI_DESCRIBE_H

#include <stdbool.h>
#include <stddef.h>

#include "magnus/magnus.h"

/* Reads `path` into *out. False on a problem, with the message (naming the file, the line
 * and the key) in why: an unreadable file, an unknown or repeated key, a bad value, a
 * required key missing. */
bool cli_describe_read(magnus_device_info *out, const char *path, char *why, size_t why_size);

/* The keys and their meaning, for --help. */
#define CLI_DESCRIBE_KEYS                                                                      \
    "  name = TEXT                  the device's name (required)\n"                           \
    "  backend = cuda|level0|opencl the backend that would drive it (required)\n"             \
    "  local_mem_bytes = SIZE       local memory per work group, e.g. 131072 or 128K "        \
    "(required)\n"                                                                             \
    "  max_work_group_size = N      work items per work group (required)\n"                   \
    "  subgroup_sizes = N[,N...]    subgroup (warp) sizes, up to 8 (required)\n"              \
    "  fp64 = yes|no                double precision (required)\n"                            \
    "  vendor = TEXT, compute_units = N, global_mem_bytes = SIZE, max_alloc_bytes = SIZE,\n"  \
    "  atomic64 = yes|no (default yes), type = gpu|cpu (default gpu),\n"                      \
    "  wide_group_size = N (default what the backend vouches for: 1024 cuda, 256 others)\n"  \
    "  Blank lines and lines starting with # are ignored.\n"

#endif

/*
 * The device flags of the commands that use a device (multiply, demo, params): --backend NAME
 * and --device SPEC, turned into one device spec of the library's grammar (magnus.h, "Device
 * specs") so that errors name the flags the user gave, never MAGNUS_DEVICE. Without either
 * flag the library's own choice applies: MAGNUS_DEVICE if set, else the best device.
 */
#ifndef MAGNUS_CLI_DEVICE_H
#define MAGNUS_CLI_DEVICE_H

#include "cli_common.h"

/* The option rows, word for word the same in every command. */
#define CLI_BACKEND_OPTION(target)                                                             \
    {"--backend", NULL, CLI_STRING, (target), "NAME",                                          \
     "use this backend's best device: cuda, level0 or opencl"}
#define CLI_DEVICE_OPTION(target)                                                              \
    {"--device", "-d", CLI_STRING, (target), "SPEC",                                           \
     "device: an index, gpu, cpu, BACKEND[:INDEX], BACKEND:NAME or NAME (part of the "        \
     "name or vendor; see 'magnus probe'); default: MAGNUS_DEVICE, else the best"}

/* Checks what needs no device: a known backend, a well-formed spec, and that --backend and
 * a backend named in --device agree. On a problem writes it to why (a usage error). */
bool cli_device_check(const char *backend, const char *device, char *why, size_t why_size);

/* The device the flags name (both NULL: magnus_device_select). On failure returns the
 * library's status (its detail quotes the spec) and writes the flags to `flags` ("--device",
 * "--backend, --device"; "" without flags), for cli_fail_in(status, flags). */
magnus_status cli_device_choose(magnus_device_info *out, const char *backend, const char *device,
                                char *flags, size_t flags_size);

#endif

/* --backend and --device as one device spec (cli_device.h). */
#include "cli_device.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static const char *const backend_names[] = {"cuda", "level0", "opencl"};

/* The backend `name` spells (any case), or NULL. */
static const char *backend_named(const char *name, size_t len) {
    for (size_t i = 0; i < sizeof backend_names / sizeof backend_names[0]; i++)
        if (strlen(backend_names[i]) == len && !strncasecmp(backend_names[i], name, len))
            return backend_names[i];
    return NULL;
}

/* The backend a well-formed spec names ("opencl:1", " CUDA "), or NULL for one that names
 * none ("gpu", "h200", "3"). The library parses the spec; this only reads its first word, to
 * tell whether it agrees with --backend. */
static const char *spec_backend(const char *spec) {
    while (isspace((unsigned char)*spec)) spec++;
    size_t len = strcspn(spec, ":");
    while (len > 0 && isspace((unsigned char)spec[len - 1])) len--;
    return backend_named(spec, len);
}

bool cli_device_check(const char *backend, const char *device, char *why, size_t why_size) {
    if (backend && !backend_named(backend, strlen(backend))) {
        snprintf(why, why_size, "unknown backend '%s' (expected cuda, level0 or opencl)", backend);
        return false;
    }
    if (device) {
        size_t index;
        /* an empty list: only the syntax is checked, nothing is probed */
        if (magnus_device_match(&index, NULL, 0, device) == MAGNUS_ERROR_INVALID_ARGUMENT) {
            snprintf(why, why_size, "--device: %s", magnus_last_error());
            return false;
        }
        const char *named = spec_backend(device);
        if (backend && named && strcasecmp(named, backend)) {
            snprintf(why, why_size,
                     "--backend %s and --device %s name different backends (give one of them)",
                     backend, device);
            return false;
        }
    }
    return true;
}

magnus_status cli_device_choose(magnus_device_info *out, const char *backend, const char *device,
                                char *flags, size_t flags_size) {
    flags[0] = '\0';
    if (!backend && !device) return magnus_device_select(out);
    char spec[512];
    if (!device)
        snprintf(spec, sizeof spec, "%s", backend);
    else if (!backend || spec_backend(device))
        snprintf(spec, sizeof spec, "%s", device);
    else /* --backend opencl --device 1: device 1 of OpenCL; --device pthread: OpenCL's */
        snprintf(spec, sizeof spec, "%s:%s", backend, device);
    magnus_status s = magnus_device_find(out, spec);
    if (s) {
        /* the detail quotes the spec; the flags say where it came from */
        snprintf(flags, flags_size, "%s", backend && device ? "--backend, --device"
                                          : backend         ? "--backend"
                                                            : "--device");
    }
    return s;
}

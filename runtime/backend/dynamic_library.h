/*
 * Opening a vendor library at run time, for the backends: the library's default soname or the
 * path in a MAGNUS_<VENDOR>_LIBRARY override, entry points resolved from a table, and the
 * error messages every backend gives the probe's diagnostics (library, reason, symbol).
 * Each backend keeps its own table of typed pointers; this file only knows names and slots.
 */
#ifndef MAGNUS_DYNAMIC_LIBRARY_H
#define MAGNUS_DYNAMIC_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

#include "magnus/magnus.h"

/* An open library. The path is a copy: the environment may change while it stays open. */
typedef struct magnus_library {
    void *handle;   /* dlopen handle; NULL while closed */
    char path[512]; /* what was opened, for messages */
} magnus_library;

/* One entry point: its exported name and the function pointer object that receives it. */
typedef struct magnus_library_symbol {
    const char *name;
    void *slot; /* address of a function pointer of the entry point's type */
} magnus_library_symbol;

/* The path to open: $env_var when set and not empty, else default_name. */
const char *magnus_library_path(const char *env_var, const char *default_name);

/*
 * Opens magnus_library_path(env_var, default_name) into *lib (RTLD_NOW | RTLD_LOCAL). On
 * failure: MAGNUS_ERROR_BACKEND_UNAVAILABLE, "cannot load <path>: <dlerror>", *lib closed.
 */
magnus_status magnus_library_open(magnus_library *lib, const char *env_var,
                                  const char *default_name);

/* The address of `name`, or NULL when the library does not export it. */
void *magnus_library_find(const magnus_library *lib, const char *name);

/*
 * Resolves every symbol into its slot, in order. On the first missing one:
 * MAGNUS_ERROR_BACKEND_UNAVAILABLE, "<path> lacks the <what> <name><hint>" (what: e.g.
 * "OpenCL 1.2 entry point"; hint: NULL or a text that follows the name, e.g. " (too old?)").
 * Slots before the missing one are filled, so callers resolve into a scratch table and copy
 * it out on success.
 */
magnus_status magnus_library_resolve(const magnus_library *lib, const char *what,
                                     const char *hint, const magnus_library_symbol *symbols,
                                     size_t count);

/*
 * Closes the library (nothing happens when it is not open). keep_mapped: the library stays in
 * memory for the life of the process (RTLD_NODELETE), for a driver that has started threads
 * or registered handlers inside itself once initialised.
 */
void magnus_library_close(magnus_library *lib, bool keep_mapped);

#endif

/* dlopen, dlsym and dlclose for the backends, with the messages the probe reports. */
#include "dynamic_library.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *magnus_library_path(const char *env_var, const char *default_name) {
    const char *env = env_var ? getenv(env_var) : NULL;
    return env && *env ? env : default_name;
}

magnus_status magnus_library_open(magnus_library *lib, const char *env_var,
                                  const char *default_name) {
    const char *path = magnus_library_path(env_var, default_name);
    lib->handle = NULL;
    snprintf(lib->path, sizeof lib->path, "%s", path);
    dlerror(); /* a stale error from someone else's dl* call must not become ours */
    lib->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib->handle) {
        const char *why = dlerror();
        return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, "cannot load %s: %s", path,
                            why ? why : "unknown dlopen error");
    }
    return MAGNUS_SUCCESS;
}

void *magnus_library_find(const magnus_library *lib, const char *name) {
    return lib->handle ? dlsym(lib->handle, name) : NULL;
}

magnus_status magnus_library_resolve(const magnus_library *lib, const char *what,
                                     const char *hint, const magnus_library_symbol *symbols,
                                     size_t count) {
    for (size_t i = 0; i < count; i++) {
        void *sym = magnus_library_find(lib, symbols[i].name);
        if (!sym)
            return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, "%s lacks the %s %s%s",
                                lib->path, what, symbols[i].name, hint ? hint : "");
        /* dlsym returns void *; POSIX guarantees that it converts to a function pointer, and
         * memcpy keeps that conversion clean under -Wpedantic and strict aliasing. */
        memcpy(symbols[i].slot, &sym, sizeof sym);
    }
    return MAGNUS_SUCCESS;
}

void magnus_library_close(magnus_library *lib, bool keep_mapped) {
    if (!lib->handle) return;
    if (keep_mapped) {
        /* Reopening an already loaded library with RTLD_NODELETE pins it; the extra reference
         * is dropped at once, the flag stays. */
        void *again = dlopen(lib->path, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        if (again) dlclose(again);
    }
    dlclose(lib->handle);
    lib->handle = NULL;
}

/*
 * The backend registry: which backends exist in this build, probing their devices in the
 * order MAGNUS_BACKENDS gives, the diagnostics of the last probe, and device selection
 * (MAGNUS_DEVICE or magnus_device_find's spec, parsed by device_spec.c; else the best device).
 *
 * Backends are loaded on first probe and stay loaded for the life of the process (unloading a
 * vendor library that may have started threads is not safe). A backend that failed to load is
 * tried again at the next probe.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "device_runtime.h"

typedef struct registry_entry {
    magnus_backend_kind kind;
    const char *name;
    const magnus_backend_ops *(*accessor)(void); /* NULL: not built into this library */
    bool loaded;
} registry_entry;

/* Default order: vendor-specific backends first, OpenCL (which may see the same GPU) last. */
static registry_entry registry[] = {
    {MAGNUS_BACKEND_CUDA, "cuda", magnus_backend_cuda_ops, false},
    {MAGNUS_BACKEND_LEVEL0, "level0", magnus_backend_level0_ops, false},
    {MAGNUS_BACKEND_OPENCL, "opencl", magnus_backend_opencl_ops, false},
};
#define NBACKENDS ((int)(sizeof registry / sizeof registry[0]))

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static magnus_device_info *probed;     /* the devices of the last probe */
static int *probed_rank;               /* position of each device's backend in the order */
static size_t nprobed, probed_capacity;
static char diagnostics[4096];

const char *magnus_backend_name(magnus_backend_kind kind) {
    for (int i = 0; i < NBACKENDS; i++)
        if (registry[i].kind == kind) return registry[i].name;
    return "unknown";
}

static void diag(const char *fmt, ...) MAGNUS_PRINTF(1, 2);
static void diag(const char *fmt, ...) {
    size_t used = strlen(diagnostics);
    if (used + 1 >= sizeof diagnostics) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diagnostics + used, sizeof diagnostics - used, fmt, ap);
    va_end(ap);
    used = strlen(diagnostics);
    if (used + 1 < sizeof diagnostics) strcat(diagnostics, "\n");
}

/* The diagnostics as one line ("a; b; c") for error messages. */
static const char *diagnostics_line(void) {
    static _Thread_local char line[sizeof diagnostics];
    size_t j = 0;
    for (size_t i = 0; diagnostics[i] && j + 2 < sizeof line; i++) {
        if (diagnostics[i] == '\n') {
            line[j++] = ';';
            line[j++] = ' ';
        } else {
            line[j++] = diagnostics[i];
        }
    }
    line[j] = '\0';
    return line;
}

/* Registry positions in probing order, from MAGNUS_BACKENDS (default: registry order). */
static int backend_order(int order[NBACKENDS]) {
    const char *env = getenv("MAGNUS_BACKENDS");
    int n = 0;
    if (!env || !*env) {
        for (int i = 0; i < NBACKENDS; i++) order[n++] = i;
        return n;
    }
    const char *p = env;
    while (*p) {
        while (*p == ',' || isspace((unsigned char)*p)) p++;
        const char *start = p;
        while (*p && *p != ',') p++;
        const char *end = p;
        while (end > start && isspace((unsigned char)end[-1])) end--;
        if (end == start) continue;
        int found = -1;
        for (int i = 0; i < NBACKENDS; i++)
            if (strlen(registry[i].name) == (size_t)(end - start) &&
                strncmp(registry[i].name, start, (size_t)(end - start)) == 0)
                found = i;
        if (found < 0) {
            diag("MAGNUS_BACKENDS: unknown backend \"%.*s\" ignored (known: cuda, level0, opencl)",
                 (int)(end - start), start);
            continue;
        }
        bool duplicate = false;
        for (int j = 0; j < n; j++) duplicate |= order[j] == found;
        if (!duplicate) order[n++] = found;
    }
    return n;
}

static magnus_status load_entry(registry_entry *e, const magnus_backend_ops **ops) {
    *ops = NULL;
    if (!e->accessor)
        return magnus_error(MAGNUS_ERROR_BACKEND_UNAVAILABLE, "%s: not built into this library",
                            e->name);
    const magnus_backend_ops *o = e->accessor();
    if (!e->loaded) {
        magnus_status s = o->load();
        if (s) return s;
        e->loaded = true;
    }
    *ops = o;
    return MAGNUS_SUCCESS;
}

static bool append_device(const magnus_device_info *info, int rank) {
    if (nprobed == probed_capacity) {
        size_t cap = probed_capacity ? 2 * probed_capacity : 8;
        magnus_device_info *list = magnus_host_realloc(probed, cap * sizeof *list);
        if (!list) return false;
        probed = list;
        int *ranks = magnus_host_realloc(probed_rank, cap * sizeof *ranks);
        if (!ranks) return false;
        probed_rank = ranks;
        probed_capacity = cap;
    }
    probed[nprobed] = *info;
    probed_rank[nprobed] = rank;
    nprobed++;
    return true;
}

/* One backend's devices into the list; diagnostics say what happened. */
static magnus_status probe_backend(registry_entry *e, int rank) {
    const magnus_backend_ops *ops;
    magnus_status s = load_entry(e, &ops);
    if (s) {
        /* Backends may already name themselves ("level0: zeInit failed"): not twice. */
        const char *why = magnus_last_error();
        size_t len = strlen(e->name);
        if (strncmp(why, e->name, len) == 0 && why[len] == ':' && why[len + 1] == ' ')
            why += len + 2;
        if (e->accessor) diag("%s: unavailable: %s", e->name, why);
        else diag("%s: not built into this library", e->name);
        return MAGNUS_SUCCESS;
    }
    int count = 0;
    char note[512] = "";
    magnus_error_clear();
    /* Running out of host memory is this call's failure, not the backend's. */
    if ((s = ops->device_count(&count)) == MAGNUS_ERROR_OUT_OF_HOST_MEMORY) return s;
    if (!s) snprintf(note, sizeof note, "%s", magnus_last_error());
    if (s) {
        diag("%s: loaded, but listing devices failed: %s", e->name, magnus_last_error());
        return MAGNUS_SUCCESS;
    }
    int listed = 0;
    for (int i = 0; i < count; i++) {
        magnus_device_info info;
        memset(&info, 0, sizeof info);
        if ((s = ops->device_info(i, &info)) == MAGNUS_ERROR_OUT_OF_HOST_MEMORY) return s;
        if (s) {
            diag("%s: device %d skipped: %s", e->name, i, magnus_last_error());
            continue;
        }
        info.backend = e->kind;
        info.index = i;
        if (info.max_alloc_bytes == 0) info.max_alloc_bytes = info.global_mem_bytes;
        if (!append_device(&info, rank))
            return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "device probe: device list");
        listed++;
    }
    diag("%s: loaded, %d device%s%s%s", e->name, listed, listed == 1 ? "" : "s",
         note[0] ? "; " : "", note);
    return MAGNUS_SUCCESS;
}

/* Probes every selected backend into the static list. Caller holds registry_lock. */
static magnus_status probe_locked(void) {
    diagnostics[0] = '\0';
    nprobed = 0;
    int order[NBACKENDS];
    int n = backend_order(order);
    for (int i = 0; i < NBACKENDS; i++) {
        bool selected = false;
        for (int j = 0; j < n; j++) selected |= order[j] == i;
        if (!selected) diag("%s: skipped (not in MAGNUS_BACKENDS)", registry[i].name);
    }
    for (int j = 0; j < n; j++) {
        magnus_status s = probe_backend(&registry[order[j]], j);
        if (s) return s;
    }
    size_t len = strlen(diagnostics);
    if (len > 0 && diagnostics[len - 1] == '\n') diagnostics[len - 1] = '\0';
    return MAGNUS_SUCCESS;
}

magnus_status magnus_device_probe(magnus_device_info *devices, size_t capacity, size_t *count) {
    magnus_error_clear();
    if (!count) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_device_probe: count is NULL");
    *count = 0;
    if (!devices && capacity > 0)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER,
                            "magnus_device_probe: devices is NULL but capacity is %zu", capacity);
    pthread_mutex_lock(&registry_lock);
    magnus_status s = probe_locked();
    if (!s) {
        for (size_t i = 0; i < nprobed && i < capacity; i++) devices[i] = probed[i];
        *count = nprobed;
    }
    pthread_mutex_unlock(&registry_lock);
    if (!s) magnus_error_clear(); /* a skipped backend is not this call's error */
    return s;
}

const char *magnus_probe_diagnostics(void) { return diagnostics; }

magnus_status magnus_backend_get(magnus_backend_kind kind, const magnus_backend_ops **ops) {
    *ops = NULL;
    pthread_mutex_lock(&registry_lock);
    /* The message is written only when no backend has the kind: a success leaves none. */
    int found = -1;
    for (int i = 0; i < NBACKENDS; i++)
        if (registry[i].kind == kind) found = i;
    magnus_status s = found < 0 ? magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                                               "unknown backend %d", (int)kind)
                                : load_entry(&registry[found], ops);
    pthread_mutex_unlock(&registry_lock);
    return s;
}

long magnus_device_pick_best(const magnus_device_info *devices, const int *backend_rank,
                             size_t count, int backend) {
    long best = -1;
    for (size_t i = 0; i < count; i++) {
        const magnus_device_info *d = &devices[i];
        if (backend && (int)d->backend != backend) continue;
        if (best < 0) {
            best = (long)i;
            continue;
        }
        const magnus_device_info *b = &devices[best];
        bool better = d->is_cpu != b->is_cpu ? !d->is_cpu
                    : backend_rank[i] != backend_rank[best] ? backend_rank[i] < backend_rank[best]
                    : d->local_mem_bytes > b->local_mem_bytes;
        if (better) best = (long)i;
    }
    return best;
}

/* Index into `probed` of the device `spec` names; the detail of a failure ends with the
 * probe's diagnostics, since a backend that did not load is often why nothing matched. */
static magnus_status find_locked(const char *spec, long *index) {
    magnus_status s = magnus_device_spec_match(index, probed, probed_rank, nprobed, spec);
    if (s == MAGNUS_ERROR_NO_DEVICE) {
        char reason[1024];
        snprintf(reason, sizeof reason, "%s", magnus_last_error());
        s = magnus_error(s, "%s; backends: %s", reason, diagnostics_line());
    }
    return s;
}

magnus_status magnus_device_select(magnus_device_info *out) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_device_select: out is NULL");
    pthread_mutex_lock(&registry_lock);
    magnus_status s = probe_locked();
    long index = -1;
    if (!s) {
        magnus_error_clear();
        const char *env = getenv("MAGNUS_DEVICE");
        if (env && *env) {
            if ((s = find_locked(env, &index))) magnus_error_prefix("MAGNUS_DEVICE: ");
        } else {
            index = magnus_device_pick_best(probed, probed_rank, nprobed, 0);
            if (index < 0)
                s = magnus_error(MAGNUS_ERROR_NO_DEVICE, "no device found; probe: %s",
                                 diagnostics_line());
        }
    }
    if (!s) *out = probed[index];
    pthread_mutex_unlock(&registry_lock);
    return s;
}

magnus_status magnus_device_find(magnus_device_info *out, const char *spec) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "device find: out is NULL");
    if (!spec) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "device find: spec is NULL");
    /* A malformed spec fails before anything is probed. */
    long index = -1;
    magnus_status s = magnus_device_spec_match(&index, NULL, NULL, 0, spec);
    if (s == MAGNUS_ERROR_INVALID_ARGUMENT) return s;
    magnus_error_clear();
    pthread_mutex_lock(&registry_lock);
    s = probe_locked();
    if (!s) {
        magnus_error_clear();
        s = find_locked(spec, &index);
    }
    if (!s) *out = probed[index];
    pthread_mutex_unlock(&registry_lock);
    return s;
}

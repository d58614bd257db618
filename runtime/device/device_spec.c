/*
 * Device specs: the one grammar that names a device, used by MAGNUS_DEVICE, magnus_device_find
 * and magnus_device_match (so the tool's --device and `magnus bench --systems` too).
 *
 *   N              the N-th device of the probe list
 *   gpu | cpu      the best device of that type
 *   BACKEND        the best device of that backend (cuda, level0, opencl)
 *   BACKEND:N      device N of that backend (its own numbering)
 *   BACKEND:gpu    the best device of that backend and type
 *   BACKEND:TEXT   the backend's devices whose name or vendor contains TEXT (any case)
 *   TEXT           the same over every backend
 *
 * Indices follow the vendor's enumeration (OpenCL's ICD order may differ between
 * environments); a name or a type is the stable way. Several matches: the best of them (as
 * for the default device), provided they share one name, so "h200" on a machine of two H200s
 * is the first and "nvidia" seen through CUDA and OpenCL is the CUDA one; matches of different
 * names are ambiguous, since no rule can tell which one was meant.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_runtime.h"

#define SPEC_MAX 256

/* The parsed form of a spec. */
typedef struct device_spec {
    magnus_backend_kind backend; /* 0: any */
    long index;                  /* >= 0: by index (within backend, or in the list) */
    int type;                    /* 1 gpu, 2 cpu, 0 any */
    char text[SPEC_MAX];         /* non-empty: a substring of name or vendor */
} device_spec;

static const struct {
    const char *name;
    magnus_backend_kind kind;
} backends[] = {
    {"cuda", MAGNUS_BACKEND_CUDA},
    {"level0", MAGNUS_BACKEND_LEVEL0},
    {"opencl", MAGNUS_BACKEND_OPENCL},
};

/* [start, end) with surrounding blanks removed, as a string in out. */
static void trimmed(char *out, const char *start, const char *end) {
    while (start < end && isspace((unsigned char)*start)) start++;
    while (end > start && isspace((unsigned char)end[-1])) end--;
    size_t len = (size_t)(end - start);
    memcpy(out, start, len);
    out[len] = '\0';
}

static bool all_digits(const char *s) {
    if (!*s) return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return false;
    return true;
}

static bool equal_nocase(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
    return *a == *b;
}

static bool contains_nocase(const char *haystack, const char *needle) {
    size_t n = strlen(needle);
    for (const char *h = haystack; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n) return true;
    }
    return n == 0;
}

static magnus_backend_kind backend_named(const char *name) {
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
        if (equal_nocase(backends[i].name, name)) return backends[i].kind;
    return (magnus_backend_kind)0;
}

/* The part after BACKEND: or the whole spec without one: index, type or text. */
static void parse_selector(device_spec *out, const char *word) {
    if (all_digits(word) && strlen(word) < 10) out->index = atol(word);
    else if (equal_nocase(word, "gpu")) out->type = 1;
    else if (equal_nocase(word, "cpu")) out->type = 2;
    else snprintf(out->text, sizeof out->text, "%s", word);
}

static magnus_status parse(device_spec *out, const char *spec) {
    memset(out, 0, sizeof *out);
    out->index = -1;
    if (!spec) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "device spec is NULL");
    if (strlen(spec) >= SPEC_MAX)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "device spec longer than %d characters",
                            SPEC_MAX - 1);
    char whole[SPEC_MAX], head[SPEC_MAX], tail[SPEC_MAX];
    trimmed(whole, spec, spec + strlen(spec));
    if (!whole[0])
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "empty device spec (expected an index, gpu, cpu, a backend, "
                            "BACKEND:INDEX or a name)");
    const char *colon = strchr(whole, ':');
    if (!colon) {
        out->backend = backend_named(whole);
        if (!out->backend) parse_selector(out, whole);
        return MAGNUS_SUCCESS;
    }
    trimmed(head, whole, colon);
    trimmed(tail, colon + 1, whole + strlen(whole));
    out->backend = backend_named(head);
    if (!out->backend)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "\"%s\": \"%s\" is not a backend (before ':' comes cuda, level0 "
                            "or opencl)",
                            whole, head);
    if (!tail[0])
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "\"%s\": nothing after ':' (expected an index, gpu, cpu or part "
                            "of a device name)",
                            whole);
    parse_selector(out, tail);
    return MAGNUS_SUCCESS;
}

static bool matches(const device_spec *s, const magnus_device_info *d, size_t position) {
    if (s->backend && d->backend != s->backend) return false;
    if (s->index >= 0) return s->backend ? d->index == s->index : (long)position == s->index;
    if (s->type == 1 && d->is_cpu) return false;
    if (s->type == 2 && !d->is_cpu) return false;
    if (s->text[0] && !contains_nocase(d->name, s->text) && !contains_nocase(d->vendor, s->text))
        return false;
    return true;
}

/* Appends "opencl:0 "name" (CPU), ..." for the devices where `which` is true (all: NULL). */
static void list_devices(char *buf, size_t size, const magnus_device_info *devices, size_t count,
                         const bool *which) {
    size_t used = 0;
    int listed = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count && used + 1 < size; i++) {
        if (which && !which[i]) continue;
        const magnus_device_info *d = &devices[i];
        int n = snprintf(buf + used, size - used, "%s%s:%d \"%s\" (%s%s%s)", listed ? ", " : "",
                         magnus_backend_name(d->backend), d->index, d->name, d->vendor,
                         d->vendor[0] ? ", " : "", d->is_cpu ? "CPU" : "GPU");
        if (n < 0) break;
        used += (size_t)n < size - used ? (size_t)n : size - used - 1;
        listed++;
    }
    if (!listed) snprintf(buf, size, "none");
}

magnus_status magnus_device_spec_match(long *index, const magnus_device_info *devices,
                                       const int *backend_rank, size_t count, const char *spec) {
    *index = -1;
    device_spec s;
    magnus_status st = parse(&s, spec);
    if (st) return st;
    char shown[SPEC_MAX];
    trimmed(shown, spec, spec + strlen(spec));
    /* which devices match, and whether they share one name */
    bool which[MAGNUS_SPEC_MAX_DEVICES];
    size_t n = count < MAGNUS_SPEC_MAX_DEVICES ? count : MAGNUS_SPEC_MAX_DEVICES;
    int found = 0;
    const char *name = NULL;
    bool one_name = true;
    for (size_t i = 0; i < n; i++) {
        which[i] = matches(&s, &devices[i], i);
        if (!which[i]) continue;
        found++;
        if (name && strcmp(name, devices[i].name)) one_name = false;
        name = devices[i].name;
    }
    char list[700];
    if (found == 0) {
        list_devices(list, sizeof list, devices, n, NULL);
        return magnus_error(MAGNUS_ERROR_NO_DEVICE, "no device matches \"%s\"; devices: %s",
                            shown, list);
    }
    if (s.text[0] && !one_name) {
        list_devices(list, sizeof list, devices, n, which);
        return magnus_error(MAGNUS_ERROR_NO_DEVICE,
                            "\"%s\" is ambiguous: it matches %s; give BACKEND:INDEX or more of "
                            "the name",
                            shown, list);
    }
    /* the best of the matches: a list of them only, with their ranks */
    magnus_device_info candidates[MAGNUS_SPEC_MAX_DEVICES];
    int ranks[MAGNUS_SPEC_MAX_DEVICES];
    size_t where[MAGNUS_SPEC_MAX_DEVICES], m = 0;
    for (size_t i = 0; i < n; i++) {
        if (!which[i]) continue;
        candidates[m] = devices[i];
        ranks[m] = backend_rank ? backend_rank[i] : 0;
        where[m++] = i;
    }
    long best = magnus_device_pick_best(candidates, ranks, m, 0);
    *index = (long)where[best];
    return MAGNUS_SUCCESS;
}

magnus_status magnus_device_match(size_t *index, const magnus_device_info *devices, size_t count,
                                  const char *spec) {
    magnus_error_clear();
    if (!index) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "device match: index is NULL");
    *index = 0;
    if (!devices && count > 0)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER,
                            "device match: devices is NULL but count is %zu", count);
    /* A backend's rank is the position of its first device in the list (a probe lists
     * backends in MAGNUS_BACKENDS order). */
    int ranks[MAGNUS_SPEC_MAX_DEVICES];
    size_t n = count < MAGNUS_SPEC_MAX_DEVICES ? count : MAGNUS_SPEC_MAX_DEVICES;
    for (size_t i = 0; i < n; i++) {
        ranks[i] = (int)i;
        for (size_t j = 0; j < i; j++)
            if (devices[j].backend == devices[i].backend) {
                ranks[i] = ranks[j];
                break;
            }
    }
    long found;
    magnus_status s = magnus_device_spec_match(&found, devices, ranks, n, spec);
    if (s) return s;
    *index = (size_t)found;
    return MAGNUS_SUCCESS;
}

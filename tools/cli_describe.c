/*
 * Device-description files: "key = value" lines (blanks around both ignored, # starts a
 * comment line), read into magnus_device_info as its backend's probe would fill it. Every
 * problem names the file and the line or the key, so a user can fix the file.
 */
#include "cli_describe.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "byte_size.h"
#include "cli_common.h"

typedef enum key_kind { KEY_TEXT, KEY_BACKEND, KEY_BYTES, KEY_COUNT, KEY_LIST, KEY_YES_NO, KEY_TYPE } key_kind;

typedef struct key_spec {
    const char *name;
    key_kind kind;
    bool required;
} key_spec;

static const key_spec keys[] = {
    {"name", KEY_TEXT, true},
    {"backend", KEY_BACKEND, true},
    {"local_mem_bytes", KEY_BYTES, true},
    {"max_work_group_size", KEY_COUNT, true},
    {"subgroup_sizes", KEY_LIST, true},
    {"fp64", KEY_YES_NO, true},
    {"vendor", KEY_TEXT, false},
    {"compute_units", KEY_COUNT, false},
    {"global_mem_bytes", KEY_BYTES, false},
    {"max_alloc_bytes", KEY_BYTES, false},
    {"atomic64", KEY_YES_NO, false},
    {"type", KEY_TYPE, false},
    {"wide_group_size", KEY_COUNT, false},
};
enum { NKEYS = sizeof keys / sizeof keys[0] };

static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* A whole decimal count from 1 to INT32_MAX. */
static bool to_count(const char *text, int64_t *out) {
    return cli_to_int64(text, out) && *out >= 1 && *out <= INT32_MAX;
}

static bool to_list(const char *text, magnus_device_info *d) {
    char copy[256];
    if (strlen(text) >= sizeof copy) return false;
    strcpy(copy, text);
    d->num_subgroup_sizes = 0;
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        int64_t n;
        if (d->num_subgroup_sizes == 8 || !to_count(trim(item), &n)) return false;
        d->subgroup_sizes[d->num_subgroup_sizes++] = (int)n;
    }
    return d->num_subgroup_sizes > 0;
}

/* Stores `value` of key k into d; the expected form when it does not parse. */
static const char *store(magnus_device_info *d, const key_spec *k, const char *value) {
    int64_t n;
    uint64_t bytes;
    const char *name = k->name;
    switch (k->kind) {
    case KEY_TEXT: {
        char *field = strcmp(name, "name") == 0 ? d->name : d->vendor;
        size_t size = strcmp(name, "name") == 0 ? sizeof d->name : sizeof d->vendor;
        if (!*value || strlen(value) >= size) return "text of 1 to 127 characters";
        snprintf(field, size, "%s", value);
        return NULL;
    }
    case KEY_BACKEND: /* the names MAGNUS_BACKENDS uses (magnus_backend_name) */
        for (int b = MAGNUS_BACKEND_CUDA; b <= MAGNUS_BACKEND_OPENCL; b++)
            if (strcasecmp(value, magnus_backend_name((magnus_backend_kind)b)) == 0) {
                d->backend = (magnus_backend_kind)b;
                return NULL;
            }
        return "cuda, level0 or opencl";
    case KEY_BYTES:
        if (magnus_parse_bytes(&bytes, value) || bytes == 0)
            return "a size in bytes such as 131072, 128K or 64G";
        if (strcmp(name, "local_mem_bytes") == 0) d->local_mem_bytes = bytes;
        else if (strcmp(name, "global_mem_bytes") == 0) d->global_mem_bytes = bytes;
        else d->max_alloc_bytes = bytes;
        return NULL;
    case KEY_COUNT:
        if (!to_count(value, &n)) return "a whole number from 1";
        if (strcmp(name, "max_work_group_size") == 0) d->max_work_group_size = (uint64_t)n;
        else if (strcmp(name, "compute_units") == 0) d->compute_units = (int)n;
        else d->wide_group_size = (uint64_t)n;
        return NULL;
    case KEY_LIST:
        return to_list(value, d) ? NULL : "1 to 8 whole numbers separated by commas";
    case KEY_YES_NO: {
        int yes = strcasecmp(value, "yes") == 0 || strcmp(value, "1") == 0 ||
                  strcasecmp(value, "true") == 0;
        int no = strcasecmp(value, "no") == 0 || strcmp(value, "0") == 0 ||
                 strcasecmp(value, "false") == 0;
        if (!yes && !no) return "yes or no";
        if (strcmp(name, "fp64") == 0) d->fp64 = yes;
        else d->atomic64 = yes;
        return NULL;
    }
    case KEY_TYPE:
        if (strcasecmp(value, "gpu") == 0) d->is_cpu = 0;
        else if (strcasecmp(value, "cpu") == 0) d->is_cpu = 1;
        else return "gpu or cpu";
        return NULL;
    }
    return "?";
}

static bool parse_line(magnus_device_info *d, bool *seen, char *line, const char *path,
                       int lineno, char *why, size_t why_size) {
    char *text = trim(line);
    if (!*text || *text == '#') return true;
    char *eq = strchr(text, '=');
    if (!eq) {
        snprintf(why, why_size, "%s:%d: expected \"key = value\", got \"%.60s\"", path, lineno,
                 text);
        return false;
    }
    *eq = '\0';
    const char *key = trim(text), *value = trim(eq + 1);
    int k = 0;
    while (k < NKEYS && strcmp(keys[k].name, key) != 0) k++;
    if (k == NKEYS) {
        snprintf(why, why_size, "%s:%d: unknown key \"%.60s\" (keys: see magnus params --help)",
                 path, lineno, key);
        return false;
    }
    if (seen[k]) {
        snprintf(why, why_size, "%s:%d: key \"%s\" given twice", path, lineno, key);
        return false;
    }
    seen[k] = true;
    const char *expected = store(d, &keys[k], value);
    if (expected) {
        snprintf(why, why_size, "%s:%d: %s = \"%.60s\": expected %s", path, lineno, key, value,
                 expected);
        return false;
    }
    return true;
}

bool cli_describe_read(magnus_device_info *out, const char *path, char *why, size_t why_size) {
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, why_size, "--describe %s: %s", path, strerror(errno));
        return false;
    }
    magnus_device_info d;
    memset(&d, 0, sizeof d);
    d.atomic64 = 1;
    bool seen[NKEYS] = {false}, ok = true;
    char line[1024];
    int lineno = 0;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(why, why_size, "%s:%d: line longer than %zu characters", path, lineno,
                     sizeof line - 2);
            ok = false;
        } else {
            ok = parse_line(&d, seen, line, path, lineno, why, why_size);
        }
    }
    fclose(f);
    for (int k = 0; ok && k < NKEYS; k++) {
        if (keys[k].required && !seen[k]) {
            snprintf(why, why_size, "%s: required key \"%s\" missing", path, keys[k].name);
            ok = false;
        }
    }
    if (!ok) return false;
    if (!d.wide_group_size) d.wide_group_size = d.backend == MAGNUS_BACKEND_CUDA ? 1024 : 256;
    if (!d.max_alloc_bytes) d.max_alloc_bytes = d.global_mem_bytes;
    *out = d;
    return true;
}

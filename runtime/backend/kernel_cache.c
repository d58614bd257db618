/* The on-disk kernel binary cache (see kernel_cache.h). */
#include <dirent.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "internal.h"
#include "kernel_cache.h"

#define FNV_PRIME 0x100000001b3ULL
static const uint64_t seeds[2] = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL};

/* File layout: header, then the payload. */
typedef struct entry_header {
    char magic[8];       /* "MAGNUSKC" */
    uint64_t key[2];
    uint64_t bytes;
    uint64_t checksum;   /* FNV-1a 64 of the payload */
} entry_header;

static uint64_t fnv1a(uint64_t h, const void *data, size_t bytes) {
    const unsigned char *p = data;
    for (size_t i = 0; i < bytes; i++) h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

void magnus_cache_key_init(magnus_cache_key *key) {
    key->h[0] = seeds[0];
    key->h[1] = seeds[1];
}

void magnus_cache_key_add(magnus_cache_key *key, const void *data, size_t bytes) {
    key->h[0] = fnv1a(key->h[0], data, bytes);
    /* The second hash also mixes in the length, so the two halves differ in structure. */
    key->h[1] = fnv1a(key->h[1] ^ (uint64_t)bytes, data, bytes) * 0x9e3779b97f4a7c15ULL;
}

void magnus_cache_key_add_string(magnus_cache_key *key, const char *text) {
    magnus_cache_key_add(key, text, strlen(text) + 1);
}

bool magnus_kernel_cache_dir(char *dir, size_t capacity) {
    const char *no_cache = getenv("MAGNUS_NO_CACHE");
    if (no_cache && *no_cache && strcmp(no_cache, "0") != 0) return false;
    const char *env = getenv("MAGNUS_CACHE_DIR");
    int n;
    if (env && *env) {
        if (strcmp(env, "off") == 0) return false;
        n = snprintf(dir, capacity, "%s", env);
    } else if ((env = getenv("XDG_CACHE_HOME")) && *env) {
        n = snprintf(dir, capacity, "%s/magnus", env);
    } else if ((env = getenv("HOME")) && *env) {
        n = snprintf(dir, capacity, "%s/.cache/magnus", env);
    } else {
        return false;
    }
    return n > 0 && (size_t)n < capacity;
}

static bool entry_path(const char *kind, const magnus_cache_key *key, char *path, size_t capacity) {
    char dir[3072];
    if (!magnus_kernel_cache_dir(dir, sizeof dir)) return false;
    int n = snprintf(path, capacity, "%s/%s-%016llx%016llx.bin", dir, kind,
                     (unsigned long long)key->h[0], (unsigned long long)key->h[1]);
    return n > 0 && (size_t)n < capacity;
}

bool magnus_kernel_cache_load(const char *kind, const magnus_cache_key *key, void **data,
                              size_t *bytes) {
    char path[4096];
    *data = NULL;
    *bytes = 0;
    if (!entry_path(kind, key, path, sizeof path)) return false;
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    entry_header h;
    void *payload = NULL;
    bool ok = fread(&h, sizeof h, 1, f) == 1 && memcmp(h.magic, "MAGNUSKC", 8) == 0 &&
              h.key[0] == key->h[0] && h.key[1] == key->h[1] && h.bytes > 0 &&
              h.bytes < ((uint64_t)1 << 32);
    if (ok) ok = (payload = magnus_host_malloc((size_t)h.bytes)) != NULL;
    if (ok) ok = fread(payload, (size_t)h.bytes, 1, f) == 1;
    if (ok) ok = fgetc(f) == EOF && fnv1a(seeds[0], payload, (size_t)h.bytes) == h.checksum;
    fclose(f);
    if (!ok) {
        magnus_host_free(payload);
        return false;
    }
    utimes(path, NULL); /* recently used: kept by prune_entries */
    *data = payload;
    *bytes = (size_t)h.bytes;
    return true;
}

/* Keeps the MAGNUS_CACHE_KEEP most recently used entries of `kind` (kernel sources change
 * during development, and each change leaves an entry of a few MB behind). */
#define MAGNUS_CACHE_KEEP 8
static void prune_entries(const char *dir, const char *kind) {
    DIR *d = opendir(dir);
    if (!d) return;
    char oldest[256];
    time_t oldest_mtime = 0;
    size_t prefix = strlen(kind);
    for (;;) {
        int count = 0;
        oldest[0] = '\0';
        rewinddir(d);
        for (struct dirent *e; (e = readdir(d)) != NULL;) {
            /* "<kind>-<32 hex>.bin": the exact shape, so "opencl" never matches "opencl-spir" */
            size_t len = strlen(e->d_name);
            if (len != prefix + 37 || strncmp(e->d_name, kind, prefix) != 0 ||
                e->d_name[prefix] != '-' || strcmp(e->d_name + len - 4, ".bin") != 0)
                continue;
            char path[4096];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (stat(path, &st) != 0) continue;
            count++;
            if (!oldest[0] || st.st_mtime < oldest_mtime) {
                snprintf(oldest, sizeof oldest, "%s", e->d_name);
                oldest_mtime = st.st_mtime;
            }
        }
        if (count <= MAGNUS_CACHE_KEEP) break;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, oldest);
        if (unlink(path) != 0) break;
    }
    closedir(d);
}

/* mkdir -p; false when a component cannot be created. */
static bool make_directories(const char *dir) {
    char path[3072];
    int n = snprintf(path, sizeof path, "%s", dir);
    if (n <= 0 || (size_t)n >= sizeof path) return false;
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) return false;
        *p = '/';
    }
    return mkdir(path, 0755) == 0 || errno == EEXIST;
}

bool magnus_kernel_cache_writable(char *why, size_t capacity) {
    char dir[3072];
    if (!magnus_kernel_cache_dir(dir, sizeof dir)) return true;
    errno = 0;
    const char *reason = NULL;
    struct stat st;
    if (!make_directories(dir)) reason = strerror(errno ? errno : EACCES);
    else if (stat(dir, &st) != 0) reason = strerror(errno);
    else if (!S_ISDIR(st.st_mode)) reason = strerror(ENOTDIR);
    else if (access(dir, W_OK | X_OK) != 0) reason = strerror(errno);
    if (!reason) return true;
    snprintf(why, capacity, "the kernel cache %s cannot be written (%s)", dir, reason);
    return false;
}

void magnus_kernel_cache_store(const char *kind, const magnus_cache_key *key, const void *data,
                               size_t bytes) {
    static atomic_uint counter;
    char dir[3072], path[4096], tmp[4200];
    if (bytes == 0 || !magnus_kernel_cache_dir(dir, sizeof dir) || !make_directories(dir)) return;
    if (!entry_path(kind, key, path, sizeof path)) return;
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(), atomic_fetch_add(&counter, 1));
    entry_header h;
    memcpy(h.magic, "MAGNUSKC", 8);
    h.key[0] = key->h[0];
    h.key[1] = key->h[1];
    h.bytes = bytes;
    h.checksum = fnv1a(seeds[0], data, bytes);
    FILE *f = fopen(tmp, "wb");
    if (!f) return;
    bool ok = fwrite(&h, sizeof h, 1, f) == 1 && fwrite(data, bytes, 1, f) == 1;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return;
    }
    prune_entries(dir, kind);
}

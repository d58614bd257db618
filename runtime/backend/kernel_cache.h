/*
 * An on-disk cache of built kernel binaries, for backends whose vendor compiler is slow
 * (PoCL takes seconds to build the kernels from OpenCL C). Backend-agnostic: a backend hashes
 * everything that determines its binary into a key and stores opaque bytes under it.
 *
 * Directory: $MAGNUS_CACHE_DIR, else $XDG_CACHE_HOME/magnus, else $HOME/.cache/magnus.
 * MAGNUS_CACHE_DIR=off or MAGNUS_NO_CACHE=1 disables the cache.
 * Entries are written to a temporary file and renamed, so concurrent processes never see a
 * partial entry; an entry whose header or checksum is wrong reads as a miss. Only the 8 most
 * recently used entries of each kind are kept. Failing to
 * write the cache is not an error (the cache is only an optimisation), but a backend warns of
 * it through the build notice (magnus_kernel_cache_writable).
 */
#ifndef MAGNUS_KERNEL_CACHE_H
#define MAGNUS_KERNEL_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 128-bit key built from two FNV-1a 64 hashes with different seeds. */
typedef struct magnus_cache_key {
    uint64_t h[2];
} magnus_cache_key;

void magnus_cache_key_init(magnus_cache_key *key);
void magnus_cache_key_add(magnus_cache_key *key, const void *data, size_t bytes);
/* Adds a NUL-terminated string, including a separator so "ab"+"c" differs from "a"+"bc". */
void magnus_cache_key_add_string(magnus_cache_key *key, const char *text);

/* Whether the cache is enabled, and its directory (static buffer). */
bool magnus_kernel_cache_dir(char *dir, size_t capacity);
/*
 * Whether an entry could be stored now: true when the cache is off or its directory exists
 * (it is created, as a store would) and can be written; false, with "the kernel cache DIR
 * cannot be written (REASON)" in why, otherwise (MAGNUS_CACHE_DIR naming a file, a read-only
 * place). A backend asks before a slow build, so that its build notice can warn that the
 * result will not be kept, instead of saying "cached in" a directory that keeps nothing.
 */
bool magnus_kernel_cache_writable(char *why, size_t capacity);
/*
 * Reads the entry `kind`-<key> into a new host buffer (magnus_host_free it); false on any
 * miss: disabled, absent, unreadable, corrupt.
 */
bool magnus_kernel_cache_load(const char *kind, const magnus_cache_key *key, void **data,
                              size_t *bytes);
/* Stores the entry; silently does nothing when the cache is disabled or unwritable. */
void magnus_kernel_cache_store(const char *kind, const magnus_cache_key *key, const void *data,
                               size_t bytes);

#endif

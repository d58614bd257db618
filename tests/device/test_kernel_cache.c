/*
 * The on-disk kernel cache (part of test_probe: test_probe.c): store, load, corruption, the
 * entries kept per kind, and the cache directory's defaults and switches. Each test runs in
 * its own process and may set environment variables freely.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device_runtime.h"
#include "kernel_cache.h"

/* ---- kernel cache ----------------------------------------------------------------------- */

static char cache_dir[256];

static void use_temporary_cache(void) {
    const char *tmp = getenv("TMPDIR");
    snprintf(cache_dir, sizeof cache_dir, "%s/magnus-cache-test-%ld", tmp && *tmp ? tmp : "/tmp",
             (long)getpid());
    char nested[300];
    snprintf(nested, sizeof nested, "%s/a/b", cache_dir); /* created on first store */
    setenv("MAGNUS_CACHE_DIR", nested, 1);
    unsetenv("MAGNUS_NO_CACHE");
}

static int count_files(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void remove_tree(void) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
    cr_assert_eq(system(cmd), 0);
}

Test(kernel_cache, store_load_and_corruption) {
    use_temporary_cache();
    magnus_cache_key k1, k2;
    magnus_cache_key_init(&k1);
    magnus_cache_key_add_string(&k1, "ab");
    magnus_cache_key_add_string(&k1, "c");
    magnus_cache_key_init(&k2);
    magnus_cache_key_add_string(&k2, "a");
    magnus_cache_key_add_string(&k2, "bc");
    cr_assert(k1.h[0] != k2.h[0] || k1.h[1] != k2.h[1], "separators keep keys apart");
    const char payload[] = "a built program";
    void *data;
    size_t bytes;
    cr_assert(!magnus_kernel_cache_load("t", &k1, &data, &bytes), "empty cache");
    magnus_kernel_cache_store("t", &k1, payload, sizeof payload);
    cr_assert(magnus_kernel_cache_load("t", &k1, &data, &bytes));
    cr_assert_eq(bytes, sizeof payload);
    cr_assert_arr_eq(data, payload, sizeof payload);
    magnus_host_free(data);
    cr_assert(!magnus_kernel_cache_load("t", &k2, &data, &bytes), "other key");
    cr_assert(!magnus_kernel_cache_load("u", &k1, &data, &bytes), "other kind");

    /* flip one payload byte, then truncate: both read as misses */
    char dir[300], path[600];
    snprintf(dir, sizeof dir, "%s/a/b", cache_dir);
    cr_assert_eq(count_files(dir), 1, "one entry, no temporary left behind");
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d)) && e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    closedir(d);
    FILE *f = fopen(path, "r+b");
    fseek(f, -3, SEEK_END);
    fputc('X', f);
    fclose(f);
    cr_assert(!magnus_kernel_cache_load("t", &k1, &data, &bytes), "corrupt payload");
    magnus_kernel_cache_store("t", &k1, payload, sizeof payload); /* rewritten */
    cr_assert(magnus_kernel_cache_load("t", &k1, &data, &bytes));
    magnus_host_free(data);
    cr_assert_eq(truncate(path, 20), 0);
    cr_assert(!magnus_kernel_cache_load("t", &k1, &data, &bytes), "truncated entry");
    remove_tree();
}

Test(kernel_cache, keeps_recent_entries_per_kind) {
    use_temporary_cache();
    char dir[300];
    snprintf(dir, sizeof dir, "%s/a/b", cache_dir);
    magnus_cache_key other;
    magnus_cache_key_init(&other);
    magnus_kernel_cache_store("t-x", &other, "y", 1);
    for (int i = 0; i < 12; i++) {
        magnus_cache_key k;
        magnus_cache_key_init(&k);
        magnus_cache_key_add(&k, &i, sizeof i);
        magnus_kernel_cache_store("t", &k, "x", 1);
    }
    cr_assert_eq(count_files(dir), 8 + 1, "8 entries of kind t, and the t-x entry");
    void *data;
    size_t bytes;
    cr_assert(magnus_kernel_cache_load("t-x", &other, &data, &bytes));
    magnus_host_free(data);
    remove_tree();
}

Test(kernel_cache, disabled_and_default_directories) {
    char dir[4096];
    setenv("MAGNUS_CACHE_DIR", "off", 1);
    cr_assert(!magnus_kernel_cache_dir(dir, sizeof dir));
    unsetenv("MAGNUS_CACHE_DIR");
    setenv("MAGNUS_NO_CACHE", "1", 1);
    cr_assert(!magnus_kernel_cache_dir(dir, sizeof dir));
    setenv("MAGNUS_NO_CACHE", "0", 1);
    setenv("XDG_CACHE_HOME", "/x/cache", 1);
    cr_assert(magnus_kernel_cache_dir(dir, sizeof dir));
    cr_assert_str_eq(dir, "/x/cache/magnus");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/y", 1);
    cr_assert(magnus_kernel_cache_dir(dir, sizeof dir));
    cr_assert_str_eq(dir, "/home/y/.cache/magnus");
    unsetenv("HOME");
    cr_assert(!magnus_kernel_cache_dir(dir, sizeof dir));
    /* disabled: storing does nothing, loading misses */
    use_temporary_cache();
    setenv("MAGNUS_NO_CACHE", "1", 1);
    magnus_cache_key k;
    magnus_cache_key_init(&k);
    magnus_kernel_cache_store("t", &k, "x", 1);
    cr_assert_eq(count_files(cache_dir), -1, "no directory created");
}

/* An unwritable cache is told, not an error (issue 33, item 9): MAGNUS_CACHE_DIR naming a
 * regular file cannot hold entries, and magnus_kernel_cache_writable says so with the path and
 * the reason (the OpenCL backend's build notice turns it into a warning); a new directory is
 * created and writable; a cache that is off needs nothing. */
Test(kernel_cache, unwritable_directory_is_reported) {
    use_temporary_cache();
    char why[4096] = "";
    cr_assert(magnus_kernel_cache_writable(why, sizeof why), "%s", why);
    char nested[300];
    snprintf(nested, sizeof nested, "%s/a/b", cache_dir);
    struct stat st;
    cr_assert(stat(nested, &st) == 0 && S_ISDIR(st.st_mode), "the directory was created");

    char file[320];
    snprintf(file, sizeof file, "%s/a-file", cache_dir);
    FILE *f = fopen(file, "w");
    cr_assert(f);
    fclose(f);
    setenv("MAGNUS_CACHE_DIR", file, 1);
    cr_assert(!magnus_kernel_cache_writable(why, sizeof why), "a regular file as the cache");
    cr_assert(strstr(why, file) && strstr(why, "cannot be written"), "%s", why);
    cr_assert(strstr(why, "Not a directory"), "%s", why);
    /* a store there does nothing and fails nothing */
    magnus_cache_key k;
    magnus_cache_key_init(&k);
    magnus_kernel_cache_store("t", &k, "x", 1);
    void *data;
    size_t bytes;
    cr_assert(!magnus_kernel_cache_load("t", &k, &data, &bytes));

    char below_file[400];
    snprintf(below_file, sizeof below_file, "%s/sub", file);
    setenv("MAGNUS_CACHE_DIR", below_file, 1);
    cr_assert(!magnus_kernel_cache_writable(why, sizeof why), "a directory below a file");
    cr_assert(strstr(why, below_file), "%s", why);

    setenv("MAGNUS_CACHE_DIR", "off", 1);
    cr_assert(magnus_kernel_cache_writable(why, sizeof why), "off: nothing to write");
    unsetenv("MAGNUS_CACHE_DIR");
    remove_tree();
}

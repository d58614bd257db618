/*
 * SPIR-V to SPIR 1.2 bitcode, the form PoCL 3.1 builds (clCreateProgramWithBinary with
 * "-x spir -spir-std=1.2"; it cannot ingest SPIR-V itself). The translation is the very
 * command backends/level0/level0.cmake runs for the OpenCL backend's SPIR mode:
 *
 *   llvm-spirv -r --spirv-target-env=CL1.2 module.spv -o module.bc
 *
 * run as a tool (posix_spawn) in a private temporary directory. FAKE_ZE_LLVM_SPIRV names the
 * translator (default: the one the build found). Results are cached, keyed by a hash of the
 * SPIR-V and of the translator's path, in FAKE_ZE_CACHE_DIR (default
 * $XDG_CACHE_HOME/magnus-fake-ze or ~/.cache/magnus-fake-ze; "off" disables the cache), so
 * the many short test processes translate each module once. Cache files are written under a
 * temporary name and renamed into place, so concurrent processes never read half a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake_ze.h"

#ifndef FAKE_ZE_DEFAULT_LLVM_SPIRV
#define FAKE_ZE_DEFAULT_LLVM_SPIRV "llvm-spirv-14"
#endif

extern char **environ;

static uint64_t fnv1a(uint64_t h, const void *data, size_t size) {
    const unsigned char *p = data;
    for (size_t i = 0; i < size; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static const char *translator(void) {
    const char *t = getenv("FAKE_ZE_LLVM_SPIRV");
    return t && *t ? t : FAKE_ZE_DEFAULT_LLVM_SPIRV;
}

/* Reads a whole file; NULL if it cannot. */
static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0) {
            data = malloc((size_t)n);
            if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
                free(data);
                data = NULL;
            }
            if (data) *size = (size_t)n;
        }
    }
    fclose(f);
    return data;
}

static bool write_file(const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, size, f) == size;
    ok = fclose(f) == 0 && ok;
    if (!ok) unlink(path);
    return ok;
}

/* The cache directory (created if needed), or false when caching is off or impossible. */
static bool cache_dir(char *out, size_t size) {
    const char *dir = getenv("FAKE_ZE_CACHE_DIR");
    if (dir && strcmp(dir, "off") == 0) return false;
    if (dir && *dir) {
        snprintf(out, size, "%s", dir);
    } else {
        const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (xdg && *xdg) snprintf(out, size, "%s/magnus-fake-ze", xdg);
        else if (home && *home) snprintf(out, size, "%s/.cache/magnus-fake-ze", home);
        else return false;
        /* the parent may not exist yet either */
        char parent[4096];
        snprintf(parent, sizeof parent, "%s", out);
        char *slash = strrchr(parent, '/');
        if (slash && slash != parent) {
            *slash = '\0';
            mkdir(parent, 0755);
        }
    }
    if (mkdir(out, 0755) != 0 && errno != EEXIST) return false;
    return true;
}

/* Runs the translator in `dir` on dir/module.spv; its stderr goes to dir/log.txt. */
static int run_translator(const char *dir, char *log, size_t log_size) {
    char in[4200], out[4200], err[4200];
    snprintf(in, sizeof in, "%s/module.spv", dir);
    snprintf(out, sizeof out, "%s/module.bc", dir);
    snprintf(err, sizeof err, "%s/log.txt", dir);
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) return -1;
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    char *args[] = {(char *)translator(), "-r", "--spirv-target-env=CL1.2", in, "-o", out, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, translator(), &actions, NULL, args, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        snprintf(log, log_size, "fake_ze: cannot run %s (FAKE_ZE_LLVM_SPIRV): %s", translator(),
                 strerror(rc));
        return -1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    size_t n = 0;
    unsigned char *text = read_file(err, &n);
    snprintf(log, log_size, "fake_ze: %s -r --spirv-target-env=CL1.2 failed (status %d): %.*s",
             translator(), WIFEXITED(status) ? WEXITSTATUS(status) : -1, text ? (int)n : 0,
             text ? (const char *)text : "");
    free(text);
    return -1;
}

unsigned char *fake_ze_translate(const void *spirv, size_t size, bool read_cache,
                                 size_t *out_size, bool *cached, char *log, size_t log_size) {
    *out_size = 0;
    *cached = false;
    const char *tool = translator();
    uint64_t key = fnv1a(fnv1a(0xcbf29ce484222325ULL, tool, strlen(tool)), spirv, size);
    char dir[4096], cache_path[4200] = "";
    if (cache_dir(dir, sizeof dir)) {
        snprintf(cache_path, sizeof cache_path, "%s/%016llx-%zu.spir12.bc", dir,
                 (unsigned long long)key, size);
        unsigned char *hit = read_cache ? read_file(cache_path, out_size) : NULL;
        if (hit) {
            *cached = true;
            return hit;
        }
    }

    const char *tmp = getenv("TMPDIR");
    char work[4096];
    snprintf(work, sizeof work, "%s/fake_ze.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(work)) {
        snprintf(log, log_size, "fake_ze: cannot create a temporary directory: %s", strerror(errno));
        return NULL;
    }
    char in[4200], out[4200], err[4200];
    snprintf(in, sizeof in, "%s/module.spv", work);
    snprintf(out, sizeof out, "%s/module.bc", work);
    snprintf(err, sizeof err, "%s/log.txt", work);
    unsigned char *bitcode = NULL;
    if (!write_file(in, spirv, size))
        snprintf(log, log_size, "fake_ze: cannot write %s", in);
    else if (run_translator(work, log, log_size) == 0) {
        bitcode = read_file(out, out_size);
        if (!bitcode) snprintf(log, log_size, "fake_ze: the translator wrote no %s", out);
    }
    unlink(in);
    unlink(out);
    unlink(err);
    rmdir(work);

    if (bitcode && cache_path[0]) {
        char partial[4300];
        snprintf(partial, sizeof partial, "%s.%ld.tmp", cache_path, (long)getpid());
        if (write_file(partial, bitcode, *out_size) && rename(partial, cache_path) != 0)
            unlink(partial);
    }
    return bitcode;
}

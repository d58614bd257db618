/* The files the tool writes itself, and standard output: paths checked before the work, every
 * write checked, a failure an error naming the file (cli_common.h, "output files"). */
#include "cli_common.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cli_output_is_stdout(const char *path) {
    if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout")) return true;
    struct stat a, b;
    return stat(path, &a) == 0 && fstat(STDOUT_FILENO, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

int cli_output_check(const char *path) {
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return cli_failf("cannot write %s: it is a directory", path);
        if (access(path, W_OK) != 0)
            return cli_failf("cannot write %s: %s", path, strerror(errno));
        return 0;
    }
    /* the directory it would be created in */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
    if (stat(dir, &st) != 0)
        return cli_failf("cannot write %s: directory %s: %s", path, dir, strerror(errno));
    if (!S_ISDIR(st.st_mode)) return cli_failf("cannot write %s: %s is not a directory", path, dir);
    if (access(dir, W_OK | X_OK) != 0)
        return cli_failf("cannot write %s: directory %s: %s", path, dir, strerror(errno));
    return 0;
}

/* ======================================================================================== */
/* output files                                                                             */
/* ======================================================================================== */

/* errno of the first failed flush of standard output (cli_json_end flushes it early, and a
 * later fflush of an empty buffer no longer says why). */
static int stdout_errno;

/* Flushes f and keeps the errno of a failure in *error (first one only). errno is cleared
 * first: a stream may fail without setting it, and an old value would then be blamed. */
static void flush_keeping_errno(FILE *f, int *error) {
    errno = 0;
    int failed = fflush(f) != 0 || ferror(f);
    if (failed && !*error) *error = errno ? errno : EIO;
}

bool cli_outfile_open(cli_outfile *o, const char *path) {
    memset(o, 0, sizeof *o);
    o->path = path;
    errno = 0;
    o->file = fopen(path, "w");
    if (!o->file) o->error = errno ? errno : EIO;
    return o->file != NULL;
}

void cli_outfile_stdout(cli_outfile *o) {
    memset(o, 0, sizeof *o);
    o->path = "standard output";
    o->file = stdout;
    o->is_stdout = true;
}

bool cli_outfile_flush(cli_outfile *o) {
    if (o->file) flush_keeping_errno(o->file, &o->error);
    return o->error == 0;
}

bool cli_outfile_close(cli_outfile *o) {
    if (!o->file) return o->error == 0;
    flush_keeping_errno(o->file, &o->error);
    if (!o->is_stdout) {
        errno = 0;
        if (fclose(o->file) != 0 && !o->error) o->error = errno ? errno : EIO;
    }
    o->file = NULL;
    return o->error == 0;
}

int cli_outfile_fail(const cli_outfile *o) {
    return cli_failf("cannot write %s: %s", o->path ? o->path : "(no path)",
                     strerror(o->error ? o->error : EIO));
}

void cli_stdout_flush(void) { flush_keeping_errno(stdout, &stdout_errno); }

int cli_stdout_finish(int rc) {
    flush_keeping_errno(stdout, &stdout_errno);
    if (!stdout_errno || rc != CLI_EXIT_OK) return rc;
    /* the message goes to stderr, which has no buffer to lose */
    return cli_failf("cannot write standard output: %s", strerror(stdout_errno));
}

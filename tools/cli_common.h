/*
 * Helpers shared by every `magnus` subcommand: option parsing driven by a table (which also
 * prints the --help text), a JSON writer with correct string escaping, a rate-limited progress
 * line on stderr, readable number formatting and uniform error reporting.
 *
 * Exit codes of the tool: 0 success (and --help), 1 a library or data error (the message
 * comes from magnus_status_string and magnus_last_error), 2 a usage error.
 */
#ifndef MAGNUS_CLI_COMMON_H
#define MAGNUS_CLI_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "magnus/magnus.h"

#if defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

enum {
    CLI_CONTINUE = -1, /* cli_parse: arguments fine, run the command */
    CLI_EXIT_OK = 0,
    CLI_EXIT_FAILURE = 1,
    CLI_EXIT_USAGE = 2
};

/* ---- option parsing ------------------------------------------------------------------- */
typedef enum cli_option_kind {
    CLI_FLAG,   /* bool, takes no value */
    CLI_INT,    /* int64_t */
    CLI_BYTES,  /* int64_t: a size in bytes as MAGNUS_LOCAL_MEM_BYTES takes it
                   (runtime/core/byte_size.h: 65536, 48K, 48KiB, 2G; powers of 1024) */
    CLI_UINT,   /* uint64_t (seeds) */
    CLI_REAL,   /* double */
    CLI_STRING, /* const char * (points into argv) */
    CLI_TYPE,   /* magnus_value_type, spelled f32 or f64 */
    CLI_TYPE_OR_AUTO, /* the same, or "auto" (MAGNUS_MM_TYPE_AUTO: the files' fields decide) */
    CLI_FLAG_VALUE /* const char *: a flag that may carry a value, only as --name=VALUE;
                      given bare it is set to "" (so NULL means absent) */
} cli_option_kind;

typedef struct cli_option {
    const char *name;       /* "--scale" */
    const char *alias;      /* "-o", or NULL */
    cli_option_kind kind;
    void *target;           /* written when the option is given; holds the default otherwise */
    const char *value_name; /* "S" in "--scale S"; NULL for flags */
    const char *help;       /* one line */
} cli_option;

typedef struct cli_spec {
    const char *command;       /* "rmat" */
    const char *synopsis;      /* what follows "magnus rmat" in the usage line */
    const char *description;   /* a paragraph for --help, or NULL */
    const cli_option *options; /* ends with an entry whose name is NULL */
} cli_spec;

/* The positional arguments of a command line, the target of cli_parse as an option's target
 * is of its value: the caller sets how many the command takes (min..max, max at most
 * CLI_MAX_POSITIONAL: bench's list of inputs is the longest); cli_parse fills at[0..count-1]
 * with pointers into argv. */
#define CLI_MAX_POSITIONAL 512
typedef struct cli_args {
    int min, max;
    const char *at[CLI_MAX_POSITIONAL];
    int count;
} cli_args;

/*
 * Parses argv[1..argc-1] (argv[0] is the subcommand's name). Options may be given as
 * "--name value" or "--name=value"; "--" ends the options. Positional arguments are stored in
 * args; args NULL: the command takes none. Returns CLI_CONTINUE when the command should run,
 * CLI_EXIT_OK after printing --help to stdout, or CLI_EXIT_USAGE after printing the problem and
 * the usage to stderr.
 */
int cli_parse(const cli_spec *spec, int argc, char **argv, cli_args *args);
/* Whether the last cli_parse was given the option whose target is `target`: for an option
 * whose default is also a value a user could give (--local-mem 0, --verify-limit). */
bool cli_option_given(const void *target);
/* The option rows that several commands share word for word, so that their --help stays the
 * same everywhere: --json (a bool: one JSON object on stdout) and --progress (a bool). */
#define CLI_JSON_OPTION(flag) \
    {"--json", NULL, CLI_FLAG, (flag), NULL, "print one JSON object on stdout"}
#define CLI_PROGRESS_OPTION(flag)                  \
    {"--progress", NULL, CLI_FLAG, (flag), NULL, \
     "show progress on stderr even when it is not a terminal"}
/* --type of the generators (a magnus_value_type, f32 unless given) and of the commands that
 * multiply A*B (CLI_TYPE_OR_AUTO: the files decide), and -o of the generators (required). */
#define CLI_GEN_TYPE_OPTION(type) \
    {"--type", NULL, CLI_TYPE, (type), "f32|f64", "value type (default f32)"}
#define CLI_PRODUCT_TYPE_OPTION(type)                                                       \
    {"--type", NULL, CLI_TYPE_OR_AUTO, (type), "auto|f32|f64",                              \
     "value type of A, B and C (default auto: f64 for real and integer files, f32 for "     \
     "pattern files and generators, f64 for both when they differ)"}
#define CLI_GEN_OUTPUT_OPTION(path) \
    {"--output", "-o", CLI_STRING, (path), "FILE", "output file, .mtx or .mtx.gz (required)"}

/* Prints the full --help text of a subcommand. */
void cli_print_help(const cli_spec *spec, FILE *out);
/* Prints "magnus <command>: <message>" and the usage line to stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const cli_spec *spec, const char *fmt, ...) CLI_PRINTF(2, 3);
/* The same with the spec of the last cli_parse: for a usage problem found after the work began
 * (an option value the chosen device cannot take). */
int cli_usage_errorf(const char *fmt, ...) CLI_PRINTF(1, 2);

/* Strict conversions of a whole string; false if it is not a number or out of range.
 * cli_to_double takes decimal numbers only (no hexadecimal, no NaN or inf), as the matrix
 * reader does. */
bool cli_to_int64(const char *text, int64_t *out);
bool cli_to_bytes(const char *text, int64_t *out); /* CLI_BYTES's conversion */
bool cli_to_uint64(const char *text, uint64_t *out);
bool cli_to_double(const char *text, double *out);
bool cli_to_type(const char *text, magnus_value_type *out);
const char *cli_type_name(magnus_value_type type); /* "f32", "f64", "auto", "?" */

/* ---- errors --------------------------------------------------------------------------- */
/* Every message of the tool begins "magnus <command>: " (usage errors too), so a script's
 * log says which command complained; main() names the command before running it. */
void cli_set_command(const char *name);
/* "magnus <command>" ("magnus" before a command is known), the prefix without ": ". */
const char *cli_prefix(void);
/* Prints "magnus <command>: <status string>: <magnus_last_error()>" to stderr; returns
 * CLI_EXIT_FAILURE. Call it right after the failing call, before any other magnus call
 * replaces the detail. */
int cli_fail(magnus_status status);
/* The same with what failed first, in the user's terms ("--device gpu: no usable device: ...");
 * context "" or NULL is cli_fail. */
int cli_fail_in(magnus_status status, const char *context);
/* Prints "magnus <command>: <message>" to stderr; returns CLI_EXIT_FAILURE. */
int cli_failf(const char *fmt, ...) CLI_PRINTF(1, 2);
/* Prints "magnus <command>: note: <message>" to stderr: something the user should know that
 * is no error. */
void cli_note(const char *fmt, ...) CLI_PRINTF(1, 2);
/* A context's build_progress: one note line on stderr when a kernel build starts ("building
 * the float32 kernels for ... (first use; cached in ...)"), a warning line when the kernel
 * cache cannot keep it; user, if not NULL, is a bool set to true by a build. */
int cli_build_notice(void *user, double fraction, const char *what);
/* The message of the last cli_fail / cli_failf ("" before any), for a --json "error" field. */
const char *cli_last_failure(void);
/* 0 when `path` can be written (an existing writable file, or a new one in a writable
 * directory); else reports why (cli_failf: "cannot write PATH: ...") and returns
 * CLI_EXIT_FAILURE. Checked before any work, so that a bad -o does not cost a whole multiply;
 * for a file the library writes later (magnus_mm_write), which checks its own writes. */
int cli_output_check(const char *path);
/* Whether -o names standard output: "-", /dev/stdout, or the very file stdout is. What is
 * written there then goes to stdout and every report to stderr, so the two never mix. */
bool cli_output_is_stdout(const char *path);
/* Prints "magnus <command>: warning: <message>" to stderr: something went wrong that does not
 * stop the command (its result is still right). */
void cli_warning(const char *fmt, ...) CLI_PRINTF(1, 2);

/* ---- output files --------------------------------------------------------------------- */
/* A file the tool writes itself. Open it before the work, so that a path that cannot be
 * written fails at once; every write is checked through the stream's error flag, and the
 * first failure's errno is kept, so that a full disk (/dev/full) is an error at the latest
 * when the file is closed, never a success. */
typedef struct cli_outfile {
    FILE *file;       /* NULL while closed */
    const char *path; /* as given; "standard output" for cli_outfile_stdout */
    bool is_stdout;   /* flushed, never closed */
    int error;        /* errno of the first failure, 0 while none */
} cli_outfile;
/* Opens `path` for writing, literally (what "-" means is the command's choice). False, with
 * o->error set, when it cannot be created. */
bool cli_outfile_open(cli_outfile *o, const char *path);
/* The same over standard output. */
void cli_outfile_stdout(cli_outfile *o);
/* Flushes what was written (a line-by-line output, so that a run cut short keeps it); false
 * once any write has failed. */
bool cli_outfile_flush(cli_outfile *o);
/* Flushes and closes (standard output is only flushed); false when any write or the close
 * failed. Safe on a closed one (it returns whether none failed). */
bool cli_outfile_close(cli_outfile *o);
/* Reports o's failure: "cannot write PATH: REASON" (cli_failf); returns CLI_EXIT_FAILURE. */
int cli_outfile_fail(const cli_outfile *o);
/* Standard output at the end of a command: flushed and checked, so that output lost to a full
 * disk or a closed pipe is an error ("cannot write standard output: REASON", exit 1) when the
 * command itself succeeded. Returns rc, or CLI_EXIT_FAILURE. */
int cli_stdout_finish(int rc);
/* Flushes standard output now, keeping a failure for cli_stdout_finish. */
void cli_stdout_flush(void);

/* ---- numbers -------------------------------------------------------------------------- */
typedef struct cli_text {
    char s[96];
} cli_text;
/* 81362487 -> "81,362,487" (use as cli_count(n).s inside one expression). */
cli_text cli_count(int64_t n);
/* 81362487 -> "81.4 M"; 0.0123 -> "0.0123". */
cli_text cli_si(double x);
/* Seconds as "1.23 s", "45.6 ms" or "789 us". */
cli_text cli_duration(double seconds);
/* Memory sizes: 1610612736 -> "1.50 GiB", 512 -> "512 bytes". */
cli_text cli_bytes(uint64_t bytes);
/* Monotonic clock in seconds. */
double cli_now(void);

/* ---- JSON ----------------------------------------------------------------------------- */
#define CLI_JSON_MAX_DEPTH 16
typedef struct cli_json {
    FILE *out;
    int depth;
    bool has_member[CLI_JSON_MAX_DEPTH];
} cli_json;

/* Writes s as a JSON string literal: quotes, backslashes and control characters escaped,
 * invalid UTF-8 bytes replaced by U+FFFD so the output always parses. */
void cli_json_write_string(FILE *out, const char *s);
/* Opens the top-level object; cli_json_end closes it and ends the line. */
void cli_json_begin(cli_json *j, FILE *out);
void cli_json_end(cli_json *j);
/* A member holding a nested object, closed by cli_json_close. */
void cli_json_object(cli_json *j, const char *key);
void cli_json_close(cli_json *j);
void cli_json_string(cli_json *j, const char *key, const char *value); /* NULL -> null */
void cli_json_int(cli_json *j, const char *key, int64_t value);
void cli_json_real(cli_json *j, const char *key, double value); /* NaN/Inf -> null */
void cli_json_bool(cli_json *j, const char *key, bool value);
void cli_json_null(cli_json *j, const char *key);
/* Arrays of numbers on one line: "key": [1, 2, 3]. */
void cli_json_int_array(cli_json *j, const char *key, const int64_t *values, int n);
void cli_json_real_array(cli_json *j, const char *key, const double *values, int n);

/* ---- progress ------------------------------------------------------------------------- */
/*
 * A progress line on stderr, shown when stderr is a terminal or when forced (--progress).
 * On a terminal the line is redrawn in place; otherwise each update is its own line. Updates
 * of one step are drawn at most about 5 times a second; a new step (label) is drawn at once, so
 * a long step that follows a short one is never hidden.
 */
typedef struct cli_progress {
    bool enabled;
    bool tty;
    bool drawn;       /* a line is on screen (terminal mode) */
    double last_draw; /* cli_now() of the last draw, or a large negative number */
    char label[64];   /* label of the last draw */
} cli_progress;

void cli_progress_init(cli_progress *p, bool forced);
/* A magnus_progress_fn: user is the cli_progress; fraction < 0 shows only the label.
 * Always returns 1 (keep going). */
int cli_progress_update(void *user, double fraction, const char *what);
/* Erases the line (terminal) so normal output starts on a clean line. */
void cli_progress_done(cli_progress *p);

#endif

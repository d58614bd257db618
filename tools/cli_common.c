/* Option parsing, errors, number formatting and the progress line of `magnus` (JSON output:
 * cli_json.c; output files: cli_output.c). */
#include "cli_common.h"

#include "byte_size.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The progress line currently on screen, erased before an error message is printed so the
 * message does not land in the middle of it. */
static cli_progress *visible_progress;
/* The last failure reported, for a --json object's "error" field. */
static char last_failure[1024];
/* "magnus <command>", the start of every message (cli_set_command). */
static char prefix[80] = "magnus";

/* ======================================================================================== */
/* option parsing                                                                           */
/* ======================================================================================== */

bool cli_to_int64(const char *text, int64_t *out) {
    if (!text || !*text) return false;
    errno = 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (errno || *end) return false;
    *out = (int64_t)v;
    return true;
}

bool cli_to_bytes(const char *text, int64_t *out) {
    uint64_t v;
    if (magnus_parse_bytes(&v, text) != MAGNUS_SUCCESS || v > (uint64_t)INT64_MAX) return false;
    *out = (int64_t)v;
    return true;
}

bool cli_to_uint64(const char *text, uint64_t *out) {
    /* strtoull accepts "-1" and wraps it; a seed given as a negative number is a mistake. */
    if (!text || !*text || text[0] == '-') return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || *end) return false;
    *out = (uint64_t)v;
    return true;
}

bool cli_to_double(const char *text, double *out) {
    if (!text || !*text || text[0] == ' ' || text[0] == '\t') return false;
    /* strtod reads hexadecimal ("0x10" is 16); the matrix reader refuses it, and so does the
     * tool (a decimal number is what every option and vector file means) */
    const char *digits = text + (text[0] == '-' || text[0] == '+');
    if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) return false;
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (errno || *end || !isfinite(v)) return false;
    *out = v;
    return true;
}

bool cli_to_type(const char *text, magnus_value_type *out) {
    if (!text) return false;
    if (!strcmp(text, "f32") || !strcmp(text, "float32") || !strcmp(text, "float")) {
        *out = MAGNUS_FLOAT32;
        return true;
    }
    if (!strcmp(text, "f64") || !strcmp(text, "float64") || !strcmp(text, "double")) {
        *out = MAGNUS_FLOAT64;
        return true;
    }
    return false;
}

const char *cli_type_name(magnus_value_type type) {
    switch (type) {
    case MAGNUS_FLOAT32: return "f32";
    case MAGNUS_FLOAT64: return "f64";
    }
    return type == MAGNUS_MM_TYPE_AUTO ? "auto" : "?";
}

static void print_usage_line(const cli_spec *spec, FILE *out) {
    fprintf(out, "usage: magnus %s %s\n", spec->command, spec->synopsis ? spec->synopsis : "");
}

/* "-o, --output FILE", "    --scale S", or "    --verify[=MODE]" for a flag with a value. */
static int option_label(char *label, size_t size, const cli_option *o) {
    const char *value = o->value_name ? o->value_name : "";
    if (o->kind == CLI_FLAG_VALUE)
        return snprintf(label, size, "%s%s%s%s%s%s", o->alias ? o->alias : "    ",
                        o->alias ? ", " : "", o->name, *value ? "[=" : "", value,
                        *value ? "]" : "");
    return snprintf(label, size, "%s%s%s%s%s", o->alias ? o->alias : "    ",
                    o->alias ? ", " : "", o->name, *value ? " " : "", value);
}

void cli_print_help(const cli_spec *spec, FILE *out) {
    print_usage_line(spec, out);
    if (spec->description) fprintf(out, "\n%s\n", spec->description);
    fprintf(out, "\noptions:\n");
    /* Labels are "-o, --output FILE" or "    --scale S"; align the help column on the
     * longest one. */
    char label[128];
    int width = (int)strlen("-h, --help");
    for (const cli_option *o = spec->options; o && o->name; o++) {
        int n = option_label(label, sizeof label, o);
        if (n > width) width = n;
    }
    for (const cli_option *o = spec->options; o && o->name; o++) {
        option_label(label, sizeof label, o);
        fprintf(out, "  %-*s  %s\n", width, label, o->help ? o->help : "");
    }
    fprintf(out, "  %-*s  %s\n", width, "-h, --help", "show this help and exit");
}

static int usage_error_v(const cli_spec *spec, const char *fmt, va_list ap) {
    cli_progress_done(visible_progress);
    vsnprintf(last_failure, sizeof last_failure, fmt, ap); /* a --json object's "error" */
    fprintf(stderr, "magnus %s: %s\n", spec->command, last_failure);
    print_usage_line(spec, stderr);
    fprintf(stderr, "(see 'magnus %s --help')\n", spec->command);
    return CLI_EXIT_USAGE;
}

int cli_usage_error(const cli_spec *spec, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = usage_error_v(spec, fmt, ap);
    va_end(ap);
    return rc;
}

/* The spec of the last cli_parse (it lives in the command's frame, which is still running). */
static const cli_spec *parsed_spec;

int cli_usage_errorf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc;
    if (parsed_spec) {
        rc = usage_error_v(parsed_spec, fmt, ap);
    } else {
        vsnprintf(last_failure, sizeof last_failure, fmt, ap);
        fprintf(stderr, "%s: %s\n", prefix, last_failure);
        rc = CLI_EXIT_USAGE;
    }
    va_end(ap);
    return rc;
}

static const cli_option *find_option(const cli_spec *spec, const char *arg, size_t len) {
    for (const cli_option *o = spec->options; o && o->name; o++) {
        if (strlen(o->name) == len && !strncmp(o->name, arg, len)) return o;
        if (o->alias && strlen(o->alias) == len && !strncmp(o->alias, arg, len)) return o;
    }
    return NULL;
}

static const char *kind_expectation(cli_option_kind kind) {
    switch (kind) {
    case CLI_INT: return "an integer";
    case CLI_BYTES: return "a size in bytes such as 65536, 48K or 1M";
    case CLI_UINT: return "a non-negative integer";
    case CLI_REAL: return "a number";
    case CLI_TYPE: return "f32 or f64";
    case CLI_TYPE_OR_AUTO: return "auto, f32 or f64";
    case CLI_STRING:
    case CLI_FLAG:
    case CLI_FLAG_VALUE: break;
    }
    return "a value";
}

/* Stores `value` into the option's target; false if it does not convert. */
static bool store_option(const cli_option *o, const char *value) {
    switch (o->kind) {
    case CLI_FLAG: *(bool *)o->target = true; return true;
    case CLI_INT: return cli_to_int64(value, (int64_t *)o->target);
    case CLI_BYTES: return cli_to_bytes(value, (int64_t *)o->target);
    case CLI_UINT: return cli_to_uint64(value, (uint64_t *)o->target);
    case CLI_REAL: return cli_to_double(value, (double *)o->target);
    case CLI_STRING: *(const char **)o->target = value; return true;
    case CLI_TYPE: return cli_to_type(value, (magnus_value_type *)o->target);
    case CLI_TYPE_OR_AUTO:
        if (value && !strcmp(value, "auto")) {
            *(magnus_value_type *)o->target = MAGNUS_MM_TYPE_AUTO;
            return true;
        }
        return cli_to_type(value, (magnus_value_type *)o->target);
    case CLI_FLAG_VALUE: *(const char **)o->target = value ? value : ""; return true;
    }
    return false;
}

/* The targets of the options the last cli_parse was given. */
#define MAX_GIVEN 128
static const void *given_targets[MAX_GIVEN];
static int ngiven;

static void remember_given(const void *target) {
    if (ngiven < MAX_GIVEN) given_targets[ngiven++] = target;
}

bool cli_option_given(const void *target) {
    for (int i = 0; i < ngiven; i++)
        if (given_targets[i] == target) return true;
    return false;
}

int cli_parse(const cli_spec *spec, int argc, char **argv, cli_args *args) {
    int count = 0;
    const int min_positional = args ? args->min : 0;
    const int max_positional = !args ? 0 : args->max < CLI_MAX_POSITIONAL ? args->max
                                                                          : CLI_MAX_POSITIONAL;
    ngiven = 0;
    parsed_spec = spec;
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool is_option = !options_done && arg[0] == '-' && arg[1] != '\0';
        if (is_option && !strcmp(arg, "--")) {
            options_done = true;
            continue;
        }
        if (is_option && (!strcmp(arg, "-h") || !strcmp(arg, "--help"))) {
            cli_print_help(spec, stdout);
            return CLI_EXIT_OK;
        }
        if (!is_option) {
            if (count >= max_positional)
                return cli_usage_error(spec, "unexpected argument '%s'", arg);
            args->at[count++] = arg;
            continue;
        }
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
        const cli_option *o = find_option(spec, arg, name_len);
        double number;
        if (!o && cli_to_double(arg, &number)) {
            /* "-3" is no option but a negative number, for the command to judge ("gen rmat 5
             * -3": its argument 2 must not be negative) */
            if (count >= max_positional)
                return cli_usage_error(spec, "unexpected argument '%s'", arg);
            args->at[count++] = arg;
            continue;
        }
        if (!o) return cli_usage_error(spec, "unknown option '%.*s'", (int)name_len, arg);
        const char *value = NULL;
        if (o->kind == CLI_FLAG) {
            if (eq) return cli_usage_error(spec, "option %s takes no value", o->name);
        } else if (o->kind == CLI_FLAG_VALUE) {
            /* The value must be attached: "--verify random" keeps "random" a positional. */
            if (eq) value = eq + 1;
        } else if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            return cli_usage_error(spec, "option %s needs a value (%s)", o->name,
                                   o->value_name ? o->value_name : "VALUE");
        }
        if (!store_option(o, value))
            return cli_usage_error(spec, "invalid value '%s' for %s (expected %s)", value,
                                   o->name, kind_expectation(o->kind));
        remember_given(o->target);
    }
    if (count < min_positional)
        return cli_usage_error(spec, "missing argument%s", min_positional - count > 1 ? "s" : "");
    if (args) args->count = count;
    return CLI_CONTINUE;
}

/* ======================================================================================== */
/* errors                                                                                   */
/* ======================================================================================== */


const char *cli_last_failure(void) { return last_failure; }

void cli_set_command(const char *name) {
    snprintf(prefix, sizeof prefix, "magnus%s%s", name ? " " : "", name ? name : "");
}

const char *cli_prefix(void) { return prefix; }

int cli_fail_in(magnus_status status, const char *context) {
    /* Read the detail before anything else can replace it. */
    const char *detail = magnus_last_error();
    cli_progress_done(visible_progress);
    bool in = context && *context;
    if (detail && *detail)
        snprintf(last_failure, sizeof last_failure, "%s%s%s: %s", in ? context : "",
                 in ? ": " : "", magnus_status_string(status), detail);
    else
        snprintf(last_failure, sizeof last_failure, "%s%s%s", in ? context : "", in ? ": " : "",
                 magnus_status_string(status));
    fprintf(stderr, "%s: %s\n", prefix, last_failure);
    return CLI_EXIT_FAILURE;
}

int cli_fail(magnus_status status) { return cli_fail_in(status, NULL); }

int cli_failf(const char *fmt, ...) {
    cli_progress_done(visible_progress);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_failure, sizeof last_failure, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s\n", prefix, last_failure);
    return CLI_EXIT_FAILURE;
}

int cli_build_notice(void *user, double fraction, const char *what) {
    if (fraction < 0) {
        cli_warning("%s", what); /* the kernel cache cannot keep the build */
        return 1;
    }
    if (fraction == 0) cli_note("%s", what);
    if (user) *(bool *)user = true;
    return 1;
}

/* "magnus <command>: <kind>: <message>" on stderr, after the progress line is cleared. */
static void print_remark(const char *kind, const char *fmt, va_list ap) {
    cli_progress_done(visible_progress);
    fprintf(stderr, "%s: %s: ", prefix, kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cli_note(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    print_remark("note", fmt, ap);
    va_end(ap);
}

void cli_warning(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    print_remark("warning", fmt, ap);
    va_end(ap);
}

/* ======================================================================================== */
/* numbers                                                                                  */
/* ======================================================================================== */

cli_text cli_count(int64_t n) {
    cli_text t;
    char digits[24];
    /* Negate in unsigned arithmetic so INT64_MIN is fine too. */
    uint64_t magnitude = n < 0 ? 0 - (uint64_t)n : (uint64_t)n;
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)magnitude);
    char *p = t.s;
    if (n < 0) *p++ = '-';
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0) *p++ = ',';
        *p++ = digits[i];
    }
    *p = '\0';
    return t;
}

cli_text cli_si(double x) {
    static const char *const units[] = {"", " k", " M", " G", " T", " P", " E"};
    cli_text t;
    double a = fabs(x);
    int u = 0;
    while (a >= 999.95 && u < 6) {
        a /= 1000;
        x /= 1000;
        u++;
    }
    snprintf(t.s, sizeof t.s, "%.3g%s", x, units[u]);
    return t;
}

cli_text cli_duration(double seconds) {
    cli_text t;
    if (seconds >= 1 || seconds == 0)
        snprintf(t.s, sizeof t.s, "%.2f s", seconds);
    else if (seconds >= 1e-3)
        snprintf(t.s, sizeof t.s, "%.1f ms", seconds * 1e3);
    else
        snprintf(t.s, sizeof t.s, "%.0f us", seconds * 1e6);
    return t;
}

cli_text cli_bytes(uint64_t bytes) {
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    cli_text t;
    if (u == 0) snprintf(t.s, sizeof t.s, "%llu bytes", (unsigned long long)bytes);
    else snprintf(t.s, sizeof t.s, "%.2f %s", v, units[u]);
    return t;
}

double cli_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ======================================================================================== */
/* progress                                                                                 */
/* ======================================================================================== */

#define PROGRESS_MIN_INTERVAL 0.2 /* seconds between draws: at most ~5 per second */

void cli_progress_init(cli_progress *p, bool forced) {
    p->tty = isatty(STDERR_FILENO) == 1;
    p->enabled = forced || p->tty;
    p->drawn = false;
    p->last_draw = -1e9;
    p->label[0] = '\0';
}

int cli_progress_update(void *user, double fraction, const char *what) {
    cli_progress *p = user;
    if (!p || !p->enabled) return 1;
    if (!what || !*what) what = "working";
    double now = cli_now();
    bool same_step = strncmp(what, p->label, sizeof p->label - 1) == 0;
    if (same_step && now - p->last_draw < PROGRESS_MIN_INTERVAL) return 1;
    p->last_draw = now;
    snprintf(p->label, sizeof p->label, "%s", what);
    if (fraction > 1) fraction = 1;
    if (p->tty) {
        /* \033[K clears what a longer previous label left on the line. */
        if (fraction >= 0)
            fprintf(stderr, "\r%s %5.1f%%\033[K", what, 100 * fraction);
        else
            fprintf(stderr, "\r%s ...\033[K", what);
        p->drawn = true;
        visible_progress = p;
    } else {
        if (fraction >= 0)
            fprintf(stderr, "%s %5.1f%%\n", what, 100 * fraction);
        else
            fprintf(stderr, "%s ...\n", what);
    }
    fflush(stderr);
    return 1;
}

void cli_progress_done(cli_progress *p) {
    if (!p) return;
    if (p->tty && p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->drawn = false;
    if (visible_progress == p) visible_progress = NULL;
}

/* JSON output of `magnus` (cli_common.h, "JSON"): strings escaped as RFC 8259 asks, invalid
 * UTF-8 replaced, objects written member by member with indentation. */
#include "cli_common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence starting at s, or 0 if it is not valid (overlong forms,
 * surrogates and code points above U+10FFFF are invalid). */
static int utf8_sequence_length(const unsigned char *s) {
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    int len;
    unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (s[1] < lo || s[1] > hi) return 0;
    for (int i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return len;
}

void cli_json_write_string(FILE *out, const char *str) {
    if (!str) {
        fputs("null", out);
        return;
    }
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', out);
    while (*s) {
        unsigned char c = *s;
        switch (c) {
        case '"': fputs("\\\"", out); s++; continue;
        case '\\': fputs("\\\\", out); s++; continue;
        case '\b': fputs("\\b", out); s++; continue;
        case '\f': fputs("\\f", out); s++; continue;
        case '\n': fputs("\\n", out); s++; continue;
        case '\r': fputs("\\r", out); s++; continue;
        case '\t': fputs("\\t", out); s++; continue;
        default: break;
        }
        if (c < 0x20 || c == 0x7F) {
            fprintf(out, "\\u%04x", c);
            s++;
            continue;
        }
        int len = utf8_sequence_length(s);
        if (len == 0) {
            fputs("\\ufffd", out);
            s++;
            continue;
        }
        fwrite(s, 1, (size_t)len, out);
        s += len;
    }
    fputc('"', out);
}

static void json_indent(cli_json *j, int depth) {
    for (int i = 0; i < depth; i++) fputs("  ", j->out);
}

/* Starts a member "key": of the current object. */
static void json_member(cli_json *j, const char *key) {
    fputs(j->has_member[j->depth] ? ",\n" : "\n", j->out);
    j->has_member[j->depth] = true;
    json_indent(j, j->depth);
    cli_json_write_string(j->out, key);
    fputs(": ", j->out);
}

/* The top-level object is level 1, so members at level d are indented by d steps. */
void cli_json_begin(cli_json *j, FILE *out) {
    j->out = out;
    j->depth = 1;
    j->has_member[1] = false;
    fputc('{', out);
}

void cli_json_close(cli_json *j) {
    if (j->depth < 1) return; /* unbalanced close: a subcommand bug; never write past the top */
    if (j->has_member[j->depth]) {
        fputc('\n', j->out);
        json_indent(j, j->depth - 1);
    }
    fputc('}', j->out);
    j->depth--;
}

void cli_json_end(cli_json *j) {
    while (j->depth > 0) cli_json_close(j);
    fputc('\n', j->out);
    if (j->out == stdout) cli_stdout_flush();
    else fflush(j->out);
}

void cli_json_object(cli_json *j, const char *key) {
    json_member(j, key);
    fputc('{', j->out);
    /* Nesting deeper than the table would be a programming error in a subcommand; stay at
     * the last level rather than overrun (the output is then merely less indented). */
    if (j->depth + 1 < CLI_JSON_MAX_DEPTH) j->depth++;
    j->has_member[j->depth] = false;
}

void cli_json_string(cli_json *j, const char *key, const char *value) {
    json_member(j, key);
    cli_json_write_string(j->out, value);
}

void cli_json_int(cli_json *j, const char *key, int64_t value) {
    json_member(j, key);
    fprintf(j->out, "%lld", (long long)value);
}

void cli_json_real(cli_json *j, const char *key, double value) {
    json_member(j, key);
    if (isfinite(value))
        fprintf(j->out, "%.15g", value);
    else
        fputs("null", j->out);
}

void cli_json_bool(cli_json *j, const char *key, bool value) {
    json_member(j, key);
    fputs(value ? "true" : "false", j->out);
}

void cli_json_null(cli_json *j, const char *key) {
    json_member(j, key);
    fputs("null", j->out);
}

void cli_json_int_array(cli_json *j, const char *key, const int64_t *values, int n) {
    json_member(j, key);
    fputc('[', j->out);
    for (int i = 0; i < n; i++) fprintf(j->out, "%s%lld", i ? ", " : "", (long long)values[i]);
    fputc(']', j->out);
}

void cli_json_real_array(cli_json *j, const char *key, const double *values, int n) {
    json_member(j, key);
    fputc('[', j->out);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", j->out);
        if (isfinite(values[i]))
            fprintf(j->out, "%.15g", values[i]);
        else
            fputs("null", j->out);
    }
    fputc(']', j->out);
}

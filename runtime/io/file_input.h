/*
 * Reading a file in large blocks, plain or gzip-compressed (recognised by its first two
 * bytes, 1f 8b, not by its name). Used by the text matrix readers. "-" is standard input;
 * pipes and other inputs that cannot seek are read through zlib, which recognises gzip by
 * content and passes plain text through, so nothing is read twice.
 */
#ifndef MAGNUS_FILE_INPUT_H
#define MAGNUS_FILE_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#include "magnus/magnus.h"

typedef struct magnus_file_input {
    const char *path;
    FILE *file;     /* plain file, or NULL */
    gzFile gz;      /* gzip stream, or NULL */
    int64_t size;   /* bytes on disk (compressed size for gzip); 0 if unknown */
    int64_t plain_offset; /* bytes read so far from a plain file */
    bool streamed;  /* a pipe or other non-seekable input (read through gz, size unknown) */
} magnus_file_input;

/* Opens path. MAGNUS_ERROR_FILE_OPEN (detail "path: reason") if it cannot be opened. */
magnus_status magnus_file_input_open(magnus_file_input *in, const char *path);

/*
 * Reads up to `capacity` bytes into buf; *got = 0 means end of file. Errors, with a detail
 * message "path:line: ...", where `line` is the caller's current line:
 *   MAGNUS_ERROR_FILE_READ     I/O error, or a corrupt gzip stream;
 *   MAGNUS_ERROR_MM_TRUNCATED  the gzip stream ends before its end marker (truncated .gz).
 */
magnus_status magnus_file_input_read(magnus_file_input *in, char *buf, size_t capacity,
                                     size_t *got, int64_t line);

/* Fraction of the file consumed so far, in [0,1] (0 when the size is unknown). */
double magnus_file_input_fraction(const magnus_file_input *in);

/* Closes the file; safe on a zeroed or already closed input. */
void magnus_file_input_close(magnus_file_input *in);

#endif

/*
 * Matrix Market reader: banner, size line and entries of a `coordinate` file, parsed from
 * large blocks of the (possibly gzip-compressed) file; mm_build.c turns the entries into CSR.
 *
 * The file is read in blocks of MM_BLOCK bytes. Each round parses every complete line of the
 * buffer and moves the unfinished last line to the front before the next read, so a line
 * never needs bounds checks: every token scan stops at the '\n' that ends its line. A line
 * longer than the buffer grows it. At end of file an unterminated last line gets a '\n'
 * appended and is remembered, so an entry cut short there is reported as truncated.
 *
 * Lines end in '\n' (a CR before it is a blank); a file whose first line ends in a CR alone
 * (old Mac text) has every CR turned into '\n' as it is read, so the parser sees one kind
 * of line end. A UTF-8 byte-order mark before the banner is skipped. The header-only mode
 * (magnus_mm_header_read) stops after the size line.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "file_input.h"
#include "internal.h"
#include "mm_internal.h"
#include "text_locale.h"
#include "text_number.h"

#if defined(__GNUC__)
#define MAGNUS_NOINLINE __attribute__((noinline, cold))
#else
#define MAGNUS_NOINLINE
#endif

#define MM_BLOCK ((size_t)4 << 20)
/* First block of a gzip stream or a file of unknown size; grown towards MM_BLOCK. */
#define MM_FIRST_BLOCK ((size_t)64 << 10)
/* Longest line accepted: the buffer grows to hold one line, up to this. */
#define MM_LINE_MAX ((size_t)1 << 30)
/* Progress is reported every this many bytes read (decompressed). */
#define MM_PROGRESS_STEP ((int64_t)64 << 20)
/* First allocation of entries; trusted up to this, the size line's nnz is then approached by
 * doubling, so a lying size line cannot make us allocate terabytes up front. */
#define MM_INITIAL_CAPACITY ((int64_t)1 << 22)

typedef enum mm_phase { MM_PHASE_BANNER, MM_PHASE_SIZE, MM_PHASE_ENTRIES } mm_phase;

typedef struct mm_reader {
    const char *path;
    magnus_value_type type; /* MAGNUS_MM_TYPE_AUTO until the banner is read */
    bool header_only;       /* stop after the size line */
    magnus_progress_fn progress;
    void *progress_user;

    magnus_file_input in;
    char *buf;
    size_t cap; /* bytes in buf, one kept free for the '\n' appended at end of file */
    size_t len; /* bytes of data in buf */
    int64_t bytes_read, next_progress;
    bool line_ends_known; /* the first line end has been seen */
    bool cr_only;         /* lines end in a CR alone: CRs become '\n' as they are read */

    mm_phase phase;
    int64_t line;               /* number of the line being parsed (1-based) */
    int64_t unterminated_line;  /* number of the last line if it had no '\n', else 0 */
    magnus_mm_field field;
    magnus_mm_symmetry symmetry;
    int64_t rows, cols, declared;
    mm_triplets t;
    int64_t zeros, nonfinite, overflowed; /* magnus_mm_facts' counts */
} mm_reader;

/* "path:line: message" with the given status. */
static magnus_status MAGNUS_PRINTF(3, 4)
    reader_error(const mm_reader *r, magnus_status status, const char *fmt, ...) {
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return magnus_error(status, "%s:%lld: %s", r->path, (long long)r->line, message);
}

/* An entry field that is missing or malformed. At the end of an unterminated last line that
 * is a cut-off file, not a bad number. */
static magnus_status field_error(const mm_reader *r, bool reaches_line_end, const char *what) {
    if (reaches_line_end && r->line == r->unterminated_line)
        return reader_error(r, MAGNUS_ERROR_MM_TRUNCATED,
                            "file ends inside an entry line (%s); truncated file?", what);
    return reader_error(r, MAGNUS_ERROR_MM_NUMBER, "%s", what);
}

/* Copies the token at s (at most size-1 characters) for messages, with control bytes shown
 * as '?'. */
static void quote_token(char *dst, size_t size, const char *s) {
    size_t n = 0;
    for (; n + 1 < size && !text_is_token_end(s[n]); n++)
        dst[n] = (unsigned char)s[n] < 32 || (unsigned char)s[n] >= 127 ? '?' : s[n];
    dst[n] = '\0';
}

/* ---- banner and size line ---------------------------------------------------------------- */

/* Next blank-separated word of [*s, end) into word (lowercased, truncated to size-1). */
static bool next_word(const char **s, const char *end, char *word, size_t size) {
    const char *p = *s;
    while (p < end && text_is_blank(*p)) p++;
    if (p == end) return false;
    size_t n = 0;
    for (; p < end && !text_is_blank(*p); p++)
        if (n + 1 < size) word[n++] = (char)((*p >= 'A' && *p <= 'Z') ? *p - 'A' + 'a' : *p);
    word[n] = '\0';
    *s = p;
    return true;
}

static magnus_status parse_banner(mm_reader *r, const char *s, const char *end) {
    static const char magic[] = "%%MatrixMarket";
    size_t magic_len = sizeof magic - 1;
    if ((size_t)(end - s) < magic_len || strncasecmp(s, magic, magic_len) != 0 ||
        (s + magic_len < end && !text_is_blank(s[magic_len])))
        return reader_error(r, MAGNUS_ERROR_MM_BANNER,
                            "first line is not a '%%%%MatrixMarket matrix coordinate ...' banner");
    s += magic_len;
    char object[32], format[32], field[32], symmetry[32], extra[32];
    if (!next_word(&s, end, object, sizeof object) || !next_word(&s, end, format, sizeof format) ||
        !next_word(&s, end, field, sizeof field) || !next_word(&s, end, symmetry, sizeof symmetry))
        return reader_error(r, MAGNUS_ERROR_MM_BANNER,
                            "banner needs 4 words: matrix coordinate <field> <symmetry>");
    if (next_word(&s, end, extra, sizeof extra))
        return reader_error(r, MAGNUS_ERROR_MM_BANNER, "unexpected '%s' after the banner's symmetry",
                            extra);
    if (strcmp(object, "matrix") != 0)
        return reader_error(r, strcmp(object, "vector") == 0 ? MAGNUS_ERROR_MM_UNSUPPORTED
                                                             : MAGNUS_ERROR_MM_BANNER,
                            "object '%s' is not supported (only 'matrix')", object);
    if (strcmp(format, "array") == 0)
        return reader_error(r, MAGNUS_ERROR_MM_UNSUPPORTED,
                            "dense 'array' format is not supported (only 'coordinate')");
    if (strcmp(format, "coordinate") != 0)
        return reader_error(r, MAGNUS_ERROR_MM_BANNER, "unknown format '%s'", format);
    if (strcmp(field, "real") == 0 || strcmp(field, "double") == 0) r->field = MAGNUS_MM_REAL;
    else if (strcmp(field, "integer") == 0) r->field = MAGNUS_MM_INTEGER;
    else if (strcmp(field, "pattern") == 0) r->field = MAGNUS_MM_PATTERN;
    else if (strcmp(field, "complex") == 0)
        return reader_error(r, MAGNUS_ERROR_MM_UNSUPPORTED,
                            "'complex' values are not supported (real, integer or pattern)");
    else return reader_error(r, MAGNUS_ERROR_MM_BANNER, "unknown field '%s'", field);
    if (strcmp(symmetry, "general") == 0) r->symmetry = MAGNUS_MM_GENERAL;
    else if (strcmp(symmetry, "symmetric") == 0) r->symmetry = MAGNUS_MM_SYMMETRIC;
    else if (strcmp(symmetry, "skew-symmetric") == 0) r->symmetry = MAGNUS_MM_SKEW_SYMMETRIC;
    else if (strcmp(symmetry, "hermitian") == 0)
        return reader_error(r, MAGNUS_ERROR_MM_UNSUPPORTED, "'hermitian' symmetry is not supported");
    else return reader_error(r, MAGNUS_ERROR_MM_BANNER, "unknown symmetry '%s'", symmetry);
    if (r->field == MAGNUS_MM_PATTERN && r->symmetry == MAGNUS_MM_SKEW_SYMMETRIC)
        return reader_error(r, MAGNUS_ERROR_MM_BANNER,
                            "'pattern skew-symmetric' is not a valid combination");
    return MAGNUS_SUCCESS;
}

/* One non-negative integer of the size line, at most `max`. */
static bool size_field(const char **sp, int64_t max, int64_t *value) {
    const char *s = text_skip_blanks(*sp);
    uint64_t v;
    const char *e = text_parse_unsigned(s, &v);
    if (e == s || !text_is_token_end(*e) || v > (uint64_t)max) return false;
    *value = (int64_t)v;
    *sp = e;
    return true;
}

/* Most bytes of text the file can hold: its size, or for gzip its compressed size times
 * deflate's largest ratio (1032:1; 1100 leaves a margin). INT64_MAX when unknown. */
static int64_t text_size_bound(const magnus_file_input *in) {
    const int64_t deflate_ratio = 1100;
    if (in->size <= 0) return INT64_MAX - 1;
    if (in->file) return in->size;
    return in->size < (INT64_MAX - 1) / deflate_ratio ? in->size * deflate_ratio : INT64_MAX - 1;
}

static magnus_status parse_size_line(mm_reader *r, const char *s) {
    if (!size_field(&s, INT32_MAX, &r->rows) || !size_field(&s, INT32_MAX, &r->cols) ||
        !size_field(&s, INT64_MAX / 2, &r->declared) || *text_skip_blanks(s) != '\n') {
        char first[48];
        quote_token(first, sizeof first, text_skip_blanks(s));
        return reader_error(r, MAGNUS_ERROR_MM_SIZE_LINE,
                            "size line must be 'rows cols entries' (rows, cols 0..2^31-1, "
                            "entries 0..2^62-1)%s%s",
                            *first ? "; bad field at " : "", first);
    }
    if (r->symmetry != MAGNUS_MM_GENERAL && r->rows != r->cols)
        return reader_error(r, MAGNUS_ERROR_MM_SIZE_LINE,
                            "a symmetric or skew-symmetric matrix must be square, not %lld x %lld",
                            (long long)r->rows, (long long)r->cols);
    if (r->header_only) return MAGNUS_SUCCESS;
    /* Each entry lies in a distinct (row, col) only if the file has no duplicates, so the
     * declared count is not bounded by rows*cols; it sizes the first allocation only. */
    int64_t first = r->declared < MM_INITIAL_CAPACITY ? r->declared : MM_INITIAL_CAPACITY;
    /* An entry line takes at least 4 bytes ("1 1\n"), so the text's size bounds the count
     * too: a 30-byte file declaring 2^40 entries allocates for 8, not 4M. */
    int64_t most = text_size_bound(&r->in) / 4 + 1;
    if (most < first) first = most;
    r->t.capacity = first > 0 ? first : 1;
    r->t.row = magnus_host_malloc((size_t)r->t.capacity * sizeof *r->t.row);
    r->t.col = magnus_host_malloc((size_t)r->t.capacity * sizeof *r->t.col);
    if (r->field != MAGNUS_MM_PATTERN)
        r->t.val = magnus_host_malloc((size_t)r->t.capacity * sizeof *r->t.val);
    if (!r->t.row || !r->t.col || (r->field != MAGNUS_MM_PATTERN && !r->t.val))
        return reader_error(r, MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "cannot allocate %lld entries",
                            (long long)r->t.capacity);
    return MAGNUS_SUCCESS;
}

/* One header line [s, eol] (eol points at its '\n'): banner, then comments, then size line. */
static magnus_status parse_header_line(mm_reader *r, const char *s, const char *eol) {
    if (r->phase == MM_PHASE_BANNER) {
        r->phase = MM_PHASE_SIZE;
        /* a UTF-8 byte-order mark, which some editors put before the banner */
        if (eol - s >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) s += 3;
        magnus_status st = parse_banner(r, s, eol);
        if (!st && r->type == MAGNUS_MM_TYPE_AUTO) r->type = magnus_mm_field_type(r->field);
        return st;
    }
    const char *first = text_skip_blanks(s);
    if (*first == '%' || *first == '\n') return MAGNUS_SUCCESS; /* comment or blank line */
    magnus_status st = parse_size_line(r, s);
    if (st == MAGNUS_SUCCESS) r->phase = MM_PHASE_ENTRIES;
    return st;
}

/* ---- entries ----------------------------------------------------------------------------- */

static magnus_status grow_triplets(mm_reader *r) {
    int64_t cap = r->t.capacity * 2;
    if (cap > r->declared) cap = r->declared;
    int32_t *row = magnus_host_realloc(r->t.row, (size_t)cap * sizeof *row);
    if (row) r->t.row = row;
    int32_t *col = row ? magnus_host_realloc(r->t.col, (size_t)cap * sizeof *col) : NULL;
    if (col) r->t.col = col;
    double *val = NULL;
    if (col && r->t.val) {
        val = magnus_host_realloc(r->t.val, (size_t)cap * sizeof *val);
        if (val) r->t.val = val;
    }
    if (!row || !col || (r->t.val && !val))
        return reader_error(r, MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "cannot allocate %lld entries",
                            (long long)cap);
    r->t.capacity = cap;
    return MAGNUS_SUCCESS;
}

/* Why the index at s was refused (cold path of parse_index). */
static magnus_status MAGNUS_NOINLINE index_error(const mm_reader *r, const char *s, int64_t limit,
                                                 const char *name) {
    char token[40], what[96];
    if (*s == '\n') {
        snprintf(what, sizeof what, "missing %s index", name);
        return field_error(r, true, what);
    }
    quote_token(token, sizeof token, s);
    bool negative = *s == '-';
    uint64_t v;
    const char *e = text_parse_unsigned(s + negative, &v);
    if (e == s + negative || !text_is_token_end(*e)) {
        snprintf(what, sizeof what, "%s index '%s' is not a positive integer", name, token);
        return field_error(r, *text_skip_blanks(text_token_end(s)) == '\n', what);
    }
    return reader_error(r, MAGNUS_ERROR_MM_INDEX_RANGE, "%s index %s outside 1..%lld", name, token,
                        (long long)limit);
}

/* A row or column index in 1..limit at *sp (not blank), stored 0-based. */
static inline bool parse_index(const char **sp, int64_t limit, int32_t *index) {
    uint64_t v;
    const char *e = text_parse_unsigned(*sp, &v);
    /* v - 1 wraps for v == 0, so one comparison checks both ends of the range */
    if (e == *sp || !text_is_token_end(*e) || v - 1 >= (uint64_t)limit) return false;
    *index = (int32_t)(v - 1);
    *sp = e;
    return true;
}

/* Why the value at s was refused (cold path of parse_value). */
static magnus_status MAGNUS_NOINLINE value_error(const mm_reader *r, const char *s,
                                                 text_number_result res) {
    if (*s == '\n') return field_error(r, true, "missing value");
    if (res == TEXT_NUMBER_NO_MEMORY)
        return reader_error(r, MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "cannot copy a long value");
    char token[40], what[96];
    quote_token(token, sizeof token, s);
    snprintf(what, sizeof what, "value '%s' is not %s number", token,
             r->field == MAGNUS_MM_INTEGER ? "an integer" : "a real");
    return field_error(r, *text_skip_blanks(text_token_end(s)) == '\n', what);
}

static inline text_number_result parse_value(const mm_reader *r, const char **sp, double *value) {
    if (**sp == '\n') return TEXT_NUMBER_MALFORMED;
    bool want_float = r->type == MAGNUS_FLOAT32;
    return r->field == MAGNUS_MM_INTEGER ? text_parse_integer_value(sp, want_float, value)
                                        : text_parse_real(sp, want_float, value);
}

/* A NaN or infinite value whose text starts at token: "nan" / "inf" as written, or a number
 * out of range (its text starts with a digit or '.' after the sign). */
static void MAGNUS_NOINLINE count_nonfinite(mm_reader *r, const char *token) {
    r->nonfinite++;
    if (*token == '+' || *token == '-') token++;
    if (text_is_digit(*token) || *token == '.') r->overflowed++;
}

/*
 * Parses entry lines from s up to end (end is just past a '\n'). The hot loop of the reader:
 * one pass over the characters, no copies.
 */
static magnus_status parse_entries(mm_reader *r, const char *s, const char *end) {
    magnus_status st;
    const bool has_value = r->field != MAGNUS_MM_PATTERN;
    const bool skew = r->symmetry == MAGNUS_MM_SKEW_SYMMETRIC;
    while (s < end) {
        r->line++;
        s = text_skip_blanks(s);
        if (*s == '\n') { /* blank line */
            s++;
            continue;
        }
        if (*s == '%') { /* comment between entries */
            s = (const char *)memchr(s, '\n', (size_t)(end - s)) + 1;
            continue;
        }
        if (r->t.count == r->declared)
            return reader_error(r, MAGNUS_ERROR_MM_ENTRY_COUNT,
                                "more entries than the %lld the size line declares",
                                (long long)r->declared);
        if (r->t.count == r->t.capacity && (st = grow_triplets(r))) return st;
        int32_t row, col;
        if (!parse_index(&s, r->rows, &row)) return index_error(r, s, r->rows, "row");
        s = text_skip_blanks(s);
        if (!parse_index(&s, r->cols, &col)) return index_error(r, s, r->cols, "column");
        s = text_skip_blanks(s);
        if (has_value) {
            double value;
            const char *token = s;
            text_number_result res = parse_value(r, &s, &value);
            if (res != TEXT_NUMBER_OK) return value_error(r, s, res);
            r->t.val[r->t.count] = value;
            if (value == 0) r->zeros++;
            else if (!isfinite(value)) count_nonfinite(r, token);
            s = text_skip_blanks(s);
        }
        if (*s != '\n') {
            char token[40];
            quote_token(token, sizeof token, s);
            return reader_error(r, MAGNUS_ERROR_MM_NUMBER, "unexpected '%s' after the entry%s",
                                token, has_value ? "" : " (pattern entries have no value)");
        }
        s++;
        if (skew && row == col)
            return reader_error(r, MAGNUS_ERROR_MM_INDEX_RANGE,
                                "diagonal entry (%d,%d) in a skew-symmetric file (its diagonal is "
                                "zero and not stored)",
                                row + 1, col + 1);
        r->t.row[r->t.count] = row;
        r->t.col[r->t.count] = col;
        r->t.count++;
    }
    return MAGNUS_SUCCESS;
}

/* Parses the complete lines in [s, end) (end is just past a '\n'). */
static magnus_status parse_lines(mm_reader *r, const char *s, const char *end) {
    while (s < end && r->phase != MM_PHASE_ENTRIES) {
        const char *eol = memchr(s, '\n', (size_t)(end - s));
        r->line++;
        magnus_status st = parse_header_line(r, s, eol);
        if (st) return st;
        s = eol + 1;
    }
    if (r->header_only) return MAGNUS_SUCCESS;
    return s < end ? parse_entries(r, s, end) : MAGNUS_SUCCESS;
}

/* ---- the reading loop -------------------------------------------------------------------- */

static magnus_status report_progress(mm_reader *r, double fraction) {
    if (r->progress && !r->progress(r->progress_user, fraction, "reading"))
        return reader_error(r, MAGNUS_ERROR_CANCELLED, "cancelled by the progress callback");
    return MAGNUS_SUCCESS;
}

/* Decides from the first line end whether the file uses CR-only line ends; buf[0, len) is
 * what was read so far (nothing of it parsed yet), eof whether that is all. */
static void check_line_ends(mm_reader *r, bool eof) {
    const char *lf = memchr(r->buf, '\n', r->len), *cr = memchr(r->buf, '\r', r->len);
    if (!cr || (lf && lf < cr)) {
        r->line_ends_known = lf != NULL || eof;
        return;
    }
    size_t at = (size_t)(cr - r->buf);
    if (at + 1 == r->len && !eof) return; /* the byte after the CR is not read yet */
    r->line_ends_known = true;
    r->cr_only = at + 1 == r->len || r->buf[at + 1] != '\n';
}

/* CR -> '\n' in [s, s + n) (CR-only files). */
static void cr_to_lf(char *s, size_t n) {
    for (char *end = s + n; (s = memchr(s, '\r', (size_t)(end - s))) != NULL; s++) *s = '\n';
}

/* Reads and parses the whole file (in header-only mode, up to the size line). */
static magnus_status read_all(mm_reader *r) {
    magnus_status st;
    bool eof = false, read_filled = false;
    while (!eof) {
        bool line_fills = r->len + 1 == r->cap; /* one line fills the buffer */
        /* A stream of unknown length starts with a small buffer (a 100-byte .gz needs no 4 MB)
         * and grows it while reads keep filling it, up to MM_BLOCK. */
        bool ramp_up = read_filled && r->cap - 1 < MM_BLOCK;
        if (line_fills || ramp_up) {
            size_t cap = r->cap * 2;
            if (!line_fills && cap > MM_BLOCK + 1) cap = MM_BLOCK + 1;
            if (cap - 1 > MM_LINE_MAX) {
                r->line++;
                return reader_error(r,
                                    r->phase == MM_PHASE_BANNER ? MAGNUS_ERROR_MM_BANNER
                                    : r->phase == MM_PHASE_SIZE ? MAGNUS_ERROR_MM_SIZE_LINE
                                                                : MAGNUS_ERROR_MM_NUMBER,
                                    "line of more than %zu bytes (not a text matrix?)", r->len);
            }
            char *buf = magnus_host_realloc(r->buf, cap);
            if (!buf)
                return reader_error(r, MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                                    "cannot grow the line buffer to %zu bytes", cap);
            r->buf = buf;
            r->cap = cap;
        }
        size_t got, want = r->cap - 1 - r->len;
        /* A read error is reported at the line after the last complete one. */
        st = magnus_file_input_read(&r->in, r->buf + r->len, want, &got, r->line + 1);
        if (st) return st;
        eof = got == 0;
        read_filled = got == want;
        if (r->cr_only) cr_to_lf(r->buf + r->len, got);
        r->len += got;
        if (!r->line_ends_known) {
            check_line_ends(r, eof);
            if (r->cr_only) cr_to_lf(r->buf, r->len);
        }
        r->bytes_read += (int64_t)got;
        if (r->bytes_read >= r->next_progress) {
            r->next_progress = r->bytes_read + MM_PROGRESS_STEP;
            if ((st = report_progress(r, magnus_file_input_fraction(&r->in)))) return st;
        }
        size_t complete;
        if (eof && r->len > 0) {
            /* Only the unfinished last line is left (every complete one was parsed): end it
             * with the reserved byte. */
            r->buf[r->len++] = '\n';
            r->unterminated_line = r->line + 1;
            complete = r->len;
        } else {
            const char *last = r->len ? memrchr(r->buf, '\n', r->len) : NULL;
            complete = last ? (size_t)(last - r->buf) + 1 : 0;
        }
        if (complete == 0) continue;
        if ((st = parse_lines(r, r->buf, r->buf + complete))) return st;
        if (r->header_only && r->phase == MM_PHASE_ENTRIES) return MAGNUS_SUCCESS;
        memmove(r->buf, r->buf + complete, r->len - complete);
        r->len -= complete;
    }
    return MAGNUS_SUCCESS;
}

/* After the last line: the header must be complete and the entries all there. */
static magnus_status check_complete(mm_reader *r) {
    if (r->phase == MM_PHASE_BANNER) {
        r->line = 1;
        return reader_error(r, MAGNUS_ERROR_MM_BANNER, "empty file (no '%%%%MatrixMarket' banner)");
    }
    if (r->phase == MM_PHASE_SIZE)
        return reader_error(r, MAGNUS_ERROR_MM_SIZE_LINE, "file ends before the size line");
    if (r->header_only) return MAGNUS_SUCCESS;
    if (r->t.count < r->declared)
        return reader_error(r, MAGNUS_ERROR_MM_ENTRY_COUNT,
                            "file ends after %lld of the %lld entries the size line declares",
                            (long long)r->t.count, (long long)r->declared);
    return MAGNUS_SUCCESS;
}

/* Opens path and runs the reader over it; r's options are set by the caller. */
static magnus_status run_reader(mm_reader *r, const char *path) {
    r->path = path;
    r->next_progress = MM_PROGRESS_STEP;
    magnus_status st = magnus_file_input_open(&r->in, path);
    if (st) return st;
    magnus_text_locale locale = magnus_text_locale_enter();
    /* A plain file of known size gets a full block, or if smaller its size + 2 (the '\n'
     * appended at the end, and the one free byte that tells end of file from a full buffer);
     * anything else, and a header-only read, starts at MM_FIRST_BLOCK and grows (read_all). */
    r->cap = MM_FIRST_BLOCK + 1;
    if (r->in.file && r->in.size > 0 && !r->header_only)
        r->cap = (uint64_t)r->in.size + 2 < MM_BLOCK + 1 ? (size_t)r->in.size + 2 : MM_BLOCK + 1;
    r->buf = magnus_host_malloc(r->cap);
    if (!r->buf)
        st = magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "%s: cannot allocate the read buffer",
                          path);
    if (!st) st = report_progress(r, 0.0);
    if (!st) st = read_all(r);
    if (!st) st = check_complete(r);
    magnus_text_locale_leave(locale);
    magnus_file_input_close(&r->in);
    magnus_host_free(r->buf);
    r->buf = NULL;
    return st;
}

static magnus_mm_header header_of(const mm_reader *r) {
    magnus_mm_header h = {.field = r->field, .symmetry = r->symmetry, .rows = r->rows,
                          .cols = r->cols, .stored = r->declared};
    return h;
}

magnus_status magnus_mm_read_facts(magnus_csr *out, magnus_mm_facts *facts, const char *path,
                                   magnus_value_type type, magnus_progress_fn progress,
                                   void *progress_user) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_mm_read: output is NULL");
    *out = NULL;
    if (facts) memset(facts, 0, sizeof *facts);
    if (!path) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_mm_read: path is NULL");
    if (type != MAGNUS_MM_TYPE_AUTO && magnus_value_size(type) == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "magnus_mm_read: value type %d",
                            (int)type);

    mm_reader r;
    memset(&r, 0, sizeof r);
    r.type = type;
    r.progress = progress;
    r.progress_user = progress_user;
    magnus_status st = run_reader(&r, path);
    if (!st) st = report_progress(&r, 1.0);
    /* the triangles, counted before the build frees the entries */
    int64_t below = 0, above = 0;
    for (int64_t k = 0; !st && facts && k < r.t.count; k++) {
        below += r.t.row[k] > r.t.col[k];
        above += r.t.row[k] < r.t.col[k];
    }
    if (!st) st = magnus_mm_build_csr(out, &r.t, r.rows, r.cols, r.symmetry, r.type, path);
    magnus_mm_triplets_free(&r.t);
    if (!st && facts) {
        facts->header = header_of(&r);
        facts->type = r.type;
        facts->explicit_zeros = r.zeros;
        facts->nonfinite = r.nonfinite;
        facts->overflowed = r.overflowed;
        facts->stored_below = below;
        facts->stored_above = above;
    }
    return st;
}

magnus_status magnus_mm_read(magnus_csr *out, const char *path, magnus_value_type type,
                             magnus_progress_fn progress, void *progress_user) {
    if (type == MAGNUS_MM_TYPE_AUTO) {
        magnus_error_clear();
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "magnus_mm_read: value type %d",
                            (int)type);
    }
    return magnus_mm_read_facts(out, NULL, path, type, progress, progress_user);
}

magnus_status magnus_mm_header_read(magnus_mm_header *out, const char *path) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_mm_header_read: output is NULL");
    memset(out, 0, sizeof *out);
    if (!path) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_mm_header_read: path is NULL");
    mm_reader r;
    memset(&r, 0, sizeof r);
    r.type = MAGNUS_FLOAT64; /* no value is parsed */
    r.header_only = true;
    magnus_status st = run_reader(&r, path);
    if (!st) *out = header_of(&r);
    return st;
}

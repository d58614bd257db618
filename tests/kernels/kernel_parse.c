/* Kernel signatures from the kernel sources (see kernel_parse.h). */
#include "kernel_parse.h"

#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KP_MAX_TEMPLATES 32
#define KP_MAX_TEMPLATE_PARAMS 16
#define KP_MAX_PIECES 40

/* ---- text helpers ---------------------------------------------------------------------- */

static int is_id(int c) { return isalnum((unsigned char)c) || c == '_'; }

static const char *skip_ws(const char *p) {
    while (*p && isspace((unsigned char)*p)) p++;
    return p;
}

/* The next occurrence of identifier `word` at or after p (whole identifiers only), or NULL. */
static const char *find_word(const char *start, const char *p, const char *word) {
    size_t n = strlen(word);
    for (const char *q = strstr(p, word); q; q = strstr(q + 1, word))
        if ((q == start || !is_id(q[-1])) && !is_id(q[n])) return q;
    return NULL;
}

/* The ')' matching the '(' at open, or NULL. */
static const char *match_paren(const char *open) {
    int depth = 0;
    for (const char *p = open; *p; p++) {
        if (*p == '(') depth++;
        if (*p == ')' && --depth == 0) return p;
    }
    return NULL;
}

/* Copies the identifier at p into out (cap bytes); returns its length (0: none, or too long). */
static size_t read_id(const char *p, char *out, size_t cap) {
    size_t n = 0;
    while (is_id(p[n])) n++;
    if (n == 0 || n >= cap || isdigit((unsigned char)p[0])) return 0;
    memcpy(out, p, n);
    out[n] = 0;
    return n;
}

/* [s, s+len) without the white space around it, into out (cap bytes). */
static void copy_trimmed(char *out, size_t cap, const char *s, size_t len) {
    while (len && isspace((unsigned char)*s)) s++, len--;
    while (len && isspace((unsigned char)s[len - 1])) len--;
    if (len >= cap) len = cap - 1;
    memcpy(out, s, len);
    out[len] = 0;
}

typedef struct piece {
    const char *s;
    size_t len;
} piece;

/* Splits [s, s+len) at its top-level commas; returns the number of pieces (-1: too many). */
static int split_commas(const char *s, size_t len, piece *out, int max) {
    int n = 0, depth = 0;
    size_t from = 0;
    for (size_t i = 0; i <= len; i++) {
        char c = i < len ? s[i] : ',';
        if (c == '(') depth++;
        if (c == ')') depth--;
        if (c == ',' && depth == 0) {
            if (n == max) return -1;
            out[n++] = (piece){s + from, i - from};
            from = i + 1;
        }
    }
    return n;
}

/* A growing string. */
typedef struct strbuf {
    char *s;
    size_t len, cap;
} strbuf;

static void sb_add(strbuf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *grown = realloc(b->s, cap);
        if (!grown) abort();
        b->s = grown;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static int fail(kp_list *list, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(list->error, sizeof list->error, fmt, ap);
    va_end(ap);
    return -1;
}

/* Translation phases 2 and 3 as far as the kernels need them: line splices joined, comments
 * replaced by one space (so a commented #define continues as C says), strings kept. */
static char *clean_text(const char *in) {
    strbuf spliced = {0}, out = {0};
    sb_add(&spliced, "", 0);
    sb_add(&out, "", 0);
    for (const char *p = in; *p; p++) {
        if (p[0] == '\\' && p[1] == '\n') {
            p++;
            continue;
        }
        sb_add(&spliced, p, 1);
    }
    for (const char *p = spliced.s; *p; p++) {
        if (p[0] == '/' && p[1] == '*') {
            const char *end = strstr(p + 2, "*/");
            p = end ? end + 1 : p + strlen(p) - 1;
            sb_add(&out, " ", 1);
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            while (p[1] && p[1] != '\n') p++;
            continue;
        }
        if (*p == '"' || *p == '\'') {
            const char *q = p + 1;
            while (*q && *q != *p && *q != '\n') q += q[0] == '\\' && q[1] ? 2 : 1;
            size_t n = (size_t)(q - p) + (*q == *p);
            sb_add(&out, p, n);
            p += n - 1;
            continue;
        }
        sb_add(&out, p, 1);
    }
    free(spliced.s);
    return out.s;
}

/* ---- parameters ------------------------------------------------------------------------ */

static const char *type_kind(const char *type) {
    static const char *const map[][2] = {{"mg_i32", "I32"}, {"mg_u32", "U32"}, {"mg_i64", "I64"},
                                         {"mg_u64", "U64"}, {"float", "F32"},  {"double", "F64"},
                                         {"mg_val", "VAL"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(type, map[i][0]) == 0) return map[i][1];
    return NULL;
}

/* One parameter's kind and name, from its declaration text. */
static void parse_param(kp_param *out, const char *s, size_t len) {
    char ids[8][KP_NAME];
    int nids = 0, stars = 0, odd = 0;
    for (size_t i = 0; i < len;) {
        if (is_id(s[i])) {
            size_t n = 0;
            while (i + n < len && is_id(s[i + n])) n++;
            if (nids < 8 && n < KP_NAME) {
                memcpy(ids[nids], s + i, n);
                ids[nids++][n] = 0;
            } else {
                odd = 1;
            }
            i += n;
        } else {
            if (s[i] == '*') stars++;
            else if (!isspace((unsigned char)s[i])) odd = 1;
            i++;
        }
    }
    out->name[0] = 0;
    if (nids > 0) snprintf(out->name, sizeof out->name, "%s", ids[nids - 1]);
    /* the type: what is left of the identifiers once qualifiers and the address space go */
    char type[KP_NAME * 2] = "";
    int global = 0, ntype = 0;
    for (int i = 0; i < nids - 1; i++) {
        if (!strcmp(ids[i], "const") || !strcmp(ids[i], "volatile") || !strcmp(ids[i], "restrict"))
            continue;
        if (!strcmp(ids[i], "MG_GLOBAL")) {
            global = 1;
            continue;
        }
        if (ntype++) strncat(type, " ", sizeof type - strlen(type) - 1);
        strncat(type, ids[i], sizeof type - strlen(type) - 1);
    }
    const char *kind = ntype == 1 && !odd && stars <= 1 ? type_kind(type) : NULL;
    if (kind && stars == 1 && global)
        snprintf(out->kind, sizeof out->kind, "BUF_%s", kind);
    else if (kind && stars == 0 && !global)
        snprintf(out->kind, sizeof out->kind, "%s", kind);
    else
        snprintf(out->kind, sizeof out->kind, "?%.*s", (int)(len < 28 ? len : 28), s);
}

static int add_kernel(kp_list *list, const char *file, const char *name, const char *params,
                      size_t len) {
    if (list->count == KP_MAX_KERNELS) return fail(list, "more than %d kernels", KP_MAX_KERNELS);
    kp_kernel *k = &list->k[list->count++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    snprintf(k->file, sizeof k->file, "%s", file);
    piece pieces[KP_MAX_PIECES];
    int n = split_commas(params, len, pieces, KP_MAX_PIECES);
    if (n < 0 || n > KP_MAX_PARAMS + 1)
        return fail(list, "%s: kernel %s has too many parameters", file, name);
    char last[KP_NAME];
    copy_trimmed(last, sizeof last, pieces[n - 1].s, pieces[n - 1].len);
    k->dyn_local_last = strcmp(last, "MG_DYN_LOCAL_PARAM") == 0;
    k->nparams = k->dyn_local_last ? n - 1 : n;
    for (int i = 0; i < k->nparams; i++) parse_param(&k->params[i], pieces[i].s, pieces[i].len);
    return 0;
}

/* Every `MG_KERNEL void name(...)` of text. */
static int scan_kernels(kp_list *list, const char *file, const char *text) {
    for (const char *p = text; (p = find_word(text, p, "MG_KERNEL")); p++) {
        const char *q = skip_ws(p + strlen("MG_KERNEL"));
        char name[KP_NAME];
        if (!(strncmp(q, "void", 4) == 0 && !is_id(q[4])))
            return fail(list, "%s: MG_KERNEL not followed by void", file);
        q = skip_ws(q + 4);
        size_t n = read_id(q, name, sizeof name);
        if (n > 0 && strcmp(name, "MG_LAUNCH_BOUNDS") == 0) { /* a residency hint first */
            const char *open = skip_ws(q + n);
            const char *shut = *open == '(' ? match_paren(open) : NULL;
            if (!shut) return fail(list, "%s: MG_LAUNCH_BOUNDS without arguments", file);
            q = skip_ws(shut + 1);
            n = read_id(q, name, sizeof name);
        }
        if (n == 0) return fail(list, "%s: MG_KERNEL void without a name", file);
        q = skip_ws(q + n);
        const char *close = *q == '(' ? match_paren(q) : NULL;
        if (!close) return fail(list, "%s: kernel %s: no parameter list", file, name);
        if (add_kernel(list, file, name, q + 1, (size_t)(close - q - 1))) return -1;
        p = close;
    }
    return 0;
}

/* ---- templates ------------------------------------------------------------------------- */

typedef struct template {
    char name[KP_NAME];
    int nparams;
    char params[KP_MAX_TEMPLATE_PARAMS][KP_NAME];
    const char *body; /* inside the cleaned text, up to the end of its line */
    size_t body_len;
} template;

/* The body with the arguments in place of the parameters and `##` pasted. */
static char *expand(const template *t, const piece *args) {
    strbuf sub = {0}, out = {0};
    sb_add(&sub, "", 0);
    sb_add(&out, "", 0);
    for (size_t i = 0; i < t->body_len;) {
        if (is_id(t->body[i]) && (i == 0 || !is_id(t->body[i - 1]))) {
            size_t n = 0;
            while (i + n < t->body_len && is_id(t->body[i + n])) n++;
            int a = -1;
            for (int k = 0; k < t->nparams; k++)
                if (strlen(t->params[k]) == n && !strncmp(t->params[k], t->body + i, n)) a = k;
            if (a >= 0) {
                char arg[KP_NAME * 2];
                copy_trimmed(arg, sizeof arg, args[a].s, args[a].len);
                sb_add(&sub, arg, strlen(arg));
            } else {
                sb_add(&sub, t->body + i, n);
            }
            i += n;
        } else {
            sb_add(&sub, t->body + i, 1);
            i++;
        }
    }
    for (const char *p = sub.s; *p; p++) {
        if (p[0] == '#' && p[1] == '#') {
            while (out.len && isspace((unsigned char)out.s[out.len - 1])) out.s[--out.len] = 0;
            p = skip_ws(p + 2) - 1;
            continue;
        }
        sb_add(&out, p, 1);
    }
    free(sub.s);
    return out.s;
}

/* `#define NAME(params) body` with MG_KERNEL in its body, at line (a directive). */
static int read_template(kp_list *list, const char *file, const char *line, size_t len,
                         template *t) {
    const char *p = skip_ws(line + 1), *end = line + len;
    if (strncmp(p, "define", 6) != 0 || is_id(p[6])) return 0;
    p = skip_ws(p + 6);
    size_t n = read_id(p, t->name, sizeof t->name);
    if (n == 0 || p[n] != '(') return 0; /* object-like macros stamp out no kernels here */
    const char *close = match_paren(p + n);
    if (!close || close > end) return 0;
    const char *body = close + 1;
    const char *kernel = find_word(line, body, "MG_KERNEL");
    if (!kernel || kernel >= end) return 0;
    piece ps[KP_MAX_TEMPLATE_PARAMS];
    int np = split_commas(p + n + 1, (size_t)(close - p - n - 1), ps, KP_MAX_TEMPLATE_PARAMS);
    if (np < 0) return fail(list, "%s: template %s has too many parameters", file, t->name);
    t->nparams = np;
    for (int i = 0; i < np; i++) copy_trimmed(t->params[i], KP_NAME, ps[i].s, ps[i].len);
    t->body = body;
    t->body_len = (size_t)(end - body);
    return 1;
}

/* Every invocation of t in code: its expansion's kernels. */
static int instantiate(kp_list *list, const char *file, const template *t, const char *code) {
    int uses = 0;
    for (const char *p = code; (p = find_word(code, p, t->name)); p++) {
        const char *open = skip_ws(p + strlen(t->name));
        const char *close = *open == '(' ? match_paren(open) : NULL;
        if (!close) continue;
        piece args[KP_MAX_TEMPLATE_PARAMS];
        int na = split_commas(open + 1, (size_t)(close - open - 1), args, KP_MAX_TEMPLATE_PARAMS);
        if (na != t->nparams)
            return fail(list, "%s: %s invoked with %d arguments, defined with %d", file, t->name,
                        na, t->nparams);
        char *text = expand(t, args);
        int s = scan_kernels(list, file, text);
        free(text);
        if (s) return s;
        uses++;
        p = close;
    }
    if (uses == 0)
        return fail(list, "%s: template %s defines kernels but is never invoked", file, t->name);
    return 0;
}

int kp_parse_source(kp_list *list, const char *file, const char *text) {
    char *clean = clean_text(text);
    strbuf code = {0};
    sb_add(&code, "", 0);
    template t[KP_MAX_TEMPLATES];
    int nt = 0, s = 0;
    for (const char *line = clean; *line && !s;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        const char *first = line;
        while (first < line + len && isspace((unsigned char)*first)) first++;
        if (first < line + len && *first == '#') {
            if (nt == KP_MAX_TEMPLATES) {
                s = fail(list, "%s: more than %d templates", file, KP_MAX_TEMPLATES);
                break;
            }
            int r = read_template(list, file, first, len - (size_t)(first - line), &t[nt]);
            if (r < 0) s = r;
            if (r > 0) nt++;
        } else {
            sb_add(&code, line, len);
            sb_add(&code, "\n", 1);
        }
        line += len + (nl != NULL);
    }
    if (!s) s = scan_kernels(list, file, code.s);
    for (int i = 0; i < nt && !s; i++) s = instantiate(list, file, &t[i], code.s);
    free(code.s);
    free(clean);
    return s;
}

/* ---- files ----------------------------------------------------------------------------- */

char *kp_read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    strbuf b = {0};
    sb_add(&b, "", 0);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) sb_add(&b, chunk, n);
    fclose(f);
    return b.s;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The *.cl files of one directory, in name order. */
static int parse_cl_files(kp_list *list, const char *dir, const char *prefix) {
    DIR *d = opendir(dir);
    if (!d) return fail(list, "cannot open %s", dir);
    char *names[64];
    int n = 0, s = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 64;) {
        size_t len = strlen(e->d_name);
        if (len > 3 && strcmp(e->d_name + len - 3, ".cl") == 0) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, compare_names);
    for (int i = 0; i < n; i++) {
        char path[1024], file[KP_NAME];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(file, sizeof file, "%s%s", prefix, names[i]);
        char *text = s ? NULL : kp_read_file(path);
        if (!s && !text) s = fail(list, "cannot read %s", path);
        if (!s) s = kp_parse_source(list, file, text);
        free(text);
        free(names[i]);
    }
    return s;
}

int kp_parse_dir(kp_list *list, const char *dir) {
    char lib[1024];
    snprintf(lib, sizeof lib, "%s/lib", dir);
    if (parse_cl_files(list, lib, "lib/")) return -1;
    return parse_cl_files(list, dir, "");
}

const kp_kernel *kp_find(const kp_list *list, const char *name) {
    for (int i = 0; i < list->count; i++)
        if (strcmp(list->k[i].name, name) == 0) return &list->k[i];
    return NULL;
}

/* ---- comparison ------------------------------------------------------------------------ */

static void note(char *msg, size_t cap, int *count, const char *fmt, ...) {
    size_t used = strlen(msg);
    (*count)++;
    if (used + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + used, cap - used, fmt, ap);
    va_end(ap);
    used = strlen(msg);
    if (used + 1 < cap) strcat(msg, "\n");
}

int kp_compare(const kp_list *src, const kp_decl *decls, int ndecls, char *msg, size_t cap) {
    int count = 0;
    msg[0] = 0;
    for (int i = 0; i < ndecls; i++) {
        const kp_decl *d = &decls[i];
        for (int j = 0; j < i; j++)
            if (strcmp(decls[j].name, d->name) == 0)
                note(msg, cap, &count, "%s: declared twice in kernel_signatures.h", d->name);
        if (d->nargs != d->nparams)
            note(msg, cap, &count, "%s: the wrapper takes %d kernel arguments, the declaration "
                 "lists %d", d->name, d->nargs, d->nparams);
        const kp_kernel *k = kp_find(src, d->name);
        if (!k) {
            note(msg, cap, &count, "%s: declared in kernel_signatures.h, no such kernel in "
                 "kernels/", d->name);
            continue;
        }
        if (!k->dyn_local_last)
            note(msg, cap, &count, "%s (%s): the last parameter is not MG_DYN_LOCAL_PARAM",
                 k->name, k->file);
        if (k->nparams != d->nparams)
            note(msg, cap, &count, "%s (%s): %d parameters in the source, %d declared", k->name,
                 k->file, k->nparams, d->nparams);
        int n = k->nparams < d->nparams ? k->nparams : d->nparams;
        for (int p = 0; p < n; p++)
            if (strcmp(k->params[p].kind, d->params[p].kind) ||
                strcmp(k->params[p].name, d->params[p].name))
                note(msg, cap, &count, "%s (%s) parameter %d: (%s, %s) in the source, (%s, %s) "
                     "declared", k->name, k->file, p, k->params[p].kind, k->params[p].name,
                     d->params[p].kind, d->params[p].name);
    }
    for (int i = 0; i < src->count; i++) {
        const kp_kernel *k = &src->k[i];
        if (kp_find(src, k->name) != k)
            note(msg, cap, &count, "%s (%s): defined twice in kernels/", k->name, k->file);
        int declared = 0;
        for (int j = 0; j < ndecls && !declared; j++) declared = !strcmp(decls[j].name, k->name);
        if (!declared)
            note(msg, cap, &count, "%s (%s): not declared in kernel_signatures.h", k->name,
                 k->file);
    }
    return count;
}

/* ---- mutation -------------------------------------------------------------------------- */

/* Whether the word before p is `void` (a kernel's definition, not a mention of its name). */
static int after_void(const char *text, const char *p) {
    while (p > text && isspace((unsigned char)p[-1])) p--;
    return p - text >= 4 && strncmp(p - 4, "void", 4) == 0 && (p - 4 == text || !is_id(p[-5]));
}

char *kp_swap_params(const char *text, const char *kernel, int i, int j) {
    for (const char *p = text; (p = find_word(text, p, kernel)); p++) {
        const char *open = skip_ws(p + strlen(kernel));
        const char *close = *open == '(' && after_void(text, p) ? match_paren(open) : NULL;
        if (!close) continue;
        piece ps[KP_MAX_PIECES];
        int n = split_commas(open + 1, (size_t)(close - open - 1), ps, KP_MAX_PIECES);
        if (n < 0 || i < 0 || j < 0 || i >= n || j >= n) return NULL;
        piece tmp = ps[i];
        ps[i] = ps[j];
        ps[j] = tmp;
        strbuf out = {0};
        sb_add(&out, text, (size_t)(open + 1 - text));
        for (int k = 0; k < n; k++) {
            char one[256];
            copy_trimmed(one, sizeof one, ps[k].s, ps[k].len);
            if (k) sb_add(&out, ", ", 2);
            sb_add(&out, one, strlen(one));
        }
        sb_add(&out, close, strlen(close));
        return out.s;
    }
    return NULL;
}

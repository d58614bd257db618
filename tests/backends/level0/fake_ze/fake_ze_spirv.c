/*
 * A small SPIR-V reader: the kernels a module declares (OpEntryPoint), what each of their
 * parameters is, and how much local memory each uses of its own, all from the module itself.
 *
 * Parameters: Level Zero passes every argument by value (zeKernelSetArgumentValue), so the
 * driver must know which arguments are global pointers (CrossWorkgroup: a device address),
 * which are local memory (Workgroup: a size with a NULL value) and which are plain values of
 * some size. OpenCL needs the same distinction the other way round (clSetKernelArgSVMPointer,
 * clSetKernelArg(size, NULL), clSetKernelArg).
 *
 * Own local memory: OpenCL C's kernel-scope __local arrays are module-scope Workgroup
 * variables in SPIR-V. A driver charges a kernel for the ones it (or a function it calls)
 * uses, on top of its local arguments; that sum must fit maxSharedLocalMemory. PoCL cannot
 * be asked (for a SPIR module it reports the sum over ALL kernels' arrays for every kernel),
 * so the reader follows each entry point's static call graph and adds up the Workgroup
 * variables it references, each at its natural alignment.
 *
 * Read: OpEntryPoint, OpConstant, OpType{Int,Float,Vector,Array,Struct,Pointer}, module-scope
 * OpVariable, and inside functions OpFunctionParameter, OpFunctionCall and the id operands of
 * every instruction. Everything else is skipped by its word count, and a module whose
 * instructions do not tile its words exactly is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_ze.h"

#define SPIRV_MAGIC 0x07230203u

enum {
    OP_LINE = 8,
    OP_EXT_INST = 12,
    OP_ENTRY_POINT = 15,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_TYPE_VECTOR = 23,
    OP_TYPE_ARRAY = 28,
    OP_TYPE_STRUCT = 30,
    OP_TYPE_POINTER = 32,
    OP_CONSTANT = 43,
    OP_FUNCTION = 54,
    OP_FUNCTION_PARAMETER = 55,
    OP_FUNCTION_END = 56,
    OP_FUNCTION_CALL = 57,
    OP_VARIABLE = 59,
    OP_LOAD = 61,
    OP_STORE = 62,
    OP_COPY_MEMORY = 63,
    OP_VECTOR_SHUFFLE = 79,
    OP_COMPOSITE_EXTRACT = 81,
    OP_COMPOSITE_INSERT = 82,
    OP_LOOP_MERGE = 246,
    OP_SELECTION_MERGE = 247,
    OP_BRANCH_CONDITIONAL = 250,
    OP_SWITCH = 251,
    OP_LIFETIME_START = 256,
    OP_LIFETIME_STOP = 257,
};

enum { EXECUTION_MODEL_KERNEL = 6 };
enum {
    STORAGE_UNIFORM_CONSTANT = 0, /* OpenCL __constant */
    STORAGE_WORKGROUP = 4,        /* OpenCL __local */
    STORAGE_CROSS_WORKGROUP = 5,  /* OpenCL __global */
};

#define SIZE_CAP (UINT64_C(1) << 40) /* sizes saturate here: no overflow on hostile input */

/* What an id names, as far as the reader cares. */
typedef struct id_info {
    enum { ID_OTHER = 0, ID_SCALAR, ID_VECTOR, ID_AGGREGATE, ID_POINTER, ID_LOCAL_VAR } what;
    uint64_t bytes;   /* types: size; ID_LOCAL_VAR: size of the variable */
    uint32_t align;   /* types and ID_LOCAL_VAR */
    uint32_t storage; /* pointer: its storage class */
    uint32_t pointee; /* pointer: the type it points to */
    uint64_t value;   /* OpConstant of an integer type: its value (array lengths) */
} id_info;

/* One function: its parameters' types, the local variables it names and the functions it
 * calls. */
typedef struct function {
    uint32_t id;
    uint32_t nparams, nrefs, ncalls;
    uint32_t *params, *refs, *calls;
} function;

typedef struct reader {
    const uint32_t *words;
    size_t nwords;
    uint32_t bound;
    id_info *ids;
    function *functions;
    size_t nfunctions;
    char *why;
    size_t why_size;
} reader;

static bool fail(reader *r, const char *fmt, const char *detail) {
    if (r->why && r->why_size) snprintf(r->why, r->why_size, fmt, detail);
    return false;
}

static bool push(uint32_t **list, uint32_t *n, uint32_t value) {
    uint32_t *grown = realloc(*list, (*n + 1) * sizeof *grown);
    if (!grown) return false;
    grown[(*n)++] = value;
    *list = grown;
    return true;
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b > SIZE_CAP ? SIZE_CAP : a + b; }
static uint64_t sat_mul(uint64_t a, uint64_t b) {
    return b && a > SIZE_CAP / b ? SIZE_CAP : a * b;
}
static uint64_t align_up(uint64_t x, uint32_t a) { return a > 1 ? sat_add(x, a - 1) / a * a : x; }

/* The literal string starting at words[0], at most `nwords` long; NULL if unterminated. */
static char *literal_string(const uint32_t *words, size_t nwords) {
    const char *bytes = (const char *)words;
    size_t max = nwords * 4, n = 0;
    while (n < max && bytes[n]) n++;
    if (n == max) return NULL;
    char *s = malloc(n + 1);
    if (s) memcpy(s, bytes, n + 1);
    return s;
}

/* A declaration outside functions (types: result id in w[1]; constants and variables: result
 * type in w[1], result id in w[2]). */
static void declare(reader *r, uint32_t op, const uint32_t *w, uint32_t count) {
    id_info *ids = r->ids;
    uint32_t b = r->bound;
    if (count < 2 || w[1] >= b) return;
    id_info *t = &ids[w[1]];
    if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && count >= 3) {
        *t = (id_info){.what = ID_SCALAR, .bytes = w[2] / 8, .align = w[2] / 8};
    } else if (op == OP_TYPE_VECTOR && count >= 4 && w[2] < b) {
        uint64_t bytes = sat_mul(ids[w[2]].bytes, w[3] == 3 ? 4 : w[3]);
        *t = (id_info){.what = ID_VECTOR, .bytes = bytes, .align = (uint32_t)(bytes > 128 ? 128 : bytes)};
    } else if (op == OP_TYPE_ARRAY && count >= 4 && w[2] < b && w[3] < b) {
        *t = (id_info){.what = ID_AGGREGATE, .bytes = sat_mul(ids[w[2]].bytes, ids[w[3]].value),
                       .align = ids[w[2]].align};
    } else if (op == OP_TYPE_STRUCT) {
        uint64_t bytes = 0;
        uint32_t align = 1;
        for (uint32_t i = 2; i < count; i++) {
            if (w[i] >= b) continue;
            const id_info *m = &ids[w[i]];
            bytes = sat_add(align_up(bytes, m->align), m->bytes);
            if (m->align > align) align = m->align;
        }
        *t = (id_info){.what = ID_AGGREGATE, .bytes = align_up(bytes, align), .align = align};
    } else if (op == OP_TYPE_POINTER && count >= 4) {
        *t = (id_info){.what = ID_POINTER, .bytes = sizeof(void *), .align = sizeof(void *),
                       .storage = w[2], .pointee = w[3]};
    } else if (op == OP_CONSTANT && count >= 4 && w[2] < b) { /* result type, result, value */
        uint64_t v = w[3];
        if (count >= 5) v |= (uint64_t)w[4] << 32;
        ids[w[2]].value = v;
    } else if (op == OP_VARIABLE && count >= 4 && w[3] == STORAGE_WORKGROUP && w[1] < b) {
        const id_info *ptr = &ids[w[1]];
        const id_info *pointee = ptr->pointee < b ? &ids[ptr->pointee] : NULL;
        if (w[2] < b && pointee)
            ids[w[2]] = (id_info){.what = ID_LOCAL_VAR, .bytes = pointee->bytes,
                                  .align = pointee->align ? pointee->align : 1};
    }
}

/* Which operand words of an instruction inside a function may be ids: [first, last), with
 * the literal operands of the instructions that have them left out. */
static void id_operands(uint32_t op, uint32_t count, uint32_t *first, uint32_t *last) {
    *first = 1;
    *last = count;
    switch (op) {
    case OP_LINE: *last = 1; break;
    case OP_LOAD: *first = 3; *last = count < 4 ? count : 4; break;
    case OP_STORE:
    case OP_COPY_MEMORY: *last = count < 3 ? count : 3; break;
    case OP_COMPOSITE_EXTRACT: *first = 3; *last = count < 4 ? count : 4; break;
    case OP_COMPOSITE_INSERT:
    case OP_VECTOR_SHUFFLE: *first = 3; *last = count < 5 ? count : 5; break;
    case OP_EXT_INST: *first = 5; break;
    case OP_LOOP_MERGE: *last = count < 3 ? count : 3; break;
    case OP_SELECTION_MERGE:
    case OP_SWITCH:
    case OP_LIFETIME_START:
    case OP_LIFETIME_STOP: *last = count < 2 ? count : 2; break;
    case OP_BRANCH_CONDITIONAL: *last = count < 4 ? count : 4; break;
    case OP_VARIABLE: *first = 4; break;
    default: break;
    }
}

static bool scan(reader *r, uint32_t **entry_functions, char ***entry_names,
                 uint32_t *nentries) {
    function *current = NULL;
    for (size_t at = 5; at < r->nwords;) {
        uint32_t count = r->words[at] >> 16, op = r->words[at] & 0xffffu;
        if (count == 0 || count > r->nwords - at)
            return fail(r, "%s", "a SPIR-V instruction runs past the end of the module");
        const uint32_t *w = &r->words[at];
        at += count;
        if (op == OP_ENTRY_POINT && count >= 4) {
            if (w[1] != EXECUTION_MODEL_KERNEL) continue;
            char *name = literal_string(&w[3], count - 3);
            if (!name) return fail(r, "%s", "an entry point name is not terminated");
            char **names = realloc(*entry_names, (*nentries + 1) * sizeof *names);
            if (!names) {
                free(name);
                return fail(r, "%s", "out of host memory");
            }
            *entry_names = names;
            names[(*nentries)++] = name;
            uint32_t nfunctions = *nentries - 1;
            if (!push(entry_functions, &nfunctions, w[2]))
                return fail(r, "%s", "out of host memory");
        } else if (op == OP_FUNCTION && count >= 5) {
            function *grown = realloc(r->functions, (r->nfunctions + 1) * sizeof *grown);
            if (!grown) return fail(r, "%s", "out of host memory");
            r->functions = grown;
            current = &r->functions[r->nfunctions++];
            memset(current, 0, sizeof *current);
            current->id = w[2];
        } else if (op == OP_FUNCTION_END) {
            current = NULL;
        } else if (!current) {
            declare(r, op, w, count);
        } else if (op == OP_FUNCTION_PARAMETER && count >= 3) {
            if (!push(&current->params, &current->nparams, w[1]))
                return fail(r, "%s", "out of host memory");
        } else {
            if (op == OP_FUNCTION_CALL && count >= 4 &&
                !push(&current->calls, &current->ncalls, w[3]))
                return fail(r, "%s", "out of host memory");
            uint32_t first, last;
            id_operands(op, count, &first, &last);
            for (uint32_t i = first; i < last; i++)
                if (w[i] < r->bound && r->ids[w[i]].what == ID_LOCAL_VAR &&
                    !push(&current->refs, &current->nrefs, w[i]))
                    return fail(r, "%s", "out of host memory");
        }
    }
    return true;
}

static function *find_function(reader *r, uint32_t id) {
    for (size_t i = 0; i < r->nfunctions; i++)
        if (r->functions[i].id == id) return &r->functions[i];
    return NULL;
}

/* Bytes of the local variables `f` and its callees name, each counted once (stamp marks what
 * this entry point has counted; `depth` stops a recursive module, which OpenCL forbids). */
static uint64_t own_local(reader *r, const function *f, uint32_t *stamp, uint32_t mark, int depth) {
    uint64_t bytes = 0;
    if (depth > 64) return 0;
    for (uint32_t i = 0; i < f->nrefs; i++) {
        uint32_t v = f->refs[i];
        if (stamp[v] == mark) continue;
        stamp[v] = mark;
        bytes = sat_add(align_up(bytes, r->ids[v].align), r->ids[v].bytes);
    }
    for (uint32_t i = 0; i < f->ncalls; i++) {
        const function *callee = find_function(r, f->calls[i]);
        if (callee && stamp[f->calls[i]] != mark) {
            stamp[f->calls[i]] = mark;
            bytes = sat_add(bytes, own_local(r, callee, stamp, mark, depth + 1));
        }
    }
    return bytes;
}

static bool classify(reader *r, uint32_t type_id, fake_ze_param *out) {
    if (type_id >= r->bound) return fail(r, "%s", "a kernel parameter has an undefined type");
    const id_info *t = &r->ids[type_id];
    memset(out, 0, sizeof *out);
    if (t->what == ID_POINTER) {
        if (t->storage == STORAGE_CROSS_WORKGROUP || t->storage == STORAGE_UNIFORM_CONSTANT) {
            out->kind = FAKE_ZE_PARAM_GLOBAL;
            out->size = sizeof(void *);
        } else if (t->storage == STORAGE_WORKGROUP) {
            out->kind = FAKE_ZE_PARAM_LOCAL;
        } else {
            return fail(r, "%s", "a kernel parameter points to a storage class OpenCL lacks");
        }
    } else {
        /* Scalars and vectors have a known size; anything else (structs passed by value) is
         * left to OpenCL's own size check. */
        out->kind = FAKE_ZE_PARAM_VALUE;
        out->size = t->what == ID_SCALAR || t->what == ID_VECTOR ? (uint32_t)t->bytes : 0;
    }
    return true;
}

void fake_ze_spirv_free(fake_ze_spirv_info *info) {
    if (!info) return;
    for (uint32_t i = 0; i < info->nentries; i++) {
        free(info->entries[i].name);
        free(info->entries[i].params);
    }
    free(info->entries);
    memset(info, 0, sizeof *info);
}

const fake_ze_entry *fake_ze_spirv_find(const fake_ze_spirv_info *info, const char *name) {
    for (uint32_t i = 0; i < info->nentries; i++)
        if (strcmp(info->entries[i].name, name) == 0) return &info->entries[i];
    return NULL;
}

/* The entries, from the functions the entry points name. */
static bool build_entries(reader *r, fake_ze_spirv_info *out, const uint32_t *functions,
                          char **names, uint32_t n) {
    uint32_t *stamp = calloc(r->bound, sizeof *stamp);
    out->entries = calloc(n ? n : 1, sizeof *out->entries);
    if (!stamp || !out->entries) {
        free(stamp);
        return fail(r, "%s", "out of host memory");
    }
    bool ok = true;
    for (uint32_t e = 0; e < n && ok; e++) {
        const function *f = find_function(r, functions[e]);
        if (!f) {
            ok = fail(r, "entry point \"%.100s\" has no function body", names[e]);
            break;
        }
        fake_ze_entry *entry = &out->entries[out->nentries++];
        entry->name = names[e];
        names[e] = NULL;
        entry->nparams = f->nparams;
        entry->params = calloc(f->nparams ? f->nparams : 1, sizeof *entry->params);
        if (!entry->params) {
            ok = fail(r, "%s", "out of host memory");
            break;
        }
        for (uint32_t i = 0; i < f->nparams && ok; i++) ok = classify(r, f->params[i], &entry->params[i]);
        entry->static_local_bytes = own_local(r, f, stamp, e + 1, 0);
    }
    free(stamp);
    return ok;
}

bool fake_ze_spirv_read(fake_ze_spirv_info *out, const void *module, size_t bytes, char *why,
                        size_t why_size) {
    memset(out, 0, sizeof *out);
    reader r = {.why = why, .why_size = why_size};
    if (bytes < 20 || bytes % 4) return fail(&r, "%s", "not a whole number of SPIR-V words");
    uint32_t *words = malloc(bytes); /* the caller's bytes need not be 4-byte aligned */
    if (!words) return fail(&r, "%s", "out of host memory");
    memcpy(words, module, bytes);
    r.words = words;
    r.nwords = bytes / 4;
    uint32_t *entry_functions = NULL, nentries = 0;
    char **entry_names = NULL;
    bool ok = false;
    char magic[32];
    snprintf(magic, sizeof magic, "0x%08x", words[0]);
    if (words[0] != SPIRV_MAGIC) {
        fail(&r, "bad SPIR-V magic number %s", magic);
    } else if (words[3] == 0 || words[3] > (1u << 24)) {
        fail(&r, "%s", "implausible SPIR-V id bound");
    } else {
        out->version = words[1];
        r.bound = words[3];
        r.ids = calloc(r.bound, sizeof *r.ids);
        if (!r.ids) fail(&r, "%s", "out of host memory");
        else ok = scan(&r, &entry_functions, &entry_names, &nentries) &&
                  build_entries(&r, out, entry_functions, entry_names, nentries);
    }
    for (uint32_t i = 0; i < nentries; i++) free(entry_names[i]);
    free(entry_names);
    free(entry_functions);
    for (size_t i = 0; i < r.nfunctions; i++) {
        free(r.functions[i].params);
        free(r.functions[i].refs);
        free(r.functions[i].calls);
    }
    free(r.functions);
    free(r.ids);
    free(words);
    if (!ok) fake_ze_spirv_free(out);
    return ok;
}

/*
 * A reader of the kernel sources' signatures for tests/test_kernel_signatures.c: every
 * `MG_KERNEL void name(...)` of the .cl files in kernels/ and kernels/lib/, including those that a
 * `#define` template stamps out (kernels/primitives.cl's _u32/_u64 flavours: each invocation
 * of the template is expanded, parameters substituted and `##` pasted), with each
 * parameter's kind in the notation of kernels/kernel_signatures.h and its name.
 *
 * What it understands is the dialect's rules (kernels/magnus_dialect.h): comments, line
 * splices, `#define` templates with parameters, kernel parameters that are MG_GLOBAL
 * pointers or scalars of the mg_ types, float and double. Conditional compilation is
 * ignored (a kernel under #if counts: the host declares it either way). Anything else gives
 * an unknown kind ("?<type>"), which then differs from every declaration.
 */
#ifndef MAGNUS_TEST_KERNEL_PARSE_H
#define MAGNUS_TEST_KERNEL_PARSE_H

#include <stddef.h>

#define KP_MAX_KERNELS 128
#define KP_MAX_PARAMS 32
#define KP_NAME 64

typedef struct kp_param {
    char kind[32];
    char name[KP_NAME];
} kp_param;

typedef struct kp_kernel {
    char name[KP_NAME];
    char file[KP_NAME];
    int nparams;            /* without the final MG_DYN_LOCAL_PARAM */
    int dyn_local_last;     /* the last parameter is MG_DYN_LOCAL_PARAM */
    kp_param params[KP_MAX_PARAMS];
} kp_kernel;

typedef struct kp_list {
    int count;
    kp_kernel k[KP_MAX_KERNELS];
    char error[512]; /* why a parse failed */
} kp_list;

/* One declaration of kernels/kernel_signatures.h. */
typedef struct kp_decl_param {
    const char *kind, *name;
} kp_decl_param;
typedef struct kp_decl {
    const char *name;
    const kp_decl_param *params;
    int nparams; /* entries of params */
    int nargs;   /* the launch wrapper's argument count (magnus_k_<name>_nargs) */
} kp_decl;

/* Adds the kernels of one source text (`file` names it in messages); 0, or -1 and
 * list->error. */
int kp_parse_source(kp_list *list, const char *file, const char *text);
/* Adds the kernels of every .cl file in dir/lib/, then in dir/, in name order; 0, or -1 and
 * list->error. */
int kp_parse_dir(kp_list *list, const char *dir);
/* The kernel named `name`, or NULL. */
const kp_kernel *kp_find(const kp_list *list, const char *name);

/* Writes every difference between the declarations and the sources into msg (cap bytes,
 * one line each; truncated when longer) and returns how many there are: kernels on one side
 * only, duplicates, a last parameter that is not MG_DYN_LOCAL_PARAM, parameter counts,
 * kinds and names, and wrapper argument counts. */
int kp_compare(const kp_list *src, const kp_decl *decls, int ndecls, char *msg, size_t cap);

/* A copy of `text` (malloc'd) in which parameters i and j of kernel `kernel` trade places;
 * NULL when the kernel or the parameters are not there. For mutation checks. */
char *kp_swap_params(const char *text, const char *kernel, int i, int j);

/* The contents of a file (malloc'd, NUL-terminated), or NULL. */
char *kp_read_file(const char *path);

#endif

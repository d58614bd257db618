/*
 * kernels/kernel_signatures.h against the kernel sources: the same kernels, and for each the
 * same parameters (kind and name) in the same order, the last one MG_DYN_LOCAL_PARAM
 * (supplied by the backend, so not declared). The declarations are read through the same
 * MAGNUS_KP_EACH expansion that builds the launch wrappers (runtime/device/kernels.h), the
 * sources by tests/kernel_parse.c. MAGNUS_TEST_KERNELS_DIR points the test at another copy of
 * kernels/ (a mutation check by hand: swap two parameters there, the test must fail).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_parse.h"
#include "kernels.h"

#define DECL_PARAM(kind, name) {#kind, #name},
#define MG_KERNEL_SIG(kernel, ...)                                                               \
    static const kp_decl_param params_##kernel[] = {MAGNUS_KP_EACH(DECL_PARAM, __VA_ARGS__)};
#include "kernel_signatures.h"
#undef MG_KERNEL_SIG

#define MG_KERNEL_SIG(kernel, ...)                                                               \
    {#kernel, params_##kernel, (int)(sizeof params_##kernel / sizeof params_##kernel[0]),       \
     magnus_k_##kernel##_nargs},
static const kp_decl decls[] = {
#include "kernel_signatures.h"
};
#undef MG_KERNEL_SIG
static const int ndecls = (int)(sizeof decls / sizeof decls[0]);

static const char *kernels_dir(void) {
    const char *env = getenv("MAGNUS_TEST_KERNELS_DIR");
    return env && *env ? env : MAGNUS_KERNELS_DIR;
}

static kp_list *parse_all(void) {
    kp_list *list = calloc(1, sizeof *list);
    cr_assert(list);
    cr_assert_eq(kp_parse_dir(list, kernels_dir()), 0, "%s: %s", kernels_dir(), list->error);
    return list;
}

static char msg[16384];

Test(kernel_signatures, declarations_match_the_sources) {
    kp_list *src = parse_all();
    cr_log_info("%d kernels in %s, %d declared", src->count, kernels_dir(), ndecls);
    int differences = kp_compare(src, decls, ndecls, msg, sizeof msg);
    free(src);
    cr_assert_eq(differences, 0,
                 "kernels/kernel_signatures.h and the kernel sources differ (%d):\n%s",
                 differences, msg);
}

/* The reader itself: kernels written out directly and stamped out by templates, kinds of
 * every sort, and what it must refuse or flag. */
Test(kernel_signatures, reader) {
    static const char text[] =
        "#include \"magnus_dialect.h\"\n"
        "/* MG_KERNEL void in_a_comment(int x) */\n"
        "MG_KERNEL void plain(mg_u64 n, MG_GLOBAL const mg_i32 *ids, // a comment\n"
        "                     float f, MG_GLOBAL mg_val *v, MG_DYN_LOCAL_PARAM) {}\n"
        "#define TWO(T, SUF)                                                   \\\n"
        "    MG_KERNEL void two_##SUF(MG_GLOBAL T *p, T value, /* c */          \\\n"
        "                             MG_DYN_LOCAL_PARAM) {}\n"
        "TWO(mg_u32, u32)\n"
        "TWO(double, f64)\n"
        "MG_KERNEL void odd(size_t n, MG_LOCAL mg_u32 *l, mg_u32 last) {}\n";
    kp_list *list = calloc(1, sizeof *list);
    cr_assert(list);
    cr_assert_eq(kp_parse_source(list, "t.cl", text), 0, "%s", list->error);
    cr_assert_eq(list->count, 4);
    const kp_kernel *k = kp_find(list, "plain");
    cr_assert(k && k->dyn_local_last && k->nparams == 4);
    const char *want[4][2] = {{"U64", "n"}, {"BUF_I32", "ids"}, {"F32", "f"}, {"BUF_VAL", "v"}};
    for (int i = 0; i < 4; i++) {
        cr_expect_str_eq(k->params[i].kind, want[i][0]);
        cr_expect_str_eq(k->params[i].name, want[i][1]);
    }
    k = kp_find(list, "two_u32");
    cr_assert(k && k->dyn_local_last && k->nparams == 2);
    cr_expect_str_eq(k->params[0].kind, "BUF_U32");
    cr_expect_str_eq(k->params[1].kind, "U32");
    k = kp_find(list, "two_f64");
    cr_assert(k && k->nparams == 2);
    cr_expect_str_eq(k->params[1].kind, "F64");
    cr_expect_str_eq(k->params[1].name, "value");
    k = kp_find(list, "odd");
    cr_assert(k && !k->dyn_local_last && k->nparams == 3);
    cr_expect_eq(k->params[0].kind[0], '?', "size_t is no kernel type: %s", k->params[0].kind);
    cr_expect_eq(k->params[1].kind[0], '?', "a local pointer is no buffer: %s", k->params[1].kind);
    free(list);

    list = calloc(1, sizeof *list);
    cr_assert(list);
    cr_expect_neq(kp_parse_source(list, "t.cl", "#define T(a) MG_KERNEL void t_##a(int x) {}\n"), 0,
                  "a template never invoked counts as an error");
    free(list);
}

/* A mutation the test must catch, made on the real source (never MAGNUS_TEST_KERNELS_DIR's):
 * two parameters of one kernel (`name` as the source spells it: a template's kernels too)
 * trade places. Returns the differences between the mutated file and the declarations of its
 * kernels. */
static int differences_after_swap(const char *file, const char *name, int i, int j) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", MAGNUS_KERNELS_DIR, file);
    char *text = kp_read_file(path);
    cr_assert(text, "cannot read %s", path);
    char *mutant = kp_swap_params(text, name, i, j);
    free(text);
    cr_assert(mutant, "%s: no kernel %s with parameters %d and %d", file, name, i, j);
    kp_list *src = calloc(1, sizeof *src);
    cr_assert(src);
    cr_assert_eq(kp_parse_source(src, file, mutant), 0, "%s", src->error);
    free(mutant);
    kp_decl mine[KP_MAX_KERNELS];
    int n = 0;
    for (int d = 0; d < ndecls; d++)
        if (kp_find(src, decls[d].name)) mine[n++] = decls[d];
    cr_assert_eq(n, src->count, "every kernel of %s is declared", file);
    int differences = kp_compare(src, mine, n, msg, sizeof msg);
    free(src);
    return differences;
}

Test(kernel_signatures, swapped_parameters_are_caught) {
    cr_expect_eq(differences_after_swap("gmagnus_csr2csc.cl", "gmagnus_csc_count", 2, 4), 2,
                 "a_ptr and b_ptr (both BUF_I64) swapped:\n%s", msg);
    cr_expect_eq(differences_after_swap("gmagnus_csr2csc.cl", "gmagnus_csc_count", 0, 1), 2,
                 "nheavy (U64) and xheavy (BUF_I32) swapped:\n%s", msg);
    cr_expect_eq(differences_after_swap("primitives.cl", "prim_fill_##SUF", 2, 3), 4,
                 "n and value swapped in the fill template (both of its kernels):\n%s", msg);
    cr_expect_eq(differences_after_swap("hash_rows.cl", "hash_rows_numeric_global", 0, 17), 3,
                 "MG_DYN_LOCAL_PARAM first (not last, one parameter too many, the first "
                 "differs):\n%s", msg);
}

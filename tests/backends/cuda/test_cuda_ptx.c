/*
 * The CUDA backend's PTX for 12.x drivers: magnus_cuda_ptx_lower_version() changes nothing but
 * the ".version" line of the embedded PTX, and the result still assembles for sm_90 (ptxas,
 * where the build found one), i.e. the kernels use nothing beyond PTX ISA 8.0.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkstemps (magnus_internal usually defines it) */
#endif
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/cuda/cuda_ptx.h"
#include "internal.h"

extern const unsigned char magnus_cuda_ptx_f32[];
extern const unsigned char magnus_cuda_ptx_f64[];

/* Checks that `lowered` equals `ptx` except for the version digits "9.Y" -> "8.0". */
static void expect_only_version_changed(const char *ptx, const char *lowered) {
    size_t n = strlen(ptx);
    cr_assert_eq(strlen(lowered), n);
    size_t differing = 0, first = n;
    for (size_t i = 0; i < n; i++)
        if (ptx[i] != lowered[i]) {
            differing++;
            if (first == n) first = i;
        }
    cr_assert(differing >= 1 && differing <= 3, "%zu bytes differ", differing);
    const char *line = lowered + first;
    while (line > lowered && line[-1] != '\n') line--;
    cr_expect_eq(strncmp(line, ".version 8.0", 12), 0, "changed line: %.20s", line);
}

static void check_variant(const char *ptx, const char *variant) {
    const char *v = strstr(ptx, "\n.version ");
    cr_assert(v, "%s PTX has no .version line", variant);
    char *lowered = magnus_cuda_ptx_lower_version(ptx);
    if (strncmp(v, "\n.version 9.", 11) != 0) {
        /* nvcc older than 13 writes 8.x, which needs no lowering. */
        cr_expect_null(lowered, "%s PTX: %.16s lowered", variant, v + 1);
        magnus_host_free(lowered);
        return;
    }
    cr_assert(lowered, "%s PTX not lowered", variant);
    expect_only_version_changed(ptx, lowered);
#ifdef MAGNUS_TEST_PTXAS
    if (access(MAGNUS_TEST_PTXAS, X_OK) != 0) { /* a machine without the toolkit (the GPU's) */
        cr_log_warn("%s not found: the %s PTX is not assembled", MAGNUS_TEST_PTXAS, variant);
        magnus_host_free(lowered);
        return;
    }
    char path[] = "/tmp/magnus-ptx-XXXXXX.ptx";
    int fd = mkstemps(path, 4);
    cr_assert(fd >= 0);
    size_t len = strlen(lowered);
    cr_assert_eq(write(fd, lowered, len), (ssize_t)len);
    close(fd);
    char command[512];
    snprintf(command, sizeof command, "'%s' -arch=sm_90 '%s' -o /dev/null", MAGNUS_TEST_PTXAS, path);
    int rc = system(command);
    unlink(path);
    cr_expect_eq(rc, 0, "ptxas rejects the %s kernels as PTX ISA 8.0 (rc %d): they use a newer "
                        "PTX feature, which 12.x drivers cannot JIT", variant, rc);
#endif
    magnus_host_free(lowered);
}

Test(cuda_ptx, embedded_f32_kernels_lower_to_isa_8_0) {
    check_variant((const char *)magnus_cuda_ptx_f32, "f32");
}

Test(cuda_ptx, embedded_f64_kernels_lower_to_isa_8_0) {
    check_variant((const char *)magnus_cuda_ptx_f64, "f64");
}

Test(cuda_ptx, only_a_9_x_version_line_is_lowered) {
    char *p = magnus_cuda_ptx_lower_version("// x\n.version 9.1\n.target sm_90\n");
    cr_assert(p);
    cr_expect_str_eq(p, "// x\n.version 8.0\n.target sm_90\n");
    magnus_host_free(p);
    cr_expect_null(magnus_cuda_ptx_lower_version("// x\n.version 8.5\n.target sm_90\n"));
    cr_expect_null(magnus_cuda_ptx_lower_version("// x\n.version 10.0\n"));
    cr_expect_null(magnus_cuda_ptx_lower_version("// x\n.version 9.12\n"));
    cr_expect_null(magnus_cuda_ptx_lower_version(".target sm_90\n"));
    cr_expect_null(magnus_cuda_ptx_lower_version(""));
}

Test(cuda_ptx, out_of_memory_gives_null) {
    magnus_host_alloc_fail_after(0);
    char *p = magnus_cuda_ptx_lower_version("\n.version 9.0\n");
    magnus_host_alloc_fail_after(-1);
    cr_expect_null(p);
    magnus_host_free(p);
}

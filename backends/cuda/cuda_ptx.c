/* PTX text helpers of the CUDA backend. */
#include "cuda_ptx.h"

#include <string.h>

#include "internal.h"

char *magnus_cuda_ptx_lower_version(const char *ptx) {
    static const char key[] = "\n.version ";
    const char *line = strstr(ptx, key);
    if (!line) return NULL;
    const char *v = line + strlen(key);
    /* Exactly "9.Y" then the end of the line: same length as the replacement. */
    if (v[0] != '9' || v[1] != '.' || v[2] < '0' || v[2] > '9' ||
        (v[3] != '\n' && v[3] != '\r' && v[3] != ' ' && v[3] != '\t'))
        return NULL;
    size_t len = strlen(ptx);
    char *copy = magnus_host_malloc(len + 1);
    if (!copy) return NULL;
    memcpy(copy, ptx, len + 1);
    memcpy(copy + (v - ptx), MAGNUS_CUDA_PTX_ISA_12, strlen(MAGNUS_CUDA_PTX_ISA_12));
    return copy;
}

/* The H200's ceilings for a kernel that only writes: cuMemsetD32 (a write-only stream) and
 * cuMemcpyDtoD (the copy bandwidth the efficiencies divide by, read + write bytes), each
 * timed with events over 10 runs after a warm-up. Built on the build machine:
 *   gcc -O2 -I/usr/local/cuda/include write_bandwidth.c -ldl -o write_bandwidth
 * Run: ./write_bandwidth [GiB]  (default 4) */
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#define F(name) static __typeof__(&name) p_##name
F(cuInit); F(cuDeviceGet); F(cuDevicePrimaryCtxRetain); F(cuCtxSetCurrent); F(cuMemAlloc); F(cuMemsetD32); F(cuMemcpyDtoD);
F(cuEventCreate); F(cuEventRecord); F(cuEventSynchronize); F(cuEventElapsedTime);

static void *sym(void *h, const char *n) {
    void *p = dlsym(h, n);
    if (!p) { fprintf(stderr, "missing %s\n", n); exit(1); }
    return p;
}
#define CK(x) do { CUresult r_ = (x); if (r_) { fprintf(stderr, "%s: %d\n", #x, (int)r_); return 1; } } while (0)

int main(int argc, char **argv) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    if (!h) { fprintf(stderr, "no libcuda.so.1\n"); return 1; }
    p_cuInit = sym(h, "cuInit"); p_cuDeviceGet = sym(h, "cuDeviceGet");
    p_cuDevicePrimaryCtxRetain = sym(h, "cuDevicePrimaryCtxRetain");
    p_cuCtxSetCurrent = sym(h, "cuCtxSetCurrent"); p_cuMemAlloc = sym(h, "cuMemAlloc_v2");
    p_cuMemsetD32 = sym(h, "cuMemsetD32_v2"); p_cuMemcpyDtoD = sym(h, "cuMemcpyDtoD_v2");
    p_cuEventCreate = sym(h, "cuEventCreate"); p_cuEventRecord = sym(h, "cuEventRecord");
    p_cuEventSynchronize = sym(h, "cuEventSynchronize");
    p_cuEventElapsedTime = sym(h, "cuEventElapsedTime_v2");
    size_t gib = argc > 1 ? (size_t)atoi(argv[1]) : 4, bytes = gib << 30;
    CUdevice dev; CUcontext ctx; CUdeviceptr a, b; CUevent e0, e1;
    CK(p_cuInit(0)); CK(p_cuDeviceGet(&dev, 0)); CK(p_cuDevicePrimaryCtxRetain(&ctx, dev)); CK(p_cuCtxSetCurrent(ctx));
    CK(p_cuMemAlloc(&a, bytes)); CK(p_cuMemAlloc(&b, bytes));
    CK(p_cuEventCreate(&e0, 0)); CK(p_cuEventCreate(&e1, 0));
    for (int kind = 0; kind < 2; kind++) {
        for (int run = 0; run <= 10; run++) { /* run 0: warm-up */
            CK(p_cuEventRecord(e0, 0));
            if (kind == 0) CK(p_cuMemsetD32(a, (unsigned)run, bytes / 4));
            else CK(p_cuMemcpyDtoD(b, a, bytes));
            CK(p_cuEventRecord(e1, 0)); CK(p_cuEventSynchronize(e1));
            float ms = 0; CK(p_cuEventElapsedTime(&ms, e0, e1));
            if (run == 0) continue;
            double moved = kind == 0 ? (double)bytes : 2.0 * (double)bytes;
            printf("%s %zu GiB run %d: %.3f ms, %.1f GB/s\n", kind == 0 ? "memset" : "copy", gib,
                   run, ms, moved / ms / 1e6);
        }
    }
    return 0;
}

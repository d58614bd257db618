/*
 * Foreign device buffers (magnus_device_csr_wrap, magnus_context_native) on OpenCL: a matrix
 * over cl_mem objects the test creates in the context's own cl_context is multiplied (both
 * algorithms, a plan) and checked against the CPU reference; the wrapper retains and releases
 * the caller's buffers, never frees them, and refuses invalid structure, short buffers and
 * buffers of another cl_context. The OpenCL API is loaded with dlopen, as the backend does.
 * On CUDA the same over device pointers from cuMemAlloc (cuda_device_pointers). Each test
 * skips on the backends it does not cover.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <string.h>
#include <time.h>

#include "device_test_main.h"
#include "status_test_util.h"

static struct {
    cl_mem (*CreateBuffer)(cl_context, cl_mem_flags, size_t, void *, cl_int *);
    cl_int (*ReleaseMemObject)(cl_mem);
    cl_int (*GetMemObjectInfo)(cl_mem, cl_mem_info, size_t, void *, size_t *);
    cl_context (*CreateContext)(const cl_context_properties *, cl_uint, const cl_device_id *,
                                void(CL_CALLBACK *)(const char *, const void *, size_t, void *),
                                void *, cl_int *);
    cl_int (*ReleaseContext)(cl_context);
} cl;

/* CUDA: the Driver API's allocation entry points (the _v2 names are the current ABI). */
static struct {
    int (*CtxSetCurrent)(void *);
    int (*MemAlloc)(unsigned long long *, size_t);
    int (*MemcpyHtoD)(unsigned long long, const void *, size_t);
    int (*MemFree)(unsigned long long);
} cu;

/* The shared context on OpenCL, its native handles, and the OpenCL entry points; skips
 * elsewhere. */
static magnus_context opencl_context(magnus_native_handles *native) {
    magnus_context ctx = magnus_test_context();
    if (ctx->device.backend != MAGNUS_BACKEND_OPENCL)
        cr_skip_test("wrapping is tested with OpenCL buffers; the device is not OpenCL");
    ASSERT_OK(magnus_context_native(native, ctx));
    cr_assert_eq(native->backend, MAGNUS_BACKEND_OPENCL);
    cr_assert_not_null(native->context);
    cr_assert_not_null(native->device);
    void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    cr_assert_not_null(lib, "%s", dlerror());
    *(void **)&cl.CreateBuffer = dlsym(lib, "clCreateBuffer");
    *(void **)&cl.ReleaseMemObject = dlsym(lib, "clReleaseMemObject");
    *(void **)&cl.GetMemObjectInfo = dlsym(lib, "clGetMemObjectInfo");
    *(void **)&cl.CreateContext = dlsym(lib, "clCreateContext");
    *(void **)&cl.ReleaseContext = dlsym(lib, "clReleaseContext");
    cr_assert(cl.CreateBuffer && cl.ReleaseMemObject && cl.GetMemObjectInfo && cl.CreateContext &&
              cl.ReleaseContext);
    return ctx;
}

/* A buffer of the context holding a copy of `bytes` at host (at least 1 byte). */
static cl_mem buffer(cl_context c, const void *host, size_t bytes) {
    cl_int err;
    unsigned char one = 0;
    cl_mem m = cl.CreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes ? bytes : 1,
                               bytes ? (void *)host : &one, &err);
    cr_assert_eq(err, CL_SUCCESS, "clCreateBuffer: %d", err);
    return m;
}

static cl_uint refcount_now(cl_mem m) {
    cl_uint n = 0;
    cr_assert_eq(cl.GetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof n, &n, NULL), CL_SUCCESS);
    return n;
}

/* The buffer's reference count once it settles at `want` (up to 2 s): an implementation may
 * hold a reference of its own for a command until it has retired it, after the command is
 * complete (PoCL does, on a busy machine seen for a moment after a blocking call); a count that
 * never reaches `want` is returned as it last was. */
static cl_uint refcount(cl_mem m, cl_uint want) {
    cl_uint n = refcount_now(m);
    for (int i = 0; i < 400 && n != want; i++) {
        struct timespec pause = {0, 5000000};
        nanosleep(&pause, NULL);
        n = refcount_now(m);
    }
    return n;
}

/* Test the wrapper over CUDA device pointers too (no reference counts to check there). */
static magnus_context cuda_context(magnus_native_handles *native) {
    magnus_context ctx = magnus_test_context();
    if (ctx->device.backend != MAGNUS_BACKEND_CUDA) cr_skip_test("the device is not CUDA");
    ASSERT_OK(magnus_context_native(native, ctx));
    cr_assert_eq(native->backend, MAGNUS_BACKEND_CUDA);
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    cr_assert_not_null(lib, "%s", dlerror());
    *(void **)&cu.CtxSetCurrent = dlsym(lib, "cuCtxSetCurrent");
    *(void **)&cu.MemAlloc = dlsym(lib, "cuMemAlloc_v2");
    *(void **)&cu.MemcpyHtoD = dlsym(lib, "cuMemcpyHtoD_v2");
    *(void **)&cu.MemFree = dlsym(lib, "cuMemFree_v2");
    cr_assert(cu.CtxSetCurrent && cu.MemAlloc && cu.MemcpyHtoD && cu.MemFree);
    cr_assert_eq(cu.CtxSetCurrent(native->context), 0);
    return ctx;
}

static void *cuda_buffer(const void *host, size_t bytes) {
    unsigned long long p = 0;
    cr_assert_eq(cu.MemAlloc(&p, bytes ? bytes : 1), 0);
    if (bytes) cr_assert_eq(cu.MemcpyHtoD(p, host, bytes), 0);
    return (void *)(uintptr_t)p;
}

Test(device_csr_wrap, cuda_device_pointers) {
    magnus_native_handles native;
    magnus_context ctx = cuda_context(&native);
    magnus_csr A = magnus_test_rmat(8, 5, 5, MAGNUS_FLOAT32), B;
    ASSERT_OK(magnus_gen_uniform(&B, 256, 100, 4, magnus_test_seed(6), MAGNUS_FLOAT32));
    void *p[2][3];
    magnus_device_csr d[2];
    const magnus_csr_s *X[2] = {A, B};
    const uint64_t before = ctx->memory_in_use;
    for (int i = 0; i < 2; i++) {
        p[i][0] = cuda_buffer(X[i]->row_ptr, (size_t)(X[i]->rows + 1) * 8);
        p[i][1] = cuda_buffer(X[i]->col_idx, (size_t)X[i]->nnz * 4);
        p[i][2] = cuda_buffer(X[i]->values, (size_t)X[i]->nnz * 4);
        ASSERT_OK(magnus_device_csr_wrap(&d[i], ctx, X[i]->rows, X[i]->cols, X[i]->nnz,
                                         X[i]->type, p[i][0], p[i][1], p[i][2]));
    }
    cr_assert_eq(ctx->memory_in_use, before);
    magnus_device_csr dC = NULL;
    for (int alg = 0; alg < 2; alg++) {
        magnus_spgemm_options opt;
        ASSERT_OK(magnus_spgemm_options_init(&opt));
        opt.algorithm = alg ? MAGNUS_ALGORITHM_HASH : MAGNUS_ALGORITHM_MAGNUS;
        opt.alpha = -1.5;
        ASSERT_OK(magnus_spgemm_device(&dC, ctx, d[0], d[1], &opt, NULL));
        magnus_csr C, R, M;
        ASSERT_OK(magnus_device_csr_download(&C, dC));
        ASSERT_OK(magnus_reference_spgemm(&R, &M, A, B));
        for (int64_t q = 0; q < R->nnz; q++) ((float *)R->values)[q] *= -1.5f;
        ASSERT_OK(magnus_csr_compare(NULL, C, R, M, 1e-3));
        magnus_device_csr_free(&dC);
        MAGNUS_TEST_FREE_CSRS(&C, &R, &M);
    }
    for (int i = 0; i < 2; i++) {
        ASSERT_OK(magnus_device_csr_free(&d[i]));
        /* the memory is still the caller's: it frees it */
        for (int j = 0; j < 3; j++) cr_assert_eq(cu.MemFree((unsigned long long)(uintptr_t)p[i][j]), 0);
    }
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

typedef struct wrapped {
    cl_mem rp, ci, val;
    magnus_device_csr d;
} wrapped;

static wrapped wrap(magnus_context ctx, cl_context c, const magnus_csr_s *A) {
    wrapped w;
    w.rp = buffer(c, A->row_ptr, (size_t)(A->rows + 1) * sizeof(int64_t));
    w.ci = buffer(c, A->col_idx, (size_t)A->nnz * sizeof(int32_t));
    w.val = buffer(c, A->values, (size_t)A->nnz * magnus_value_size(A->type));
    ASSERT_OK(magnus_device_csr_wrap(&w.d, ctx, A->rows, A->cols, A->nnz, A->type, w.rp, w.ci,
                                     w.val));
    cr_assert_eq(refcount(w.rp, 2), 2, "the wrapper retains the caller's buffer");
    return w;
}

static void unwrap(wrapped *w) {
    ASSERT_OK(magnus_device_csr_free(&w->d));
    cr_assert_eq(refcount(w->rp, 1), 1, "freeing the wrapper releases only its own reference");
    cr_assert_eq(refcount(w->ci, 1), 1);
    cr_assert_eq(refcount(w->val, 1), 1);
    cl.ReleaseMemObject(w->rp);
    cl.ReleaseMemObject(w->ci);
    cl.ReleaseMemObject(w->val);
}

static void expect_reference(magnus_device_csr dC, const magnus_csr_s *A, const magnus_csr_s *B) {
    magnus_csr C, R, M;
    ASSERT_OK(magnus_device_csr_download(&C, dC));
    ASSERT_OK(magnus_reference_spgemm(&R, &M, A, B));
    ASSERT_OK(magnus_csr_compare(NULL, C, R, M, 0));
    MAGNUS_TEST_FREE_CSRS(&C, &R, &M);
}

Test(device_csr_wrap, multiply_plan_and_release) {
    magnus_native_handles native;
    magnus_context ctx = opencl_context(&native);
    cl_context c = (cl_context)native.context;
    magnus_csr A = magnus_test_rmat(8, 5, 1, MAGNUS_FLOAT32), B;
    ASSERT_OK(magnus_gen_uniform(&B, 256, 100, 4, magnus_test_seed(2), MAGNUS_FLOAT32));
    const uint64_t before = ctx->memory_in_use;
    wrapped wA = wrap(ctx, c, A), wB = wrap(ctx, c, B);
    cr_assert_eq(ctx->memory_in_use, before, "wrapped buffers are not the context's");
    magnus_csr back;
    ASSERT_OK(magnus_device_csr_download(&back, wA.d));
    ASSERT_OK(magnus_csr_compare(NULL, back, A, NULL, 0));
    magnus_csr_free(&back);
    magnus_device_csr dC = NULL;
    for (int alg = 0; alg < 2; alg++) {
        magnus_spgemm_options opt;
        ASSERT_OK(magnus_spgemm_options_init(&opt));
        opt.algorithm = alg ? MAGNUS_ALGORITHM_HASH : MAGNUS_ALGORITHM_MAGNUS;
        ASSERT_OK(magnus_spgemm_device(&dC, ctx, wA.d, wB.d, &opt, NULL));
        expect_reference(dC, A, B);
        magnus_device_csr_free(&dC);
        ASSERT_OK(magnus_spgemm_device(&dC, ctx, wA.d, wA.d, &opt, NULL)); /* B is A */
        expect_reference(dC, A, A);
        magnus_device_csr_free(&dC);
    }
    /* a plan over wrapped operands, executed on an uploaded copy with the same structure */
    magnus_spgemm_plan plan;
    ASSERT_OK(magnus_spgemm_plan_create(&plan, ctx, wA.d, wB.d, NULL));
    magnus_device_csr uA;
    ASSERT_OK(magnus_device_csr_upload(&uA, ctx, A));
    ASSERT_OK(magnus_spgemm_plan_execute(&dC, plan, uA, wB.d, NULL));
    expect_reference(dC, A, B);
    /* zero-copy output: the product written into the caller's buffers, which first hold an
     * earlier C's structure (what a wrap validates) */
    magnus_csr C0;
    ASSERT_OK(magnus_device_csr_download(&C0, dC));
    for (int64_t q = 0; q < C0->nnz; q++) ((float *)C0->values)[q] = -7.0f;
    wrapped wC = wrap(ctx, c, C0);
    ASSERT_OK(magnus_spgemm_plan_execute_into(wC.d, plan, uA, wB.d, NULL));
    expect_reference(wC.d, A, B);
    unwrap(&wC);
    MAGNUS_TEST_FREE_DEVICE_CSRS(&dC, &uA);
    magnus_csr_free(&C0);
    magnus_spgemm_plan_free(&plan);
    unwrap(&wA);
    unwrap(&wB);
    cr_assert_eq(ctx->memory_in_use, before);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

Test(device_csr_wrap, refusals) {
    magnus_native_handles native;
    magnus_context ctx = opencl_context(&native);
    cl_context c = (cl_context)native.context;
    magnus_csr A;
    ASSERT_OK(magnus_gen_uniform(&A, 30, 20, 3, magnus_test_seed(3), MAGNUS_FLOAT32));
    const size_t rp_bytes = (size_t)(A->rows + 1) * 8, ci_bytes = (size_t)A->nnz * 4;
    cl_mem rp = buffer(c, A->row_ptr, rp_bytes), ci = buffer(c, A->col_idx, ci_bytes),
           val = buffer(c, A->values, ci_bytes);
    magnus_device_csr d = NULL;
    /* a column out of range: the structure is validated (on the device); nothing stays retained */
    A->col_idx[A->nnz - 1] = (int32_t)A->cols;
    cl_mem bad = buffer(c, A->col_idx, ci_bytes);
    ASSERT_STATUS(magnus_device_csr_wrap(&d, ctx, A->rows, A->cols, A->nnz, A->type, rp, bad, val),
                  MAGNUS_ERROR_COLUMN_OUT_OF_RANGE);
    cr_assert_null(d);
    cr_assert(strstr(magnus_last_error(), "wrapped matrix") != NULL, "%s", magnus_last_error());
    cr_assert_eq(refcount(rp, 1), 1);
    cr_assert_eq(refcount(bad, 1), 1);
    cr_assert_eq(refcount(val, 1), 1);
    /* a buffer too small for its array */
    ASSERT_STATUS(magnus_device_csr_wrap(&d, ctx, A->rows, A->cols, A->nnz + 1, A->type, rp, ci,
                                         val),
                  MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(magnus_last_error(), "col_idx") != NULL, "%s", magnus_last_error());
    ASSERT_STATUS(magnus_device_csr_wrap(&d, ctx, A->rows, A->cols, A->nnz, MAGNUS_FLOAT64, rp,
                                         ci, val),
                  MAGNUS_ERROR_INVALID_ARGUMENT); /* float64 values need twice the bytes */
    /* a buffer of another cl_context */
    cl_device_id dev = (cl_device_id)native.device;
    cl_int err;
    cl_context other = cl.CreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cr_assert_eq(err, CL_SUCCESS);
    cl_mem foreign = buffer(other, A->row_ptr, rp_bytes);
    ASSERT_STATUS(magnus_device_csr_wrap(&d, ctx, A->rows, A->cols, A->nnz, A->type, foreign, ci,
                                         val),
                  MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(magnus_last_error(), "another cl_context") != NULL, "%s",
              magnus_last_error());
    /* NULLs, bad sizes and types */
    ASSERT_STATUS(magnus_device_csr_wrap(&d, ctx, A->rows, A->cols, A->nnz, A->type, NULL, ci, val),
                  MAGNUS_ERROR_NULL_POINTER);
    ASSERT_STATUS(magnus_device_csr_wrap(&d, ctx, A->rows, A->cols, A->nnz, A->type, rp, NULL, val),
                  MAGNUS_ERROR_NULL_POINTER);
    ASSERT_STATUS(magnus_device_csr_wrap(NULL, ctx, A->rows, A->cols, A->nnz, A->type, rp, ci, val),
                  MAGNUS_ERROR_NULL_POINTER);
    ASSERT_STATUS(magnus_device_csr_wrap(&d, ctx, -1, A->cols, A->nnz, A->type, rp, ci, val),
                  MAGNUS_ERROR_INVALID_ARGUMENT);
    ASSERT_STATUS(magnus_device_csr_wrap(&d, ctx, A->rows, A->cols, A->nnz, (magnus_value_type)9,
                                         rp, ci, val),
                  MAGNUS_ERROR_UNSUPPORTED_TYPE);
    ASSERT_STATUS(magnus_context_native(NULL, ctx), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_eq(refcount(rp, 1), 1);
    cr_assert_eq(refcount(ci, 1), 1);
    cr_assert_eq(refcount(val, 1), 1);
    /* no entries: col_idx and values may be NULL */
    int64_t zeros[31] = {0};
    cl_mem zrp = buffer(c, zeros, sizeof zeros);
    ASSERT_OK(magnus_device_csr_wrap(&d, ctx, 30, 20, 0, MAGNUS_FLOAT32, zrp, NULL, NULL));
    magnus_device_csr dC = NULL;
    magnus_device_csr u;
    magnus_csr B;
    ASSERT_OK(magnus_gen_uniform(&B, 20, 10, 3, 4, MAGNUS_FLOAT32));
    ASSERT_OK(magnus_device_csr_upload(&u, ctx, B));
    ASSERT_OK(magnus_spgemm_device(&dC, ctx, d, u, NULL, NULL));
    int64_t r, cc, n;
    ASSERT_OK(magnus_device_csr_shape(&r, &cc, &n, dC));
    cr_assert(r == 30 && cc == 10 && n == 0);
    magnus_device_csr_free(&dC);
    magnus_device_csr_free(&u);
    ASSERT_OK(magnus_device_csr_free(&d));
    cr_assert_eq(refcount(zrp, 1), 1);
    cl.ReleaseMemObject(zrp);
    cl.ReleaseMemObject(foreign);
    cl.ReleaseContext(other);
    cl.ReleaseMemObject(rp);
    cl.ReleaseMemObject(ci);
    cl.ReleaseMemObject(val);
    cl.ReleaseMemObject(bad);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

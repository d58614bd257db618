/*
 * Borrowing a device matrix's buffers (magnus_device_csr_native), on every backend: the
 * handles of an uploaded matrix and of a product C, wrapped again (wrap(native(C))) give the
 * same matrix on download and share its memory (values written through the wrapper are C's),
 * a wrapper's handles are the caller's own, nothing is allocated or counted, and NULL or freed
 * handles are refused. On OpenCL the re-wrap itself checks that each cl_mem is of the context
 * and large enough; on CUDA cuda_pointers_read_back reads C's arrays through the driver API
 * at the returned device pointers, as another CUDA library would.
 */
#include <dlfcn.h>
#include <string.h>

#include "device_test_main.h"
#include "status_test_util.h"

/* native(d), checked against d's shape and backend. */
static magnus_device_csr_buffers native_of(magnus_context ctx, magnus_device_csr d) {
    magnus_device_csr_buffers b;
    ASSERT_OK(magnus_device_csr_native(&b, d));
    int64_t rows, cols, nnz;
    ASSERT_OK(magnus_device_csr_shape(&rows, &cols, &nnz, d));
    cr_assert_eq(b.backend, ctx->device.backend);
    cr_assert(b.rows == rows && b.cols == cols && b.nnz == nnz);
    cr_assert_eq(b.type, d->type);
    /* every array is a live buffer, even without entries (a placeholder) */
    cr_assert(b.row_ptr && b.col_idx && b.values);
    return b;
}

/* wrap(native(d)): the same matrix on download as `expected`; returns the wrapper. */
static magnus_device_csr rewrap(magnus_context ctx, magnus_device_csr d,
                                const magnus_csr_s *expected) {
    magnus_device_csr_buffers b = native_of(ctx, d);
    const uint64_t before = ctx->memory_in_use;
    magnus_device_csr w = NULL;
    ASSERT_OK(magnus_device_csr_wrap(&w, ctx, b.rows, b.cols, b.nnz, b.type, b.row_ptr,
                                     b.col_idx, b.values));
    cr_assert_eq(ctx->memory_in_use, before, "borrowing allocates nothing");
    magnus_csr back;
    ASSERT_OK(magnus_device_csr_download(&back, w));
    ASSERT_OK(magnus_csr_compare(NULL, back, expected, NULL, 0));
    magnus_csr_free(&back);
    /* a wrapper's handles are the ones it was given */
    magnus_device_csr_buffers again = native_of(ctx, w);
    cr_assert(again.row_ptr == b.row_ptr && again.col_idx == b.col_idx &&
              again.values == b.values);
    return w;
}

static void uploaded_and_product(magnus_value_type type) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = magnus_test_rmat(7, 4, 11, type), C, M;
    ASSERT_OK(magnus_reference_spgemm(&C, &M, A, A));
    magnus_device_csr dA, dC = NULL;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    magnus_device_csr wA = rewrap(ctx, dA, A);
    ASSERT_OK(magnus_spgemm_device(&dC, ctx, dA, dA, NULL, NULL));
    /* C through the wrapper equals C (same handles, validated structure) */
    magnus_csr got;
    ASSERT_OK(magnus_device_csr_download(&got, dC));
    ASSERT_OK(magnus_csr_compare(NULL, got, C, M, type == MAGNUS_FLOAT64 ? 1e-12 : 1e-5));
    magnus_device_csr wC = rewrap(ctx, dC, got);
    /* the caller may write the values: written through the wrapper, they are C's */
    size_t vbytes = (size_t)got->nnz * magnus_value_size(type);
    for (int64_t q = 0; q < got->nnz; q++) {
        if (type == MAGNUS_FLOAT64) ((double *)got->values)[q] = (double)q - 3.5;
        else ((float *)got->values)[q] = (float)q - 3.5f;
    }
    ASSERT_OK(magnus_device_csr_write_values(wC, got->values, got->nnz, type));
    magnus_csr back;
    ASSERT_OK(magnus_device_csr_download(&back, dC));
    cr_assert(memcmp(back->values, got->values, vbytes) == 0);
    /* and the product of wrapped operands is the product of the originals */
    magnus_device_csr dC2 = NULL;
    ASSERT_OK(magnus_spgemm_device(&dC2, ctx, wA, wA, NULL, NULL));
    int64_t nnz2;
    ASSERT_OK(magnus_device_csr_shape(NULL, NULL, &nnz2, dC2));
    cr_assert_eq(nnz2, got->nnz);
    /* wrappers first: the buffers stay dA's and dC's until they are freed */
    ASSERT_OK(magnus_device_csr_free(&dC2));
    ASSERT_OK(magnus_device_csr_free(&wC));
    ASSERT_OK(magnus_device_csr_free(&wA));
    ASSERT_OK(magnus_device_csr_free(&dC));
    ASSERT_OK(magnus_device_csr_free(&dA));
    MAGNUS_TEST_FREE_CSRS(&back, &got, &A, &C, &M);
}

Test(device_csr_native, uploaded_and_product_f32) { uploaded_and_product(MAGNUS_FLOAT32); }

Test(device_csr_native, uploaded_and_product_f64) {
    magnus_test_require_fp64(magnus_test_context());
    uploaded_and_product(MAGNUS_FLOAT64);
}

Test(device_csr_native, no_entries) {
    magnus_context ctx = magnus_test_context();
    magnus_csr Z;
    ASSERT_OK(magnus_csr_new(&Z, 9, 4, 0, MAGNUS_FLOAT32));
    magnus_device_csr dZ;
    ASSERT_OK(magnus_device_csr_upload(&dZ, ctx, Z));
    magnus_device_csr w = rewrap(ctx, dZ, Z);
    ASSERT_OK(magnus_device_csr_free(&w));
    ASSERT_OK(magnus_device_csr_free(&dZ));
    magnus_csr_free(&Z);
}

Test(device_csr_native, refusals) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A;
    ASSERT_OK(magnus_gen_uniform(&A, 20, 20, 3, magnus_test_seed(5), MAGNUS_FLOAT32));
    magnus_device_csr dA;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    ASSERT_STATUS(magnus_device_csr_native(NULL, dA), MAGNUS_ERROR_NULL_POINTER);
    cr_assert(strstr(magnus_last_error(), "out is NULL") != NULL, "%s", magnus_last_error());
    magnus_device_csr_buffers b;
    memset(&b, 0xab, sizeof b);
    ASSERT_STATUS(magnus_device_csr_native(&b, NULL), MAGNUS_ERROR_NULL_POINTER);
    cr_assert_null(b.row_ptr, "the output is zeroed on failure");
    cr_assert(strstr(magnus_last_error(), "magnus_device_csr_native") != NULL, "%s",
              magnus_last_error());
    /* a freed handle, as magnus_device_csr_free leaves it (a fake one, to stay defined) */
    struct magnus_device_csr_s freed;
    memset(&freed, 0, sizeof freed);
    freed.magic = MAGNUS_MAGIC_FREED;
    ASSERT_STATUS(magnus_device_csr_native(&b, &freed), MAGNUS_ERROR_INVALID_HANDLE);
    cr_assert(strstr(magnus_last_error(), "freed") != NULL, "%s", magnus_last_error());
    cr_assert_null(b.values);
    ASSERT_OK(magnus_device_csr_free(&dA));
    ASSERT_STATUS(magnus_device_csr_native(&b, dA), MAGNUS_ERROR_NULL_POINTER); /* now NULL */
    magnus_csr_free(&A);
}

/* CUDA: C's arrays read at the returned CUdeviceptrs with cuMemcpyDtoH, outside magnus. */
Test(device_csr_native, cuda_pointers_read_back) {
    magnus_context ctx = magnus_test_context();
    if (ctx->device.backend != MAGNUS_BACKEND_CUDA) cr_skip_test("the device is not CUDA");
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    cr_assert_not_null(lib, "%s", dlerror());
    int (*CtxSetCurrent)(void *);
    int (*MemcpyDtoH)(void *, unsigned long long, size_t);
    *(void **)&CtxSetCurrent = dlsym(lib, "cuCtxSetCurrent");
    *(void **)&MemcpyDtoH = dlsym(lib, "cuMemcpyDtoH_v2");
    cr_assert(CtxSetCurrent && MemcpyDtoH);
    magnus_native_handles nh;
    ASSERT_OK(magnus_context_native(&nh, ctx));
    cr_assert_eq(CtxSetCurrent(nh.context), 0);
    magnus_csr A = magnus_test_rmat(8, 5, 7, MAGNUS_FLOAT32), C;
    magnus_device_csr dA, dC = NULL;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    ASSERT_OK(magnus_spgemm_device(&dC, ctx, dA, dA, NULL, NULL));
    ASSERT_OK(magnus_device_csr_download(&C, dC));
    magnus_device_csr_buffers b = native_of(ctx, dC);
    magnus_csr R;
    ASSERT_OK(magnus_csr_new(&R, C->rows, C->cols, C->nnz, MAGNUS_FLOAT32));
    cr_assert_eq(MemcpyDtoH(R->row_ptr, (unsigned long long)(uintptr_t)b.row_ptr,
                            (size_t)(C->rows + 1) * 8), 0);
    cr_assert_eq(MemcpyDtoH(R->col_idx, (unsigned long long)(uintptr_t)b.col_idx,
                            (size_t)C->nnz * 4), 0);
    cr_assert_eq(MemcpyDtoH(R->values, (unsigned long long)(uintptr_t)b.values,
                            (size_t)C->nnz * 4), 0);
    ASSERT_OK(magnus_csr_compare(NULL, R, C, NULL, 0));
    ASSERT_OK(magnus_device_csr_free(&dC));
    ASSERT_OK(magnus_device_csr_free(&dA));
    MAGNUS_TEST_FREE_CSRS(&R, &C, &A);
}

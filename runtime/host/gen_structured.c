/*
 * Generators of regular test matrices: 2D/3D Laplacians (stencils on a grid), a band, and
 * uniformly random rows. Grid point (x, y, z) is row x + nx*(y + ny*z), so a row's neighbours
 * come in increasing column order (-nx*ny, -nx, -1, 0, +1, +nx, +nx*ny) and rows need no sort.
 */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "prng.h"
#include "sample_columns.h"
#include "sort_columns.h"

#define STREAM_BAND_VALUES 0x62616e64ULL   /* "band" */
#define STREAM_UNIFORM_COUNTS 0x636e74ULL  /* "cnt" */
#define STREAM_UNIFORM_COLUMNS 0x636f6cULL /* "col" */
#define STREAM_UNIFORM_VALUES 0x76616cULL  /* "val" */

static void set_value(magnus_csr A, int64_t p, double v) {
    if (A->type == MAGNUS_FLOAT32)
        ((float *)A->values)[p] = (float)v;
    else
        ((double *)A->values)[p] = v;
}

static void set_random_value(magnus_csr A, int64_t p, magnus_prng *g) {
    uint64_t bits = magnus_prng_next(g);
    if (A->type == MAGNUS_FLOAT32)
        ((float *)A->values)[p] = magnus_prng_value32(bits);
    else
        ((double *)A->values)[p] = magnus_prng_value64(bits);
}

/* Checks grid sides and returns the number of points in *n. */
static magnus_status grid_size(const char *who, int64_t nx, int64_t ny, int64_t nz, int64_t *n,
                               magnus_value_type type) {
    if (nx < 0 || ny < 0 || nz < 0)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s: negative grid side %lld x %lld x %lld", who, (long long)nx,
                            (long long)ny, (long long)nz);
    if (magnus_value_size(type) == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "%s: value type %d", who, (int)type);
    int64_t nxy;
    if (!magnus_mul_i64(nx, ny, &nxy) || !magnus_mul_i64(nxy, nz, n))
        return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "%s: grid %lld x %lld x %lld overflows",
                            who, (long long)nx, (long long)ny, (long long)nz);
    if (*n > INT32_MAX)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s: grid %lld x %lld x %lld has %lld points, more than 2^31-1 rows",
                            who, (long long)nx, (long long)ny, (long long)nz, (long long)*n);
    return MAGNUS_SUCCESS;
}

/* The 2D stencil is the 3D one with nz = 1 (the z neighbours never exist). */
static magnus_status laplacian(magnus_csr *out, const char *who, int64_t nx, int64_t ny, int64_t nz,
                               double diagonal, magnus_value_type type) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "%s: output is NULL", who);
    *out = NULL;
    int64_t n = 0;
    magnus_status s = grid_size(who, nx, ny, nz, &n, type);
    if (s) return s;
    /* 7 per point, minus the missing neighbour at each face; n < 2^31 keeps this in range. */
    int64_t nnz = 7 * n - 2 * ny * nz - 2 * nx * nz - 2 * nx * ny;
    if (n == 0) nnz = 0;
    magnus_csr A;
    if ((s = magnus_csr_new(&A, n, n, nnz, type))) return s;
    int64_t p = 0, nxy = nx * ny;
    for (int64_t z = 0; z < nz; z++)
        for (int64_t y = 0; y < ny; y++)
            for (int64_t x = 0; x < nx; x++) {
                int64_t i = x + nx * (y + ny * z);
                int64_t neighbours[7];
                int count = 0;
                if (z > 0) neighbours[count++] = i - nxy;
                if (y > 0) neighbours[count++] = i - nx;
                if (x > 0) neighbours[count++] = i - 1;
                neighbours[count++] = i;
                if (x + 1 < nx) neighbours[count++] = i + 1;
                if (y + 1 < ny) neighbours[count++] = i + nx;
                if (z + 1 < nz) neighbours[count++] = i + nxy;
                for (int k = 0; k < count; k++) {
                    A->col_idx[p] = (int32_t)neighbours[k];
                    set_value(A, p, neighbours[k] == i ? diagonal : -1.0);
                    p++;
                }
                A->row_ptr[i + 1] = p;
            }
    *out = A;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_gen_laplacian_2d(magnus_csr *out, int64_t nx, int64_t ny,
                                      magnus_value_type type) {
    /* A 2D grid with a side of 0 has no points: nz = 1 must not turn it into one. */
    return laplacian(out, "laplace2d", nx, ny, 1, 4.0, type);
}

magnus_status magnus_gen_laplacian_3d(magnus_csr *out, int64_t nx, int64_t ny, int64_t nz,
                                      magnus_value_type type) {
    return laplacian(out, "laplace3d", nx, ny, nz, 6.0, type);
}

magnus_status magnus_gen_banded(magnus_csr *out, int64_t n, int64_t lower, int64_t upper,
                                uint64_t seed, magnus_value_type type) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_gen_banded: output is NULL");
    *out = NULL;
    if (n < 0 || lower < 0 || upper < 0 || n > INT32_MAX)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "banded: n = %lld, lower = %lld, upper = %lld (need "
                            "0 <= n <= 2^31-1, lower >= 0, upper >= 0)",
                            (long long)n, (long long)lower, (long long)upper);
    if (magnus_value_size(type) == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "banded: value type %d",
                            (int)type);
    /* A band wider than the matrix is the whole matrix. */
    if (n > 0 && lower > n - 1) lower = n - 1;
    if (n > 0 && upper > n - 1) upper = n - 1;
    int64_t nnz = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t first = i - lower > 0 ? i - lower : 0;
        int64_t last = i + upper < n - 1 ? i + upper : n - 1;
        if (!magnus_add_i64(nnz, last - first + 1, &nnz))
            return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "banded: nnz overflows");
    }
    magnus_csr A;
    magnus_status s = magnus_csr_new(&A, n, n, nnz, type);
    if (s) return s;
    magnus_prng g;
    magnus_prng_seed(&g, magnus_prng_derive(seed, STREAM_BAND_VALUES));
    int64_t p = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t first = i - lower > 0 ? i - lower : 0;
        int64_t last = i + upper < n - 1 ? i + upper : n - 1;
        for (int64_t j = first; j <= last; j++) {
            A->col_idx[p] = (int32_t)j;
            set_random_value(A, p, &g);
            p++;
        }
        A->row_ptr[i + 1] = p;
    }
    *out = A;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_gen_uniform(magnus_csr *out, int64_t rows, int64_t cols, double nnz_per_row,
                                 uint64_t seed, magnus_value_type type) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_gen_uniform: output is NULL");
    *out = NULL;
    if (rows < 0 || cols < 0 || rows > INT32_MAX || cols > INT32_MAX || !isfinite(nnz_per_row) ||
        nnz_per_row < 0)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "uniform: %lld x %lld with %g per row (need sizes in "
                            "0..2^31-1 and a finite count >= 0)",
                            (long long)rows, (long long)cols, nnz_per_row);
    if (magnus_value_size(type) == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "uniform: value type %d",
                            (int)type);
    /* Row lengths: floor(nnz_per_row), plus one with probability equal to the fraction, so the
     * mean is nnz_per_row; capped at cols. */
    double whole = floor(nnz_per_row), fraction = nnz_per_row - whole;
    int64_t base = whole >= (double)cols ? cols : (int64_t)whole;
    magnus_csr A = NULL;
    int32_t *slots = NULL;
    magnus_status s;
    int64_t *row_ptr = magnus_host_calloc((size_t)rows + 1, sizeof *row_ptr);
    if (!row_ptr) goto oom;
    magnus_prng g;
    magnus_prng_seed(&g, magnus_prng_derive(seed, STREAM_UNIFORM_COUNTS));
    int64_t longest = 0;
    for (int64_t i = 0; i < rows; i++) {
        int64_t k = base;
        if (fraction > 0 && magnus_prng_unit(&g) < fraction && k < cols) k++;
        if (k > longest) longest = k;
        if (!magnus_add_i64(row_ptr[i], k, &row_ptr[i + 1])) {
            s = magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "uniform: nnz overflows");
            goto fail;
        }
    }
    if ((s = magnus_csr_new(&A, rows, cols, row_ptr[rows], type))) goto fail;
    memcpy(A->row_ptr, row_ptr, ((size_t)rows + 1) * sizeof *row_ptr);

    /* Hash table at least twice the longest row, so probes stay short. */
    int bits = magnus_key_bits(2 * longest > 1 ? 2 * longest : 2);
    column_set set = {.mask = ((uint64_t)1 << bits) - 1};
    int32_t *scratch;
    slots =
        magnus_host_malloc(((size_t)1 << bits) * sizeof *slots + (size_t)longest * sizeof *scratch);
    if (!slots) goto oom;
    set.slots = slots;
    scratch = slots + ((size_t)1 << bits);
    magnus_prng_seed(&g, magnus_prng_derive(seed, STREAM_UNIFORM_COLUMNS));
    int key_bits = magnus_key_bits(cols);
    for (int64_t i = 0; i < rows; i++) {
        int32_t *row = A->col_idx + A->row_ptr[i];
        int64_t k = A->row_ptr[i + 1] - A->row_ptr[i];
        sample_columns(row, k, cols, &set, &g);
        magnus_sort_columns(row, scratch, k, key_bits);
    }
    magnus_prng_seed(&g, magnus_prng_derive(seed, STREAM_UNIFORM_VALUES));
    for (int64_t p = 0; p < A->nnz; p++) set_random_value(A, p, &g);
    magnus_host_free(slots);
    magnus_host_free(row_ptr);
    *out = A;
    return MAGNUS_SUCCESS;
oom:
    s = magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                     "uniform: cannot allocate %lld x %lld with %g per row",
                     (long long)rows, (long long)cols, nnz_per_row);
fail:
    magnus_host_free(slots);
    magnus_host_free(row_ptr);
    magnus_csr_free(&A);
    return s;
}

/*
 * Matrix Market triplets -> CSR: a counting sort by row (count, prefix sum, scatter), then
 * each row sorted by column and its duplicates summed. Files written column by column (the
 * usual order) give rows that are already sorted after the scatter, so each row is checked
 * before it is sorted. Pattern files carry no values through the sort; only when a row
 * repeats a column (rare) are values of 1 made, so that the duplicates sum as a real file's
 * do (an entry stored twice is 2, as `magnus info` says and SciPy's reading gives).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "host_limit.h"
#include "mm_internal.h"

/* Rows up to this length are insertion-sorted; longer ones merge-sorted from runs this long. */
#define MM_INSERTION_MAX 32

void magnus_mm_triplets_free(mm_triplets *t) {
    magnus_host_free(t->row);
    magnus_host_free(t->col);
    magnus_host_free(t->val);
    t->row = t->col = NULL;
    t->val = NULL;
    t->count = t->capacity = 0;
}

/* Stable insertion sort of col[0..n) carrying val (val may be NULL). */
static void insertion_sort(int32_t *col, double *val, int64_t n) {
    for (int64_t i = 1; i < n; i++) {
        int32_t c = col[i];
        double v = val ? val[i] : 0;
        int64_t j = i - 1;
        while (j >= 0 && col[j] > c) {
            col[j + 1] = col[j];
            if (val) val[j + 1] = val[j];
            j--;
        }
        col[j + 1] = c;
        if (val) val[j + 1] = v;
    }
}

/*
 * Stable bottom-up merge sort of col[0..n) carrying val (val may be NULL); tmp_col / tmp_val
 * have room for n entries. Stability keeps duplicates in file order, so their sum does not
 * depend on the sort.
 */
static void merge_sort(int32_t *col, double *val, int64_t n, int32_t *tmp_col, double *tmp_val) {
    for (int64_t b = 0; b < n; b += MM_INSERTION_MAX)
        insertion_sort(col + b, val ? val + b : NULL, n - b < MM_INSERTION_MAX ? n - b : MM_INSERTION_MAX);
    int32_t *src_c = col, *dst_c = tmp_col;
    double *src_v = val, *dst_v = val ? tmp_val : NULL;
    for (int64_t width = MM_INSERTION_MAX; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                bool take_right = src_c[j] < src_c[i];
                int64_t from = take_right ? j++ : i++;
                dst_c[k] = src_c[from];
                if (src_v) dst_v[k] = src_v[from];
                k++;
            }
            for (; i < mid; i++, k++) {
                dst_c[k] = src_c[i];
                if (src_v) dst_v[k] = src_v[i];
            }
            for (; j < hi; j++, k++) {
                dst_c[k] = src_c[j];
                if (src_v) dst_v[k] = src_v[j];
            }
        }
        int32_t *tc = src_c;
        src_c = dst_c;
        dst_c = tc;
        double *tv = src_v;
        src_v = dst_v;
        dst_v = tv;
    }
    if (src_c != col) {
        memcpy(col, src_c, (size_t)n * sizeof *col);
        if (val) memcpy(val, src_v, (size_t)n * sizeof *val);
    }
}

static bool is_nondecreasing(const int32_t *col, int64_t n) {
    for (int64_t i = 1; i < n; i++)
        if (col[i] < col[i - 1]) return false;
    return true;
}

/* Counting sort by row: row_ptr receives the expanded row starts, col/val the entries. */
static void scatter(int64_t *row_ptr, int32_t *col, double *val, const mm_triplets *t,
                    int64_t rows, magnus_mm_symmetry symmetry) {
    bool mirror = symmetry != MAGNUS_MM_GENERAL;
    double sign = symmetry == MAGNUS_MM_SKEW_SYMMETRIC ? -1.0 : 1.0;
    for (int64_t k = 0; k < t->count; k++) {
        row_ptr[t->row[k] + 1]++;
        if (mirror && t->row[k] != t->col[k]) row_ptr[t->col[k] + 1]++;
    }
    for (int64_t i = 0; i < rows; i++) row_ptr[i + 1] += row_ptr[i];
    /* row_ptr[i] is used as the next free slot of row i; afterwards it holds row i+1's start. */
    for (int64_t k = 0; k < t->count; k++) {
        int32_t r = t->row[k], c = t->col[k];
        int64_t p = row_ptr[r]++;
        col[p] = c;
        if (val) val[p] = t->val[k];
        if (mirror && r != c) {
            p = row_ptr[c]++;
            col[p] = r;
            if (val) val[p] = sign * t->val[k];
        }
    }
    memmove(row_ptr + 1, row_ptr, (size_t)rows * sizeof *row_ptr);
    row_ptr[0] = 0;
}

/* Sorts every row by column, carrying val (NULL for a pattern file). */
static void sort_rows(const int64_t *row_ptr, int32_t *col, double *val, int64_t rows,
                      int32_t *tmp_col, double *tmp_val) {
    for (int64_t i = 0; i < rows; i++) {
        int64_t begin = row_ptr[i], n = row_ptr[i + 1] - begin;
        int32_t *c = col + begin;
        if (!is_nondecreasing(c, n)) {
            double *v = val ? val + begin : NULL;
            if (n <= MM_INSERTION_MAX) insertion_sort(c, v, n);
            else merge_sort(c, v, n, tmp_col, tmp_val);
        }
    }
}

/* Whether a sorted row repeats a column. */
static bool has_duplicates(const int64_t *row_ptr, const int32_t *col, int64_t rows) {
    for (int64_t i = 0; i < rows; i++)
        for (int64_t p = row_ptr[i] + 1; p < row_ptr[i + 1]; p++)
            if (col[p] == col[p - 1]) return true;
    return false;
}

/* Sums the duplicates of the sorted rows in place, in file order (the sort is stable);
 * row_ptr is rewritten for the result. */
static void merge_rows(int64_t *row_ptr, int32_t *col, double *val, int64_t rows) {
    int64_t write = 0, begin = 0;
    for (int64_t i = 0; i < rows; i++) {
        int64_t end = row_ptr[i + 1];
        row_ptr[i] = write;
        for (int64_t p = begin; p < end; p++) {
            if (p > begin && col[p] == col[write - 1]) {
                val[write - 1] += val[p];
                continue;
            }
            col[write] = col[p];
            val[write] = val[p];
            write++;
        }
        begin = end;
    }
    row_ptr[rows] = write;
}

static int64_t longest_unsorted_row(const int64_t *row_ptr, const int32_t *col, int64_t rows) {
    int64_t longest = 0;
    for (int64_t i = 0; i < rows; i++) {
        int64_t n = row_ptr[i + 1] - row_ptr[i];
        if (n > MM_INSERTION_MAX && n > longest && !is_nondecreasing(col + row_ptr[i], n))
            longest = n;
    }
    return longest;
}

/* Room for n entries: n columns and, unless the file is a pattern, n values. False when out of
 * memory (what was allocated is in *col / *val for the caller to free). */
static bool alloc_entries(int64_t n, bool pattern, int32_t **col, double **val) {
    *col = magnus_host_malloc((size_t)n * sizeof **col);
    if (!*col) return false;
    if (pattern) return true;
    *val = magnus_host_malloc((size_t)n * sizeof **val);
    return *val != NULL;
}

/* Shrinks p to `bytes` if possible; a failed shrink keeps the larger block. */
static void *shrink(void *p, size_t bytes) {
    void *q = magnus_host_realloc(p, bytes);
    return q ? q : p;
}

magnus_status magnus_mm_build_csr(magnus_csr *out, mm_triplets *t, int64_t rows, int64_t cols,
                                  magnus_mm_symmetry symmetry, magnus_value_type type, const char *path) {
    int64_t *row_ptr = NULL;
    int32_t *col = NULL, *tmp_col = NULL;
    double *val = NULL, *tmp_val = NULL;
    void *values = NULL;
    magnus_csr A = NULL;

    int64_t expanded = t->count;
    if (symmetry != MAGNUS_MM_GENERAL)
        for (int64_t k = 0; k < t->count; k++) expanded += t->row[k] != t->col[k];
    bool pattern = t->val == NULL;
    /* What the sizes imply, checked before it is asked for: the row pointer, the entries as
     * read (still held) and as scattered, in doubles (the header's rows alone can ask for
     * 16 GiB). */
    {
        const double entry = pattern ? 4.0 : 12.0, triplet = pattern ? 8.0 : 16.0;
        const double need = ((double)rows + 1) * 8 + (double)t->count * triplet +
                            (double)expanded * entry;
        char what[600];
        snprintf(what, sizeof what,
                 "%s: reading a %lld x %lld matrix with %lld entries (its size line)",
                 path ? path : "Matrix Market input", (long long)rows, (long long)cols,
                 (long long)expanded);
        magnus_status s =
            magnus_host_memory_check(need > 1.8e19 ? UINT64_MAX : (uint64_t)need, what);
        if (s) {
            magnus_mm_triplets_free(t);
            return s;
        }
    }
    row_ptr = magnus_host_calloc((size_t)rows + 1, sizeof *row_ptr);
    if (!row_ptr) goto oom;
    if (!alloc_entries(expanded, pattern, &col, &val)) goto oom;
    scatter(row_ptr, col, val, t, rows, symmetry);
    magnus_mm_triplets_free(t);

    int64_t longest = longest_unsorted_row(row_ptr, col, rows);
    if (longest > 0 && !alloc_entries(longest, pattern, &tmp_col, &tmp_val)) goto oom;
    sort_rows(row_ptr, col, val, rows, tmp_col, tmp_val);
    magnus_host_free(tmp_col);
    magnus_host_free(tmp_val);
    tmp_col = NULL;
    tmp_val = NULL;
    if (pattern && has_duplicates(row_ptr, col, rows)) {
        /* values of 1, summed like a real file's: a double per entry, checked first */
        char what[600];
        snprintf(what, sizeof what, "%s: summing the duplicate entries of a %lld x %lld pattern "
                 "matrix with %lld entries", path ? path : "Matrix Market input",
                 (long long)rows, (long long)cols, (long long)expanded);
        magnus_status s = magnus_host_memory_check((uint64_t)expanded * sizeof *val, what);
        if (s) {
            magnus_host_free(row_ptr);
            magnus_host_free(col);
            return s;
        }
        val = magnus_host_malloc((size_t)expanded * sizeof *val);
        if (!val) goto oom;
        for (int64_t k = 0; k < expanded; k++) val[k] = 1.0;
    }
    if (val) merge_rows(row_ptr, col, val, rows);
    int64_t nnz = row_ptr[rows];
    col = shrink(col, (size_t)nnz * sizeof *col);

    /* Values in the requested type; the double buffer is reused where it can be. */
    if (!val) {
        values = magnus_host_malloc((size_t)nnz * magnus_value_size(type));
        if (!values) goto oom;
        for (int64_t k = 0; k < nnz; k++) {
            if (type == MAGNUS_FLOAT32) ((float *)values)[k] = 1.0f;
            else ((double *)values)[k] = 1.0;
        }
    } else if (type == MAGNUS_FLOAT32) {
        /* In place: float k is written at byte 4k, at or before the double it comes from. */
        char *bytes = (char *)val;
        for (int64_t k = 0; k < nnz; k++) {
            double d;
            memcpy(&d, bytes + 8 * k, sizeof d);
            float f = (float)d;
            memcpy(bytes + 4 * k, &f, sizeof f);
        }
        values = shrink(val, (size_t)nnz * sizeof(float));
        val = NULL;
    } else {
        values = shrink(val, (size_t)nnz * sizeof(double));
        val = NULL;
    }

    A = magnus_csr_handle_of(rows, cols, nnz, type, row_ptr, col, values);
    if (!A) goto oom;
    *out = A;
    return MAGNUS_SUCCESS;
oom:
    magnus_mm_triplets_free(t);
    magnus_host_free(row_ptr);
    magnus_host_free(col);
    magnus_host_free(val);
    magnus_host_free(tmp_col);
    magnus_host_free(tmp_val);
    magnus_host_free(values);
    return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                        "%s: out of host memory building the %lld x %lld CSR matrix", path,
                        (long long)rows, (long long)cols);
}

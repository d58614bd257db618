/*
 * CPU reference SpGEMM: C = A·B by Gustavson's row-by-row method.
 *
 * This is the yardstick every device path is checked against, so it is written to be plainly
 * correct first and shares no code with the device paths. It is still fast enough to check
 * products of 10^8 intermediate products in seconds: two passes (symbolic count, then
 * numeric), each over rows handed out dynamically to a few threads, each thread with its own
 * accumulator.
 *
 * The accumulator is dense (one slot per column of B) when B's columns are few beside the
 * work: at most REFERENCE_DENSE_MIN_COLUMNS, or at most REFERENCE_DENSE_PER_PRODUCT times
 * the longest row's products. Otherwise (a 2 x (2^31-1) B, say) it is a hash table sized
 * for the longest row's distinct columns, min(its products, B.cols), which is at most nnz(B):
 * the workspace is O(nnz), never O(columns) when the columns far outnumber the entries.
 *
 * Per row i the dense accumulator holds:
 *   marker[j]  the last row that touched column j (so nothing is cleared between rows),
 *   acc[j]     the running sum of A[i,k]*B[k,j] in double (mag[j] the sum of |A[i,k]*B[k,j]|),
 *   touched    the columns seen in this row, in order of first touch, sorted at the end.
 * The hash accumulator holds the same per slot (keys[] the column, -1 when free; linear
 * probing in a power-of-two part of the table sized for this row's products), and clears the
 * slots it used after each row. Every product creates a structural entry, so cancellation
 * leaves an explicit zero, as in the device paths. Sums run in the order of A's row, then B's
 * row, with either accumulator, so the result depends neither on the number of threads nor on
 * which accumulator ran.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "csr_products.h"
#include "host_limit.h"
#include "internal.h"
#include "reference_spgemm.h"
#include "sort_columns.h"

/* Rows handed to a thread at a time: small enough to balance power-law rows between threads,
 * large enough that the shared counter is not contended. */
#define REFERENCE_ROWS_PER_GRAB 32
/* Below this many intermediate products threads cost more than they save. */
#define REFERENCE_PARALLEL_MIN_PRODUCTS (1 << 20)
#define REFERENCE_MAX_THREADS 16
/* The dense accumulator for up to this many columns whatever the work: 64 Ki columns take
 * under 2 MiB a thread, and indexing beats hashing. */
#define REFERENCE_DENSE_MIN_COLUMNS (1 << 16)
/* ... and beyond that while the longest row's products are at least a quarter of the columns:
 * the hash table would be as large (twice the distinct columns, rounded up to a power of
 * two), and setting the dense markers costs no more than that row's work. */
#define REFERENCE_DENSE_PER_PRODUCT 4

enum reference_phase { PHASE_SYMBOLIC, PHASE_NUMERIC };

typedef struct reference_job {
    const magnus_csr_s *A, *B;
    magnus_csr C;         /* numeric phase: structure from row_ptr, filled here */
    magnus_csr magnitude; /* numeric phase, optional */
    int64_t *row_nnz;     /* symbolic phase: row_nnz[i+1] = nnz of row i of C */
    enum reference_phase phase;
    int key_bits; /* bits of a column index of C, for the radix sort */
    bool dense;   /* the accumulator: dense (B.cols slots) or hash (table_slots) */
    int64_t distinct_max; /* distinct columns of a row at most: min(products, B.cols) */
    int64_t table_slots;  /* hash: the table of the longest row (a power of two) */
    atomic_llong next_row;
} reference_job;

typedef struct reference_workspace {
    reference_job *job;
    int32_t *marker;  /* dense: B.cols row numbers; hash: table_slots columns (-1: free) */
    double *acc;      /* B.cols or table_slots */
    double *mag;      /* the same, NULL without magnitude output */
    int32_t *touched; /* distinct_max: dense, columns in order of first touch; hash, slots */
    int32_t *scratch; /* distinct_max, for the radix sort */
    int32_t *columns; /* hash: distinct_max, the columns of the row in order of first touch */
} reference_workspace;

static void workspace_free(reference_workspace *w) {
    magnus_host_free(w->marker);
    magnus_host_free(w->acc);
    magnus_host_free(w->mag);
    magnus_host_free(w->touched);
    magnus_host_free(w->scratch);
    magnus_host_free(w->columns);
    memset(w, 0, sizeof *w);
}

/* Slots of the accumulator's per-slot arrays, and their bytes with the per-column ones. */
static int64_t workspace_slots(const reference_job *job) {
    return job->dense ? job->B->cols : job->table_slots;
}
static uint64_t workspace_bytes(const reference_job *job, bool with_magnitude) {
    uint64_t slots = (uint64_t)workspace_slots(job), cols = (uint64_t)job->distinct_max;
    return slots * (4 + 8 + (with_magnitude ? 8 : 0)) + cols * (4 + 4 + (job->dense ? 0 : 4));
}

static bool workspace_alloc(reference_workspace *w, reference_job *job, bool with_magnitude) {
    memset(w, 0, sizeof *w);
    w->job = job;
    size_t slots = (size_t)workspace_slots(job), cols = (size_t)job->distinct_max;
    w->marker = magnus_host_malloc(slots * sizeof *w->marker);
    w->acc = magnus_host_malloc(slots * sizeof *w->acc);
    w->mag = with_magnitude ? magnus_host_malloc(slots * sizeof *w->mag) : NULL;
    w->touched = magnus_host_malloc(cols * sizeof *w->touched);
    w->scratch = magnus_host_malloc(cols * sizeof *w->scratch);
    w->columns = job->dense ? NULL : magnus_host_malloc(cols * sizeof *w->columns);
    if (!w->marker || !w->acc || (with_magnitude && !w->mag) || !w->touched || !w->scratch ||
        (!job->dense && !w->columns)) {
        workspace_free(w);
        return false;
    }
    return true;
}

/* The smallest power of two >= n (n <= 2^62), at least 16. */
static int64_t pow2_at_least(int64_t n) {
    int64_t p = 16;
    while (p < n) p <<= 1;
    return p;
}

/* The accumulator for A·B: dense or hash, and the sizes of its arrays. */
static void choose_accumulator(reference_job *job, int64_t row_products_max) {
    const int64_t cols = job->B->cols;
    job->distinct_max = row_products_max < cols ? row_products_max : cols;
    job->dense = cols <= REFERENCE_DENSE_MIN_COLUMNS ||
                 cols / REFERENCE_DENSE_PER_PRODUCT <= row_products_max;
    /* twice the distinct columns keeps linear probing short (load factor <= 1/2) */
    job->table_slots = job->dense ? 0 : pow2_at_least(2 * job->distinct_max);
}

/* The per-row counts, then one workspace per thread, after checking their total against the
 * host memory limit; a status (with its message) when they do not fit. *nws counts the
 * workspaces made either way, for reference_release. */
static magnus_status reference_alloc(reference_job *job, reference_workspace *ws, int *nws,
                                     int nthreads, bool with_magnitude) {
    uint64_t bytes = ((uint64_t)job->A->rows + 1) * 8 +
                     (uint64_t)nthreads * workspace_bytes(job, with_magnitude);
    char what[200];
    snprintf(what, sizeof what,
             "the accumulator workspace for %lld columns (%s, %d thread%s)",
             (long long)job->B->cols, job->dense ? "dense" : "hash", nthreads,
             nthreads == 1 ? "" : "s");
    magnus_status s = magnus_host_memory_check(bytes, what);
    if (s) return s;
    job->row_nnz = magnus_host_calloc((size_t)job->A->rows + 1, sizeof *job->row_nnz);
    if (!job->row_nnz) goto oom;
    for (; *nws < nthreads; (*nws)++)
        if (!workspace_alloc(&ws[*nws], job, with_magnitude)) goto oom;
    return MAGNUS_SUCCESS;
oom:
    return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "cannot allocate %s", what);
}

static void reference_release(reference_job *job, reference_workspace *ws, int nws) {
    for (int t = 0; t < nws; t++) workspace_free(&ws[t]);
    magnus_host_free(job->row_nnz);
    job->row_nnz = NULL;
}

static inline double value_at(const void *values, magnus_value_type type, int64_t p) {
    return type == MAGNUS_FLOAT32 ? (double)((const float *)values)[p]
                                  : ((const double *)values)[p];
}

static inline void store_value(void *values, magnus_value_type type, int64_t p, double v) {
    if (type == MAGNUS_FLOAT32)
        ((float *)values)[p] = (float)v;
    else
        ((double *)values)[p] = v;
}

/* ---- the hash accumulator -------------------------------------------------------------- */

/* log2 of the table part row i uses: twice its distinct columns at most (its products, or
 * B.cols), rounded up to a power of two, at least 16 slots; within the whole table. */
static int row_table_bits(const reference_job *job, int64_t i) {
    const magnus_csr_s *A = job->A, *B = job->B;
    int64_t products = 0;
    for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++)
        products += B->row_ptr[A->col_idx[p] + 1] - B->row_ptr[A->col_idx[p]];
    int64_t distinct = products < B->cols ? products : B->cols;
    int bits = 4;
    while (((int64_t)1 << bits) < 2 * distinct && ((int64_t)1 << bits) < job->table_slots) bits++;
    return bits;
}

/* The slot of column j in a table of 2^bits slots: its own, or the free one where it goes. */
static inline int64_t hash_slot(const int32_t *keys, int32_t j, int bits) {
    const uint64_t mask = ((uint64_t)1 << bits) - 1;
    /* Fibonacci hashing: the top bits of j times 2^64 / phi spread strided columns too */
    uint64_t h = ((uint64_t)(uint32_t)j * 0x9E3779B97F4A7C15ull) >> (64 - bits);
    while (keys[h] != j && keys[h] != -1) h = (h + 1) & mask;
    return (int64_t)h;
}

/* ---- rows ------------------------------------------------------------------------------ */

static void symbolic_row_dense(reference_workspace *w, int64_t i) {
    const magnus_csr_s *A = w->job->A, *B = w->job->B;
    int32_t *marker = w->marker;
    int32_t row = (int32_t)i;
    int64_t count = 0;
    for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++) {
        int32_t k = A->col_idx[p];
        for (int64_t q = B->row_ptr[k]; q < B->row_ptr[k + 1]; q++) {
            int32_t j = B->col_idx[q];
            if (marker[j] != row) {
                marker[j] = row;
                count++;
            }
        }
    }
    w->job->row_nnz[i + 1] = count;
}

static void symbolic_row_hash(reference_workspace *w, int64_t i) {
    const magnus_csr_s *A = w->job->A, *B = w->job->B;
    int32_t *keys = w->marker, *slots = w->touched;
    const int bits = row_table_bits(w->job, i);
    int64_t count = 0;
    for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++) {
        int32_t k = A->col_idx[p];
        for (int64_t q = B->row_ptr[k]; q < B->row_ptr[k + 1]; q++) {
            int32_t j = B->col_idx[q];
            int64_t h = hash_slot(keys, j, bits);
            if (keys[h] == -1) {
                keys[h] = j;
                slots[count++] = (int32_t)h;
            }
        }
    }
    for (int64_t t = 0; t < count; t++) keys[slots[t]] = -1;
    w->job->row_nnz[i + 1] = count;
}

/* The product v into slot s: its first (fresh) or a further one; with its magnitude when the
 * tolerance needs it (mag). */
static inline void add_product(double *acc, double *mag, int64_t s, bool fresh, double v) {
    const double m = v < 0 ? -v : v;
    if (fresh) {
        acc[s] = v;
        if (mag) mag[s] = m;
    } else {
        acc[s] += v;
        if (mag) mag[s] += m;
    }
}

/* Accumulates row i for one value type in slots: column j's own, marked by the row in
 * w->marker (dense), or its hash slot of 2^bits, keyed by column in w->marker (hashed); the
 * type and the kind are constants after inlining, so the inner loop branches on neither.
 * Lists each distinct column once in `out`, in the order first touched; returns how many. */
static inline int64_t accumulate_row_in(reference_workspace *w, int64_t i, bool hashed, int bits,
                                        magnus_value_type type, int32_t *out) {
    const magnus_csr_s *A = w->job->A, *B = w->job->B;
    int32_t *marker = w->marker;
    double *acc = w->acc, *mag = w->mag;
    const int32_t row = (int32_t)i;
    int64_t n = 0;
    for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++) {
        int32_t k = A->col_idx[p];
        double a = value_at(A->values, type, p);
        for (int64_t q = B->row_ptr[k]; q < B->row_ptr[k + 1]; q++) {
            const int32_t j = B->col_idx[q];
            const double v = a * value_at(B->values, type, q);
            const int64_t slot = hashed ? hash_slot(marker, j, bits) : j;
            const bool fresh = hashed ? marker[slot] == -1 : marker[slot] != row;
            if (fresh) {
                marker[slot] = hashed ? j : row;
                out[n++] = j;
            }
            add_product(acc, mag, slot, fresh, v);
        }
    }
    return n;
}

/* accumulate_row_in, dense: the sums by column, the columns in w->touched. */
static inline int64_t accumulate_row(reference_workspace *w, int64_t i, magnus_value_type type) {
    return accumulate_row_in(w, i, false, 0, type, w->touched);
}

/* accumulate_row_in with the hash table: the same sums in the same order, per slot; the
 * columns in w->columns. */
static inline int64_t accumulate_row_hash(reference_workspace *w, int64_t i, int bits,
                                          magnus_value_type type) {
    return accumulate_row_in(w, i, true, bits, type, w->columns);
}

static void numeric_row_dense(reference_workspace *w, int64_t i) {
    reference_job *job = w->job;
    magnus_csr C = job->C, M = job->magnitude;
    int64_t n = job->A->type == MAGNUS_FLOAT32 ? accumulate_row(w, i, MAGNUS_FLOAT32)
                                               : accumulate_row(w, i, MAGNUS_FLOAT64);
    int64_t base = C->row_ptr[i];
    int32_t *cols = C->col_idx + base;
    int64_t ncols = C->cols;
    if (n * 8 >= ncols) {
        /* A dense row: reading the marker in column order is cheaper than sorting. */
        int32_t row = (int32_t)i;
        int64_t t = 0;
        for (int64_t j = 0; j < ncols; j++)
            if (w->marker[j] == row) cols[t++] = (int32_t)j;
    } else {
        memcpy(cols, w->touched, (size_t)n * sizeof *cols);
        magnus_sort_columns(cols, w->scratch, n, job->key_bits);
    }
    for (int64_t t = 0; t < n; t++) store_value(C->values, C->type, base + t, w->acc[cols[t]]);
    if (M) {
        memcpy(M->col_idx + base, cols, (size_t)n * sizeof *cols);
        for (int64_t t = 0; t < n; t++) store_value(M->values, M->type, base + t, w->mag[cols[t]]);
    }
}

static void numeric_row_hash(reference_workspace *w, int64_t i) {
    reference_job *job = w->job;
    magnus_csr C = job->C, M = job->magnitude;
    const int bits = row_table_bits(job, i);
    int64_t n = job->A->type == MAGNUS_FLOAT32 ? accumulate_row_hash(w, i, bits, MAGNUS_FLOAT32)
                                               : accumulate_row_hash(w, i, bits, MAGNUS_FLOAT64);
    int64_t base = C->row_ptr[i];
    int32_t *cols = C->col_idx + base, *slots = w->touched;
    memcpy(cols, w->columns, (size_t)n * sizeof *cols);
    magnus_sort_columns(cols, w->scratch, n, job->key_bits);
    /* every slot found before any is freed: freeing one would cut the probe chains */
    for (int64_t t = 0; t < n; t++) slots[t] = (int32_t)hash_slot(w->marker, cols[t], bits);
    for (int64_t t = 0; t < n; t++) store_value(C->values, C->type, base + t, w->acc[slots[t]]);
    if (M) {
        memcpy(M->col_idx + base, cols, (size_t)n * sizeof *cols);
        for (int64_t t = 0; t < n; t++)
            store_value(M->values, M->type, base + t, w->mag[slots[t]]);
    }
    for (int64_t t = 0; t < n; t++) w->marker[slots[t]] = -1;
}

static void *reference_worker(void *arg) {
    reference_workspace *w = arg;
    reference_job *job = w->job;
    int64_t rows = job->A->rows;
    /* The marker holds row numbers, the hash keys columns; -1 (all bytes 0xff) is none. */
    memset(w->marker, 0xff, (size_t)workspace_slots(job) * sizeof *w->marker);
    for (;;) {
        int64_t first = atomic_fetch_add(&job->next_row, REFERENCE_ROWS_PER_GRAB);
        if (first >= rows) break;
        int64_t last =
            first + REFERENCE_ROWS_PER_GRAB < rows ? first + REFERENCE_ROWS_PER_GRAB : rows;
        for (int64_t i = first; i < last; i++) {
            if (job->phase == PHASE_SYMBOLIC)
                job->dense ? symbolic_row_dense(w, i) : symbolic_row_hash(w, i);
            else
                job->dense ? numeric_row_dense(w, i) : numeric_row_hash(w, i);
        }
    }
    return NULL;
}

/* Runs one phase on `nthreads` workspaces: the calling thread works as the first, and if a
 * thread cannot be started the others simply take its rows. */
static void run_phase(reference_job *job, reference_workspace *ws, int nthreads,
                      enum reference_phase phase) {
    job->phase = phase;
    atomic_store(&job->next_row, 0);
    pthread_t threads[REFERENCE_MAX_THREADS];
    bool started[REFERENCE_MAX_THREADS] = {false};
    for (int t = 1; t < nthreads; t++)
        started[t] = pthread_create(&threads[t], NULL, reference_worker, &ws[t]) == 0;
    reference_worker(&ws[0]);
    for (int t = 1; t < nthreads; t++)
        if (started[t]) pthread_join(threads[t], NULL);
}

/* The requested thread count, or (<= 0) one per online CPU for large products; never more
 * than the rows or REFERENCE_MAX_THREADS. Then the accumulator, from the longest row's
 * products. */
static int reference_setup(reference_job *job, int requested) {
    const magnus_csr_s *A = job->A, *B = job->B;
    /* a count past 2^63 is large: all threads, and no error (the multiply goes on); a row's
     * products are below nnz(B), but the count stops before it knows the longest row */
    magnus_products products;
    if (magnus_products_count(&products, A, B, INT64_MAX)) {
        products.total = INT64_MAX;
        products.row_max = INT64_MAX;
        magnus_error_clear();
    }
    int n = requested;
    if (n <= 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        n = products.total <= REFERENCE_PARALLEL_MIN_PRODUCTS || online < 1 ? 1
            : online > REFERENCE_MAX_THREADS ? REFERENCE_MAX_THREADS
                                             : (int)online;
    }
    if (n > REFERENCE_MAX_THREADS) n = REFERENCE_MAX_THREADS;
    if (n > A->rows) n = A->rows > 0 ? (int)A->rows : 1;
    job->key_bits = magnus_key_bits(B->cols);
    choose_accumulator(job, products.row_max);
    return n;
}

static magnus_status check_inputs(const magnus_csr_s *A, const magnus_csr_s *B) {
    magnus_status s;
    if ((s = magnus_csr_check_handle(A, "A")) || (s = magnus_csr_check_handle(B, "B"))) return s;
    if (A->type != B->type)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE,
                            "CPU reference: A is %s but B is %s (types must match)",
                            A->type == MAGNUS_FLOAT32 ? "float32" : "float64",
                            B->type == MAGNUS_FLOAT32 ? "float32" : "float64");
    if (A->cols != B->rows)
        return magnus_error(MAGNUS_ERROR_DIMENSION_MISMATCH,
                            "CPU reference: A is %lld x %lld, B is %lld x %lld "
                            "(A.cols must equal B.rows)",
                            (long long)A->rows, (long long)A->cols, (long long)B->rows,
                            (long long)B->cols);
    return magnus_csr_validate_operands(A, B, "CPU reference: ");
}

/* The job's threads and workspaces (with magnitudes when asked), then its symbolic phase:
 * job->row_nnz[i + 1] = the entries of row i. On failure nothing is held and the message
 * begins with `prefix`. */
static magnus_status reference_symbolic(reference_job *job, reference_workspace *ws, int *nws,
                                        int *nthreads, bool magnitude, const char *prefix) {
    *nthreads = reference_setup(job, *nthreads);
    magnus_status s = reference_alloc(job, ws, nws, *nthreads, magnitude);
    if (s) {
        reference_release(job, ws, *nws);
        magnus_error_prefix("%s", prefix);
        return s;
    }
    run_phase(job, ws, *nthreads, PHASE_SYMBOLIC);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_reference_spgemm_threads(magnus_csr *C, magnus_csr *magnitude,
                                              const magnus_csr_s *A, const magnus_csr_s *B,
                                              int nthreads) {
    magnus_error_clear();
    if (!C) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_reference_spgemm: C is NULL");
    *C = NULL;
    if (magnitude) *magnitude = NULL;
    magnus_status s = check_inputs(A, B);
    if (s) return s;

    reference_job job = {.A = A, .B = B};
    reference_workspace ws[REFERENCE_MAX_THREADS];
    int nws = 0;
    magnus_csr Cout = NULL, Mout = NULL;
    if ((s = reference_symbolic(&job, ws, &nws, &nthreads, magnitude != NULL, "CPU reference: ")))
        return s;
    for (int64_t i = 0; i < A->rows; i++) {
        if (!magnus_add_i64(job.row_nnz[i + 1], job.row_nnz[i], &job.row_nnz[i + 1])) {
            s = magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW,
                             "CPU reference: nnz(C) overflows 64 bits at row %lld",
                             (long long)i);
            goto fail;
        }
    }
    int64_t nnz = job.row_nnz[A->rows];
    if ((s = magnus_csr_new(&Cout, A->rows, B->cols, nnz, A->type))) goto fail;
    if (magnitude && (s = magnus_csr_new(&Mout, A->rows, B->cols, nnz, A->type))) goto fail;
    memcpy(Cout->row_ptr, job.row_nnz, ((size_t)A->rows + 1) * sizeof *job.row_nnz);
    if (Mout) memcpy(Mout->row_ptr, job.row_nnz, ((size_t)A->rows + 1) * sizeof *job.row_nnz);
    job.C = Cout;
    job.magnitude = Mout;
    run_phase(&job, ws, nthreads, PHASE_NUMERIC);

    reference_release(&job, ws, nws);
    *C = Cout;
    if (magnitude) *magnitude = Mout;
    return MAGNUS_SUCCESS;

fail:
    reference_release(&job, ws, nws);
    magnus_csr_free(&Cout);
    magnus_csr_free(&Mout);
    return s;
}

magnus_status magnus_reference_count(int64_t *nnz, const magnus_csr_s *A, const magnus_csr_s *B,
                                     int nthreads) {
    magnus_error_clear();
    if (!nnz) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_reference_count: nnz is NULL");
    *nnz = 0;
    magnus_status s = check_inputs(A, B);
    if (s) return s;
    reference_job job = {.A = A, .B = B};
    reference_workspace ws[REFERENCE_MAX_THREADS];
    int nws = 0;
    if ((s = reference_symbolic(&job, ws, &nws, &nthreads, false, "nnz(A·B): "))) return s;
    for (int64_t i = 0; i < A->rows; i++) *nnz += job.row_nnz[i + 1]; /* < 2^62: no overflow */
    reference_release(&job, ws, nws);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_reference_spgemm(magnus_csr *C, magnus_csr *magnitude, const magnus_csr_s *A,
                                      const magnus_csr_s *B) {
    return magnus_reference_spgemm_threads(C, magnitude, A, B, 0);
}

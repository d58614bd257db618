/*
 * verify_random(): the check for products too large for the CPU reference (cli_verify.h has
 * the definitions). Two passes over the rows, each shared among threads in blocks taken from
 * an atomic counter (R-MAT rows are very uneven, so static shares would leave threads idle):
 *   structure  per row i, mark the columns of A(i,:)·B with stamp i+1 in a per-thread array,
 *              then C(i,:) must have as many columns as were marked, all of them marked;
 *   vectors    t = B·x and s = |B|·|x| (rows of B), then per row of A: z = A·t, w = |A|·s and
 *              y = C·x, with the errors reduced per thread.
 *   rows       the rows with most products and some random rows are recomputed on the host and
 *              compared entry by entry (as magnus_csr_compare would, against |A|·|B|): a
 *              wrong entry in a row of 10^5 entries moves that row's vector error by ~10^-5
 *              only, below float32's tolerance, but not its own.
 *   non-finite a row whose y, z or w is not finite (C holds a NaN or an infinity there, or one
 *              of the row's products is not finite, or its sum overflows) says nothing through
 *              the vectors (inf - inf is NaN), so it leaves the vector errors and is compared
 *              entry by entry instead, as the exact check does: NaN only against NaN, an
 *              infinity only against the same infinity (the host's sum rounded to C's type),
 *              finite values within the tolerance. Every product that is not finite makes
 *              its row's z or w not finite, and every non-finite entry of C its y, so no such
 *              entry escapes this comparison.
 * Every array sized by a dimension (x, B·x, the markers) is checked against the host memory
 * limit before it is allocated (magnus_host_memory_check): a 2 x (2^31 - 1) B fails by name.
 * `magnus bench` runs the vectors alone (settings->vectors_only, at its own tolerance).
 * Nothing here shares code with any SpGEMM, device or reference. When the multiply left C on
 * its device (settings->ctx and ->dC: `magnus multiply`; settings->where = VERIFY_ON_HOST
 * keeps everything here), y = C·x, the pass over the largest matrix, runs there through the
 * library's SpMV in C's type (x rounded to that type for both sides), which shares no code
 * with the multiply; t, s, z and w stay on the host in float64, and each row's error is
 * taken less the SpMV's own rounding bound (error_pair_device). The report's vectors_where
 * says where C·x ran (the host when the device could not).
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_verify.h"
#include "cli_verify_random.h"

#define MAX_THREADS 64
#define ROWS_PER_TAKE 256
#define MAX_VECTORS 64

/* ---- rows shared among threads ---------------------------------------------------------- */

typedef struct row_pool {
    atomic_llong next; /* first row not yet taken */
    int64_t rows;
} row_pool;

/* The next block [*begin, *end) of rows, false when none are left. */
static bool take_rows(row_pool *pool, int64_t *begin, int64_t *end) {
    long long b = atomic_fetch_add(&pool->next, ROWS_PER_TAKE);
    if (b >= pool->rows) return false;
    *begin = b;
    *end = b + ROWS_PER_TAKE < pool->rows ? b + ROWS_PER_TAKE : pool->rows;
    return true;
}

static int thread_count(int64_t rows) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t n = cpus > 0 ? cpus : 1;
    if (n > MAX_THREADS) n = MAX_THREADS;
    int64_t by_rows = rows / (4 * ROWS_PER_TAKE) + 1; /* small inputs: fewer threads */
    return (int)(n < by_rows ? n : by_rows);
}

/* Runs work(arg_i) for i < n on n threads, the caller's being the first; a thread that cannot
 * be started has its share run by the caller's thread afterwards (the rows are taken from the
 * pool anyway, so that share is usually empty by then). */
static void run_threads(int n, void *(*work)(void *), void *args, size_t arg_size) {
    pthread_t threads[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    for (int i = 1; i < n; i++)
        started[i] = pthread_create(&threads[i], NULL, work, (char *)args + (size_t)i * arg_size) == 0;
    work(args);
    for (int i = 1; i < n; i++) {
        if (started[i]) pthread_join(threads[i], NULL);
        else work((char *)args + (size_t)i * arg_size);
    }
}

/* ---- structure ----------------------------------------------------------------------------- */

typedef struct structure_job {
    const magnus_csr_s *A, *B, *C;
    row_pool *pool;
    uint32_t *marks;   /* B->cols stamps, this thread's */
    int64_t nnz;       /* distinct columns counted by this thread */
    int64_t bad_row;   /* first differing row this thread saw, or -1 */
} structure_job;

static void *structure_work(void *arg) {
    structure_job *job = arg;
    const magnus_csr_s *A = job->A, *B = job->B, *C = job->C;
    int64_t begin, end;
    while (take_rows(job->pool, &begin, &end)) {
        for (int64_t i = begin; i < end; i++) {
            uint32_t stamp = (uint32_t)i + 1; /* rows <= INT32_MAX: never 0, never reused */
            int64_t count = 0;
            for (int64_t a = A->row_ptr[i]; a < A->row_ptr[i + 1]; a++) {
                int32_t k = A->col_idx[a];
                for (int64_t b = B->row_ptr[k]; b < B->row_ptr[k + 1]; b++) {
                    int32_t j = B->col_idx[b];
                    if (job->marks[j] != stamp) {
                        job->marks[j] = stamp;
                        count++;
                    }
                }
            }
            job->nnz += count;
            bool same = C->row_ptr[i + 1] - C->row_ptr[i] == count;
            for (int64_t c = C->row_ptr[i]; same && c < C->row_ptr[i + 1]; c++)
                same = job->marks[C->col_idx[c]] == stamp;
            if (!same && (job->bad_row < 0 || i < job->bad_row)) job->bad_row = i;
        }
    }
    return NULL;
}

/* Fills the structure fields of the report; false only when out of memory (then
 * structure_checked stays false). C is valid and has A.rows x B.cols. */
static bool check_structure(verify_report *r, const magnus_csr_s *C, const magnus_csr_s *A,
                            const magnus_csr_s *B) {
    int n = thread_count(A->rows);
    /* fewer threads when their markers would pass the host memory limit; none fit: unchecked */
    const uint64_t marks_bytes = (uint64_t)(B->cols > 0 ? B->cols : 1) * sizeof(uint32_t);
    while (n > 0 && magnus_host_memory_check((uint64_t)n * marks_bytes,
                                             "the structure check's column markers"))
        n--;
    if (n == 0) return false;
    structure_job jobs[MAX_THREADS];
    row_pool pool = {.rows = A->rows};
    atomic_init(&pool.next, 0);
    bool ok = true;
    for (int t = 0; t < n; t++) {
        jobs[t] = (structure_job){A, B, C, &pool, NULL, 0, -1};
        /* calloc: stamp 0 is never used, so zeroed marks are "unmarked". */
        jobs[t].marks = calloc(B->cols > 0 ? (size_t)B->cols : 1, sizeof(uint32_t));
        if (!jobs[t].marks) ok = false;
    }
    if (ok) {
        run_threads(n, structure_work, jobs, sizeof jobs[0]);
        r->structure_checked = true;
        r->structure_nnz = 0;
        r->structure_bad_row = -1;
        for (int t = 0; t < n; t++) {
            r->structure_nnz += jobs[t].nnz;
            if (jobs[t].bad_row >= 0 &&
                (r->structure_bad_row < 0 || jobs[t].bad_row < r->structure_bad_row))
                r->structure_bad_row = jobs[t].bad_row;
        }
        r->structure_matched = r->structure_bad_row < 0 && r->structure_nnz == C->nnz;
    }
    for (int t = 0; t < n; t++) free(jobs[t].marks);
    return ok;
}

/* ---- random vectors ------------------------------------------------------------------------ */

typedef struct vector_job {
    const magnus_csr_s *M;   /* the matrix whose rows this pass walks */
    const magnus_csr_s *A, *C;
    int k;                   /* vectors */
    const double *x;         /* inputs (cols of M) x k */
    double *ts;              /* pass 1: t = B·x beside s = |B|·|x|, rows of B x k pairs */
    row_pool *pool;
    const double *y;         /* pass 2 on the device's C·x: rows of C x k */
    double unit;             /* ... and the unit roundoff of C's type */
    uint8_t *nonfinite;      /* pass 2: rows of A, 1 where y, z or w was not finite */
    /* pass 2 reductions */
    double err2[MAX_VECTORS], scale2[MAX_VECTORS];
    double row_max;
    int64_t row_worst;
} vector_job;

/* Both passes take the vectors two at a time, re-reading the row (from cache) for each pair:
 * sums kept in an array indexed by the vector go through memory on every entry, which made
 * the pass over C (the largest matrix) as slow for two vectors as two passes of one vector;
 * two sums in registers keep two independent chains of additions in flight. The order of
 * each sum is the entries' order either way. */

/* Row i of M times vectors v and, when `pair`, v+1 of an array with k slots of `stride`
 * doubles per row of `vec`: sum[u] = M(i,:)·vec and mag[u] = |M(i,:)|·|mag_vec|. Both passes'
 * sums over A and B: B's with x (stride 1), A's with t and s side by side (stride 2, one cache
 * line per entry instead of one per array: with short rows the passes wait on memory).
 * Inline: with a call per short row fewer rows' loads are in flight (measured; inlining
 * add_row_error too slowed the pass over long rows of C instead). */
static inline void row_sums(const magnus_csr_s *M, int64_t i, const double *vec, const double *mag_vec,
                     int k, int v, bool pair, int stride, double sum[2], double mag[2]) {
    double s0 = 0, m0 = 0, s1 = 0, m1 = 0;
    for (int64_t e = M->row_ptr[i]; e < M->row_ptr[i + 1]; e++) {
        double m = value_at(M, e);
        int64_t at = ((int64_t)M->col_idx[e] * k + v) * stride;
        s0 += m * vec[at];
        m0 += fabs(m) * fabs(mag_vec[at]);
        if (pair) {
            s1 += m * vec[at + stride];
            m1 += fabs(m) * fabs(mag_vec[at + stride]);
        }
    }
    sum[0] = s0;
    mag[0] = m0;
    sum[1] = s1;
    mag[1] = m1;
}

/* Both passes' loop: per_pair(job, i, v, pair) for every row i the pool hands this thread
 * and every pair of vectors v, v+1 (v alone when it is the last). */
typedef void (*vector_pair_fn)(vector_job *job, int64_t i, int v, bool pair);
static void for_rows_and_vector_pairs(vector_job *job, vector_pair_fn per_pair) {
    int64_t begin, end;
    while (take_rows(job->pool, &begin, &end))
        for (int64_t i = begin; i < end; i++)
            for (int v = 0; v < job->k; v += 2) per_pair(job, i, v, v + 1 < job->k);
}

/* Pass 1: t = M·x, s = |M|·|x| (|x| taken as read: no second copy of x in memory). */
static void product_pair(vector_job *job, int64_t i, int v, bool pair) {
    int k = job->k;
    double o[2], oa[2];
    row_sums(job->M, i, job->x, job->x, k, v, pair, 1, o, oa);
    for (int u = 0; u <= (int)pair; u++) {
        job->ts[(i * k + v + u) * 2] = o[u];
        job->ts[(i * k + v + u) * 2 + 1] = oa[u];
    }
}
static void *product_work(void *arg) {
    for_rows_and_vector_pairs(arg, product_pair);
    return NULL;
}

/* Adds vector v's errors of row i to the job's reductions: y = (C·x)_i, z = (A·(B·x))_i,
 * w = (|A|·(|B|·|x|))_i. */
static void add_row_difference(vector_job *job, int64_t i, int v, double d, double w) {
    job->err2[v] += d * d;
    job->scale2[v] += w * w;
    /* 0/0 (an empty or all-zero row) is no error; NaN and x/0 are infinite. */
    double rel = d == 0 ? 0 : (w > 0 && !isnan(d) ? d / w : INFINITY);
    if (rel > job->row_max) {
        job->row_max = rel;
        job->row_worst = i;
    }
}
static void add_row_error(vector_job *job, int64_t i, int v, double y, double z, double w) {
    add_row_difference(job, i, v, fabs(y - z), w);
}
/* A row whose sums are not all finite is compared entry by entry instead (the header says
 * why); true when row i is such a row, marked. */
static bool set_aside_nonfinite(vector_job *job, int64_t i, double y, double z, double w) {
    if (isfinite(y) && isfinite(z) && isfinite(w)) return false;
    job->nonfinite[i] = 1;
    return true;
}

/* Pass 2, per row i: y = C(i,:)·x, z = A(i,:)·t, w = |A(i,:)|·s (t, s from pass 1 in
 * job->ts), and the errors. */
static void error_pair(vector_job *job, int64_t i, int v, bool pair) {
    const magnus_csr_s *C = job->C;
    int k = job->k;
    double y0 = 0, y1 = 0, z[2], w[2];
    for (int64_t e = C->row_ptr[i]; e < C->row_ptr[i + 1]; e++) {
        double c = value_at(C, e);
        int64_t at = (int64_t)C->col_idx[e] * k + v;
        y0 += c * job->x[at];
        if (pair) y1 += c * job->x[at + 1];
    }
    /* s >= 0: the |.| row_sums takes of it changes nothing */
    row_sums(job->A, i, job->ts, job->ts + 1, k, v, pair, 2, z, w);
    if (!set_aside_nonfinite(job, i, y0, z[0], w[0])) add_row_error(job, i, v, y0, z[0], w[0]);
    if (pair && !set_aside_nonfinite(job, i, y1, z[1], w[1]))
        add_row_error(job, i, v + 1, y1, z[1], w[1]);
}
static void *error_work(void *arg) {
    for_rows_and_vector_pairs(arg, error_pair);
    return NULL;
}

/* ---- C·x where the multiply left C ------------------------------------------------------- */

/* y[i*k + v] = (C·x_v)_i for every vector, by SpMV on the device matrix dC in its own type
 * (x as given there: the caller rounded x to that type), balanced CSR (it reads C's arrays
 * as they are: no converted copy of C, the largest matrix, is made), one plan for all k. */
static magnus_status products_on_device(double *y, magnus_context ctx,
                                        const struct magnus_device_csr_s *dC,
                                        magnus_value_type type, const double *x, int k,
                                        int64_t rows, int64_t cols) {
    const size_t vb = magnus_value_size(type);
    const size_t xb = (size_t)(cols > 0 ? cols : 1) * vb, yb = (size_t)(rows > 0 ? rows : 1) * vb;
    magnus_status s = magnus_host_memory_check(xb + yb, "the device's x and C·x, on the host");
    void *hx = s ? NULL : malloc(xb);
    void *hy = s ? NULL : malloc(yb);
    magnus_device_vector dv = NULL, dy = NULL;
    magnus_spmv_plan plan = NULL;
    magnus_spmv_options opt;
    if (!s) s = hx && hy ? magnus_spmv_options_init(&opt) : MAGNUS_ERROR_OUT_OF_HOST_MEMORY;
    if (!s) opt.format = MAGNUS_SPMV_CSR_BALANCED;
    if (!s) s = magnus_spmv_plan_create(&plan, ctx, (magnus_device_csr)dC, &opt, NULL);
    if (!s) s = magnus_device_vector_zeros(&dy, ctx, type, rows);
    for (int v = 0; v < k && !s; v++) {
        for (int64_t j = 0; j < cols; j++) {
            if (type == MAGNUS_FLOAT64) ((double *)hx)[j] = x[j * k + v];
            else ((float *)hx)[j] = (float)x[j * k + v];
        }
        magnus_device_vector_free(&dv);
        if ((s = magnus_device_vector_upload(&dv, ctx, type, cols, hx)) ||
            (s = magnus_spmv_plan_execute(plan, dy, 1.0, dv, 0.0, NULL)) ||
            (s = magnus_device_vector_download(hy, rows, dy)))
            break;
        for (int64_t i = 0; i < rows; i++)
            y[i * k + v] = type == MAGNUS_FLOAT64 ? ((double *)hy)[i] : (double)((float *)hy)[i];
    }
    magnus_spmv_plan_free(&plan);
    magnus_device_vector_free(&dv);
    magnus_device_vector_free(&dy);
    free(hx);
    free(hy);
    return s;
}

/* Pass 2 with C·x from the device (job->y): z = A(i,:)·t, w = |A(i,:)|·s as on the host, and
 * the error less the device SpMV's own rounding bound. Each y_i is a sum of L_i = nnz(C(i,:))
 * rounded products in C's type (unit roundoff u), in whatever order the format adds them, so
 * |fl(C·x)_i - (C·x)_i| <= gamma(L_i) (|C|·|x|)_i <= gamma(L_i) w_i with gamma(L) = L u /
 * (1 - L u) (Higham, Accuracy and Stability, §3.1; |C| <= |A|·|B| entrywise, C being that
 * product up to its own tolerance): the check tests C, not the SpMV that reads it. */
static void error_pair_device(vector_job *job, int64_t i, int v, bool pair) {
    const int k = job->k;
    double z[2], w[2];
    row_sums(job->A, i, job->ts, job->ts + 1, k, v, pair, 2, z, w);
    const double Lu = (double)(job->C->row_ptr[i + 1] - job->C->row_ptr[i]) * job->unit;
    const double gamma = Lu < 1 ? Lu / (1 - Lu) : INFINITY;
    for (int u = 0; u <= (int)pair; u++) {
        if (set_aside_nonfinite(job, i, job->y[i * k + v + u], z[u], w[u])) continue;
        const double allow = w[u] > 0 ? gamma * w[u] : 0;
        double d = fabs(job->y[i * k + v + u] - z[u]);
        if (!isnan(d)) d = d > allow ? d - allow : 0;
        add_row_difference(job, i, v + u, d, w[u]);
    }
}
static void *error_work_device(void *arg) {
    for_rows_and_vector_pairs(arg, error_pair_device);
    return NULL;
}

/* Fills the vector fields of the report and marks in nonfinite[] (A->rows bytes, zeroed) the
 * rows set aside; a status (with its message) when the arrays do not fit. */
static magnus_status check_vectors(verify_report *r, const magnus_csr_s *C, const magnus_csr_s *A,
                                   const magnus_csr_s *B, int k, uint64_t seed,
                                   const verify_random_settings *st, uint8_t *nonfinite) {
    size_t xn = (size_t)(B->cols > 0 ? B->cols : 1) * (size_t)k;
    size_t tn = (size_t)(B->rows > 0 ? B->rows : 1) * (size_t)k;
    char what[160];
    snprintf(what, sizeof what,
             "the random check's workspace for %d vectors x and B·x (%lld columns, %lld rows "
             "of B)",
             k, (long long)B->cols, (long long)B->rows);
    magnus_status s = magnus_host_memory_check((uint64_t)xn * 8 + (uint64_t)tn * 16, what);
    if (s) return s;
    double *x = malloc(xn * sizeof *x);
    double *ts = malloc(2 * tn * sizeof *ts);
    if (!x || !ts) {
        s = MAGNUS_ERROR_OUT_OF_HOST_MEMORY;
        snprintf(r->detail, sizeof r->detail, "cannot allocate %s", what);
    }
    if (!s) {
        /* Entries ±[0.5, 1]: random signs let errors cancel no more often than chance, and
         * magnitudes away from 0 make every column count. */
        uint64_t state = seed;
        for (size_t i = 0; i < (size_t)B->cols * (size_t)k; i++) x[i] = verify_random_entry(&state);
        vector_job jobs[MAX_THREADS];
        /* C·x on the device: x in C's type there, so the host's passes use those values too */
        double *y = NULL;
        const bool on_device = st->ctx && st->dC && st->where != VERIFY_ON_HOST;
        if (on_device && C->type == MAGNUS_FLOAT32)
            for (size_t i = 0; i < (size_t)B->cols * (size_t)k; i++) x[i] = (double)(float)x[i];
        row_pool pool = {.rows = B->rows};
        atomic_init(&pool.next, 0);
        int n = thread_count(B->rows);
        for (int i = 0; i < n; i++)
            jobs[i] = (vector_job){.M = B, .k = k, .x = x, .ts = ts, .pool = &pool};
        run_threads(n, product_work, jobs, sizeof jobs[0]);

        snprintf(r->vectors_where, sizeof r->vectors_where, "host");
        if (on_device) {
            magnus_device_info dev;
            size_t yn = (size_t)(C->rows > 0 ? C->rows : 1) * (size_t)k;
            magnus_status s = magnus_context_device(&dev, st->ctx);
            if (!s) s = magnus_host_memory_check((uint64_t)yn * sizeof *y, "the device's C·x");
            if (!s) s = (y = malloc(yn * sizeof *y)) ? MAGNUS_SUCCESS : MAGNUS_ERROR_OUT_OF_HOST_MEMORY;
            if (!s) s = products_on_device(y, st->ctx, st->dC, C->type, x, k, C->rows, C->cols);
            if (!s)
                snprintf(r->vectors_where, sizeof r->vectors_where,
                         "device %s:%d %.160s (C·x by SpMV on the product, %s; its rounding "
                         "bound taken off)",
                         magnus_backend_name(dev.backend), dev.index, dev.name,
                         C->type == MAGNUS_FLOAT64 ? "float64" : "float32");
            else {
                snprintf(r->vectors_where, sizeof r->vectors_where, "host (device: %.200s)",
                         magnus_last_error()[0] ? magnus_last_error() : magnus_status_string(s));
                free(y);
                y = NULL;
            }
        }
        pool.rows = A->rows;
        atomic_init(&pool.next, 0);
        n = thread_count(A->rows);
        for (int i = 0; i < n; i++)
            jobs[i] = (vector_job){.A = A, .C = C, .k = k, .x = x, .ts = ts, .pool = &pool,
                                   .row_worst = -1, .y = y,
                                   .unit = C->type == MAGNUS_FLOAT64 ? 0x1.0p-53 : 0x1.0p-24,
                                   .nonfinite = nonfinite};
        run_threads(n, y ? error_work_device : error_work, jobs, sizeof jobs[0]);
        free(y);
        r->rel_error = 0;
        r->rel_error_row = 0;
        r->worst_row = -1;
        for (int v = 0; v < k; v++) {
            double err2 = 0, scale2 = 0;
            for (int i = 0; i < n; i++) {
                err2 += jobs[i].err2[v];
                scale2 += jobs[i].scale2[v];
            }
            double rel = err2 == 0 ? 0 : (scale2 > 0 ? sqrt(err2 / scale2) : INFINITY);
            if (isnan(rel)) rel = INFINITY;
            if (rel > r->rel_error) r->rel_error = rel;
        }
        for (int i = 0; i < n; i++)
            if (jobs[i].row_max > r->rel_error_row ||
                (jobs[i].row_max == r->rel_error_row && jobs[i].row_worst >= 0 &&
                 (r->worst_row < 0 || jobs[i].row_worst < r->worst_row))) {
                r->rel_error_row = jobs[i].row_max;
                r->worst_row = jobs[i].row_worst;
            }
    }
    free(x);
    free(ts);
    return s;
}

double verify_random_tolerance(const magnus_csr_s *C, const magnus_csr_s *A) {
    return A->type == MAGNUS_FLOAT64 && C->type == MAGNUS_FLOAT64 ? 1e-10 : 1e-4;
}

magnus_status verify_random(verify_report *report, const magnus_csr_s *C, const magnus_csr_s *A,
                            const magnus_csr_s *B, const verify_random_settings *settings,
                            cli_progress *progress) {
    int vectors = settings->vectors;
    uint64_t seed = settings->seed;
    report->method = VERIFY_RANDOM;
    report->vectors = vectors < 1 ? 1 : vectors > MAX_VECTORS ? MAX_VECTORS : vectors;
    report->seed = seed;
    report->tolerance = settings->tolerance;
    report->worst_row = -1;
    report->structure_bad_row = -1;
    report->rows_sample_bad_row = -1;
    report->nonfinite_bad_row = -1;
    double start = cli_now();
    /* A valid C of the right shape first: the passes below index with C's own arrays. */
    magnus_status s = magnus_csr_validate(C);
    if (s == MAGNUS_ERROR_OUT_OF_HOST_MEMORY) return s;
    if (s)
        snprintf(report->detail, sizeof report->detail, "C is not a valid CSR matrix: %s",
                 magnus_last_error());
    else if (C->rows != A->rows || C->cols != B->cols || A->cols != B->rows)
        snprintf(report->detail, sizeof report->detail,
                 "C is %lld x %lld, A*B is %lld x %lld", (long long)C->rows, (long long)C->cols,
                 (long long)A->rows, (long long)B->cols);
    if (report->detail[0]) {
        report->seconds = cli_now() - start;
        return MAGNUS_ERROR_MISMATCH;
    }
    if (!settings->vectors_only) {
        cli_progress_update(progress, -1, "verifying (structure)");
        /* without its memory the structure is reported as not checked */
        (void)check_structure(report, C, A, B);
    }
    cli_progress_update(progress, -1, "verifying (random vectors)");
    double vectors_start = cli_now();
    /* the rows set aside by the vectors (one byte per row of A) */
    s = magnus_host_memory_check((uint64_t)(A->rows > 0 ? A->rows : 1),
                                 "the random check's marks of non-finite rows");
    uint8_t *nonfinite = s ? NULL : calloc(A->rows > 0 ? (size_t)A->rows : 1, 1);
    if (!s && !nonfinite) {
        s = MAGNUS_ERROR_OUT_OF_HOST_MEMORY;
        snprintf(report->detail, sizeof report->detail, "cannot allocate the marks of %lld rows",
                 (long long)A->rows);
    }
    if (!s) s = check_vectors(report, C, A, B, report->vectors, seed, settings, nonfinite);
    report->vectors_seconds = cli_now() - vectors_start;
    report->vectors_checked = s == MAGNUS_SUCCESS;
    if (!s) {
        cli_progress_update(progress, -1, "verifying (sampled rows)");
        s = verify_random_rows(report, C, A, B, seed, !settings->vectors_only, nonfinite);
    }
    free(nonfinite);
    cli_progress_done(progress);
    report->seconds = cli_now() - start;
    if (s) return s;
    report->matched = report->rel_error <= report->tolerance &&
                      report->rel_error_row <= report->tolerance &&
                      report->rows_sample_bad_row < 0 && report->nonfinite_bad_row < 0 &&
                      (!report->structure_checked || report->structure_matched);
    if (report->structure_checked && report->structure_bad_row >= 0)
        snprintf(report->detail, sizeof report->detail,
                 "row %lld of C does not hold the columns of row %lld of A*B (independent "
                 "count: nnz(A*B) = %lld, C has %lld)",
                 (long long)report->structure_bad_row, (long long)report->structure_bad_row,
                 (long long)report->structure_nnz, (long long)C->nnz);
    else if (report->structure_checked && !report->structure_matched)
        snprintf(report->detail, sizeof report->detail,
                 "independent count: nnz(A*B) = %lld, C has %lld",
                 (long long)report->structure_nnz, (long long)C->nnz);
    else if (report->nonfinite_bad_row >= 0)
        snprintf(report->detail, sizeof report->detail,
                 "row %lld of C, which holds or needs a NaN or an infinity, differs from the "
                 "same row recomputed on the host (NaN and infinities compared exactly)",
                 (long long)report->nonfinite_bad_row);
    else if (report->rows_sample_bad_row >= 0)
        snprintf(report->detail, sizeof report->detail,
                 "row %lld of C differs from the same row recomputed on the host (largest "
                 "relative error of the sampled rows %.3g, tolerance %.0e)",
                 (long long)report->rows_sample_bad_row, report->rows_sample_error,
                 report->tolerance);
    else if (!report->matched)
        snprintf(report->detail, sizeof report->detail,
                 "random vectors: relative error %.3g (normwise), %.3g (row %lld), tolerance %.0e",
                 report->rel_error, report->rel_error_row, (long long)report->worst_row,
                 report->tolerance);
    return report->matched ? MAGNUS_SUCCESS : MAGNUS_ERROR_MISMATCH;
}

/*
 * Host model of the hash accumulator's work in gMAGNUS on an H200 (docs/performance.md,
 * "Numeric phase"): which bin each light row and light chunk of C = A·B lands in, how many
 * work groups of that bin an SM holds, and how much local-memory work (table clears, inserts,
 * sorting-network comparators, compaction) each bin does, for the accumulator before and
 * after the change of 2026-11-30. Not part of the library build:
 *
 *   cc -O2 -std=c11 -Wall -Wextra -o accumulator_model bench/model/accumulator_model.c \
 *      -Iinclude -Lbuild-perf/runtime -lmagnus -Wl,-rpath,$PWD/build-perf/runtime
 *   ./accumulator_model soc-Slashdot0902 ../shared/matrices/soc-Slashdot0902.mtx.gz = 232448 49152
 *   ./accumulator_model rmat-s18-a4-b8 rmat:18:4:1 rmat:18:8:2 232448
 *
 * (B "=" means B = A; rmat:SCALE:PER_ROW:SEED as `magnus bench` draws its pairs.) Per budget
 * and design it prints one line: resident threads per SM of the work (a histogram over
 * 256 .. 2048 threads, as fractions of the work), total local-memory operations, and the
 * sorting-network comparators alone. The bins mirror runtime/accumulate/hash_plan.c (tables of
 * 32, 64, ... slots, T/8 work items, 256-item groups for small tables; numeric tables hold 2
 * slots per entry, symbolic ones 4/3); the chunks mirror gMAGNUS's levels (runtime/
 * gmagnus_params.c). Residency: 228 KiB of shared memory per SM with 1 KiB reserved per
 * block, 2048 threads, 32 blocks; registers (at most 32 per thread, nvcc -Xptxas -v) never
 * limit. Float32 values.
 */
#include <magnus/magnus.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SM_SHARED 233472u /* 228 KiB */
#define SM_BLOCK_RESERVE 1024u
#define SM_THREADS 2048u
#define VALUE_BYTES 4u

typedef struct design {
    const char *name;
    int compact;       /* numeric: compact, then sort a network of the bin's largest entry count */
    uint64_t max_lanes; /* work items per table at most */
} design;

static const design designs[] = {
    {"before (whole-table sort, 256 items)", 0, 256},
    {"after (compact + sort entries, 1024 items)", 1, 1024},
    {"after, MAGNUS_HASH_GROUP_MAX=256", 1, 256},
};

typedef struct bin {
    int64_t max_key;
    uint64_t table, lanes, per_group;
} bin;
typedef struct plan {
    int n;
    bin b[32];
} plan;

static uint64_t pow2_floor(uint64_t x) {
    uint64_t p = 1;
    while (p <= x / 2) p <<= 1;
    return x ? p : 0;
}
static uint64_t pow2_ceil(uint64_t x) {
    uint64_t p = 1;
    while (p < x) p <<= 1;
    return p;
}
static int log2_floor(uint64_t x) {
    int b = -1;
    while (x) {
        x >>= 1;
        b++;
    }
    return b;
}

static void plan_add(plan *p, const design *d, int numeric, uint64_t local, uint64_t t) {
    bin *b = &p->b[p->n++];
    uint64_t slot = numeric ? 4 + VALUE_BYTES : 4, extra = numeric && !d->compact ? 0 : 4;
    b->max_key = numeric ? (int64_t)(t / 2) : (int64_t)(t - t / 4);
    b->table = t;
    b->lanes = pow2_floor(t / 8);
    if (b->lanes < 8) b->lanes = 8;
    if (b->lanes > d->max_lanes) b->lanes = d->max_lanes;
    b->per_group = 256 / b->lanes ? 256 / b->lanes : 1;
    while (b->per_group > 1 && b->per_group * (t * slot + extra) > local) b->per_group /= 2;
}

static void plan_build(plan *p, const design *d, uint64_t budget, int numeric) {
    memset(p, 0, sizeof *p);
    uint64_t local = budget - 16, slot = numeric ? 4 + VALUE_BYTES : 4;
    uint64_t extra = numeric && !d->compact ? 0 : 4;
    uint64_t largest = numeric ? ((local - extra) / slot) & ~1ull : pow2_floor((local - 4) / 4);
    p->b[p->n++] = (bin){.max_key = 0};
    uint64_t last = 0;
    for (uint64_t t = 32; t <= largest && p->n < 30; t *= 2) {
        plan_add(p, d, numeric, local, t);
        last = t;
    }
    if (largest > last) plan_add(p, d, numeric, local, largest);
    int64_t tau = (int64_t)(budget / (2 * (4 + VALUE_BYTES)));
    bin *top = &p->b[p->n - 1];
    if (numeric && tau > top->max_key && tau < (int64_t)top->table) top->max_key = tau;
    p->b[p->n++] = (bin){.max_key = INT64_MAX};
}

static const bin *bin_of(const plan *p, int64_t key) {
    int b = 1;
    while (b + 1 < p->n && key > p->b[b].max_key) b++;
    return &p->b[b];
}

static unsigned resident_threads(uint64_t threads, uint64_t shared) {
    uint64_t g = SM_THREADS / threads, s = SM_SHARED / (shared + SM_BLOCK_RESERVE);
    if (s < g) g = s;
    if (g > 32) g = 32;
    return (unsigned)(g * threads);
}

/* Work of one phase, by resident threads per SM (index threads / 256). */
typedef struct work {
    double ops[9], sort;
} work;

static void add_work(work *w, unsigned threads, double ops) {
    unsigned k = threads / 256;
    w->ops[k > 8 ? 8 : k] += ops;
}

/* One item: `inserts` elements into a table of its bin, `entries` distinct. */
static void item(work *w, const design *d, const plan *p, int numeric, int64_t key,
                 int64_t inserts, int64_t entries) {
    const bin *b = bin_of(p, key);
    if (b->table == 0) return;
    uint64_t slot = numeric ? 4 + VALUE_BYTES : 4, extra = numeric && !d->compact ? 0 : 4;
    unsigned threads = resident_threads(b->lanes * b->per_group, b->per_group * (b->table * slot + extra));
    double ops = (double)b->table + (double)inserts;
    if (numeric) {
        uint64_t net = d->compact ? pow2_ceil((uint64_t)b->max_key) : pow2_ceil(b->table);
        uint64_t live = d->compact ? (uint64_t)entries : b->table; /* comparators visited */
        int lg = log2_floor(net);
        double cmp = lg * (lg + 1) / 2.0 * (double)(live < net ? live : net) / 2.0;
        if (d->compact) ops += (double)b->table; /* compaction reads every slot once */
        ops += cmp + (double)entries;
        w->sort += cmp;
    }
    add_work(w, threads, ops);
}

static magnus_csr load(const char *spec) {
    magnus_csr M = NULL;
    magnus_status s;
    if (!strncmp(spec, "rmat:", 5)) {
        int scale = 0;
        long long per_row = 0, seed = 1;
        sscanf(spec + 5, "%d:%lld:%lld", &scale, &per_row, &seed);
        magnus_rmat_options o;
        magnus_rmat_options_init(&o);
        o.scale = scale;
        o.nnz_per_row = per_row;
        o.seed = (uint64_t)seed;
        s = magnus_gen_rmat(&M, &o, NULL, NULL);
    } else {
        s = magnus_mm_read(&M, spec, MAGNUS_FLOAT32, NULL, NULL);
    }
    if (s) {
        fprintf(stderr, "%s: %s\n", spec, magnus_last_error());
        exit(1);
    }
    return M;
}

static void print_work(const char *what, const work *w) {
    double total = 0;
    for (int k = 0; k < 9; k++) total += w->ops[k];
    printf("  %-9s %.3g ops [", what, total);
    for (int k = 0; k < 9; k++)
        if (w->ops[k] > 0) printf(" %u:%.0f%%", k * 256, 100 * w->ops[k] / total);
    printf(" ]");
    if (w->sort > 0) printf(" sort comparators %.3g", w->sort);
    printf("\n");
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s NAME A B|= BUDGET...\n", argv[0]);
        return 2;
    }
    magnus_csr A = load(argv[2]);
    magnus_csr B = strcmp(argv[3], "=") ? load(argv[3]) : A;
    int64_t m = A->rows, ncols = B->cols;
    int64_t *products = malloc((size_t)m * 8), *nnz = malloc((size_t)m * 8);
    int64_t *mark = malloc((size_t)ncols * 8);
    for (int64_t j = 0; j < ncols; j++) mark[j] = -1;
    for (int64_t i = 0; i < m; i++) {
        int64_t p = 0, n = 0;
        for (int64_t a = A->row_ptr[i]; a < A->row_ptr[i + 1]; a++) {
            int32_t k = A->col_idx[a];
            p += B->row_ptr[k + 1] - B->row_ptr[k];
            for (int64_t b = B->row_ptr[k]; b < B->row_ptr[k + 1]; b++)
                if (mark[B->col_idx[b]] != i) {
                    mark[B->col_idx[b]] = i;
                    n++;
                }
        }
        products[i] = p;
        nnz[i] = n;
    }
    for (int bi = 4; bi < argc; bi++) {
        uint64_t budget = strtoull(argv[bi], NULL, 0);
        magnus_device_info dev;
        memset(&dev, 0, sizeof dev);
        dev.local_mem_bytes = budget;
        dev.max_work_group_size = 1024;
        dev.subgroup_sizes[0] = 32;
        dev.num_subgroup_sizes = 1;
        magnus_gmagnus_params P;
        if (magnus_gmagnus_params_compute(&P, &dev, ncols, MAGNUS_FLOAT32)) {
            fprintf(stderr, "%s\n", magnus_last_error());
            return 1;
        }
        /* finest chunks of a heavy row: dense_width columns each (one chunk without levels) */
        int dense_bits = P.levels ? log2_floor((uint64_t)P.dense_width) : 31;
        int64_t nfinal = P.levels ? (int64_t)1 << (log2_floor(pow2_ceil((uint64_t)ncols)) - dense_bits) : 1;
        int64_t *fe = calloc((size_t)nfinal, 8), *fd = calloc((size_t)nfinal, 8);
        /* last-level chunks with more elements than this go to the dense accumulator
         * (MODEL_DENSE_MIN; default tau, the library's rule) */
        const char *dm = getenv("MODEL_DENSE_MIN");
        int64_t dense_min = dm ? strtoll(dm, NULL, 0) : P.tau;
        for (size_t di = 0; di < sizeof designs / sizeof designs[0]; di++) {
            const design *d = &designs[di];
            plan ps, pn;
            plan_build(&ps, d, budget, 0);
            plan_build(&pn, d, budget, 1);
            plan pcs = ps; /* chunks: empty ones are counted too */
            pcs.b[0].max_key = -1;
            work sym = {0}, num = {0}, dense = {0}, csym = {0}, cnum = {0};
            int64_t heavy = 0, light_chunks = 0, dense_chunks = 0;
            for (int64_t i = 0; i < m; i++) {
                int64_t p = products[i], n = nnz[i];
                if (p <= P.tau) {
                    if (p > 0) item(&sym, d, &ps, 0, p < ncols ? p : ncols, p, n);
                    if (n > 0) item(&num, d, &pn, 1, n, p, n);
                    continue;
                }
                heavy++;
                uint64_t w = (uint64_t)P.dense_width, wg = (uint64_t)P.dense_group_size;
                unsigned dthreads = resident_threads(wg, w * VALUE_BYTES + w / 8 + wg * 4);
                if (P.levels == 0) {
                    add_work(&dense, dthreads, 2.0 * (double)w + (double)p);
                    dense_chunks++;
                    continue;
                }
                memset(fe, 0, (size_t)nfinal * 8);
                memset(fd, 0, (size_t)nfinal * 8);
                for (int64_t a = A->row_ptr[i]; a < A->row_ptr[i + 1]; a++) {
                    int32_t k = A->col_idx[a];
                    for (int64_t b = B->row_ptr[k]; b < B->row_ptr[k + 1]; b++) {
                        int32_t c = B->col_idx[b];
                        int64_t f = (int64_t)c >> dense_bits;
                        fe[f]++;
                        if (mark[c] != m + i) {
                            mark[c] = m + i;
                            fd[f]++;
                        }
                    }
                }
                /* chunks level by level: light ones hashed, heavy ones split (last: dense) */
                int64_t stack[4096][3];
                int sp = 0;
                stack[sp][0] = 0, stack[sp][1] = nfinal, stack[sp][2] = 0, sp++;
                while (sp) {
                    sp--;
                    int64_t f0 = stack[sp][0], span = stack[sp][1];
                    int L = (int)stack[sp][2];
                    int64_t nch = P.chunks_per_level[L], sub = span / nch;
                    for (int64_t c = 0; c < nch; c++) {
                        int64_t e = 0, dn = 0;
                        for (int64_t f = f0 + c * sub; f < f0 + (c + 1) * sub; f++) e += fe[f], dn += fd[f];
                        if (e > P.tau && L < P.levels - 1) {
                            stack[sp][0] = f0 + c * sub, stack[sp][1] = sub, stack[sp][2] = L + 1, sp++;
                        } else if (e > (L == P.levels - 1 ? dense_min : P.tau)) {
                            /* symbolic: clear and popcount the bitmap, set e bits;
                             * numeric: clear values and bitmap, e adds, scan, write */
                            add_work(&dense, dthreads, 2.0 * (double)w / 32 + (double)e);
                            add_work(&dense, dthreads, (double)w + 2.0 * (double)w / 32 + (double)e + (double)dn);
                            dense_chunks++;
                        } else {
                            int64_t width = P.chunk_width[L];
                            item(&csym, d, &pcs, 0, e < width ? e : width, e, dn);
                            if (dn > 0) item(&cnum, d, &pn, 1, dn, e, dn);
                            light_chunks++;
                        }
                    }
                }
            }
            printf("%s budget %llu tau %lld heavy rows %lld light chunks %lld dense chunks %lld: %s\n",
                   argv[1], (unsigned long long)budget, (long long)P.tau, (long long)heavy,
                   (long long)light_chunks, (long long)dense_chunks, d->name);
            print_work("symbolic", &sym);
            print_work("numeric", &num);
            print_work("ch-symb", &csym);
            print_work("ch-num", &cnum);
            print_work("dense", &dense);
        }
        free(fe);
        free(fd);
    }
    return 0;
}

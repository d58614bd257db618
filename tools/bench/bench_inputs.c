/*
 * Bench inputs: Matrix Market files (squared), A,B pairs, generator specs and the R-MAT sweep
 * (Graph500 a, b, c; A and B drawn with distinct seeds), and what every system needs to know
 * about an input once it is in memory: intermediate products per row, an upper bound of
 * nnz(C), the sign of the values and, on demand, the CPU reference.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli_matrix.h"

static bool grow(bench_input_list *list, char *why, size_t n) {
    if (list->count < list->capacity) return true;
    int capacity = list->capacity ? 2 * list->capacity : 16;
    bench_input *items = realloc(list->items, (size_t)capacity * sizeof *items);
    if (!items) {
        snprintf(why, n, "out of host memory");
        return false;
    }
    list->items = items;
    list->capacity = capacity;
    return true;
}

/* "dir/soc-Slashdot0902.mtx.gz" -> "soc-Slashdot0902"; a generator spec stays as it is. */
static void short_name(char *out, size_t size, const char *source, size_t len) {
    if (cli_is_generator_spec(source)) {
        snprintf(out, size, "%.*s", (int)len, source);
        return;
    }
    const char *base = source;
    for (size_t i = 0; i < len; i++)
        if (source[i] == '/') base = source + i + 1;
    size_t blen = len - (size_t)(base - source);
    const char *suffixes[] = {".mtx.gz", ".mtx", ".gz"};
    for (size_t s = 0; s < sizeof suffixes / sizeof *suffixes; s++) {
        size_t sl = strlen(suffixes[s]);
        if (blen > sl && !strncmp(base + blen - sl, suffixes[s], sl)) {
            blen -= sl;
            break;
        }
    }
    snprintf(out, size, "%.*s", (int)blen, base);
}

bool bench_inputs_add_source(bench_input_list *list, const char *arg, char *why, size_t n) {
    if (!grow(list, why, n)) return false;
    bench_input *in = &list->items[list->count];
    memset(in, 0, sizeof *in);
    in->kind = BENCH_INPUT_FILE;
    const char *comma = strchr(arg, ',');
    size_t alen = comma ? (size_t)(comma - arg) : strlen(arg);
    if (alen == 0 || alen >= sizeof in->a_source || (comma && (!comma[1] || strchr(comma + 1, ',')))) {
        snprintf(why, n, "'%s': expected FILE or A,B", arg);
        return false;
    }
    snprintf(in->a_source, sizeof in->a_source, "%.*s", (int)alen, arg);
    char a_name[160], b_name[160] = "";
    short_name(a_name, sizeof a_name, arg, alen);
    if (comma) {
        snprintf(in->b_source, sizeof in->b_source, "%s", comma + 1);
        short_name(b_name, sizeof b_name, comma + 1, strlen(comma + 1));
        snprintf(in->name, sizeof in->name, "%.70s*%.70s", a_name, b_name);
    } else {
        snprintf(in->name, sizeof in->name, "%s", a_name);
    }
    list->count++;
    return true;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_matrix_file(const char *name) {
    size_t len = strlen(name);
    return (len > 4 && !strcmp(name + len - 4, ".mtx")) ||
           (len > 7 && !strcmp(name + len - 7, ".mtx.gz"));
}

bool bench_inputs_add_dir(bench_input_list *list, const char *dir, char *why, size_t n) {
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(why, n, "cannot open directory %s", dir);
        return false;
    }
    char **names = NULL;
    size_t count = 0, capacity = 0;
    bool ok = true;
    for (struct dirent *e; ok && (e = readdir(d));) {
        if (!is_matrix_file(e->d_name)) continue;
        if (count == capacity) {
            capacity = capacity ? 2 * capacity : 32;
            char **grown = realloc(names, capacity * sizeof *grown);
            if (!grown) {
                ok = false;
                break;
            }
            names = grown;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if (!(names[count] = malloc(len))) {
            ok = false;
            break;
        }
        snprintf(names[count++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (!ok) snprintf(why, n, "out of host memory listing %s", dir);
    if (ok) qsort(names, count, sizeof *names, compare_names);
    for (size_t i = 0; ok && i < count; i++) ok = bench_inputs_add_source(list, names[i], why, n);
    for (size_t i = 0; i < count; i++) free(names[i]);
    free(names);
    if (ok && count == 0) {
        snprintf(why, n, "no .mtx or .mtx.gz file in %s", dir);
        return false;
    }
    return ok;
}

bool bench_inputs_add_rmat_sweep(bench_input_list *list, int scale_lo, int scale_hi,
                                 const int64_t *a_per_row, int na, const int64_t *b_per_row,
                                 int nb, const int64_t *seeds, int nseeds, char *why, size_t n) {
    /* Scales ascending, so a time limit cuts the largest products, not the small ones. */
    for (int s = scale_lo; s <= scale_hi; s++)
        for (int k = 0; k < nseeds; k++)
            for (int i = 0; i < na; i++)
                for (int j = 0; j < nb; j++) {
                    if (!grow(list, why, n)) return false;
                    const uint64_t seed = (uint64_t)seeds[k];
                    bench_input *in = &list->items[list->count++];
                    memset(in, 0, sizeof *in);
                    in->kind = BENCH_INPUT_RMAT;
                    in->scale = s;
                    in->a_per_row = a_per_row[i];
                    in->b_per_row = b_per_row[j];
                    in->seed_a = seed;
                    in->seed_b = seed + 1;
                    /* seed 1's pairs keep the names of every earlier result */
                    char suffix[32] = "";
                    if (seed != 1) snprintf(suffix, sizeof suffix, "-seed%llu", (unsigned long long)seed);
                    snprintf(in->name, sizeof in->name, "rmat-s%d-a%lld-b%lld%s", s,
                             (long long)a_per_row[i], (long long)b_per_row[j], suffix);
                    snprintf(in->a_source, sizeof in->a_source, "rmat:%d:%lld:%llu", s,
                             (long long)a_per_row[i], (unsigned long long)seed);
                    snprintf(in->b_source, sizeof in->b_source, "rmat:%d:%lld:%llu", s,
                             (long long)b_per_row[j], (unsigned long long)(seed + 1));
                }
    return true;
}

void bench_inputs_free(bench_input_list *list) {
    free(list->items);
    memset(list, 0, sizeof *list);
}

/* ---- R-MAT cache ---------------------------------------------------------------------------- */
static magnus_status rmat_get(magnus_csr *out, bench_rmat_cache *cache, int scale,
                              int64_t per_row, uint64_t seed, magnus_value_type type,
                              cli_progress *progress) {
    const int slots = (int)(sizeof cache->slot / sizeof cache->slot[0]);
    int victim = 0;
    for (int i = 0; i < slots; i++) {
        if (cache->slot[i].M && cache->slot[i].scale == scale && cache->slot[i].per_row == per_row &&
            cache->slot[i].seed == seed && cache->slot[i].M->type == type) {
            cache->slot[i].used = ++cache->clock;
            *out = cache->slot[i].M;
            return MAGNUS_SUCCESS;
        }
        if (!cache->slot[victim].M) continue;
        if (!cache->slot[i].M || cache->slot[i].used < cache->slot[victim].used) victim = i;
    }
    magnus_csr_free(&cache->slot[victim].M);
    cli_gen_request req = {.kind = "rmat", .n = {scale, per_row}, .seed = seed, .type = type};
    magnus_status s = cli_gen_run(&cache->slot[victim].M, &req, progress);
    cli_progress_done(progress);
    if (s) return s;
    cache->slot[victim].scale = scale;
    cache->slot[victim].per_row = per_row;
    cache->slot[victim].seed = seed;
    cache->slot[victim].used = ++cache->clock;
    *out = cache->slot[victim].M;
    return MAGNUS_SUCCESS;
}

static bool in_cache(const bench_rmat_cache *cache, const magnus_csr_s *M) {
    if (!cache) return false;
    for (size_t i = 0; i < sizeof cache->slot / sizeof cache->slot[0]; i++)
        if (cache->slot[i].M == M) return true;
    return false;
}

void bench_rmat_cache_free(bench_rmat_cache *cache) {
    for (size_t i = 0; i < sizeof cache->slot / sizeof cache->slot[0]; i++)
        magnus_csr_free(&cache->slot[i].M);
}

/* ---- loading ------------------------------------------------------------------------------- */
/* A file input (A, or A and B) with the tool's type rule (cli_inputs_load: auto follows the
 * files' fields); the matrices are handed over to d. */
static bool load_files(bench_data *d, const bench_input *in, magnus_value_type type,
                       cli_progress *progress, char *why, size_t n) {
    cli_input inputs[2] = {{.source = in->a_source}, {.source = in->b_source}};
    const int count = in->b_source[0] ? 2 : 1;
    int rc = cli_inputs_load(inputs, count, type, progress);
    if (rc != CLI_EXIT_OK) {
        snprintf(why, n, "cannot load %s: %s", count == 2 ? "A or B" : in->a_source,
                 cli_last_failure());
        cli_inputs_free(inputs, count);
        return false;
    }
    d->A = inputs[0].M;
    d->B = count == 2 ? inputs[1].M : d->A;
    d->type = d->A->type;
    return true;
}

static bool all_nonnegative(const magnus_csr_s *M) {
    for (int64_t e = 0; e < M->nnz; e++) {
        double v = M->type == MAGNUS_FLOAT64 ? ((const double *)M->values)[e]
                                             : ((const float *)M->values)[e];
        if (v < 0 || v != v) return false;
    }
    return true;
}

/* Products per row and the nnz(C) bound; false on overflow. */
static bool count_products(bench_data *d, char *why, size_t n) {
    const magnus_csr_s *A = d->A, *B = d->B;
    d->row_products = malloc(((size_t)A->rows + 1) * sizeof *d->row_products);
    if (!d->row_products) {
        snprintf(why, n, "out of host memory");
        return false;
    }
    int64_t total = 0, bound = 0;
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t p = 0;
        for (int64_t e = A->row_ptr[i]; e < A->row_ptr[i + 1]; e++) {
            int32_t k = A->col_idx[e];
            p += B->row_ptr[k + 1] - B->row_ptr[k];
        }
        d->row_products[i] = p;
        if (__builtin_add_overflow(total, p, &total)) {
            snprintf(why, n, "more than 2^63 intermediate products");
            return false;
        }
        bound += p < B->cols ? p : B->cols;
    }
    d->products = total;
    d->nnz_c_upper = bound;
    return true;
}

bool bench_data_load(bench_data *d, const bench_input *in, magnus_value_type type,
                     bench_rmat_cache *cache, cli_progress *progress, char *why, size_t n) {
    const magnus_value_type requested = type;
    memset(d, 0, sizeof *d);
    /* R-MAT inputs have no file to follow: auto is f32, as for generator specs */
    if (type == MAGNUS_MM_TYPE_AUTO) type = MAGNUS_FLOAT32;
    d->type = type;
    double t0 = cli_now();
    bool ok;
    if (in->kind == BENCH_INPUT_RMAT) {
        magnus_status s = rmat_get(&d->A, cache, in->scale, in->a_per_row, in->seed_a, type, progress);
        if (!s) s = rmat_get(&d->B, cache, in->scale, in->b_per_row, in->seed_b, type, progress);
        ok = s == MAGNUS_SUCCESS;
        if (!ok) snprintf(why, n, "R-MAT generation: %s: %s", magnus_status_string(s), magnus_last_error());
    } else {
        ok = load_files(d, in, requested, progress, why, n);
    }
    d->load_seconds = cli_now() - t0;
    if (ok && d->A->cols != d->B->rows) {
        snprintf(why, n, "A is %lld x %lld but B is %lld x %lld", (long long)d->A->rows,
                 (long long)d->A->cols, (long long)d->B->rows, (long long)d->B->cols);
        ok = false;
    }
    if (ok) ok = count_products(d, why, n);
    if (ok) d->nonnegative = all_nonnegative(d->A) && (d->B == d->A || all_nonnegative(d->B));
    return ok;
}

void bench_data_free(bench_data *d, const bench_rmat_cache *cache) {
    if (d->B != d->A && !in_cache(cache, d->B)) magnus_csr_free(&d->B);
    if (!in_cache(cache, d->A)) magnus_csr_free(&d->A);
    magnus_csr_free(&d->ref);
    magnus_csr_free(&d->magnitude);
    free(d->row_products);
    memset(d, 0, sizeof *d);
}

static double csr_bytes(int64_t rows, int64_t nnz, size_t value_bytes) {
    return (double)(rows + 1) * 8.0 + (double)nnz * (4.0 + (double)value_bytes);
}

uint64_t bench_data_need_bytes(const bench_data *d) {
    size_t vb = magnus_value_size(d->type);
    double bytes = csr_bytes(d->A->rows, d->A->nnz, vb);
    if (d->B != d->A) bytes += csr_bytes(d->B->rows, d->B->nnz, vb);
    bytes += csr_bytes(d->A->rows, d->nnz_c_upper, vb);
    bytes += (double)d->products * (4.0 + (double)vb) + (double)(d->A->rows + 1) * 8.0;
    return bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)bytes;
}

bool bench_data_reference(bench_data *d) {
    if (!d->ref_tried) {
        d->ref_tried = true;
        const double t0 = cli_now();
        d->ref_status = magnus_reference_spgemm(&d->ref, &d->magnitude, d->A, d->B);
        d->ref_seconds = cli_now() - t0;
    }
    return d->ref_status == MAGNUS_SUCCESS;
}

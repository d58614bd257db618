/*
 * The binned hash accumulator (interface and method: runtime/hash_accumulate.h; kernels:
 * kernels/hash_binning.cl, hash_rows.cl, hash_chunks.cl, lib/hash_accumulator.cl).
 *
 * One "phase" (symbolic or numeric, over rows or chunks) is: plan the bins from the local
 * memory budget, count and fill the bins on the device, read the bin sizes, size the global
 * tables of the items too large for local memory, launch every bin (largest first), wait.
 */
#include "hash_accumulate.h"

#include <stdlib.h>
#include <string.h>

/* Must match kernels/hash_binning.cl. */
#define HASH_BIN_GROUP 256
#define HASH_MAX_BINS 32
/* Smallest local table; smaller rows share a work group with others. */
#define HASH_MIN_TABLE 32
/* Work items per group: tiny-row groups, the cap on any group, the global-table kernels.
 * The cap is 256 although devices allow 1024: a kernel's own limit can be lower than the
 * device's (registers; NVIDIA's OpenCL refused the numeric kernel at 512 with
 * CL_OUT_OF_RESOURCES) and the backends do not report it. Through CUDA it is 1024: nvcc
 * -Xptxas -v gives every hash kernel at most 32 registers per work item on sm_90 (64 would
 * still fit 1024 items in an SM's 64K registers), and the largest tables, one work group per
 * SM, then keep 1024 work items resident instead of 256 (docs/performance.md, "Numeric
 * phase"). MAGNUS_HASH_GROUP_MAX (a power of two, 8 .. the device's work-group limit)
 * overrides the cap, for tuning and tests. */
#define HASH_SMALL_GROUP 256
#define HASH_MAX_GROUP 256
#define HASH_MAX_GROUP_CUDA 1024
#define HASH_GLOBAL_GROUP 256
/* Bytes of the budget left unused: NVIDIA's OpenCL refuses a launch whose dynamic local
 * memory reaches CL_DEVICE_LOCAL_MEM_SIZE (49152 fails, 49144 runs on an H200). */
#define HASH_LOCAL_RESERVE 16
/* Default bound on the global tables held at once (more rows run in several batches, each
 * waiting for its slowest row): a quarter of the device memory not in use, at least this. */
#define HASH_DEFAULT_SCRATCH ((uint64_t)256 << 20)
/* Largest block of a global item's sort staged in local memory. */
#define HASH_SORT_BLOCK 8192

/* One bin: the items with key in (previous max_key, max_key]. */
typedef struct hash_bin {
    int64_t max_key;
    uint32_t table;     /* slots of each item's local table; 0 for the empty and global bins */
    uint32_t lanes;     /* work items per item */
    uint32_t per_group; /* items per work group */
} hash_bin;

/* Local bytes per item beside its table: the symbolic count or the numeric compaction
 * counter (kernels/hash_rows.cl, hash_chunks.cl). */
#define HASH_ITEM_EXTRA 4

/* bin[0]: keys <= 0 (nothing to do, unless empty items must still be written), bins
 * 1 .. nbins-2: local tables of growing size, bin[nbins-1]: global tables. */
typedef struct hash_plan {
    int nbins;
    hash_bin bin[HASH_MAX_BINS];
    uint32_t group_cap; /* largest work group used */
} hash_plan;

typedef enum hash_source { HASH_SOURCE_ROWS, HASH_SOURCE_CHUNKS } hash_source;

/* Everything one phase needs; the kernels' arguments come from here. */
typedef struct hash_phase {
    magnus_context ctx;
    magnus_hash_config cfg;
    magnus_kernel_variant variant;
    size_t value_bytes;
    int numeric;
    hash_source source;
    const char *what; /* for error messages */
    /* items */
    const magnus_dbuf *ids;
    int64_t ids_offset, count;
    /* binning key of an item */
    const magnus_dbuf *keys;
    int key_is_ptr;
    int64_t key_cap;
    int empty_items_need_work; /* chunks symbolic: empty chunks still get a count of 0 */
    /* rows */
    const struct magnus_device_csr_s *A, *B;
    uint32_t team;
    magnus_dbuf *row_counts;
    const magnus_dbuf *C_rp;
    magnus_dbuf *C_col, *C_val;
    /* chunks */
    const magnus_hash_segments *seg;
    const magnus_hash_chunk_output *out;
    magnus_dbuf *chunk_counts;
} hash_phase;

/* Where one launch of a bin (or a batch of the global bin) finds its items and tables. */
typedef struct hash_launch {
    const magnus_dbuf *bins;
    int64_t bins_offset, count;
    int global;
    uint32_t table_size, lanes; /* local */
    uint32_t sort_net;          /* local numeric: sorting network size, >= the bin's entries */
    const magnus_dbuf *tables;  /* global: (offset, size) pairs */
    int64_t table_index;
    magnus_dbuf *table_keys, *table_vals;
    uint32_t sort_block;        /* global numeric: entries sorted at a time in local memory */
} hash_launch;

static uint64_t pow2_floor(uint64_t x) {
    uint64_t p = 1;
    while (p <= x / 2) p <<= 1;
    return x == 0 ? 0 : p;
}

static uint64_t pow2_ceil(uint64_t x) {
    uint64_t p = 1;
    while (p < x) p <<= 1;
    return p;
}

void magnus_hash_config_init(magnus_hash_config *cfg, magnus_queue_id q) {
    memset(cfg, 0, sizeof *cfg);
    cfg->main = cfg->heavy = cfg->light = q;
}

/* ---- planning ----------------------------------------------------------------------------- */

/* The largest work group of the bin kernels (see HASH_MAX_GROUP), within the device's. */
static magnus_status hash_group_cap(const magnus_context_s *ctx, uint32_t *out) {
    uint64_t device = ctx->device.max_work_group_size ? ctx->device.max_work_group_size : 256;
    uint64_t cap = ctx->device.backend == MAGNUS_BACKEND_CUDA ? HASH_MAX_GROUP_CUDA : HASH_MAX_GROUP;
    const char *env = getenv("MAGNUS_HASH_GROUP_MAX");
    if (env && *env) {
        char *end = NULL;
        unsigned long long v = strtoull(env, &end, 10);
        if (*end != 0 || v < 8 || v > device || (v & (v - 1)) != 0)
            return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                                "MAGNUS_HASH_GROUP_MAX=%s: expected a power of two from 8 to %llu "
                                "(the device's work-group limit)",
                                env, (unsigned long long)device);
        cap = v;
    }
    if (cap > device) cap = device;
    *out = (uint32_t)pow2_floor(cap);
    return MAGNUS_SUCCESS;
}

/* Bytes of local memory one item's table takes, and the per-item extra (symbolic counter). */
static uint64_t hash_slot_bytes(int numeric, size_t value_bytes) {
    return numeric ? 4 + value_bytes : 4;
}

static void hash_plan_add(hash_plan *p, int numeric, size_t value_bytes, uint64_t local_bytes,
                          uint64_t table) {
    hash_bin *b = &p->bin[p->nbins++];
    uint64_t slot = hash_slot_bytes(numeric, value_bytes), extra = HASH_ITEM_EXTRA;
    /* numeric: at least 2 slots per entry; symbolic: a row's products (an upper bound on its
     * columns) fill at most 3/4 of the table */
    b->max_key = numeric ? (int64_t)(table / 2) : (int64_t)(table - table / 4);
    b->table = (uint32_t)table;
    uint64_t lanes = pow2_floor(table / 8);
    if (lanes < 8) lanes = 8;
    if (lanes > p->group_cap) lanes = p->group_cap;
    uint64_t per_group = HASH_SMALL_GROUP / lanes;
    if (per_group < 1) per_group = 1;
    while (per_group > 1 && per_group * (table * slot + extra) > local_bytes) per_group /= 2;
    b->lanes = (uint32_t)lanes;
    b->per_group = (uint32_t)per_group;
}

/* The bins for one phase, with work groups of at most group_cap items; nbins == 2 (empty +
 * global) when local memory holds no table. */
static void hash_plan_build(hash_plan *p, const magnus_context_s *ctx, int numeric,
                            size_t value_bytes, uint32_t group_cap) {
    memset(p, 0, sizeof *p);
    p->group_cap = group_cap;
    uint64_t budget = ctx->device.local_mem_bytes;
    uint64_t local_bytes = budget > HASH_LOCAL_RESERVE ? budget - HASH_LOCAL_RESERVE : 0;
    uint64_t slot = hash_slot_bytes(numeric, value_bytes);
    /* largest table one item may have next to its 4-byte counter: numeric any even size
     * (modulo hashing), symbolic a power of two (mask) */
    uint64_t room = local_bytes > HASH_ITEM_EXTRA ? local_bytes - HASH_ITEM_EXTRA : 0;
    uint64_t largest = numeric ? (room / slot) & ~(uint64_t)1 : (room >= 4 ? pow2_floor(room / 4) : 0);
    if (largest > UINT32_MAX / 2) largest = pow2_floor(UINT32_MAX / 2);
    p->bin[p->nbins++] = (hash_bin){.max_key = 0};
    uint64_t last = 0;
    for (uint64_t t = HASH_MIN_TABLE; t <= largest && p->nbins < HASH_MAX_BINS - 2; t *= 2) {
        hash_plan_add(p, numeric, value_bytes, local_bytes, t);
        last = t;
    }
    if (largest > last && largest >= 4 && p->nbins < HASH_MAX_BINS - 1)
        hash_plan_add(p, numeric, value_bytes, local_bytes, largest);
    /* gMAGNUS sends rows and chunks of up to tau = budget / (2 * slot) entries; the reserve
     * must not push those out of local memory, so the largest table may run a few entries
     * past half full */
    hash_bin *top = &p->bin[p->nbins - 1];
    int64_t tau = (int64_t)(budget / (2 * slot));
    if (numeric && p->nbins > 1 && tau > top->max_key && tau < (int64_t)top->table)
        top->max_key = tau;
    p->bin[p->nbins++] = (hash_bin){.max_key = INT64_MAX};
}

void magnus_hash_local_capacity(const magnus_context_s *ctx, magnus_value_type type,
                                int64_t *symbolic_products, int64_t *numeric_nnz) {
    hash_plan p;
    size_t vb = magnus_value_size(type);
    /* the keys of the bins do not depend on the group size */
    if (symbolic_products) {
        hash_plan_build(&p, ctx, 0, vb, HASH_MAX_GROUP);
        *symbolic_products = p.bin[p.nbins - 2].max_key;
    }
    if (numeric_nnz) {
        hash_plan_build(&p, ctx, 1, vb, HASH_MAX_GROUP);
        *numeric_nnz = p.bin[p.nbins - 2].max_key;
    }
}

/* Dynamic local bytes of a launch of bin b (kernels/hash_rows.cl, hash_chunks.cl). */
static uint64_t hash_bin_local_bytes(const hash_bin *b, int numeric, size_t value_bytes) {
    return (uint64_t)b->per_group *
           ((uint64_t)b->table * hash_slot_bytes(numeric, value_bytes) + HASH_ITEM_EXTRA);
}

magnus_status magnus_hash_bin_shape_of(magnus_hash_bin_shape *out, const magnus_context_s *ctx,
                                       magnus_value_type type, int numeric, int64_t key) {
    if (!out || !ctx)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_hash_bin_shape_of: NULL argument");
    memset(out, 0, sizeof *out);
    size_t vb = magnus_value_size(type);
    if (vb == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "magnus_hash_bin_shape_of: type %d",
                            (int)type);
    uint32_t cap = 0;
    magnus_status s = hash_group_cap(ctx, &cap);
    if (s) return s;
    hash_plan p;
    hash_plan_build(&p, ctx, numeric != 0, vb, cap);
    if (key <= 0) return MAGNUS_SUCCESS;
    int b = 1;
    while (b < p.nbins - 1 && key > p.bin[b].max_key) b++;
    const hash_bin *bin = &p.bin[b];
    if (bin->table == 0) return MAGNUS_SUCCESS;
    out->table = bin->table;
    out->lanes = bin->lanes;
    out->per_group = bin->per_group;
    out->local_bytes = hash_bin_local_bytes(bin, numeric != 0, vb);
    return MAGNUS_SUCCESS;
}

/* Slots of the global table of an item with (capped) key `key`. */
static uint64_t hash_global_slots(int numeric, int64_t key) {
    uint64_t k = key > 0 ? (uint64_t)key : 1;
    return numeric ? 2 * k : pow2_ceil(k + k / 3 + 1);
}

/* ---- kernel arguments --------------------------------------------------------------------- */

static const char *hash_kernel_name(const hash_phase *ph, int global) {
    static const char *names[2][2][2] = {
        {{"hash_rows_symbolic_local", "hash_rows_symbolic_global"},
         {"hash_rows_numeric_local", "hash_rows_numeric_global"}},
        {{"hash_chunks_symbolic_local", "hash_chunks_symbolic_global"},
         {"hash_chunks_numeric_local", "hash_chunks_numeric_global"}}};
    return names[ph->source == HASH_SOURCE_CHUNKS][ph->numeric != 0][global != 0];
}

/* Fills args[] for the bin kernel of `ph` (order as in kernels/hash_rows.cl, hash_chunks.cl)
 * and returns their number. */
static int hash_kernel_args(magnus_karg *args, const hash_phase *ph, const hash_launch *l) {
    int n = 0;
    uint32_t lanes = l->global ? HASH_GLOBAL_GROUP : l->lanes;
    uint32_t team = ph->team < lanes ? ph->team : lanes;
    if (ph->source == HASH_SOURCE_ROWS) {
        args[n++] = magnus_arg_mem(&ph->A->row_ptr);
        args[n++] = magnus_arg_mem(&ph->A->col_idx);
        if (ph->numeric) args[n++] = magnus_arg_mem(&ph->A->values);
        args[n++] = magnus_arg_mem(&ph->B->row_ptr);
        args[n++] = magnus_arg_mem(&ph->B->col_idx);
        if (ph->numeric) args[n++] = magnus_arg_mem(&ph->B->values);
        args[n++] = magnus_arg_mem(l->bins);
        args[n++] = magnus_arg_i64(l->bins_offset);
        if (!l->global) args[n++] = magnus_arg_i64(l->count);
        if (ph->numeric) {
            args[n++] = magnus_arg_mem(ph->C_rp);
            args[n++] = magnus_arg_mem(ph->C_col);
            args[n++] = magnus_arg_mem(ph->C_val);
        } else {
            args[n++] = magnus_arg_mem(ph->row_counts);
        }
    } else {
        const magnus_hash_segments *s = ph->seg;
        args[n++] = magnus_arg_mem(s->ptr);
        args[n++] = magnus_arg_mem(s->col);
        if (ph->numeric) args[n++] = magnus_arg_mem(s->val);
        args[n++] = magnus_arg_mem(l->bins);
        args[n++] = magnus_arg_i64(l->bins_offset);
        if (!l->global) args[n++] = magnus_arg_i64(l->count);
        if (ph->numeric) {
            const magnus_hash_chunk_output *o = ph->out;
            args[n++] = magnus_arg_mem(o->offset);
            args[n++] = magnus_arg_mem(o->nnz ? o->nnz : o->offset);
            args[n++] = magnus_arg_i32(o->nnz ? 0 : 1);
            args[n++] = magnus_arg_mem(o->col_shift ? o->col_shift : o->offset);
            args[n++] = magnus_arg_i32(o->col_shift ? 1 : 0);
            args[n++] = magnus_arg_i64(o->shift_period);
            args[n++] = magnus_arg_i64(o->shift_step);
            args[n++] = magnus_arg_mem(o->C_col);
            args[n++] = magnus_arg_mem(o->C_val);
        } else {
            args[n++] = magnus_arg_mem(ph->chunk_counts);
        }
    }
    if (l->global) {
        args[n++] = magnus_arg_mem(l->tables);
        args[n++] = magnus_arg_i64(l->table_index);
        args[n++] = magnus_arg_mem(l->table_keys);
        if (ph->numeric) args[n++] = magnus_arg_mem(l->table_vals);
    } else {
        args[n++] = magnus_arg_u32(l->table_size);
        args[n++] = magnus_arg_u32(l->lanes);
    }
    if (ph->source == HASH_SOURCE_ROWS) args[n++] = magnus_arg_u32(team);
    if (!l->global && ph->numeric) args[n++] = magnus_arg_u32(l->sort_net);
    if (l->global && ph->numeric) args[n++] = magnus_arg_u32(l->sort_block);
    return n;
}

/* ---- one phase ---------------------------------------------------------------------------- */

/* Device buffers of one phase, freed together. */
typedef struct hash_work {
    magnus_dbuf bounds, sizes, key_sum, pos, bins, gkeys, tables, tkeys, tvals;
} hash_work;

static void hash_work_free(magnus_context ctx, hash_work *w) {
    magnus_dbuf *all[] = {&w->bounds, &w->sizes, &w->key_sum, &w->pos,  &w->bins,
                          &w->gkeys,  &w->tables, &w->tkeys,  &w->tvals};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) magnus_dbuf_free(ctx, all[i]);
}

/* The binning key arguments shared by the count and fill kernels. */
static int hash_binning_args(magnus_karg *a, const hash_phase *ph, const hash_work *w,
                             const hash_plan *p) {
    int n = 0;
    a[n++] = magnus_arg_mem(ph->ids ? ph->ids : ph->keys);
    a[n++] = magnus_arg_i64(ph->ids_offset);
    a[n++] = magnus_arg_i32(ph->ids ? 1 : 0);
    a[n++] = magnus_arg_i64(ph->count);
    a[n++] = magnus_arg_mem(ph->keys);
    a[n++] = magnus_arg_i32(ph->key_is_ptr);
    a[n++] = magnus_arg_i64(ph->key_cap);
    a[n++] = magnus_arg_mem(&w->bounds);
    a[n++] = magnus_arg_u32((uint32_t)p->nbins);
    return n;
}

/* Bins the items: sizes[] and offsets[] on the host, the grouped ids in w->bins. */
static magnus_status hash_bin_items(const hash_phase *ph, const hash_plan *p, hash_work *w,
                                    uint32_t *sizes, int64_t *offsets, magnus_hash_stats *st) {
    magnus_context ctx = ph->ctx;
    magnus_queue_id q = ph->cfg.main;
    magnus_status s;
    int64_t bounds[HASH_MAX_BINS];
    uint32_t zeros[HASH_MAX_BINS] = {0};
    uint64_t key_sum = 0;
    for (int b = 0; b < p->nbins; b++) bounds[b] = p->bin[b].max_key;
    if ((s = magnus_dbuf_alloc(ctx, sizeof bounds, &w->bounds)) ||
        (s = magnus_dbuf_alloc(ctx, sizeof zeros, &w->sizes)) ||
        (s = magnus_dbuf_alloc(ctx, sizeof key_sum, &w->key_sum)) ||
        (s = magnus_dbuf_alloc(ctx, sizeof zeros, &w->pos)) ||
        (s = magnus_dbuf_alloc(ctx, (size_t)ph->count * sizeof(uint32_t), &w->bins)))
        return s;
    if ((s = magnus_dbuf_write(ctx, q, &w->bounds, 0, bounds, sizeof bounds)) ||
        (s = magnus_dbuf_write(ctx, q, &w->sizes, 0, zeros, sizeof zeros)) ||
        (s = magnus_dbuf_write(ctx, q, &w->key_sum, 0, &key_sum, sizeof key_sum)))
        return s;

    size_t groups = (size_t)((ph->count + HASH_BIN_GROUP - 1) / HASH_BIN_GROUP);
    magnus_karg a[16];
    int n = hash_binning_args(a, ph, w, p);
    a[n++] = magnus_arg_mem(&w->sizes);
    a[n++] = magnus_arg_mem(&w->key_sum);
    if ((s = magnus_launch(ctx, q, ph->variant, "hash_bin_count", groups, HASH_BIN_GROUP, 0, n,
                           a)))
        return s;
    if ((s = magnus_dbuf_read(ctx, q, sizes, &w->sizes, 0, sizeof(uint32_t) * p->nbins)) ||
        (s = magnus_dbuf_read(ctx, q, &key_sum, &w->key_sum, 0, sizeof key_sum)))
        return s;

    uint32_t pos[HASH_MAX_BINS] = {0};
    int64_t total = 0;
    for (int b = 0; b < p->nbins; b++) {
        offsets[b] = total;
        pos[b] = (uint32_t)total;
        total += sizes[b];
    }
    offsets[p->nbins] = total;
    if (total != ph->count)
        return magnus_error(MAGNUS_ERROR_INTERNAL, "%s: binning counted %lld of %lld items",
                            ph->what, (long long)total, (long long)ph->count);
    if ((s = magnus_dbuf_write(ctx, q, &w->pos, 0, pos, sizeof pos))) return s;
    n = hash_binning_args(a, ph, w, p);
    a[n++] = magnus_arg_mem(&w->pos);
    a[n++] = magnus_arg_mem(&w->bins);
    if ((s = magnus_launch(ctx, q, ph->variant, "hash_bin_fill", groups, HASH_BIN_GROUP, 0, n, a)))
        return s;
    st->launches += 2;
    st->key_total += (int64_t)key_sum;
    return MAGNUS_SUCCESS;
}

/* The global bin: one table per item in a scratch region, as few batches as the scratch
 * bound allows. Launched on the heavy queue. */
static magnus_status hash_run_global(const hash_phase *ph, hash_work *w, int64_t bins_offset,
                                     int64_t count, magnus_hash_stats *st) {
    magnus_context ctx = ph->ctx;
    magnus_status s;
    int64_t *keys = NULL, *tables = NULL;
    int64_t *batch_start = NULL;
    size_t slot_bytes = hash_slot_bytes(ph->numeric, ph->value_bytes);

    /* capped keys of the global items, in bin order */
    if ((s = magnus_dbuf_alloc(ctx, (size_t)count * sizeof(int64_t), &w->gkeys))) return s;
    magnus_karg a[20];
    int n = 0;
    a[n++] = magnus_arg_mem(&w->bins);
    a[n++] = magnus_arg_i64(bins_offset);
    a[n++] = magnus_arg_i64(count);
    a[n++] = magnus_arg_mem(ph->keys);
    a[n++] = magnus_arg_i32(ph->key_is_ptr);
    a[n++] = magnus_arg_i64(ph->key_cap);
    a[n++] = magnus_arg_mem(&w->gkeys);
    if ((s = magnus_launch(ctx, ph->cfg.main, ph->variant, "hash_gather_keys",
                           (size_t)((count + HASH_BIN_GROUP - 1) / HASH_BIN_GROUP), HASH_BIN_GROUP,
                           0, n, a)))
        return s;
    st->launches++;
    keys = magnus_host_malloc((size_t)count * sizeof *keys);
    tables = magnus_host_malloc((size_t)count * 2 * sizeof *tables);
    batch_start = magnus_host_malloc(((size_t)count + 1) * sizeof *batch_start);
    if (!keys || !tables || !batch_start) {
        s = magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "%s: global table plan", ph->what);
        goto done;
    }
    if ((s = magnus_dbuf_read(ctx, ph->cfg.main, keys, &w->gkeys, 0,
                              (size_t)count * sizeof *keys)))
        goto done;

    /* scratch: the configured bound (default: a quarter of the free device memory), but never
     * less than the largest table, never more than all tables together, at most half of what
     * a context memory limit leaves, each buffer within the device's largest allocation */
    uint64_t bound = ph->cfg.global_scratch_bytes;
    if (bound == 0) {
        uint64_t total = ctx->device.global_mem_bytes, used = ctx->memory_in_use;
        bound = total > used ? (total - used) / 4 : 0;
        if (bound < HASH_DEFAULT_SCRATCH) bound = HASH_DEFAULT_SCRATCH;
    }
    if (ctx->memory_limit > ctx->memory_in_use) {
        uint64_t half_left = (ctx->memory_limit - ctx->memory_in_use) / 2;
        if (half_left < bound) bound = half_left;
    }
    uint64_t bound_slots = bound / slot_bytes, largest = 0, all = 0;
    /* and each scratch buffer within the device's largest allocation */
    uint64_t widest = ph->numeric && ph->value_bytes > 4 ? ph->value_bytes : 4;
    if (ctx->device.max_alloc_bytes && bound_slots > ctx->device.max_alloc_bytes / widest)
        bound_slots = ctx->device.max_alloc_bytes / widest;
    /* table sizes first (they bound the scratch), then their offsets batch by batch */
    for (int64_t i = 0; i < count; i++) {
        uint64_t t = hash_global_slots(ph->numeric, keys[i]);
        tables[2 * i + 1] = (int64_t)t;
        if (t > largest) largest = t;
        all += t;
    }
    uint64_t scratch = bound_slots < largest ? largest : bound_slots;
    if (scratch > all) scratch = all;
    int64_t nbatches = 0;
    uint64_t used = 0;
    for (int64_t i = 0; i < count; i++) {
        uint64_t t = (uint64_t)tables[2 * i + 1];
        if (i == 0 || used + t > scratch) {
            batch_start[nbatches++] = i;
            used = 0;
        }
        tables[2 * i] = (int64_t)used;
        used += t;
    }
    batch_start[nbatches] = count;

    size_t key_bytes, val_bytes = 0;
    if (!magnus_mul_size((size_t)scratch, 4, &key_bytes) ||
        (ph->numeric && !magnus_mul_size((size_t)scratch, ph->value_bytes, &val_bytes))) {
        s = magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "%s: global hash tables of %llu slots",
                         ph->what, (unsigned long long)scratch);
        goto done;
    }
    if ((s = magnus_dbuf_alloc(ctx, (size_t)count * 2 * sizeof *tables, &w->tables)) ||
        (s = magnus_dbuf_alloc(ctx, key_bytes, &w->tkeys)) ||
        (ph->numeric && (s = magnus_dbuf_alloc(ctx, val_bytes, &w->tvals))))
        goto done;
    if ((s = magnus_dbuf_write(ctx, ph->cfg.main, &w->tables, 0, tables,
                               (size_t)count * 2 * sizeof *tables)))
        goto done;
    if (ph->cfg.heavy != ph->cfg.main &&
        (s = magnus_queue_depend(ctx, ph->cfg.heavy, ph->cfg.main)))
        goto done;

    /* numeric: a row is compacted into C and sorted there, in local-memory blocks of this
     * many entries for all but the widest merge steps (at most 8192: occupancy) */
    uint64_t usable = ctx->device.local_mem_bytes > HASH_LOCAL_RESERVE
                          ? ctx->device.local_mem_bytes - HASH_LOCAL_RESERVE
                          : 0;
    uint64_t sort_block = pow2_floor(usable / slot_bytes);
    if (sort_block > HASH_SORT_BLOCK) sort_block = HASH_SORT_BLOCK;
    if (sort_block < 1) sort_block = 1;
    size_t sort_bytes = ph->numeric && sort_block > 1 ? (size_t)(sort_block * slot_bytes) : 0;

    /* batches share the scratch: the heavy queue is in order, so each starts after the last */
    for (int64_t b = 0; b < nbatches; b++) {
        hash_launch l = {.bins = &w->bins,
                         .bins_offset = bins_offset + batch_start[b],
                         .count = batch_start[b + 1] - batch_start[b],
                         .global = 1,
                         .tables = &w->tables,
                         .table_index = batch_start[b],
                         .table_keys = &w->tkeys,
                         .table_vals = ph->numeric ? &w->tvals : &w->tkeys,
                         .sort_block = (uint32_t)sort_block};
        magnus_karg ka[24];
        int kn = hash_kernel_args(ka, ph, &l);
        if ((s = magnus_launch(ctx, ph->cfg.heavy, ph->variant, hash_kernel_name(ph, 1),
                               (size_t)l.count, HASH_GLOBAL_GROUP, sort_bytes, kn, ka)))
            goto done;
        st->launches++;
    }
    st->items_global += count;
    st->global_batches += nbatches;
    uint64_t bytes = key_bytes + val_bytes;
    if (bytes > st->global_table_bytes) st->global_table_bytes = bytes;
done:
    magnus_host_free(keys);
    magnus_host_free(tables);
    magnus_host_free(batch_start);
    return s;
}

static magnus_status hash_run_phase(const hash_phase *ph, magnus_hash_stats *stats) {
    magnus_context ctx = ph->ctx;
    magnus_hash_stats local_stats = {0};
    magnus_hash_stats *st = stats ? stats : &local_stats;
    st->items += ph->count;
    if (ph->count == 0) return MAGNUS_SUCCESS;
    if (ph->count > (int64_t)UINT32_MAX)
        return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "%s: %lld items exceed 32-bit ids",
                            ph->what, (long long)ph->count);
    if (ctx->device.max_work_group_size != 0 && ctx->device.max_work_group_size < HASH_BIN_GROUP)
        return magnus_error(MAGNUS_ERROR_FEATURE_UNSUPPORTED,
                            "%s: the hash kernels need work groups of %d items (device: %llu)",
                            ph->what, HASH_BIN_GROUP,
                            (unsigned long long)ctx->device.max_work_group_size);

    uint32_t group_cap = 0;
    magnus_status s = hash_group_cap(ctx, &group_cap);
    if (s) return s;
    hash_plan plan;
    hash_plan_build(&plan, ctx, ph->numeric, ph->value_bytes, group_cap);
    if (ph->empty_items_need_work) plan.bin[0].max_key = -1;
    hash_work w;
    memset(&w, 0, sizeof w);
    uint32_t sizes[HASH_MAX_BINS];
    int64_t offsets[HASH_MAX_BINS + 1];
    s = hash_bin_items(ph, &plan, &w, sizes, offsets, st);
    if (s) goto done;
    int last = plan.nbins - 1;
    if (sizes[last] > 0 && (s = hash_run_global(ph, &w, offsets[last], sizes[last], st)))
        goto done;
    if (ph->cfg.heavy != ph->cfg.main && (s = magnus_queue_depend(ctx, ph->cfg.heavy, ph->cfg.main)))
        goto done;
    if (ph->cfg.light != ph->cfg.main && ph->cfg.light != ph->cfg.heavy &&
        (s = magnus_queue_depend(ctx, ph->cfg.light, ph->cfg.main)))
        goto done;

    /* local bins, largest first; the largest non-empty one joins the global work on heavy */
    int first = 1;
    for (int b = last - 1; b >= 1; b--) {
        if (sizes[b] == 0) continue;
        const hash_bin *bin = &plan.bin[b];
        hash_launch l = {.bins = &w.bins,
                         .bins_offset = offsets[b],
                         .count = sizes[b],
                         .table_size = bin->table,
                         .lanes = bin->lanes,
                         .sort_net = (uint32_t)pow2_ceil((uint64_t)bin->max_key)};
        uint64_t local_bytes = hash_bin_local_bytes(bin, ph->numeric, ph->value_bytes);
        magnus_karg ka[24];
        int kn = hash_kernel_args(ka, ph, &l);
        size_t groups = (size_t)((l.count + bin->per_group - 1) / bin->per_group);
        if ((s = magnus_launch(ctx, first ? ph->cfg.heavy : ph->cfg.light, ph->variant,
                               hash_kernel_name(ph, 0), groups,
                               (size_t)bin->lanes * bin->per_group, (size_t)local_bytes, kn, ka)))
            goto done;
        st->launches++;
        first = 0;
    }
    if (ph->cfg.heavy != ph->cfg.main && (s = magnus_queue_depend(ctx, ph->cfg.main, ph->cfg.heavy)))
        goto done;
    if (ph->cfg.light != ph->cfg.main && (s = magnus_queue_depend(ctx, ph->cfg.main, ph->cfg.light)))
        goto done;
done:
    /* Device buffers may only be freed once no queued work uses them; after an error the
     * queues are drained all the same (their own error, if any, is secondary). */
    if (s == MAGNUS_SUCCESS)
        s = magnus_queue_finish(ctx, ph->cfg.main);
    else
        magnus_context_finish_after_error(ctx, s);
    hash_work_free(ctx, &w);
    return s;
}

/* ---- public (internal) entry points ------------------------------------------------------- */

static magnus_status hash_check_dbuf(const magnus_dbuf *b, const char *what, const char *name) {
    if (!b || !b->mem) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "%s: %s is NULL", what, name);
    return MAGNUS_SUCCESS;
}

static magnus_status hash_check_items(magnus_context ctx, const magnus_dbuf *ids,
                                      int64_t ids_offset, int64_t count, const char *what) {
    if (!ctx || ctx->magic != MAGNUS_MAGIC_CONTEXT)
        return magnus_error(MAGNUS_ERROR_INVALID_HANDLE, "%s: invalid context", what);
    if (count < 0 || ids_offset < 0)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "%s: count %lld, ids offset %lld",
                            what, (long long)count, (long long)ids_offset);
    if (ids && (uint64_t)(ids_offset + count) * 4 > ids->bytes)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s: ids [%lld, %lld) exceed the id buffer of %zu bytes", what,
                            (long long)ids_offset, (long long)(ids_offset + count), ids->bytes);
    return MAGNUS_SUCCESS;
}

/* Threads per A entry: about one per element of an average B row (kernels/hash_rows.cl). */
static uint32_t hash_team(const struct magnus_device_csr_s *B) {
    uint64_t avg = B->rows > 0 ? (uint64_t)(B->nnz / B->rows) : 1;
    uint64_t team = pow2_ceil(avg ? avg : 1);
    return (uint32_t)(team > 32 ? 32 : team);
}

/* What a phase over rows and one over chunks both start from: the configuration (the main
 * queue's default without one), the kernels of the value type, and the items. */
static void hash_phase_init(hash_phase *ph, magnus_context ctx, const magnus_hash_config *cfg,
                            magnus_value_type type, hash_source source, const magnus_dbuf *ids,
                            int64_t ids_offset, int64_t count) {
    memset(ph, 0, sizeof *ph);
    ph->ctx = ctx;
    if (cfg)
        ph->cfg = *cfg;
    else
        magnus_hash_config_init(&ph->cfg, MAGNUS_QUEUE_MAIN);
    ph->variant = magnus_variant_of(type);
    ph->value_bytes = magnus_value_size(type);
    ph->source = source;
    ph->ids = ids;
    ph->ids_offset = ids_offset;
    ph->count = count;
}

static void hash_phase_rows(hash_phase *ph, magnus_context ctx, const magnus_hash_config *cfg,
                            const struct magnus_device_csr_s *A,
                            const struct magnus_device_csr_s *B, const magnus_dbuf *ids,
                            int64_t ids_offset, int64_t count) {
    hash_phase_init(ph, ctx, cfg, A->type, HASH_SOURCE_ROWS, ids, ids_offset, count);
    ph->A = A;
    ph->B = B;
    ph->team = hash_team(B);
}

static magnus_status hash_check_rows(const struct magnus_device_csr_s *A,
                                     const struct magnus_device_csr_s *B, const char *what) {
    if (!A || !B || A->magic != MAGNUS_MAGIC_DEVICE_CSR || B->magic != MAGNUS_MAGIC_DEVICE_CSR)
        return magnus_error(MAGNUS_ERROR_INVALID_HANDLE, "%s: invalid device matrix", what);
    if (A->cols != B->rows)
        return magnus_error(MAGNUS_ERROR_DIMENSION_MISMATCH, "%s: A is %lldx%lld, B is %lldx%lld",
                            what, (long long)A->rows, (long long)A->cols, (long long)B->rows,
                            (long long)B->cols);
    if (A->type != B->type)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "%s: A and B differ in value type", what);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_hash_rows_products(magnus_context ctx, magnus_queue_id q,
                                        const struct magnus_device_csr_s *A,
                                        const struct magnus_device_csr_s *B,
                                        const magnus_dbuf *ids, int64_t ids_offset, int64_t count,
                                        magnus_dbuf *products, magnus_hash_stats *stats) {
    const char *what = "hash products";
    magnus_status s;
    if ((s = hash_check_items(ctx, ids, ids_offset, count, what)) ||
        (s = hash_check_rows(A, B, what)) || (s = hash_check_dbuf(products, what, "products")))
        return s;
    if (count == 0) return MAGNUS_SUCCESS;
    magnus_karg a[9];
    int n = 0;
    a[n++] = magnus_arg_mem(&A->row_ptr);
    a[n++] = magnus_arg_mem(&A->col_idx);
    a[n++] = magnus_arg_mem(&B->row_ptr);
    a[n++] = magnus_arg_mem(ids ? ids : products);
    a[n++] = magnus_arg_i64(ids_offset);
    a[n++] = magnus_arg_i32(ids ? 1 : 0);
    a[n++] = magnus_arg_i64(count);
    a[n++] = magnus_arg_mem(products);
    s = magnus_launch(ctx, q, magnus_variant_of(A->type), "hash_row_products",
                      (size_t)((count + HASH_BIN_GROUP - 1) / HASH_BIN_GROUP), HASH_BIN_GROUP, 0,
                      n, a);
    if (s == MAGNUS_SUCCESS && stats) stats->launches++;
    return s;
}

magnus_status magnus_hash_rows_symbolic(magnus_context ctx, const magnus_hash_config *cfg,
                                        const struct magnus_device_csr_s *A,
                                        const struct magnus_device_csr_s *B,
                                        const magnus_dbuf *ids, int64_t ids_offset, int64_t count,
                                        magnus_dbuf *row_counts, magnus_hash_stats *stats) {
    const char *what = "hash symbolic (rows)";
    magnus_status s;
    if ((s = hash_check_items(ctx, ids, ids_offset, count, what)) ||
        (s = hash_check_rows(A, B, what)) || (s = hash_check_dbuf(row_counts, what, "row counts")))
        return s;
    hash_phase ph;
    hash_phase_rows(&ph, ctx, cfg, A, B, ids, ids_offset, count);
    ph.what = what;
    ph.keys = row_counts;
    ph.key_cap = B->cols;
    ph.row_counts = row_counts;
    return hash_run_phase(&ph, stats);
}

magnus_status magnus_hash_rows_numeric(magnus_context ctx, const magnus_hash_config *cfg,
                                       const struct magnus_device_csr_s *A,
                                       const struct magnus_device_csr_s *B,
                                       const magnus_dbuf *ids, int64_t ids_offset, int64_t count,
                                       const magnus_dbuf *C_row_ptr, magnus_dbuf *C_col,
                                       magnus_dbuf *C_val, magnus_hash_stats *stats) {
    const char *what = "hash numeric (rows)";
    magnus_status s;
    if ((s = hash_check_items(ctx, ids, ids_offset, count, what)) ||
        (s = hash_check_rows(A, B, what)) || (s = hash_check_dbuf(C_row_ptr, what, "C.row_ptr")) ||
        (s = hash_check_dbuf(C_col, what, "C.col")) || (s = hash_check_dbuf(C_val, what, "C.val")))
        return s;
    hash_phase ph;
    hash_phase_rows(&ph, ctx, cfg, A, B, ids, ids_offset, count);
    ph.what = what;
    ph.numeric = 1;
    ph.keys = C_row_ptr;
    ph.key_is_ptr = 1;
    ph.C_rp = C_row_ptr;
    ph.C_col = C_col;
    ph.C_val = C_val;
    return hash_run_phase(&ph, stats);
}

static magnus_status hash_check_segments(const magnus_hash_segments *seg, int numeric,
                                         const char *what) {
    magnus_status s;
    if (!seg) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "%s: segments are NULL", what);
    if ((s = hash_check_dbuf(seg->ptr, what, "segment ptr")) ||
        (s = hash_check_dbuf(seg->col, what, "segment col")) ||
        (numeric && (s = hash_check_dbuf(seg->val, what, "segment val"))))
        return s;
    if (magnus_value_size(seg->type) == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "%s: value type %d", what,
                            (int)seg->type);
    if (seg->col_range < 0)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "%s: column range %lld", what,
                            (long long)seg->col_range);
    return MAGNUS_SUCCESS;
}

static void hash_phase_chunks(hash_phase *ph, magnus_context ctx, const magnus_hash_config *cfg,
                              const magnus_hash_segments *seg, const magnus_dbuf *ids,
                              int64_t ids_offset, int64_t count) {
    hash_phase_init(ph, ctx, cfg, seg->type, HASH_SOURCE_CHUNKS, ids, ids_offset, count);
    ph->seg = seg;
}

magnus_status magnus_hash_chunks_symbolic(magnus_context ctx, const magnus_hash_config *cfg,
                                          const magnus_hash_segments *seg,
                                          const magnus_dbuf *ids, int64_t ids_offset,
                                          int64_t count, magnus_dbuf *counts,
                                          magnus_hash_stats *stats) {
    const char *what = "hash symbolic (chunks)";
    magnus_status s;
    if ((s = hash_check_items(ctx, ids, ids_offset, count, what)) ||
        (s = hash_check_segments(seg, 0, what)) || (s = hash_check_dbuf(counts, what, "counts")))
        return s;
    hash_phase ph;
    hash_phase_chunks(&ph, ctx, cfg, seg, ids, ids_offset, count);
    ph.what = what;
    ph.keys = seg->ptr;
    ph.key_is_ptr = 1;
    ph.key_cap = seg->col_range;
    ph.empty_items_need_work = 1;
    ph.chunk_counts = counts;
    return hash_run_phase(&ph, stats);
}

magnus_status magnus_hash_chunks_numeric(magnus_context ctx, const magnus_hash_config *cfg,
                                         const magnus_hash_segments *seg, const magnus_dbuf *ids,
                                         int64_t ids_offset, int64_t count,
                                         const magnus_hash_chunk_output *out,
                                         magnus_hash_stats *stats) {
    const char *what = "hash numeric (chunks)";
    magnus_status s;
    if ((s = hash_check_items(ctx, ids, ids_offset, count, what)) ||
        (s = hash_check_segments(seg, 1, what)))
        return s;
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "%s: output is NULL", what);
    if ((s = hash_check_dbuf(out->offset, what, "output offsets")) ||
        (s = hash_check_dbuf(out->C_col, what, "C.col")) ||
        (s = hash_check_dbuf(out->C_val, what, "C.val")))
        return s;
    if (out->shift_period < 0)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "%s: shift period %lld", what,
                            (long long)out->shift_period);
    hash_phase ph;
    hash_phase_chunks(&ph, ctx, cfg, seg, ids, ids_offset, count);
    ph.what = what;
    ph.numeric = 1;
    ph.keys = out->nnz ? out->nnz : out->offset;
    ph.key_is_ptr = out->nnz ? 0 : 1;
    ph.out = out;
    return hash_run_phase(&ph, stats);
}

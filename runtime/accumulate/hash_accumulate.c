/*
 * The binned hash accumulator's entry points (interface and method: hash_accumulate.h;
 * kernels: kernels/hash_binning.cl, hash_rows.cl, hash_chunks.cl, lib/hash_accumulator.cl):
 * each checks its arguments, describes one phase over rows or chunks and runs it
 * (hash_phase.c). The steps of a phase are in the other files of runtime/accumulate/
 * (hash_private.h lists them).
 */
#include "hash_private.h"
#include "kernels.h"

#include <string.h>

void magnus_hash_config_init(magnus_hash_config *cfg, magnus_queue_id q) {
    memset(cfg, 0, sizeof *cfg);
    cfg->main = cfg->heavy = cfg->light = q;
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

/* What a phase over rows and one over chunks both start from: its name in messages, the
 * configuration (the main queue's default without one), the kernels of the value type, and
 * the items. */
static void hash_phase_init(hash_phase *ph, const char *what, magnus_context ctx,
                            const magnus_hash_config *cfg, magnus_value_type type,
                            hash_source source, const magnus_dbuf *ids, int64_t ids_offset,
                            int64_t count) {
    memset(ph, 0, sizeof *ph);
    ph->what = what;
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

static void hash_phase_rows(hash_phase *ph, const char *what, magnus_context ctx,
                            const magnus_hash_config *cfg, const struct magnus_device_csr_s *A,
                            const struct magnus_device_csr_s *B, const magnus_dbuf *ids,
                            int64_t ids_offset, int64_t count) {
    hash_phase_init(ph, what, ctx, cfg, A->type, HASH_SOURCE_ROWS, ids, ids_offset, count);
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
    /* without an id list, products stands in for it (has_ids 0: unread) */
    s = magnus_k_hash_row_products(ctx, q, magnus_variant_of(A->type),
                                   (size_t)((count + HASH_BIN_GROUP - 1) / HASH_BIN_GROUP),
                                   HASH_BIN_GROUP, 0, &A->row_ptr, &A->col_idx, &B->row_ptr,
                                   ids ? ids : products, ids_offset, ids ? 1 : 0, count, products);
    if (s == MAGNUS_SUCCESS && stats) stats->launches++;
    return s;
}

magnus_status magnus_hash_rows_overflow_sample(magnus_context ctx, magnus_queue_id q,
                                               const struct magnus_device_csr_s *A,
                                               const struct magnus_device_csr_s *B,
                                               const magnus_dbuf *offsets, uint32_t samples,
                                               int64_t numeric_cap, int64_t symbolic_cap,
                                               magnus_dbuf *stats) {
    const char *what = "hash overflow sample";
    magnus_status s;
    if ((s = hash_check_rows(A, B, what)) || (s = hash_check_dbuf(stats, what, "stats")))
        return s;
    if (!offsets || offsets->bytes < (size_t)(A->rows + 1) * 8 ||
        stats->bytes < ((size_t)samples + 1) * 8 || samples == 0)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "%s: %u samples, offsets of %zu bytes for %lld rows, stats of %zu "
                            "bytes",
                            what, samples, offsets ? offsets->bytes : 0, (long long)A->rows,
                            stats->bytes);
    /* the smallest power of two of slots that holds symbolic_cap keys at 3/4 (what the
     * symbolic bins allow; it fits the budget since symbolic_cap came from it) */
    uint64_t table = 4;
    while (table - table / 4 < (uint64_t)(symbolic_cap > 0 ? symbolic_cap : 0)) table *= 2;
    if (numeric_cap >= symbolic_cap) table = 4; /* no row can be sampled: the kernel only
                                                   writes the total */
    const uint64_t zero = 0;
    if ((s = magnus_dbuf_fill(ctx, q, stats, 0, &zero, sizeof zero, ((size_t)samples + 1) * 8)))
        return s;
    return magnus_k_hash_rows_overflow_sample(
        ctx, q, magnus_variant_of(A->type), samples, HASH_BIN_GROUP, table * MG_HASH_KEY_BYTES,
        &A->row_ptr, &A->col_idx, &B->row_ptr, &B->col_idx, offsets, A->rows, numeric_cap,
        symbolic_cap, (uint32_t)table, stats);
}

magnus_status magnus_hash_rows_symbolic_sync(magnus_context ctx, const magnus_hash_config *cfg,
                                             const struct magnus_device_csr_s *A,
                                             const struct magnus_device_csr_s *B,
                                             const magnus_dbuf *ids, int64_t ids_offset,
                                             int64_t count, magnus_dbuf *row_counts,
                                             magnus_hash_stats *stats) {
    const char *what = "hash symbolic (rows)";
    magnus_status s;
    if ((s = hash_check_items(ctx, ids, ids_offset, count, what)) ||
        (s = hash_check_rows(A, B, what)) || (s = hash_check_dbuf(row_counts, what, "row counts")))
        return s;
    hash_phase ph;
    hash_phase_rows(&ph, what, ctx, cfg, A, B, ids, ids_offset, count);
    ph.keys = row_counts;
    ph.key_cap = B->cols;
    ph.row_counts = row_counts;
    return magnus_hash_run_phase_sync(&ph, stats);
}

/* The numeric phase's checks and set-up, but for C's column and value buffers. */
static magnus_status rows_numeric_phase(hash_phase *ph, magnus_context ctx,
                                        const magnus_hash_config *cfg,
                                        const struct magnus_device_csr_s *A,
                                        const struct magnus_device_csr_s *B,
                                        const magnus_dbuf *ids, int64_t ids_offset, int64_t count,
                                        const magnus_dbuf *C_row_ptr) {
    const char *what = "hash numeric (rows)";
    magnus_status s;
    if ((s = hash_check_items(ctx, ids, ids_offset, count, what)) ||
        (s = hash_check_rows(A, B, what)) || (s = hash_check_dbuf(C_row_ptr, what, "C.row_ptr")))
        return s;
    hash_phase_rows(ph, what, ctx, cfg, A, B, ids, ids_offset, count);
    ph->numeric = 1;
    ph->keys = C_row_ptr;
    ph->key_is_ptr = 1;
    ph->C_rp = C_row_ptr;
    return MAGNUS_SUCCESS;
}

static magnus_status rows_numeric_outputs(hash_phase *ph, magnus_dbuf *C_col,
                                          magnus_dbuf *C_val) {
    magnus_status s;
    if ((s = hash_check_dbuf(C_col, ph->what, "C.col")) ||
        (s = hash_check_dbuf(C_val, ph->what, "C.val")))
        return s;
    ph->C_col = C_col;
    ph->C_val = C_val;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_hash_rows_numeric_sync(magnus_context ctx, const magnus_hash_config *cfg,
                                            const struct magnus_device_csr_s *A,
                                            const struct magnus_device_csr_s *B,
                                            const magnus_dbuf *ids, int64_t ids_offset,
                                            int64_t count, const magnus_dbuf *C_row_ptr,
                                            magnus_dbuf *C_col, magnus_dbuf *C_val,
                                            magnus_hash_stats *stats) {
    hash_phase ph;
    magnus_status s;
    if ((s = rows_numeric_phase(&ph, ctx, cfg, A, B, ids, ids_offset, count, C_row_ptr)) ||
        (s = rows_numeric_outputs(&ph, C_col, C_val)))
        return s;
    return magnus_hash_run_phase_sync(&ph, stats);
}

struct magnus_hash_rows_numeric_s {
    hash_phase ph;
    hash_binned b;
    magnus_hash_stats *stats; /* the caller's, or own */
    magnus_hash_stats own;
};

magnus_status magnus_hash_rows_numeric_bin(magnus_hash_rows_numeric *out, int64_t *nnz,
                                           magnus_context ctx, const magnus_hash_config *cfg,
                                           const struct magnus_device_csr_s *A,
                                           const struct magnus_device_csr_s *B,
                                           const magnus_dbuf *C_row_ptr, magnus_hash_stats *stats) {
    if (!out || !nnz)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_hash_rows_numeric_bin: NULL");
    *out = NULL;
    *nnz = 0;
    struct magnus_hash_rows_numeric_s *job = magnus_host_calloc(1, sizeof *job);
    if (!job) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "magnus_hash_rows_numeric_bin");
    job->stats = stats ? stats : &job->own;
    const int64_t keys_before = job->stats->key_total;
    /* A checked there, before any use of its rows */
    magnus_status s =
        rows_numeric_phase(&job->ph, ctx, cfg, A, B, NULL, 0, A ? A->rows : 0, C_row_ptr);
    if (!s) s = magnus_hash_phase_bin(&job->ph, &job->b, job->stats);
    if (s) {
        magnus_host_free(job);
        return s;
    }
    *nnz = job->stats->key_total - keys_before; /* the rows' keys are their nnz */
    *out = job;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_hash_rows_numeric_launch(magnus_hash_rows_numeric *job, magnus_dbuf *C_col,
                                              magnus_dbuf *C_val) {
    if (!job || !*job)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_hash_rows_numeric_launch: NULL");
    struct magnus_hash_rows_numeric_s *j = *job;
    magnus_status s = rows_numeric_outputs(&j->ph, C_col, C_val);
    if (s) magnus_hash_binned_free(j->ph.ctx, &j->b);
    else s = magnus_hash_phase_launch(&j->ph, &j->b, j->stats);
    magnus_host_free(j);
    *job = NULL;
    return s;
}

void magnus_hash_rows_numeric_free(magnus_hash_rows_numeric *job) {
    if (!job || !*job) return;
    magnus_hash_binned_free((*job)->ph.ctx, &(*job)->b);
    magnus_host_free(*job);
    *job = NULL;
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

static void hash_phase_chunks(hash_phase *ph, const char *what, magnus_context ctx,
                              const magnus_hash_config *cfg, const magnus_hash_segments *seg,
                              const magnus_dbuf *ids, int64_t ids_offset, int64_t count) {
    hash_phase_init(ph, what, ctx, cfg, seg->type, HASH_SOURCE_CHUNKS, ids, ids_offset, count);
    ph->seg = seg;
}

magnus_status magnus_hash_chunks_symbolic_sync(magnus_context ctx, const magnus_hash_config *cfg,
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
    hash_phase_chunks(&ph, what, ctx, cfg, seg, ids, ids_offset, count);
    ph.keys = seg->ptr;
    ph.key_is_ptr = 1;
    ph.key_cap = seg->col_range;
    ph.empty_items_need_work = 1;
    ph.chunk_counts = counts;
    return magnus_hash_run_phase_sync(&ph, stats);
}

magnus_status magnus_hash_chunks_numeric_sync(magnus_context ctx, const magnus_hash_config *cfg,
                                              const magnus_hash_segments *seg,
                                              const magnus_dbuf *ids, int64_t ids_offset,
                                              int64_t count, const magnus_hash_chunk_output *out,
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
    hash_phase_chunks(&ph, what, ctx, cfg, seg, ids, ids_offset, count);
    ph.numeric = 1;
    ph.keys = out->nnz ? out->nnz : out->offset;
    ph.key_is_ptr = out->nnz ? 0 : 1;
    ph.out = out;
    return magnus_hash_run_phase_sync(&ph, stats);
}

/*
 * A device matrix's structure, checked and fingerprinted where it lives: one launch of
 * prim_csr_structure (kernels/primitives.cl) reads row_ptr and col_idx once, and the host
 * reads back a few words per work group (at most 2048 groups): the first broken rule of
 * magnus_csr_validate and the groups' parts of the fingerprint. Only when a rule is broken
 * does the host read more: the one or two row pointers and columns that rule's message names,
 * which it checks again with the rule itself (runtime/core/csr_rules.h), so the status and
 * message are magnus_csr_validate's. The fingerprint's definition is shared with the kernel
 * (kernels/shared/csr_structure.h); the host computes it for uploads.
 */
#include "csr_rules.h"
#include "device_csr.h"
#include "kernels.h"
#include "shared/csr_structure.h"

#define STRUCTURE_MAX_GROUP_SIZE 256
/* Groups at most (their results, 32 bytes each, are read back and reduced by the host): 2048
 * groups of 256 keep the whole H200 busy (256 left each team of a 262,144-row R-MAT matrix 16
 * rows to walk one after the other: 0.4 ms of dependent loads for a 12 MB pass). */
#define STRUCTURE_MAX_GROUPS 2048
#define STRUCTURE_VARIANT MAGNUS_VARIANT_F32 /* an integer kernel: the module every device has */

uint64_t magnus_csr_structure_fingerprint(int64_t rows, int64_t cols, int64_t nnz,
                                          const int64_t *row_ptr, const int32_t *col_idx) {
    uint64_t sum = 0;
    for (int64_t j = 0; j <= rows; j++)
        sum += mg_fp_term(MG_FP_ROW_PTR, (uint64_t)j, (uint64_t)row_ptr[j]);
    int64_t p = 0;
    for (; p + 1 < nnz; p += 2)
        sum += mg_fp_term(MG_FP_COL_PAIR, (uint64_t)p / 2,
                          mg_fp_pair((uint32_t)col_idx[p], (uint32_t)col_idx[p + 1]));
    if (p < nnz)
        sum += mg_fp_term(MG_FP_COL_PAIR, (uint64_t)p / 2,
                          mg_fp_pair((uint32_t)col_idx[p], MG_FP_PAD));
    return mg_fp_finish((uint64_t)rows, (uint64_t)cols, (uint64_t)nnz, sum);
}

/* What the pass found: the first broken rule (at == MG_CSR_NONE: none) and the sum S. */
typedef struct structure_result {
    uint64_t at, entry, reason, sum;
} structure_result;

/*
 * The launch: power-of-two groups of at most 256 work items that fit the local budget
 * (mg_csr_structure_bytes: five words each and one more); teams of `lanes` items per row, the
 * power of two at or above the mean row length (at most the group), so a row of average
 * length is one coalesced step, and rows longer than mg_csr_long_row(lanes) taken by whole
 * groups (the kernel's second part); groups for one team per row, at most 2048 (the host
 * reduces their results), the kernel striding over the rest. Waits for queue MAIN (the read
 * back).
 */
static magnus_status structure_pass(struct magnus_device_csr_s *d, structure_result *out) {
    magnus_context ctx = d->ctx;
    const magnus_queue_id q = MAGNUS_QUEUE_MAIN;
    size_t gs = STRUCTURE_MAX_GROUP_SIZE;
    while (gs > 1 && (gs > ctx->device.max_work_group_size ||
                      mg_csr_structure_bytes(gs) > ctx->device.local_mem_bytes))
        gs >>= 1;
    if (mg_csr_structure_bytes(gs) > ctx->device.local_mem_bytes)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "the structure check: a local memory budget of %llu bytes is too "
                            "small",
                            (unsigned long long)ctx->device.local_mem_bytes);
    const uint64_t rows = (uint64_t)d->rows, mean = rows ? (uint64_t)d->nnz / rows : 0;
    uint32_t lanes = 1;
    while (lanes < gs && lanes < mean) lanes <<= 1;
    const uint64_t items = rows * lanes, wanted = items / gs + (items % gs != 0);
    const size_t groups =
        wanted == 0 ? 1 : wanted < STRUCTURE_MAX_GROUPS ? (size_t)wanted : STRUCTURE_MAX_GROUPS;
    const size_t part_bytes = groups * MG_CSR_PART_WORDS * sizeof(uint64_t);
    uint64_t *part = magnus_host_malloc(part_bytes);
    if (!part)
        return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "the structure check's %zu bytes",
                            part_bytes);
    magnus_dbuf parts = {0};
    magnus_status s = magnus_dbuf_alloc(ctx, part_bytes, &parts);
    if (s) {
        magnus_host_free(part);
        return s;
    }
    /* without entries col_idx may have no buffer; it is then never read */
    const magnus_dbuf *col_idx = d->col_idx.mem ? &d->col_idx : &d->row_ptr;
    if (!(s = magnus_k_prim_csr_structure(ctx, q, STRUCTURE_VARIANT, groups, gs,
                                          (size_t)mg_csr_structure_bytes(gs), &d->row_ptr,
                                          col_idx, d->rows, d->cols, d->nnz, lanes,
                                          mg_csr_long_row(lanes), &parts)))
        s = magnus_dbuf_read(ctx, q, part, &parts, 0, part_bytes);
    if (s) magnus_queue_finish(ctx, q); /* the kernel may still write parts */
    magnus_dbuf_free(ctx, &parts);
    if (s) {
        magnus_host_free(part);
        return s;
    }
    structure_result r = {MG_CSR_NONE, 0, MG_CSR_OK, 0};
    for (size_t g = 0; g < groups; g++) {
        const uint64_t *w = part + g * MG_CSR_PART_WORDS;
        r.sum += w[MG_CSR_PART_SUM];
        if (w[MG_CSR_PART_AT] < r.at ||
            (w[MG_CSR_PART_AT] == r.at && w[MG_CSR_PART_ENTRY] < r.entry)) {
            r.at = w[MG_CSR_PART_AT];
            r.entry = w[MG_CSR_PART_ENTRY];
            r.reason = w[MG_CSR_PART_REASON];
        }
    }
    magnus_host_free(part);
    *out = r;
    return MAGNUS_SUCCESS;
}

/* The status of each reason's rule. */
static magnus_status reason_status(uint64_t reason) {
    switch (reason) {
    case MG_CSR_FIRST: return MAGNUS_ERROR_ROWPTR_INVALID;
    case MG_CSR_NOT_MONOTONE: return MAGNUS_ERROR_ROWPTR_NOT_MONOTONE;
    case MG_CSR_PAST_NNZ: return MAGNUS_ERROR_ROWPTR_INVALID;
    case MG_CSR_COLUMN: return MAGNUS_ERROR_COLUMN_OUT_OF_RANGE;
    case MG_CSR_DUPLICATE: return MAGNUS_ERROR_DUPLICATE_COLUMN;
    case MG_CSR_UNSORTED: return MAGNUS_ERROR_COLUMNS_UNSORTED;
    case MG_CSR_LAST: return MAGNUS_ERROR_ROWPTR_INVALID;
    }
    return MAGNUS_ERROR_INTERNAL;
}

/* The broken rule r names, as magnus_csr_validate reports it: the values its message needs
 * read back (two row pointers, two columns at most) and the rule applied to them. A rule the
 * host does not find broken there is an internal error (the kernel and the rules disagree). */
static magnus_status explain(struct magnus_device_csr_s *d, const structure_result *r) {
    magnus_context ctx = d->ctx;
    const magnus_queue_id q = MAGNUS_QUEUE_MAIN;
    int64_t rp[2] = {0, 0};
    int32_t col[2] = {0, 0};
    magnus_status s, rule = MAGNUS_SUCCESS;
    const uint64_t rows = (uint64_t)d->rows;
    if (r->reason == MG_CSR_FIRST && r->at == 0) {
        if ((s = magnus_dbuf_read(ctx, q, rp, &d->row_ptr, 0, sizeof(int64_t)))) return s;
        rule = magnus_csr_rule_first(rp[0]);
    } else if (r->reason == MG_CSR_LAST && r->at == rows + 1) {
        if ((s = magnus_dbuf_read(ctx, q, rp, &d->row_ptr, (size_t)rows * sizeof(int64_t),
                                  sizeof(int64_t))))
            return s;
        rule = magnus_csr_rule_last(rp[0], d->nnz);
    } else if (r->at >= 1 && r->at <= rows) {
        const int64_t i = (int64_t)r->at - 1;
        if ((s = magnus_dbuf_read(ctx, q, rp, &d->row_ptr, (size_t)i * sizeof(int64_t),
                                  2 * sizeof(int64_t))))
            return s;
        rule = magnus_csr_rule_row(i, rp[0], rp[1], d->nnz);
        const int64_t p = (int64_t)r->entry;
        if (!rule && r->reason >= MG_CSR_COLUMN && r->reason <= MG_CSR_UNSORTED && p >= rp[0] &&
            p < rp[1]) {
            const int has_prev = p > rp[0];
            if ((s = magnus_dbuf_read(ctx, q, col, &d->col_idx,
                                      (size_t)(p - has_prev) * sizeof(int32_t),
                                      (size_t)(1 + has_prev) * sizeof(int32_t))))
                return s;
            rule = magnus_csr_rule_entry(i, p, col[has_prev], d->cols, has_prev, col[0]);
        }
    }
    if (rule != MAGNUS_SUCCESS && rule == reason_status(r->reason)) return rule;
    return magnus_error(MAGNUS_ERROR_INTERNAL,
                        "the device check of a matrix's structure reports rule %llu broken at "
                        "position %llu, entry %llu, which the host does not confirm",
                        (unsigned long long)r->reason, (unsigned long long)r->at,
                        (unsigned long long)r->entry);
}

magnus_status magnus_device_csr_structure_check(struct magnus_device_csr_s *d,
                                                const char *prefix) {
    structure_result r = {MG_CSR_NONE, 0, MG_CSR_OK, 0};
    magnus_status s = structure_pass(d, &r);
    if (s) return s;
    if (r.at != MG_CSR_NONE) {
        s = explain(d, &r);
        if (s == reason_status(r.reason)) magnus_error_prefix("%s", prefix);
        return s;
    }
    d->fingerprint = mg_fp_finish((uint64_t)d->rows, (uint64_t)d->cols, (uint64_t)d->nnz, r.sum);
    d->fingerprint_known = 1;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_device_csr_fingerprint(uint64_t *out, struct magnus_device_csr_s *d) {
    magnus_status s = MAGNUS_SUCCESS;
    if (!d->fingerprint_known) s = magnus_device_csr_structure_check(d, "device matrix: ");
    if (!s) *out = d->fingerprint;
    return s;
}

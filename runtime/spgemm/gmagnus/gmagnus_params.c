/*
 * gMAGNUS parameters (docs/algorithm.md §5, paper §III-D). Integer arithmetic only.
 *
 * Readings chosen where the paper's text is ambiguous (documented in docs/ARCHITECTURE.md):
 *   - tau = sLM / (alpha * (sC.col + sC.val)), alpha = 2: a light row's distinct columns fit
 *     a local hash table at load factor 2.
 *   - The chunk id is a bit shift of the column, so every chunk width is a power of two. The
 *     last level's width is the largest power of two whose dense accumulator (values plus a
 *     1-bit occupancy bitmap, plus the work-group scan's scratch) fits sLM;
 *     chunks_required = 2^(ceil(log2 C.m) - log2 width), i.e. ceil(C.m / width) rounded UP to
 *     a power of two. The paper's ndenseNumeric = sLM / (sC.val + 1/8) is reported as is;
 *     for C.m a power of two (the R-MAT tables) both give the same chunk counts.
 *   - chunks_max = (sLM - nMinGroupElems*(sC.col+sC.val) - shisto)
 *                  / (nGroupRows*nSubGroups*shisto + sChat.rowPtr), floored to a power of two.
 *   - levels = ceil(log2 chunks_required / log2 chunks_max); all levels but the last split by
 *     chunks_max, the last by what remains, so the product over levels is chunks_required.
 * Not from the paper: dense_min_elements, the last level's split between the accumulators
 * (the paper's rule is tau: only heavy chunks dense; the default here is dense_width /
 * MAGNUS_GM_DENSE_SHARE, at most tau, measured faster; the knob sets it: a multiply passes its
 * context's dense_min_elements, magnus_gmagnus_params_compute reads MAGNUS_DENSE_MIN_ELEMENTS).
 */
#include "gmagnus_params.h"

#include <string.h>

#include "device_runtime.h"
#include "gmagnus_knobs.h"
#include "internal.h"

static int floor_log2_u64(uint64_t x) {
    int b = -1;
    while (x) {
        x >>= 1;
        b++;
    }
    return b; /* -1 for 0 */
}

static int ceil_log2_u64(uint64_t x) {
    if (x <= 1) return 0;
    return floor_log2_u64(x - 1) + 1;
}

static int64_t floor_pow2(int64_t x) {
    return x < 1 ? 0 : (int64_t)1 << floor_log2_u64((uint64_t)x);
}

uint64_t magnus_gmagnus_multisplit_local_bytes(int64_t nchunks, int subgroups,
                                               int64_t group_elems, size_t value_bytes) {
    /* offsetsLocal (one histogram per subgroup and local row, +1 for the total, +2 slack so
     * the same array serves the counting and the permute pass), offsetsGlobal, colBuff and
     * valBuff, where gmagnus_multisplit puts them */
    return mg_gm_ms_bytes(mg_gm_ms_keys(nchunks, subgroups), nchunks, group_elems, value_bytes);
}

static magnus_status check_input(const magnus_gmagnus_params_input *in) {
    if (in->value_bytes != 4 && in->value_bytes != 8)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "gMAGNUS parameters: value size %zu (4 or 8)", in->value_bytes);
    if (in->c_cols < 0 || in->c_cols > INT32_MAX)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "gMAGNUS parameters: C has %lld columns (0 .. 2^31-1)",
                            (long long)in->c_cols);
    if (in->multisplit_group_size < 1 || in->subgroup_size < 1 || in->outer_group_size < 1 ||
        in->dense_group_size < 1 || in->subgroup_size > in->multisplit_group_size)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "gMAGNUS parameters: group sizes multisplit %d subgroup %d outer %d "
                            "dense %d",
                            in->multisplit_group_size, in->subgroup_size, in->outer_group_size,
                            in->dense_group_size);
    if (in->local_mem_bytes > ((uint64_t)1 << 40))
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "gMAGNUS parameters: local memory budget %llu bytes is implausible",
                            (unsigned long long)in->local_mem_bytes);
    return MAGNUS_SUCCESS;
}

/* Chunks per level and widths, from the bit counts of C's columns and of the dense width. */
static magnus_status split_levels(magnus_gmagnus_params *p, int column_bits, int dense_bits) {
    int required_bits = column_bits > dense_bits ? column_bits - dense_bits : 0;
    p->chunks_required = (int64_t)1 << required_bits;
    p->levels = 0;
    memset(p->chunks_per_level, 0, sizeof p->chunks_per_level);
    memset(p->chunk_width, 0, sizeof p->chunk_width);
    memset(p->multisplit_group_elems, 0, sizeof p->multisplit_group_elems);
    if (required_bits == 0) return MAGNUS_SUCCESS; /* heavy rows fit one dense accumulator */
    int max_bits = floor_log2_u64((uint64_t)p->chunks_max);
    if (max_bits < 1)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "gMAGNUS parameters: a %llu-byte local memory budget leaves room for "
                            "%lld chunk(s) per multisplit pass, %lld are required (at least 2 per "
                            "pass needed); raise the budget",
                            (unsigned long long)p->local_mem_bytes, (long long)p->chunks_max,
                            (long long)p->chunks_required);
    int levels = (required_bits + max_bits - 1) / max_bits;
    if (levels > MAGNUS_MAX_LEVELS)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "gMAGNUS parameters: %lld chunks at %lld per pass need %d multisplit "
                            "levels (at most %d); raise the local memory budget",
                            (long long)p->chunks_required, (long long)p->chunks_max, levels,
                            MAGNUS_MAX_LEVELS);
    p->levels = levels;
    int width_bits = column_bits;
    for (int i = 0; i < levels; i++) {
        int bits = i < levels - 1 ? max_bits : required_bits - max_bits * (levels - 1);
        width_bits -= bits;
        p->chunks_per_level[i] = (int64_t)1 << bits;
        p->chunk_width[i] = (int64_t)1 << width_bits;
    }
    return MAGNUS_SUCCESS;
}

/* Elements per multisplit group at each level: what fits after the histograms, at most
 * tau + 2 so that a group never touches more than MAGNUS_GM_GROUP_ROWS rows (every row it
 * reads has more than tau elements), rounded down to a multiple of the group size. */
static magnus_status multisplit_elems(magnus_gmagnus_params *p) {
    size_t elem_bytes = MAGNUS_GM_COL_BYTES + p->value_bytes;
    int64_t wg = p->multisplit_group_size;
    for (int i = 0; i < p->levels; i++) {
        uint64_t fixed = magnus_gmagnus_multisplit_local_bytes(p->chunks_per_level[i],
                                                               p->subgroups, 0, p->value_bytes);
        /* the column buffer's alignment pad may take up to 7 bytes */
        uint64_t reserved = fixed + 8 + MAGNUS_GM_STATIC_LOCAL_BYTES;
        int64_t fit = p->local_mem_bytes > reserved
                          ? (int64_t)((p->local_mem_bytes - reserved) / elem_bytes)
                          : 0;
        int64_t elems = fit < p->tau + 2 ? fit : p->tau + 2;
        elems -= elems % wg;
        if (elems < wg)
            return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                                "gMAGNUS parameters: multisplit level %d (%lld chunks) leaves "
                                "room for %lld elements per group of %lld items in %llu bytes",
                                i, (long long)p->chunks_per_level[i], (long long)fit,
                                (long long)wg, (unsigned long long)p->local_mem_bytes);
        p->multisplit_group_elems[i] = elems;
    }
    return MAGNUS_SUCCESS;
}

magnus_status magnus_gmagnus_params_from_input(magnus_gmagnus_params *out,
                                               const magnus_gmagnus_params_input *in) {
    if (!out || !in)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "gMAGNUS parameters: NULL argument");
    memset(out, 0, sizeof *out);
    magnus_status s = check_input(in);
    if (s) return s;
    magnus_gmagnus_params *p = out;
    const uint64_t slm = in->local_mem_bytes;
    const uint64_t elem = MAGNUS_GM_COL_BYTES + in->value_bytes;
    p->local_mem_bytes = slm;
    p->value_bytes = in->value_bytes;
    p->c_cols = in->c_cols;
    p->multisplit_group_size = in->multisplit_group_size;
    p->subgroup_size = in->subgroup_size;
    p->subgroups = in->multisplit_group_size / in->subgroup_size;
    p->outer_group_size = in->outer_group_size;
    p->dense_group_size = in->dense_group_size;
    p->group_rows = MAGNUS_GM_GROUP_ROWS;

    /* Eq. 4: hash map capacity at load factor alpha. */
    p->tau = (int64_t)(slm / (MAGNUS_GM_HASH_LOAD * elem));
    if (p->tau < 1)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "gMAGNUS parameters: a %llu-byte local memory budget holds no hash "
                            "table entry", (unsigned long long)slm);

    /* Dense accumulator: values + 1 bit each (the paper's ndenseNumeric), and the power-of-two
     * width that fits after the dense kernel's scan scratch (one 32-bit word per item). */
    p->ndense_numeric = (int64_t)(slm * 8 / (8 * in->value_bytes + 1));
    uint64_t scratch = (uint64_t)in->dense_group_size * 4 + 8 + MAGNUS_GM_STATIC_LOCAL_BYTES;
    int64_t dense_cap = slm > scratch ? (int64_t)((slm - scratch) * 8 / (8 * in->value_bytes + 1)) : 0;
    p->dense_width = floor_pow2(dense_cap);
    if (p->dense_width < 2)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "gMAGNUS parameters: a %llu-byte local memory budget holds no dense "
                            "accumulator", (unsigned long long)slm);

    /* The last level's split: the knob, else a share of the dense width; never above tau
     * (a chunk of more than tau elements fits no hash table). */
    int64_t by_width = p->dense_width / MAGNUS_GM_DENSE_SHARE;
    if (by_width < 1) by_width = 1;
    int64_t dense_min = in->dense_min_elements > 0 ? in->dense_min_elements : by_width;
    p->dense_min_elements = dense_min < p->tau ? dense_min : p->tau;

    /* Eq. 5-6: chunks one multisplit pass can hold with half of local memory for elements. */
    uint64_t min_group_elems = slm / (2 * elem);
    uint64_t per_chunk = (uint64_t)MAGNUS_GM_GROUP_ROWS * (uint64_t)p->subgroups *
                             MAGNUS_GM_HISTO_BYTES + MAGNUS_GM_ROWPTR_BYTES;
    uint64_t used = min_group_elems * elem + MAGNUS_GM_HISTO_BYTES;
    p->chunks_max = slm > used ? floor_pow2((int64_t)((slm - used) / per_chunk)) : 0;

    /* Outer product: the paper's group size, one 64-bit write position per A entry a group
     * touches (sLM / sChat.rowPtr, less the static local words). magnus's kernel keeps those
     * positions in the CSC instead of local memory (kernels/gmagnus_outer_product.cl), so this
     * is only the partition's grain; it is kept so the grain still follows the device. */
    if (slm <= MAGNUS_GM_STATIC_LOCAL_BYTES + MAGNUS_GM_ROWPTR_BYTES)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "gMAGNUS parameters: a %llu-byte local memory budget is too small",
                            (unsigned long long)slm);
    p->outer_group_elems = (int64_t)((slm - MAGNUS_GM_STATIC_LOCAL_BYTES) / MAGNUS_GM_ROWPTR_BYTES);

    /* Eq. 7 and the split over levels. The paper's Eq. 5 budgets one 64-bit offset per chunk
     * and no slack; the kernel keeps one per (local row, chunk) pair. Where that leaves a
     * multisplit group fewer elements than work items, halve chunks_max and split again
     * (never the case for the paper's machines, whose floor to a power of two leaves room). */
    int column_bits = ceil_log2_u64((uint64_t)(in->c_cols > 1 ? in->c_cols : 1));
    int dense_bits = floor_log2_u64((uint64_t)p->dense_width);
    p->column_bits = column_bits;
    p->dense_bits = dense_bits;
    for (;;) {
        if ((s = split_levels(p, column_bits, dense_bits))) return s;
        if ((s = multisplit_elems(p)) == MAGNUS_SUCCESS) return s;
        if (p->chunks_max <= 2) return s;
        p->chunks_max /= 2;
        magnus_error_clear();
    }
}

static int largest_pow2_at_most(uint64_t x, int cap) {
    int v = 1;
    while ((uint64_t)v * 2 <= x && v * 2 <= cap) v *= 2;
    return v;
}

/* Histogram / multisplit groups of `items` work items (a power of two), fewer when tau is
 * small (a group must own at least one element per item and at most tau + 2) or the device's
 * limit is; subgroups of the device's smallest size (32 when it reports none), at most the
 * group. */
static void multisplit_shape(const magnus_device_info *device, uint64_t tau, uint64_t items,
                             int *ms_out, int *sub_out) {
    uint64_t max_wg = device->max_work_group_size ? device->max_work_group_size : 256;
    int sub = 0;
    for (int i = 0; i < device->num_subgroup_sizes && i < 8; i++)
        if (device->subgroup_sizes[i] > 0 && (sub == 0 || device->subgroup_sizes[i] < sub))
            sub = device->subgroup_sizes[i];
    if (sub == 0) sub = 32;
    int ms = largest_pow2_at_most(tau ? tau : 1, items);
    ms = largest_pow2_at_most(max_wg, ms);
    *ms_out = ms;
    *sub_out = sub > ms ? ms : sub;
}

static uint64_t tau_of(uint64_t slm, size_t vbytes) {
    return slm / (MAGNUS_GM_HASH_LOAD * (MAGNUS_GM_COL_BYTES + vbytes));
}

magnus_status magnus_gmagnus_params_input_for_device(magnus_gmagnus_params_input *out,
                                                     const magnus_device_info *device,
                                                     int64_t c_cols, magnus_value_type type) {
    if (!out || !device)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "gMAGNUS parameters: NULL argument");
    memset(out, 0, sizeof *out);
    size_t vbytes = magnus_value_size(type);
    if (vbytes == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "gMAGNUS parameters: value type %d",
                            (int)type);
    uint64_t max_wg = device->max_work_group_size ? device->max_work_group_size : 256;
    uint64_t slm = device->local_mem_bytes;
    int ms, sub;
    multisplit_shape(device, tau_of(slm, vbytes), MAGNUS_GM_MULTISPLIT_GROUP, &ms, &sub);
    /* The dense accumulator's scan scratch (4 bytes per item) stays a small part of sLM. */
    int dense = largest_pow2_at_most(max_wg, 256);
    dense = largest_pow2_at_most(slm / 32 ? slm / 32 : 1, dense);
    out->local_mem_bytes = slm;
    out->c_cols = c_cols;
    out->value_bytes = vbytes;
    out->multisplit_group_size = ms;
    out->subgroup_size = sub;
    out->outer_group_size = largest_pow2_at_most(max_wg, MG_GM_OUTER_GROUP_MAX);
    out->dense_group_size = dense;
    return MAGNUS_SUCCESS;
}

void magnus_gmagnus_params_input_set_multisplit(magnus_gmagnus_params_input *in,
                                                const magnus_device_info *device,
                                                uint32_t items) {
    if (!items) return;
    multisplit_shape(device, tau_of(in->local_mem_bytes, in->value_bytes), items,
                     &in->multisplit_group_size, &in->subgroup_size);
}

magnus_status magnus_gmagnus_params_compute(magnus_gmagnus_params *out,
                                            const magnus_device_info *device, int64_t c_cols,
                                            magnus_value_type type) {
    magnus_error_clear();
    if (!out)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_gmagnus_params_compute: output is NULL");
    memset(out, 0, sizeof *out);
    if (!device)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_gmagnus_params_compute: device is NULL");
    magnus_gmagnus_params_input in;
    magnus_status s = magnus_gmagnus_params_input_for_device(&in, device, c_cols, type);
    /* no context here: the variables as a context would read them now */
    uint32_t ms_items = 0;
    if (!s) s = magnus_knob_dense_min_elements(0, &in.dense_min_elements);
    if (!s)
        s = magnus_knob_multisplit_group(
            0, device->max_work_group_size ? device->max_work_group_size : 256, &ms_items);
    if (s) return s;
    magnus_gmagnus_params_input_set_multisplit(&in, device, ms_items);
    return magnus_gmagnus_params_from_input(out, &in);
}

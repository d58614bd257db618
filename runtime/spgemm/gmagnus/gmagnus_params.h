/*
 * gMAGNUS runtime parameters (paper §III-D, restated in docs/algorithm.md §5): the
 * heavy threshold tau, the chunks each heavy row is split into, how they spread over the
 * multisplit levels, and the elements each work group of the outer product and multisplit
 * kernels owns. Pure host arithmetic; the public face is magnus_gmagnus_params_compute().
 */
#ifndef MAGNUS_GMAGNUS_PARAMS_H
#define MAGNUS_GMAGNUS_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "magnus/magnus.h"
#include "shared/gmagnus_layout.h"

/* Element sizes the kernels use (bytes); the kernels' local-memory layouts themselves are
 * kernels/shared/gmagnus_layout.h. */
#define MAGNUS_GM_COL_BYTES 4    /* sC.col, sChat.col: 32-bit column indices */
#define MAGNUS_GM_HISTO_BYTES 4  /* shisto: one local histogram counter */
#define MAGNUS_GM_ROWPTR_BYTES 8 /* sChat.rowPtr: 64-bit offsets */
#define MAGNUS_GM_GROUP_ROWS MG_GM_GROUP_ROWS /* rows of C-hat one multisplit group can touch */
#define MAGNUS_GM_HASH_LOAD 2    /* alpha: hash table slots per entry */
/* The default split of the last level between the accumulators: chunks of more than
 * dense_width / MAGNUS_GM_DENSE_SHARE elements go to the dense accumulator (at most tau).
 * Measured on the H200 at 48 KiB (dense width 8192): 16, i.e. 512 elements, was the fastest
 * or within 2 % of it among tau (3072), 1024, 512 and 256 on all six perf inputs, 8-21 % below
 * tau on five (docs/performance.md, "Dense threshold from the chunk width"). */
#define MAGNUS_GM_DENSE_SHARE 16
/* Work items of a histogram / multisplit group by default (fewer where tau or the device is
 * smaller; the knob multisplit_group sets another size). The paper uses 1024; on the H200
 * through CUDA at 48 KiB, groups of 256 (each of 3072 elements, 12 per item) ran the
 * histogram 3.1 -> 1.0 ms and the multisplit 6.3 -> 3.0 ms on rmat-s18-a4-b8, faster on all six
 * perf inputs: eight groups share an SM instead of two, so one group's barriers and scans
 * no longer idle it (docs/performance.md, "Heavy path I"). */
#define MAGNUS_GM_MULTISPLIT_GROUP 256
/* Local memory the gMAGNUS kernels declare statically (MG_LOCAL_ARRAY: at most 3 words, plus
 * what a compiler may add), kept out of the dynamic share: a launch asking for the whole
 * budget dynamically fails on CUDA and NVIDIA's OpenCL. */
#define MAGNUS_GM_STATIC_LOCAL_BYTES 64

/* Everything the parameters depend on, spelled out so the paper's tables can be checked. */
typedef struct magnus_gmagnus_params_input {
    uint64_t local_mem_bytes;  /* sLM: local memory budget of one work group */
    int64_t c_cols;            /* C.m: columns of C */
    size_t value_bytes;        /* sC.val: 4 or 8 */
    int multisplit_group_size; /* work items of a histogram / multisplit group */
    int subgroup_size;         /* items per subgroup: one local histogram each */
    int outer_group_size;      /* work items of an outer-product group */
    int dense_group_size;      /* work items of a dense-accumulator group */
    int64_t dense_min_elements; /* 0: tau (the default), else see magnus_gmagnus_params */
} magnus_gmagnus_params_input;

/*
 * Fills `out` from `in`. Fails with MAGNUS_ERROR_INVALID_ARGUMENT (detail says which) when
 * the inputs are out of range or the local memory budget is too small for gMAGNUS to keep
 * every accumulation in local memory (fewer than 2 chunks per multisplit pass while more
 * than one chunk is required, more than MAGNUS_MAX_LEVELS levels, or no room for one work
 * group's elements).
 */
magnus_status magnus_gmagnus_params_from_input(magnus_gmagnus_params *out,
                                               const magnus_gmagnus_params_input *in);

/* Histogram / multisplit groups of `items` work items instead of MAGNUS_GM_MULTISPLIT_GROUP
 * (0: unchanged; the knob multisplit_group), fewer where tau or the device's limit allows
 * fewer, subgroups at most the group. */
void magnus_gmagnus_params_input_set_multisplit(magnus_gmagnus_params_input *in,
                                                const magnus_device_info *device,
                                                uint32_t items);

/* The input a device implies: sLM from device->local_mem_bytes (the budget in effect),
 * group sizes capped by the device, subgroup size its smallest (32 when it reports none);
 * dense_min_elements 0 (the caller sets the knob: a context's, or the environment's). */
magnus_status magnus_gmagnus_params_input_for_device(magnus_gmagnus_params_input *out,
                                                     const magnus_device_info *device,
                                                     int64_t c_cols, magnus_value_type type);

/* Multisplit chunk id shift at level `level`: chunk = local column >> shift. */
static inline int magnus_gmagnus_level_shift(const magnus_gmagnus_params *p, int level) {
    int shift = 0;
    for (int64_t w = p->chunk_width[level]; w > 1; w >>= 1) shift++;
    return shift;
}

/* Local memory bytes of one multisplit group for `nchunks` chunks and `group_elems` elements
 * (offsetsLocal, offsetsGlobal, colBuff, valBuff): mg_gm_ms_bytes of the kernel's layout. */
uint64_t magnus_gmagnus_multisplit_local_bytes(int64_t nchunks, int subgroups,
                                               int64_t group_elems, size_t value_bytes);

#endif

/*
 * gMAGNUS outer product (paper Alg. 4; docs/algorithm.md §3): C-hat = sum over slices s
 * of column s of A-tilde (CSC, heavy rows) times row s of B.
 *
 * Static partition of the flattened slice space: work group g owns elements
 * [g*group_elems, (g+1)*group_elems), so every group reads and writes the same amount and no
 * load-balancing pass is needed. Inside slice s (column k), flattened element i is
 *   entryA = (i - slice_off[s]) / nnz(B[k,:]),  entryB = (i - slice_off[s]) % nnz(B[k,:]).
 * The division is done once per slice an item enters; further elements of the same slice,
 * wg apart, advance (entryA, entryB) by wg = q*nnz(B[k,:]) + r with an add and a compare
 * (mg_gm_walk below). Within a group everything the walk steps is 32-bit: element indices
 * relative to the group's start (< group_elems), A entries relative to its first one, B
 * indices (a B row has at most 2^31 - 1 entries: sorted, unique, 32-bit columns); 64-bit
 * arithmetic is left to entering a slice and to addresses. (The kernel is instruction-bound:
 * ncu put the SM at 74 % busy and DRAM at 22 % with the 64-bit walk.)
 * Each A entry's run of elements has a place in C-hat fixed in advance (csc_dest, from the
 * masked CSR->CSC scatter: chat_ptr[h] plus the B row lengths of row h's earlier entries), so
 * one walk writes: element (A entry lp, B index b) goes to csc_dest[lp] + b, consecutive
 * items reading consecutive B entries and writing consecutive positions of C-hat. (Until
 * 2026-12-02 a first walk reserved each run with an atomic on C-hat's row counter and kept
 * the positions in local memory: half the kernel's instructions, for no byte of C-hat.)
 * A row's elements come out in the order of A's columns, the same in every run.
 * Where each group's range starts (its slice and A entry) is found by gmagnus_outer_starts,
 * one item per range, before the product runs: found by the group itself, it was a binary
 * search over the slices by one item (17 dependent loads for the 73,456 slices of
 * rmat-s18-a4-b8) that the other 255 waited for at a barrier, in every one of ~11,000 groups.
 *
 * chat_off: element k of C-hat is stored at chat_col/chat_val[chat_off + k] (0, or the gap
 * in front of C-hat when the multisplit runs in place: gmagnus_multisplit.cl).
 */
#include "magnus_dialect.h"
#include "lib/gmagnus_device.cl"
#include "shared/gmagnus_layout.h"

/* An item's position in the flattened slices of its group: slice s (column k of A-tilde, B
 * row k of lenb entries from bstart), A entry lp (CSC position - the group's first) and index
 * b in the B row; `next` is the local index where slice s ends (clamped to 32 bits);
 * step_lp/step_b: the advance of (lp, b) for wg elements, computed on the second element of a
 * slice. */
typedef struct mg_gm_walk {
    mg_u64 s;
    mg_i64 bstart;
    mg_u32 next, lp, b, lenb, step_lp, step_b, have_step;
} mg_gm_walk;

/* Before the first element: s0 - 1 (wrapping for s0 = 0), so the first call enters s0. */
MG_DEVICE void mg_gm_walk_init(mg_gm_walk *w, mg_u64 s0) {
    w->s = s0 - 1u;
    w->bstart = 0;
    w->next = 0u;
    w->lp = w->b = w->step_lp = w->step_b = w->have_step = 0u;
    w->lenb = 1u;
}

/* Local index of the end of slice s, as seen from a group starting at `start`. */
MG_DEVICE mg_u32 mg_gm_walk_end(MG_GLOBAL const mg_u64 *slice_off, mg_u64 s, mg_u64 start) {
    const mg_u64 rel = slice_off[s + 1] - start;
    return rel > 0xffffffffu ? 0xffffffffu : (mg_u32)rel;
}

/* Moves the walk to local element li (li grows by wg between calls). */
MG_DEVICE void mg_gm_walk_to(mg_gm_walk *w, mg_u32 li, mg_u32 wg, mg_u64 start, mg_u64 pa0,
                             MG_GLOBAL const mg_u64 *slice_off, MG_GLOBAL const mg_i32 *slice_col,
                             MG_GLOBAL const mg_u64 *csc_ptr, MG_GLOBAL const mg_i64 *b_ptr) {
    if (li >= w->next) { /* another slice */
        do {
            w->s++;
            w->next = mg_gm_walk_end(slice_off, w->s, start);
        } while (li >= w->next);
        const mg_i32 k = slice_col[w->s];
        w->bstart = b_ptr[k];
        w->lenb = (mg_u32)(b_ptr[k + 1] - w->bstart);
        const mg_u64 within = start + li - slice_off[w->s];
        const mg_u64 a = mg_gm_div_u64(within, w->lenb);
        w->lp = (mg_u32)(csc_ptr[k] + a - pa0);
        w->b = (mg_u32)(within - a * w->lenb);
        w->have_step = 0u;
        return;
    }
    if (!w->have_step) {
        w->step_lp = wg / w->lenb;
        w->step_b = wg - w->step_lp * w->lenb;
        w->have_step = 1u;
    }
    w->lp += w->step_lp;
    w->b += w->step_b;
    if (w->b >= w->lenb) {
        w->b -= w->lenb;
        w->lp++;
    }
}

/* starts[2g], starts[2g + 1]: the slice holding element g * group_elems, the first element
 * of range g, and the CSC position of its A entry (one item per range). */
MG_KERNEL void gmagnus_outer_starts(mg_u64 total, mg_u64 group_elems, mg_u64 nslices,
                                    MG_GLOBAL const mg_i32 *slice_col,
                                    MG_GLOBAL const mg_u64 *slice_off,
                                    MG_GLOBAL const mg_u64 *csc_ptr, MG_GLOBAL const mg_i64 *b_ptr,
                                    MG_GLOBAL mg_u64 *starts, MG_DYN_LOCAL_PARAM) {
    for (mg_u64 g = mg_global_id(); g * group_elems < total; g += mg_num_groups() * mg_local_size()) {
        const mg_u64 start = g * group_elems;
        const mg_u64 s = mg_gm_find_segment(slice_off, nslices, start);
        const mg_i32 k = slice_col[s];
        const mg_u64 lenb = (mg_u64)(b_ptr[k + 1] - b_ptr[k]);
        starts[2 * g] = s;
        starts[2 * g + 1] = csc_ptr[k] + mg_gm_div_u64(start - slice_off[s], lenb);
    }
}

MG_KERNEL void MG_LAUNCH_BOUNDS(MG_GM_OUTER_GROUP_MAX, MG_GM_OUTER_MIN_GROUPS)
gmagnus_outer_product(mg_u64 total, mg_u64 group_elems, MG_GLOBAL const mg_u64 *starts,
                      MG_GLOBAL const mg_i32 *slice_col, MG_GLOBAL const mg_u64 *slice_off,
                      MG_GLOBAL const mg_u64 *csc_ptr, MG_GLOBAL const mg_u64 *csc_dest,
                      MG_GLOBAL const mg_val *csc_val, MG_GLOBAL const mg_i64 *b_ptr,
                      MG_GLOBAL const mg_i32 *b_col, MG_GLOBAL const mg_val *b_val,
                      MG_GLOBAL mg_i32 *chat_col, MG_GLOBAL mg_val *chat_val, mg_u64 chat_off,
                      MG_DYN_LOCAL_PARAM) {
    const mg_u32 t = mg_local_id();
    const mg_u32 wg = mg_local_size();
    for (mg_u64 g = mg_group_id(); g * group_elems < total; g += mg_num_groups()) {
        const mg_u64 start = g * group_elems;
        const mg_u32 nlocal = (mg_u32)(MG_MIN(start + group_elems, total) - start);
        /* the same two words for every item: one load each, no barrier */
        const mg_u64 s0 = starts[2 * g], pa0 = starts[2 * g + 1];

        /* In batches of MG_GM_BATCH elements per item: walk and find each element's
         * destination, then load the batch's B entries and A values, then store. */
        mg_gm_walk w;
        mg_gm_walk_init(&w, s0);
        for (mg_u32 base = t; base < nlocal; base += MG_GM_BATCH * wg) {
            mg_u64 dest[MG_GM_BATCH];
            mg_i64 q[MG_GM_BATCH];
            mg_u32 lp[MG_GM_BATCH];
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                const mg_u32 li = base + j * wg;
                lp[j] = 0u;
                q[j] = -1;
                dest[j] = 0u;
                if (li >= nlocal) continue;
                mg_gm_walk_to(&w, li, wg, start, pa0, slice_off, slice_col, csc_ptr, b_ptr);
                lp[j] = w.lp;
                q[j] = w.bstart + (mg_i64)w.b;
                dest[j] = (mg_u64)w.b;
            }
            mg_i32 c[MG_GM_BATCH];
            mg_val v[MG_GM_BATCH];
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                const int live = q[j] >= 0;
                dest[j] = live ? csc_dest[pa0 + lp[j]] + dest[j] : 0u;
                c[j] = live ? b_col[q[j]] : 0;
                v[j] = live ? csc_val[pa0 + lp[j]] * b_val[q[j]] : (mg_val)0;
            }
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                if (q[j] < 0) continue;
                chat_col[chat_off + dest[j]] = c[j];
                chat_val[chat_off + dest[j]] = v[j];
            }
        }
    }
}

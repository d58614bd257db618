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
 * (mg_gm_walk below), and divisions whose operands fit 32 bits use 32-bit arithmetic.
 * Step 1 reserves, for each A entry the group touches, room for the B elements this group
 * writes with one atomic on chat_ptr[row + 1] (updated in place: before the kernel
 * chat_ptr[h + 1] holds row h's start, after it row h's end = row h+1's start, i.e. the
 * array is C-hat's row pointer). Step 2 writes: consecutive items read consecutive B
 * entries and write consecutive positions of C-hat.
 *
 * Local memory: offsets_local, one 64-bit write position per touched A entry (at most
 * group_elems of them, since each touched A entry owns >= 1 element of the range). The A
 * entries a group touches are consecutive in the CSC (empty slices are compacted away and
 * masked entries never enter the CSC), so entry p has local index p - pa0. The host sizes it
 * with mg_gm_outer_bytes (kernels/shared/gmagnus_layout.h).
 */
#include "magnus_dialect.h"
#include "lib/gmagnus_device.cl"
#include "shared/gmagnus_layout.h"

/* An item's position in the flattened slices: slice s (column k of A-tilde, B row k of lenb
 * entries), CSC position p of the A entry and index b in the B row; step_p/step_b: the
 * advance of (p, b) for wg elements, computed on the second element of a slice. */
typedef struct mg_gm_walk {
    mg_u64 s, seen, p, b, lenb, step_p, step_b;
    mg_i64 bstart; /* the B row's first entry */
    mg_i32 k;
    mg_u32 have_step;
} mg_gm_walk;

MG_DEVICE void mg_gm_walk_init(mg_gm_walk *w, mg_u64 s0) {
    w->s = s0;
    w->seen = ~(mg_u64)0;
    w->p = w->b = w->step_p = w->step_b = 0;
    w->lenb = 1;
    w->bstart = 0;
    w->k = 0;
    w->have_step = 0u;
}

/* Moves the walk to element i (i grows by wg between calls). */
MG_DEVICE void mg_gm_walk_to(mg_gm_walk *w, mg_u64 i, mg_u32 wg,
                             MG_GLOBAL const mg_u64 *slice_off, MG_GLOBAL const mg_i32 *slice_col,
                             MG_GLOBAL const mg_u64 *csc_ptr, MG_GLOBAL const mg_i64 *b_ptr) {
    while (i >= slice_off[w->s + 1]) w->s++;
    if (w->s != w->seen) {
        w->seen = w->s;
        w->k = slice_col[w->s];
        w->bstart = b_ptr[w->k];
        w->lenb = (mg_u64)(b_ptr[w->k + 1] - w->bstart);
        const mg_u64 within = i - slice_off[w->s];
        const mg_u64 a = mg_gm_div_u64(within, w->lenb);
        w->p = csc_ptr[w->k] + a;
        w->b = within - a * w->lenb;
        w->have_step = 0u;
        return;
    }
    if (!w->have_step) {
        w->step_p = mg_gm_div_u64((mg_u64)wg, w->lenb);
        w->step_b = (mg_u64)wg - w->step_p * w->lenb;
        w->have_step = 1u;
    }
    w->p += w->step_p;
    w->b += w->step_b;
    if (w->b >= w->lenb) {
        w->b -= w->lenb;
        w->p++;
    }
}

MG_KERNEL void gmagnus_outer_product(mg_u64 total, mg_u64 group_elems, mg_u64 nslices,
                                     MG_GLOBAL const mg_i32 *slice_col,
                                     MG_GLOBAL const mg_u64 *slice_off,
                                     MG_GLOBAL const mg_u64 *csc_ptr,
                                     MG_GLOBAL const mg_u32 *csc_row,
                                     MG_GLOBAL const mg_val *csc_val,
                                     MG_GLOBAL const mg_i64 *b_ptr, MG_GLOBAL const mg_i32 *b_col,
                                     MG_GLOBAL const mg_val *b_val, MG_GLOBAL mg_u64 *chat_ptr,
                                     MG_GLOBAL mg_i32 *chat_col, MG_GLOBAL mg_val *chat_val,
                                     MG_DYN_LOCAL_PARAM) {
    MG_LOCAL mg_u64 *offsets_local = MG_LOCAL_CAST(mg_u64, 0);
    MG_LOCAL_ARRAY(mg_u64, first, 3); /* slice, CSC position and B entry of the first element */
    const mg_u32 t = mg_local_id();
    const mg_u32 wg = mg_local_size();
    for (mg_u64 g = mg_group_id(); g * group_elems < total; g += mg_num_groups()) {
        const mg_u64 start = g * group_elems;
        const mg_u64 end = MG_MIN(start + group_elems, total);
        if (t == 0) {
            mg_u64 s = mg_gm_find_segment(slice_off, nslices, start);
            mg_i32 k = slice_col[s];
            mg_u64 lenb = (mg_u64)(b_ptr[k + 1] - b_ptr[k]);
            mg_u64 within = start - slice_off[s];
            mg_u64 a = mg_gm_div_u64(within, lenb);
            first[0] = s;
            first[1] = csc_ptr[k] + a;
            first[2] = within - a * lenb;
        }
        mg_barrier();
        const mg_u64 s0 = first[0], pa0 = first[1], b0 = first[2];

        /* Step 1: the item owning the first element of each A entry's run reserves the run.
         * In batches of MG_GM_BATCH elements: walk, then load the runs' rows, then reserve
         * (the atomics all in flight), then record the reservations. */
        mg_gm_walk w;
        mg_gm_walk_init(&w, s0);
        for (mg_u64 base = start + t; base < end; base += (mg_u64)MG_GM_BATCH * wg) {
            mg_u64 lp[MG_GM_BATCH], n[MG_GM_BATCH], at[MG_GM_BATCH];
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                const mg_u64 i = base + (mg_u64)j * wg;
                n[j] = 0;
                lp[j] = 0;
                if (i >= end) continue;
                mg_gm_walk_to(&w, i, wg, slice_off, slice_col, csc_ptr, b_ptr);
                if (w.b == 0 || i == start) {
                    n[j] = MG_MIN(w.lenb - w.b, end - i);
                    lp[j] = w.p;
                }
            }
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++)
                at[j] = n[j] ? (mg_u64)csc_row[lp[j]] : 0;
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++)
                if (n[j]) at[j] = mg_atomic_add_u64(&chat_ptr[at[j] + 1], n[j]);
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++)
                if (n[j]) offsets_local[lp[j] - pa0] = at[j];
        }
        mg_barrier();

        /* Step 2: coalesced writes of the products, in batches: walk and find each element's
         * destination, then load the batch's B entries and A values, then store. */
        mg_gm_walk_init(&w, s0);
        for (mg_u64 base = start + t; base < end; base += (mg_u64)MG_GM_BATCH * wg) {
            mg_u64 dest[MG_GM_BATCH], p[MG_GM_BATCH];
            mg_i64 q[MG_GM_BATCH];
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                const mg_u64 i = base + (mg_u64)j * wg;
                dest[j] = ~(mg_u64)0;
                p[j] = 0;
                q[j] = 0;
                if (i >= end) continue;
                mg_gm_walk_to(&w, i, wg, slice_off, slice_col, csc_ptr, b_ptr);
                dest[j] = offsets_local[w.p - pa0] + (w.b - (w.p == pa0 ? b0 : 0));
                p[j] = w.p;
                q[j] = w.bstart + (mg_i64)w.b;
            }
            mg_i32 c[MG_GM_BATCH];
            mg_val v[MG_GM_BATCH];
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                const int live = dest[j] != ~(mg_u64)0;
                c[j] = live ? b_col[q[j]] : 0;
                v[j] = live ? csc_val[p[j]] * b_val[q[j]] : (mg_val)0;
            }
            MG_UNROLL
            for (mg_u32 j = 0; j < MG_GM_BATCH; j++) {
                if (dest[j] == ~(mg_u64)0) continue;
                chat_col[dest[j]] = c[j];
                chat_val[dest[j]] = v[j];
            }
        }
        mg_barrier(); /* first[] and offsets_local are reused by the next range */
    }
}

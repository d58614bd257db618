/*
 * gMAGNUS outer product (paper Alg. 4; docs/algorithm.md §3): C-hat = sum over slices s
 * of column s of A-tilde (CSC, heavy rows) times row s of B.
 *
 * Rows. Slice k (column k of A-tilde: m A entries; B row k: lenb entries) is cut into
 * m * ceil(lenb / W) rows, each one A entry times one segment of at most W = team *
 * MG_GM_OUTER_SLOTS consecutive entries of the B row. Rows are numbered slice by slice, in a
 * slice A entry by A entry, for an A entry segment by segment: in the order of C-hat's
 * places, as the paper's flattened elements are. slice_off is the scan of the slices' row
 * counts (gmagnus_slice_rows). A team of `team` consecutive work items (a warp on NVIDIA's
 * GPUs, though nothing relies on it being one) takes `team_rows` consecutive rows and writes
 * them one at a time: it loads the A entry's value and the place of its run once per row, and
 * each item loads and stores its slots' elements.
 * Each A entry's run has its place in C-hat fixed in advance (csc_dest, from the masked
 * CSR->CSC scatter: chat_ptr[h] plus the B row lengths of row h's earlier entries), so an
 * element (A entry p, B index b) goes to csc_dest[p] + b with no reservation; a row's
 * elements come out in the order of A's columns, the same in every run.
 * Aligned lines: a run starts anywhere in a line, so `team` consecutive elements from the
 * row's start would touch two lines of C-hat per store; the items instead take the row's
 * elements by their place modulo `team` (lane l of slot u takes the element at line start
 * + u * team + l), so each store fills at most one line, and a row of W elements touches
 * at most SLOTS + 1 lines (docs/performance.md, "The outer product by rows": 28 % fewer L2
 * write requests, 1.55 -> 1.33 ms on rmat-s18-a4-b8).
 * B rows of at most W/2 entries are packed: one pass of the team covers W / lenb rows
 * (consecutive A entries), each item holding its slots' B entries for the whole slice.
 * Why rows (2026-12-03): the kernel before gave each item flattened elements one at a time
 * (the paper's Eq. 3), walking the slices per element: 78 instructions per element, and
 * two lines per store.
 * Where each team's range starts (its slice) is found by gmagnus_outer_starts, one item per
 * range; the team finds its A entry and segment there with one division.
 *
 * chat_off: element k of C-hat is stored at chat_col/chat_val[chat_off + k] (0, or the gap
 * in front of C-hat when the multisplit runs in place: gmagnus_multisplit.cl).
 */
#include "magnus_dialect.h"
#include "lib/gmagnus_device.cl"
#include "shared/gmagnus_layout.h"

/* starts[i]: the slice holding row i * team_rows, the first of team range i (one item per
 * range; slice_off[nslices] is the number of rows). */
MG_KERNEL void gmagnus_outer_starts(mg_u64 nslices, mg_u64 team_rows,
                                    MG_GLOBAL const mg_u64 *slice_off, MG_GLOBAL mg_u64 *starts,
                                    MG_DYN_LOCAL_PARAM) {
    const mg_u64 total = slice_off[nslices];
    for (mg_u64 i = mg_global_id(); i * team_rows < total; i += mg_num_groups() * mg_local_size())
        starts[i] = mg_gm_find_segment(slice_off, nslices, i * team_rows);
}

/* A slot that stores nothing in its slice (the packed path's slot words below). */
#define MG_GM_OUTER_DEAD 0xffffffffu

/* A team's place among the rows: slice s, its A entries from CSC position pa (m of them),
 * its B row from bstart (lenb entries, nb segments), A entry a (relative to pa), segment j. */
typedef struct mg_gm_rows {
    mg_u64 s, pa;
    mg_i64 bstart;
    mg_u32 m, lenb, nb, a, j;
} mg_gm_rows;

/* Enters slice s at its first row. */
MG_DEVICE void mg_gm_rows_enter(mg_gm_rows *w, mg_u64 s, mg_u32 width,
                                MG_GLOBAL const mg_i32 *slice_col,
                                MG_GLOBAL const mg_u64 *csc_ptr, MG_GLOBAL const mg_i64 *b_ptr) {
    const mg_i32 k = slice_col[s];
    w->s = s;
    w->pa = csc_ptr[k];
    w->m = (mg_u32)(csc_ptr[k + 1] - w->pa);
    w->bstart = b_ptr[k];
    w->lenb = (mg_u32)(b_ptr[k + 1] - w->bstart);
    w->nb = (w->lenb + width - 1u) / width;
    w->a = 0u;
    w->j = 0u;
}

MG_KERNEL void MG_LAUNCH_BOUNDS(MG_GM_OUTER_GROUP_MAX, MG_GM_OUTER_MIN_GROUPS)
gmagnus_outer_product(mg_u64 nslices, mg_u64 team_rows, mg_u32 team,
                      MG_GLOBAL const mg_u64 *starts, MG_GLOBAL const mg_i32 *slice_col,
                      MG_GLOBAL const mg_u64 *slice_off, MG_GLOBAL const mg_u64 *csc_ptr,
                      MG_GLOBAL const mg_u64 *csc_dest, MG_GLOBAL const mg_val *csc_val,
                      MG_GLOBAL const mg_i64 *b_ptr, MG_GLOBAL const mg_i32 *b_col,
                      MG_GLOBAL const mg_val *b_val, MG_GLOBAL mg_i32 *chat_col,
                      MG_GLOBAL mg_val *chat_val, mg_u64 chat_off, MG_DYN_LOCAL_PARAM) {
    const mg_u32 t = mg_local_id();
    const mg_u32 lane = t % team;
    const mg_u64 teams = mg_local_size() / team;
    const mg_u32 width = team * MG_GM_OUTER_SLOTS;
    const mg_u64 total = slice_off[nslices];
    for (mg_u64 range = mg_group_id() * teams + t / team; range * team_rows < total;
         range += mg_num_groups() * teams) {
        mg_u64 r = range * team_rows;
        const mg_u64 r_end = MG_MIN(r + team_rows, total);
        mg_gm_rows w;
        mg_gm_rows_enter(&w, starts[range], width, slice_col, csc_ptr, b_ptr);
        const mg_u64 within = r - slice_off[w.s];
        w.a = (mg_u32)mg_gm_div_u64(within, w.nb);
        w.j = (mg_u32)(within - (mg_u64)w.a * w.nb);
        for (;;) {
            if (w.lenb <= width / 2u) {
                /* Packed: B rows of at most W/2 entries (one segment), a pass covering
                 * per_pass consecutive A entries. Slot u of this item: row `slot >> 16` of a
                 * pass, B entry `slot & 0xffff` (both below W <= 2^15), or MG_GM_OUTER_DEAD. */
                const mg_u32 rows = (mg_u32)MG_MIN((mg_u64)(w.m - w.a), r_end - r);
                const mg_u32 per_pass = width / w.lenb;
                const mg_u64 p0 = w.pa + w.a;
                mg_u32 slot[MG_GM_OUTER_SLOTS];
                mg_i32 c[MG_GM_OUTER_SLOTS];
                mg_val bv[MG_GM_OUTER_SLOTS];
                MG_UNROLL
                for (mg_u32 u = 0; u < MG_GM_OUTER_SLOTS; u++) {
                    const mg_u32 e = u * team + lane;
                    const mg_u32 ro = e / w.lenb, bo = e - ro * w.lenb;
                    const int live = ro < per_pass;
                    slot[u] = live ? (ro << 16) | bo : MG_GM_OUTER_DEAD;
                    c[u] = live ? b_col[w.bstart + bo] : 0;
                    bv[u] = live ? b_val[w.bstart + bo] : (mg_val)0;
                }
                for (mg_u32 i = 0; i < rows; i += per_pass) {
                    MG_UNROLL
                    for (mg_u32 u = 0; u < MG_GM_OUTER_SLOTS; u++) {
                        /* a dead slot, or a row past the range's */
                        if (slot[u] == MG_GM_OUTER_DEAD || (slot[u] >> 16) >= rows - i) continue;
                        const mg_u64 p = p0 + i + (slot[u] >> 16);
                        const mg_u64 d = chat_off + csc_dest[p] + (slot[u] & 0xffffu);
                        chat_col[d] = c[u];
                        chat_val[d] = csc_val[p] * bv[u];
                    }
                }
                r += rows;
                if (r >= r_end) break;
                mg_gm_rows_enter(&w, w.s + 1u, width, slice_col, csc_ptr, b_ptr);
                continue;
            }
            /* One row: A entry a times segment j of the B row. Its elements go to C-hat
             * from d on; lane l of slot u takes the element at d - o + u * team + l, so each
             * slot's stores fill one aligned line of `team` elements (o = d mod team; the
             * buffers start at least 256-byte aligned) and a row of W elements touches at
             * most SLOTS + 1 lines, instead of two lines per slot when the run starts
             * mid-line. */
            const mg_u32 b0 = w.j * width;
            const mg_u32 seg = MG_MIN(width, w.lenb - b0);
            const mg_u64 p = w.pa + w.a;
            const mg_u64 d = chat_off + csc_dest[p] + b0;
            const mg_val av = csc_val[p];
            const mg_u32 o = (mg_u32)d & (team - 1u); /* team: a power of 2 */
            /* the row's B entries and places from these pointers, by 32-bit offsets */
            MG_GLOBAL const mg_i32 *bc = b_col + (w.bstart + b0);
            MG_GLOBAL const mg_val *bw = b_val + (w.bstart + b0);
            MG_GLOBAL mg_i32 *cc = chat_col + d;
            MG_GLOBAL mg_val *cw = chat_val + d;
            mg_i32 c[MG_GM_OUTER_SLOTS + 1];
            mg_val bv[MG_GM_OUTER_SLOTS + 1];
            if (seg == width) {
                /* a whole row: slots 1 .. SLOTS-1 lie inside it for every lane (e from
                 * u * team - (team - 1) to u * team + team - 1), only the first and the last
                 * slot are cut by o; no test for the others */
                const mg_u32 e0 = lane - o, el = MG_GM_OUTER_SLOTS * team + lane - o;
                c[0] = lane >= o ? bc[e0] : 0;
                bv[0] = lane >= o ? bw[e0] : (mg_val)0;
                MG_UNROLL
                for (mg_u32 u = 1; u < MG_GM_OUTER_SLOTS; u++) {
                    c[u] = bc[u * team + lane - o];
                    bv[u] = bw[u * team + lane - o];
                }
                c[MG_GM_OUTER_SLOTS] = lane < o ? bc[el] : 0;
                bv[MG_GM_OUTER_SLOTS] = lane < o ? bw[el] : (mg_val)0;
                if (lane >= o) {
                    cc[e0] = c[0];
                    cw[e0] = av * bv[0];
                }
                MG_UNROLL
                for (mg_u32 u = 1; u < MG_GM_OUTER_SLOTS; u++) {
                    cc[u * team + lane - o] = c[u];
                    cw[u * team + lane - o] = av * bv[u];
                }
                if (lane < o) {
                    cc[el] = c[MG_GM_OUTER_SLOTS];
                    cw[el] = av * bv[MG_GM_OUTER_SLOTS];
                }
            } else {
                MG_UNROLL
                for (mg_u32 u = 0; u <= MG_GM_OUTER_SLOTS; u++) {
                    const mg_u32 e = u * team + lane - o; /* wraps below the row: not < seg */
                    c[u] = e < seg ? bc[e] : 0;
                    bv[u] = e < seg ? bw[e] : (mg_val)0;
                }
                MG_UNROLL
                for (mg_u32 u = 0; u <= MG_GM_OUTER_SLOTS; u++) {
                    const mg_u32 e = u * team + lane - o;
                    if (e >= seg) continue;
                    cc[e] = c[u];
                    cw[e] = av * bv[u];
                }
            }
            if (++r >= r_end) break;
            /* the next segment of the run, the next A entry, or the next slice */
            if (++w.j == w.nb) {
                w.j = 0u;
                if (++w.a == w.m) mg_gm_rows_enter(&w, w.s + 1u, width, slice_col, csc_ptr, b_ptr);
            }
        }
    }
}

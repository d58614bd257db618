/*
 * spirv_order_blocks IN.spv OUT.spv
 *
 * Build-time helper of the Level Zero kernels (backends/level0/level0.cmake): rewrites each
 * function of a SPIR-V module with its blocks in reverse post-order of the control-flow graph.
 *
 * Why: SPIR-V requires every block to appear after the blocks that dominate it, while LLVM
 * keeps blocks in whatever order its passes left them (loop rotation in clang -O2 moves a
 * loop's new pre-header after the body). llvm-spirv-14 writes LLVM's order unchanged, so
 * spirv-val rejects the module ("block appears in the binary before its dominator", or an ID
 * used before its definition). Reverse post-order puts every block after all its dominators;
 * only the layout changes, never an instruction, and the entry block stays first. Blocks no
 * path reaches keep their relative order at the end.
 *
 * The module is little-endian, as llvm-spirv writes it; anything else is refused.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OP_TYPE_INT = 21,
    OP_FUNCTION = 54,
    OP_FUNCTION_END = 56,
    OP_LABEL = 248,
    OP_BRANCH = 249,
    OP_BRANCH_CONDITIONAL = 250,
    OP_SWITCH = 251,
};
#define SPIRV_MAGIC 0x07230203u
#define HEADER_WORDS 5

typedef struct block {
    uint32_t label;
    size_t begin, end; /* word range, OpLabel .. terminator inclusive */
    uint32_t *succ;
    size_t nsucc;
    int state; /* 0 unvisited, 1 on the DFS stack, 2 done */
} block;

static uint32_t *words;
static size_t nwords;

static void fail(const char *what) {
    fprintf(stderr, "spirv_order_blocks: %s\n", what);
    exit(1);
}

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    if (!p) fail("out of memory");
    return p;
}

static uint32_t opcode(size_t at) { return words[at] & 0xffffu; }
static uint32_t length(size_t at) {
    uint32_t n = words[at] >> 16;
    if (n == 0 || at + n > nwords) fail("malformed instruction");
    return n;
}

/* Width in bits of the integer type of value `id`, 0 when unknown: the value is an OpConstant,
 * an OpFunctionParameter or any function-body instruction of layout [op, type, id, ...]. */
static uint32_t int_width_of(uint32_t id) {
    for (size_t at = HEADER_WORDS; at < nwords; at += length(at)) {
        uint32_t n = length(at);
        if (n < 3 || words[at + 2] != id) continue;
        uint32_t type = words[at + 1];
        for (size_t t = HEADER_WORDS; t < nwords; t += length(t))
            if (opcode(t) == OP_TYPE_INT && length(t) >= 3 && words[t + 1] == type) return words[t + 2];
    }
    return 0;
}

/* Successor labels of the block whose terminator starts at `at`. */
static void successors(block *b, size_t at) {
    uint32_t op = opcode(at), n = length(at);
    if (op == OP_BRANCH) {
        b->succ = xcalloc(1, sizeof *b->succ);
        b->succ[b->nsucc++] = words[at + 1];
    } else if (op == OP_BRANCH_CONDITIONAL) {
        b->succ = xcalloc(2, sizeof *b->succ);
        b->succ[b->nsucc++] = words[at + 2];
        b->succ[b->nsucc++] = words[at + 3];
    } else if (op == OP_SWITCH) {
        /* OpSwitch selector default (literal label)*: a literal is one word per 32 bits of the
         * selector's type. */
        uint32_t width = int_width_of(words[at + 1]);
        if (width == 0) fail("cannot find the integer type of an OpSwitch selector");
        uint32_t lit = (width + 31) / 32;
        if ((n - 3) % (lit + 1) != 0) fail("malformed OpSwitch");
        b->succ = xcalloc(1 + (n - 3) / (lit + 1), sizeof *b->succ);
        b->succ[b->nsucc++] = words[at + 2];
        for (uint32_t k = 3; k < n; k += lit + 1) b->succ[b->nsucc++] = words[at + k + lit];
    }
    /* OpReturn, OpReturnValue, OpUnreachable, OpKill: no successor */
}

static block *find_block(block *blocks, size_t nblocks, uint32_t label) {
    for (size_t i = 0; i < nblocks; i++)
        if (blocks[i].label == label) return &blocks[i];
    return NULL;
}

/* Appends blocks in post-order (iterative DFS: kernels can have deep CFGs). */
static void post_order(block *blocks, size_t nblocks, block **order, size_t *norder) {
    block **stack = xcalloc(nblocks, sizeof *stack);
    size_t *next = xcalloc(nblocks, sizeof *next);
    size_t depth = 0;
    stack[depth++] = &blocks[0];
    blocks[0].state = 1;
    while (depth > 0) {
        block *b = stack[depth - 1];
        size_t *i = &next[depth - 1];
        if (*i < b->nsucc) {
            block *s = find_block(blocks, nblocks, b->succ[(*i)++]);
            if (!s) fail("branch to a label outside its function");
            if (s->state == 0) {
                s->state = 1;
                next[depth] = 0;
                stack[depth++] = s;
            }
        } else {
            b->state = 2;
            order[(*norder)++] = b;
            depth--;
        }
    }
    free(stack);
    free(next);
}

/* Copies one function (OpFunction at `at`) to `out` with its blocks reordered. */
static size_t reorder_function(size_t at, uint32_t *out, size_t *nout) {
    size_t body = at;
    while (body < nwords && opcode(body) != OP_LABEL && opcode(body) != OP_FUNCTION_END)
        body += length(body);
    if (body >= nwords) fail("function without OpFunctionEnd");
    memcpy(out + *nout, words + at, (body - at) * sizeof *words); /* OpFunction + parameters */
    *nout += body - at;

    size_t nblocks = 0, end = body;
    for (; end < nwords && opcode(end) != OP_FUNCTION_END; end += length(end))
        nblocks += opcode(end) == OP_LABEL;
    if (end >= nwords) fail("function without OpFunctionEnd");
    if (nblocks > 0) {
        block *blocks = xcalloc(nblocks, sizeof *blocks);
        size_t nb = 0;
        for (size_t p = body; p < end; p += length(p)) {
            if (opcode(p) == OP_LABEL) {
                if (length(p) < 2) fail("malformed OpLabel");
                blocks[nb].label = words[p + 1];
                blocks[nb].begin = p;
                nb++;
            }
            blocks[nb - 1].end = p + length(p);
            successors(&blocks[nb - 1], p); /* the last instruction of a block wins */
        }
        block **order = xcalloc(nblocks, sizeof *order);
        size_t norder = 0;
        post_order(blocks, nblocks, order, &norder);
        for (size_t i = norder; i-- > 0;) { /* reverse post-order */
            memcpy(out + *nout, words + order[i]->begin, (order[i]->end - order[i]->begin) * sizeof *words);
            *nout += order[i]->end - order[i]->begin;
        }
        for (size_t i = 0; i < nblocks; i++) /* unreachable blocks, in their old order */
            if (blocks[i].state == 0) {
                memcpy(out + *nout, words + blocks[i].begin, (blocks[i].end - blocks[i].begin) * sizeof *words);
                *nout += blocks[i].end - blocks[i].begin;
            }
        for (size_t i = 0; i < nblocks; i++) free(blocks[i].succ);
        free(blocks);
        free(order);
    }
    memcpy(out + *nout, words + end, length(end) * sizeof *words); /* OpFunctionEnd */
    *nout += length(end);
    return end + length(end);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: spirv_order_blocks IN.spv OUT.spv\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) fail("cannot open the input");
    fseek(f, 0, SEEK_END);
    long bytes = ftell(f);
    rewind(f);
    if (bytes < HEADER_WORDS * 4 || bytes % 4) fail("input is not a SPIR-V module");
    nwords = (size_t)bytes / 4;
    words = xcalloc(nwords, sizeof *words);
    if (fread(words, 4, nwords, f) != nwords) fail("cannot read the input");
    fclose(f);
    if (words[0] != SPIRV_MAGIC) fail("not a little-endian SPIR-V module");

    uint32_t *out = xcalloc(nwords, sizeof *out);
    size_t nout = HEADER_WORDS;
    memcpy(out, words, HEADER_WORDS * sizeof *words);
    for (size_t at = HEADER_WORDS; at < nwords;) {
        if (opcode(at) == OP_FUNCTION) {
            at = reorder_function(at, out, &nout);
        } else {
            uint32_t n = length(at);
            memcpy(out + nout, words + at, n * sizeof *words);
            nout += n;
            at += n;
        }
    }
    if (nout != nwords) fail("internal error: word count changed");
    FILE *o = fopen(argv[2], "wb");
    if (!o || fwrite(out, 4, nout, o) != nout || fclose(o) != 0) fail("cannot write the output");
    free(words);
    free(out);
    return 0;
}

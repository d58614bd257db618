/*
 * Typed launch wrappers, one per kernel, derived from the declarations in
 * kernels/kernel_signatures.h (read its top for how to add a kernel):
 *
 *   magnus_status magnus_k_<kernel>(magnus_context ctx, magnus_queue_id q,
 *                                   magnus_kernel_variant variant, size_t groups,
 *                                   size_t group_size, size_t local_bytes,
 *                                   <the kernel's parameters, typed>);
 *
 * Each builds the magnus_karg array in the declared order and calls magnus_launch with the
 * kernel's id (MAGNUS_KERNEL_<kernel>, kernel_ids.h), so a call site with too few or too many
 * arguments, or a buffer passed where a scalar belongs (or the reverse), is a compile error
 * rather than a launch of wrongly placed arguments. Buffers are `const magnus_dbuf *` whatever their element type (a device buffer
 * carries none); scalars convert as C arguments do, to the width the kernel declares.
 *
 * Also derived: magnus_k_<kernel>_fn, the wrapper's function type (for tables of flavours,
 * e.g. the scans of runtime/primitives), and magnus_k_<kernel>_nargs, its kernel argument
 * count (tests/test_kernel_signatures.c compares it with the kernel source).
 */
#ifndef MAGNUS_KERNELS_H
#define MAGNUS_KERNELS_H

#include "device_runtime.h"

/* Host parameter type of each kind. */
#define MAGNUS_KT_I32 int32_t
#define MAGNUS_KT_U32 uint32_t
#define MAGNUS_KT_I64 int64_t
#define MAGNUS_KT_U64 uint64_t
#define MAGNUS_KT_F32 float
#define MAGNUS_KT_F64 double
#define MAGNUS_KT_BUF_I32 const magnus_dbuf *
#define MAGNUS_KT_BUF_U32 const magnus_dbuf *
#define MAGNUS_KT_BUF_I64 const magnus_dbuf *
#define MAGNUS_KT_BUF_U64 const magnus_dbuf *
#define MAGNUS_KT_BUF_F32 const magnus_dbuf *
#define MAGNUS_KT_BUF_F64 const magnus_dbuf *
#define MAGNUS_KT_BUF_VAL const magnus_dbuf *

/* The magnus_karg of each kind. */
#define MAGNUS_KA_I32(x) magnus_arg_i32(x)
#define MAGNUS_KA_U32(x) magnus_arg_u32(x)
#define MAGNUS_KA_I64(x) magnus_arg_i64(x)
#define MAGNUS_KA_U64(x) magnus_arg_u64(x)
#define MAGNUS_KA_F32(x) magnus_arg_f32(x)
#define MAGNUS_KA_F64(x) magnus_arg_f64(x)
#define MAGNUS_KA_BUF_I32(x) magnus_arg_mem(x)
#define MAGNUS_KA_BUF_U32(x) magnus_arg_mem(x)
#define MAGNUS_KA_BUF_I64(x) magnus_arg_mem(x)
#define MAGNUS_KA_BUF_U64(x) magnus_arg_mem(x)
#define MAGNUS_KA_BUF_F32(x) magnus_arg_mem(x)
#define MAGNUS_KA_BUF_F64(x) magnus_arg_mem(x)
#define MAGNUS_KA_BUF_VAL(x) magnus_arg_mem(x)

/*
 * MAGNUS_KP_EACH(F, (kind, name), ...) expands to F(kind, name) for each parameter, in order;
 * MAGNUS_KP_COUNT(...) counts them. Up to 24 parameters (the largest kernel has 19); a longer
 * list fails to compile (no MAGNUS_KP_EACH_25). The trailing 0 keeps the variadic part of
 * MAGNUS_KP_COUNT_ non-empty, as C11 requires.
 */
#define MAGNUS_KP_COUNT(...)                                                                    \
    MAGNUS_KP_COUNT_(__VA_ARGS__, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, \
                     8, 7, 6, 5, 4, 3, 2, 1, 0)
#define MAGNUS_KP_COUNT_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16,   \
                         _17, _18, _19, _20, _21, _22, _23, _24, n, ...)                          \
    n
#define MAGNUS_KP_CAT(a, b) MAGNUS_KP_CAT_(a, b)
#define MAGNUS_KP_CAT_(a, b) a##b
#define MAGNUS_KP_EACH(F, ...)                                                                   \
    MAGNUS_KP_CAT(MAGNUS_KP_EACH_, MAGNUS_KP_COUNT(__VA_ARGS__))(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_1(F, p) F p
#define MAGNUS_KP_EACH_2(F, p, ...) F p MAGNUS_KP_EACH_1(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_3(F, p, ...) F p MAGNUS_KP_EACH_2(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_4(F, p, ...) F p MAGNUS_KP_EACH_3(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_5(F, p, ...) F p MAGNUS_KP_EACH_4(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_6(F, p, ...) F p MAGNUS_KP_EACH_5(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_7(F, p, ...) F p MAGNUS_KP_EACH_6(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_8(F, p, ...) F p MAGNUS_KP_EACH_7(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_9(F, p, ...) F p MAGNUS_KP_EACH_8(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_10(F, p, ...) F p MAGNUS_KP_EACH_9(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_11(F, p, ...) F p MAGNUS_KP_EACH_10(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_12(F, p, ...) F p MAGNUS_KP_EACH_11(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_13(F, p, ...) F p MAGNUS_KP_EACH_12(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_14(F, p, ...) F p MAGNUS_KP_EACH_13(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_15(F, p, ...) F p MAGNUS_KP_EACH_14(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_16(F, p, ...) F p MAGNUS_KP_EACH_15(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_17(F, p, ...) F p MAGNUS_KP_EACH_16(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_18(F, p, ...) F p MAGNUS_KP_EACH_17(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_19(F, p, ...) F p MAGNUS_KP_EACH_18(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_20(F, p, ...) F p MAGNUS_KP_EACH_19(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_21(F, p, ...) F p MAGNUS_KP_EACH_20(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_22(F, p, ...) F p MAGNUS_KP_EACH_21(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_23(F, p, ...) F p MAGNUS_KP_EACH_22(F, __VA_ARGS__)
#define MAGNUS_KP_EACH_24(F, p, ...) F p MAGNUS_KP_EACH_23(F, __VA_ARGS__)

/* Pieces of a wrapper: a parameter declaration, a parameter type, an array element. */
#define MAGNUS_KP_DECL(kind, name) , MAGNUS_KT_##kind name
#define MAGNUS_KP_TYPE(kind, name) , MAGNUS_KT_##kind
#define MAGNUS_KP_ARG(kind, name) MAGNUS_KA_##kind(name),

/* The launch parameters every wrapper starts with end in `_` so that no kernel parameter name
 * can shadow them. */
#define MG_KERNEL_SIG(kernel, ...)                                                               \
    enum { magnus_k_##kernel##_nargs = MAGNUS_KP_COUNT(__VA_ARGS__) };                           \
    typedef magnus_status magnus_k_##kernel##_fn(magnus_context, magnus_queue_id,                \
                                                 magnus_kernel_variant, size_t, size_t,          \
                                                 size_t MAGNUS_KP_EACH(MAGNUS_KP_TYPE,           \
                                                                       __VA_ARGS__));            \
    static inline magnus_status magnus_k_##kernel(                                               \
        magnus_context ctx_, magnus_queue_id queue_, magnus_kernel_variant variant_,             \
        size_t groups_, size_t group_size_,                                                      \
        size_t local_bytes_ MAGNUS_KP_EACH(MAGNUS_KP_DECL, __VA_ARGS__)) {                       \
        const magnus_karg args_[] = {MAGNUS_KP_EACH(MAGNUS_KP_ARG, __VA_ARGS__)};                \
        return magnus_launch(ctx_, queue_, variant_, MAGNUS_KERNEL_##kernel, groups_,            \
                             group_size_, local_bytes_, magnus_k_##kernel##_nargs, args_);       \
    }
#include "kernel_signatures.h"
#undef MG_KERNEL_SIG

#endif

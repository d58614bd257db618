/*
 * The functions a backend's ops table points at, declared once for every backend. Each backend
 * names them PREFIX_<op> after the table's member (magnus_cuda_mem_write, level0_launch,
 * magnus_cl_event_destroy), with the member's own signature, so the declarations and the
 * table's entries follow from the prefix:
 *   MAGNUS_BACKEND_DECLARE_FUNCTIONS(magnus_cl)  in the backend's internal header;
 *   MAGNUS_BACKEND_TABLE_FUNCTIONS(magnus_cl)    inside its magnus_backend_ops initializer.
 * They cover contexts, queues, memory, modules, kernels and events; load, unload and the two
 * device ops each backend declares and sets itself (Level Zero's device count has another
 * name). A signature that drifts from the table's is a compile error at the initializer.
 */
#ifndef MAGNUS_BACKEND_FUNCTIONS_H
#define MAGNUS_BACKEND_FUNCTIONS_H

#include "backend.h"

#define MAGNUS_BACKEND_DECLARE_FUNCTIONS(prefix)                                                  \
    magnus_status prefix##_context_create(int index, magnus_bctx **ctx);                          \
    void prefix##_context_destroy(magnus_bctx *ctx);                                              \
    magnus_status prefix##_queue_create(magnus_bctx *ctx, int urgent, magnus_bqueue **queue);     \
    void prefix##_queue_destroy(magnus_bqueue *queue);                                            \
    magnus_status prefix##_queue_finish(magnus_bqueue *queue);                                    \
                                                                                                  \
    magnus_status prefix##_mem_alloc(magnus_bctx *ctx, size_t bytes, magnus_bmem **mem);          \
    void prefix##_mem_free(magnus_bctx *ctx, magnus_bmem *mem);                                   \
    magnus_status prefix##_mem_reserved(magnus_bctx *ctx, uint64_t *bytes);                       \
    magnus_status prefix##_mem_trim(magnus_bctx *ctx);                                            \
    magnus_status prefix##_mem_write(magnus_bqueue *q, magnus_bmem *dst, size_t dst_offset,       \
                                     const void *src, size_t bytes);                              \
    magnus_status prefix##_mem_read(magnus_bqueue *q, void *dst, magnus_bmem *src,                \
                                    size_t src_offset, size_t bytes);                             \
    magnus_status prefix##_mem_copy(magnus_bqueue *q, magnus_bmem *dst, size_t dst_offset,        \
                                    magnus_bmem *src, size_t src_offset, size_t bytes);           \
    magnus_status prefix##_mem_fill(magnus_bqueue *q, magnus_bmem *dst, size_t offset,            \
                                    const void *pattern, size_t pattern_bytes, size_t bytes);     \
    magnus_status prefix##_mem_wrap(magnus_bctx *ctx, void *native, size_t bytes,                 \
                                    magnus_bmem **mem);                                           \
    void prefix##_mem_unwrap(magnus_bctx *ctx, magnus_bmem *mem);                                 \
    magnus_status prefix##_mem_native(magnus_bctx *ctx, magnus_bmem *mem, void **native);         \
    magnus_status prefix##_context_native(magnus_bctx *ctx, void **context, void **device);       \
                                                                                                  \
    magnus_status prefix##_module_load(magnus_bctx *ctx, magnus_kernel_variant variant,           \
                                       const magnus_build_notice *notice,                         \
                                       magnus_bmodule **module);                                  \
    void prefix##_module_unload(magnus_bmodule *module);                                          \
    magnus_status prefix##_kernel_get(magnus_bmodule *module, const char *name,                   \
                                      magnus_bkernel **kernel);                                   \
    magnus_status prefix##_kernel_limits(magnus_bctx *ctx, magnus_bkernel *kernel,                \
                                         magnus_kernel_limits *limits);                           \
    magnus_status prefix##_kernel_local_share(magnus_bctx *ctx, magnus_bkernel *kernel,           \
                                              int local_percent);                                 \
    void prefix##_kernel_release(magnus_bkernel *kernel);                                         \
    magnus_status prefix##_launch(magnus_bqueue *q, magnus_bkernel *kernel, size_t groups,        \
                                  size_t group_size, size_t local_bytes, int nargs,               \
                                  const magnus_karg *args);                                       \
                                                                                                  \
    magnus_status prefix##_event_record(magnus_bqueue *q, magnus_bevent **event);                 \
    magnus_status prefix##_queue_wait_event(magnus_bqueue *q, magnus_bevent *event);              \
    magnus_status prefix##_event_synchronize(magnus_bevent *event);                               \
    magnus_status prefix##_event_elapsed_ms(magnus_bevent *start, magnus_bevent *end,             \
                                            double *ms);                                          \
    void prefix##_event_destroy(magnus_bevent *event)

#define MAGNUS_BACKEND_TABLE_FUNCTIONS(prefix)                                                    \
    .context_create = prefix##_context_create, .context_destroy = prefix##_context_destroy,      \
    .queue_create = prefix##_queue_create, .queue_destroy = prefix##_queue_destroy,              \
    .queue_finish = prefix##_queue_finish,                                                        \
                                                                                                  \
    .mem_alloc = prefix##_mem_alloc, .mem_free = prefix##_mem_free,                               \
    .mem_reserved = prefix##_mem_reserved, .mem_trim = prefix##_mem_trim,                         \
    .mem_wrap = prefix##_mem_wrap, .mem_unwrap = prefix##_mem_unwrap,                             \
    .mem_native = prefix##_mem_native, .context_native = prefix##_context_native,                 \
    .mem_write = prefix##_mem_write, .mem_read = prefix##_mem_read,                               \
    .mem_copy = prefix##_mem_copy, .mem_fill = prefix##_mem_fill,                                 \
                                                                                                  \
    .module_load = prefix##_module_load, .module_unload = prefix##_module_unload,                 \
    .kernel_get = prefix##_kernel_get, .kernel_limits = prefix##_kernel_limits,                   \
    .kernel_local_share = prefix##_kernel_local_share,                                            \
    .kernel_release = prefix##_kernel_release, .launch = prefix##_launch,                         \
                                                                                                  \
    .event_record = prefix##_event_record, .queue_wait_event = prefix##_queue_wait_event,         \
    .event_synchronize = prefix##_event_synchronize,                                              \
    .event_elapsed_ms = prefix##_event_elapsed_ms, .event_destroy = prefix##_event_destroy

/* A kernel binary or source the build embeds (cmake/MagnusEmbed.cmake): SYMBOL holds its bytes
 * (NUL-terminated), SYMBOL_size their count without the terminator. */
#define MAGNUS_EMBEDDED_BLOB(symbol)                                                              \
    extern const unsigned char symbol[];                                                          \
    extern const size_t symbol##_size

#endif

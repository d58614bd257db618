/*
 * Every kernel's id, generated from kernels/kernel_signatures.h (one entry, one id, in its
 * order): MAGNUS_KERNEL_<kernel>, then MAGNUS_KERNEL_COUNT. Launches and limits name a kernel
 * by id, so a kernel that does not exist is a compile error, not a failed lookup at run time,
 * and a context caches its kernels in an array indexed by id rather than by comparing names.
 */
#ifndef MAGNUS_KERNEL_IDS_H
#define MAGNUS_KERNEL_IDS_H

#define MG_KERNEL_SIG(kernel, ...) MAGNUS_KERNEL_##kernel,
typedef enum {
#include "kernel_signatures.h"
    MAGNUS_KERNEL_COUNT
} magnus_kernel_id;
#undef MG_KERNEL_SIG

/* The kernel's name in the kernel source (for the backend's lookup and for messages), or NULL
 * for an id out of range. */
const char *magnus_kernel_name(magnus_kernel_id kernel);

#endif

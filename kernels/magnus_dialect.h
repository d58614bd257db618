/*
 * The magnus kernel dialect: a handful of macros that make one kernel source valid OpenCL C
 * 1.2 (OpenCL runtime compilers, clang -target spir64 for Level Zero) and CUDA C++ (nvcc).
 *
 * Rules for kernel files (the .cl files in kernels/):
 *   1. Start with `#include "magnus_dialect.h"` (and `#include "lib/<name>.cl"` for shared
 *      device functions). No host headers. All files form ONE module: kernels/lib/<name>.cl first,
 *      then kernels/<name>.cl, in name order (kernels/kernels.cmake); the includes only serve
 *      editors and single-file syntax checks, the build strips them, so every lib file needs
 *      an include guard and names must be unique across files.
 *   2. Kernels are `MG_KERNEL void name(...)`, launched 1-D. The last parameter of every
 *      kernel is MG_DYN_LOCAL_PARAM; inside, dynamic local memory is `mg_dyn_local` (8-byte
 *      aligned; cast it with MG_LOCAL_CAST(type, offset_in_bytes)).
 *   3. Pointer parameters are whole buffers: `MG_GLOBAL T *p`. Offsets into a buffer are
 *      passed as separate integer parameters (OpenCL 1.2 cannot offset a cl_mem).
 *   4. Scalar parameters are mg_i32/mg_u32/mg_i64/mg_u64/float/double only (no size_t, no
 *      bool, no structs): every backend passes them by value as 4 or 8 bytes.
 *   5. Static local arrays: `MG_LOCAL_ARRAY(type, name, count);` at kernel scope.
 *   6. Device helper functions are `MG_DEVICE`; pointer parameters carry their address space
 *      (MG_GLOBAL / MG_LOCAL), so helpers taking local and global pointers are written twice.
 *   7. Ids: mg_local_id(), mg_group_id(), mg_local_size(), mg_num_groups(), mg_global_id()
 *      (all mg_u64 or narrower, dimension 0). Barrier: mg_barrier() (local and global fence).
 *   8. Atomics: mg_atomic_add_u32 / mg_atomic_cas_u32 / mg_atomic_max_u32 / mg_atomic_or_u32
 *      (OpenCL 1.2 core 32-bit atomics) / mg_atomic_add_u64 / mg_atomic_cas_u64
 *      work on MG_GLOBAL and MG_LOCAL pointers alike (OpenCL overloads; 64-bit needs
 *      cl_khr_int64_base_atomics, which the runtime checks via device_info.atomic64). Float
 *      adds take an explicit address space: mg_atomic_add_f32_global,
 *      mg_atomic_add_f64_global (and _local); in OpenCL C they are CAS loops unless the
 *      backend defines MG_PTX (a PTX device: atom instructions). Atomics return the old value.
 *   9. Loads: mg_load_once(p) is *p for data the whole launch reads once (a matrix's
 *      stream), which the caches may drop first (CUDA's ld.global.cs; a plain load in OpenCL C).
 *  10. Values: `mg_val` is float or double, chosen at build time by MG_VALUE_F64 (every
 *      backend builds each module twice, see magnus_kernel_variant in runtime/core/device_handles.h).
 *  11. No subgroup intrinsics, no warp shuffles, no printf, no recursion, no function
 *      pointers: only what OpenCL 1.2 guarantees. "Subgroups" in the algorithm are ranges of
 *      local ids of size MG_SUBGROUP (a launch parameter), used to split local histograms.
 *  12. No reliance on forward progress between work groups (no spin-waiting on other groups).
 */
#ifndef MAGNUS_DIALECT_H
#define MAGNUS_DIALECT_H

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
/* ---------------------------------- OpenCL C 1.2 ---------------------------------------- */
#define MG_OPENCL 1
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
#ifdef MG_VALUE_F64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

typedef int mg_i32;
typedef uint mg_u32;
typedef long mg_i64;
typedef ulong mg_u64;
typedef uchar mg_u8;

#define MG_KERNEL __kernel
/* A kernel's residency wish (MG_KERNEL void MG_LAUNCH_BOUNDS(items, groups) name(...)): CUDA
 * caps the registers so `groups` groups of `items` fit an SM; OpenCL has no such hint. */
#define MG_LAUNCH_BOUNDS(items, groups)
#define MG_DEVICE static inline
#define MG_GLOBAL __global
#define MG_LOCAL __local
#define MG_CONSTANT __constant
#define MG_DYN_LOCAL_PARAM __local mg_u64 *mg_dyn_local
#define MG_LOCAL_ARRAY(type, name, count) __local type name[count]
#define MG_LOCAL_CAST(type, byte_offset) ((__local type *)((__local char *)mg_dyn_local + (byte_offset)))

#define mg_local_id() ((mg_u32)get_local_id(0))
#define mg_group_id() ((mg_u64)get_group_id(0))
#define mg_local_size() ((mg_u32)get_local_size(0))
#define mg_num_groups() ((mg_u64)get_num_groups(0))
#define mg_global_id() ((mg_u64)get_global_id(0))
/* The global fence is kept even on a PTX device, where bar.sync alone would order a group's
 * global memory as CUDA's __syncthreads does: dropping it measured no faster on an H100
 * (docs/performance.md, "OpenCL's float atomics as PTX"). */
#define mg_barrier() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

#define mg_atomic_add_u32(p, v) atomic_add((p), (mg_u32)(v))
#define mg_atomic_add_i32(p, v) atomic_add((p), (mg_i32)(v))
#define mg_atomic_cas_u32(p, cmp, v) atomic_cmpxchg((p), (mg_u32)(cmp), (mg_u32)(v))
#define mg_atomic_max_u32(p, v) atomic_max((p), (mg_u32)(v))
#define mg_atomic_or_u32(p, v) atomic_or((p), (mg_u32)(v))
#define mg_atomic_add_u64(p, v) atom_add((p), (mg_u64)(v))
#define mg_atomic_add_i64(p, v) atom_add((p), (mg_i64)(v))
#define mg_atomic_cas_u64(p, cmp, v) atom_cmpxchg((p), (mg_u64)(cmp), (mg_u64)(v))

#define mg_as_uint(x) as_uint(x)
#define mg_as_float(x) as_float(x)
#define mg_as_ulong(x) as_ulong(x)
#define mg_as_double(x) as_double(x)
#define mg_load_once(p) (*(p))

#define MG_FLOAT_ADD_CAS(suffix, space, T, UT, ATOM, AS_U, AS_T)                                 \
    MG_DEVICE T mg_atomic_add_##suffix(volatile space T *p, T v) {                               \
        volatile space UT *up = (volatile space UT *)p;                                          \
        UT old = *up, assumed;                                                                   \
        do {                                                                                     \
            assumed = old;                                                                       \
            old = ATOM(up, assumed, AS_U(AS_T(assumed) + v));                                    \
        } while (old != assumed);                                                                \
        return AS_T(old);                                                                        \
    }
#ifdef MG_PTX
/* The device's compiler takes inline PTX and the device has float atomic adds in hardware
 * (the OpenCL backend defines MG_PTX only where the device reports a PTX target of sm_60 or
 * more, and builds again without it if the build fails): one atom instruction in place of a
 * load and a compare-and-swap loop, which under contention retries (docs/performance.md,
 * "OpenCL's float atomics"). A local pointer converted to an integer is its offset in the
 * shared window, which .shared takes. */
#define MG_FLOAT_ADD_PTX(suffix, space, T, PTX, C)                                                 \
    MG_DEVICE T mg_atomic_add_##suffix(volatile space T *p, T v) {                                 \
        T old;                                                                                     \
        __asm__ volatile("atom." PTX " %0, [%1], %2;" : "=" C(old) : "l"((ulong)p), C(v)           \
                         : "memory");                                                              \
        return old;                                                                                \
    }
MG_FLOAT_ADD_PTX(f32_global, __global, float, "global.add.f32", "f")
MG_FLOAT_ADD_PTX(f32_local, __local, float, "shared.add.f32", "f")
#ifdef MG_VALUE_F64
MG_FLOAT_ADD_PTX(f64_global, __global, double, "global.add.f64", "d")
MG_FLOAT_ADD_PTX(f64_local, __local, double, "shared.add.f64", "d")
#endif
#else
MG_FLOAT_ADD_CAS(f32_global, __global, float, uint, atomic_cmpxchg, as_uint, as_float)
MG_FLOAT_ADD_CAS(f32_local, __local, float, uint, atomic_cmpxchg, as_uint, as_float)
#ifdef MG_VALUE_F64
MG_FLOAT_ADD_CAS(f64_global, __global, double, ulong, atom_cmpxchg, as_ulong, as_double)
MG_FLOAT_ADD_CAS(f64_local, __local, double, ulong, atom_cmpxchg, as_ulong, as_double)
#endif
#endif

#elif defined(__CUDACC__)
/* ---------------------------------- CUDA C++ --------------------------------------------- */
#define MG_CUDA 1
typedef int mg_i32;
typedef unsigned int mg_u32;
typedef long long mg_i64;
typedef unsigned long long mg_u64;
typedef unsigned char mg_u8;

#define MG_KERNEL extern "C" __global__
#define MG_LAUNCH_BOUNDS(items, groups) __launch_bounds__(items, groups)
#define MG_DEVICE static __device__ __forceinline__
#define MG_GLOBAL
#define MG_LOCAL
#define MG_CONSTANT
/* The dummy pointer keeps the parameter list identical across backends; CUDA's dynamic
 * shared memory comes from the launch's sharedMemBytes instead. */
#define MG_DYN_LOCAL_PARAM void *mg_dyn_local_unused
extern __shared__ mg_u64 mg_dyn_local[];
#define MG_LOCAL_ARRAY(type, name, count) __shared__ type name[count]
#define MG_LOCAL_CAST(type, byte_offset) ((type *)((char *)mg_dyn_local + (byte_offset)))

#define mg_local_id() ((mg_u32)threadIdx.x)
#define mg_group_id() ((mg_u64)blockIdx.x)
#define mg_local_size() ((mg_u32)blockDim.x)
#define mg_num_groups() ((mg_u64)gridDim.x)
#define mg_global_id() ((mg_u64)blockIdx.x * blockDim.x + threadIdx.x)
#define mg_barrier() __syncthreads()

#define mg_atomic_add_u32(p, v) atomicAdd((mg_u32 *)(p), (mg_u32)(v))
#define mg_atomic_add_i32(p, v) atomicAdd((mg_i32 *)(p), (mg_i32)(v))
#define mg_atomic_cas_u32(p, cmp, v) atomicCAS((mg_u32 *)(p), (mg_u32)(cmp), (mg_u32)(v))
#define mg_atomic_max_u32(p, v) atomicMax((mg_u32 *)(p), (mg_u32)(v))
#define mg_atomic_or_u32(p, v) atomicOr((mg_u32 *)(p), (mg_u32)(v))
#define mg_atomic_add_u64(p, v) atomicAdd((mg_u64 *)(p), (mg_u64)(v))
#define mg_atomic_add_i64(p, v) ((mg_i64)atomicAdd((mg_u64 *)(p), (mg_u64)(v)))
#define mg_atomic_cas_u64(p, cmp, v) atomicCAS((mg_u64 *)(p), (mg_u64)(cmp), (mg_u64)(v))
#define mg_atomic_add_f32_global(p, v) atomicAdd((float *)(p), (v))
#define mg_atomic_add_f32_local(p, v) atomicAdd((float *)(p), (v))
#define mg_atomic_add_f64_global(p, v) atomicAdd((double *)(p), (v))
#define mg_atomic_add_f64_local(p, v) atomicAdd((double *)(p), (v))

#define mg_as_uint(x) __float_as_uint(x)
#define mg_as_float(x) __uint_as_float(x)
#define mg_as_ulong(x) ((mg_u64)__double_as_longlong(x))
#define mg_as_double(x) __longlong_as_double((long long)(x))
/* ld.global.cs: evict first from L1 and L2, so a stream read once leaves them to reused data */
#define mg_load_once(p) __ldcs(p)

#else
#error "magnus_dialect.h: compile as OpenCL C or CUDA C++"
#endif

/* ---------------------------------- common ----------------------------------------------- */
#ifdef MG_VALUE_F64
typedef double mg_val;
#define mg_atomic_add_val_global mg_atomic_add_f64_global
#define mg_atomic_add_val_local mg_atomic_add_f64_local
#else
typedef float mg_val;
#define mg_atomic_add_val_global mg_atomic_add_f32_global
#define mg_atomic_add_val_local mg_atomic_add_f32_local
#endif

#define MG_MIN(a, b) ((a) < (b) ? (a) : (b))
#define MG_MAX(a, b) ((a) > (b) ? (a) : (b))
/* Unrolls the next loop of constant trip count (so its private arrays live in registers). */
#define MG_UNROLL _Pragma("unroll")

#endif /* MAGNUS_DIALECT_H */

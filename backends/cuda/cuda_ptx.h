/*
 * PTX text helpers of the CUDA backend (no CUDA types: testable without the driver).
 */
#ifndef MAGNUS_CUDA_PTX_H
#define MAGNUS_CUDA_PTX_H

/* The PTX ISA that CUDA 12.0 drivers JIT-compile. nvcc 13 marks its PTX ".version 9.0",
 * which 12.x drivers refuse, although the kernels use nothing newer than 8.0 (the test
 * test_cuda_ptx assembles the lowered PTX with ptxas to keep that true). */
#define MAGNUS_CUDA_PTX_ISA_12 "8.0"

/* A copy of `ptx` (allocated with magnus_host_malloc) whose ".version 9.Y" line says
 * MAGNUS_CUDA_PTX_ISA_12 instead, every other byte unchanged; NULL if `ptx` has no such line
 * (an older ISA needs no lowering, a newer one is beyond repair) or memory runs out. */
char *magnus_cuda_ptx_lower_version(const char *ptx);

#endif

/*
 * The oracle of the Matrix Market fuzzer (fuzz_mm_read.c) and of its corpus replay under ctest
 * (replay_mm_read.c): feeds one input to magnus_mm_read in every mode and checks what a
 * hostile file may and may not do.
 */
#ifndef MAGNUS_FUZZ_MM_READ_CHECK_H
#define MAGNUS_FUZZ_MM_READ_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* Largest single host allocation allowed while checking: a size line may ask for 2^31 rows,
 * which is a legitimate request (16 GiB of row pointers) but no use to a fuzzer; above this
 * the library must report MAGNUS_ERROR_OUT_OF_HOST_MEMORY cleanly instead. */
#define FUZZ_MM_ALLOC_LIMIT ((size_t)1 << 20)

/*
 * Reads `data` as a file four ways (as given and gzip-compressed, each as float32 and
 * float64) and checks:
 *   - success: a valid CSR of the requested type (magnus_csr_validate), progress reported
 *     from 0 to 1 within [0,1];
 *   - failure: *out stays NULL, the status is one a file can cause, and the detail message
 *     names the file;
 *   - float32 and float64 agree on the status and on the structure (row_ptr, col_idx);
 *   - the gzip-compressed input reads exactly as the plain one (status and every bit),
 *     unless the input is itself gzip;
 * allocation failures (from FUZZ_MM_ALLOC_LIMIT) excuse a disagreement.
 * Returns NULL when everything holds, else a description of the first violation (static
 * storage). Not thread-safe.
 */
const char *fuzz_mm_read_check(const uint8_t *data, size_t size);

#endif

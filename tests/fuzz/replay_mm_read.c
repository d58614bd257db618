/*
 * Replays the Matrix Market fuzz corpus (tests/fuzz/corpus/mm_read: seeds, crafted cases and
 * every input the fuzzer found interesting, minimised with -merge=1) through the fuzzer's own
 * oracle (mm_read_check.c), as an ordinary test built by any compiler, without libFuzzer.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm_read_check.h"

#ifndef MAGNUS_FUZZ_CORPUS_DIR
#error "MAGNUS_FUZZ_CORPUS_DIR must name the corpus directory"
#endif

static uint8_t *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *data = NULL;
    size_t cap = 0, len = 0, n;
    do {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *grown = realloc(data, cap);
            if (!grown) break;
            data = grown;
        }
        n = fread(data + len, 1, cap - len, f);
        len += n;
    } while (n > 0);
    fclose(f);
    *size = len;
    return data ? data : malloc(1);
}

Test(fuzz_mm_read, corpus_replays_cleanly) {
    DIR *dir = opendir(MAGNUS_FUZZ_CORPUS_DIR);
    cr_assert_not_null(dir, "cannot open %s", MAGNUS_FUZZ_CORPUS_DIR);
    int files = 0, failures = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", MAGNUS_FUZZ_CORPUS_DIR, e->d_name);
        size_t size = 0;
        uint8_t *data = slurp(path, &size);
        cr_assert_not_null(data, "cannot read %s", path);
        const char *violation = fuzz_mm_read_check(data, size);
        free(data);
        files++;
        if (violation) {
            failures++;
            cr_expect_null(violation, "%s: %s", e->d_name, violation);
        }
    }
    closedir(dir);
    /* The corpus is committed: an almost empty directory means it went missing. */
    cr_assert_geq(files, 50, "only %d corpus files in %s", files, MAGNUS_FUZZ_CORPUS_DIR);
    cr_log_info("replayed %d corpus files, %d failures", files, failures);
}

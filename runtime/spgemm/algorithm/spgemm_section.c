/* An algorithm's sections into the report (spgemm_section.h), field by field from the list,
 * and the memory peaks of its run, which the dispatcher reads from the context. */
#include "spgemm_section.h"

#include "device_runtime.h"

#include <string.h>

void magnus_spgemm_section_begin(magnus_spgemm_section *s, magnus_context ctx) {
    memset(s, 0, sizeof *s);
    s->run.local_mem_bytes = ctx->device.local_mem_bytes;
    s->phase_times = true;
    magnus_context_reset_peak(ctx);
}

#define COPY_FIELD(kind, name, merge, shown, section, meaning)                               \
    MAGNUS_SPGEMM_IN_SECTION_##section(                                                        \
        memcpy(&r->name, &MAGNUS_SPGEMM_SECTION_FIELD(s, section, name), sizeof r->name);)
void magnus_spgemm_section_end(magnus_report *r, const magnus_spgemm_section *s,
                               magnus_context ctx, magnus_algorithm ran) {
    MAGNUS_REPORT_FIELDS(COPY_FIELD)
    r->algorithm = ran;
    r->peak_device_bytes = ctx->memory_peak;
    r->reserved_device_bytes = ctx->memory_reserved_peak;
}
#undef COPY_FIELD

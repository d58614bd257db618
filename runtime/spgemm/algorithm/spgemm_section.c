/* An algorithm's sections into the report (spgemm_section.h), field by field from the list. */
#include "spgemm_section.h"

#include <string.h>

#define COPY_FIELD(kind, name, merge, shown, section, meaning)                               \
    MAGNUS_SPGEMM_IN_SECTION_##section(                                                        \
        memcpy(&r->name, &MAGNUS_SPGEMM_SECTION_FIELD(s, section, name), sizeof r->name);)
void magnus_spgemm_section_to_report(magnus_report *r, const magnus_spgemm_section *s,
                                     magnus_algorithm ran) {
    MAGNUS_REPORT_FIELDS(COPY_FIELD)
    r->algorithm = ran;
}
#undef COPY_FIELD

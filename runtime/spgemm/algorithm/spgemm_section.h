/*
 * What an algorithm may write of the report (issue 35): its sections, generated from the
 * report's list (include/magnus/magnus_report_fields.h, each field's `section`). RUN holds
 * what every algorithm fills (its phases' times, parameters, sizes), GMAGNUS what
 * gMAGNUS alone fills; the dispatcher's fields (DISPATCH: what ran and why, end-to-end and
 * transfer times, the memory peaks; AUTO: the choice) are in neither, so an algorithm cannot
 * write them. An algorithm fills a magnus_spgemm_section between the dispatcher's
 * magnus_spgemm_section_begin and magnus_spgemm_section_end, which copies it into the report.
 * The hash algorithm's functions take only the RUN part; gMAGNUS's take both.
 */
#ifndef MAGNUS_SPGEMM_SECTION_H
#define MAGNUS_SPGEMM_SECTION_H

#include <stdbool.h>

#include "magnus/magnus.h"

/* MAGNUS_SPGEMM_IN_<want>_<section>(x): x when a field of `section` belongs to `want`. */
#define MAGNUS_SPGEMM_IN_RUN_DISPATCH(x)
#define MAGNUS_SPGEMM_IN_RUN_AUTO(x)
#define MAGNUS_SPGEMM_IN_RUN_RUN(x) x
#define MAGNUS_SPGEMM_IN_RUN_GMAGNUS(x)
#define MAGNUS_SPGEMM_IN_GMAGNUS_DISPATCH(x)
#define MAGNUS_SPGEMM_IN_GMAGNUS_AUTO(x)
#define MAGNUS_SPGEMM_IN_GMAGNUS_RUN(x)
#define MAGNUS_SPGEMM_IN_GMAGNUS_GMAGNUS(x) x
/* Either algorithm section (what magnus_spgemm_section holds), and its member's name. */
#define MAGNUS_SPGEMM_IN_SECTION_DISPATCH(x)
#define MAGNUS_SPGEMM_IN_SECTION_AUTO(x)
#define MAGNUS_SPGEMM_IN_SECTION_RUN(x) x
#define MAGNUS_SPGEMM_IN_SECTION_GMAGNUS(x) x
#define MAGNUS_SPGEMM_SECTION_MEMBER_RUN run
#define MAGNUS_SPGEMM_SECTION_MEMBER_GMAGNUS gmagnus
/* The field `name` of `section` in the magnus_spgemm_section *p (an lvalue). */
#define MAGNUS_SPGEMM_SECTION_FIELD(p, section, name) \
    ((p)->MAGNUS_SPGEMM_SECTION_MEMBER_##section.name)

#define MAGNUS_SPGEMM_RUN_MEMBER(kind, name, merge, shown, section, meaning) \
    MAGNUS_SPGEMM_IN_RUN_##section(MAGNUS_REPORT_CTYPE_##kind name MAGNUS_REPORT_DIM_##kind;)
#define MAGNUS_SPGEMM_GMAGNUS_MEMBER(kind, name, merge, shown, section, meaning) \
    MAGNUS_SPGEMM_IN_GMAGNUS_##section(MAGNUS_REPORT_CTYPE_##kind name MAGNUS_REPORT_DIM_##kind;)

/* What every algorithm fills: the RUN fields, with the report's names and types. */
typedef struct magnus_report_run_section {
    MAGNUS_REPORT_FIELDS(MAGNUS_SPGEMM_RUN_MEMBER)
} magnus_report_run_section;

/* What gMAGNUS alone fills: the GMAGNUS fields. */
typedef struct magnus_report_gmagnus_section {
    MAGNUS_REPORT_FIELDS(MAGNUS_SPGEMM_GMAGNUS_MEMBER)
} magnus_report_gmagnus_section;

/* What an algorithm's run (or plan phase) hands back (magnus_spgemm_section_begin and _end). */
typedef struct magnus_spgemm_section {
    magnus_report_run_section run;
    magnus_report_gmagnus_section gmagnus;
    bool phase_times; /* time the phases with device timers (magnus_timer.off otherwise): the
                         caller asked for a report */
} magnus_spgemm_section;

/* Before an algorithm's run or plan phase, by whoever dispatches it: s zeroed, its
 * run.local_mem_bytes the device's (an algorithm that knows its budget overwrites it),
 * phase_times set (a dispatcher whose caller asked for no report clears it), and the
 * context's memory peaks counted from here (what the context holds already counts). */
void magnus_spgemm_section_begin(magnus_spgemm_section *s, magnus_context ctx);

/* After it, on failure too: every field of s into r, r->algorithm = ran, and the context's
 * peaks since begin into r's peak_device_bytes and reserved_device_bytes; r's other DISPATCH
 * and AUTO fields are left as they are. */
void magnus_spgemm_section_end(magnus_report *r, const magnus_spgemm_section *s,
                               magnus_context ctx, magnus_algorithm ran);

#endif

/*
 * The names and value types of a Matrix Market header's fields (magnus_mm_header, magnus.h),
 * apart from the reader (mm_read.c) so that a caller of these alone pulls in no parser.
 */
#include "magnus/magnus.h"

const char *magnus_mm_field_name(magnus_mm_field field) {
    switch (field) {
    case MAGNUS_MM_REAL: return "real";
    case MAGNUS_MM_INTEGER: return "integer";
    case MAGNUS_MM_PATTERN: return "pattern";
    }
    return "?";
}

const char *magnus_mm_symmetry_name(magnus_mm_symmetry symmetry) {
    switch (symmetry) {
    case MAGNUS_MM_GENERAL: return "general";
    case MAGNUS_MM_SYMMETRIC: return "symmetric";
    case MAGNUS_MM_SKEW_SYMMETRIC: return "skew-symmetric";
    }
    return "?";
}

magnus_value_type magnus_mm_field_type(magnus_mm_field field) {
    switch (field) {
    case MAGNUS_MM_REAL:
    case MAGNUS_MM_INTEGER: return MAGNUS_FLOAT64;
    case MAGNUS_MM_PATTERN: return MAGNUS_FLOAT32;
    }
    return (magnus_value_type)0;
}

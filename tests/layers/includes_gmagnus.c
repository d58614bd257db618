/* An algorithm's private header, from below. */
#include "gmagnus_internal.h"

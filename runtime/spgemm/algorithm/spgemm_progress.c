/*
 * The progress callback, as the dispatcher and the algorithms call it (spgemm_algorithm.h).
 */
#include "spgemm_algorithm.h"

magnus_status magnus_spgemm_progress_call(const magnus_spgemm_options *opt, double fraction,
                                          const char *what) {
    if (opt && opt->progress && !opt->progress(opt->progress_user, fraction, what))
        return magnus_error(MAGNUS_ERROR_CANCELLED, "SpGEMM cancelled by the progress callback "
                                                    "at \"%s\"",
                            what);
    return MAGNUS_SUCCESS;
}

/* Legal for an algorithm: the device runtime's API. */
#include "device_runtime.h"
magnus_status use(magnus_context ctx) { return magnus_context_finish(ctx); }

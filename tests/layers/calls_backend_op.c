/* Reaching a backend through the context: the table is an incomplete type above runtime/device. */
#include "device_runtime.h"
void drop(magnus_context ctx, magnus_bevent *e) { ctx->ops->event_destroy(e); }

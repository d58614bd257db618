/* The backend table: visible to runtime/device and backends/ only. */
#include "backend.h"
int ops_size(void) { return (int)sizeof(magnus_backend_ops); }

/* A layer below the accumulator reaching up. */
#include "hash_accumulate.h"

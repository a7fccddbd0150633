#include "CAllocator.h"

#include <stdlib.h>  // defines __GLIBC__ under glibc

#if defined(__GLIBC__)
#include <malloc.h>

int allocator_use_one_heap(int bytes) { return mallopt(M_ARENA_MAX, 1) == 1 && mallopt(M_TOP_PAD, bytes) == 1; }
#else
int allocator_use_one_heap(int bytes) {
    (void)bytes;
    return 0;
}
#endif

#ifndef C_ALLOCATOR_H
#define C_ALLOCATOR_H

/// Asks the C allocator to serve every thread from its one main heap, grown by at least `bytes` at a time
/// (glibc: M_ARENA_MAX 1, M_TOP_PAD `bytes`). Returns 1 when it took both settings, 0 otherwise (an
/// allocator without them, not glibc's, is left as it is).
int allocator_use_one_heap(int bytes);

#endif

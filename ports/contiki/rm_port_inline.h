/* Contiki-NG port: the measured calls, each one Contiki-NG library call
 * (port.h, "the port's inline calls"). Contiki-NG's block pool is memb
 * (os/lib/memb.c), its general allocator heapmem (os/lib/heapmem.c). */
#ifndef RM_PORT_INLINE_H
#define RM_PORT_INLINE_H

#include "contiki.h"
#include "lib/heapmem.h"
#include "lib/memb.h"

/* A pool is a memb: rm_pool_t points at its first member, so the call's
 * argument is the handle itself. */
struct rm_pool {
    struct memb memb;
};

static inline int rm_pool_alloc(rm_pool_t p, void **block)
{
    void *b = memb_alloc(&p->memb);
    *block = b;
    return b != NULL ? RM_OK : RM_EAGAIN;
}

/* memb_free returns the block's new reference count, -1 for a pointer not
 * from this pool. */
static inline int rm_pool_free(rm_pool_t p, void *block)
{
    return memb_free(&p->memb, block) == 0 ? RM_OK : RM_ERROR;
}

static inline int rm_heap_alloc(size_t size, void **mem)
{
    void *m = heapmem_alloc(size);
    *mem = m;
    return m != NULL ? RM_OK : RM_EAGAIN;
}

static inline int rm_heap_free(void *mem)
{
    return heapmem_free(mem) ? RM_OK : RM_ERROR;
}

#endif /* RM_PORT_INLINE_H */

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

/* Each measured call returns the library call's own result untranslated;
 * its _rc translator tests success first (port.h). */
#define RM_CT_OK(cond) __builtin_expect((cond), 1)

/* The block or memory pointer is the status, delivered to the caller by the
 * translator (NULL: none left). */
static inline rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    (void)block; /* delivered by the translator */
    void *b = memb_alloc(&p->memb);
    return (rm_raw_t)b;
}

static inline int rm_pool_alloc_rc(rm_raw_t raw, void **block)
{
    return rm_block_rc(raw, block);
}

/* memb_free returns the block's new reference count, -1 for a pointer not
 * from this pool. */
static inline rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    return memb_free(&p->memb, block);
}

static inline int rm_pool_free_rc(rm_raw_t raw)
{
    return RM_CT_OK(raw == 0) ? RM_OK : RM_ERROR;
}

static inline rm_raw_t rm_heap_alloc_raw(size_t size, void **mem)
{
    (void)mem; /* delivered by the translator */
    void *m = heapmem_alloc(size);
    return (rm_raw_t)m;
}

static inline int rm_heap_alloc_rc(rm_raw_t raw, void **mem)
{
    return rm_block_rc(raw, mem);
}

/* heapmem_free returns false for a pointer not from the heap. */
static inline rm_raw_t rm_heap_free_raw(void *mem)
{
    return heapmem_free(mem);
}

static inline int rm_heap_free_rc(rm_raw_t raw)
{
    return RM_CT_OK(raw != 0) ? RM_OK : RM_ERROR;
}

#endif /* RM_PORT_INLINE_H */

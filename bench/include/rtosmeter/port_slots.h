/* Slot tables and a bump arena: the records a port keeps for the threads,
 * objects and pools it creates, and the static memory it carves pools from.
 * Set-up paths only (create, delete): nothing here is ever inside a measured
 * interval.
 *
 * A port includes this header from its port.c (never from rm_port_inline.h)
 * after defining its critical section, the one hook:
 *     RM_SLOTS_LOCK()    enter (may declare what it needs, e.g. CPU_SR_ALLOC())
 *     RM_SLOTS_UNLOCK()  leave
 * A table is an array of records, each with a `uint8_t used` member (0: free;
 * a port frees a record by storing 0 there). */
#ifndef RTOSMETER_PORT_SLOTS_H
#define RTOSMETER_PORT_SLOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if !defined(RM_SLOTS_LOCK) || !defined(RM_SLOTS_UNLOCK)
#error "rtosmeter/port_slots.h: define RM_SLOTS_LOCK() and RM_SLOTS_UNLOCK() (the port's critical section) before including it"
#endif

/* Claim the first free flag among flags[from * stride] .. flags[(to - 1) *
 * stride]: its index, or `to` when all are taken. */
static inline unsigned rm_slot_claim(void *flags, size_t stride, unsigned from, unsigned to)
{
    uint8_t *used = flags;
    RM_SLOTS_LOCK();
    unsigned i = from;
    while (i < to && used[i * stride] != 0u)
        i++;
    if (i < to)
        used[i * stride] = 1u;
    RM_SLOTS_UNLOCK();
    return i;
}

/* The number of records of a table (an array, not a pointer). */
#define RM_SLOT_COUNT(table) (sizeof(table) / sizeof (table)[0])

/* Claim a free record among table[from] .. table[to - 1]: its index, or `to`. */
#define RM_SLOT_CLAIM(table, from, to)                                           \
    rm_slot_claim((uint8_t *)(table) + offsetof(__typeof__((table)[0]), used),     \
                  sizeof (table)[0], (from), (to))

/* Free lists: records handed out and taken back in O(1), for a port whose
 * measured call claims a record (rm_thread_create, rm_thread_delete under
 * lat.thread.lifecycle: a scan of a slot table would be measured with
 * them). A record has a `struct <record> *next_free` member; `head` is the
 * list, a pointer to the record type. POP and PUSH go inside the port's
 * RM_SLOTS_LOCK()/RM_SLOTS_UNLOCK(), with whatever else the port resets. */
/* Every record of table[0] .. table[count - 1], handed out in index order. */
#define RM_FREE_LIST_INIT(head, table, count)                                    \
    for (unsigned rm_fl_i_ = (count); rm_fl_i_-- > 0u;) {                       \
        (table)[rm_fl_i_].next_free = (head);                                    \
        (head) = &(table)[rm_fl_i_];                                             \
    }
/* The first record off the list into `rec`: NULL when none is left. */
#define RM_FREE_LIST_POP(head, rec)                                              \
    do {                                                                         \
        (rec) = (head);                                                          \
        if ((rec) != NULL)                                                       \
            (head) = (rec)->next_free;                                           \
    } while (0)
/* `rec` back on the list, first (the next one POP hands out). */
#define RM_FREE_LIST_PUSH(head, rec)                                             \
    do {                                                                         \
        (rec)->next_free = (head);                                               \
        (head) = (rec);                                                          \
    } while (0)

/* A bump arena: static memory that pools are carved from and never given
 * back (pools live as long as the firmware, port.h). */
struct rm_arena {
    uint8_t *base;
    size_t size;
    size_t used;
};

/* Define `static struct rm_arena name` over `bytes` of 8-byte aligned memory. */
#define RM_ARENA(name, bytes)                                                    \
    static uint8_t name##_mem_[(bytes)] __attribute__((aligned(8)));             \
    static struct rm_arena name = {name##_mem_, sizeof name##_mem_, 0u}

/* Take `bytes` (rounded up to 8, so every piece stays 8-byte aligned) from
 * the arena: the piece, or NULL when there is no room left. */
static inline void *rm_arena_take(struct rm_arena *a, size_t bytes)
{
    bytes = (bytes + 7u) & ~(size_t)7u;
    RM_SLOTS_LOCK();
    size_t at = a->used;
    bool room = bytes <= a->size - at;
    if (room)
        a->used = at + bytes;
    RM_SLOTS_UNLOCK();
    return room ? a->base + at : NULL;
}

#endif /* RTOSMETER_PORT_SLOTS_H */

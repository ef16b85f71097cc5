/* Weak defaults for every call of port.h (and the optional calls of
 * target.h): a port implements what its RTOS offers and links; everything
 * else returns RM_ENOTSUP here. The port's
 * port.toml capabilities tell the runner in advance which cases can run, so
 * these defaults are only reached by a capability declared by mistake (the
 * case then fails with "FATAL: <call> failed (-2)"). A call the port defines
 * inline (rm_port_inline.h) never reaches its default here: this file alone
 * is built without the port's inline header, so the two cannot clash.
 */
#define RM_NO_PORT_INLINE 1
#include "rtosmeter/bench.h"

#define RM_WEAK __attribute__((weak))

/* Every default that fails returns through this one function: a tail call
 * is 4 bytes of Flash where `return RM_ENOTSUP` takes 8 (the framework's
 * own Flash is counted: scripts/bench_footprint.py). */
__attribute__((noinline)) static int enotsup(void)
{
    return RM_ENOTSUP;
}

RM_WEAK int rm_thread_create(rm_thread_t *t, const char *name, rm_entry_t entry,
                             void *arg, int prio, unsigned flags)
{
    (void)t, (void)name, (void)entry, (void)arg, (void)prio, (void)flags;
    return enotsup();
}
RM_WEAK int rm_thread_delete(rm_thread_t t) { (void)t; return enotsup(); }
RM_WEAK rm_raw_t rm_thread_suspend_raw(rm_thread_t t) { (void)t; return enotsup(); }
RM_WEAK int rm_thread_suspend_rc(rm_raw_t raw) { return (int)raw; }
RM_WEAK rm_raw_t rm_thread_resume_raw(rm_thread_t t) { (void)t; return enotsup(); }
RM_WEAK int rm_thread_resume_rc(rm_raw_t raw) { return (int)raw; }
RM_WEAK rm_raw_t rm_thread_yield_raw(void) { return enotsup(); }
RM_WEAK int rm_thread_yield_rc(rm_raw_t raw) { return (int)raw; }
RM_WEAK int rm_thread_sleep(uint32_t ticks) { (void)ticks; return enotsup(); }
RM_WEAK int rm_thread_sleep_until(uint32_t *wake, uint32_t period)
{
    (void)wake, (void)period;
    return enotsup();
}
RM_WEAK rm_thread_t rm_thread_self(void) { return NULL; }
RM_WEAK int rm_thread_priority(rm_thread_t t) { (void)t; return enotsup(); }
RM_WEAK int rm_thread_set_priority(rm_thread_t t, int prio)
{
    (void)t, (void)prio;
    return enotsup();
}
RM_WEAK uint32_t rm_tick_count(void) { return 0u; }
RM_WEAK uint32_t rm_tick_hz(void) { return 0u; } /* 0: no kernel tick */

RM_WEAK int rm_obj_create(rm_obj_t *o, rm_obj_kind_t kind, rm_thread_t owner,
                          uint32_t initial)
{
    (void)o, (void)kind, (void)owner, (void)initial;
    return enotsup();
}
RM_WEAK int rm_obj_delete(rm_obj_t o) { (void)o; return enotsup(); }
/* The typed signal/wait pair of every kind (port.h's RM_KINDS). A default
 * translator passes the status through: the default calls' RM_ENOTSUP, or
 * the RM code of a port's out-of-line call (port.h). */
#define RM_KIND_DEFAULTS_(K, k)                                                  \
    RM_WEAK rm_raw_t rm_##k##_signal_raw(rm_obj_t o, const rm_msg_t *msg)       \
    {                                                                            \
        (void)o, (void)msg;                                                      \
        return enotsup();                                                        \
    }                                                                            \
    RM_WEAK int rm_##k##_signal_rc(rm_raw_t raw) { return (int)raw; }           \
    RM_WEAK rm_raw_t rm_##k##_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout) \
    {                                                                            \
        (void)o, (void)msg, (void)timeout;                                       \
        return enotsup();                                                        \
    }                                                                            \
    RM_WEAK int rm_##k##_wait_rc(rm_raw_t raw, uint32_t timeout)                \
    {                                                                            \
        (void)timeout;                                                           \
        return (int)raw;                                                         \
    }
RM_KINDS(RM_KIND_DEFAULTS_)
#undef RM_KIND_DEFAULTS_

RM_WEAK int rm_pool_create(rm_pool_t *p, uint32_t block_size, uint32_t count)
{
    (void)p, (void)block_size, (void)count;
    return enotsup();
}
RM_WEAK rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    (void)p, (void)block;
    return enotsup();
}
RM_WEAK int rm_pool_alloc_rc(rm_raw_t raw, void **block)
{
    (void)block;
    return (int)raw;
}
RM_WEAK rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    (void)p, (void)block;
    return enotsup();
}
RM_WEAK int rm_pool_free_rc(rm_raw_t raw) { return (int)raw; }
RM_WEAK rm_raw_t rm_heap_alloc_raw(size_t size, void **mem)
{
    (void)size, (void)mem;
    return enotsup();
}
RM_WEAK int rm_heap_alloc_rc(rm_raw_t raw, void **mem)
{
    (void)mem;
    return (int)raw;
}
RM_WEAK rm_raw_t rm_heap_free_raw(void *mem) { (void)mem; return enotsup(); }
RM_WEAK int rm_heap_free_rc(rm_raw_t raw) { return (int)raw; }

/* Interrupts: by default the target's vector table holds the handler. */
RM_WEAK int rm_port_irq_connect(rm_isr_t isr)
{
    rm_target_irq_set_vector(isr);
    return RM_OK;
}
RM_WEAK int rm_isr_resume(rm_thread_t t) { (void)t; return enotsup(); }
RM_WEAK int rm_isr_sem_signal(rm_obj_t o) { (void)o; return enotsup(); }

RM_WEAK void rm_port_describe(void) {}

/* Run-time capabilities: by default, what port.toml declares. */
RM_WEAK uint32_t rm_port_caps(void) { return (uint32_t)(RM_PORT_CAPS); }
RM_WEAK const char *rm_port_caps_note(void) { return NULL; }

/* Every case runs its shared body. */
RM_WEAK rm_port_body_t rm_port_case_body(const char *id)
{
    (void)id;
    return NULL;
}

/* The record lock: nothing to do where no benchmark thread can be switched
 * in the middle of a record (see port.h for when a port needs one). */
RM_WEAK void rm_port_sched_lock(void) {}
RM_WEAK void rm_port_sched_unlock(void) {}

/* ---- optional target calls (target.h) ------------------------------------ */
/* A target without a spare timer has no periodic interrupt: the cases that
 * need one (irq.max_rate, tm.basic without threads) report unsupported. */
RM_WEAK int rm_target_periodic_start(uint32_t period_ticks, rm_periodic_fn_t fn)
{
    (void)period_ticks, (void)fn;
    return enotsup();
}
RM_WEAK void rm_target_periodic_stop(void) {}
RM_WEAK int rm_target_load_timer_start(uint32_t hz, rm_periodic_fn_t fn)
{
    (void)hz, (void)fn;
    return enotsup();
}
RM_WEAK void rm_target_load_timer_stop(void) {}
/* No clock of the target's own time beside the timestamp: under a cycle
 * counter the cases that count a timer's expiries stay unsupported. */
RM_WEAK uint32_t rm_target_vtime(void) { return 0u; }
RM_WEAK uint32_t rm_target_vtime_hz(void) { return 0u; }
/* A target that cannot read its clocks reports none: the harness then takes
 * HELLO hz, the build's copy of target.toml's [counter] hz. */
RM_WEAK uint32_t rm_target_ts_hz(void) { return 0u; }
RM_WEAK uint32_t rm_target_cpu_hz(void) { return 0u; }

#ifdef RM_LOAD_NET
#include "rtosmeter/net.h"
/* A stack without counters of its own: load.c's counts are the check. */
RM_WEAK bool rm_port_net_agrees(const rm_net_counts_t *delta)
{
    (void)delta;
    return true;
}
#endif

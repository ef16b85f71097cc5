/* Contiki-NG port: the porting layer on Contiki-NG's processes, built by
 * Contiki-NG's own make (app/Makefile).
 *
 * Design decisions:
 * - No threads. Contiki-NG's main() (os/contiki-main.c) initialises the
 *   system and starts the autostart process rm_runner, whose first
 *   activation calls rm_target_init() and rm_runner_main(NULL), which never
 *   returns (the runner ends the program with rm_target_exit). So the runner
 *   runs inside a process, on the main stack, and only cases that need no
 *   thread run with their shared bodies (lat.pool, lat.heap, calibration).
 * - The runner's rm_thread_sleep(n) is the scheduler loop of a Contiki-NG
 *   platform: process_run() (one event plus the pending polls) until n clock
 *   ticks have passed, polling the etimer process when a timer is due (what
 *   the platform's main loop does between two process_run() calls). So the
 *   Thread-Metric reporter (rm_tm_report) works unchanged: its sleep runs
 *   the case's processes, and it reads the clock once per process_run(),
 *   the counterpart of an RTOS's tick interrupt.
 * - Thread-Metric tests run as processes handing control to each other
 *   (tm_processes.c, through rm_port_case_body); what is adapted is emitted
 *   as stand_in.<case id> and shown (†) at every number.
 * - Ticks: clock_time() at CLOCK_SECOND (1000 Hz: native, and SysTick on
 *   the MPS2 platform, targets/mps2/native/contiki/rm-mps2).
 * - Pools: memb (MEMB sizes are compile-time: RM_POOLS pools of up to
 *   RM_POOL_BLOCKS blocks of RM_BLOCK_SIZE bytes). Heap: heapmem, whose
 *   arena size project-conf.h sets.
 * - Idle: the runner's sleep loop spins (no WFI), except in lowpower
 *   (RM_IDLE_KERNEL): when process_run() finds nothing left to run and no
 *   etimer is due, the loop calls the platform's platform_idle() (WFI on
 *   MPS2), as Contiki-NG's own main loop does. The clock ticks at 1 kHz
 *   (Contiki-NG has no tickless clock), so it wakes every tick.
 */
#include <stdbool.h>
#include <stddef.h>

#include "contiki.h"
#include "sys/platform.h"
#include "rtosmeter/bench.h"
#include "tm_processes.h"

/* ---- entry --------------------------------------------------------------- */
PROCESS(rm_runner_process, "rtosmeter runner");
AUTOSTART_PROCESSES(&rm_runner_process);

PROCESS_THREAD(rm_runner_process, ev, data)
{
    (void)ev;
    (void)data;
    PROCESS_BEGIN();
    rm_target_init();
    rm_runner_main(NULL); /* never returns */
    PROCESS_END();
}

/* ---- time ------------------------------------------------------------------ */
uint32_t rm_tick_count(void)
{
    return (uint32_t)clock_time();
}

uint32_t rm_tick_hz(void)
{
    return (uint32_t)CLOCK_SECOND;
}

/* The platform's scheduler loop, for `ticks` clock ticks (see the top). */
int rm_thread_sleep(uint32_t ticks)
{
    struct process *runner = process_current;
    clock_time_t start = clock_time(), now;
    while ((now = clock_time()) - start < (clock_time_t)ticks) {
#ifdef RM_IDLE_KERNEL
        int pending = process_run();
#else
        (void)process_run();
#endif
        if (etimer_pending() && !CLOCK_LT(now, etimer_next_expiration_time())) {
            etimer_request_poll();
        }
#ifdef RM_IDLE_KERNEL
        else if (pending == 0 && clock_time() - start < (clock_time_t)ticks) {
            platform_idle(); /* nothing to run: sleep until the next interrupt */
        }
#endif
    }
    process_current = runner; /* process_run() leaves the last one it called */
    return RM_OK;
}

/* ---- pools ------------------------------------------------------------------ */
#define RM_POOLS 2u
#define RM_POOL_BLOCKS 8u

static bool pool_used[RM_POOLS][RM_POOL_BLOCKS];
static struct {
    _Alignas(max_align_t) uint8_t block[RM_POOL_BLOCKS][RM_BLOCK_SIZE];
} pool_mem[RM_POOLS];
static struct rm_pool pools[RM_POOLS];
static unsigned pools_made;

int rm_pool_create(rm_pool_t *p, uint32_t block_size, uint32_t count)
{
    if (block_size > RM_BLOCK_SIZE || count == 0u || count > RM_POOL_BLOCKS ||
        pools_made == RM_POOLS) {
        return RM_ENOTSUP;
    }
    struct rm_pool *pool = &pools[pools_made];
    pool->memb = (struct memb){(unsigned short)RM_BLOCK_SIZE, (unsigned short)count,
                               pool_used[pools_made], &pool_mem[pools_made]};
    pools_made++;
    memb_init(&pool->memb);
    *p = pool;
    return RM_OK;
}

/* ---- description ---------------------------------------------------------- */
void rm_port_describe(void)
{
    rm_emit_cfg("kernel", "Contiki-NG processes (stackless protothreads), cooperative");
    rm_emit_cfg("threads", "none: the runner runs in process rm_runner and runs "
                           "process_run() while it sleeps");
    rm_emit_cfg("tick", "clock_time() at CLOCK_SECOND");
    rm_emit_cfg("pool", "memb");
    rm_emit_cfg_u32("heap_arena_bytes", (uint32_t)(HEAPMEM_CONF_ARENA_SIZE));
    rm_emit_cfg("heap", "heapmem");
#ifdef RM_IDLE_KERNEL
    rm_emit_cfg("idle", "platform_idle() (WFI) when process_run() has nothing left");
#else
    rm_emit_cfg("idle", "none (the runner's sleep loop spins)");
#endif
    rm_tm_processes_describe();
}

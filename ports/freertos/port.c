/* FreeRTOS port of the rtosmeter porting layer (bench/include/rtosmeter/port.h):
 * each call is one native FreeRTOS call, on Cortex-M (GCC_ARM_CM0/CM3/CM4F) and on
 * the host (GCC_POSIX, FreeRTOS tasks as pthreads driven by signals).
 *
 * Design decisions
 * - Priorities: RM_PRIO n (1..30, runner 31) is FreeRTOS priority n;
 *   configMAX_PRIORITIES = 32, the idle task alone at 0. No timer task.
 * - Threads: xTaskCreate (heap_4) with RM_FREERTOS_STACK_WORDS of stack (the
 *   runner RM_FREERTOS_RUNNER_STACK_WORDS; both small on the Cortex-M0). A
 *   small port record (entry, argument, handle) from a static free list lets
 *   an entry function return (the trampoline then calls vTaskDelete(NULL))
 *   and rm_thread_self() read the record from thread-local storage slot 0.
 *   RM_THREAD_SUSPENDED: xTaskCreate + vTaskSuspend with the scheduler
 *   suspended, so the task never runs before it is resumed.
 * - yield = taskYIELD, sleep = vTaskDelay, sleep_until = xTaskDelayUntil,
 *   priority = uxTaskPriorityGet (the inherited one) / vTaskPrioritySet.
 * - Objects: SEM counting semaphore; MUTEX xSemaphoreCreateMutex (priority
 *   inheritance); EVENT event group, bit 0; QUEUE queue of 16-byte items,
 *   RM_QUEUE_DEPTH deep; LIFO the same queue written with xQueueSendToFront
 *   (FreeRTOS's native call to put an item at the head: receive then returns
 *   the newest); STREAM stream buffer of RM_QUEUE_DEPTH x 16 bytes, trigger
 *   level 16 (every write and read is 16 bytes, so no message is split);
 *   MSGBUF message buffer for RM_QUEUE_DEPTH messages; NOTIFY task
 *   notification index 0 used as a counting semaphore (xTaskNotifyGive /
 *   ulTaskNotifyTake); THREAD_FLAGS task notification index 1 used as flags
 *   (xTaskNotifyIndexed eSetBits / xTaskNotifyWaitIndexed).
 *   Not offered (port.toml says why): MAILBOX, FIFO, CONDVAR, THREAD_MSG,
 *   POLL_SIGNAL.
 * - Pool: FreeRTOS has no fixed-block pool. Stand-in: a queue of free block
 *   pointers over one heap_4 area; alloc = xQueueReceive, free = xQueueSend
 *   (the idiom FreeRTOS users write, thread- and interrupt-safe; recorded as
 *   CFG stand_in.POOL, which every report shows beside tm.memory and
 *   lat.pool). Not heap_4's pvPortMalloc (that is lat.heap), and not the
 *   unsynchronised free list of some published Thread-Metric ports, which
 *   involves no kernel at all.
 * - Heap: heap_4, pvPortMalloc / vPortFree.
 * - Measured calls: static inline in rm_port_inline.h (one FreeRTOS call
 *   each). Interrupts: the case's handler is the vector; rm_isr_resume and
 *   rm_isr_sem_signal call the FromISR variant and portYIELD_FROM_ISR.
 * - Start-up: main creates only the runner thread; nothing is suspended or
 *   resumed before the scheduler runs.
 * - Result stream: each record is written with the scheduler suspended
 *   (rm_port_sched_lock = vTaskSuspendAll), so time slicing cannot
 *   interleave two tasks' records.
 */
#include "rtosmeter/bench.h" /* with rm_port_inline.h: FreeRTOS's headers */

/* The thread free list's critical section (rtosmeter/port_slots.h). */
#define RM_SLOTS_LOCK() taskENTER_CRITICAL()
#define RM_SLOTS_UNLOCK() taskEXIT_CRITICAL()
#include "rtosmeter/port_slots.h"

#ifndef RM_FREERTOS_PORT_NAME
#define RM_FREERTOS_PORT_NAME "unknown"
#endif
#ifndef RM_FREERTOS_OPT_FLAGS
#define RM_FREERTOS_OPT_FLAGS ""
#endif

#if defined(RM_RAM_SMALL)
#define RM_MAX_THREADS 24u /* 16 KiB of RAM: as many as the heap can hold */
#else
#define RM_MAX_THREADS 64u
#endif

/* ---- threads (struct rm_thread: rm_port_inline.h) -------------------- */
/* A free list, not a slot table: rm_thread_create and rm_thread_delete are
 * measured (lat.thread.lifecycle), and a record costs O(1) either way. */
static struct rm_thread thread_slots[RM_MAX_THREADS];
static struct rm_thread *thread_free_list;

static void thread_slots_init(void)
{
    /* The last record first, as this port always handed them out: the
     * start-up's instructions are part of the whole execution's idle
     * figures, which a reordered loop would change. */
    for (uint32_t i = 0; i < RM_MAX_THREADS; i++)
        RM_FREE_LIST_PUSH(thread_free_list, &thread_slots[i]);
}

static struct rm_thread *thread_alloc(void)
{
    struct rm_thread *t;
    RM_SLOTS_LOCK();
    RM_FREE_LIST_POP(thread_free_list, t);
    RM_SLOTS_UNLOCK();
    return t;
}

static void thread_release(struct rm_thread *t)
{
    RM_SLOTS_LOCK();
    t->task = NULL;
    RM_FREE_LIST_PUSH(thread_free_list, t);
    RM_SLOTS_UNLOCK();
}

static void thread_trampoline(void *param)
{
    struct rm_thread *t = param;
    vTaskSetThreadLocalStoragePointer(NULL, 0, t);
    t->entry(t->arg);
    /* The entry returned: end the thread the FreeRTOS way (a task function
     * must not return). The record is free before the task is gone. */
    thread_release(t);
    vTaskDelete(NULL);
}

int rm_thread_create(rm_thread_t *out, const char *name, rm_entry_t entry,
                     void *arg, int prio, unsigned flags)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER || entry == NULL)
        return RM_ERROR;
    struct rm_thread *t = thread_alloc();
    if (t == NULL)
        return RM_ERROR;
    t->entry = entry;
    t->arg = arg;
    *out = t; /* before the task can run and look at it */
    bool suspended = (flags & RM_THREAD_SUSPENDED) != 0u;
    if (suspended)
        vTaskSuspendAll();
    uint32_t words = entry == rm_runner_main ? RM_FREERTOS_RUNNER_STACK_WORDS
                                             : RM_FREERTOS_STACK_WORDS;
    BaseType_t ok = xTaskCreate(thread_trampoline, name, (configSTACK_DEPTH_TYPE)words,
                                t, (UBaseType_t)prio, &t->task);
    if (ok == pdPASS && suspended)
        vTaskSuspend(t->task);
    if (suspended)
        (void)xTaskResumeAll();
    if (ok != pdPASS) {
        *out = NULL;
        thread_release(t);
        return RM_ERROR;
    }
    return RM_OK;
}

int rm_thread_delete(rm_thread_t t)
{
    if (t == NULL || t->task == NULL || t->task == xTaskGetCurrentTaskHandle())
        return RM_ERROR;
    vTaskDelete(t->task);
    thread_release(t);
    return RM_OK;
}

int rm_thread_sleep(uint32_t ticks)
{
    vTaskDelay((TickType_t)ticks);
    return RM_OK;
}

int rm_thread_sleep_until(uint32_t *wake, uint32_t period)
{
    TickType_t w = (TickType_t)*wake;
#if INCLUDE_xTaskDelayUntil
    (void)xTaskDelayUntil(&w, (TickType_t)period);
#else
    vTaskDelayUntil(&w, (TickType_t)period);
#endif
    *wake = (uint32_t)w;
    return RM_OK;
}

rm_thread_t rm_thread_self(void)
{
    return pvTaskGetThreadLocalStoragePointer(NULL, 0);
}

int rm_thread_priority(rm_thread_t t)
{
    return (int)uxTaskPriorityGet(t->task);
}

int rm_thread_set_priority(rm_thread_t t, int prio)
{
    if (prio < RM_PRIO_MIN || prio > RM_PRIO_RUNNER)
        return RM_ERROR;
    vTaskPrioritySet(t->task, (UBaseType_t)prio);
    return RM_OK;
}

uint32_t rm_tick_count(void)
{
    return (uint32_t)xTaskGetTickCount();
}

uint32_t rm_tick_hz(void)
{
    return configTICK_RATE_HZ;
}

/* ---- IPC objects (struct rm_obj and the calls: rm_port_inline.h) ----- */
#define RM_SEM_MAX 0x7FFFFFFFu
#define RM_MSGBUF_BYTES (RM_QUEUE_DEPTH * (RM_MSG_SIZE + sizeof(configMESSAGE_BUFFER_LENGTH_TYPE)))

int rm_obj_create(rm_obj_t *out, rm_obj_kind_t kind, rm_thread_t owner,
                  uint32_t initial)
{
    struct rm_obj *o = pvPortMalloc(sizeof *o);
    if (o == NULL)
        return RM_ERROR;
    o->kind = kind;
    void *h = NULL;
    switch (kind) {
    case RM_OBJ_SEM:
        h = o->h.sem = xSemaphoreCreateCounting(RM_SEM_MAX, initial);
        break;
    case RM_OBJ_MUTEX:
        h = o->h.sem = xSemaphoreCreateMutex();
        break;
    case RM_OBJ_EVENT:
        h = o->h.events = xEventGroupCreate();
        if (h != NULL && initial != 0u)
            (void)xEventGroupSetBits(o->h.events, 1u);
        break;
    case RM_OBJ_QUEUE:
    case RM_OBJ_LIFO:
        h = o->h.queue = xQueueCreate(RM_QUEUE_DEPTH, RM_MSG_SIZE);
        break;
#if RM_FR_HAS_STREAM
    case RM_OBJ_STREAM:
        h = o->h.stream = xStreamBufferCreate(RM_QUEUE_DEPTH * RM_MSG_SIZE, RM_MSG_SIZE);
        break;
    case RM_OBJ_MSGBUF:
        h = o->h.msgbuf = xMessageBufferCreate(RM_MSGBUF_BYTES);
        break;
#endif
#if !RM_FR_HAS_INDEXED_NOTIFY
    case RM_OBJ_NOTIFY: /* the task's one notification */
        if (owner == NULL || owner->task == NULL)
            break;
        h = o->h.owner = owner->task;
        (void)xTaskNotify(o->h.owner, 0u, eSetValueWithOverwrite);
        (void)xTaskNotifyStateClear(o->h.owner);
        for (uint32_t i = 0; i < initial; i++)
            (void)xTaskNotifyGive(o->h.owner);
        break;
#else
    case RM_OBJ_NOTIFY:
    case RM_OBJ_THREAD_FLAGS:
        if (owner == NULL || owner->task == NULL)
            break;
        h = o->h.owner = owner->task;
        /* Start from a clean slate: nothing left over from an earlier case. */
        {
            UBaseType_t idx = kind == RM_OBJ_NOTIFY ? RM_NOTIFY_INDEX : RM_FLAGS_INDEX;
            (void)xTaskNotifyStateClearIndexed(o->h.owner, idx);
            (void)ulTaskNotifyValueClearIndexed(o->h.owner, idx, 0xFFFFFFFFu);
            for (uint32_t i = 0; i < initial; i++)
                (void)xTaskNotifyIndexed(o->h.owner, idx, kind == RM_OBJ_NOTIFY ? 0u : 1u,
                                         kind == RM_OBJ_NOTIFY ? eIncrement : eSetBits);
        }
        break;
#endif
    default:
        vPortFree(o);
        return RM_ENOTSUP;
    }
    if (h == NULL) {
        vPortFree(o);
        return RM_ERROR;
    }
    *out = o;
    return RM_OK;
}

int rm_obj_delete(rm_obj_t o)
{
    switch (o->kind) {
    case RM_OBJ_SEM:
    case RM_OBJ_MUTEX:
        vSemaphoreDelete(o->h.sem);
        break;
    case RM_OBJ_EVENT:
        vEventGroupDelete(o->h.events);
        break;
    case RM_OBJ_QUEUE:
    case RM_OBJ_LIFO:
        vQueueDelete(o->h.queue);
        break;
#if RM_FR_HAS_STREAM
    case RM_OBJ_STREAM:
        vStreamBufferDelete(o->h.stream);
        break;
    case RM_OBJ_MSGBUF:
        vMessageBufferDelete(o->h.msgbuf);
        break;
#endif
    default: /* NOTIFY, THREAD_FLAGS: state lives in the task */
        break;
    }
    vPortFree(o);
    return RM_OK;
}

/* ---- memory (alloc/free: rm_port_inline.h) ----------------------------- */
int rm_pool_create(rm_pool_t *out, uint32_t block_size, uint32_t count)
{
    struct rm_pool *p = pvPortMalloc(sizeof *p);
    uint8_t *area = pvPortMalloc((size_t)block_size * count);
    QueueHandle_t q = xQueueCreate(count, sizeof(void *));
    if (p == NULL || area == NULL || q == NULL) {
        vPortFree(p);
        vPortFree(area);
        if (q != NULL)
            vQueueDelete(q);
        return RM_ERROR;
    }
    for (uint32_t i = 0; i < count; i++) {
        void *block = area + (size_t)i * block_size;
        (void)xQueueSend(q, &block, 0);
    }
    p->free_blocks = q;
    *out = p;
    return RM_OK;
}

/* ---- checks of the vendor profile --------------------------------------- */
static void report_check_failure(const char *what, const char *where, int line)
{
    char buf[160];
    size_t n = 0;
    const char *parts[] = {"\nFreeRTOS ", what, " failed: ", where};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        for (const char *s = parts[i]; *s != '\0' && n < sizeof buf - 16u; s++)
            buf[n++] = *s;
    if (line >= 0) {
        char digits[12];
        size_t d = 0;
        unsigned v = (unsigned)line;
        do {
            digits[d++] = (char)('0' + v % 10u);
            v /= 10u;
        } while (v != 0u);
        buf[n++] = ':';
        while (d > 0u)
            buf[n++] = digits[--d];
    }
    buf[n++] = '\n';
    rm_target_write(buf, n); /* console noise the harness keeps */
    rm_fault_t f = {.pc = (uint32_t)(uintptr_t)__builtin_return_address(0)};
    rm_report_fault(&f);
}

void rm_freertos_assert_failed(const char *file, int line);
void rm_freertos_assert_failed(const char *file, int line)
{
    taskDISABLE_INTERRUPTS();
    report_check_failure("configASSERT", file, line);
}

#if configCHECK_FOR_STACK_OVERFLOW > 0
void vApplicationStackOverflowHook(TaskHandle_t task, char *name)
{
    (void)task;
    taskDISABLE_INTERRUPTS();
    report_check_failure("stack overflow check", name, -1);
}
#endif

/* ---- start-up and description ------------------------------------------ */
int main(void)
{
    rm_target_init();
    thread_slots_init();
    rm_thread_t runner;
    if (rm_thread_create(&runner, "runner", rm_runner_main, NULL, RM_PRIO_RUNNER, 0) != RM_OK) {
        static const char msg[] = "FATAL: xTaskCreate(runner) failed\n";
        rm_target_write(msg, sizeof msg - 1u);
        rm_target_exit(1);
    }
    vTaskStartScheduler();
    /* Only reached when the idle task could not be created. */
    static const char msg[] = "FATAL: vTaskStartScheduler returned\n";
    rm_target_write(msg, sizeof msg - 1u);
    rm_target_exit(1);
}

/* ---- the result stream ---------------------------------------------------- */
/* The core writes each record between these calls (port.h). With time
 * slicing on (vendor profile) two equal-priority tasks both write records
 * (lat.yield) and a tick could switch tasks mid-record: suspending the
 * scheduler defers every switch until the record is out; interrupts still
 * run. vTaskSuspendAll nests, and the record writer never blocks. */
void rm_port_sched_lock(void)
{
    vTaskSuspendAll();
}

void rm_port_sched_unlock(void)
{
    (void)xTaskResumeAll();
}

/* ---- what this kernel version offers ----------------------------------- */
/* port.toml declares what the newest kernel has; an older tree lacks some
 * (rm_port_inline.h: RM_FR_HAS_*), and the cases that need it are reported
 * unsupported with the version named. */
uint32_t rm_port_caps(void)
{
    uint32_t caps = (uint32_t)(RM_PORT_CAPS);
#if !RM_FR_HAS_STREAM
    caps &= ~(RM_CAP_STREAM | RM_CAP_MSGBUF);
#endif
#if !RM_FR_HAS_INDEXED_NOTIFY
    caps &= ~RM_CAP_THREAD_FLAGS;
#endif
    return caps;
}

const char *rm_port_caps_note(void)
{
#if !RM_FR_HAS_STREAM
    return "FreeRTOS " tskKERNEL_VERSION_NUMBER " has no stream or message buffers (V10.0.0) "
           "and one task notification per task (indexed notifications, V10.4.0; THREAD_FLAGS "
           "needs a second one beside NOTIFY's)";
#elif !RM_FR_HAS_INDEXED_NOTIFY
    return "FreeRTOS " tskKERNEL_VERSION_NUMBER " has one task notification per task (indexed "
           "notifications came with V10.4.0; THREAD_FLAGS needs a second one beside NOTIFY's)";
#else
    return NULL;
#endif
}

#define RM_STR_(x) #x
#define RM_STR(x) RM_STR_(x)

void rm_port_describe(void)
{
    rm_emit_cfg("kernel", "FreeRTOS " tskKERNEL_VERSION_NUMBER);
    rm_emit_cfg("freertos_port", RM_FREERTOS_PORT_NAME);
    rm_emit_cfg("kernel_profile", RM_FREERTOS_VENDOR ? "vendor" : "default");
    rm_emit_cfg("preemption", configUSE_PREEMPTION ? "on" : "off");
    rm_emit_cfg("time_slicing", configUSE_TIME_SLICING ? "on" : "off");
    rm_emit_cfg("task_selection",
                configUSE_PORT_OPTIMISED_TASK_SELECTION ? "port-optimised (CLZ)" : "generic");
    rm_emit_cfg_u32("max_priorities", configMAX_PRIORITIES);
    rm_emit_cfg("priority_map", "RM_PRIO n = FreeRTOS priority n (1..31), idle 0");
    rm_emit_cfg("assertions", configASSERT_DEFINED ? "on (configASSERT)" : "off");
    rm_emit_cfg_u32("stack_overflow_check", configCHECK_FOR_STACK_OVERFLOW);
#if RM_FR_VERSION >= 110000 /* configCHECK_HANDLER_INSTALLATION: V11.0.0 */
    rm_emit_cfg("handler_installation_check", configCHECK_HANDLER_INSTALLATION ? "on" : "off");
#else
    rm_emit_cfg("handler_installation_check", "off (not in this kernel version)");
#endif
    rm_emit_cfg("tracing", configUSE_TRACE_FACILITY ? "on" : "off");
    rm_emit_cfg("run_time_stats", configGENERATE_RUN_TIME_STATS ? "on" : "off");
    rm_emit_cfg("heap", "heap_4");
    rm_emit_cfg_u32("heap_bytes", configTOTAL_HEAP_SIZE);
#if RM_FR_VERSION >= 100500 /* configHEAP_CLEAR_MEMORY_ON_FREE came with V10.5.0 */
    rm_emit_cfg("heap_clear_on_free", configHEAP_CLEAR_MEMORY_ON_FREE ? "on" : "off");
#else
    rm_emit_cfg("heap_clear_on_free", "off (not in this kernel version)");
#endif
    rm_emit_cfg_u32("thread_stack_bytes",
                    (uint32_t)(RM_FREERTOS_STACK_WORDS * sizeof(StackType_t)));
    rm_emit_cfg_u32("runner_stack_bytes",
                    (uint32_t)(RM_FREERTOS_RUNNER_STACK_WORDS * sizeof(StackType_t)));
    rm_emit_cfg("kernel_idle", configUSE_TICKLESS_IDLE
                                   ? "tickless idle (vPortSuppressTicksAndSleep, WFI)"
                                   : "idle task busy loop (no WFI, no tickless idle, no idle hook)");
    rm_emit_cfg("timer_task", configUSE_TIMERS ? "on" : "off");
    rm_emit_cfg("stand_in.POOL", "queue of free block pointers (xQueueReceive/xQueueSend): "
                                 "FreeRTOS has no block pool");
    rm_emit_cfg("lifo", "queue written with xQueueSendToFront");
#if RM_FR_HAS_INDEXED_NOTIFY
    rm_emit_cfg("notify", "task notification index 0, xTaskNotifyGive/ulTaskNotifyTake");
    rm_emit_cfg("thread_flags", "task notification index 1, eSetBits/xTaskNotifyWait");
#else
    rm_emit_cfg("notify", "the task's one notification, xTaskNotifyGive/ulTaskNotifyTake");
#endif
#if !RM_FREERTOS_POSIX
    rm_emit_cfg_u32("max_syscall_irq_prio", configMAX_SYSCALL_INTERRUPT_PRIORITY);
#endif
    rm_emit_cfg("kernel_opt_flags", RM_FREERTOS_OPT_FLAGS);
}

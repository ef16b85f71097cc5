/* lwIP's operating-system layer on RTX5 (lwip/sys.h), through CMSIS-RTOS2:
 * lwIP 2.2.1's contrib has no port for it. Every object comes from RTX's
 * dynamic memory (RTX_Config.h: OS_*_OBJ_MEM 0, OS_DYNAMIC_MEM_SIZE), like
 * the port's own. Built only under a net-* load (port.cmake). */
#include <stdint.h>

#include "RTX_Config.h"
#include "cmsis_compiler.h"
#include "cmsis_os2.h"
#include "lwip/sys.h"
#include "rm_lwip_port.h"

/* sys_now and lwIP's timeouts are milliseconds: one per tick. */
_Static_assert(OS_TICK_FREQ == 1000, "lwIP's sys_arch on RTX5 counts a tick a millisecond");

/* RM_PRIO p is osPriorityLow + p, as the port's threads (port.c). */
#define RM_RTX_PRIO_BASE ((int)osPriorityLow)

void sys_init(void)
{
}

u32_t sys_now(void)
{
    return osKernelGetTickCount();
}

/* lwIP's timeout 0 is "forever". */
static uint32_t ticks(u32_t timeout_ms)
{
    return timeout_ms == 0u ? osWaitForever : timeout_ms;
}

/* ---- critical sections (SYS_LIGHTWEIGHT_PROT): interrupts masked --------- */
sys_prot_t sys_arch_protect(void)
{
    uint32_t primask = __get_PRIMASK();
    __disable_irq();
    return primask;
}

void sys_arch_unprotect(sys_prot_t pval)
{
    __set_PRIMASK(pval);
}

/* ---- semaphores: binary, as lwIP uses them -------------------------------- */
err_t sys_sem_new(sys_sem_t *sem, u8_t count)
{
    *sem = osSemaphoreNew(1u, count, NULL);
    return *sem == NULL ? ERR_MEM : ERR_OK;
}

void sys_sem_signal(sys_sem_t *sem)
{
    (void)osSemaphoreRelease(*sem);
}

u32_t sys_arch_sem_wait(sys_sem_t *sem, u32_t timeout)
{
    uint32_t start = osKernelGetTickCount();
    if (osSemaphoreAcquire(*sem, ticks(timeout)) != osOK)
        return SYS_ARCH_TIMEOUT;
    return osKernelGetTickCount() - start;
}

void sys_sem_free(sys_sem_t *sem)
{
    (void)osSemaphoreDelete(*sem);
}

/* ---- mutexes (the tcpip core lock) ---------------------------------------- */
err_t sys_mutex_new(sys_mutex_t *mutex)
{
    static const osMutexAttr_t attr = {.attr_bits = osMutexPrioInherit};
    *mutex = osMutexNew(&attr);
    return *mutex == NULL ? ERR_MEM : ERR_OK;
}

void sys_mutex_lock(sys_mutex_t *mutex)
{
    (void)osMutexAcquire(*mutex, osWaitForever);
}

void sys_mutex_unlock(sys_mutex_t *mutex)
{
    (void)osMutexRelease(*mutex);
}

void sys_mutex_free(sys_mutex_t *mutex)
{
    (void)osMutexDelete(*mutex);
}

/* ---- mailboxes: message queues of pointers -------------------------------- */
err_t sys_mbox_new(sys_mbox_t *mbox, int size)
{
    LWIP_ASSERT("mbox size > 0", size > 0);
    *mbox = osMessageQueueNew((uint32_t)size, sizeof(void *), NULL);
    return *mbox == NULL ? ERR_MEM : ERR_OK;
}

void sys_mbox_post(sys_mbox_t *mbox, void *msg)
{
    (void)osMessageQueuePut(*mbox, &msg, 0u, osWaitForever);
}

err_t sys_mbox_trypost(sys_mbox_t *mbox, void *msg)
{
    return osMessageQueuePut(*mbox, &msg, 0u, 0u) == osOK ? ERR_OK : ERR_MEM;
}

/* RTX takes the call from an interrupt (timeout 0) and pends the switch itself. */
err_t sys_mbox_trypost_fromisr(sys_mbox_t *mbox, void *msg)
{
    return sys_mbox_trypost(mbox, msg);
}

u32_t sys_arch_mbox_fetch(sys_mbox_t *mbox, void **msg, u32_t timeout)
{
    void *got;
    uint32_t start = osKernelGetTickCount();
    if (osMessageQueueGet(*mbox, &got, NULL, ticks(timeout)) != osOK)
        return SYS_ARCH_TIMEOUT;
    if (msg != NULL)
        *msg = got;
    return osKernelGetTickCount() - start;
}

u32_t sys_arch_mbox_tryfetch(sys_mbox_t *mbox, void **msg)
{
    void *got;
    if (osMessageQueueGet(*mbox, &got, NULL, 0u) != osOK)
        return SYS_MBOX_EMPTY;
    if (msg != NULL)
        *msg = got;
    return 0u;
}

void sys_mbox_free(sys_mbox_t *mbox)
{
    (void)osMessageQueueDelete(*mbox);
}

/* ---- threads: stack size in bytes, from RTX's dynamic memory -------------- */
sys_thread_t sys_thread_new(const char *name, lwip_thread_fn thread, void *arg, int stacksize,
                            int prio)
{
    const osThreadAttr_t attr = {
        .name = name,
        .stack_size = (uint32_t)stacksize,
        .priority = (osPriority_t)(RM_RTX_PRIO_BASE + prio),
    };
    osThreadId_t id = osThreadNew(thread, arg, &attr);
    LWIP_ASSERT("thread creation failed", id != NULL);
    return id;
}

/* The radio's interrupt (bench/net/lwip/net_radio.c): RTX's from-ISR calls
 * pend the switch themselves, nothing is left to do. */
void rm_lwip_isr_exit(int rc)
{
    (void)rc;
}

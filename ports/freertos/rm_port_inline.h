/* FreeRTOS port: the measured calls of port.h, inline, so that each
 * measured interval holds the FreeRTOS call alone (port.h, "the port's
 * inline calls"). Set-up calls (create, delete, ...) are in port.c.
 *
 * - Timeouts: RM_FOREVER is FreeRTOS's portMAX_DELAY with 32-bit ticks, so
 *   a timeout passes through unchanged (checked at compile time).
 * - Status: FreeRTOS returns pdTRUE / the byte count on success; each call
 *   tests that first, so the caller's own success test is the only branch.
 * - Interrupts (Cortex-M): the FromISR calls take their own "higher
 *   priority task woken" and pend the switch with portYIELD_FROM_ISR, as a
 *   FreeRTOS handler does; no enter/exit hook. The POSIX simulator's
 *   "interrupt" is a signal handler on the running task's thread:
 *   RM_PORT_ISR_ENTER/EXIT mask the tick signal around it as an interrupt
 *   controller would (its FromISR calls mask nothing).
 */
#ifndef RM_PORT_INLINE_H
#define RM_PORT_INLINE_H

#include "FreeRTOS.h"
#include "event_groups.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"

/* What the kernel version offers (port.c withdraws the rest at run time and
 * says why): stream and message buffers came with V10.0.0, indexed task
 * notifications with V10.4.0 (before, one notification per task). */
#define RM_FR_VERSION                                                          \
    (tskKERNEL_VERSION_MAJOR * 10000 + tskKERNEL_VERSION_MINOR * 100 +          \
     tskKERNEL_VERSION_BUILD)
#define RM_FR_HAS_STREAM (RM_FR_VERSION >= 100000)
#define RM_FR_HAS_INDEXED_NOTIFY (RM_FR_VERSION >= 100400)

#if RM_FR_HAS_STREAM
#include "message_buffer.h"
#include "stream_buffer.h"
#endif

#define RM_NOTIFY_INDEX 0u
#define RM_FLAGS_INDEX 1u
#if !RM_FR_HAS_INDEXED_NOTIFY
/* The one notification of older kernels, under the indexed names the port
 * uses (index 0 is the only one; THREAD_FLAGS is withdrawn there). */
#define xTaskNotifyGiveIndexed(t, i) xTaskNotifyGive(t)
#define ulTaskNotifyTakeIndexed(i, clear, ticks) ulTaskNotifyTake(clear, ticks)
#endif

/* RM_FOREVER is portMAX_DELAY wherever ticks are 32 bits (the Cortex-M
 * ports): the conversion below is then nothing. The POSIX simulator's ticks
 * are unsigned long, so there RM_FOREVER is widened. */
_Static_assert(sizeof(TickType_t) > sizeof(uint32_t) ||
                   (TickType_t)portMAX_DELAY == (TickType_t)RM_FOREVER,
               "RM_FOREVER must be portMAX_DELAY with 32-bit FreeRTOS ticks");

struct rm_thread {
    TaskHandle_t task;
    rm_entry_t entry;
    void *arg;
    struct rm_thread *next_free;
};

struct rm_obj {
    rm_obj_kind_t kind;
    union {
        QueueHandle_t queue;   /* QUEUE, LIFO */
        SemaphoreHandle_t sem; /* SEM, MUTEX */
        EventGroupHandle_t events;
#if RM_FR_HAS_STREAM
        StreamBufferHandle_t stream;
        MessageBufferHandle_t msgbuf;
#endif
        TaskHandle_t owner; /* NOTIFY, THREAD_FLAGS */
    } h;
};

/* FreeRTOS has no block pool: a queue of free block pointers stands in
 * (CFG stand_in.POOL says so beside every number that depends on it). */
struct rm_pool {
    QueueHandle_t free_blocks;
};

#define RM_FR_INLINE static inline __attribute__((always_inline))
#define RM_FR_WAIT_FAILED(timeout) ((timeout) == RM_NO_WAIT ? RM_EAGAIN : RM_ETIMEOUT)
/* Success is the expected case: the compiler then lays out the loop around
 * the kernel call with the failure path out of line (no extra branch). */
#define RM_FR_OK(cond) __builtin_expect((cond), 1)

RM_FR_INLINE TickType_t fr_ticks_of(uint32_t timeout)
{
    if (sizeof(TickType_t) > sizeof(uint32_t) && timeout == RM_FOREVER) {
        return portMAX_DELAY;
    }
    return (TickType_t)timeout;
}

/* ---- threads ---------------------------------------------------------- */
RM_FR_INLINE int rm_thread_suspend(rm_thread_t t)
{
    vTaskSuspend(t->task);
    return RM_OK;
}

RM_FR_INLINE int rm_thread_resume(rm_thread_t t)
{
    vTaskResume(t->task);
    return RM_OK;
}

RM_FR_INLINE int rm_thread_yield(void)
{
    taskYIELD();
    return RM_OK;
}

/* ---- objects: signal / wait per kind ------------------------------------ */
RM_FR_INLINE int rm_sem_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return RM_FR_OK(xSemaphoreGive(o->h.sem) == pdTRUE) ? RM_OK : RM_EAGAIN;
}

RM_FR_INLINE int rm_sem_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return RM_FR_OK(xSemaphoreTake(o->h.sem, fr_ticks_of(timeout)) == pdTRUE) ? RM_OK : RM_FR_WAIT_FAILED(timeout);
}

RM_FR_INLINE int rm_mutex_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return RM_FR_OK(xSemaphoreGive(o->h.sem) == pdTRUE) ? RM_OK : RM_ERROR;
}

RM_FR_INLINE int rm_mutex_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return RM_FR_OK(xSemaphoreTake(o->h.sem, fr_ticks_of(timeout)) == pdTRUE) ? RM_OK : RM_FR_WAIT_FAILED(timeout);
}

RM_FR_INLINE int rm_event_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    (void)xEventGroupSetBits(o->h.events, 1u);
    return RM_OK;
}

RM_FR_INLINE int rm_event_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return RM_FR_OK((xEventGroupWaitBits(o->h.events, 1u, pdTRUE, pdFALSE, fr_ticks_of(timeout)) & 1u) != 0u)
               ? RM_OK
               : RM_FR_WAIT_FAILED(timeout);
}

RM_FR_INLINE int rm_queue_signal(rm_obj_t o, const rm_msg_t *msg)
{
    return RM_FR_OK(xQueueSend(o->h.queue, msg, 0) == pdTRUE) ? RM_OK : RM_EAGAIN;
}

RM_FR_INLINE int rm_queue_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return RM_FR_OK(xQueueReceive(o->h.queue, msg, fr_ticks_of(timeout)) == pdTRUE) ? RM_OK
                                                              : RM_FR_WAIT_FAILED(timeout);
}

/* LIFO: the same queue written at its head (FreeRTOS's native call). */
RM_FR_INLINE int rm_lifo_signal(rm_obj_t o, const rm_msg_t *msg)
{
    return RM_FR_OK(xQueueSendToFront(o->h.queue, msg, 0) == pdTRUE) ? RM_OK : RM_EAGAIN;
}

RM_FR_INLINE int rm_lifo_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return RM_FR_OK(xQueueReceive(o->h.queue, msg, fr_ticks_of(timeout)) == pdTRUE) ? RM_OK
                                                              : RM_FR_WAIT_FAILED(timeout);
}

#if RM_FR_HAS_STREAM
RM_FR_INLINE int rm_stream_signal(rm_obj_t o, const rm_msg_t *msg)
{
    return RM_FR_OK(xStreamBufferSend(o->h.stream, msg, RM_MSG_SIZE, 0) == RM_MSG_SIZE) ? RM_OK
                                                                             : RM_EAGAIN;
}

RM_FR_INLINE int rm_stream_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return RM_FR_OK(xStreamBufferReceive(o->h.stream, msg, RM_MSG_SIZE, fr_ticks_of(timeout)) == RM_MSG_SIZE)
               ? RM_OK
               : RM_FR_WAIT_FAILED(timeout);
}

RM_FR_INLINE int rm_msgbuf_signal(rm_obj_t o, const rm_msg_t *msg)
{
    return RM_FR_OK(xMessageBufferSend(o->h.msgbuf, msg, RM_MSG_SIZE, 0) == RM_MSG_SIZE) ? RM_OK
                                                                              : RM_EAGAIN;
}

RM_FR_INLINE int rm_msgbuf_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return RM_FR_OK(xMessageBufferReceive(o->h.msgbuf, msg, RM_MSG_SIZE, fr_ticks_of(timeout)) == RM_MSG_SIZE)
               ? RM_OK
               : RM_FR_WAIT_FAILED(timeout);
}

#endif /* RM_FR_HAS_STREAM */

/* NOTIFY: task notification index 0 used as a counting semaphore. */
RM_FR_INLINE int rm_notify_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    (void)xTaskNotifyGiveIndexed(o->h.owner, RM_NOTIFY_INDEX);
    return RM_OK;
}

RM_FR_INLINE int rm_notify_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)o, (void)msg;
    return RM_FR_OK(ulTaskNotifyTakeIndexed(RM_NOTIFY_INDEX, pdFALSE, fr_ticks_of(timeout)) != 0u)
               ? RM_OK
               : RM_FR_WAIT_FAILED(timeout);
}

#if RM_FR_HAS_INDEXED_NOTIFY
/* THREAD_FLAGS: task notification index 1 used as flags (bit 0). */
RM_FR_INLINE int rm_thread_flags_signal(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    (void)xTaskNotifyIndexed(o->h.owner, RM_FLAGS_INDEX, 1u, eSetBits);
    return RM_OK;
}

RM_FR_INLINE int rm_thread_flags_wait(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)o, (void)msg;
    uint32_t bits = 0u;
    return RM_FR_OK(xTaskNotifyWaitIndexed(RM_FLAGS_INDEX, 0u, 1u, &bits, fr_ticks_of(timeout)) == pdTRUE)
               ? RM_OK
               : RM_FR_WAIT_FAILED(timeout);
}

#endif /* RM_FR_HAS_INDEXED_NOTIFY */

/* ---- memory --------------------------------------------------------------- */
RM_FR_INLINE int rm_pool_alloc(rm_pool_t p, void **block)
{
    return RM_FR_OK(xQueueReceive(p->free_blocks, block, 0) == pdTRUE) ? RM_OK : RM_EAGAIN;
}

RM_FR_INLINE int rm_pool_free(rm_pool_t p, void *block)
{
    return RM_FR_OK(xQueueSend(p->free_blocks, &block, 0) == pdTRUE) ? RM_OK : RM_ERROR;
}

RM_FR_INLINE int rm_heap_alloc(size_t size, void **mem)
{
    *mem = pvPortMalloc(size);
    return RM_FR_OK(*mem != NULL) ? RM_OK : RM_EAGAIN;
}

RM_FR_INLINE int rm_heap_free(void *mem)
{
    vPortFree(mem);
    return RM_OK;
}

/* ---- interrupts ------------------------------------------------------------ */
RM_FR_INLINE int rm_isr_resume(rm_thread_t t)
{
    portYIELD_FROM_ISR(xTaskResumeFromISR(t->task));
    return RM_OK;
}

RM_FR_INLINE int rm_isr_sem_signal(rm_obj_t o)
{
    BaseType_t woken = pdFALSE;
    BaseType_t ok = xSemaphoreGiveFromISR(o->h.sem, &woken);
    portYIELD_FROM_ISR(woken);
    return RM_FR_OK(ok == pdTRUE) ? RM_OK : RM_EAGAIN;
}

#if RM_FREERTOS_POSIX
#define RM_PORT_ISR_ENTER() vPortEnterCritical()
#define RM_PORT_ISR_EXIT() vPortExitCritical()
#endif

#endif /* RM_PORT_INLINE_H */

/* FreeRTOS port: the measured calls of port.h, inline, so that each
 * measured interval holds the FreeRTOS call alone (port.h, "the port's
 * inline calls"). Set-up calls (create, delete, ...) are in port.c.
 *
 * - Timeouts: RM_FOREVER is FreeRTOS's portMAX_DELAY with 32-bit ticks, so
 *   a timeout passes through unchanged (checked at compile time).
 * - Status: each measured call returns FreeRTOS's own result (pdTRUE, the
 *   byte count, the event bits); its _rc translator tests success first, so
 *   the caller's own success test is the only branch (port.h).
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
/* vTaskSuspend / vTaskResume / taskYIELD return nothing: raw is 0. */
RM_FR_INLINE rm_raw_t rm_thread_suspend_raw(rm_thread_t t)
{
    vTaskSuspend(t->task);
    return 0;
}

RM_FR_INLINE int rm_thread_suspend_rc(rm_raw_t raw)
{
    (void)raw;
    return RM_OK;
}

RM_FR_INLINE rm_raw_t rm_thread_resume_raw(rm_thread_t t)
{
    vTaskResume(t->task);
    return 0;
}

RM_FR_INLINE int rm_thread_resume_rc(rm_raw_t raw)
{
    (void)raw;
    return RM_OK;
}

RM_FR_INLINE rm_raw_t rm_thread_yield_raw(void)
{
    taskYIELD();
    return 0;
}

RM_FR_INLINE int rm_thread_yield_rc(rm_raw_t raw)
{
    (void)raw;
    return RM_OK;
}

/* ---- status translators ---------------------------------------------------- */
/* pdTRUE (queue, semaphore, notify-wait calls) or a byte count / a count. */
RM_FR_INLINE int fr_sent_rc(rm_raw_t raw, rm_raw_t ok)
{
    return RM_FR_OK(raw == ok) ? RM_OK : RM_EAGAIN;
}

RM_FR_INLINE int fr_received_rc(rm_raw_t raw, rm_raw_t ok, uint32_t timeout)
{
    return rm_wait_rc(raw == ok, timeout);
}

/* ---- objects: signal / wait per kind ------------------------------------ */
RM_FR_INLINE rm_raw_t rm_sem_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return xSemaphoreGive(o->h.sem);
}

RM_FR_INLINE int rm_sem_signal_rc(rm_raw_t raw)
{
    return fr_sent_rc(raw, pdTRUE);
}

RM_FR_INLINE rm_raw_t rm_sem_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return xSemaphoreTake(o->h.sem, fr_ticks_of(timeout));
}

RM_FR_INLINE int rm_sem_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return fr_received_rc(raw, pdTRUE, timeout);
}

/* Giving a mutex one does not hold is an error, not a full object. */
RM_FR_INLINE rm_raw_t rm_mutex_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return xSemaphoreGive(o->h.sem);
}

RM_FR_INLINE int rm_mutex_signal_rc(rm_raw_t raw)
{
    return RM_FR_OK(raw == pdTRUE) ? RM_OK : RM_ERROR;
}

RM_FR_INLINE rm_raw_t rm_mutex_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return xSemaphoreTake(o->h.sem, fr_ticks_of(timeout));
}

RM_FR_INLINE int rm_mutex_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return fr_received_rc(raw, pdTRUE, timeout);
}

/* xEventGroupSetBits returns the bits after the call: nothing to test. */
RM_FR_INLINE rm_raw_t rm_event_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return (rm_raw_t)xEventGroupSetBits(o->h.events, 1u);
}

RM_FR_INLINE int rm_event_signal_rc(rm_raw_t raw)
{
    (void)raw;
    return RM_OK;
}

/* xEventGroupWaitBits returns the bits when it returned: bit 0 set = got it. */
RM_FR_INLINE rm_raw_t rm_event_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)msg;
    return (rm_raw_t)xEventGroupWaitBits(o->h.events, 1u, pdTRUE, pdFALSE, fr_ticks_of(timeout));
}

RM_FR_INLINE int rm_event_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return fr_received_rc(raw & 1, 1, timeout);
}

RM_FR_INLINE rm_raw_t rm_queue_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return xQueueSend(o->h.queue, msg, 0);
}

RM_FR_INLINE int rm_queue_signal_rc(rm_raw_t raw)
{
    return fr_sent_rc(raw, pdTRUE);
}

RM_FR_INLINE rm_raw_t rm_queue_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return xQueueReceive(o->h.queue, msg, fr_ticks_of(timeout));
}

RM_FR_INLINE int rm_queue_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return fr_received_rc(raw, pdTRUE, timeout);
}

/* LIFO: the same queue written at its head (FreeRTOS's native call). */
RM_FR_INLINE rm_raw_t rm_lifo_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return xQueueSendToFront(o->h.queue, msg, 0);
}

RM_FR_INLINE int rm_lifo_signal_rc(rm_raw_t raw)
{
    return fr_sent_rc(raw, pdTRUE);
}

RM_FR_INLINE rm_raw_t rm_lifo_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return xQueueReceive(o->h.queue, msg, fr_ticks_of(timeout));
}

RM_FR_INLINE int rm_lifo_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return fr_received_rc(raw, pdTRUE, timeout);
}

#if RM_FR_HAS_STREAM
/* Stream and message buffers return the bytes moved. */
RM_FR_INLINE rm_raw_t rm_stream_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return (rm_raw_t)xStreamBufferSend(o->h.stream, msg, RM_MSG_SIZE, 0);
}

RM_FR_INLINE int rm_stream_signal_rc(rm_raw_t raw)
{
    return fr_sent_rc(raw, RM_MSG_SIZE);
}

RM_FR_INLINE rm_raw_t rm_stream_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return (rm_raw_t)xStreamBufferReceive(o->h.stream, msg, RM_MSG_SIZE, fr_ticks_of(timeout));
}

RM_FR_INLINE int rm_stream_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return fr_received_rc(raw, RM_MSG_SIZE, timeout);
}

RM_FR_INLINE rm_raw_t rm_msgbuf_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    return (rm_raw_t)xMessageBufferSend(o->h.msgbuf, msg, RM_MSG_SIZE, 0);
}

RM_FR_INLINE int rm_msgbuf_signal_rc(rm_raw_t raw)
{
    return fr_sent_rc(raw, RM_MSG_SIZE);
}

RM_FR_INLINE rm_raw_t rm_msgbuf_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    return (rm_raw_t)xMessageBufferReceive(o->h.msgbuf, msg, RM_MSG_SIZE, fr_ticks_of(timeout));
}

RM_FR_INLINE int rm_msgbuf_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return fr_received_rc(raw, RM_MSG_SIZE, timeout);
}

#endif /* RM_FR_HAS_STREAM */

/* NOTIFY: task notification index 0 used as a counting semaphore. Giving
 * always succeeds; the take returns the count before it, 0 = none came. */
RM_FR_INLINE rm_raw_t rm_notify_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return xTaskNotifyGiveIndexed(o->h.owner, RM_NOTIFY_INDEX);
}

RM_FR_INLINE int rm_notify_signal_rc(rm_raw_t raw)
{
    (void)raw;
    return RM_OK;
}

RM_FR_INLINE rm_raw_t rm_notify_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)o, (void)msg;
    return (rm_raw_t)ulTaskNotifyTakeIndexed(RM_NOTIFY_INDEX, pdFALSE, fr_ticks_of(timeout));
}

RM_FR_INLINE int rm_notify_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return fr_received_rc(raw != 0, 1, timeout);
}

#if RM_FR_HAS_INDEXED_NOTIFY
/* THREAD_FLAGS: task notification index 1 used as flags (bit 0). */
RM_FR_INLINE rm_raw_t rm_thread_flags_signal_raw(rm_obj_t o, const rm_msg_t *msg)
{
    (void)msg;
    return xTaskNotifyIndexed(o->h.owner, RM_FLAGS_INDEX, 1u, eSetBits);
}

RM_FR_INLINE int rm_thread_flags_signal_rc(rm_raw_t raw)
{
    (void)raw; /* eSetBits always succeeds */
    return RM_OK;
}

RM_FR_INLINE rm_raw_t rm_thread_flags_wait_raw(rm_obj_t o, rm_msg_t *msg, uint32_t timeout)
{
    (void)o, (void)msg;
    return xTaskNotifyWaitIndexed(RM_FLAGS_INDEX, 0u, 1u, NULL, fr_ticks_of(timeout));
}

RM_FR_INLINE int rm_thread_flags_wait_rc(rm_raw_t raw, uint32_t timeout)
{
    return fr_received_rc(raw, pdTRUE, timeout);
}

#endif /* RM_FR_HAS_INDEXED_NOTIFY */

/* ---- memory --------------------------------------------------------------- */
RM_FR_INLINE rm_raw_t rm_pool_alloc_raw(rm_pool_t p, void **block)
{
    return xQueueReceive(p->free_blocks, block, 0);
}

RM_FR_INLINE int rm_pool_alloc_rc(rm_raw_t raw, void **block)
{
    (void)block; /* the kernel stored the block */
    return fr_sent_rc(raw, pdTRUE);
}

/* Returning a block to a full pool is an error (not ours). */
RM_FR_INLINE rm_raw_t rm_pool_free_raw(rm_pool_t p, void *block)
{
    return xQueueSend(p->free_blocks, &block, 0);
}

RM_FR_INLINE int rm_pool_free_rc(rm_raw_t raw)
{
    return RM_FR_OK(raw == pdTRUE) ? RM_OK : RM_ERROR;
}

/* HEAP: pvPortMalloc / vPortFree; the pointer is alloc's status, delivered to the
 * caller by the translator (NULL: no memory). */
RM_HEAP_MALLOC_LIKE(RM_FR_INLINE, pvPortMalloc, vPortFree)

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

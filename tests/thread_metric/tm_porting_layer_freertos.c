/* Thread-Metric porting layer for FreeRTOS, for the reference build only:
 * one native FreeRTOS call per Thread-Metric service, the way a user would
 * port tm_api.h (compare ThreadX's threadx_example/tm_porting_layer_threadx.c,
 * which this mirrors: a separate translation unit whose functions forward
 * and translate the status).
 *
 * - Priorities: Thread-Metric's 1 (highest) .. 31 map monotonically onto
 *   FreeRTOS 31 .. 1 (configMAX_PRIORITIES = 32; the idle task has 0; the
 *   tests use 2 and below, under tm_initialize's task at 31).
 * - Threads are created suspended (ThreadX: TX_DONT_START) with rtosmeter's
 *   stack size, and started by tm_thread_resume.
 * - The memory pool is the stand-in rtosmeter uses (ports/freertos,
 *   rm_pool_alloc/rm_pool_free): a queue of free 128-byte block pointers,
 *   allocate = xQueueReceive, free = xQueueSend, both without waiting.
 * - Handlers: the two interrupt tests call one service from their handler
 *   (tm_semaphore_put, tm_thread_resume), which must then be the FromISR
 *   call followed by portYIELD_FROM_ISR. CMakeLists.txt says which:
 *   TM_FR_PUT_FROM_HANDLER (interrupt test: the handler is the only caller
 *   of tm_semaphore_put, so the FromISR call needs no test);
 *   TM_FR_RESUME_FROM_HANDLER (interrupt preemption test: its handler
 *   resumes thread 0; its initialisation resumes threads 1 and 5 from
 *   tm_initialize's task, which the FromISR call also serves on Cortex-M:
 *   it masks through BASEPRI, and neither thread outranks that task, so it
 *   pends no switch). No test of IPSR, so the reference's handler holds the
 *   kernel call alone. Every other build has the task call alone.
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "tm_api.h"

#ifndef TM_FR_PUT_FROM_HANDLER
#define TM_FR_PUT_FROM_HANDLER 0
#endif
#ifndef TM_FR_RESUME_FROM_HANDLER
#define TM_FR_RESUME_FROM_HANDLER 0
#endif

#define TM_FR_MAX_THREADS 10
#define TM_FR_MAX_QUEUES 1
#define TM_FR_MAX_SEMAPHORES 1
#define TM_FR_MAX_POOLS 1
#define TM_FR_STACK_WORDS RM_FREERTOS_STACK_WORDS /* rtosmeter's threads' */
#define TM_FR_QUEUE_DEPTH 4u                      /* RM_QUEUE_DEPTH */
#define TM_FR_MESSAGE_BYTES 16u
#define TM_FR_BLOCK_BYTES 128u
#define TM_FR_POOL_BLOCKS 4u /* rtosmeter's tm.memory pool */

static TaskHandle_t tm_fr_threads[TM_FR_MAX_THREADS];
static void (*tm_fr_entries[TM_FR_MAX_THREADS])(void);
static QueueHandle_t tm_fr_queues[TM_FR_MAX_QUEUES];
static SemaphoreHandle_t tm_fr_semaphores[TM_FR_MAX_SEMAPHORES];
static QueueHandle_t tm_fr_pools[TM_FR_MAX_POOLS];
static unsigned char tm_fr_pool_area[TM_FR_MAX_POOLS][TM_FR_POOL_BLOCKS * TM_FR_BLOCK_BYTES]
    __attribute__((aligned(8)));

/* The test's initialisation creates and resumes its threads. Before the
 * scheduler runs, vTaskResume may pend a switch (PendSV) that is taken at
 * once, with no task to switch from, and reads pxCurrentTCB, which is NULL
 * while every created task is suspended. So the initialisation runs in a
 * task of its own above every Thread-Metric priority, which then deletes
 * itself: the same situation as rtosmeter's runner creating a case's threads
 * (ThreadX's layer runs it in tx_application_define, which ThreadX allows). */
static void (*tm_fr_initialization)(void);

static void tm_fr_initialize_task(void *arg)
{
    (void)arg;
    tm_fr_initialization();
    vTaskDelete(NULL);
}

void tm_initialize(void (*test_initialization_function)(void))
{
    tm_fr_initialization = test_initialization_function;
    if (xTaskCreate(tm_fr_initialize_task, "tm_initialize", TM_FR_STACK_WORDS, NULL,
                    configMAX_PRIORITIES - 1, NULL) != pdPASS)
        return;
    vTaskStartScheduler();
}

static void tm_fr_thread_entry(void *arg)
{
    tm_fr_entries[(uintptr_t)arg]();
    vTaskDelete(NULL);
}

int tm_thread_create(int thread_id, int priority, void (*entry_function)(void))
{
    tm_fr_entries[thread_id] = entry_function;
    if (xTaskCreate(tm_fr_thread_entry, "Thread-Metric test", TM_FR_STACK_WORDS,
                    (void *)(uintptr_t)thread_id,
                    (UBaseType_t)(configMAX_PRIORITIES - priority),
                    &tm_fr_threads[thread_id]) != pdPASS)
        return TM_ERROR;
    vTaskSuspend(tm_fr_threads[thread_id]);
    return TM_SUCCESS;
}

int tm_thread_resume(int thread_id)
{
#if TM_FR_RESUME_FROM_HANDLER
    portYIELD_FROM_ISR(xTaskResumeFromISR(tm_fr_threads[thread_id]));
#else
    vTaskResume(tm_fr_threads[thread_id]);
#endif
    return TM_SUCCESS;
}

int tm_thread_suspend(int thread_id)
{
    vTaskSuspend(tm_fr_threads[thread_id]);
    return TM_SUCCESS;
}

void tm_thread_relinquish(void)
{
    taskYIELD();
}

void tm_thread_sleep(int seconds)
{
    vTaskDelay((TickType_t)seconds * configTICK_RATE_HZ);
}

int tm_queue_create(int queue_id)
{
    tm_fr_queues[queue_id] = xQueueCreate(TM_FR_QUEUE_DEPTH, TM_FR_MESSAGE_BYTES);
    return tm_fr_queues[queue_id] != NULL ? TM_SUCCESS : TM_ERROR;
}

int tm_queue_send(int queue_id, unsigned long *message_ptr)
{
    return xQueueSend(tm_fr_queues[queue_id], message_ptr, 0) == pdTRUE ? TM_SUCCESS
                                                                         : TM_ERROR;
}

int tm_queue_receive(int queue_id, unsigned long *message_ptr)
{
    return xQueueReceive(tm_fr_queues[queue_id], message_ptr, 0) == pdTRUE ? TM_SUCCESS
                                                                            : TM_ERROR;
}

/* A counting semaphore holding 1, as ThreadX's tx_semaphore_create(.., 1)
 * and rtosmeter's RM_OBJ_SEM (xSemaphoreCreateCounting, the same maximum). */
int tm_semaphore_create(int semaphore_id)
{
    tm_fr_semaphores[semaphore_id] = xSemaphoreCreateCounting(0x7FFFFFFFu, 1u);
    return tm_fr_semaphores[semaphore_id] != NULL ? TM_SUCCESS : TM_ERROR;
}

int tm_semaphore_get(int semaphore_id)
{
    return xSemaphoreTake(tm_fr_semaphores[semaphore_id], 0) == pdTRUE ? TM_SUCCESS
                                                                        : TM_ERROR;
}

int tm_semaphore_put(int semaphore_id)
{
#if TM_FR_PUT_FROM_HANDLER
    BaseType_t woken = pdFALSE;
    BaseType_t ok = xSemaphoreGiveFromISR(tm_fr_semaphores[semaphore_id], &woken);
    portYIELD_FROM_ISR(woken);
    return ok == pdTRUE ? TM_SUCCESS : TM_ERROR;
#else
    return xSemaphoreGive(tm_fr_semaphores[semaphore_id]) == pdTRUE ? TM_SUCCESS : TM_ERROR;
#endif
}

int tm_memory_pool_create(int pool_id)
{
    QueueHandle_t q = xQueueCreate(TM_FR_POOL_BLOCKS, sizeof(unsigned char *));
    if (q == NULL)
        return TM_ERROR;
    for (unsigned i = 0; i < TM_FR_POOL_BLOCKS; i++) {
        unsigned char *block = &tm_fr_pool_area[pool_id][i * TM_FR_BLOCK_BYTES];
        (void)xQueueSend(q, &block, 0);
    }
    tm_fr_pools[pool_id] = q;
    return TM_SUCCESS;
}

int tm_memory_pool_allocate(int pool_id, unsigned char **memory_ptr)
{
    return xQueueReceive(tm_fr_pools[pool_id], memory_ptr, 0) == pdTRUE ? TM_SUCCESS
                                                                         : TM_ERROR;
}

int tm_memory_pool_deallocate(int pool_id, unsigned char *memory_ptr)
{
    return xQueueSend(tm_fr_pools[pool_id], &memory_ptr, 0) == pdTRUE ? TM_SUCCESS
                                                                       : TM_ERROR;
}

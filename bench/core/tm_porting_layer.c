/* rtosmeter's Thread-Metric porting layer: one real function per tm_*
 * service (rtosmeter/tm_porting_layer.h), each holding the RTOS's native
 * call, in a translation unit of its own, as Thread-Metric's readme
 * (section 2.2) requires of tm_porting_layer_[RTOS].c.
 *
 * One generic file serves every port: the native call is the port's inline
 * rm_* call of port.h (rm_port_inline.h: the kernel call and its status
 * translation, nothing else), compiled here, so each function's body is
 * the kernel call as a hand-written tm_porting_layer_[RTOS].c has it
 * (compare ThreadX's threadx_example/tm_porting_layer_threadx.c: table
 * look-up, kernel call, status). A port adds nothing for Thread-Metric.
 *
 * The build keeps this file apart: no case includes it, and the harness
 * builds without LTO (bench/CMakeLists.txt compiles it with -fno-lto in
 * case a profile ever adds it), so every tm.* iteration calls out.
 */
#include "rtosmeter/tm_porting_layer.h"

rm_thread_t tm_thread_array[TM_MAX_THREADS];
rm_obj_t tm_queue_array[TM_MAX_QUEUES];
rm_obj_t tm_semaphore_array[TM_MAX_SEMAPHORES];
static rm_pool_t tm_pool_array[TM_MAX_MEMORY_POOLS];

/* The port's status as Thread-Metric's (ThreadX's layer: "if (status ==
 * TX_SUCCESS) return(TM_SUCCESS); else return(TM_ERROR);"). */
static inline int tm_status(int rc)
{
    return rc == RM_OK ? TM_SUCCESS : TM_ERROR;
}

int tm_thread_resume(int thread_id)
{
    return tm_status(rm_thread_resume(tm_thread_array[thread_id]));
}

int tm_thread_suspend(int thread_id)
{
    return tm_status(rm_thread_suspend(tm_thread_array[thread_id]));
}

void tm_thread_relinquish(void)
{
    (void)rm_thread_yield();
}

/* Served by the RTOS's tick interrupt (rm_tick_hz(): CFG tick_hz). */
void tm_thread_sleep_ticks(uint32_t ticks)
{
    (void)rm_thread_sleep(ticks);
}

int tm_queue_create(int queue_id)
{
    return tm_status(rm_obj_create(&tm_queue_array[queue_id], RM_OBJ_QUEUE, NULL, 0u));
}

int tm_queue_send(int queue_id, const rm_msg_t *message)
{
    return tm_status(rm_queue_signal(tm_queue_array[queue_id], message));
}

int tm_queue_receive(int queue_id, rm_msg_t *message)
{
    return tm_status(rm_queue_wait(tm_queue_array[queue_id], message, RM_NO_WAIT));
}

int tm_semaphore_create(int semaphore_id)
{
    return tm_status(rm_obj_create(&tm_semaphore_array[semaphore_id], RM_OBJ_SEM, NULL, 1u));
}

int tm_semaphore_get(int semaphore_id)
{
    return tm_status(rm_sem_wait(tm_semaphore_array[semaphore_id], NULL, RM_NO_WAIT));
}

int tm_semaphore_put(int semaphore_id)
{
    return tm_status(rm_sem_signal(tm_semaphore_array[semaphore_id], NULL));
}

/* port.h has no pool delete: the pool is created once per firmware. */
int tm_memory_pool_create(int pool_id)
{
    if (tm_pool_array[pool_id] != NULL) {
        return TM_SUCCESS;
    }
    return tm_status(rm_pool_create(&tm_pool_array[pool_id], RM_BLOCK_SIZE, 4u));
}

int tm_memory_pool_allocate(int pool_id, void **block)
{
    return tm_status(rm_pool_alloc(tm_pool_array[pool_id], block));
}

int tm_memory_pool_deallocate(int pool_id, void *block)
{
    return tm_status(rm_pool_free(tm_pool_array[pool_id], block));
}

int tm_isr_semaphore_put(int semaphore_id)
{
    return tm_status(rm_isr_sem_signal(tm_semaphore_array[semaphore_id]));
}

int tm_isr_thread_resume(int thread_id)
{
    return tm_status(rm_isr_resume(tm_thread_array[thread_id]));
}

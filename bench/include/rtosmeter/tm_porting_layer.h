/* rtosmeter's Thread-Metric porting layer (bench/core/tm_porting_layer.c):
 * the services of Thread-Metric's tm_api.h that the tm.* cases' loops and
 * reporter call.
 *
 * Thread-Metric's readme (section 2.2, "Porting Requirements") asks for the
 * porting layer as real functions in their own translation unit, not
 * macros, and published Thread-Metric figures are taken that way: each
 * iteration includes the calls into the layer. So the tm.* loops call these
 * functions, never the inline rm_* calls of port.h, and the layer is
 * compiled apart from every case (never inlined across, no LTO: see
 * docs/measuring.md). rtosmeter's own intervals (lat.*, sw.*, irq.*) keep
 * the inline calls.
 *
 * As in tm_api.h, objects are named by a small integer id and the layer
 * holds them in its tables. The set-up (thread creation, deletion) stays
 * with the case and the runner, which stop and delete the threads between
 * cases: a case creates its threads into tm_thread_array[id] and its
 * objects through tm_*_create. Differences from tm_api.h, each because
 * rtosmeter's calls differ:
 * - the message is an rm_msg_t (16 bytes), the block a void *;
 * - the two interrupt tests' handlers call tm_isr_semaphore_put and
 *   tm_isr_thread_resume (the port's interrupt-safe calls; Thread-Metric's
 *   handlers call the same service, which its FreeRTOS ports compile as the
 *   FromISR call);
 * - tm_thread_sleep_ticks sleeps RTOS ticks (the reporter's period,
 *   rm_tm_period_ticks()), where tm_thread_sleep sleeps seconds;
 * - raising the interrupt stays inline (rm_irq_trigger), as Thread-Metric's
 *   TM_CAUSE_INTERRUPT is a macro: "an instruction that generates an
 *   interrupt".
 */
#ifndef RTOSMETER_TM_PORTING_LAYER_H
#define RTOSMETER_TM_PORTING_LAYER_H

#include "rtosmeter/bench.h"

/* Every service's status, as tm_api.h's (the layer translates the port's). */
#define TM_SUCCESS 0
#define TM_ERROR 1

#define TM_MAX_THREADS 5
#define TM_MAX_QUEUES 1
#define TM_MAX_SEMAPHORES 1
#define TM_MAX_MEMORY_POOLS 1

/* The case's threads (created by the case, stopped by the runner). */
extern rm_thread_t tm_thread_array[TM_MAX_THREADS];
extern rm_obj_t tm_queue_array[TM_MAX_QUEUES];
extern rm_obj_t tm_semaphore_array[TM_MAX_SEMAPHORES];

int tm_thread_resume(int thread_id);
int tm_thread_suspend(int thread_id);
void tm_thread_relinquish(void);
void tm_thread_sleep_ticks(uint32_t ticks);

int tm_queue_create(int queue_id); /* 16-byte messages */
int tm_queue_send(int queue_id, const rm_msg_t *message);
int tm_queue_receive(int queue_id, rm_msg_t *message);

int tm_semaphore_create(int semaphore_id); /* holding 1 */
int tm_semaphore_get(int semaphore_id);
int tm_semaphore_put(int semaphore_id);

int tm_memory_pool_create(int pool_id); /* 128-byte blocks, kept for the firmware */
int tm_memory_pool_allocate(int pool_id, void **block);
int tm_memory_pool_deallocate(int pool_id, void *block);

/* From the benchmark interrupt's handler. */
int tm_isr_semaphore_put(int semaphore_id);
int tm_isr_thread_resume(int thread_id);

#endif /* RTOSMETER_TM_PORTING_LAYER_H */

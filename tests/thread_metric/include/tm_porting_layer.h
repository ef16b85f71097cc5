/* Thread-Metric's tm_porting_layer.h for the reference build: the trap that
 * the two interrupt tests raise (TM_CAUSE_INTERRUPT).
 *
 * Upstream's raises SVC #0, which FreeRTOS's Cortex-M ports need for their
 * first task and which ThreadX leaves unexpected here. This one pends
 * rtosmeter's benchmark interrupt exactly as rtosmeter's cases do
 * (rm_target_irq_trigger: one NVIC STIR store of RM_CM_BENCH_IRQ, dsb, isb),
 * and tm_ref_main.c installs the test's handler as that vector, so both
 * suites take the same interrupt path. Included ahead of every source
 * (CMakeLists.txt: -include): the guard keeps upstream's file empty.
 */
#ifndef TM_PORTING_LAYER_H
#define TM_PORTING_LAYER_H

#include <stdio.h>

#include "rm_cm_trigger.h"

/* Used as a statement without a semicolon (TM_CAUSE_INTERRUPT on its own
 * line), as upstream's asm("SVC #0"); is. */
#define TM_CAUSE_INTERRUPT rm_target_irq_trigger();

#endif /* TM_PORTING_LAYER_H */

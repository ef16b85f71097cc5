/* os_cfg_app.h for rtosmeter's µC/OS-III port (rtosmeter's own file): the
 * template's values (Cfg/Template/os_cfg_app.h of v3.08) in both profiles,
 * except the interrupt stack on ARMv7-M: 256 words instead of 128, as every
 * rtosmeter handler (and the fault report, which writes records from
 * handler mode) runs on it; the Cortex-M0 target (16 KiB of RAM) keeps 128. */
#ifndef OS_CFG_APP_H
#define OS_CFG_APP_H

#ifndef RM_UC3_ISR_STK_WORDS
#if defined(__ARM_ARCH_6M__)
#define RM_UC3_ISR_STK_WORDS 128u
#else
#define RM_UC3_ISR_STK_WORDS 256u
#endif
#endif

#define OS_CFG_ISR_STK_SIZE RM_UC3_ISR_STK_WORDS
#define OS_CFG_MSG_POOL_SIZE 32u
#define OS_CFG_TASK_STK_LIMIT_PCT_EMPTY 10u
#define OS_CFG_IDLE_TASK_STK_SIZE 64u
#define OS_CFG_STAT_TASK_PRIO ((OS_PRIO)(OS_CFG_PRIO_MAX - 2u))
#define OS_CFG_STAT_TASK_RATE_HZ 10u
#define OS_CFG_STAT_TASK_STK_SIZE 100u
#define OS_CFG_TICK_RATE_HZ 1000u
#define OS_CFG_TMR_TASK_PRIO ((OS_PRIO)(OS_CFG_PRIO_MAX - 3u))
#define OS_CFG_TMR_TASK_STK_SIZE 128u
#define OS_CFG_TMR_TASK_RATE_HZ 10u

#endif /* OS_CFG_APP_H */

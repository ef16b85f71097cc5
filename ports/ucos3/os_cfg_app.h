/* os_cfg_app.h for rtosmeter's µC/OS-III port (rtosmeter's own file): the
 * template's values (Cfg/Template/os_cfg_app.h of v3.08) in both profiles,
 * except the interrupt stack: port.c points the exception stack at the
 * target's main stack (the reset MSP, free once OSStart has run), so the
 * kernel's own ISR stack array is minimal. */
#ifndef OS_CFG_APP_H
#define OS_CFG_APP_H

#define OS_CFG_ISR_STK_SIZE 8u
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

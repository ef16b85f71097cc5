/* lwIP's operating-system types on RTX5 (lwip/sys.h includes
 * "arch/sys_arch.h"), for ../sys_arch.c: CMSIS-RTOS2 handles, NULL when
 * invalid. lwIP 2.2.1's contrib has no CMSIS-RTOS2 port. */
#ifndef RM_RTX5_LWIP_SYS_ARCH_H
#define RM_RTX5_LWIP_SYS_ARCH_H

#include "cmsis_os2.h"

typedef osSemaphoreId_t sys_sem_t;
typedef osMutexId_t sys_mutex_t;
typedef osMessageQueueId_t sys_mbox_t;
typedef osThreadId_t sys_thread_t;
typedef uint32_t sys_prot_t; /* PRIMASK */

#define sys_sem_valid(s) (*(s) != NULL)
#define sys_sem_set_invalid(s) (*(s) = NULL)
#define sys_mutex_valid(m) (*(m) != NULL)
#define sys_mutex_set_invalid(m) (*(m) = NULL)
#define sys_mbox_valid(m) (*(m) != NULL)
#define sys_mbox_set_invalid(m) (*(m) = NULL)

#endif /* RM_RTX5_LWIP_SYS_ARCH_H */

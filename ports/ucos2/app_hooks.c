/* The application hooks µC/OS-II's port calls when OS_APP_HOOKS_EN is set
 * (the vendor profile, as the kernel's template ships it): rtosmeter's own
 * empty hooks, the same work as the template's app_hooks.c, which defines
 * every hook with an empty body. In the lowpower profile (RM_UC_IDLE_WFI,
 * os_cfg.h) the idle hook executes WFI, as the template's comment suggests
 * ("to STOP the CPU to conserve power"); every other hook stays empty. */
#include "ucos_ii.h"

#if OS_APP_HOOKS_EN > 0u
void App_TaskCreateHook(OS_TCB *ptcb)
{
    (void)ptcb;
}

void App_TaskDelHook(OS_TCB *ptcb)
{
    (void)ptcb;
}

void App_TaskIdleHook(void)
{
#if RM_UC_IDLE_WFI
    /* Interrupts are enabled here: an interrupt that readies a task pends
     * PendSV, which runs before the WFI is reached. */
    __asm volatile("dsb\n wfi" ::: "memory");
#endif
}

void App_TaskStatHook(void)
{
}

void App_TaskReturnHook(OS_TCB *ptcb)
{
    (void)ptcb;
}

#if OS_TASK_SW_HOOK_EN > 0u
void App_TaskSwHook(void)
{
}
#endif

void App_TCBInitHook(OS_TCB *ptcb)
{
    (void)ptcb;
}

#if OS_TIME_TICK_HOOK_EN > 0u
void App_TimeTickHook(void)
{
}
#endif
#endif

/* The application hooks (OS_CFG_APP_HOOKS_EN = 1). The vendor profile, as
 * the kernel's template ships it: rtosmeter's own empty hooks, installed at
 * start as the template's os_app_hooks.c does with App_OS_SetAllHooks (every
 * hook of the template has an empty body). The lowpower profile
 * (RM_UC_IDLE_WFI, os_cfg.h) installs the idle task's hook alone: WFI. */
#include "os.h"

#if OS_CFG_APP_HOOKS_EN > 0u
#if RM_UC_VENDOR
static void rm_uc3_hook_void(void)
{
}

static void rm_uc3_hook_tcb(OS_TCB *p_tcb)
{
    (void)p_tcb;
}
#endif

#if RM_UC_IDLE_WFI
/* Interrupts are enabled in the idle hook: an interrupt that readies a task
 * pends PendSV, which runs before the WFI is reached. */
static void rm_uc3_idle_wfi(void)
{
    __asm volatile("dsb\n wfi" ::: "memory");
}
#endif

void rm_uc3_set_app_hooks(void);
void rm_uc3_set_app_hooks(void)
{
    CPU_SR_ALLOC();
    CPU_CRITICAL_ENTER();
#if RM_UC_VENDOR
    OS_AppIdleTaskHookPtr = rm_uc3_hook_void;
    OS_AppStatTaskHookPtr = rm_uc3_hook_void;
    OS_AppTaskCreateHookPtr = rm_uc3_hook_tcb;
    OS_AppTaskDelHookPtr = rm_uc3_hook_tcb;
    OS_AppTaskReturnHookPtr = rm_uc3_hook_tcb;
    OS_AppTaskSwHookPtr = rm_uc3_hook_void;
    OS_AppTimeTickHookPtr = rm_uc3_hook_void;
#endif
#if RM_UC_IDLE_WFI
    OS_AppIdleTaskHookPtr = rm_uc3_idle_wfi;
#endif
    CPU_CRITICAL_EXIT();
}
#endif

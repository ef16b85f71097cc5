/* The application hooks of the vendor profile (OS_CFG_APP_HOOKS_EN = 1, as
 * the kernel's template ships it): rtosmeter's own empty hooks, installed at
 * start as the template's os_app_hooks.c does with App_OS_SetAllHooks (every
 * hook of the template has an empty body). */
#include "os.h"

#if OS_CFG_APP_HOOKS_EN > 0u
static void rm_uc3_hook_void(void)
{
}

static void rm_uc3_hook_tcb(OS_TCB *p_tcb)
{
    (void)p_tcb;
}

void rm_uc3_set_app_hooks(void);
void rm_uc3_set_app_hooks(void)
{
    CPU_SR_ALLOC();
    CPU_CRITICAL_ENTER();
    OS_AppIdleTaskHookPtr = rm_uc3_hook_void;
    OS_AppStatTaskHookPtr = rm_uc3_hook_void;
    OS_AppTaskCreateHookPtr = rm_uc3_hook_tcb;
    OS_AppTaskDelHookPtr = rm_uc3_hook_tcb;
    OS_AppTaskReturnHookPtr = rm_uc3_hook_tcb;
    OS_AppTaskSwHookPtr = rm_uc3_hook_void;
    OS_AppTimeTickHookPtr = rm_uc3_hook_void;
    CPU_CRITICAL_EXIT();
}
#endif
